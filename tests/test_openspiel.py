"""The OpenSpiel adapter: the encodings without pyspiel, and the registered game with it (skipped if absent)."""

from __future__ import annotations

import random

import pytest

from engine.adapters.encoding import ActionSpace, Observation, deal_length, hands_from_order
from engine.play.compile import load_game
from engine.play.view import View

RULESETS = ["twenty-eight", "twenty-nine", "fifty-six", "forty", "twenty-eight-3p", "twenty-eight-6p", "cot",
            "odisha", "single-hand", "seventh-card", "thani", "pointless-redeal", "gorakhpur", "west-bengal-pair"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_legal_action_has_an_index_that_maps_back(ruleset: str) -> None:
    game = load_game(ruleset)
    space = ActionSpace(game)
    assert len(set(space.names)) == len(space)
    rng = random.Random(1)
    for i in range(15):
        st = game.new_hand(i % game.n, seed=i)
        while st.to_act >= 0:
            legal = st.legal_actions()
            idx = space.legal(st)
            assert len(idx) == len(legal) == sum(space.mask(st))
            for a in legal:
                assert space.action(a.seat, space.of(a)) == a
            st.apply(space.action(st.to_act, rng.choice(idx)))


@pytest.mark.parametrize("ruleset", ["twenty-eight", "fifty-six", "twenty-eight-3p"])
def test_observation_is_fixed_size_deterministic_and_hides_other_hands(ruleset: str) -> None:
    game = load_game(ruleset)
    obs = Observation(game)
    a = game.new_hand(0, seed=3)
    b_hands = [list(h) for h in a.dealt]
    # swap one card between two other seats: seat 0 must not notice
    b_hands[1][-1], b_hands[2][-1] = b_hands[2][-1], b_hands[1][-1]
    b = game.new_hand(0, hands=b_hands)
    for st in (a, b):
        v = st.view(0)
        assert isinstance(v, View)
        x = obs.encode(v)
        assert len(x) == obs.size and x == obs.encode(v)
        assert sum(x[: game.size]) == v.hand.bit_count()
    va, vb = a.view(0), b.view(0)
    assert isinstance(va, View) and isinstance(vb, View)
    assert obs.encode(va) == obs.encode(vb)
    v1 = a.view(1)
    assert isinstance(v1, View)
    assert obs.encode(v1) != obs.encode(va)


@pytest.mark.parametrize("ruleset", ["twenty-eight", "fifty-six", "forty", "twenty-eight-6p"])
def test_chance_order_deals_like_the_engine(ruleset: str) -> None:
    game = load_game(ruleset)
    assert deal_length(game) == game.size   # every shipped file deals the whole pack
    k = next(x for x in game.rules.schedule if x > 0)   # the first packet each seat receives
    for dealer in range(game.n):
        deck = list(range(game.size))
        random.Random(7).shuffle(deck)
        hands = hands_from_order(game, deck, dealer)
        assert sorted(c for h in hands for c in h) == list(range(game.size))
        assert all(len(h) == game.cards_each for h in hands)
        first = game.first_hand(dealer)
        for i in range(game.n):   # packets go round from the first hand, in pack order
            assert hands[(first + i) % game.n][:k] == deck[i * k:(i + 1) * k]
        state = game.new_hand(dealer, hands=hands)
        assert state.dealt == hands


# --- with pyspiel -----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pyspiel():  # type: ignore[no-untyped-def]
    mod = pytest.importorskip("pyspiel")
    from engine.adapters.openspiel import register

    register()
    return mod


@pytest.mark.parametrize("ruleset", ["twenty-eight", "twenty-nine", "fifty-six", "twenty-eight-3p", "seventh-card",
                                     "odisha", "cot"])
def test_openspiel_random_simulation(pyspiel, ruleset: str) -> None:  # type: ignore[no-untyped-def]
    game = pyspiel.load_game("python_jacknine", {"ruleset": ruleset})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_playthrough_masks_chance_and_returns(pyspiel) -> None:  # type: ignore[no-untyped-def]
    game = pyspiel.load_game("python_jacknine", {"ruleset": "twenty-nine", "dealer": 2})
    engine_game = load_game("twenty-nine")
    rng = random.Random(3)
    for _ in range(5):
        s = game.new_initial_state()
        chance_steps = 0
        while s.is_chance_node():
            outcomes = s.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert len(outcomes) == engine_game.size - chance_steps
            s.apply_action(rng.choice(outcomes)[0])
            chance_steps += 1
        assert chance_steps == 32
        while not s.is_terminal():
            p = s.current_player()
            mask = s.legal_actions_mask(p)
            assert sum(mask) == len(s.legal_actions()) > 0
            assert len(s.observation_tensor(p)) == game.observation_tensor_size()
            c = s.clone()
            s.apply_action(rng.choice(s.legal_actions()))
            assert str(c) != str(s)     # the clone did not move with the original
        r = s.returns()
        assert len(r) == 4 and r[0] == r[2] and r[1] == r[3]
