"""Bot strength by duplicate tournament: search vs pimc, search vs heuristic, pimc vs heuristic and heuristic vs
random on twenty-eight and twenty-nine. Prints a Markdown table (game points per hand, the difference with its 95%
confidence interval, contracts made of contracts won, milliseconds per decision and their ratio A/B, measured in
the same run) and says which engine was timed (`compiled` lists the native modules; run from the repository with
PYTHONPATH=. to time the sources, or put a compiled build first on the path).

    python3 benchmarks/strength.py --deals 2000 --workers 2 --seed 1
    python3 benchmarks/strength.py --deals 2000 --workers 2 --seed 1 --pairs search/pimc
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
from pathlib import Path

import engine
from engine.play.compile import load_game
from engine.tournament import run

PAIRS = (("search", "pimc"), ("search", "heuristic"), ("pimc", "heuristic"), ("heuristic", "random"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rulesets", default="twenty-eight,twenty-nine")
    ap.add_argument("--pairs", default=",".join(f"{a}/{b}" for a, b in PAIRS), help="A/B pairs, comma-separated")
    ap.add_argument("--json", dest="as_json", action="store_true", help="also print each report as JSON")
    args = ap.parse_args()
    print(f"engine: {Path(engine.__file__).parent} (compiled: {', '.join(compiled_modules()) or 'nothing'})")
    print("| ruleset | A vs B | deals | A pts/hand | B pts/hand | A - B [95% CI] | A made | B made "
          "| A ms/dec (max) | B ms/dec (max) | A/B time | seconds |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for ruleset in args.rulesets.split(","):
        for pair in args.pairs.split(","):
            a, b = pair.split("/")
            t0 = time.perf_counter()
            rep = run(load_game(ruleset), [a, b], args.deals, args.seed, workers=args.workers)
            secs = time.perf_counter() - t0
            ba, bb = rep["bots"]
            d = rep["difference"]
            print(f"| {ruleset} | {a} vs {b} | {rep['deals']} | {ba['game_points_per_hand']:+.3f} "
                  f"| {bb['game_points_per_hand']:+.3f} | {d['game_points_per_hand']:+.3f} "
                  f"[{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}] | {_rate(ba)} | {_rate(bb)} "
                  f"| {ba['ms_per_decision']:.2f} ({ba['max_ms_per_decision']:.0f}) "
                  f"| {bb['ms_per_decision']:.2f} ({bb['max_ms_per_decision']:.0f}) "
                  f"| {_ratio(ba['ms_per_decision'], bb['ms_per_decision'])} | {secs:.0f} |", flush=True)
            if args.as_json:
                print(json.dumps(rep), flush=True)


def _rate(b: dict[str, object]) -> str:
    made, contracts = b["made"], b["contracts"]
    assert isinstance(made, int) and isinstance(contracts, int)
    return f"{made}/{contracts} ({100 * made / contracts:.0f}%)" if contracts else "-"


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b > 0.005 else "-"


def compiled_modules() -> list[str]:
    """The engine's modules that are native in the build being timed."""
    out = []
    for name in ("engine.play.state", "engine.bots.rollout", "engine.bots.determinize", "engine.bots.model",
                 "engine.bots.worlds"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin is not None and not spec.origin.endswith(".py"):
            out.append(name)
    return out


if __name__ == "__main__":
    main()
