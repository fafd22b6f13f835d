"""One way to run many independent jobs: in this process, in worker processes on this machine, or on a Dask
cluster (`--workers N`, `--cluster local:N`, `--cluster tcp://HOST:PORT`).

    with make_executor(workers=2, cluster=None) as ex:
        for result in ex.map(play_chunk, jobs):      # results in the order of the jobs
            ...

A job is plain data (the compiled `Rules` records, bot names, seeds, deal numbers) and the function a module-level
function of the engine, so a worker needs jacknine installed but no rule file. Every job carries the caller's
`engine_version()` (the package version and a digest of the engine's source files) and a worker running other
code refuses it; a Dask cluster's workers are asked for theirs before anything is sent, and a mix is refused with
one line (`ClusterError`).

A `tcp://` peer is read as untrusted until it has shown it is a Dask scheduler. One bound B, Dask's own setting
`distributed.comm.timeouts.connect` (30 s unless set, e.g. `DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=10s`),
limits every wait: before Dask is handed the address, a plain socket connects and reads the scheduler's greeting (its
handshake message, a few dozen bytes in Dask's framing: at most 64 KiB are accepted) within B; the workers must
say their version within B; while jobs run, the scheduler must answer within B whenever a result is a second late,
and must not be without a worker for more than B. Anything else (a silent peer, a huge or garbled frame, an HTTP
server, the scheduler gone, the last worker gone, workers dying on a job) is one line (`ClusterError`, exit 2).
This guards against a wrong address, not a hostile scheduler: Dask's protocol unpickles what a scheduler sends.

Workers never outlive the command: worker processes ignore Ctrl-C (the parent stops them), die with the parent
if it is killed (Linux: PR_SET_PDEATHSIG; a Dask worker watches a pipe to its parent), and SIGTERM or SIGHUP
while jobs run stops every worker before the command exits with status 128 + the signal's number.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import re
import signal
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any, TypeVar

from engine.errors import ArgumentError, ClusterError

J = TypeVar("J")
R = TypeVar("R")

MAX_LOCAL_WORKERS = 256
WINDOW_PER_WORKER = 4        # jobs in flight per worker: results stream back in order, memory stays bounded
MAX_GREETING = 64 * 1024     # a scheduler's first message (its handshake) is a few dozen bytes
POLL_SECONDS = 1.0           # a result later than this: is the scheduler still there, with workers?
_CLUSTER = re.compile(r"local:(\d{1,3})|tcp://([A-Za-z0-9.\-]{1,253}|\[[0-9A-Fa-f:]{2,39}\]):(\d{1,5})")


class StopWork(SystemExit):  # noqa: N818 - it is an exit, with the shell's status for the signal
    """SIGTERM or SIGHUP arrived while jobs ran: the workers are stopped, then the command exits 128 + signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


@lru_cache(maxsize=1)
def engine_version() -> str:
    """The jacknine version and a digest of the engine's Python sources (the same for the compiled build of the
    same sources, which gives the same results)."""
    try:
        version = metadata.version("jacknine")
    except metadata.PackageNotFoundError:
        version = "unknown"
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return f"{version} ({h.hexdigest()[:12]})"


def worker_version() -> str:
    """What a cluster's workers are asked (sent by name: each answers with its own jacknine)."""
    return engine_version()


def run_job(version: str, fn: Callable[[J], R], job: J) -> R:
    """What a worker runs: the version check, then the job."""
    mine = worker_version()
    if version != mine:
        raise ClusterError(f"this worker runs jacknine {mine}, the job comes from jacknine {version}: install the "
                           "same jacknine on every machine of the cluster")
    return fn(job)


def parse_cluster(spec: str) -> tuple[str, int, str]:
    """('local', N, '') or ('tcp', 0, 'tcp://HOST:PORT'); ArgumentError naming the forms otherwise."""
    m = _CLUSTER.fullmatch(spec)
    if m is None:
        raise ArgumentError(f"--cluster {spec[:80]!r}: write local:N (a Dask cluster of N worker processes on this "
                            "machine) or tcp://HOST:PORT (a running Dask scheduler)")
    if m.group(1) is not None:
        n = int(m.group(1))
        if not 1 <= n <= MAX_LOCAL_WORKERS:
            raise ArgumentError(f"--cluster local:{n}: from 1 to {MAX_LOCAL_WORKERS} workers")
        return "local", n, ""
    port = int(m.group(3))
    if not 1 <= port <= 65535:
        raise ArgumentError(f"--cluster {spec!r}: the port is a number from 1 to 65535")
    return "tcp", 0, spec


class Executor:
    """Runs `fn` over jobs; `map` yields the results in the order of the jobs. Use it as a context manager: on
    leaving it (normally, on an error, on Ctrl-C or a signal) every worker is stopped."""

    workers = 1
    _old: dict[int, Any] | None = None

    def _catch_signals(self) -> None:
        """From here on (before any worker starts) SIGTERM and SIGHUP stop the work: see `StopWork`. A handler the
        program already has for them is kept (whatever it raises ends the work the same way: `__exit__`)."""
        if self._old is None and threading.current_thread() is threading.main_thread():
            self._old = {sig: signal.signal(sig, _stop_on_signal) for sig in (signal.SIGTERM, signal.SIGHUP)
                         if signal.getsignal(sig) in (signal.SIG_DFL, None)}

    def _release_signals(self) -> None:
        old, self._old = self._old, None
        for sig, handler in (old or {}).items():
            signal.signal(sig, handler)

    def __enter__(self) -> Executor:
        self._catch_signals()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        try:
            self.close(abort=exc is not None)
        finally:
            self._release_signals()

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        raise NotImplementedError

    def close(self, abort: bool = False) -> None:
        """Stop the workers (at once when `abort`)."""

    def describe(self) -> str:
        return "this process"


def _stop_on_signal(signum: int, frame: FrameType | None) -> None:
    raise StopWork(signum)


class InlineExecutor(Executor):
    """Every job in this process, one after the other."""

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        for job in jobs:
            yield fn(job)


def _worker_init() -> None:
    """In each worker process: Ctrl-C is the parent's to handle, and the worker dies with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the pool's own checks end idle workers when the parent goes
        pass


class ProcessExecutor(Executor):
    """Worker processes on this machine (the standard library's process pool)."""

    def __init__(self, workers: int) -> None:
        from engine.bots.program import become_subreaper

        self.workers = workers
        self._catch_signals()
        # a bot's child that left its process group is orphaned when its worker dies: it then comes to this
        # process (a child subreaper), which kills it when the pool closes
        become_subreaper()
        self._pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        version = engine_version()
        window: deque[Future[R]] = deque()
        it = iter(jobs)
        limit = self.workers * WINDOW_PER_WORKER
        for job in it:
            window.append(self._pool.submit(run_job, version, fn, job))
            if len(window) >= limit:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()

    def close(self, abort: bool = False) -> None:
        pool = self._pool
        if abort:
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for p in processes:
                if p.is_alive():
                    p.terminate()
            for p in processes:
                p.join(2.0)
                if p.is_alive():
                    p.kill()
                    p.join(1.0)
        else:
            pool.shutdown(wait=True)
        from engine.bots.program import kill_escaped

        for _ in range(5):       # orphans reach this process as their parents die: look a few times
            kill_escaped()
            time.sleep(0.02)

    def describe(self) -> str:
        return f"{self.workers} worker processes"


def _silence_dask() -> None:
    """Dask's loggers print nothing (as LocalCluster's `silence_logs` does it: on the handlers Dask configured)."""
    log = logging.getLogger("distributed")
    log.setLevel(logging.CRITICAL + 1)
    for handler in log.handlers:
        handler.setLevel(logging.CRITICAL + 1)


def cluster_bound() -> float:
    """Seconds any wait on a Dask cluster may last: Dask's `distributed.comm.timeouts.connect` setting."""
    import dask.config
    from dask.utils import parse_timedelta

    try:
        bound = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), default="seconds")
    except (ValueError, TypeError, KeyError):
        raise ClusterError("Dask's setting distributed.comm.timeouts.connect is not a duration (write 10s, 2min)") \
            from None
    if not isinstance(bound, int | float) or not 0 < bound <= 86_400:
        raise ClusterError("Dask's setting distributed.comm.timeouts.connect: from a fraction of a second to a day")
    return float(bound)


def probe_scheduler(spec: str, timeout: float) -> None:
    """Connect to `tcp://HOST:PORT` with a plain socket and read the peer's first message within `timeout`
    seconds: a Dask scheduler greets every connection with its handshake (an 8-byte length, then frames: their
    count, their lengths, a msgpack mapping naming its compression and pickle protocol). ClusterError, one line,
    for anything else; nothing larger than MAX_GREETING is read. The connection is then closed (the scheduler
    notes a connection that closed before the handshake completed)."""
    m = _CLUSTER.fullmatch(spec)
    assert m is not None and m.group(2) is not None
    host, port = m.group(2).strip("[]"), int(m.group(3))
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as e:
        raise ClusterError(f"--cluster {spec}: cannot reach the scheduler ({_reason(e)})") from None
    not_dask = f"--cluster {spec}: not a Dask scheduler:"
    with sock:
        head = _receive(sock, 8, deadline, not_dask, f"it sent no greeting within {timeout:g} s (a scheduler "
                        "greets at once; its default port is 8786, its dashboard's 8787)")
        if head.startswith(b"HTTP/"):
            raise ClusterError(f"{not_dask} it answers as a web server does (a scheduler's default port is 8786)")
        (size,) = struct.unpack("=Q", head)
        if not 16 <= size <= MAX_GREETING:
            raise ClusterError(f"{not_dask} its first message announces {size:,} bytes (a scheduler's greeting is "
                               f"a few dozen; at most {MAX_GREETING:,} are read)")
        body = _receive(sock, size, deadline, not_dask, f"its greeting stopped short within {timeout:g} s")
    if not _is_greeting(body):
        raise ClusterError(f"{not_dask} its first message is not Dask's handshake")


def _receive(sock: socket.socket, n: int, deadline: float, not_dask: str, late: str) -> bytes:
    """Exactly `n` bytes before `deadline`; ClusterError (`not_dask` and why) otherwise."""
    buf = bytearray()
    while len(buf) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise ClusterError(f"{not_dask} {late}")
        sock.settimeout(left)
        try:
            chunk = sock.recv(min(n - len(buf), 65536))
        except TimeoutError:
            raise ClusterError(f"{not_dask} {late}") from None
        except OSError as e:
            raise ClusterError(f"{not_dask} the connection failed before its greeting ({_reason(e)})") from None
        if not chunk:
            raise ClusterError(f"{not_dask} it closed the connection before its greeting was complete")
        buf += chunk
    return bytes(buf)


def _is_greeting(body: bytes) -> bool:
    """Dask's framing of one small message: frame count, lengths adding up, a msgpack mapping first."""
    (count,) = struct.unpack_from("=Q", body)
    if not 1 <= count <= 16 or 8 + 8 * count > len(body):
        return False
    lengths = struct.unpack_from(f"={count}Q", body, 8)
    start = 8 + 8 * count
    if start + sum(lengths) != len(body):
        return False
    try:
        msgpack: Any = importlib.import_module("msgpack")   # Dask's own dependency; untyped
        msg = msgpack.loads(body[start:start + lengths[0]], raw=False, strict_map_key=False)
    except Exception:  # noqa: BLE001 - whatever the decoder says, it is not a greeting
        return False
    return isinstance(msg, dict) and any(k in msg for k in ("pickle-protocol", "compression", "python"))


def _reason(e: BaseException) -> str:
    """An error's reason in a few words, one line."""
    from engine.text import escaped

    text = e.strerror if isinstance(e, OSError) and e.strerror else str(e) or type(e).__name__
    return escaped(text.splitlines()[0] if text.strip() else type(e).__name__, 120)


def _within(seconds: float, fn: Callable[[], R], late: str) -> R:
    """fn(), run in a helper thread; ClusterError(`late`) when it takes longer than `seconds` (the thread is left
    waiting on the Dask client, which closing the client ends)."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append((True, fn()))
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            out.append((False, e))

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    if not out:
        raise ClusterError(late)
    ok, value = out[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


class DaskExecutor(Executor):
    """A Dask cluster: `local:N` starts N single-threaded worker processes on this machine for the command's
    duration; `tcp://HOST:PORT` connects to a running scheduler and its workers."""

    def __init__(self, spec: str, timeout: float | None = None) -> None:
        kind, n, address = parse_cluster(spec)
        try:
            distributed: Any = importlib.import_module("distributed")   # untyped where it is typed at all
        except ImportError:
            raise ClusterError("--cluster needs the 'cluster' extra: pip install '.[cluster]' (from a checkout)") \
                from None
        Client, LocalCluster = distributed.Client, distributed.LocalCluster  # noqa: N806
        self.spec = spec
        self.bound = cluster_bound() if timeout is None else timeout
        self._cluster: Any = None
        self._client: Any = None
        self._killed_worker: type[BaseException] = distributed.KilledWorker
        # Dask logs a lost scheduler with tracebacks, some after the client is closed (its reconnecting task is
        # cancelled): from the first cluster on its log is silent, and what goes wrong is a ClusterError line
        _silence_dask()
        self._catch_signals()
        try:
            self._connect(Client, LocalCluster, kind, n, address, self.bound)
        except BaseException:
            self.close(abort=True)
            self._release_signals()
            raise

    def _connect(self, Client: Any, LocalCluster: Any, kind: str, n: int, address: str,  # noqa: N803
                 timeout: float) -> None:
        spec = self.spec
        try:
            if kind == "local":
                self._cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                             dashboard_address=None, silence_logs=50)
                self._client = Client(self._cluster)
            else:
                probe_scheduler(address, timeout)
                import dask.config

                given_up = threading.Event()

                def make() -> Any:
                    with dask.config.set({"distributed.comm.timeouts.connect": f"{timeout}s"}):
                        client = Client(address, timeout=f"{timeout}s")
                    if given_up.is_set():      # made after the caller gave up on it: closed, not left open
                        client.close(timeout=1)
                    return client

                # Dask's own timeout is not a bound on the whole: with its event loop busy (another client closing
                # in this process, a loaded machine) making the client has taken several times as long
                try:
                    self._client = _within(timeout + 0.5, make, f"--cluster {spec}: the scheduler did not answer "
                                           f"within {timeout:g} s")
                except ClusterError:
                    given_up.set()
                    raise
        except (OSError, TimeoutError) as e:
            raise ClusterError(f"--cluster {spec}: cannot reach the scheduler ({_reason(e)})") from None
        except (ClusterError, KeyboardInterrupt, SystemExit):
            raise
        except Exception as e:  # noqa: BLE001 - whatever the peer made Dask raise (MemoryError, a decoding error)
            raise ClusterError(f"--cluster {spec}: the scheduler's answer cannot be read ({type(e).__name__}: "
                               f"{_reason(e)})") from None
        try:
            workers = _within(timeout, lambda: self._client.run(worker_version),
                              f"--cluster {spec}: the workers did not say their jacknine version within {timeout:g} s")
        except (ClusterError, KeyboardInterrupt, SystemExit):
            raise
        except Exception as e:  # noqa: BLE001 - a worker's failure or the scheduler's, as one line
            raise ClusterError(f"--cluster {spec}: the workers could not be asked their jacknine version "
                               f"({type(e).__name__}: {_reason(e)})") from None
        self.workers = max(1, len(workers))
        mine = engine_version()
        others = sorted({v for v in workers.values() if v != mine})
        if others:
            raise ClusterError(f"--cluster {spec}: workers run jacknine {', '.join(others)}, this is jacknine "
                               f"{mine}: install the same jacknine on every machine of the cluster")
        if not workers:
            raise ClusterError(f"--cluster {spec}: the scheduler has no workers")

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        version = engine_version()
        window: deque[Any] = deque()
        limit = self.workers * WINDOW_PER_WORKER
        for job in jobs:
            try:
                window.append(self._client.submit(run_job, version, fn, job, pure=False))
            except Exception as e:  # noqa: BLE001 - the client cannot send: the scheduler is gone
                raise self._lost(e) from None
            if len(window) >= limit:
                yield self._result(window.popleft())
        while window:
            yield self._result(window.popleft())

    def _result(self, future: Any) -> Any:
        """A job's result; the job's own error as it is; ClusterError when the cluster fails it: the scheduler
        gone or not answering within the bound, no worker for longer than the bound, workers dying on the job."""
        without_workers: float | None = None
        while True:
            try:
                return future.result(timeout=POLL_SECONDS)
            except Exception as e:  # noqa: BLE001 - sorted below: the job's error, a late result, a lost cluster
                status = future.status
                if isinstance(e, self._killed_worker):
                    raise ClusterError(f"--cluster {self.spec}: the workers running a job died, one after the other "
                                       "(out of memory? killed?)") from None
                if status == "error":
                    raise          # the job's own error, as one process would raise it
                if not (isinstance(e, TimeoutError) and status in ("pending", "finished", "lost")):
                    raise self._lost(e) from None
            try:
                workers = self._client.nthreads(callback_timeout=self.bound)
            except Exception as e:  # noqa: BLE001 - any failure to answer is the scheduler's
                raise self._lost(e) from None
            now = time.monotonic()
            if workers:
                without_workers = None
            elif without_workers is None:
                without_workers = now
            elif now - without_workers > self.bound:
                raise ClusterError(f"--cluster {self.spec}: the scheduler has had no worker for {self.bound:g} s "
                                   "while jobs wait (was a worker stopped?)")

    def _lost(self, e: BaseException) -> ClusterError:
        return ClusterError(f"--cluster {self.spec}: lost the scheduler (stopped, or not answering within "
                            f"{self.bound:g} s: {type(e).__name__})")

    def close(self, abort: bool = False) -> None:
        client, cluster = getattr(self, "_client", None), self._cluster
        self._client = self._cluster = None
        try:
            if client is not None:
                try:
                    client.close(timeout=5)
                except Exception:  # noqa: BLE001, S110 - a client whose scheduler is gone closes with errors
                    pass
        finally:
            if cluster is not None:
                cluster.close(timeout=10)

    def describe(self) -> str:
        return f"Dask cluster {self.spec} ({self.workers} workers)"


def make_executor(workers: int = 1, cluster: str | None = None) -> Executor:
    """The executor for `--workers` / `--cluster` (a cluster, when given, takes the place of worker processes)."""
    if cluster is not None:
        return DaskExecutor(cluster)
    if workers > 1:
        return ProcessExecutor(workers)
    return InlineExecutor()


__all__ = ["ClusterError", "DaskExecutor", "Executor", "InlineExecutor", "ProcessExecutor", "StopWork", "chunks",
           "engine_version", "make_executor", "parse_cluster"]


def chunks(indices: range, workers: int, most: int = 25) -> list[range]:
    """`indices` in consecutive pieces: about four per worker, at most `most` each, so the workers share the
    work evenly and the progress moves."""
    n = len(indices)
    size = max(1, min(most, n // (workers * WINDOW_PER_WORKER) or 1))
    return [indices[i:i + size] for i in range(0, n, size)]

