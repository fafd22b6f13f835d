"""Hostile or broken hand records: a clear one-line error and exit 2 (1 for an illegal action), never a
traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from engine.cli.app import app

GOOD = {
    "ruleset": "twenty-eight",
    "dealer": 3,
    "hands": {0: "JS 9S AH TH KD QD 8C 7C", 1: "9H 8H 7H AS KC QC JD TD", 2: "JH AD 9D 8D 7D TS KS QS",
              3: "JC 9C AC TC KH QH 8S 7S"},
    "actions": ["0 bid 16", "1 pass", "2 bid 20", "3 pass", "0 pass", "1 pass", "2 trump 9D", "2 pass", "0 pass",
                "0 play KD"],
}


def replay(tmp_path: Path, text: str | bytes, *extra: str) -> tuple[int, str, BaseException | None]:
    path = tmp_path / "record.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    r = CliRunner().invoke(app, ["replay", str(path), *extra])
    unexpected = r.exception if r.exception and not isinstance(r.exception, SystemExit) else None
    return r.exit_code, r.output, unexpected


def test_good_record(tmp_path: Path) -> None:
    code, out, exc = replay(tmp_path, yaml.safe_dump(GOOD), "--json")
    assert (code, exc) == (0, None) and json.loads(out)["status"] == "in_progress"


def test_unknown_ruleset_names_the_record_line(tmp_path: Path) -> None:
    code, out, _ = replay(tmp_path, "dealer: 0\nruleset: nosuch\nseed: 1\n")
    assert code == 2 and "record.yaml:2: ruleset 'nosuch' cannot be used" in out


def test_alias_bomb_refused(tmp_path: Path) -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))
    code, out, exc = replay(tmp_path, "ruleset: twenty-eight\ndealer: 0\nseed: 1\n" + bomb)
    assert (code, exc) == (2, None) and "aliases" in out


def test_binary_and_missing(tmp_path: Path) -> None:
    code, out, _ = replay(tmp_path, b"\x00\x01\xff")
    assert code == 2 and out.endswith("record.yaml: binary file (it contains NUL bytes), not YAML text\n")
    r = CliRunner().invoke(app, ["replay", str(tmp_path / "nope.yaml")])
    assert r.exit_code == 2 and r.output.endswith("nope.yaml: no such file\n")


def test_wrong_deal_sizes(tmp_path: Path) -> None:
    rec = dict(GOOD, hands={0: "JS 9S", 1: "9H", 2: "JH", 3: "JC"})
    code, out, _ = replay(tmp_path, yaml.safe_dump(rec))
    assert code == 2 and "seat 0 has 2 cards, each player receives 8" in out


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=True),
                 st.text(max_size=30), st.lists(st.text(max_size=8), max_size=5),
                 st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=3))


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["ruleset", "dealer", "hands", "actions", "seed", "extra"]), value=JUNK,
       drop=st.booleans())
def test_mutated_records_never_crash(tmp_path: Path, key: str, value: object, drop: bool) -> None:
    rec: dict[str, object] = dict(GOOD)
    if drop and key in rec:
        del rec[key]
    else:
        rec[key] = value
    code, out, exc = replay(tmp_path, yaml.safe_dump(rec), "--json")
    assert exc is None, out
    assert code in (0, 1, 2)


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=st.lists(st.text(alphabet="0123 bidpasytrumJS9HDCTQKA", max_size=14), max_size=6))
def test_random_actions_are_refused_cleanly(tmp_path: Path, actions: list[str]) -> None:
    code, out, exc = replay(tmp_path, yaml.safe_dump(dict(GOOD, actions=actions)), "--json")
    assert exc is None, out
    assert code in (0, 1)
    if code == 1:
        assert json.loads(out)["error"]["message"]


# --- records that point somewhere hostile, or are shaped to exhaust the reader ------------------------------
def _one_line(out: str) -> bool:
    return out.count("\n") == 1 and "Traceback" not in out


def test_deep_nesting_is_refused_where_it_starts(tmp_path: Path) -> None:
    for depth in (41, 1000, 100_000):
        code, out, exc = replay(tmp_path, "ruleset: twenty-eight\ndealer: 0\nseed: 1\nx: " + "{a: " * depth + "1"
                                + "}" * depth + "\n")
        assert (code, exc) == (2, None) and "nested too deeply to be a hand record" in out and _one_line(out)


@pytest.mark.parametrize(("ruleset", "message"), [
    ("./pipe.yaml", "pipe.yaml: is a named pipe, not a regular file"),
    ("/dev/stdin", "/dev/stdin: is a device, not a regular file"),
    ("./loop.yaml", "loop.yaml: cannot read the file (a loop of symbolic links"),
    ("x" * 5000, "no such file, and no shipped rule file has this name"),
    ("./" + "x" * 5000 + ".yaml", "cannot read the file (the file name is too long)"),
    ("./folder", "folder: is a directory, not a rule file"),
])
def test_a_ruleset_that_is_not_a_regular_file_never_blocks(tmp_path: Path, ruleset: str, message: str) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    os.symlink("loop2.yaml", tmp_path / "loop.yaml")
    os.symlink("loop.yaml", tmp_path / "loop2.yaml")
    (tmp_path / "folder").mkdir()
    code, out, exc = replay(tmp_path, yaml.safe_dump({"ruleset": ruleset, "dealer": 0, "seed": 1}))
    assert (code, exc) == (2, None), out
    assert message in out and "Traceback" not in out   # (replay_cmd quotes the ruleset name itself, unshortened)


@pytest.mark.parametrize("kind", ["pipe", "loop", "folder", "long"])
def test_the_record_file_itself_must_be_a_regular_file(tmp_path: Path, kind: str) -> None:
    target = tmp_path / ("y" * 5000 if kind == "long" else "record.yaml")
    if kind == "pipe":
        os.mkfifo(target)
    elif kind == "loop":
        os.symlink("record.yaml", target)
    elif kind == "folder":
        target.mkdir()
    r = CliRunner().invoke(app, ["replay", str(target)])
    assert r.exit_code == 2 and _one_line(r.output) and r.exception is None or isinstance(r.exception, SystemExit)
    assert {"pipe": "named pipe", "loop": "symbolic links", "folder": "is a directory",
            "long": "name is too long"}[kind] in r.output


def test_an_action_with_foreign_or_huge_seat_digits_is_illegal_not_a_crash(tmp_path: Path) -> None:
    for seat in ("\u00b2", "\u0663", "1" * 5000):
        code, out, exc = replay(tmp_path, yaml.safe_dump(dict(GOOD, actions=[f"{seat} pass"])), "--json")
        assert (code, exc) == (1, None) and "is not an action" in json.loads(out)["error"]["message"]


def test_duplicate_keys_and_odd_seat_keys_are_refused(tmp_path: Path) -> None:
    code, out, _ = replay(tmp_path, "ruleset: twenty-eight\ndealer: 0\ndealer: 1\nseed: 1\n")
    assert code == 2 and "record.yaml:3:1: duplicate key 'dealer' (first written at line 2)" in out
    code, out, _ = replay(tmp_path, "ruleset: twenty-eight\ndealer: 0\nhands: {true: JS, 0: 9S}\n")
    assert code == 2 and "'True' is not a seat number" in out
