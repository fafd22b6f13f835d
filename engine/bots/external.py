"""Outside bots: any program that speaks JSON lines on standard input and output.

For every decision the engine writes one line
    {"type": "act", "protocol": 1, "seat": 2, "view": {...View.to_dict()...}, "legal": ["play JS", ...],
     "time_limit_ms": 2000}
and the program answers with one line `{"action": "play JS"}` (one of `legal`; a leading seat number is allowed).
The program is started once and kept running; it should ignore message types it does not know and exit when its
standard input closes. Standard error is passed through for the program's own logs.

A program that crashes, stalls past its time limit, or answers something that is not a legal action is reported
(`incidents`) and the random bot decides instead; a crashed or stalled program is restarted for the next decision,
up to `MAX_RESTARTS` times, after which the random bot plays for it."""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import time
from collections.abc import Sequence

from engine.bots.random_bot import RandomBot
from engine.play.actions import Action
from engine.play.view import View

PROTOCOL = 1
DEFAULT_TIME_LIMIT = 2.0   # seconds per decision (the first one includes the program's start-up)
MAX_RESTARTS = 3
MAX_LINE = 1 << 20


class BotFailure(Exception):
    """The program did not give a usable answer; the message says what went wrong."""


class ExternalBot:
    needs_view = True

    def __init__(self, command: str, seed: int = 0, time_limit: float = DEFAULT_TIME_LIMIT) -> None:
        self.command = command
        self.name = f"cmd:{command}"
        self.time_limit = time_limit
        self.incidents: list[str] = []
        self.decisions = 0
        self._fallback = RandomBot(seed)
        self._proc: subprocess.Popen[bytes] | None = None
        self._buf = b""
        self._starts = 0

    def reset(self, seed: int) -> None:
        """A new deal: reseed the stand-in random bot (the program itself keeps running)."""
        self._fallback = RandomBot(seed)

    # --- the decision ------------------------------------------------------------------------------
    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        assert view is not None, "an outside bot needs its seat's view"
        self.decisions += 1
        try:
            return self._ask(view, legal)
        except BotFailure as e:
            self.incidents.append(f"seat {view.seat}, decision {self.decisions}: {e}; the random bot played")
            return self._fallback.choose(None, legal)

    def _ask(self, view: View, legal: Sequence[Action]) -> Action:
        proc = self._running()
        msg = {"type": "act", "protocol": PROTOCOL, "seat": view.seat, "view": view.to_dict(),
               "legal": [a.notation for a in legal], "time_limit_ms": int(self.time_limit * 1000)}
        assert proc.stdin is not None
        try:
            proc.stdin.write((json.dumps(msg) + "\n").encode())
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise BotFailure(self._crash_text("before reading the request")) from None
        line = self._read_line(proc)
        return _match(line, legal)

    def _read_line(self, proc: subprocess.Popen[bytes]) -> str:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + self.time_limit
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self._stop()
                    raise BotFailure(f"no answer within {self.time_limit:g} s (stalled; stopped)")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise BotFailure(self._crash_text("instead of answering"))
                self._buf += chunk
                if len(self._buf) > MAX_LINE:
                    self._stop()
                    raise BotFailure("answer longer than 1 MiB (stopped)")
        line, _, self._buf = self._buf.partition(b"\n")
        return line.decode("utf-8", errors="replace")

    # --- the process -------------------------------------------------------------------------------
    def _running(self) -> subprocess.Popen[bytes]:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        if self._proc is not None:
            self._stop()
        if self._starts > MAX_RESTARTS:
            raise BotFailure("gave up restarting the program")
        self._starts += 1
        try:
            self._proc = subprocess.Popen(shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          bufsize=0)
        except OSError as e:
            self._starts = MAX_RESTARTS + 1   # a program that cannot start never will
            raise BotFailure(f"cannot start '{self.command}': {e.strerror or e}") from None
        self._buf = b""
        return self._proc

    def _crash_text(self, when: str) -> str:
        proc = self._proc
        code = proc.wait(timeout=1) if proc is not None else None
        self._stop()
        return f"the program exited (code {code}) {when}"

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        self._buf = b""
        if proc is None:
            return
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        if proc.poll() is None:
            proc.kill()
        proc.wait()

    def close(self) -> None:
        """Close the program's input (it should exit), then make sure it has."""
        proc = self._proc
        if proc is not None and proc.poll() is None and proc.stdin is not None:
            try:
                proc.stdin.close()
                proc.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._stop()

    def __del__(self) -> None:
        try:
            self._stop()
        except Exception:  # noqa: BLE001  (interpreter shutdown: nothing left to clean up with)
            pass


def _match(line: str, legal: Sequence[Action]) -> Action:
    """The legal action an answer names, or BotFailure saying why it names none."""
    try:
        answer = json.loads(line)
    except json.JSONDecodeError:
        raise BotFailure(f"unreadable answer {line[:80]!r} (expected {{\"action\": \"...\"}})") from None
    text = answer.get("action") if isinstance(answer, dict) else None
    if not isinstance(text, str):
        raise BotFailure(f"answer {line[:80]!r} has no \"action\" string")
    words = text.split()
    seat = legal[0].seat
    if words and words[0].lstrip("-").isdigit():
        if int(words[0]) != seat:
            raise BotFailure(f"answered '{text}' for seat {words[0]}, but seat {seat} is to act")
        words = words[1:]
    try:
        wanted = Action.parse(" ".join([str(seat), *words]))
    except Exception:  # noqa: BLE001  (any unreadable text is the bot's fault, reported below)
        wanted = None
    for a in legal:
        if a == wanted or a.notation == " ".join(words):
            return a
    raise BotFailure(f"illegal action '{text}'")
