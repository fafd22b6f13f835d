"""Every bot and adapter handles every trump choice a file can offer (issue 18): no-trumps declared after the
auction, concealed or open, the ranks normal or reversed in no-trumps, on parents of both trump kinds; bots play
whole hands where some seat declares no-trumps, the OpenSpiel action space names `trump NT`, and a table save of
such a hand resumes."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from engine import load_game
from engine.adapters.encoding import ActionSpace
from engine.bots.base import make_bot
from engine.play.game import Game

PARENTS = ("twenty-nine", "twenty-eight", "open-trump")
RANKING = ("normal", "reversed")
BOTS = ("random", "heuristic", "pimc:4", "search:4")
AXES = list(itertools.product(PARENTS, RANKING))


def _house(folder: Path, parent: str, ranking: str) -> Game:
    path = folder / f"nt-{parent}-{ranking}.yaml"
    path.write_text(f"schema_version: 1\nextends: {parent}\nname: nt\ndescription: no-trumps after the auction\n"
                    f"trump:\n  declared_as: suit\n  no_trumps: true\n  no_trumps_ranking: {ranking}\n")
    return load_game(path)


def _play(game: Game, spec: str, seed: int, force_nt: bool) -> tuple[str, bool]:
    """A hand: `spec` at every seat; with `force_nt` the bidder declares no-trumps whenever it may."""
    state = game.new_hand(seed % game.n, seed=seed)
    bots = [make_bot(spec, game, seed * 10 + s) for s in range(game.n)]
    chose_nt = False
    while not state.is_terminal:
        legal = state.legal_actions()
        nt = [a for a in legal if a.verb == "trump" and a.arg == "NT"]
        if nt and force_nt:
            action = nt[0]
        else:
            action = bots[state.to_act].choose(state.view(state.to_act), legal)
        chose_nt = chose_nt or (action.verb == "trump" and action.arg == "NT")
        state.apply(action)
    return state.status, chose_nt


@pytest.mark.parametrize(("parent", "ranking"), AXES)
@pytest.mark.parametrize("spec", BOTS)
def test_every_bot_plays_hands_with_no_trumps_declared(tmp_path: Path, parent: str, ranking: str, spec: str) -> None:
    game = _house(tmp_path, parent, ranking)
    declared = 0
    for seed in range(3):
        status, nt = _play(game, spec, seed, force_nt=seed != 0)
        assert status in ("complete", "annulled")
        declared += nt
    assert declared >= 1


@pytest.mark.parametrize(("parent", "ranking"), AXES)
def test_the_action_space_names_every_trump_choice(tmp_path: Path, parent: str, ranking: str) -> None:
    game = _house(tmp_path, parent, ranking)
    space = ActionSpace(game)
    rng = random.Random(3)
    for seed in range(12):
        state = game.new_hand(seed % game.n, seed=seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            for a in legal:
                assert space.action(a.seat, space.of(a)) == a
            nt = [a for a in legal if a.arg == "NT" and a.verb == "trump"]
            state.apply(nt[0] if nt else rng.choice(legal))


def test_openspiel_plays_a_no_trump_hand(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from engine.adapters.openspiel import register, use_game

    game = _house(tmp_path, "twenty-nine", "normal")
    name = register()
    osg = pyspiel.load_game(name, {"ruleset": use_game(game)})
    rng = random.Random(1)
    seen_nt = False
    for _ in range(4):
        st = osg.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(rng.choice(outcomes)[0])
                continue
            legal = st.legal_actions()
            names = [st.action_to_string(st.current_player(), a) for a in legal]
            nt = [a for a, n in zip(legal, names, strict=True) if n.endswith("trump NT")]
            seen_nt = seen_nt or bool(nt)
            st.apply_action(nt[0] if nt else rng.choice(legal))
    assert seen_nt


def test_openspiel_refuses_a_card_dealt_twice_and_negative_ids() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from engine.adapters.openspiel import register

    name = register()
    st = pyspiel.load_game(name).new_initial_state()
    st.apply_action(5)
    for bad in (5, -2, 10_000):
        with pytest.raises(pyspiel.SpielError):
            st.apply_action(bad)
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes()[0][0])
    with pytest.raises(Exception, match="not in the action space"):
        st.apply_action(-2)
