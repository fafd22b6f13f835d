"""Fit the heuristic's calls where each call lowers the opponents' target (Thunee): CALL_FIT and RECALL_FIT.

    python3 benchmarks/bid_rollouts.py --rulesets thunee --hands 8000 --seed 4041 --kind "over an opponent" \
        --rows /tmp/calls.jsonl
    python3 benchmarks/call_fit.py /tmp/calls.jsonl [--recall] [--ruleset thunee]

Reads the speeches bid_rollouts.py played out both ways (`--rows`: each speech's cards, the standing call, and what
the speaker's side scored passing and calling) and fits, by least squares, the gain of the next call over passing on
the shape of the speaker's best trump suit (engine/bots/bidding.py, AuctionRules.call_gain): its length, whether it
holds the suit's first, second and third card in the trump order and, with `--recall` (speeches over an opponent's
call), the steps of the standing call above the lowest call (with `--partner`, a term for the speaker's partner having
called too: tried, not read by the engine). Without `--recall` only speeches over the standing bid
the rules gave (no call yet) are read. It prints the fit, then for several margins the share of those speeches that
would call (fitted gain above -margin) and their played-out gain, 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

import _installed  # noqa: F401

from engine.bots.model import model_for
from engine.play.compile import load_game

NAMES = ("constant", "per card of the suit", "its first card", "its second", "its third", "per step of the call",
         "the partner has called")


def features(m: Any, mask: int, high: int, low: int, step: int, seat: int = 0, called: int = 0) -> list[float]:
    """The terms of bidding.AuctionRules.call_gain for a hand `mask` of `seat` over the standing call `high`, the
    seats that have called so far (a mask) `called`."""
    g = m.game
    suit = m.best_trump(mask, False)[0]
    cards = [c for c in range(g.size) if mask >> c & 1 and g.suit_of[c] == suit]
    tops = [float(any(m.trump_pos[c] == p for c in cards)) for p in range(3)]
    steps = float((high - low) // max(1, step)) if high >= low else 0.0
    partner = float(any(called >> s & 1 and s != seat and g.team_of[s] == g.team_of[seat] for s in range(g.n)))
    return [1.0, float(len(cards)), *tops, steps, partner]


def solve(xs: list[list[float]], ys: list[float]) -> list[float]:
    """Least squares by the normal equations (a column that never varies gets 0)."""
    k = len(xs[0])
    live = [j for j in range(k) if j == 0 or len({x[j] for x in xs}) > 1]
    a = [[sum(x[i] * x[j] for x in xs) for j in live] for i in live]
    b = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in live]
    n = len(live)
    for c in range(n):   # Gauss-Jordan with partial pivoting
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        b[c], b[p] = b[p], b[c]
        for r in range(n):
            if r != c and a[c][c] != 0.0:
                f = a[r][c] / a[c][c]
                a[r] = [u - f * v for u, v in zip(a[r], a[c], strict=True)]
                b[r] -= f * b[c]
    out = [0.0] * k
    for i, j in enumerate(live):
        out[j] = b[i] / a[i][i] if a[i][i] != 0.0 else 0.0
    return out


def ci(ys: list[float]) -> str:
    n = len(ys)
    mu = sum(ys) / n
    h = 1.96 * math.sqrt(sum((y - mu) ** 2 for y in ys) / (n - 1) / n) if n > 1 else 0.0
    return f"{mu:+.3f} [{mu - h:+.3f}, {mu + h:+.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rows", help="speeches written by bid_rollouts.py --rows (JSON lines)")
    ap.add_argument("--ruleset", default="thunee", help="the file the speeches were played on (default thunee)")
    ap.add_argument("--recall", action="store_true",
                    help="fit the speeches over an opponent's call (RECALL_FIT) instead of over no call (CALL_FIT)")
    ap.add_argument("--partner", action="store_true",
                    help="add a term for the speaker's partner having called (tried; call_gain does not read it)")
    args = ap.parse_args()
    try:
        game = load_game(args.ruleset)
        with open(args.rows, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except Exception as e:   # a bad name or file: one line
        ap.exit(2, f"call_fit.py: {e}\n")
    m = model_for(game)
    a = game.rules.auction
    rows = [r for r in rows if r.get("ruleset", args.ruleset) == args.ruleset and "mask" in r
            and r["kind"] == "over an opponent" and (r["high"] >= a.bid_min) == args.recall]
    if len(rows) < 10:
        ap.exit(1, f"call_fit.py: only {len(rows)} speeches of that kind in {args.rows}\n")
    xs = [features(m, r["mask"], r["high"], a.bid_min, a.bid_step, r.get("seat", 0), r.get("speeches", [0])[0])
          for r in rows]
    if not args.partner:   # the engine's terms (call_gain) stop at the step of the call
        xs = [x[:-1] for x in xs]
    ys = [float(r["gains"][1] - r["gains"][0]) for r in rows]
    fit = solve(xs, ys)
    print(f"{len(rows)} speeches {'over an opponent' + chr(39) + 's call' if args.recall else 'over no call'}")
    for name, v in zip(NAMES, fit, strict=False):
        print(f"  {name}: {v:+.3f}")
    print("FIT = (" + ", ".join(f"{v:.3f}" for v in fit) + ")")
    pred = [sum(b * x for b, x in zip(fit, row, strict=True)) for row in xs]
    print("| margin | speeches that call | their played-out gain [95%] |")
    print("|---|---|---|")
    for margin in (-0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.4):
        sel = [y for p, y in zip(pred, ys, strict=True) if p > -margin]
        if len(sel) > 1:
            print(f"| {margin:+.1f} | {len(sel)} ({len(sel) / len(ys):.1%}) | {ci(sel)} |")
    if args.recall:
        print("| standing call | speeches | called at margin 0.2 | their gain |")
        print("|---|---|---|---|")
        for high in sorted({r["high"] for r in rows}):
            at = [(p, y) for p, y, r in zip(pred, ys, rows, strict=True) if r["high"] == high]
            sel = [y for p, y in at if p > -0.2]
            print(f"| {high} | {len(at)} | {len(sel)} | {ci(sel) if len(sel) > 1 else '-'} |")


if __name__ == "__main__":
    main()
