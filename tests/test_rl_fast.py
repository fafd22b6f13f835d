"""The AEC environment's observations are made when asked for (engine.adapters.runner.Parts, joined from
precomputed bytes): at every step of random hands of every shipped file, every seat's row equals the whole encoding
of the state (`Encoder.vector`) and lies inside the observation space (a call above the plain bid range included),
and the mask equals the legal indices. And what a seat observes does not move when the cards it cannot see are
swapped."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import engine.rl  # noqa: E402
from engine.adapters.encoding import last_bids  # noqa: E402
from tests.rulefile_sets import PLAYED  # noqa: E402

HANDS = 12


# besides the shipped files: the deal procedures' turned card and the trump modes (their own parts of the layout)
EXTRA = [str(Path(__file__).parent / "rulefiles" / f) for f in ("deal/turned-two.yaml", "deal/choose-push.yaml",
                                                                 "trump_roles/trump-modes.yaml")]


@pytest.mark.parametrize("name", [*PLAYED, *EXTRA])
def test_rows_equal_the_whole_encoding(name: str) -> None:
    env = engine.rl.env(ruleset=name)
    rng = random.Random(3)
    env.reset(seed=5)
    hands = steps = 0
    while hands < HANDS:
        st = env.state
        assert st is not None
        bids = last_bids(st)
        order = list(range(env.game.n))
        rng.shuffle(order)     # seats asked in any order, some not at all
        for s in order[: rng.randint(1, env.game.n)]:
            got = env.observe(f"seat_{s}")["observation"]
            assert np.array_equal(got, env.enc.vector(st, s, bids)), (name, s, len(st.history))
            assert env.enc.vector_space.contains(got), (name, s, np.flatnonzero(got > env.enc.high).tolist())
        mask = env.observe(env.agent_selection)["action_mask"]
        assert sorted(np.flatnonzero(mask).tolist()) == env.enc.space.legal(st)
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        if env.terminations[env.agent_selection]:
            hands += 1
            env.reset()
    assert steps > HANDS * 5


@pytest.mark.parametrize("name", ["twenty-eight", "three-hundred-and-four", "thunee", "fifty-six"])
def test_observations_blind_to_hidden_cards(name: str) -> None:
    """Two environments play the same actions from deals that differ only in the cards of the seats other than
    the one observed (swapped between them): that seat's observations are equal throughout."""
    from engine import load_game

    game = load_game(name)
    rng = random.Random(8)
    compared = 0
    for seed in range(4):
        a = engine.rl.env(ruleset=game)
        a.reset(seed=seed)
        st = a.state
        assert st is not None
        me = st.to_act
        others = [s for s in range(game.n) if s != me]
        x, y = rng.sample(others, 2)
        hands = [list(h) for h in st.dealt]
        # swap the not-yet-played parts of two other seats' deals card for card (same sizes)
        hands[x], hands[y] = hands[y], hands[x]
        b = engine.rl.env(ruleset=game)
        b.reset(seed=seed)
        b._start(game.new_hand(st.dealer, hands=hands))
        while a.state is not None and a.state.to_act >= 0 and b.state.to_act == a.state.to_act:
            oa, ob = a.observe(f"seat_{me}"), b.observe(f"seat_{me}")
            assert np.array_equal(oa["observation"], ob["observation"])
            compared += 1
            legal_a = set(np.flatnonzero(a._mask).tolist())
            legal_b = set(np.flatnonzero(b._mask).tolist())
            common = sorted(legal_a & legal_b)
            if not common:
                break
            act = rng.choice(common)
            a.step(act)
            b.step(act)
            if a.terminations[a.agent_selection]:
                break
    assert compared > 20


def test_observations_handed_out_stay_as_they_were() -> None:
    """Each seat's row is kept and written where it changed; what was handed out is a copy: an observation kept
    by a learner (the previous one of the same seat, say) does not move when the hand goes on."""
    env = engine.rl.env(ruleset="belote")
    env.reset(seed=2)
    rng = random.Random(2)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(40):
        if env.terminations[env.agent_selection]:
            break
        obs, *_ = env.last()
        kept.append((obs["observation"], obs["observation"].copy()))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(kept) > 20
    assert all(np.array_equal(a, b) for a, b in kept)
    assert not all(np.array_equal(kept[0][0], a) for a, _ in kept[1:])
