"""Helpers for the outside-bot tests: a scriptable fake bot program, and checks that no process is left."""

from __future__ import annotations

import json
import os
import random
import shlex
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from engine.play.actions import Action
from engine.play.compile import load_game
from engine.play.view import View

T = TypeVar("T")

# The fake bot runs `spec["pre"]` before reading anything, then for request number i the ops of
# `spec["steps"][min(i, last)]`, and `spec["eof"]` once its input closes. Ops:
#   ["w", HEX]              write these bytes to standard output
#   ["rep", HEX, N]         write these bytes N times over (in one go)
#   ["good"]                answer the first legal action, one line
#   ["seat", K]             answer the first legal action prefixed with seat number (seat + K)
#   ["sleep", S]            sleep S seconds
#   ["exit", CODE]          exit at once
#   ["close"]               close standard output
#   ["fork", PIDFILE]       fork a child that keeps the pipes and sleeps a minute (its pid appended to PIDFILE)
#   ["stderr", N]           write N bytes to standard error
#   ["pid", PIDFILE]        append the program's own pid to PIDFILE
#   ["escape", PIDFILE]     fork a child that starts a session of its own and sleeps a minute (pid to PIDFILE)
FAKE_BOT = r"""
import json, os, sys, time
spec = json.loads(sys.argv[1])
def out(data):
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]
def note(path, pid):
    with open(path, "a") as f:
        f.write(f"{pid}\n")
def run(ops, req):
    for op, *arg in ops:
        if op == "w": out(bytes.fromhex(arg[0]))
        elif op == "rep": out(bytes.fromhex(arg[0]) * arg[1])
        elif op == "good": out(json.dumps({"action": req["legal"][0]}).encode() + b"\n")
        elif op == "seat": out(json.dumps({"action": f"{req['seat'] + arg[0]} {req['legal'][0]}"}).encode() + b"\n")
        elif op == "sleep": time.sleep(arg[0])
        elif op == "exit": os._exit(arg[0])
        elif op == "close": os.close(1)
        elif op == "fork":
            pid = os.fork()
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            if arg[0]: note(arg[0], pid)
        elif op == "stderr":
            data = b"x" * arg[0]
            while data:
                data = data[os.write(2, data):]
        elif op == "pid": note(arg[0], os.getpid())
        elif op == "escape":
            pid = os.fork()
            if pid == 0:
                os.setsid()
                note(arg[0], os.getpid())
                time.sleep(60)
                os._exit(0)
        else: raise SystemExit(f"fake bot: unknown op {op!r}")
run(spec.get("pre", []), {})
steps = spec["steps"]
i = 0
while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    run(steps[min(i, len(steps) - 1)], json.loads(line))
    i += 1
run(spec.get("eof", []), {})
"""


def fake_bot(spec: dict[str, Any]) -> str:
    """A `cmd:` bot spec running the fake bot with this script."""
    return "cmd:" + shlex.join([sys.executable, "-I", "-S", "-c", FAKE_BOT, json.dumps(spec)])


def script_bot(path: Path, code: str) -> str:
    """A `cmd:` bot spec running this Python code from a file."""
    path.write_text(code)
    return "cmd:" + shlex.join([sys.executable, "-I", "-S", str(path)])


def first_decision() -> tuple[View, list[Action]]:
    """The first decision of a twenty-nine hand (seat 1: pass or bid 16..28): `pass` is always legal."""
    st = load_game("twenty-nine").new_hand(0, seed=4)
    view = st.view(st.to_act)
    assert isinstance(view, View)
    return view, st.legal_actions()


def play_decision() -> tuple[View, list[Action]]:
    """A decision in the play of a twenty-nine hand (random choices up to it), with several cards legal."""
    st = load_game("twenty-nine").new_hand(1, seed=9)
    rnd = random.Random(3)
    while st.to_act >= 0:
        legal = st.legal_actions()
        if all(a.verb == "play" for a in legal) and len(legal) > 1:
            view = st.view(st.to_act)
            assert isinstance(view, View)
            return view, legal
        st.apply(rnd.choice(legal))
    raise AssertionError("no play decision found")


def pids_in(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _state(pid: int) -> str | None:
    """The process state letter from /proc (None if it is gone or /proc is not there)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def alive(pid: int) -> bool:
    """Whether the process exists and is not a zombie. Killed orphans become zombies of init, and some container
    inits never reap them: a zombie runs nothing and holds nothing but its pid."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return _state(pid) not in ("Z", "X")


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes of the group; [] as soon as os.killpg(pgid, 0) says the group is gone."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return []
    proc = Path("/proc")
    if not proc.is_dir():
        return [pgid]
    out = []
    for entry in proc.iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
                out.append(int(entry.name))
    return out


def gone(pgids: Sequence[int], pids: Sequence[int] = (), wait: float = 3.0) -> bool:
    """Whether every group and process is gone, waiting up to `wait` seconds for the kernel to finish."""
    end = time.monotonic() + wait
    while True:
        left = [g for g in pgids if group_members(g)] + [p for p in pids if alive(p)]
        if not left or time.monotonic() > end:
            return not left
        time.sleep(0.02)


def within(seconds: float, fn: Callable[[], T]) -> T:
    """fn(), failing the test if it takes longer than `seconds` (a hang must fail, not hang the test run)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001  (handed to the test thread)
            box["error"] = e

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s (hung)"
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]
