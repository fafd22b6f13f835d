"""Outside bots: any program that speaks JSON lines on standard input and output.

For every decision the engine writes one line
    {"type": "act", "protocol": 1, "seat": 2, "view": {...View.to_dict()...}, "legal": ["play JS", ...],
     "time_limit_ms": 2000}
and the program answers with one line `{"action": "play JS"}` (one of `legal`; a leading seat number is allowed;
other keys are ignored). The program is started once and kept running; it should ignore message types it does not
know and exit when its standard input closes. Standard error is the engine's own, for the program's logs; the
engine never reads or writes it, so a program flooding it cannot block the engine (if its own writes there block,
it is simply late).

A program must not
- take longer than `time_limit_ms` to read the request and answer it (the first request includes its start-up);
- write anything else on standard output: nothing before it is asked, one line per request, no second line;
- answer with more than `MAX_ANSWER_BYTES` bytes, JSON nested more than `MAX_DEPTH` deep, text that is not UTF-8
  or an action that is not ASCII, or an answer naming a key twice;
- exit or close its standard output before its standard input closes;
- leave processes behind: it runs in a process group of its own, and the whole group is killed when the program
  is stopped or restarted, when the tournament is over (after `CLOSE_GRACE` seconds to exit by itself), and when
  the engine's interpreter exits. On Linux this holds for processes it starts in sessions or groups of their own,
  and also when the engine is killed outright (SIGKILL): a keeper process kills the program and everything it
  started (see `engine.bots.program`). Elsewhere, a program that leaves its process group is beyond reach.

Whenever a program does any of this, or answers something that is not a legal action, the random bot decides
instead and the tournament's `incidents` say what happened; stray output is discarded. Answers carry no request
number, so output counts as unasked when it is there before a request is written: a program running one answer
ahead is caught at the first request its early answer beats. A program that stalled, exited, closed its output or
wrote more than `MAX_ANSWER_BYTES` without a newline is stopped and restarted for the next decision, up to
`MAX_RESTARTS` times, after which the random bot plays for it. So a decision costs at most the time limit (plus a
fraction of a second to stop a program), a program that has to be stopped costs that at most `MAX_RESTARTS + 1`
times, and a program that answers badly but promptly costs no more than one that answers well."""

from __future__ import annotations

import json
import re
import shlex
import time
from collections.abc import Sequence
from typing import Any

from engine.bots.program import Closed, LineReader, Program, ProgramFault, Stalled, TooLong
from engine.bots.random_bot import RandomBot
from engine.play.actions import Action
from engine.play.view import View

PROTOCOL = 1
DEFAULT_TIME_LIMIT = 2.0   # seconds per decision (the first one includes the program's start-up)
MAX_RESTARTS = 3
MAX_ANSWER_BYTES = 1 << 14
MAX_DEPTH = 16
CLOSE_GRACE = 0.5          # seconds a program gets to exit once its input is closed, before its group is killed
EXIT_GRACE = 0.25          # seconds to wait for an exit code once a program's output has closed


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
        self.process_groups: list[int] = []   # every program started, so that anyone can check they are gone
        self._fallback = RandomBot(None, seed)
        self._program: Program | None = None
        self._starts = 0
        self._given_up: str | None = None
        self._argv: list[str] = []

    def reset(self, seed: int) -> None:
        """A new deal: reseed the stand-in random bot (the program itself keeps running)."""
        self._fallback = RandomBot(None, seed)

    # --- the decision ------------------------------------------------------------------------------
    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        assert view is not None, "an outside bot needs its seat's view"
        self.decisions += 1
        where = f"seat {view.seat}, decision {self.decisions}"
        try:
            return self._ask(view, legal, where)
        except BotFailure as e:
            reason = str(e)
        except Exception as e:  # noqa: BLE001  (a fault on our side must not stop the tournament either)
            self._stop()
            reason = f"internal error talking to the program ({type(e).__name__}: {_show(str(e))}; stopped)"
        self.incidents.append(f"{where}: {reason}; the random bot played")
        return self._fallback.choose(None, legal)

    def _ask(self, view: View, legal: Sequence[Action], where: str) -> Action:
        deadline = time.monotonic() + self.time_limit
        program = self._ready(where)
        sending = True
        try:
            program.send(_request(view, legal, self.time_limit), deadline)
            sending = False
            return read_answer(program.output, deadline, legal)
        except ProgramFault as e:
            raise BotFailure(self._fault_text(program, e, sending)) from None

    def _fault_text(self, program: Program, fault: ProgramFault, sending: bool) -> str:
        """What went wrong, in words, once the program has been stopped."""
        code = program.exit_code(EXIT_GRACE) if isinstance(fault, Closed) else None
        self._stop()
        if isinstance(fault, Stalled):
            if sending:
                return f"the program did not read its request within {self.time_limit:g} s (stalled; stopped)"
            return f"no answer within {self.time_limit:g} s (stalled; stopped)"
        if isinstance(fault, TooLong):
            return f"answer longer than {MAX_ANSWER_BYTES} bytes (stopped)"
        when = "before reading the request" if sending else "instead of answering"
        if code is not None:
            return f"the program exited (code {code}) {when}"
        return f"the program closed its {'input' if sending else 'output'} {when} (stopped)"

    # --- the process -------------------------------------------------------------------------------
    def _ready(self, where: str) -> Program:
        """The program, quiet and running: restarted if it has ended since its last answer (noted in the
        incidents), BotFailure if it wrote anything unasked or has been given up."""
        program = self._program
        if program is None:
            return self._start()
        try:
            unasked = program.output.take_pending(MAX_ANSWER_BYTES)
        except TooLong:
            self._stop()
            raise BotFailure(f"the program wrote more than {MAX_ANSWER_BYTES} bytes unasked (stopped)") from None
        except Closed:
            code = program.exit_code(EXIT_GRACE)
        else:
            if unasked:
                raise BotFailure(f"the program wrote {_show(unasked)} before being asked (discarded)")
            code = program.exit_code()
            if code is None:
                return program
        self._stop()
        ended = "closed its output" if code is None else f"had exited (code {code})"
        self.incidents.append(f"{where}: the program {ended} since its last answer")
        return self._start()

    def _start(self) -> Program:
        """A new program, or BotFailure once it has been given up."""
        if self._given_up is None and self._starts > MAX_RESTARTS:
            self._given_up = f"gave up restarting the program after {self._starts} starts"
        if self._given_up is not None:
            raise BotFailure(self._given_up)
        self._starts += 1
        try:
            self._argv = self._argv or command_argv(self.command)
            program = Program(self._argv)
        except (OSError, ValueError) as e:
            # a program that cannot start never will
            why = (e.strerror or str(e)) if isinstance(e, OSError) else str(e)
            self._given_up = f"cannot start {_brief(self.command)}: {why}"
            raise BotFailure(self._given_up) from None
        self._program = program
        self.process_groups.append(program.pgid)
        return program

    def _stop(self) -> None:
        program, self._program = self._program, None
        if program is not None:
            program.kill()

    def close(self) -> None:
        """Close the program's input (it should exit), then make sure it and everything it started are gone."""
        program, self._program = self._program, None
        if program is not None:
            program.close(CLOSE_GRACE)

    def __del__(self) -> None:
        try:
            self._stop()
        except Exception:  # noqa: BLE001  (interpreter shutdown: nothing left to clean up with)
            pass


def command_argv(command: str) -> list[str]:
    """The program and its arguments, split like a shell command line; ValueError saying why it cannot be."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise ValueError(f"the command line cannot be split ({e})") from None
    if not argv:
        raise ValueError("no program named")
    return argv


def _request(view: View, legal: Sequence[Action], time_limit: float) -> bytes:
    msg = {"type": "act", "protocol": PROTOCOL, "seat": view.seat, "view": view.to_dict(),
           "legal": [a.notation for a in legal], "time_limit_ms": int(time_limit * 1000)}
    return json.dumps(msg).encode() + b"\n"


# --- the answer ------------------------------------------------------------------------------------
def read_answer(output: LineReader, deadline: float, legal: Sequence[Action]) -> Action:
    """The legal action named by the program's next line: ProgramFault if no line comes (the program must be
    stopped), BotFailure if the line is not a usable answer (the program may go on)."""
    line = output.read_line(deadline, MAX_ANSWER_BYTES)
    extra = output.take_buffered()
    if extra:
        raise BotFailure(f"answered more than one line (then {_show(extra)}, discarded)")
    return parse_answer(line, legal)


def parse_answer(line: bytes, legal: Sequence[Action]) -> Action:
    """The legal action an answer line names, or BotFailure saying why it names none. The line is bounded in
    length by the caller; its nesting is checked here before the JSON parser (which recurses) sees it."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise BotFailure(f"answer {_show(line)} is not UTF-8 text") from None
    if _nesting(text) > MAX_DEPTH:
        raise BotFailure(f"answer {_show(text)} is nested more than {MAX_DEPTH} deep")
    try:
        answer = json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey as e:
        raise BotFailure(f"answer {_show(text)} names {_show(str(e))} twice") from None
    except (ValueError, RecursionError):
        raise BotFailure(f"unreadable answer {_show(text)} (expected {{\"action\": \"...\"}})") from None
    action = answer.get("action") if isinstance(answer, dict) else None
    if not isinstance(action, str):
        raise BotFailure(f"answer {_show(text)} has no \"action\" string")
    return match_action(action, legal)


_SEAT = re.compile(r"-?[0-9]{1,6}")   # ASCII digits only: '٣' or '²' is not a seat number


def match_action(text: str, legal: Sequence[Action]) -> Action:
    """The legal action `text` names, in notation with an optional leading seat number; BotFailure if none."""
    if not text.isascii():   # case folding would turn some letters into others ('ſ'.upper() == 'S')
        raise BotFailure(f"illegal action {_show(text)} (not ASCII)")
    words = text.split()
    seat = legal[0].seat
    if words and _SEAT.fullmatch(words[0]):
        if int(words[0]) != seat:
            raise BotFailure(f"answered {_show(text)} for seat {words[0]}, but seat {seat} is to act")
        words = words[1:]
    notation = " ".join(words)
    try:
        wanted: Action | None = Action.parse(f"{seat} {notation}")
    except Exception:  # noqa: BLE001  (any unreadable text is the program's fault, reported below)
        wanted = None
    for a in legal:
        if a == wanted or a.notation == notation:
            return a
    raise BotFailure(f"illegal action {_show(text)}")


class _DuplicateKey(ValueError):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


_JSON_SPECIAL = re.compile(r'[][{}"\\]')


def _nesting(text: str) -> int:
    """How deep the brackets of JSON text nest, outside strings (stops counting past MAX_DEPTH)."""
    depth = deepest = 0
    in_string = False
    escaped = -1   # index of the character a backslash escapes
    for m in _JSON_SPECIAL.finditer(text):
        ch, at = m.group(), m.start()
        if in_string:
            if at == escaped:
                continue
            if ch == "\\":
                escaped = at + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
        elif ch in "]}":
            depth -= 1
    return deepest


def _brief(command: str, limit: int = 80) -> str:
    """The command line as written, cut short if long."""
    return f"'{command}'" if len(command) <= limit else f"'{command[:limit]}...'"


def _show(data: str | bytes, limit: int = 60) -> str:
    """A short quoted form of the program's text that is safe to print: control characters, bidirectional marks
    and lone surrogates come out escaped."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    return repr(text[:limit]) + ("..." if len(text) > limit else "")
