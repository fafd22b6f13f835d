"""Seconds per hand of the search bots on a wide auction: five players alone, 307 bids each naming a trump suit or
no trump (1,535 bid actions a turn, benchmarks/rules/five-wide-suits.yaml), every seat played by the same bot.

    python3 benchmarks/search_wide.py [--ruleset FILE] [--bots search:4] [--hands 3] [--seed 1]

Each hand is played as `jacknine simulate` plays it (hand number i of the seed's stream, the bots seeded from the
seed, the hand and the seat). One JSON line per hand: its wall-clock and CPU seconds, its actions and status;
then a summary line with the largest and the mean of each. The CPU seconds are the figure that
carries from a busy machine to another (the wall clock counts other programs' turns too).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import _installed  # noqa: F401

from engine import load_game
from engine.sim import play_hands

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default=str(HERE / "rules" / "five-wide-suits.yaml"),
                    help="a rule file (default: the five-player wide auction whose bids name the trump)")
    ap.add_argument("--bots", default="search:4", help="the bot of every seat (default search:4)")
    ap.add_argument("--hands", type=int, default=3, help="how many hands (default 3)")
    ap.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    args = ap.parse_args(argv)
    game = load_game(args.ruleset)
    walls: list[float] = []
    cpus: list[float] = []
    hands = play_hands(game, [args.bots] * game.n, args.seed, 0, args.hands)
    while True:
        w0, c0 = time.perf_counter(), time.process_time()
        try:
            i, _, state = next(hands)
        except StopIteration:
            break
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        walls.append(wall)
        cpus.append(cpu)
        print(json.dumps({"hand": i, "wall_seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
                          "actions": len(state.history), "status": state.status}), flush=True)
    if not walls:
        return 0
    print(json.dumps({"ruleset": game.rules.name, "bots": args.bots, "hands": len(walls),
                      "max_wall_seconds": round(max(walls), 2), "mean_wall_seconds": round(sum(walls) / len(walls), 2),
                      "max_cpu_seconds": round(max(cpus), 2), "mean_cpu_seconds": round(sum(cpus) / len(cpus), 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
