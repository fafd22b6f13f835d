"""Random whole hands per second, beside the plain-Python yardstick in one run.

    python3 benchmarks/random_hands.py [RULESET] [HANDS]

Two figures (see engine.sim.bench): `hands_per_second`, hands finished by `random_playout` (the play phase on
card bitmasks, as the search bots' rollouts play), and `api_hands_per_second`, hands driven from Python through
`legal_actions()` / `apply()`. Both deal from seeds and play the whole rule file. The yardstick
(benchmarks/yardstick.py, plain Python of our own) deals and plays a stripped-down 28-like hand with no auction
and no trump; it is timed in each of several rounds beside the engine, and the medians are printed, since only ratios
measured side by side hold on a noisy machine. Each round plays the same HANDS / 5 hands (the same seeds).

    python3 benchmarks/random_hands.py three-hundred-and-four 20000 --slowest 5

`--slowest K` also times every one of those hands alone, both ways, in the order the rounds play them (so each is
the hand the rounds played), and adds `slowest`: the K slowest, each with its number (counted from 0), the way it
was played and its seconds, and `hand_seconds_max`.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import _installed  # noqa: F401

import engine.play.state as state_module
from engine import load_game
from engine.errors import JacknineError, UnreadableError
from engine.play.game import Game
from engine.play.playout import random_playout
from engine.play.state import State
from engine.sim import _api_loop, bench, hand_seeds

sys.path.insert(0, str(Path(__file__).resolve().parent))   # this folder, whatever the working directory
import yardstick as plain_yardstick  # noqa: E402

ROUNDS = 5


def yardstick() -> Callable[[float], float]:
    """The yardstick's `rate(seconds)`: benchmarks/yardstick.py, shipped beside this script."""
    rate: Callable[[float], float] = plain_yardstick.rate
    return rate


def slowest(game: Game, hands: int, k: int, seed: int = 1) -> list[dict[str, Any]]:
    """The `k` slowest of `hands` hands dealt and played as `engine.sim.bench` plays them (the same seeds and the
    same stream of random choices), each timed alone from its deal to its end, both ways."""
    ways: list[tuple[str, Callable[[State, Callable[[], float]], None]]] = [
        ("random_playout", random_playout), ("api", _api_loop)]
    out: list[dict[str, Any]] = []
    for way, play in ways:
        rand = random.Random(seed).random
        next_seed = hand_seeds(seed)
        for i in range(hands):
            t0 = time.perf_counter()
            play(game.new_hand(i % game.n, seed=next_seed()), rand)
            out.append({"hand": i, "way": way, "seconds": round(time.perf_counter() - t0, 4)})
    out.sort(key=lambda r: -r["seconds"])
    return out[:k]


def main() -> None:
    """ROUNDS rounds, each timing the engine (both ways) and then the yardstick for about as long; the medians of
    the per-round figures and ratios are printed, so a busy spell of the machine moves no figure alone."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ruleset", nargs="?", default="twenty-eight", help="a shipped name or a rule file's path")
    ap.add_argument("hands", nargs="?", type=int, default=20000, help="hands in all, over the rounds")
    ap.add_argument("--slowest", type=int, default=0, metavar="K",
                    help="also time each hand alone and report the K slowest (and the slowest one's seconds)")
    args = ap.parse_args()
    if args.hands < ROUNDS:
        ap.error(f"hands: at least {ROUNDS}")
    if args.slowest < 0:
        ap.error("--slowest: at least 0")
    try:
        game = load_game(args.ruleset)
    except JacknineError as e:
        print(e, file=sys.stderr)
        raise SystemExit(2 if isinstance(e, UnreadableError) else 1) from None
    hands = args.hands
    bench(game, 500)  # warm up
    rate = yardstick()
    rounds: list[dict[str, Any]] = []
    for _ in range(ROUNDS):
        result = bench(game, hands // ROUNDS)
        yard = rate(max(0.5, result["seconds"] + result["api_seconds"]) / 2)
        result["yardstick_deals_per_second"] = yard
        result["ratio_to_yardstick"] = result["hands_per_second"] / yard
        result["api_ratio_to_yardstick"] = result["api_hands_per_second"] / yard
        rounds.append(result)
    out: dict[str, Any] = {"ruleset": game.rules.name, "hands": hands, "rounds": ROUNDS,
                           "compiled": not state_module.__file__.endswith(".py")}
    for key in ("hands_per_second", "api_hands_per_second", "yardstick_deals_per_second", "ratio_to_yardstick",
                "api_ratio_to_yardstick"):
        if key in rounds[0]:
            out[key] = round(statistics.median(r[key] for r in rounds), 3)
    if args.slowest:
        worst = slowest(game, hands // ROUNDS, args.slowest)
        out["hand_seconds_max"] = worst[0]["seconds"]
        out["slowest"] = worst
    print(json.dumps(out))


if __name__ == "__main__":
    main()
