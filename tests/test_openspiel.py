"""The OpenSpiel adapter: the encodings without pyspiel, and the registered game with it (skipped if absent):
random simulations, resampling from an information state, OpenSpiel's IS-MCTS and Shimmy's PettingZoo wrapper."""

from __future__ import annotations

import random

import pytest

from engine import load_game
from engine.adapters.encoding import ActionSpace, Observation, deal_length, hands_from_order
from engine.play.view import View
from tests.rulefile_sets import PLAYED

# the score-only overlays play every hand as their base files (tests/test_rulefile_sets.py)
RULESETS = PLAYED


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


def _dealt(pyspiel, ruleset: str, seed: int):  # type: ignore[no-untyped-def]
    game = pyspiel.load_game("python_jacknine", {"ruleset": ruleset})
    s = game.new_initial_state()
    rng = random.Random(seed)
    while s.is_chance_node():
        s.apply_action(rng.choice(s.legal_actions()))
    return game, s, rng


@pytest.mark.parametrize("ruleset", RULESETS)
def test_resample_from_infostate(pyspiel, ruleset: str) -> None:  # type: ignore[no-untyped-def]
    """OpenSpiel's ResampleInfostate check: at states along random hands, for every player, a resampled state
    has the player's information state string and observation, is a legal state (it plays on to the end), and
    over the samples the cards the player cannot see land in other places."""
    game, s, rng = _dealt(pyspiel, ruleset, 1)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    moved = 0
    while not s.is_terminal():
        for p in range(game.num_players()):
            r = s.resample_from_infostate(p, sampler)
            assert r.information_state_string(p) == s.information_state_string(p)
            assert r.observation_tensor(p) == s.observation_tensor(p)
            assert r.observation_string(p) == s.observation_string(p)
            assert r.current_player() == s.current_player() and len(r.history()) == len(s.history())
            if p == s.current_player():
                assert r.legal_actions() == s.legal_actions()
            moved += r.history()[:deal_length(s.state.game)] != s.history()[:deal_length(s.state.game)]
        play = s.resample_from_infostate(s.current_player(), sampler)
        while not play.is_terminal():
            play.apply_action(rng.choice(play.legal_actions()))
        s.apply_action(rng.choice(s.legal_actions()))
    assert moved > 0


@pytest.mark.parametrize("ruleset", ["three-hundred-and-four", "thunee", "twenty-eight"])
def test_a_state_resampled_again_draws_the_worlds_of_a_fresh_drawer(pyspiel, ruleset: str) -> None:  # type: ignore[no-untyped-def]
    """IS-MCTS resamples its root state for one player at every simulation: the state keeps the drawer that read
    the player's view, and the worlds it draws are those a fresh copy of the state (a new drawer) draws from the
    same sampler seeds, at every point of random hands and for every player, the drawer rebuilt once the state
    moves on or another player is asked."""
    import copy

    for seed in range(2):
        game, s, rng = _dealt(pyspiel, ruleset, seed)
        kept = 0
        players = list(range(game.num_players()))
        while not s.is_terminal():
            players.reverse()     # the first player asked after a step is the last one asked before it
            for p in players:
                before = None
                for k in range(3):
                    again = s.resample_from_infostate(p, random.Random(k).random)
                    fresh = copy.deepcopy(s).resample_from_infostate(p, random.Random(k).random)
                    assert again.history() == fresh.history()
                    if k:
                        kept += s._drawer.drawer is before
                    before = s._drawer.drawer
            s.apply_action(rng.choice(s.legal_actions()))
        assert kept > 0


def test_resample_while_dealing_keeps_the_count(pyspiel) -> None:  # type: ignore[no-untyped-def]
    game = pyspiel.load_game("python_jacknine", {"ruleset": "twenty-nine"})
    s = game.new_initial_state()
    for c in (5, 9, 2):
        s.apply_action(c)
    r = s.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert r.is_chance_node() and len(r.history()) == 3
    assert r.information_state_string(1) == s.information_state_string(1)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_python_ismcts_plays_every_rule_file(pyspiel, ruleset: str) -> None:  # type: ignore[no-untyped-def]
    import numpy as np
    from open_spiel.python.algorithms.ismcts import ISMCTSBot

    from engine.adapters.openspiel import RolloutEvaluator

    game, s, rng = _dealt(pyspiel, ruleset, 2)
    bot = ISMCTSBot(game, RolloutEvaluator(1, seed=3), 2.0, 6, random_state=np.random.RandomState(4))
    # OpenSpiel's own resampling draws from an unseeded sampler: seed it, so that a failure replays
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    bot._resampler_cb = lambda state, player: state.resample_from_infostate(player, sampler)
    while not s.is_terminal():
        action = bot.step(s)
        assert action in s.legal_actions()
        s.apply_action(action)
    assert len(s.returns()) == game.num_players()


def _cpp_bridge_resamples(pyspiel) -> bool:  # type: ignore[no-untyped-def]
    """Whether this OpenSpiel's bridge for Python games passes ResampleFromInfostate on to the Python method
    (open_spiel 2.0.2 does not: its C++ algorithms then stop with 'ResampleFromInfostate() not implemented')."""
    game, s, _ = _dealt(pyspiel, "twenty-nine", 5)
    bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 2, -1,
                            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
    try:
        bot.get_policy(s)     # (not step: step calls in without Python's lock and crashes on the error)
    except pyspiel.SpielError as e:
        assert "ResampleFromInfostate" in str(e)
        return False
    return True


def test_cpp_ismcts_where_openspiel_passes_resampling_on(pyspiel) -> None:  # type: ignore[no-untyped-def]
    if not _cpp_bridge_resamples(pyspiel):
        pytest.skip("this OpenSpiel's C++ bridge for Python games does not forward ResampleFromInfostate")
    for ruleset in ("twenty-eight", "twenty-nine"):
        game, s, _ = _dealt(pyspiel, ruleset, 6)
        bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 20, -1,
                                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
        while not s.is_terminal():
            policy = bot.get_policy(s)
            action = max(policy, key=lambda x: x[1])[0]
            assert action in s.legal_actions()
            s.apply_action(action)


@pytest.mark.parametrize("ruleset", ["twenty-nine", "fifty-six", "twenty-eight-3p"])
def test_shimmy_wrapper_keeps_the_rule_file(pyspiel, ruleset: str) -> None:  # type: ignore[no-untyped-def]
    """Shimmy's OpenSpiel wrapper in the form that works: by name with the parameters as `config` (it reloads
    the game by name at every reset; handed a game object with `env=` it would reload the default rule file)."""
    shimmy = pytest.importorskip("shimmy.openspiel_compatibility")
    from pettingzoo.test import api_test

    env = shimmy.OpenSpielCompatibilityV0(game_name="python_jacknine", config={"ruleset": ruleset})
    api_test(env, num_cycles=200)
    env.reset(seed=1)
    players = load_game(ruleset).n
    assert env.possible_agents == [f"player_{i}" for i in range(players)]
    assert env._env.get_parameters()["ruleset"] == ruleset
    assert env._env.num_distinct_actions() == len(ActionSpace(load_game(ruleset)))


def test_ismcts_bot_plays_tournaments_deterministically(pyspiel) -> None:  # type: ignore[no-untyped-def]
    from engine.tournament import run, without_timings

    for ruleset in ("twenty-eight", "twenty-nine"):
        game = load_game(ruleset)
        one = run(game, ["ismcts:6", "heuristic"], 2, seed=3)
        assert without_timings(run(game, ["ismcts:6", "heuristic"], 2, seed=3)) == without_timings(one)
        assert without_timings(run(game, ["ismcts:6", "heuristic"], 2, seed=3, workers=2)) == without_timings(one)
        assert one["bots"][0]["decisions"] > 0 and one["bots"][0]["incidents"] == 0
