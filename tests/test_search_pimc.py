"""The `pimc` bot with 0.1's contract policy (`pimc:never`) chooses exactly what the search bot of 0.1 chose
(golden data frozen from main before the search was rewritten: tests/search_golden/make_pimc_golden.py says how),
at 280 seeded positions and in 8 whole hands of self-play, over twenty-eight, twenty-nine, fifty-six and a house
rule loaded from a folder of its own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.bots.base import make_bot
from engine.play.actions import Action
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.view import View

GOLDEN = Path(__file__).parent / "search_golden"
PIMC = "pimc:never"   # pimc with 0.1's contract policy
DATA: dict[str, Any] = json.loads((GOLDEN / "pimc_choices.json").read_text(encoding="utf-8"))


@pytest.fixture
def games(tmp_path: Path) -> dict[str, Game]:
    out = {}
    for name in DATA["games"]:
        if name.endswith(".yaml"):
            shutil.copy(GOLDEN / name, tmp_path / name)
            out[name] = load_game(tmp_path / name)
        else:
            out[name] = load_game(name)
    return out


@pytest.mark.parametrize("name", list(DATA["games"]))
def test_pimc_chooses_as_the_search_bot_of_0_1(name: str, games: dict[str, Game]) -> None:
    game = games[name]
    record = DATA["games"][name]
    differ = []
    for hand_no, upto, bot_seed, expected in record["positions"]:
        hand = record["hands"][hand_no]
        st = game.new_hand(hand["dealer"], seed=hand["seed"])
        for text in hand["history"][:upto]:
            st.apply(Action.parse(text))
        view = st.view(st.to_act)
        assert isinstance(view, View)
        got = str(make_bot(PIMC, game, bot_seed).choose(view, st.legal_actions()))
        if got != expected:
            differ.append((hand_no, upto, got, expected))
    assert not differ, differ
    assert len(record["positions"]) == 70


@pytest.mark.parametrize("name", list(DATA["games"]))
def test_pimc_self_play_repeats_the_hands_of_0_1(name: str, games: dict[str, Game]) -> None:
    """Whole hands: the bots' generators carry from decision to decision, auction and contract steps included."""
    game = games[name]
    for hand in DATA["games"][name]["self_play"]:
        bots = [make_bot(PIMC, game, s) for s in hand["bot_seeds"]]
        st = game.new_hand(hand["dealer"], seed=hand["seed"])
        for expected in hand["history"]:
            view = st.view(st.to_act)
            assert isinstance(view, View)
            action = bots[st.to_act].choose(view, st.legal_actions())
            assert str(action) == expected, (hand["seed"], len(st.history))
            st.apply(action)
        assert st.to_act < 0
