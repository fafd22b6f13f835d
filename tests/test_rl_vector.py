"""The vectorised environment (engine.rl.VectorEnv): at every step of every shipped file each hand's observation
is the whole encoding of its seat to act and its mask the legal actions; rewards are the game points of hands
that ended; the same seed gives the same run; illegal actions are refused before any hand moves."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import engine.rl  # noqa: E402
from engine.adapters.encoding import last_bids  # noqa: E402
from engine.errors import ArgumentError, IllegalActionError  # noqa: E402
from tests.rulefile_sets import PLAYED  # noqa: E402


def _random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.argmax(masks * rng.random(masks.shape), axis=1)


# besides the shipped files: the deal procedures' turned card and the trump modes (their own parts of the layout)
EXTRA = [str(Path(__file__).parent / "rulefiles" / f) for f in ("deal/turned-two.yaml", "deal/choose-push.yaml",
                                                                 "trump_roles/trump-modes.yaml")]


@pytest.mark.parametrize("name", [*PLAYED, *EXTRA])
def test_every_step_is_the_whole_encoding(name: str) -> None:
    venv = engine.rl.VectorEnv(ruleset=name, num_hands=3)
    rng = np.random.default_rng(2)
    obs, masks, info = venv.reset(seed=4)
    ended = 0
    for _ in range(120):
        for i, st in enumerate(venv.states):
            seat = int(info["to_act"][i])
            assert seat == st.to_act
            assert np.array_equal(obs[i], venv.enc.vector(st, seat, last_bids(st))), (name, i, len(st.history))
            assert np.flatnonzero(masks[i]).tolist() == venv.enc.space.legal(st)
        before = [(s, s.hand_team_of) for s in venv.states]
        obs, masks, rewards, dones, info = venv.step(_random_actions(rng, masks))
        for i in np.flatnonzero(dones):
            old, team_of = before[i]
            gp = old.game_points
            assert rewards[i].tolist() == [float(gp[team_of[s]]) for s in range(venv.game.n)]
            ended += 1
        assert not rewards[~dones].any()
    assert ended > 0


def test_same_seed_same_run() -> None:
    def run(seed: int) -> list[float]:
        venv = engine.rl.VectorEnv(ruleset="twenty-nine", num_hands=8)
        rng = np.random.default_rng(0)
        obs, masks, _ = venv.reset(seed=seed)
        total = []
        for _ in range(60):
            obs, masks, rewards, dones, _ = venv.step(_random_actions(rng, masks))
            total.append(float(obs.sum() + rewards.sum()))
        return total

    assert run(1) == run(1) != run(2)


def test_bad_actions_are_refused() -> None:
    venv = engine.rl.VectorEnv(ruleset="twenty-eight", num_hands=2)
    with pytest.raises(ArgumentError):
        venv.step(np.zeros(2, np.int64))       # before reset
    obs, masks, _ = venv.reset(seed=1)
    illegal = int(np.flatnonzero(masks[1] == 0)[0])
    good = int(np.flatnonzero(masks[0])[0])
    history = [len(s.history) for s in venv.states]
    with pytest.raises(IllegalActionError):
        venv.step(np.array([good, illegal]))
    with pytest.raises(IllegalActionError):
        venv.step(np.array([good, 10**6]))
    with pytest.raises(ArgumentError):
        venv.step(np.array([good]))
    assert [len(s.history) for s in venv.states] == history
    with pytest.raises(ArgumentError):
        engine.rl.VectorEnv(ruleset="twenty-eight", num_hands=0)
