"""A house rule that is not shipped, in a folder of its own, runs through every command and every bot by its own
rules - including a file that reuses a shipped name with different cards, and a stray file in the working folder
named like a game, which nothing may pick up instead."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from engine import load_game
from engine.cli.app import app
from engine.rules.load import shipped_rulesets

runner = CliRunner()
SHIPPED = sorted(shipped_rulesets())
BOTS = ["random", "heuristic", "search:4"]


@pytest.fixture(autouse=True)
def house_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The player's own folder: their house rules, and a stray file named like a shipped game."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    for game in SHIPPED:
        (tmp_path / f"{game}-ours.yaml").write_text(yaml.safe_dump({
            "schema_version": 1, "name": f"{game}-ours", "extends": game,
            "description": f"{game} as we play it", "match": _shorter_match(game)}))
    # same name as the shipped game, different cards: a Six in place of the Queen
    (tmp_path / "sixes.yaml").write_text(
        "schema_version: 1\nname: twenty-eight\nextends: twenty-eight\ndescription: our twenty-eight with sixes\n"
        "deck:\n  ranks: [J, '9', A, T, K, '6', '8', '7']\n")
    (tmp_path / "twenty-eight").write_text("not a rule file\n")
    (tmp_path / "twenty-eight-ours").write_text("not a rule file either\n")
    return tmp_path


@functools.cache
def _shorter_match(game: str) -> dict[str, int]:
    """(Computed once per game for the whole module: the fixture writes the folder for every test.) A house rule's
    shorter match: two deals, a low banked target, or +2/-2 in game points."""
    rules = load_game(game).rules
    if rules.match.deals:
        return {"deals": 2}
    if rules.scoring.banked is not None:
        return {"win_at": 200}
    return {"start": 0, "win_at": 2, "lose_at": -2}


def cli(*args: str, input: str | None = None) -> tuple[int, str]:
    r = runner.invoke(app, list(args), input=input)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r.exit_code, r.output


@pytest.mark.parametrize("game", SHIPPED)
def test_house_rule_of_every_game_plays_with_the_default_bots(game: str) -> None:
    code, out = cli("play", "--ruleset", f"{game}-ours.yaml", "--auto", "--max-hands", "2")
    assert code == 0, out
    assert f"{game}-ours: {game} as we play it" in out
    code, out = cli("simulate", "--ruleset", f"{game}-ours.yaml", "--bots", "heuristic", "--hands", "2", "--json")
    assert code == 0, out
    assert json.loads(out)["ruleset"] == f"{game}-ours"


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("rules", ["sixes.yaml", "twenty-nine-ours.yaml", "fifty-six-ours.yaml",
                                   "twenty-eight-3p-ours.yaml", "seventh-card-ours.yaml"])
def test_every_bot_plays_a_house_rule(rules: str, bot: str) -> None:
    code, out = cli("simulate", "--ruleset", rules, "--bots", bot, "--hands", "2", "--seed", "3", "--json")
    assert code == 0, out
    code, out = cli("play", "--ruleset", rules, "--auto", "--bots", bot, "--max-hands", "1")
    assert code == 0, out


@pytest.mark.parametrize("rules", ["sixes.yaml", "twenty-nine-ours.yaml", "twenty-eight-6p-ours.yaml"])
def test_tournament_on_a_house_rule(rules: str) -> None:
    code, out = cli("tournament", "--ruleset", rules, "--bots", "search:4,heuristic", "--hands", "2", "--json")
    assert code == 0, out
    assert json.loads(out)["deals"] == 2
    code, out = cli("tournament", "--ruleset", rules, "--bots", "random,heuristic", "--hands", "4",
                    "--workers", "2", "--json")
    assert code == 0, out


def test_the_name_reusing_file_is_played_by_its_own_cards() -> None:
    """Sixes, not Queens, in every deal: the bots and the records see the file's own deck."""
    code, out = cli("deal", "--ruleset", "sixes.yaml", "--seed", "1")
    assert code == 0 and "6" in out and "Q" not in out.split("\n", 1)[1]
    code, out = cli("simulate", "--ruleset", "sixes.yaml", "--bots", "search:4", "--hands", "1", "--out",
                    "hands.jsonl")
    assert code == 0, out
    record = json.loads(Path("hands.jsonl").read_text().splitlines()[0])
    assert record["ruleset"] == "sixes.yaml"      # the file, not the shipped game its name: says
    assert any("6" in card for seat in record["hands"].values() for card in seat.split())
    code, out = cli("replay", "--json", "hands.jsonl")
    assert code == 0, out


@pytest.mark.parametrize("rules", ["sixes.yaml", "twenty-nine-ours.yaml", "seventh-card-ours.yaml"])
def test_interactive_play_and_resume_on_a_house_rule(rules: str) -> None:
    code, out = cli("play", "--ruleset", rules, "--seed", "5", "--save", "m.yaml", "--max-hands", "1",
                    input="1\n" * 6)
    assert code == 0, out
    assert "continue with: jacknine play --resume m.yaml" in out
    saved = yaml.safe_load(Path("m.yaml").read_text())
    assert saved["ruleset"] == rules
    code, out = cli("play", "--resume", "m.yaml", input="1\n" * 200)
    assert code == 0, out
    assert "match stopped at the hand limit after 1 hands" in out


def test_openspiel_plays_a_house_rule(house_folder: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from engine.adapters.openspiel import register

    register()
    for rules in ("sixes.yaml", "twenty-nine-ours.yaml"):
        game = pyspiel.load_game("python_jacknine", {"ruleset": str(house_folder / rules)})
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_simulate_out_records_carry_their_outcome_and_replay_as_json_lines() -> None:
    code, out = cli("simulate", "--ruleset", "twenty-nine", "--bots", "heuristic", "--hands", "5", "--seed", "2",
                    "--out", "five.jsonl")
    assert code == 0, out
    lines = Path("five.jsonl").read_text().splitlines()
    assert len(lines) == 5
    records = [json.loads(line) for line in lines]
    code, out = cli("replay", "--json", "five.jsonl")
    assert code == 0, out
    reports = [json.loads(line) for line in out.splitlines()]
    assert len(reports) == 5
    for rec, rep in zip(records, reports, strict=True):
        assert rec["status"] == rep["status"] and rec["game_points"] == rep["game_points"]
        assert rec["card_points"] == rep["card_points"] and rec["teams"] == rep["teams"]


def test_a_bad_line_in_a_json_lines_file_is_named_by_its_line_and_the_rest_replay() -> None:
    cli("simulate", "--ruleset", "twenty-eight", "--hands", "3", "--out", "three.jsonl")
    lines = Path("three.jsonl").read_text().splitlines()
    lines[1] = '{"ruleset": "twenty-eight", "dealer": 9, "seed": 1}'
    Path("three.jsonl").write_text("\n".join(lines) + "\n")
    r = runner.invoke(app, ["replay", "--json", "three.jsonl"])
    assert r.exit_code == 2
    assert len(r.stdout.splitlines()) == 2                      # the other records' reports
    assert "three.jsonl:2" in r.stderr and r.stderr.count("\n") == 1
