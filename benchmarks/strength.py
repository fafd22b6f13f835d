"""Bot strength by duplicate tournament: search vs pimc, search vs heuristic, pimc vs heuristic and heuristic vs
random on twenty-eight and twenty-nine. Prints a Markdown table (game points per hand, the difference with its 95%
confidence interval, contracts made of contracts won, milliseconds per decision and their ratio A/B, measured in
the same run) and says which engine was timed (`compiled` lists the native modules; run from the repository with
PYTHONPATH=. to time the sources, or put a compiled build first on the path).

    python3 benchmarks/strength.py --deals 2000 --workers 2 --seed 1
    python3 benchmarks/strength.py --deals 2000 --workers 2 --seed 1 --pairs search/pimc
    python3 benchmarks/strength.py --deals 200 --workers 2 --seed 1 --ismcts 200

`--reference` plays heuristic, pimc and search against IS-MCTS on twenty-eight, twenty-nine,
three-hundred-and-four and thunee (4 deals by default), twice each: at IS-MCTS's default budget, and at the number of
simulations that takes as long per decision as the bot did in that first run (its ms per decision over IS-MCTS's
per simulation; at least MIN_SIMULATIONS, 2).

    python3 benchmarks/strength.py --reference --workers 2

`--ismcts N` plays search, pimc and heuristic against OpenSpiel's IS-MCTS (the `ismcts:N` bot, engine/adapters/
ismcts.py: open_spiel.python.algorithms.ismcts.ISMCTSBot with N simulations per decision, UCT constant 2, a
random play-out to value each new node, worlds resampled uniformly from the seat's information state; needs
the openspiel extra), an outside reference for the engine's own bots.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
from pathlib import Path
from typing import Any

import _installed  # noqa: F401

import engine
from engine.play.compile import load_game
from engine.play.game import Game
from engine.tournament import run

PAIRS = (("search", "pimc"), ("search", "heuristic"), ("pimc", "heuristic"), ("heuristic", "random"))


REFERENCE_FILES = "twenty-eight,twenty-nine,three-hundred-and-four,thunee"
REFERENCE_BOTS = ("heuristic", "pimc", "search")
REFERENCE_DEALS = 4
MIN_SIMULATIONS = 2     # OpenSpiel's ISMCTSBot cannot pick an action after one simulation (its root has no visits)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=None, help=f"duplicate deals per row (2000; {REFERENCE_DEALS} with "
                    "--reference)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rulesets", default=None, help="comma-separated files (twenty-eight,twenty-nine; with "
                    f"--reference {REFERENCE_FILES})")
    ap.add_argument("--pairs", default=",".join(f"{a}/{b}" for a, b in PAIRS), help="A/B pairs, comma-separated")
    ap.add_argument("--ismcts", type=int, default=0, metavar="N",
                    help="instead: search, pimc and heuristic against OpenSpiel's IS-MCTS with N simulations")
    ap.add_argument("--reference", action="store_true",
                    help="instead: heuristic, pimc and search against OpenSpiel's IS-MCTS at its default budget "
                    "and at the budget that takes as long per decision as the bot (measured in the first run)")
    ap.add_argument("--max-seconds", type=float, default=None, metavar="S",
                    help="start no deal of a row after S seconds of it; the row's `deals` says how many were played")
    ap.add_argument("--json", dest="as_json", action="store_true", help="also print each report as JSON")
    args = ap.parse_args()
    if args.deals is None:
        args.deals = REFERENCE_DEALS if args.reference else 2000
    if args.rulesets is None:
        args.rulesets = REFERENCE_FILES if args.reference else "twenty-eight,twenty-nine"
    if args.deals < 1 or args.workers < 1:
        ap.error("--deals and --workers must be at least 1")
    if args.max_seconds is not None and args.max_seconds <= 0:
        ap.error("--max-seconds must be above 0")
    if args.ismcts or args.reference:
        from engine.adapters.ismcts import SIMULATIONS, UCT_C

        n = args.ismcts or SIMULATIONS
        args.pairs = ",".join(f"{a}/ismcts:{n}" for a in ("search", "pimc", "heuristic"))
        print(f"ismcts:N = OpenSpiel's ISMCTSBot, N simulations per decision (default {SIMULATIONS}), UCT c = {UCT_C}, "
              "one random play-out per new node, uniform resampling from the information state")
    print(f"engine: {Path(engine.__file__).parent} (compiled: {', '.join(compiled_modules()) or 'nothing'})")
    print("| ruleset | A vs B | deals | A pts/hand | B pts/hand | A - B [95% CI] | A made | B made "
          "| A ms/dec (max) | B ms/dec (max) | A/B time | seconds |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for ruleset in args.rulesets.split(","):
        game = load_game(ruleset)
        if args.reference:
            for bot in REFERENCE_BOTS:
                rep = row(game, bot, f"ismcts:{SIMULATIONS}", args, "default")
                ms_bot = rep["bots"][0]["ms_per_decision"]
                per_sim = rep["bots"][1]["ms_per_decision"] / SIMULATIONS
                equal = max(MIN_SIMULATIONS, round(ms_bot / per_sim)) if per_sim > 0 else MIN_SIMULATIONS
                row(game, bot, f"ismcts:{equal}", args, "equal time")
            continue
        for pair in args.pairs.split(","):
            a, b = pair.split("/")
            row(game, a, b, args, "")


def row(game: Game, a: str, b: str, args: argparse.Namespace, label: str) -> dict[str, Any]:
    """One duplicate tournament of `a` against `b`, printed as a table row; its report."""
    t0 = time.perf_counter()
    rep = run(game, [a, b], args.deals, args.seed, workers=args.workers, max_seconds=args.max_seconds)
    secs = time.perf_counter() - t0
    ba, bb = rep["bots"]
    d = rep["difference"]
    name = f"{a} vs {b}" + (f" ({label})" if label else "")
    print(f"| {game.rules.name} | {name} | {rep['deals']} | {ba['game_points_per_hand']:+.3f} "
          f"| {bb['game_points_per_hand']:+.3f} | {d['game_points_per_hand']:+.3f} "
          f"[{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}] | {_rate(ba)} | {_rate(bb)} "
          f"| {ba['ms_per_decision']:.2f} ({ba['max_ms_per_decision']:.0f}) "
          f"| {bb['ms_per_decision']:.2f} ({bb['max_ms_per_decision']:.0f}) "
          f"| {_ratio(ba['ms_per_decision'], bb['ms_per_decision'])} | {secs:.0f} |", flush=True)
    if args.as_json:
        print(json.dumps(rep), flush=True)
    return rep


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
