"""How often each mechanism is offered, taken and won with a given bot in every seat, for every shipped rule file.

    python3 benchmarks/mechanisms.py [--hands 2000] [--seed 5] [--bots heuristic] [--rulesets a,b] [--workers 1]
                                     [--json]

For each rule file it runs `jacknine simulate` (engine.sim.simulate, the same statistics `simulate --json` prints
under `mechanisms`) and prints one Markdown row per mechanism and side: hands in which it was offered (legal), taken,
and won by the side that took it (that side ended the hand with more game points than every other). A mechanism
offered but never taken is marked `never taken`. `call`, `redeal` and `raise` are listed too.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import _installed  # noqa: F401

from engine.play.compile import load_game
from engine.sim import simulate

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--rulesets", default="")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    names = [x for x in args.rulesets.split(",") if x] or sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
    if not args.json:
        print(f"| rule file | mechanism | side | offered | taken | won |  ({args.hands} hands, seed {args.seed}, "
              f"--bots {args.bots})")
        print("|---|---|---|---:|---:|---:|")
    for name in names:
        game = load_game(name)
        stats = simulate(game, args.hands, args.seed, [args.bots] * game.n, workers=args.workers)
        mech = stats.to_dict()["mechanisms"]
        if args.json:
            print(json.dumps({"ruleset": name, "hands": args.hands, "seed": args.seed, "mechanisms": mech}), flush=True)
            continue
        for m, sides in mech.items():
            for side, c in sides.items():
                mark = " never taken" if c["offered"] and not c["taken"] else ""
                print(f"| {name} | {m} | {side} | {c['offered']} | {c['taken']}{mark} | {c['won']} |", flush=True)


if __name__ == "__main__":
    main()
