"""Whether the auction's hand estimate misreads some hand shapes: the forced bidder's side's share on z and more.

    python3 benchmarks/bid_shape.py RULESET [--hands 4000] [--seed 607]

The deals of benchmarks/bid_calibration.py (one seat, turned round the table, forced to bid the lowest bid naming
its best suit; the others pass; the rest played by `heuristic:v1`). For each complete hand it keeps the forced
seat's cards at its last speech, the trump played, the seat's place from the dealer, the others' z at their first
speech, and the share of the pack its side took less its seats' share. It prints, for several sets of terms, the
least-squares fit's explained share of the variance (R²), the residual spread and the weights: z and the curve
(bidding.py's reading), then the trump's length and the top ranks held in the trump and in the side suits, the
seat's place, and the partners' and opponents' z. Last, by band of z, the share taken against what the pooled
curve of that kind of auction in engine/bots/bidding.py (BID_FIT) says. The seed is not an evaluation seed (those
are 1-3 and 9).
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import _installed  # noqa: F401
from bid_calibration import forced_hands, side_share, solve

from engine.bots.model import model_for
from engine.bots.policy import policy_for
from engine.play.compile import load_game
from engine.play.game import Game

Z_BANDS = ((-9.0, -1.0), (-1.0, -0.5), (-0.5, 0.0), (0.0, 0.5), (0.5, 1.0), (1.0, 1.5), (1.5, 2.0), (2.0, 9.0))


def sample(game: Game, hands: int, seed: int) -> list[dict[str, Any]]:
    m = model_for(game)
    out: list[dict[str, Any]] = []
    for f in forced_hands(game, hands, seed):
        state, held = f.state, f.held
        team = state.hand_team_of[f.forced]
        out.append({"hand": held, "z": m.z(held), "trump": state.trump, "place": (f.forced - f.dealer) % game.n,
                    "taken": side_share(game, f),
                    "partners": sum(v for s, v in f.first.items() if s != f.forced and state.hand_team_of[s] == team),
                    "opponents": sum(v for s, v in f.first.items() if state.hand_team_of[s] != team),
                    "cards": held.bit_count()})
    return out


def terms(game: Game, r: dict[str, Any]) -> dict[str, float]:
    h = r["hand"]
    t = r["trump"]
    tm = game.suit_masks[t] if t >= 0 else 0
    f = {"z": r["z"], "z+^2": max(r["z"], 0.0) ** 2, "trump length": float((h & tm).bit_count()),
         "place": float(r["place"]), "partners' z": r["partners"], "opponents' z": r["opponents"],
         "voids": float(sum(1 for s in range(game.nsuits) if not h & game.suit_masks[s]))}
    for ri, rank in enumerate(game.layout.ranks[:4]):
        rm = game.rank_masks[ri]
        f[f"{rank} in trump"] = float((h & tm & rm).bit_count())
        f[f"{rank} aside"] = float((h & ~tm & rm).bit_count())
    return f


def least_squares(xs: list[list[float]], ys: list[float]) -> tuple[list[float], float, float]:
    """(weights, R², residual sd)."""
    k = len(xs[0])
    a = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    b = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in range(k)]
    w = solve(a, b)
    res = [y - sum(wi * xi for wi, xi in zip(w, x, strict=True)) for x, y in zip(xs, ys, strict=True)]
    my = sum(ys) / len(ys)
    var = sum((y - my) ** 2 for y in ys)
    rss = sum(e * e for e in res)
    return w, 1.0 - rss / var if var > 0 else 0.0, math.sqrt(rss / max(len(ys) - k, 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--hands", type=int, default=4000, help="deals (default 4000)")
    ap.add_argument("--seed", type=int, default=607, help="deal seed (default 607; not an evaluation seed)")
    args = ap.parse_args()
    if args.hands < 10:
        ap.error("--hands must be at least 10")
    try:
        game = load_game(args.ruleset)
    except Exception as e:   # a bad name: one line
        ap.exit(2, f"bid_shape.py: {e}\n")
    rows = sample(game, args.hands, args.seed)
    if len(rows) < 30:
        ap.exit(1, f"bid_shape.py: {len(rows)} complete hands with the forced bidder: too few to fit\n")
    feats = [terms(game, r) for r in rows]
    ys = [r["taken"] for r in rows]
    tops = [k for k in feats[0] if k.endswith(" in trump") or k.endswith(" aside")]
    sets = [["z", "z+^2"], ["z", "z+^2", "trump length", "voids", *tops], ["z", "z+^2", "trump length", "voids", *tops,
            "place"], ["z", "z+^2", "partners' z", "opponents' z"]]
    print(f"{args.ruleset}: {len(rows)} hands of {args.hands} deals, seed {args.seed}")
    print("| terms | R² | residual sd | weights |")
    print("|---|---|---|---|")
    for keys in sets:
        w, r2, sd = least_squares([[1.0] + [f[k] for k in keys] for f in feats], ys)
        weights = ", ".join(f"{k} {v:+.4f}" for k, v in zip(["1", *keys], w, strict=True))
        print(f"| {', '.join(keys)} | {r2:.4f} | {sd:.4f} | {weights} |")
    held = sum(r["cards"] for r in rows) / len(rows)
    edge, slope, curve, _ = policy_for(model_for(game)).auction.fit(round(held))
    print()
    print(f"BID_FIT for this kind of auction: edge {edge}, slope {slope}, curve {curve}")
    print("| z | hands | share taken above the seats' share | the curve says |")
    print("|---|---|---|---|")
    for lo, hi in Z_BANDS:
        g = [r for r in rows if lo <= r["z"] < hi]
        if not g:
            continue
        taken = sum(r["taken"] for r in g) / len(g)
        said = sum(edge + slope * r["z"] + curve * max(r["z"], 0.0) ** 2 for r in g) / len(g)
        print(f"| {lo:+.1f} to {hi:+.1f} | {len(g)} | {taken:+.4f} | {said:+.4f} |")


if __name__ == "__main__":
    main()
