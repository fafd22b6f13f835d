"""Fuzz campaigns over everything people share: rule files (validate, show), hand records (replay --json), saves
(play --resume with standard input at its end) and lines typed at the table.

Every input must give exit 0, 1 or 2, never a traceback; a refusal is one line on stderr and changes no file;
each input takes bounded time (a generous bound: the point is "never hangs"), and the bombs run in a child process
under an address-space limit. Sized for CI (each campaign a few seconds); set JACKNINE_FUZZ_SCALE=20 for a
longer run. The campaigns are derandomized, so a failure replays the same way.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fuzz_support import value_paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from engine.cli.app import app
from engine.rules.load import shipped_rulesets
from engine.table.save import read_save

WORKTREE = Path(__file__).resolve().parents[1]
SCALE = int(os.environ.get("JACKNINE_FUZZ_SCALE", "1"))
SECONDS_PER_INPUT = 20.0            # far above the real figure (well under a second): only a hang fails it
runner = CliRunner()


def campaign(examples: int) -> Callable[[Any], Any]:
    return settings(max_examples=examples * SCALE, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large])


@pytest.fixture
def no_programs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Saves are not flushed to disk (speed), and no input of any campaign may start a program."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    monkeypatch.setenv("NO_COLOR", "1")
    started: list[str] = []

    def refuse(*args: object, **kwargs: object) -> None:
        started.append(repr(args)[:200])
        raise AssertionError("a program was started")
    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)
    for name in ("system", "posix_spawn", "posix_spawnp", "fork", "execv", "execve", "execvp", "popen"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refuse)
    yield started
    assert started == []


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def run(args: list[str], input: str = "") -> tuple[int, str, str]:
    start = time.perf_counter()
    r = runner.invoke(app, args, input=input)
    seconds = time.perf_counter() - start
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise AssertionError(f"{args}: {type(r.exception).__name__}: {r.exception}") from r.exception
    if os.environ.get("JACKNINE_FUZZ_LOG"):  # one line per run: seconds, command, exit code (for the figures)
        with open(os.environ["JACKNINE_FUZZ_LOG"], "a") as log:
            log.write(f"{seconds:.3f} {' '.join(args[:2])[:40]} exit={r.exit_code}\n")
    assert seconds < SECONDS_PER_INPUT, f"{args} took {seconds:.1f} s"
    assert r.exit_code in (0, 1, 2), (r.exit_code, r.output)
    assert "Traceback" not in r.output
    return r.exit_code, r.stdout, r.stderr


def plain_terminal_text(text: str) -> bool:
    """Nothing a terminal could act on: no escape, control (other than newline) or format characters."""
    return all(ch == "\n" or ch.isprintable() for ch in text)


# --- junk ------------------------------------------------------------------------------------------------
HOSTILE_STRINGS = ["cmd:touch pwned", "search:99999999", "/dev/stdin", "/dev/zero", "./pipe.yaml", "./loop.yaml",
                   "~nosuchuser/x.yaml", "x" * 5000, "../" * 60 + "etc/passwd", "\x1b[2J\x1b]0;t\x07", "\u202e",
                   "over", "in_progress", "complete", "annulled", "twenty-eight", "fifty-six", "0 pass",
                   "\u00b2 pass", "1" * 5000 + " pass", "0 play JS", "0 bid 99999999999999999999999"]
text_junk = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
scalar_junk = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.integers(-3, 12),
                        st.floats(allow_nan=True), text_junk, st.sampled_from(HOSTILE_STRINGS))
junk: st.SearchStrategy[Any] = st.recursive(
    scalar_junk, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                         st.dictionaries(st.one_of(text_junk, st.integers(0, 6)), inner,
                                                         max_size=4)),
    max_leaves=6)
yaml_punctuation = st.text(alphabet="&*!|>[]{}:,-#'\"\\\n \t%@`?<=~0123456789abJS\x1b\x00\u202e", max_size=10)


@st.composite
def spliced(draw: st.DrawFn, text: str) -> str:
    """The text with a few edits: junk inserted, a piece deleted, or a line repeated."""
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "repeat"]))
        if kind == "insert":
            text = text[:at] + draw(yaml_punctuation) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        else:
            line_start = text.rfind("\n", 0, at) + 1
            line_end = text.find("\n", at)
            line = text[line_start:line_end + 1 if line_end >= 0 else len(text)]
            text = text[:line_start] + line * draw(st.integers(2, 4)) + text[line_start:]
    return text


@st.composite
def mutated(draw: st.DrawFn, data: Any, edits: int = 3) -> Any:
    """The data with a few values dropped or replaced by junk."""
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, edits))):
        paths = value_paths(data)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        if draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(junk)
    return data


def dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def hostile_folder(folder: Path) -> None:
    """What a shared file may point at: a pipe, a link loop."""
    os.mkfifo(folder / "pipe.yaml")
    os.symlink("loop2.yaml", folder / "loop.yaml")
    os.symlink("loop.yaml", folder / "loop2.yaml")


# --- rule files: validate and show ---------------------------------------------------------------------
SHIPPED_TEXT = {name: path.read_text(encoding="utf-8") for name, path in shipped_rulesets().items()}
SHIPPED_DATA = {name: yaml.safe_load(text) for name, text in SHIPPED_TEXT.items()}
HOUSE = "schema_version: 1\nname: house\ndescription: a house rule\nextends: twenty-eight\n"


def check_rule_file(text: str, name: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        hostile_folder(folder)
        path = folder / name
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        before = snapshot(folder)
        for command in (["validate", str(path)], ["show", str(path)]):
            code, out, err = run(command)
            if code == 2:
                assert err.count("\n") == 1 and plain_terminal_text(err), err
            if code == 1:  # every problem on its own line, naming the file (the lines' text is validate's)
                assert err and all(re.match(r"[^ ]+?(:\d+(:\d+)?)?: ", line) for line in err.split("\n")[:-1]), err
        assert snapshot(folder) == before


@pytest.mark.usefixtures("no_programs")
@campaign(60)
@given(st.sampled_from(sorted(SHIPPED_DATA)), st.data())
def test_fuzz_mutated_shipped_rule_files(name: str, data: st.DataObject) -> None:
    check_rule_file(dump(data.draw(mutated(SHIPPED_DATA[name]))), f"{name}.yaml")   # a house file reusing the name


@pytest.mark.usefixtures("no_programs")
@campaign(60)
@given(st.sampled_from(sorted(SHIPPED_TEXT) + ["house"]), st.data())
def test_fuzz_spliced_rule_files(name: str, data: st.DataObject) -> None:
    base = HOUSE if name == "house" else SHIPPED_TEXT[name]
    check_rule_file(data.draw(spliced(base)), "house.yaml")


@pytest.mark.usefixtures("no_programs")
@campaign(40)
@given(st.one_of(junk.map(dump), yaml_punctuation, st.dictionaries(st.sampled_from(
    ["schema_version", "name", "description", "extends", "deck", "table"]), junk, max_size=5).map(dump)))
def test_fuzz_random_yaml_as_a_rule_file(text: str) -> None:
    check_rule_file(text, "random.yaml")


# --- hand records: replay --json ---------------------------------------------------------------------------
HANDS = Path(__file__).parent / "hands"
RECORDS = {p.name: p.read_text(encoding="utf-8") for p in sorted(HANDS.glob("*.yaml"))[:40]}


def check_record(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        hostile_folder(folder)
        path = folder / "record.yaml"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        before = snapshot(folder)
        code, out, err = run(["replay", str(path), "--json"])
        if code in (0, 1) and out:
            report = json.loads(out)
            assert report["status"] in ("complete", "in_progress", "annulled", "illegal")
            assert (code == 1) == (report["status"] == "illegal")
        else:
            assert code in (1, 2) and err.startswith(str(path)), (code, err)
        assert snapshot(folder) == before


@pytest.mark.usefixtures("no_programs")
@campaign(80)
@given(st.sampled_from(sorted(RECORDS)), st.data())
def test_fuzz_mutated_hand_records(name: str, data: st.DataObject) -> None:
    check_record(dump(data.draw(mutated(yaml.safe_load(RECORDS[name])))))


@pytest.mark.usefixtures("no_programs")
@campaign(60)
@given(st.sampled_from(sorted(RECORDS)), st.data())
def test_fuzz_spliced_hand_records(name: str, data: st.DataObject) -> None:
    check_record(data.draw(spliced(RECORDS[name])))


# --- saves: play --resume with standard input at its end ----------------------------------------------------
@functools.cache
def saves() -> dict[str, str]:
    """Real saves: an unfinished 28 match, a finished one, and an unfinished one under a house rule file."""
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "house.yaml").write_text(HOUSE)
        for key, args, moves in [("progress", ["-r", "twenty-eight", "--seed", "5"], 9),
                                 ("over", ["-r", "twenty-eight", "--seed", "3", "--max-hands", "2"], 400),
                                 ("house", ["-r", str(folder / "house.yaml"), "--seed", "8"], 20)]:
            save = folder / f"{key}-save.yaml"
            r = runner.invoke(app, ["play", *args, "--save", str(save)], input="1\n" * moves)
            assert r.exit_code == 0, r.output
            out[key] = save.read_text()
    return out


SAVE_KINDS = ["progress", "over", "house"]


@st.composite
def save_edits(draw: st.DrawFn, data: dict[str, Any]) -> dict[str, Any]:
    """Edits a person might make to a save: a field, a hand's field, its actions or cards."""
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["field", "hand-field", "action", "drop-action", "cards", "anything"]))
        hands = data.get("hands") if isinstance(data.get("hands"), list) else []
        hand = draw(st.sampled_from(hands)) if hands and isinstance(hands[0], dict) else None
        if kind == "field":
            data[draw(st.sampled_from(["ruleset", "seat", "seed", "bots", "max_hands", "status", "scores",
                                       "winners", "format", "extra"]))] = draw(junk)
        elif kind == "hand-field" and isinstance(hand, dict):
            hand[draw(st.sampled_from(["ruleset", "dealer", "seed", "status", "score_change", "hands",
                                       "note"]))] = draw(junk)
        elif kind == "action" and isinstance(hand, dict) and isinstance(hand.get("actions"), list):
            acts = hand["actions"]
            acts.insert(draw(st.integers(0, len(acts))), draw(st.one_of(
                st.sampled_from(HOSTILE_STRINGS),
                st.builds(lambda s, v, a: f"{s} {v} {a}", st.integers(-1, 6),
                          st.sampled_from(["bid", "pass", "play", "trump", "call", "show", "double"]),
                          st.sampled_from(["", "JS", "9H", "14", "28", "pair", "S"])))))
        elif kind == "drop-action" and isinstance(hand, dict) and hand.get("actions"):
            del hand["actions"][draw(st.integers(0, len(hand["actions"]) - 1))]
        elif kind == "cards" and isinstance(hand, dict) and isinstance(hand.get("hands"), dict) and hand["hands"]:
            seat = draw(st.sampled_from(sorted(hand["hands"], key=repr)))
            cards = str(hand["hands"][seat]).split()
            hand["hands"][seat] = " ".join(draw(st.permutations(cards))[:-1] + [draw(st.sampled_from(
                ["JS", "AS", "7C", "XX", "JS"]))])
        else:
            data = draw(mutated(data, edits=1))
    return data


def check_save(text: str, house: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        hostile_folder(folder)
        if house:
            (folder / "house.yaml").write_text(HOUSE)
        save = folder / "m.yaml"
        save.write_bytes(text.encode("utf-8", "surrogatepass"))
        before = snapshot(folder)
        code, out, err = run(["play", "--resume", str(save)], input="")
        if code != 0:
            assert out == "" and err.count("\n") == 1 and plain_terminal_text(err), (code, out, err)
            assert snapshot(folder) == before
            return
        ended = ("match over" in out or "match stopped at the hand limit" in out)
        assert ("saved to" in out or ended) and plain_terminal_text(out)
        # accepted: what is on disk now is the match's own state, so resuming again changes nothing at all
        after = save.read_bytes()
        read_save(save)
        again, _, err = run(["play", "--resume", str(save)], input="")
        assert again == 0 and err == "" and save.read_bytes() == after


@pytest.mark.usefixtures("no_programs")
@campaign(100)
@given(st.sampled_from(SAVE_KINDS), st.data())
def test_fuzz_edited_saves(key: str, data: st.DataObject) -> None:
    edited = data.draw(save_edits(yaml.safe_load(saves()[key])))
    check_save(dump(edited), key == "house")


@pytest.mark.usefixtures("no_programs")
@campaign(60)
@given(st.sampled_from(SAVE_KINDS), st.data())
def test_fuzz_spliced_saves(key: str, data: st.DataObject) -> None:
    check_save(data.draw(spliced(saves()[key])), key == "house")


@pytest.mark.usefixtures("no_programs")
def test_unedited_saves_resume_unchanged() -> None:
    assert sorted(saves()) == sorted(SAVE_KINDS)
    for key, text in saves().items():
        with tempfile.TemporaryDirectory() as tmp:
            if key == "house":
                (Path(tmp) / "house.yaml").write_text(HOUSE)
            save = Path(tmp) / "m.yaml"
            save.write_text(text)
            code, out, err = run(["play", "--resume", str(save)], input="")
            assert code == 0 and err == "" and save.read_text() == text, (key, out, err)


# --- lines typed at the table ------------------------------------------------------------------------------
typed_line = st.one_of(
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"], exclude_characters="\n\r\x0b\x0c"
                                   "\x1c\x1d\x1e\x85\u2028\u2029"), max_size=15),
    st.builds(" ".join, st.lists(st.sampled_from(
        ["bid", "pass", "play", "trump", "call", "show", "pair", "double", "redouble", "declare", "raise", "q?",
         "JS", "js", "10H", "9", "28", "99999999999999999999", "-1", "0", "1", "2", "\u0663", "\u00b2", "?",
         "help", "NT", "seventh", "S", "\x1b[2J", "\u202e", "\t"]), max_size=4)),
    st.integers(-5, 40).map(str),
    st.just("x" * 300),
)


@pytest.mark.usefixtures("no_programs")
@campaign(40)
@given(st.lists(typed_line, min_size=1, max_size=25), st.integers(0, 3), st.integers(0, 50))
def test_fuzz_lines_typed_at_the_table(lines: list[str], seat: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        save = Path(tmp) / "m.yaml"
        text = "".join(line + "\n" for line in lines)
        code, out, err = run(["play", "-r", "twenty-eight", "--seat", str(seat), "--seed", str(seed), "--save",
                              str(save)], input=text)
        assert code == 0 and err == "", (code, err)
        assert plain_terminal_text(out), [ch for ch in out if not (ch == "\n" or ch.isprintable())]
        saved = save.read_bytes()
        read_save(save)
        code, out, err = run(["play", "--resume", str(save)], input="")
        assert code == 0 and err == "" and save.read_bytes() == saved


# --- bombs, in a child process with limited memory ----------------------------------------------------------
MEMORY_LIMIT = 512 << 20     # the program needs under 200 MiB; the audit's alias bomb passed 550 MB and grew


def _alias_bomb(head: str) -> str:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    lines += [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)]
    return head + "\n".join(lines) + "\n"


SAVE_HEAD = ("format: jacknine match 1\nruleset: twenty-eight\nseat: 0\nseed: 1\nbots: random\nmax_hands: 5\n"
             "status: in_progress\nscores: [0, 0]\nhands: []\n")
RECORD_HEAD = "ruleset: twenty-eight\ndealer: 0\nseed: 1\n"
RULE_HEAD = "schema_version: 1\nname: bomb\ndescription: d\nextends: twenty-eight\n"
BOMBS = [
    ("save-aliases", ["play", "--resume", "f.yaml"], _alias_bomb(SAVE_HEAD), "aliases"),
    ("record-aliases", ["replay", "f.yaml", "--json"], _alias_bomb(RECORD_HEAD), "aliases"),
    ("rule-aliases", ["validate", "f.yaml"], _alias_bomb(RULE_HEAD), "aliases"),
    ("save-deep", ["play", "--resume", "f.yaml"], SAVE_HEAD.replace("hands: []", "hands: " + "[" * 900 + "]" * 900),
     "nested too deeply"),
    ("record-deep", ["replay", "f.yaml"], RECORD_HEAD + "x: " + "{a: " * 100_000, "nested too deeply"),
    ("save-many-values", ["play", "--resume", "f.yaml"], SAVE_HEAD + "x: [" + "0," * 4_000_000 + "]\n",
     "more than 400,000 values"),
]


@pytest.mark.parametrize(("args", "text", "message"), [b[1:] for b in BOMBS], ids=[b[0] for b in BOMBS])
def test_bombs_are_refused_within_a_memory_limit(tmp_path: Path, args: list[str], text: str, message: str) -> None:
    (tmp_path / "f.yaml").write_text(text)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    env = dict(os.environ, PYTHONPATH=str(WORKTREE), NO_COLOR="1")
    r = subprocess.run([sys.executable, "-c", "from engine.cli.app import main; main()", *args], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=120, preexec_fn=limit,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and message in r.stderr, r.stderr[-2000:]
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert (tmp_path / "f.yaml").read_text() == text
