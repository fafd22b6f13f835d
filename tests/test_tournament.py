"""Duplicate tournaments: seatings, luck cancelling, the same result with any number of workers, the command."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from engine.play.compile import load_game
from engine.tournament import mean_ci, play_deal, run, seatings, without_timings


def test_seatings_give_every_seat_to_each_bot_equally() -> None:
    assert seatings(load_game("twenty-eight")) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    for name, count in (("twenty-eight-3p", 6), ("twenty-eight-6p", 6), ("fifty-six", 2)):
        arr = seatings(load_game(name))
        assert len(arr) == count
        for seat in range(len(arr[0])):
            assert sum(a[seat] for a in arr) * 2 == len(arr)


def test_identical_deterministic_bots_tie_on_every_deal() -> None:
    """The rules of thumb use no randomness (`heuristic:v1`: the heuristic's endgame draws worlds from its seeded
    generator): against itself, every deal's seatings cancel exactly."""
    for ruleset in ("twenty-eight", "twenty-nine", "twenty-eight-3p"):
        for i in range(6):
            r = play_deal(load_game(ruleset), ["heuristic:v1", "heuristic:v1"], 5, i)
            assert r.score[0] == pytest.approx(r.score[1])


def test_three_player_seatings_tell_different_bots_apart() -> None:
    """Each seat its own side: the six seatings weigh every seat equally for both bots, so bots that play
    differently score differently."""
    game = load_game("twenty-eight-3p")
    diffs = [play_deal(game, ["heuristic", "random"], 1, i) for i in range(3)]
    assert any(abs(r.score[0] - r.score[1]) > 0.1 for r in diffs)
    for r in diffs:   # each seating plays one hand; every hand has one contract, by one bot or the other
        assert sum(r.contracts) == len(seatings(game))


def test_workers_give_the_same_result_as_one_process() -> None:
    one = run(load_game("twenty-eight"), ["heuristic", "random"], 24, seed=9, workers=1)
    two = run(load_game("twenty-eight"), ["heuristic", "random"], 24, seed=9, workers=2)
    assert without_timings(one) == without_timings(two)
    other_seed = run(load_game("twenty-eight"), ["heuristic", "random"], 24, seed=10, workers=1)
    assert without_timings(other_seed) != without_timings(one)


def test_report_counts_hands_contracts_and_decisions() -> None:
    rep = run(load_game("twenty-nine"), ["heuristic", "random"], 30, seed=1)
    assert rep["deals"] == 30 and rep["hands"] == 60 and rep["seatings_per_deal"] == 2
    a, b = rep["bots"]
    assert a["contracts"] + b["contracts"] + rep["annulled_hands"] == 60
    assert all(x["decisions"] > 0 and x["ms_per_decision"] >= 0 for x in (a, b))
    d = rep["difference"]["game_points_per_hand"]
    assert d == pytest.approx(a["game_points_per_hand"] - b["game_points_per_hand"], abs=1e-3)
    lo, hi = rep["difference"]["ci95"]
    assert lo <= d <= hi


def test_mean_ci() -> None:
    m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and lo == pytest.approx(2.5 - 1.959964 * 1.2909944 / 2) and hi > m
    assert mean_ci([]) == (0.0, 0.0, 0.0)


def test_run_rejects_other_than_two_bots() -> None:
    with pytest.raises(ValueError, match="exactly two bots"):
        run(load_game("twenty-eight"), ["heuristic"], 2, seed=1)


def test_tournament_command_json_and_text() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["tournament", "-r", "twenty-eight", "--bots", "heuristic,random", "--hands", "10",
                              "--seed", "2", "--json"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert [b["bot"] for b in rep["bots"]] == ["heuristic", "random"] and rep["deals"] == 10
    text = runner.invoke(app, ["tournament", "-r", "twenty-eight", "--bots", "heuristic,random", "--hands", "10",
                               "--seed", "2"])
    assert text.exit_code == 0
    assert "difference heuristic - random" in text.stdout and "95% CI" in text.stdout


@pytest.mark.parametrize(("bots", "message"), [
    ("heuristic", "--bots: give exactly two bots separated by a comma, not 1"),
    ("heuristic,clever", "--bots: unknown bot 'clever'"),
])
def test_tournament_command_bad_bots(bots: str, message: str) -> None:
    res = CliRunner().invoke(app, ["tournament", "--bots", bots, "--hands", "2"])
    assert res.exit_code == 2
    assert message in res.stderr


def _bots_section() -> str:
    readme = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    start = readme.index("## Bots and tournaments\n")
    end = readme.find("\n## ", start + 3)
    return readme[start:end]


def test_readme_tournament_commands_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every `jacknine tournament` line of the README section runs (with two deals instead of hundreds)."""
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    commands = [line.split("#")[0].strip() for line in _bots_section().splitlines()
                if line.startswith("jacknine tournament")]
    assert len(commands) == 3
    for command in commands:
        args = shlex.split(command)[1:]
        args[args.index("--hands") + 1] = "2"
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 0, (command, res.output)
        assert "incident (" not in res.stdout, res.stdout   # no outside bot failed


def test_a_forced_move_of_an_unseen_player_builds_no_view(monkeypatch: pytest.MonkeyPatch) -> None:
    # the heuristic plays a lone legal action without reading its view (plays_forced_unseen), so neither the
    # tournament nor simulate builds one then; a view is still built for every other decision, and the decisions
    # are all counted
    from engine.play.state import State
    from engine.sim import play_hands

    built = {"forced": 0, "choice": 0}
    real_view = State.view

    def counting_view(self: State, seat: object) -> object:
        built["forced" if len(self.legal_actions()) == 1 else "choice"] += 1
        return real_view(self, seat)

    monkeypatch.setattr(State, "view", counting_view)
    game = load_game("twenty-eight")
    res = play_deal(game, ["heuristic", "heuristic"], 3, 0)
    assert built["forced"] == 0
    assert 0 < built["choice"] < sum(res.decisions)
    for _ in play_hands(game, ["heuristic"] * game.n, 3, 0, 2):
        pass
    assert built["forced"] == 0
