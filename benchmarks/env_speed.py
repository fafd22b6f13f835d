"""Whole hands per second through the PettingZoo environment (`engine.rl.env`) and the vectorised environment
(`engine.rl.VectorEnv`), beside the engine's own loop and the plain-Python yardstick, in one run.

    python3 benchmarks/env_speed.py [RULESET] [HANDS] [--vector N]

Each round times: HANDS hands through `agent_iter()` / `last()` / `step()` with a uniformly random legal action
drawn from the observation's action mask (every step observes the agent to act, as a learner would; the mask's
legal indices are decoded once per distinct mask, looked up by its bytes after that); HANDS hands
through the vectorised environment, N hands at a time, each step's actions drawn at random from the masks for all
hands at once (`vector_hands_per_second`); the same number of hands through the engine's `legal_actions()` /
`apply()` loop (`api_hands_per_second`, engine.sim.bench); and the yardstick (benchmarks/yardstick.py) for about
as long. The medians over the rounds are printed as JSON, with the ratios of both environments to the API loop
and `compiled` telling whether the engine's hot path is the mypyc build (put an installed build first on the path
to time it; run from the repository with PYTHONPATH=. to time the sources).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

import _installed  # noqa: F401
import numpy as np
from random_hands import yardstick  # this folder is on the path when a script in it runs

import engine.play.state as state_module
import engine.rl
from engine import load_game
from engine.errors import JacknineError, UnreadableError
from engine.sim import bench

ROUNDS = 5


def env_hands_per_second(ruleset: str, hands: int, seed: int) -> float:
    env = engine.rl.env(ruleset=ruleset)
    rng = random.Random(seed)
    env.reset(seed=seed)
    legal_of: dict[bytes, list[int]] = {}     # a mask's legal indices, by its bytes (decoded once per mask)
    t0 = time.perf_counter()
    for _ in range(hands):
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            key = mask.tobytes()
            legal = legal_of.get(key)
            if legal is None:
                legal = legal_of[key] = mask.nonzero()[0].tolist()
            env.step(legal[int(rng.random() * len(legal))])
        env.reset()
    return hands / (time.perf_counter() - t0)


def vector_hands_per_second(ruleset: str, hands: int, seed: int, width: int) -> float:
    venv = engine.rl.VectorEnv(ruleset=ruleset, num_hands=width)
    rng = np.random.default_rng(seed)
    _obs, masks, _info = venv.reset(seed=seed)
    n_actions = masks.shape[1]
    first = np.arange(width, dtype=np.int64) * n_actions      # each hand's first flat index
    done = 0
    t0 = time.perf_counter()
    while done < hands:
        # uniform among each hand's legal actions: every hand's legal indices in one list (hand by hand), and in
        # each hand's run of it the k-th, k drawn below the run's length
        legal = np.flatnonzero(masks.view(np.bool_))
        counts = np.bincount(legal // n_actions, minlength=width)
        starts = np.cumsum(counts) - counts
        actions = legal[starts + (rng.random(width) * counts).astype(np.int64)] - first
        _obs, masks, _rewards, dones, _info = venv.step(actions)
        done += int(dones.sum())
    return done / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ruleset", nargs="?", default="twenty-eight", help="a shipped name or a rule file's path")
    ap.add_argument("hands", nargs="?", type=int, default=10000, help="hands in all, over the rounds")
    ap.add_argument("--vector", type=int, default=256, metavar="N", help="hands stepped at once (default 256)")
    args = ap.parse_args()
    ruleset, hands = args.ruleset, args.hands
    try:
        load_game(ruleset)
    except JacknineError as e:
        print(e, file=sys.stderr)
        raise SystemExit(2 if isinstance(e, UnreadableError) else 1) from None
    per_round = max(1, hands // ROUNDS)
    if args.hands < ROUNDS or args.vector < 1:
        ap.error(f"hands: at least {ROUNDS}; --vector: at least 1")
    env_hands_per_second(ruleset, 200, 0)     # warm up
    vector_hands_per_second(ruleset, 200, 0, args.vector)
    game = engine.rl.env(ruleset=ruleset).game
    rate = yardstick()
    rounds: list[dict[str, Any]] = []
    for r in range(ROUNDS):
        t0 = time.perf_counter()
        env_rate = env_hands_per_second(ruleset, per_round, r + 1)
        vec_rate = vector_hands_per_second(ruleset, per_round, r + 1, args.vector)
        api = bench(game, per_round, r + 1)
        row: dict[str, Any] = {"env_hands_per_second": env_rate, "vector_hands_per_second": vec_rate,
                               "api_hands_per_second": api["api_hands_per_second"]}
        row["env_ratio_to_api"] = env_rate / api["api_hands_per_second"]
        row["vector_ratio_to_api"] = vec_rate / api["api_hands_per_second"]
        yard = rate(max(0.5, (time.perf_counter() - t0) / 2))
        row["yardstick_deals_per_second"] = yard
        row["env_ratio_to_yardstick"] = env_rate / yard
        row["api_ratio_to_yardstick"] = api["api_hands_per_second"] / yard
        rounds.append(row)
    out: dict[str, Any] = {"ruleset": game.rules.name, "hands_per_round": per_round, "rounds": ROUNDS,
                           "vector_width": args.vector,
                           "compiled": not state_module.__file__.endswith(".py")}
    for key in rounds[0]:
        out[key] = round(statistics.median(r[key] for r in rounds), 3)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
