"""Random whole hands per second, beside the plain-Python yardstick in one run.

    python3 benchmarks/random_hands.py [RULESET] [HANDS]

Two figures (see engine.sim.bench): `hands_per_second`, hands finished by `random_playout` (the play phase on
card bitmasks, as simulation and search use it), and `api_hands_per_second`, hands driven from Python through
`legal_actions()` / `apply()`. Both deal from seeds and play the whole rule file. The yardstick
(../shared/bench/yardstick28.py, when present) deals and plays a stripped-down 28-like hand with no auction and no
trump; the ratios between the figures hold on a noisy machine.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from engine import load_game
from engine.sim import bench


def yardstick_rate(seconds: float = 3.0) -> float | None:
    path = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "yardstick28.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("yardstick28", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return float(mod.rate(seconds))


def main() -> None:
    ruleset = sys.argv[1] if len(sys.argv) > 1 else "twenty-eight"
    hands = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    game = load_game(ruleset)
    bench(game, 500)  # warm up
    result = bench(game, hands)
    yard = yardstick_rate()
    if yard is not None:
        result["yardstick_deals_per_second"] = round(yard, 1)
        result["ratio_to_yardstick"] = round(result["hands_per_second"] / yard, 3)
        result["api_ratio_to_yardstick"] = round(result["api_hands_per_second"] / yard, 3)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
