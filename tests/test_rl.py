"""engine.rl: the PettingZoo AEC environment and the Gymnasium single-seat environment (skipped without the `rl`
extra): PettingZoo's api_test and seed_test and Gymnasium's check_env on every shipped rule file, parity with
hand records, observations blind to other seats' hidden cards, the reward options."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import engine.rl  # noqa: E402
from engine import load_game  # noqa: E402
from engine.adapters.encoding import last_bids  # noqa: E402
from engine.errors import ArgumentError, IllegalActionError  # noqa: E402
from engine.record import record_of, replay, report  # noqa: E402
from engine.rules.load import shipped_rulesets  # noqa: E402
from tests.rulefile_sets import PLAYED  # noqa: E402

SHIPPED = sorted(shipped_rulesets())
# the score-only overlays see and play every hand as their base files (tests/test_rulefile_sets.py): the costly
# API and blindness checks skip them; the episode-to-record parity (rewards are their own scores) keeps them
PLAYED_FILES = PLAYED


def play_random(env, seed: int, rng: random.Random) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """One episode with random legal actions; the total reward of each agent."""
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert np.array_equal(legal, np.flatnonzero(info["action_mask"]))
        env.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize("ruleset", PLAYED_FILES)
def test_pettingzoo_api_and_seed_tests(ruleset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")    # api_test's advice (e.g. "observation is not a NumPy array": a Dict)
        api_test(engine.rl.env(ruleset=ruleset), num_cycles=200)
        seed_test(lambda: engine.rl.env(ruleset=ruleset), num_cycles=200)


@pytest.mark.parametrize("ruleset", ["twenty-nine", "twenty-eight-3p", "thani"])
def test_pettingzoo_api_test_for_tricks_and_matches(ruleset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(engine.rl.env(ruleset=ruleset, reward="tricks"), num_cycles=100)
        api_test(engine.rl.env(ruleset=ruleset, match=True, max_hands=3), num_cycles=300)


@pytest.mark.parametrize("ruleset", ["twenty-eight", "twenty-nine", "fifty-six", "twenty-eight-3p", "thani",
                                     "twenty-nine-bangladesh"])
def test_gymnasium_check_env(ruleset: str) -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(engine.rl.SingleSeatEnv(ruleset=ruleset), skip_render_check=True)
        check_env(engine.rl.SingleSeatEnv(ruleset=ruleset, seat=1, opponents="random", reward="tricks"),
                  skip_render_check=True)


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_episode_is_the_hand_its_record_replays(ruleset: str) -> None:
    """Parity: the hand an episode played, written as a hand record (seed and actions), replays to the same
    result, and each agent's reward is its team's game points in that replay."""
    env = engine.rl.env(ruleset=ruleset)
    rng = random.Random(5)
    for seed in range(4):
        totals = play_random(env, seed, rng)
        st = env.state
        rec = record_of(st, seed=env.deal_seed, with_hands=False)
        rep = report(replay(rec, load_game(ruleset)))
        assert rep["status"] == st.status
        assert rep["card_points"] == st.team_points
        for s, agent in enumerate(env.possible_agents):
            assert totals[agent] == rep["game_points"][st.hand_team_of[s]]
        twin = load_game(ruleset).new_hand(st.dealer, seed=env.deal_seed)
        # the same deal (a stock game completes the hands from the stock later: the first packets agree)
        assert [d[:len(t)] for d, t in zip(st.dealt, twin.dealt, strict=True)] == twin.dealt
        assert twin.stock == st.stock


def test_observations_are_blind_to_other_seats_cards() -> None:
    """Along random episodes, every seat's observation is unchanged when two unseen cards of two other seats are
    swapped in the deal and the same actions replayed (where the swap leaves those actions legal)."""
    checked = 0
    for ruleset in PLAYED_FILES:
        env = engine.rl.env(ruleset=ruleset)
        game = env.game
        if game.stock_size or game.n < 3:   # a stock's deal and two players: tests/test_properties.py's swap
            continue
        rng = random.Random(7)
        env.reset(seed=3)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            st = env.state
            for seat in range(game.n):
                a, b = rng.sample([s for s in range(game.n) if s != seat], 2)
                ca, cb = st.dealt[a][-1], st.dealt[b][-1]
                if not (st.hands[a] >> ca & 1 and st.hands[b] >> cb & 1) or st.indicator in (ca, cb):
                    continue
                if st.exposed >> a & 1 or st.exposed >> b & 1:   # a hand lying face up is seen by everyone
                    continue
                dealt = [list(h) for h in st.dealt]
                dealt[a][-1], dealt[b][-1] = cb, ca
                twin = game.new_hand(st.dealer, hands=dealt, stock=list(st.stock) or None)
                try:
                    for x in st.history:
                        twin.apply(x)
                except IllegalActionError:
                    continue
                if (twin.status, twin.to_act) != (st.status, st.to_act):
                    continue
                mine = env.observe(env.possible_agents[seat])["observation"]
                assert np.array_equal(env.enc.vector(twin, seat, last_bids(twin)), mine), (ruleset, seat)
                checked += 1
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 500


def test_trick_rewards_add_up_to_the_card_points() -> None:
    env = engine.rl.env(ruleset="twenty-eight", reward="tricks")
    rng = random.Random(1)
    for seed in range(5):
        totals = play_random(env, seed, rng)
        st = env.state
        for s, agent in enumerate(env.possible_agents):
            assert totals[agent] == st.team_points[st.hand_team_of[s]]


def test_a_match_episode_ends_when_the_match_is_decided() -> None:
    env = engine.rl.env(ruleset="twenty-nine", match=True)
    totals = play_random(env, 2, random.Random(2))
    m = env._match
    assert m is not None and m.decided and env.hands_played == len(m.hands) > 1
    start = env.game.rules.match.start
    for s, agent in enumerate(env.possible_agents):
        assert totals[agent] == m.scores[env.game.team_of[s]] - start


def test_illegal_and_out_of_order_actions_are_refused() -> None:
    env = engine.rl.env(ruleset="twenty-nine")
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = [str(a) for a in env.state.history]
    with pytest.raises(IllegalActionError, match="is not legal now"):
        env.step(bad)
    assert [str(a) for a in env.state.history] == before
    with pytest.raises(ArgumentError, match="reward"):
        engine.rl.env(ruleset="twenty-nine", reward="points")
    with pytest.raises(ArgumentError, match="dealer"):
        engine.rl.env(ruleset="twenty-nine", dealer=9)


def test_single_seat_env_masks_and_plays_to_the_end() -> None:
    env = engine.rl.SingleSeatEnv(ruleset="twenty-nine", seat=2, opponents=["heuristic", "random", "heuristic"])
    rng = np.random.default_rng(0)
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            mask = env.action_masks()
            assert mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
            assert env.observation_space.contains(obs)
            obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        st = env.state
        assert reward == st.game_points[st.hand_team_of[2]] and not info["action_mask"].any()
    _, info = env.reset(seed=9)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and info["illegal_action"] and reward == env.illegal_reward < 0
    with pytest.raises(ArgumentError, match="opponents"):
        engine.rl.SingleSeatEnv(ruleset="twenty-nine", opponents="clever")


def test_readme_python_examples_run() -> None:
    """The Python examples of the OpenSpiel and reinforcement-learning sections (docs/bots.md) run as written."""
    from pathlib import Path

    pytest.importorskip("pyspiel")
    pytest.importorskip("shimmy")
    readme = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    blocks = []
    for title in ("### OpenSpiel\n", "## Reinforcement learning\n"):
        start = readme.index(title)
        end = readme.find("\n## ", start + 5)
        section = readme[start:end if end > 0 else None]
        parts = section.split("```python\n")[1:]
        blocks += [p.split("```")[0] for p in parts]
    assert len(blocks) >= 3
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})  # noqa: S102 - the README's own examples


def test_a_house_rule_in_a_folder_of_its_own_is_an_environment_too() -> None:
    from pathlib import Path

    house = Path(__file__).resolve().parents[1] / "examples" / "house-rules" / "twenty-nine-no-pair.yaml"
    for ruleset in (house, str(house), load_game(str(house))):
        env = engine.rl.env(ruleset=ruleset)
        assert env.game.rules.name == "twenty-nine-no-pair" and env.game.rules.pair is None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(env, num_cycles=50)


@pytest.mark.parametrize("reward", ["hand", "tricks"])
def test_the_compiled_step_is_pettingzoos_step(reward: str) -> None:
    """The environment's step() is the driver's own (dead agents stepped there, the end of a trick selected there
    when no trick reward is booked): the same episodes, step by step, as through the class's step(), which leaves
    every dead agent to PettingZoo's `_was_dead_step` and every trick's end to the environment."""
    def run(own: bool) -> list[object]:
        env = engine.rl.env(ruleset="twenty-eight", reward=reward)
        rng = random.Random(3)
        seen: list[object] = []
        for seed in (1, 2):
            env.reset(seed=seed)
            if not own:     # the class's step(): the driver's flags handled by the environment in Python
                env.__dict__.pop("step", None)
            assert ("step" in env.__dict__) == own
            for agent in env.agent_iter():
                obs, reward_, terminated, truncated, info = env.last()
                seen.append((agent, reward_, terminated, truncated, sorted(info), obs["observation"].tolist(),
                             list(env.agents), dict(env.rewards), dict(env._cumulative_rewards)))
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
            seen.append(("over", list(env.agents), dict(env.rewards), env.agent_selection))
        return seen

    assert run(True) == run(False)
