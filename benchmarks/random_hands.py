"""Random whole hands per second, beside the plain-Python yardstick in one run.

    python3 benchmarks/random_hands.py [RULESET] [HANDS]

Two figures (see engine.sim.bench): `hands_per_second`, hands finished by `random_playout` (the play phase on
card bitmasks, as the search bots' rollouts play), and `api_hands_per_second`, hands driven from Python through
`legal_actions()` / `apply()`. Both deal from seeds and play the whole rule file. The yardstick
(benchmarks/yardstick.py, plain Python of our own) deals and plays a stripped-down 28-like hand with no auction
and no trump; it is timed in each of several rounds beside the engine, and the medians are printed, since only ratios
measured side by side hold on a noisy machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine.play.state as state_module
from engine import load_game
from engine.errors import JacknineError, UnreadableError
from engine.sim import bench

sys.path.insert(0, str(Path(__file__).resolve().parent))   # this folder, whatever the working directory
import yardstick as plain_yardstick  # noqa: E402

ROUNDS = 5


def yardstick() -> Callable[[float], float]:
    """The yardstick's `rate(seconds)`: benchmarks/yardstick.py, shipped beside this script."""
    rate: Callable[[float], float] = plain_yardstick.rate
    return rate


def main() -> None:
    """ROUNDS rounds, each timing the engine (both ways) and then the yardstick for about as long; the medians of
    the per-round figures and ratios are printed, so a busy spell of the machine moves no figure alone."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ruleset", nargs="?", default="twenty-eight", help="a shipped name or a rule file's path")
    ap.add_argument("hands", nargs="?", type=int, default=20000, help="hands in all, over the rounds")
    args = ap.parse_args()
    if args.hands < ROUNDS:
        ap.error(f"hands: at least {ROUNDS}")
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
    print(json.dumps(out))


if __name__ == "__main__":
    main()
