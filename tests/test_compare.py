"""jacknine compare: the same deals under two rule files by the same bots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import load_game
from engine.cli.app import app
from engine.compare import compare, fits, mechanism
from engine.play.actions import Action

runner = CliRunner()
HOUSE = Path(__file__).resolve().parents[1] / "examples" / "house-rules" / "twenty-nine-no-pair.yaml"


def test_mechanisms_are_read_from_the_actions_themselves() -> None:
    g = load_game("twenty-nine")
    assert [mechanism(g, Action.parse(t)) for t in ("0 bid 16", "1 pass", "2 play JS", "0 trump S", "0 trump 9D",
                                                     "1 call", "2 show pair", "3 double", "0 declare thani",
                                                     "0 trump seventh", "1 raise 20", "0 redeal", "2 bid 30 NT")] == [
        "", "", "", "", "", "call", "show pair", "double", "declare thani", "trump seventh", "raise", "redeal", ""]
    # a verb the rule language gains later is a mechanism of its own, with no edit here
    assert mechanism(g, Action(1, "claim")) == "claim"
    assert mechanism(g, Action(1, "meld", "belote")) == "meld belote"
    assert mechanism(g, Action(1, "meld", "KH")) == "meld"


def test_a_file_against_itself_changes_nothing() -> None:
    g = load_game("twenty-nine")
    rep = compare(g, g, ["heuristic"] * 4, 60, seed=1)
    assert rep["duplicate"] and rep["a"] == rep["b"]
    for d in rep["difference"].values():
        assert d["mean"] == 0.0


def test_report_counts_add_up_and_intervals_hold_their_means() -> None:
    a, b = load_game("twenty-nine"), load_game(str(HOUSE))
    rep = compare(a, b, ["heuristic", "random", "heuristic", "random"], 80, seed=2)
    assert rep["duplicate"] and rep["hands"] == 80
    for side in (rep["a"], rep["b"]):
        contracts = sum(e["hands"]["count"] for e in side["contracts_by_bid"].values())
        assert contracts + side["annulled"] <= 80 and side["complete"] + side["annulled"] == 80
        assert side["success_rate"]["count"] == sum(e["made"]["count"] for e in side["contracts_by_bid"].values())
        for e in (side["game_points"]["bidding_side"], side["hand_length"]["actions"]):
            assert e["ci95"][0] <= e["mean"] <= e["ci95"][1]
        for e in side["mechanisms"].values():
            assert e["used"]["count"] <= e["offered"]["count"] <= 80
    assert "show pair" in rep["a"]["mechanisms"] and "show pair" not in rep["b"]["mechanisms"]
    assert "redeal" in rep["a"]["mechanisms"] and "call" in rep["b"]["mechanisms"]


def test_the_mechanisms_of_other_rule_files_appear_without_edits() -> None:
    rep = compare(load_game("seventh-card"), load_game("thani"), ["heuristic"] * 4, 60, seed=3)
    assert "trump seventh" in rep["a"]["mechanisms"]
    assert any(m.startswith("declare ") for m in rep["b"]["mechanisms"])


def test_deals_that_do_not_fit_both_files_are_dealt_apart() -> None:
    a, b = load_game("twenty-eight-6p"), load_game("forty")
    assert a.n == b.n and not fits(a, b)
    rep = compare(a, b, ["heuristic"] * 6, 20, seed=4)
    assert not rep["duplicate"] and not any(d["paired"] for d in rep["difference"].values())


def test_workers_give_the_same_report() -> None:
    a, b = load_game("twenty-nine"), load_game("twenty-nine-fifteen")
    one = compare(a, b, ["heuristic"] * 4, 50, seed=5)
    assert compare(a, b, ["heuristic"] * 4, 50, seed=5, workers=2) == one
    pytest.importorskip("distributed")
    assert compare(a, b, ["heuristic"] * 4, 50, seed=5, cluster="local:2") == one


def test_compare_command_text_and_json() -> None:
    res = runner.invoke(app, ["compare", "twenty-nine", str(HOUSE), "--hands", "40", "--json"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert rep["a"]["ruleset"] == "twenty-nine" and rep["b"]["ruleset"] == "twenty-nine-no-pair"
    text = runner.invoke(app, ["compare", "twenty-nine", "twenty-nine-fifteen", "--hands", "40"])
    assert text.exit_code == 0
    out = text.stdout
    assert "A = twenty-nine, B = twenty-nine-fifteen: 40 hands, the same deals under both (duplicate)" in out
    for row in ("contracts made", "game points, bidding side", "card points, other side", "actions per hand",
                "contracts by bid", "mechanism", "show pair"):
        assert row in out
    assert res.stderr == "" and text.stderr == ""     # no progress bar off a terminal


@pytest.mark.parametrize(("args", "message", "code"), [
    (["twenty-nine", "forty"], "seats 4 players and forty 6", 2),
    (["twenty-nine", "no-such-file.yaml"], "no-such-file.yaml", 2),
    (["twenty-nine", "twenty-eight", "--bots", "clever"], "--bots: unknown bot 'clever'", 2),
    (["twenty-nine", "twenty-eight", "--cluster", "far:away"], "--cluster 'far:away'", 2),
])
def test_compare_command_refusals_are_one_line(args: list[str], message: str, code: int) -> None:
    res = runner.invoke(app, ["compare", *args, "--hands", "5"])
    assert res.exit_code == code and message in res.stderr and res.stderr.count("\n") == 1, res.output
