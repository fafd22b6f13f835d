"""The search bots' worlds agree with the melds announced in trick 1 (engine/bots/meld_fit.py): every world the
three drawers make (the search bot's Sampler, pimc's WorldMaker, the OpenSpiel adapter's WorldDrawer) replays on the
history and gives each announcer exactly the melds the view shows (kind, length, value; the cards once shown);
and a seat that did not follow a trump lead under a never-forced trump holds no trump but that card."""

from __future__ import annotations

import random

import pytest

from engine import load_game
from engine.adapters.resample import WorldDrawer
from engine.bots.base import make_bot
from engine.bots.determinize import WorldMaker
from engine.bots.info import read_view
from engine.bots.meld_fit import MeldFit
from engine.bots.model import model_for
from engine.bots.worlds import Sampler
from engine.play.game import Game
from engine.play.state import State
from engine.play.view import View


def _announced(view: View) -> list[tuple[int, str, int, int, int]]:
    return [(m.seat, m.kind, m.length, m.value, m.cards) for m in view.announced]


def _meld_decisions(game: Game, hands: int, seed: int, limit: int) -> list[View]:
    """Decisions with a choice, made after another seat announced a meld (the heuristic plays)."""
    bots = [make_bot("heuristic", game, s) for s in range(game.n)]
    out: list[View] = []
    for h in range(hands):
        st = game.new_hand(h % game.n, seed=seed + h)
        while not st.is_terminal and len(out) < limit:
            legal = st.legal_actions()
            view = st.view(st.to_act)
            assert isinstance(view, View)
            if len(legal) > 1 and any(m.seat != view.seat for m in view.announced) and len(view.tricks) <= 2:
                out.append(view)
            st.apply(bots[st.to_act].choose(view, legal))
    return out


@pytest.mark.parametrize("name", ["coinche", "schieber", "belote"])
def test_every_drawn_world_agrees_with_the_melds_announced(name: str) -> None:
    game = load_game(name)
    model = model_for(game)
    views = _meld_decisions(game, 12, 500, 10)
    assert len(views) >= 5
    placed = 0
    for i, view in enumerate(views):
        seen = read_view(game, view)
        placed += MeldFit(game, seen).active
        want = _announced(view)
        sampler = Sampler(game, seen, model)
        rng = random.Random(i)
        worlds = sampler.sample(rng, 6, 12)
        assert worlds, f"{name}: no world at decision {i}"
        for w, _ in worlds:
            assert _announced(w.view(view.seat)) == want
        maker = WorldMaker(game, seen)
        for _ in range(4):
            st = maker.make(rng)
            if st is not None:
                assert _announced(st.view(view.seat)) == want
        drawn = WorldDrawer(game, view).draw(rng, attempts=20)
        assert drawn is not None, f"{name}: the adapter found no world at decision {i}"
    assert placed


def test_a_seat_not_following_a_trump_lead_holds_only_the_never_forced_trump() -> None:
    game = load_game("schieber")
    assert game.never_forced
    bots = [make_bot("heuristic", game, s) for s in range(game.n)]
    checked = 0
    for h in range(20):
        st: State = game.new_hand(h % game.n, seed=900 + h)
        while not st.is_terminal:
            legal = st.legal_actions()
            view = st.view(st.to_act)
            assert isinstance(view, View)
            trump = view.trump
            if len(legal) > 1 and trump is not None and trump >= 0:
                seen = read_view(game, view)
                maker = WorldMaker(game, seen)
                for t in view.tricks:
                    if game.suit_of[t.cards[0]] != trump:
                        continue
                    for s, c in zip(t.seats[1:], t.cards[1:], strict=True):
                        if s != view.seat and game.suit_of[c] != trump:
                            others = game.suit_masks[trump] & ~game.never_forced
                            assert not maker.slots.allowed[s] & others
                            checked += 1
            st.apply(bots[st.to_act].choose(view, legal))
        if checked >= 3:
            break
    assert checked
