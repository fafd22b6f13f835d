"""Hostile shard headers and rows (`tournament merge`) and cut hand records (`simulate merge`): each is refused
with one line and exit 2, in bounded time and memory, and nothing a header says reaches the terminal raw or makes
`--json` print something that is not JSON."""

from __future__ import annotations

import json
import resource
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app

runner = CliRunner()

HEAD = {"jacknine_shard": "tournament", "version": "0.1.0 (x)", "ruleset": "twenty-nine", "ref": "twenty-nine",
        "rules": "5305999968efed28bcc69298", "bots": ["heuristic", "random"], "seed": 0, "seatings_per_deal": 2,
        "deals": [0, 3]}
ROW = {"index": 0, "score": [0.5, -0.5], "contracts": [1, 1], "made": [1, 0], "annulled": 0, "decisions": [41, 42],
       "seconds": [0.01, 0.002], "max_seconds": [0.001, 0.0001], "incidents": [[], []]}


def _shard(path: Path, head: dict[str, object] | None = None, *rows: dict[str, object]) -> Path:
    lines = [json.dumps({**HEAD, **(head or {})})]
    lines += [json.dumps({**ROW, "index": i, **r}) for i, r in enumerate(rows or ({},))]
    path.write_text("\n".join(lines) + "\n")
    return path


def _refused(res: object, *words: str) -> None:
    assert res.exit_code == 2, res.output  # type: ignore[attr-defined]
    err = res.stderr  # type: ignore[attr-defined]
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err


def test_a_sound_shard_still_merges(tmp_path: Path) -> None:
    res = runner.invoke(app, ["tournament", "merge", str(_shard(tmp_path / "a.jsonl", None, {}, {}, {})), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["deals"] == 3


def test_a_huge_deal_range_is_refused_or_summarised_in_bounded_memory(tmp_path: Path) -> None:
    """[0, 10**12]: refused (no run has so many deals). [0, 10**9] with one deal: the note on the missing deals is
    made from ranges, not from a list of a billion numbers."""
    _refused(runner.invoke(app, ["tournament", "merge", str(_shard(tmp_path / "a.jsonl", {"deals": [0, 10**12]}))]),
             "a.jsonl:1:", "deals")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    path = _shard(tmp_path / "b.jsonl", {"deals": [0, 10**9]}, {}, {"index": 5}, {"index": 10**9 - 1})
    res = runner.invoke(app, ["tournament", "merge", str(path), "--json"])
    assert res.exit_code == 0, res.output
    assert res.stderr == ("note: deals missing between 0 and 1000000000: 1:5, 6:999999999 "
                          "(999999997 deals)\n")
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000   # KiB


@pytest.mark.parametrize("row", [{"score": [1e308, 1e308]}, {"score": [-1e300, 0]}, {"seconds": [1e308, 0]},
                                 {"max_seconds": [1e308, 0]}, {"decisions": [10**400, 1]},
                                 {"decisions": [10**12, 1]}, {"contracts": [99, 0]}, {"made": [2, 0]},
                                 {"annulled": 7}, {"max_seconds": [0.5, 0.0001]}])
def test_numbers_no_deal_can_have_are_refused(tmp_path: Path, row: dict[str, object]) -> None:
    path = _shard(tmp_path / "a.jsonl", None, row, row)
    res = runner.invoke(app, ["tournament", "merge", str(path), "--json"])
    _refused(res, "a.jsonl:2:")


def test_seatings_per_deal_must_be_possible(tmp_path: Path) -> None:
    for n in (10**18, 25, 0):
        _refused(runner.invoke(app, ["tournament", "merge",
                                     str(_shard(tmp_path / "a.jsonl", {"seatings_per_deal": n}))]),
                 "a.jsonl:1:", "seatings_per_deal")


@pytest.mark.parametrize("key,value", [("ruleset", "\x1b]0;owned\x07\x1b[2Jtwenty-nine"), ("ruleset", "a\u202eb"),
                                       ("bots", ["heuristic\x1b[31m", "random"]), ("version", "1\r\n2"),
                                       ("ref", "\x9b31m"), ("rules", "x" * 5000)])
def test_header_texts_with_controls_are_refused(tmp_path: Path, key: str, value: object) -> None:
    path = _shard(tmp_path / "a.jsonl", {key: value})
    for extra in ([], ["--json"]):
        res = runner.invoke(app, ["tournament", "merge", str(path), *extra])
        _refused(res, "a.jsonl:1:", key)
        assert "\x1b" not in res.output and "\x9b" not in res.output and "\u202e" not in res.output


def test_incident_texts_reach_the_terminal_escaped(tmp_path: Path) -> None:
    path = _shard(tmp_path / "a.jsonl", None, {"incidents": [["deal 0: \x1b[2Jgone"], []]})
    res = runner.invoke(app, ["tournament", "merge", str(path)])
    assert res.exit_code == 0, res.output
    assert "\x1b" not in res.stdout and "deal 0: \\x1b[2Jgone" in res.stdout


def test_simulate_merge_refuses_a_record_cut_in_its_actions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["simulate", "-r", "twenty-eight", "--hands", "0:2", "--out", "s.jsonl", "--json"])
    assert res.exit_code == 0, res.output
    lines = Path("s.jsonl").read_text().splitlines()
    assert runner.invoke(app, ["simulate", "merge", "s.jsonl"]).exit_code == 0
    cut = json.loads(lines[1])
    cut["actions"] = cut["actions"][:len(cut["actions"]) // 2]
    Path("t.jsonl").write_text(lines[0] + "\n" + json.dumps(cut) + "\n")
    res = runner.invoke(app, ["simulate", "merge", "t.jsonl", "--json"])
    assert res.exit_code == 1 and res.stderr.count("\n") == 1, res.output    # a record problem
    assert res.stderr.startswith("t.jsonl:2") and "before the hand is over" in res.stderr, res.stderr
