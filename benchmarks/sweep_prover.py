"""The cost of the sweep prover (engine/play/sweep_proof.py), which every view of a file with a provable claim
asks (`View.provable`) and which grades the claims at the end of a hand.

    python3 benchmarks/sweep_prover.py [--rulesets three-hundred-and-four,thunee] [--hands 300] [--seed 0]
                                       [--plain] [--json]

Random legal play of `--hands` hands from fixed seeds; at every turn to play the prover is asked for a card that
keeps the sweep proved. Reported per file: searches, sweeps proved, searches that ran out of the node budget,
nodes searched (largest, and largest for a proof), and seconds (all, and the slowest search). `--plain` switches
off the two shortcuts (the refutation by a trump above all of the caller's, the refuting plays first), so both
can be measured in one run; the answers must be the same wherever neither ran out of budget.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import _installed  # noqa: F401

import engine.play.sweep_proof as sweep_proof
from engine.play.compile import load_game


def measure(name: str, hands: int, seed: int) -> tuple[dict[str, Any], list[int | None]]:
    game = load_game(name)
    answers: list[int | None] = []
    nodes: list[tuple[int, bool]] = []
    seconds: list[float] = []
    for k in range(hands):
        rng = random.Random(seed + k)
        s = game.new_hand((seed + k) % game.n, seed=seed + k)
        while s.to_act >= 0:
            legal = s.legal_actions()
            if s.phase_name == "play" and any(a.verb == "play" for a in legal):
                t = time.perf_counter()
                # the positions each search used, as the claims' grading counts them (on a compiled build too)
                found, used = sweep_proof.bounded_sweep(s, s.to_act, True, sweep_proof.NODE_BUDGET)
                seconds.append(time.perf_counter() - t)
                answers.append(found)
                nodes.append((used, found is not None and found >= 0))
            s.apply(rng.choice(legal))
    proofs = [n for n, ok in nodes if ok]
    return {"ruleset": name, "searches": len(answers), "proved": sum(a is not None and a >= 0 for a in answers),
            "out_of_budget": sum(a is None for a in answers),
            "max_nodes": max((n for n, _ in nodes), default=0), "max_nodes_of_a_proof": max(proofs, default=0),
            "seconds": round(sum(seconds), 2), "slowest": round(max(seconds, default=0.0), 3)}, answers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", default="three-hundred-and-four,thunee")
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plain", action="store_true", help="also run without the shortcuts and compare the answers")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    for name in args.rulesets.split(","):
        row, fast = measure(name, args.hands, args.seed)
        row["search"] = "shortcuts"
        rows.append(row)
        if args.plain:
            top, order = sweep_proof._Search.top_trump_outside, sweep_proof._Search.refuting_first
            sweep_proof._Search.top_trump_outside = lambda self, *a: False  # type: ignore[method-assign]
            sweep_proof._Search.refuting_first = lambda self, options, *a: options  # type: ignore[method-assign]
            try:
                plain_row, plain = measure(name, args.hands, args.seed)
            finally:
                sweep_proof._Search.top_trump_outside = top  # type: ignore[method-assign]
                sweep_proof._Search.refuting_first = order  # type: ignore[method-assign]
            plain_row["search"] = "plain"
            plain_row["answers_differ"] = sum(f != p for f, p in zip(fast, plain, strict=True)
                                              if f is not None and p is not None)
            rows.append(plain_row)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'ruleset':<24} {'search':<10} {'searches':>8} {'proved':>6} {'budget':>6} {'max nodes':>9} "
          f"{'proof max':>9} {'seconds':>8} {'slowest':>8}")
    for r in rows:
        print(f"{r['ruleset']:<24} {r['search']:<10} {r['searches']:>8} {r['proved']:>6} {r['out_of_budget']:>6} "
              f"{r['max_nodes']:>9} {r['max_nodes_of_a_proof']:>9} {r['seconds']:>8} {r['slowest']:>8}"
              + (f"   answers differ: {r['answers_differ']}" if "answers_differ" in r else ""))


if __name__ == "__main__":
    main()
