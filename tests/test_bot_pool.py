"""A run builds each seat's bot once and reseeds it for every hand: a reseeded bot chooses exactly as a bot built
with that seed, and a run's report is what bots built hand by hand give. The mechanism tally reads actions by
their index: the same mechanisms as naming each action's mechanism afresh."""

from __future__ import annotations

import random

import pytest

import engine.tournament as tournament
from engine import load_game
from engine.bots.base import make_bot
from engine.compare import mechanism
from engine.executor import chunks
from engine.sim import MechanismWatch, simulate


def _choices(bot: object, game_name: str, seed: int) -> list[str]:
    game = load_game(game_name)
    s = game.new_hand(seed % game.n, seed=seed)
    out = []
    while s.to_act >= 0:
        a = bot.choose(s.view(s.to_act), s.legal_actions())  # type: ignore[attr-defined]
        out.append(str(a))
        s.apply(a)
    return out


@pytest.mark.parametrize("spec", ["random", "heuristic", "pimc:2"])
def test_a_reseeded_bot_is_a_new_one(spec: str) -> None:
    game = load_game("twenty-eight")
    used = make_bot(spec, game, 11)
    _choices(used, "twenty-eight", 4)           # it has played a hand: its generator moved
    for seed in (5, 6):
        used.reseed(seed)  # type: ignore[attr-defined]
        assert _choices(used, "twenty-eight", seed) == _choices(make_bot(spec, game, seed), "twenty-eight", seed)


def test_a_run_builds_each_bot_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game("twenty-nine")
    bots = ["heuristic", "random", "heuristic", "random"]
    before = simulate(game, 30, 3, bots).to_dict()
    built = []
    real = tournament.make_bot

    def counting(spec: str, g: object, seed: int = 0) -> object:
        built.append(spec)
        return real(spec, g, seed)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "make_bot", counting)
    assert simulate(game, 30, 3, bots).to_dict() == before
    assert len(built) == 4 * len(chunks(range(30), 1, most=200))     # once per seat and chunk of hands
    assert len(built) < 30
    # and built hand by hand (no reseed), the report is the same
    monkeypatch.setattr(tournament.BotPool, "get", lambda self, spec, seed, seat: real(spec, self.game, seed))
    assert simulate(game, 30, 3, bots).to_dict() == before


@pytest.mark.parametrize("name", ["twenty-nine", "three-hundred-and-four", "thunee", "fifty-six"])
def test_the_tally_by_index_names_the_mechanisms(name: str) -> None:
    game = load_game(name)
    watch = MechanismWatch(game)
    rng = random.Random(1)
    seen = 0
    for seed in range(6):
        s = game.new_hand(seed % game.n, seed=seed)
        while s.to_act >= 0:
            legal = s.legal_actions()
            for a in legal:
                want = "change" if a.arg.endswith("change") else mechanism(game, a)
                assert watch.key(a) == want
                seen += 1
            s.apply(rng.choice(legal))
    assert seen > 100
