"""Fuzzing the outside-bot answer path with hostile answers: random bytes, long lines, deep nesting, wrong types,
non-UTF-8, look-alike characters, numbers, answers split across writes, cut short, for another seat, unasked,
followed by more lines. Every answer must end in a legal action or a reported failure (never anything else), the
verdict must agree with an independent statement of the protocol, the time must be bounded, and no process may be
left. The fast part drives the read and parse path on os.pipe() pairs; a sample is served by real fake programs.

JACKNINE_FUZZ_SCALE=N multiplies the number of random answers (default 1, sized for CI)."""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from external_support import fake_bot, first_decision, gone, pids_in, play_decision

from engine.bots.base import make_bot
from engine.bots.external import MAX_ANSWER_BYTES, MAX_DEPTH, BotFailure, ExternalBot, read_answer
from engine.bots.program import LineReader, ProgramFault
from engine.play.actions import Action
from engine.play.compile import load_game

SCALE = int(os.environ.get("JACKNINE_FUZZ_SCALE", "1"))
LIMIT = 0.5        # seconds per decision for the fake programs
STALL_WAIT = 0.2   # seconds the pipe cases wait for a line that never ends
SLACK = 3.0        # seconds beyond a bound, for a loaded machine


@dataclass
class Case:
    kind: str
    payload: bytes                          # everything the program writes after the request
    chunks: list[int] = field(default_factory=list)   # split points inside the first line (written with pauses)
    pre: bytes = b""                        # written before the request
    close: bool = True                      # end of output after the payload (else it stays open: a stall)


# --- what the protocol says, stated independently of the code under test ---------------------------------
def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({k for k, _ in pairs}) != len(pairs):
        raise ValueError("a key twice")
    return dict(pairs)


def expected(case: Case, legal: Sequence[Action]) -> Action | None:
    """The action a correct engine takes from this answer, or None when it must report a failure."""
    line, newline, rest = case.payload.partition(b"\n")
    if case.pre or not newline or rest or len(line) > MAX_ANSWER_BYTES:
        return None
    try:
        answer = json.loads(line.decode("utf-8"), object_pairs_hook=_unique)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if _depth(answer) > MAX_DEPTH or not isinstance(answer, dict) or not isinstance(answer.get("action"), str):
        return None
    text = answer["action"]
    if not text.isascii():
        return None
    words = text.split()
    seat = legal[0].seat
    if words and re.fullmatch(r"-?[0-9]{1,6}", words[0]):
        if int(words[0]) != seat:
            return None
        words = words[1:]
    try:
        wanted: Action | None = Action.parse(" ".join([str(seat), *words]))
    except Exception:  # noqa: BLE001
        wanted = None
    return next((a for a in legal if a == wanted or a.notation == " ".join(words)), None)


# --- the hostile answers ----------------------------------------------------------------------------------
def _j(action: Any, **more: Any) -> bytes:
    return json.dumps({"action": action, **more}, ensure_ascii=False).encode("utf-8", "surrogatepass")


def good_answers(legal: Sequence[Action], rnd: random.Random) -> list[bytes]:
    seat = legal[0].seat
    out = []
    for a in rnd.sample(list(legal), min(4, len(legal))):
        n = a.notation
        out += [_j(n), _j(n.lower()), _j(n.upper()), _j(f"{seat} {n}"), _j(f"0{seat}  {n} "), _j(n, why="because"),
                b' {"action" :"' + n.encode() + b'"}\r', b'{"why": [1, {"a": null}], "action": "' + n.encode() + b'"}']
    return out


def structured(legal: Sequence[Action], rnd: random.Random) -> list[Case]:
    seat = legal[0].seat
    n = legal[-1].notation
    good = _j(n)
    cases: list[Case] = []

    def add(kind: str, payload: bytes, **kw: Any) -> None:
        cases.append(Case(kind, payload, **kw))

    for g in good_answers(legal, rnd):
        add("good", g + b"\n")
    # long lines around the limit, and far over it
    pad = MAX_ANSWER_BYTES - len(_j(n, why=""))
    for extra in (-1, 0, 1, 2, 1000):
        add("long", _j(n, why="x" * (pad + extra)) + b"\n")
    for size in (MAX_ANSWER_BYTES - 1, MAX_ANSWER_BYTES + 1, 3 * MAX_ANSWER_BYTES, 200_000, 1_000_003):
        add("long", b"a" * size + b"\n")
        add("long", b"[" * size)
    add("long", good + b"\n" + b"z" * 150_001)
    # nesting, at the limit and beyond, and brackets inside strings (which do not nest)
    for k in (MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 100, 1000):
        add("nesting", b'{"action": "' + n.encode() + b'", "x": ' + b"[" * k + b"]" * k + b"}\n")
        add("nesting", b'{"action": "' + n.encode() + b'", "x": ' + b'{"a":' * k + b"1" + b"}" * k + b"}\n")
    for k in (17, 5000, 16_000, 200_000):
        for unit in (b"[", b"{", b'{"a":', b'[{"a":', b"[\"\\\"\",["):
            add("nesting", unit * k + b"\n")
    add("nesting", b'{"action": "' + n.encode() + b'", "x": "' + b"[" * 5000 + b'"}\n')
    add("nesting", b'{"action": "' + n.encode() + b'", "x": "\\"' + b"{" * 300 + b'\\\\"}\n')
    add("nesting", b'{"action": "' + n.encode() + b'", "x": "\\\\"' + b", " + b"[" * 20 + b"]" * 20 + b"}\n")
    # wrong types and shapes
    for value in ("null", "true", "16", "1.5", '"pass"', "[]", "{}", '["pass"]', '[{"action": "pass"}]',
                  '{"action": null}', '{"action": 16}', '{"action": ["pass"]}', '{"action": {"a": 1}}',
                  '{"Action": "pass"}', '{"action ": "pass"}', '{"action": true}', '{"action": ""}',
                  '{"action": " "}', '{"action": "pass", "action": "pass"}', "{'action': 'pass'}",
                  '{"action": "pass",}', '{"action": "pass"', '{"action": "pass"} {}', "", " ", "\r",
                  '{"action": "pass\\u0000"}', '{"action": "\\u0031 pass"}', '{"action": "pass\\n"}'):
        add("types", value.encode() + b"\n")
    # not UTF-8, or UTF-8 that must not pass for ASCII
    for raw in (b'{"action": "pass\xff"}', b'\xff\xfe{"action": "pass"}', b'\xef\xbb\xbf{"action": "pass"}',
                b'{"action": "p\xc0\xa1ss"}', b'{"action": "pass\xed\xa0\x80"}', b'{"action": "pass\xe2\x82"}',
                '{"action": "pass"}'.encode("utf-16"), b'{"action": "\xa0pass"}'):
        add("encoding", raw + b"\n")
    for text in ("\u0661 pass", "\u00b9 pass", "\uff11 pass", "p\u0430ss", "pas\u017f", "play J\u017f",
                 "bid\u00a016", "pass\u200b", "\u202epass", "\U0001d7cf pass", "\u0967 pass", "b\u0131d 16",
                 "\ud800 pass", f"{seat}\u2003pass", "ＰＡＳＳ"):
        add("unicode", _j(text) + b"\n")
        add("unicode", json.dumps({"action": text}).encode() + b"\n")   # the same, \u-escaped
    # numbers
    for text in ('{"action": 1e999}', '{"action": -0}', '{"action": NaN}', '{"action": Infinity}',
                 '{"action": ' + "9" * 5000 + "}", '{"action": "' + n + '", "n": ' + "9" * 5000 + "}",
                 '{"action": "' + n + '", "n": 1e999999}', '{"action": "99999999999999999999 ' + n + '"}',
                 f'{{"action": "-{seat} {n}"}}', f'{{"action": "+{seat} {n}"}}', f'{{"action": "{seat}.0 {n}"}}',
                 f'{{"action": "000000{seat} {n}"}}', f'{{"action": "{seat}"}}', '{"action": "16"}',
                 '{"action": "bid 16.0"}', '{"action": "bid 016"}', '{"action": "bid 1e1"}'):
        add("numbers", text.encode() + b"\n")
    # answers for another seat
    for other in (seat + 1, seat - 1, seat + 4, -1, 99):
        add("seat", _j(f"{other} {n}") + b"\n")
    # split across writes (at every kind of place, including inside a multi-byte character)
    for g in [*good_answers(legal, rnd)[:6], _j(n, why="é€😀")]:
        for _ in range(3):
            cuts = sorted(rnd.sample(range(1, len(g)), min(3, len(g) - 1)))
            add("split", g + b"\n", chunks=cuts)
    # cut short, unasked, or followed by more
    add("no newline", good)
    add("no newline", good[:-3])
    add("no newline", b"")
    add("stall", good, close=False)
    add("stall", b"", close=False)
    add("stall", good[:5], chunks=[2], close=False)
    add("unasked", good + b"\n", pre=good + b"\n")
    add("unasked", good + b"\n", pre=b"x")
    add("unasked", good + b"\n", pre=b"\n")
    for after in (good + b"\n", b"\n", b"\r\n", b"junk", b"junk\n", b" ", good):
        add("extra lines", good + b"\n" + after)
    return cases


def random_cases(legal: Sequence[Action], rnd: random.Random, count: int) -> list[Case]:
    goods = good_answers(legal, rnd)
    tokens = [b"{", b"}", b"[", b"]", b'"action"', b":", b",", b'"pass"', b'"bid 16"', b'"', b"\\", b"1", b"null",
              b" ", b"\n", b"\xff", b"\xc3\xa9", b"e5", b"-", b"true", b'"play JS"', b'"1 pass"']
    cases = []
    for i in range(count):
        r = i % 4
        if r == 0:
            data = rnd.randbytes(rnd.randrange(0, 200))
        elif r == 1:
            data = b"".join(rnd.choice(tokens) for _ in range(rnd.randrange(1, 30)))
        else:   # a good answer, mutated
            data = bytearray(rnd.choice(goods))
            for _ in range(rnd.randrange(1, 4)):
                at = rnd.randrange(len(data) + 1)
                op = rnd.randrange(4)
                if op == 0 and at < len(data):
                    data[at] = rnd.randrange(256)
                elif op == 1:
                    data[at:at] = rnd.choice(tokens)
                elif op == 2 and at < len(data):
                    del data[at]
                else:
                    data[at:at] = bytes(data[at:at + rnd.randrange(1, 8)])
            data = bytes(data)
        if r != 3 or rnd.random() < 0.8:
            data += b"\n"
        cases.append(Case("random", bytes(data)))
    return cases


# --- the fast part: the read and parse path on pipes -------------------------------------------------------
def _feed(fd: int, case: Case, done: threading.Event) -> None:
    """Write the payload (the first line in pieces, with pauses), then close unless the case stalls."""
    data = case.payload
    cuts = [0, *case.chunks, len(data)]
    try:
        for a, b in zip(cuts, cuts[1:], strict=False):
            piece = memoryview(data)[a:b]
            while piece:
                piece = piece[os.write(fd, piece):]
            if b < len(data):
                time.sleep(0.002)
        if not case.close:
            done.wait(STALL_WAIT + SLACK)
    except BrokenPipeError:   # the reader gave up (a line too long): what a program sees when stopped
        pass
    finally:
        os.close(fd)


def decide_on_pipe(case: Case, legal: Sequence[Action]) -> Action | Exception:
    """What the engine makes of the case's answer, as in ExternalBot: stray output first, then the answer."""
    r, w = os.pipe()
    os.set_blocking(r, False)
    reader = LineReader(r)
    feeder: threading.Thread | None = None
    done = threading.Event()
    try:
        if case.pre:
            os.write(w, case.pre)
        try:
            if reader.take_pending(MAX_ANSWER_BYTES):
                raise BotFailure("wrote before being asked")
            feeder = threading.Thread(target=_feed, args=(w, case, done), daemon=True)
            feeder.start()
            return read_answer(reader, time.monotonic() + STALL_WAIT, legal)
        except (BotFailure, ProgramFault) as e:
            return e
    finally:
        os.close(r)
        done.set()
        if feeder is None:
            os.close(w)
        else:
            feeder.join(10)


def _decisions() -> list[tuple[str, Sequence[Action]]]:
    (_, bids), (_, plays) = first_decision(), play_decision()
    return [("bids", bids), ("plays", plays)]


def test_hostile_answers_on_pipes_end_in_a_legal_action_or_a_reported_failure() -> None:
    tried = accepted = refused = 0
    wrong: list[str] = []
    for name, legal in _decisions():
        rnd = random.Random(f"fuzz/{name}")
        cases = structured(legal, rnd) + random_cases(legal, rnd, 1500 * SCALE)
        for case in cases:
            t0 = time.monotonic()
            outcome = decide_on_pipe(case, legal)
            took = time.monotonic() - t0
            want = expected(case, legal)
            tried += 1
            if isinstance(outcome, Action):
                accepted += 1
                ok = outcome in legal and outcome == want
            else:
                refused += 1
                ok = want is None and str(outcome) != "" and isinstance(outcome, BotFailure | ProgramFault)
            if not ok or took > STALL_WAIT + SLACK:
                wrong.append(f"{case.kind} {case.payload[:80]!r}: got {outcome!r}, expected {want}, {took:.2f} s")
    print(f"\nfuzz on pipes: {tried} answers, {accepted} accepted, {refused} refused, {len(wrong)} wrong")
    assert not wrong, "\n".join(wrong[:20])
    assert accepted > 100 and refused > 1000


# --- a sample served by real programs ---------------------------------------------------------------------
def _write_ops(data: bytes) -> list[list[Any]]:
    """Ops writing `data`, repetitions of a short unit as one op (a program's arguments are bounded in size)."""
    for size in range(2, 9):
        unit, times = data[:size], len(data) // size
        if times >= 64 and data[:size * times] == unit * times:
            return [["rep", unit.hex(), times], ["w", data[size * times:].hex()]]
    ops: list[list[Any]] = []
    literal = b""
    for byte, run in itertools.groupby(data):
        count = sum(1 for _ in run)
        if count < 64:
            literal += bytes([byte]) * count
            continue
        ops += [["w", literal.hex()], ["rep", bytes([byte]).hex(), count]]
        literal = b""
    return [*ops, ["w", literal.hex()]]


def _script_for(case: Case) -> dict[str, Any]:
    ops: list[list[Any]] = []
    cuts = [0, *case.chunks, len(case.payload)]
    for a, b in zip(cuts, cuts[1:], strict=False):
        ops += _write_ops(case.payload[a:b])
        if b < len(case.payload):
            ops.append(["sleep", 0.01])
    if not case.close:
        ops.append(["sleep", 60])
    elif case.kind == "no newline":
        ops.append(["exit", 0])
    pre = [["w", case.pre.hex()]] if case.pre else []
    return {"pre": pre, "steps": [ops]}


BEHAVIOURS: dict[str, dict[str, Any]] = {
    "closes its output then sleeps": {"steps": [[["close"], ["sleep", 60]]]},
    "forks a child holding the pipes": {"steps": [[["fork", "PIDS"], ["good"]]]},
    "forks then crashes": {"steps": [[["fork", "PIDS"], ["exit", 3]]]},
    "floods its output": {"steps": [[["rep", "78", 5_000_000]]]},
    "floods its standard error": {"steps": [[["stderr", 200_000], ["good"]]]},
    "answers for the next seat": {"steps": [[["seat", 1]]]},
    "answers before being asked": {"pre": [["w", b'{"action": "pass"}\n'.hex()], ["sleep", 0.2]],
                                   "steps": [[["good"]]]},
    "ignores the end of its input": {"steps": [[["good"]]], "eof": [["fork", "PIDS"], ["sleep", 60]]},
}
GOOD_BEHAVIOURS = {"forks a child holding the pipes", "floods its standard error", "ignores the end of its input"}


def test_hostile_programs_end_in_legal_actions_and_leave_no_process(tmp_path: Any) -> None:
    _, legal = first_decision()
    rnd = random.Random("fuzz/programs")
    by_kind: dict[str, list[Case]] = {}
    for case in structured(legal, rnd):
        by_kind.setdefault(case.kind, []).append(case)
    sample = [c for kind, cs in sorted(by_kind.items()) for c in rnd.sample(cs, 1 if kind == "stall" else 2)]
    sample += random_cases(legal, rnd, 4)
    pidfile = str(tmp_path / "pids")
    programs: list[tuple[str, dict[str, Any], bool]] = [
        (f"{c.kind} {c.payload[:40]!r}", _script_for(c), expected(c, legal) is not None) for c in sample]
    programs += [(name, json.loads(json.dumps(spec).replace("PIDS", pidfile)), name in GOOD_BEHAVIOURS)
                 for name, spec in BEHAVIOURS.items()]
    wrong: list[str] = []
    groups: list[int] = []
    for name, spec, good in programs:
        bot = make_bot(fake_bot(spec), load_game("twenty-nine"), 1)
        assert isinstance(bot, ExternalBot)
        bot.time_limit = LIMIT
        view, _ = first_decision()
        try:
            for k in range(3):
                if k == 2:   # as other seats play: an answer running ahead of its request is there by now
                    time.sleep(0.05)
                t0 = time.monotonic()
                if bot.choose(view, legal) not in legal:
                    wrong.append(f"{name}: not a legal action")
                if time.monotonic() - t0 > LIMIT + SLACK:
                    wrong.append(f"{name}: took {time.monotonic() - t0:.2f} s")
        finally:
            bot.close()
        groups += bot.process_groups
        if good != (bot.incidents == []) or any("internal error" in x or "cannot start" in x for x in bot.incidents):
            wrong.append(f"{name}: incidents {[x[:200] for x in bot.incidents]}")
    print(f"\nfuzz with programs: {len(programs)} programs, {len(groups)} started, {len(wrong)} wrong")
    assert not wrong, "\n".join(wrong)
    assert gone(groups, pids_in(tmp_path / "pids"))


@pytest.mark.parametrize("unit", [b"[", b"{", b'{"a":'])
def test_nesting_is_refused_without_recursion(unit: bytes) -> None:
    # just under the size limit, far deeper than the JSON parser's recursion limit
    _, legal = first_decision()
    line = unit * (MAX_ANSWER_BYTES // len(unit))
    outcome = decide_on_pipe(Case("nesting", line + b"\n"), legal)
    assert isinstance(outcome, BotFailure) and f"nested more than {MAX_DEPTH} deep" in str(outcome)
