"""`--cluster tcp://` to something that is not a Dask scheduler, and a cluster that breaks mid-run: a silent
server, one that announces a huge frame, random bytes, an HTTP reply, a worker or the scheduler killed while jobs
run. Each ends in one line (ClusterError, exit 2) within the bound, never a hang or a traceback. Tiny fake servers
run in threads; the mid-run cases use a real scheduler and worker (subprocesses of the test, killed by it)."""

from __future__ import annotations

import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from engine.errors import ClusterError

runner = CliRunner()
BOUND = 1.5


def _has_dask() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


pytestmark = pytest.mark.skipif(not _has_dask(), reason="the 'cluster' extra (dask's distributed) is not installed")

# what a Dask scheduler sends first on every connection (its handshake), captured from distributed 2026.8
DASK_GREETING = (b":\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00*\x00\x00\x00\x00\x00\x00\x00"
                 b"\x83\xabcompression\xc0\xa6python\x93\x03\x0b\x07\xafpickle-protocol\x05")

GREETERS: dict[str, Callable[[socket.socket], None]] = {
    "silent": lambda c: None,
    "greets as Dask, then says nothing": lambda c: c.sendall(DASK_GREETING),
    "greets as Dask, then announces 2^40 bytes": lambda c: c.sendall(DASK_GREETING + struct.pack("<Q", 1 << 40)),
    "announces 4 GiB and stops": lambda c: c.sendall(struct.pack("<Q", 4 << 30) + b"\0" * 100),
    "random bytes": lambda c: c.sendall(bytes((i * 151 + 7) % 256 for i in range(4096))),
    "an HTTP reply": lambda c: c.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"),
    "a 2^40-byte frame": lambda c: c.sendall(struct.pack("<Q", 1 << 40)),
    "a frame of garbage": lambda c: c.sendall(struct.pack("<Q", 24) + struct.pack("<Q", 1) + struct.pack("<Q", 8)
                                              + b"\xc1" * 8),
}


@contextmanager
def _server(greet: Callable[[socket.socket], None]) -> Iterator[int]:
    """A TCP server on a free local port that greets every connection so and then keeps it open."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    conns: list[socket.socket] = []
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            try:
                c, _ = srv.accept()
            except OSError:
                return
            conns.append(c)
            try:
                greet(c)
            except OSError:
                pass

    t = threading.Thread(target=loop, daemon=True)
    t.start()
    try:
        yield srv.getsockname()[1]
    finally:
        stop.set()
        srv.close()
        for c in conns:
            c.close()


def _within(seconds: float, fn: Callable[[], object]) -> BaseException | None:
    """What `fn` raised, failing the test when it takes longer than `seconds` (it is left running in a thread)."""
    out: list[BaseException | None] = []

    def run() -> None:
        try:
            fn()
            out.append(None)
        except BaseException as e:  # noqa: BLE001 - handed to the test
            out.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert out, f"still running after {seconds} s"
    return out[0]


@pytest.mark.parametrize("kind", sorted(GREETERS))
def test_a_server_that_is_not_a_scheduler_is_one_line_in_bounded_time(kind: str) -> None:
    from engine.executor import DaskExecutor

    with _server(GREETERS[kind]) as port:
        t0 = time.monotonic()
        err = _within(BOUND + 5, lambda: DaskExecutor(f"tcp://127.0.0.1:{port}", timeout=BOUND))
        assert isinstance(err, ClusterError), repr(err)
        assert time.monotonic() - t0 < BOUND + 2
        text = str(err)
        assert "\n" not in text and text.startswith(f"--cluster tcp://127.0.0.1:{port}: ") and len(text) < 300, text


def test_a_client_dask_is_slow_to_make_is_given_up_in_bounded_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dask's own timeout does not bound making the client (a busy event loop has taken several times as long):
    the executor gives up on it in bounded time, and closes the client once it is made."""
    import distributed

    from engine.executor import DaskExecutor

    made: list[object] = []
    closed: list[object] = []
    release = threading.Event()

    class SlowClient:       # made only once the test lets it (Dask's timeout is not looked at)
        def __init__(self, *args: object, **kwargs: object) -> None:
            release.wait(20)
            made.append(self)

        def close(self, timeout: float | None = None) -> None:
            closed.append(self)

    monkeypatch.setattr(distributed, "Client", SlowClient)
    with _server(GREETERS["greets as Dask, then says nothing"]) as port:
        err = _within(5, lambda: DaskExecutor(f"tcp://127.0.0.1:{port}", timeout=0.2))
    assert isinstance(err, ClusterError) and "did not answer within 0.2 s" in str(err), repr(err)
    release.set()
    deadline = time.monotonic() + 5
    while not closed and time.monotonic() < deadline:
        time.sleep(0.02)
    assert made and closed == made


def test_the_command_says_one_line_and_exits_2() -> None:
    import dask

    with _server(GREETERS["silent"]) as port, dask.config.set({"distributed.comm.timeouts.connect": f"{BOUND}s"}):
        res = _run_cli(["tournament", "--hands", "2", "--cluster", f"tcp://127.0.0.1:{port}"])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1, res.output
    assert "not a Dask scheduler" in res.stderr


def _run_cli(args: list[str]) -> object:
    box: list[object] = []
    assert _within(BOUND + 10, lambda: box.append(runner.invoke(app, args))) is None
    return box[0]


# --- a real cluster broken mid-run ------------------------------------------------------------------------------
LIVE_BOUND = 3.0     # a real scheduler on a busy machine must answer within this: not too tight


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(args: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "dask", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def _kill(p: subprocess.Popen[bytes]) -> None:
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGKILL)
    p.wait(10)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.fixture
def cluster() -> Iterator[tuple[str, subprocess.Popen[bytes], subprocess.Popen[bytes]]]:
    """A Dask scheduler and one worker (no nanny: killed, it stays dead), up and answering; killed afterwards."""
    from engine.executor import DaskExecutor

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = _start(["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"])
    worker = _start(["worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard"])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                DaskExecutor(address, timeout=LIVE_BOUND).close()
                break
            except ClusterError as e:
                assert time.monotonic() < deadline, f"the scheduler and its worker never came up: {e}"
                time.sleep(0.2)
        yield address, scheduler, worker
    finally:
        _kill(scheduler)
        _kill(worker)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="Linux")
def test_the_only_worker_killed_mid_run_is_one_line(
        cluster: tuple[str, subprocess.Popen[bytes], subprocess.Popen[bytes]]) -> None:
    from engine.executor import DaskExecutor

    address, _, worker = cluster
    with DaskExecutor(address, timeout=LIVE_BOUND) as ex:
        results = ex.map(time.sleep, [0.2] + [30] * 3)
        assert next(results) is None            # the cluster works
        _kill(worker)                            # ... and loses its only worker while a job runs
        t0 = time.monotonic()
        err = _within(3 * LIVE_BOUND + 10, lambda: list(results))
        assert isinstance(err, ClusterError) and "no worker" in str(err), repr(err)
        assert time.monotonic() - t0 < 3 * LIVE_BOUND + 5


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="Linux")
def test_the_scheduler_killed_mid_run_is_one_line(
        cluster: tuple[str, subprocess.Popen[bytes], subprocess.Popen[bytes]]) -> None:
    """The command's jobs run on the worker when the scheduler is killed: one line, exit 2 (no Dask traceback)."""
    address, scheduler, worker = cluster
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": f"{LIVE_BOUND}s"}
    command = subprocess.Popen([sys.executable, "-c", "from engine.cli.app import main; main()", "tournament",
                                "--bots", "search,pimc", "--hands", "400", "--cluster", address],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        busy = _cpu_seconds(worker.pid) + 0.3
        deadline = time.monotonic() + 30
        while _cpu_seconds(worker.pid) < busy:
            assert time.monotonic() < deadline and command.poll() is None, "the jobs never started"
            time.sleep(0.1)
        _kill(scheduler)
        t0 = time.monotonic()
        code = command.wait(3 * LIVE_BOUND + 10)
        err = command.stderr.read().decode() if command.stderr else ""
        assert code == 2 and err.count("\n") == 1 and "lost the scheduler" in err, (code, err)
        assert time.monotonic() - t0 < 3 * LIVE_BOUND + 5
    finally:
        if command.poll() is None:
            os.killpg(command.pid, signal.SIGKILL)
            command.wait()
