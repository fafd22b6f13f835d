"""Hostile or broken hand records: a clear one-line error and exit 2 (1 for an illegal action), never a
traceback."""

from __future__ import annotations

import json
from pathlib import Path

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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=st.lists(st.text(alphabet="0123 bidpasytrumJS9HDCTQKA", max_size=14), max_size=6))
def test_random_actions_are_refused_cleanly(tmp_path: Path, actions: list[str]) -> None:
    code, out, exc = replay(tmp_path, yaml.safe_dump(dict(GOOD, actions=actions)), "--json")
    assert exc is None, out
    assert code in (0, 1)
    if code == 1:
        assert json.loads(out)["error"]["message"]
