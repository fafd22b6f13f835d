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

Workers never outlive the command: worker processes ignore Ctrl-C (the parent stops them), die with the parent
if it is killed (Linux: PR_SET_PDEATHSIG; a Dask worker watches a pipe to its parent), and SIGTERM or SIGHUP
while jobs run stops every worker before the command exits with status 128 + the signal's number.
"""

from __future__ import annotations

import hashlib
import importlib
import re
import signal
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


class DaskExecutor(Executor):
    """A Dask cluster: `local:N` starts N single-threaded worker processes on this machine for the command's
    duration; `tcp://HOST:PORT` connects to a running scheduler and its workers."""

    def __init__(self, spec: str, timeout: float = 10.0) -> None:
        kind, n, address = parse_cluster(spec)
        try:
            distributed: Any = importlib.import_module("distributed")   # untyped where it is typed at all
        except ImportError:
            raise ClusterError("--cluster needs the 'cluster' extra: pip install 'jacknine[cluster]'") from None
        Client, LocalCluster = distributed.Client, distributed.LocalCluster  # noqa: N806
        self.spec = spec
        self._cluster: Any = None
        self._client: Any = None
        self._catch_signals()
        try:
            self._connect(Client, LocalCluster, kind, n, address, timeout)
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
                self._client = Client(address, timeout=f"{timeout}s")
        except (OSError, TimeoutError) as e:
            raise ClusterError(f"--cluster {spec}: cannot reach the scheduler ({e})") from None
        workers = self._client.run(worker_version)
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
            window.append(self._client.submit(run_job, version, fn, job, pure=False))
            if len(window) >= limit:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()

    def close(self, abort: bool = False) -> None:
        client, cluster = getattr(self, "_client", None), self._cluster
        self._client = self._cluster = None
        try:
            if client is not None:
                client.close(timeout=5)
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

