"""What the commands that play many hands share: deal ranges (`--deals A:B`, `--hands A:B`), `--workers` and
`--cluster`, and a progress bar on stderr."""

from __future__ import annotations

import re
import sys
from typing import Any

from engine.cli.common import UNREADABLE, fail
from engine.errors import ArgumentError
from engine.executor import parse_cluster

MAX_HANDS = 10**9
_RANGE = re.compile(r"(\d{1,10}):(\d{1,10})")

WORKERS_HELP = "Worker processes on this machine (same result as one)."
CLUSTER_HELP = ("Share the work on a Dask cluster (the 'cluster' extra): local:N starts N worker processes here, "
                "tcp://HOST:PORT uses a running Dask scheduler's workers. Same result as one process. Every wait on "
                "the cluster (connecting, the scheduler's answers, a time without workers) is bounded by Dask's "
                "distributed.comm.timeouts.connect (30 s unless set, e.g. "
                "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=10s).")


def count_or_range(text: str, option: str) -> range:
    """`N` (the first N: 0..N-1) or `A:B` (A..B-1) as a range; a usage error (exit 2) for anything else."""
    t = text.strip()
    if t.isascii() and t.isdigit() and len(t) <= 10:
        n = int(t)
        if not 1 <= n <= MAX_HANDS:
            fail(f"{option}: from 1 to {MAX_HANDS:,}, not {n}", UNREADABLE)
        return range(n)
    m = _RANGE.fullmatch(t)
    if m is None:
        fail(f"{option}: write a number N, or A:B for numbers A to B-1 (a shard of a bigger run), not "
             f"{text[:40]!r}", UNREADABLE)
    a, b = int(m.group(1)), int(m.group(2))
    if not a < b <= MAX_HANDS:
        fail(f"{option} {a}:{b}: A must be below B, and B at most {MAX_HANDS:,}", UNREADABLE)
    return range(a, b)


def check_cluster(cluster: str | None) -> None:
    if cluster is not None:
        try:
            parse_cluster(cluster)
        except ArgumentError as e:
            fail(str(e), UNREADABLE)


class ProgressBar:
    """A rich progress bar on stderr; `progress_bar` makes one only when stderr is a terminal."""

    def __init__(self, total: int, what: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._p = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                           transient=True, console=Console(stderr=True))
        self._p.start()
        self._task = self._p.add_task(what, total=total)

    def update(self, done: int) -> None:
        self._p.update(self._task, completed=done)

    def advance(self, k: int = 1) -> None:
        self._p.advance(self._task, k)

    def close(self) -> None:
        self._p.stop()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def progress_bar(total: int, what: str, quiet: bool = False) -> ProgressBar | None:
    if quiet or not sys.stderr.isatty():
        return None
    return ProgressBar(total, what)

