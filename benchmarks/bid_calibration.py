"""Fits the auction's hand estimate (engine/bots/bidding.py: BID_EDGE, BID_Z, BID_SD) on simulated hands.

    python3 benchmarks/bid_calibration.py [--hands 300] [--seed 404] [--rulesets a,b] [--json]

For every deal one seat, turned round the table deal by deal, is made the bidder: it bids the lowest bid it may
(naming its best suit where bids name one) whenever it does not hold the standing bid, and every other seat passes
where it may (else bids the lowest bid). Everything after the auction is the heuristic's (`heuristic:v1`), so the
hand is played as the bots play it. Forcing the bidder keeps weak hands in the fit: the auction must know what a
weak hand is worth too, to pass it. The seed is not one of the evaluation seeds (bot_table.py, strength.py and the
tournaments use 1-3 and 9).

At the forced seat's last speech the script keeps how strong its hand was (its face-down trump card counted):
z, the hand evaluation's best-suit units
in standard deviations of random hands of that size (HandModel.z), and what share of the full hand it held then.
After the hand it keeps the share of the pack's card points its side took, less the seats' share (a side of two of
four seats: 0.5). Per file it prints the least-squares line `taken - seats' share = edge + slope * z` and the spread
of the residuals (a curve `edge + slope * z + curve * max(z, 0)^2`: strong hands take more than a line says), and
pooled over the files, the same curve per kind of auction (the whole hand held at the speech or a part; the trump
named face down or not): the constants of bidding.py come from the pooled curves. Last, the line of the bidding
side's share on the z of each of its opponents (at its first speech): what an opponent's cards say against it.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import _installed  # noqa: F401

from engine.bots.model import model_for
from engine.bots.registry import make_bot
from engine.play.actions import Action
from engine.play.base import AUCTION
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.sim import bot_seed, hand_seeds

ROOT = Path(__file__).resolve().parent.parent


def forced_speech(game: Game, legal: tuple[Action, ...], seat: int, forced: int, standing: int,
                  hand: int) -> Action:
    """The forced seat bids the lowest bid (naming its best suit where bids name one) unless it holds the standing
    bid; the others pass where they may."""
    passing = next((a for a in legal if a.verb == "pass"), None)
    bids = [a for a in legal if a.verb == "bid"]
    if seat == forced and standing != seat and bids:
        return best_code_bid(game, bids, hand)
    if passing is not None:
        return passing
    return bids[0] if bids else legal[0]


def best_code_bid(game: Game, bids: list[Action], hand: int) -> Action:
    m = model_for(game)
    suit, _ = m.best_trump(hand, m.no_trumps)
    code = "NT" if suit < 0 else game.layout.suits[suit]
    for a in bids:
        if m.code_of(a) == code:
            return a
    return bids[0]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination (small systems)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            return [0.0] * n
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows: list[tuple[float, float]], curved: bool = True) -> tuple[float, float, float, float, int]:
    """(edge, slope, curve, residual sd, n) of the least-squares y = edge + slope * z + curve * max(z, 0)^2
    (curve 0 when not `curved`)."""
    n = len(rows)
    if n < 4:
        return 0.0, 0.0, 0.0, 0.0, n
    xs = [[1.0, z] + ([max(z, 0.0) ** 2] if curved else []) for z, _ in rows]
    k = len(xs[0])
    a = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    b = [sum(x[i] * y for x, (_, y) in zip(xs, rows, strict=True)) for i in range(k)]
    w = solve(a, b)
    res = [y - sum(wi * xi for wi, xi in zip(w, x, strict=True)) for x, (_, y) in zip(xs, rows, strict=True)]
    sd = math.sqrt(sum(r * r for r in res) / (n - k))
    return w[0], w[1], (w[2] if curved else 0.0), sd, n


@dataclass(frozen=True)
class ForcedHand:
    """A hand whose forced first speech won the contract and was played to the end by heuristic:v1."""

    state: State            # the finished hand
    dealer: int
    forced: int             # the seat that had to speak first
    held: int               # its cards at its last speech (with its face-down trump card)
    first: dict[int, float]  # each seat's z at its first speech


def forced_hands(game: Game, hands: int, seed: int) -> Iterator[ForcedHand]:
    """Each complete hand, from seeded deals, in which the forced seat (one of each in turn) speaks by
    `forced_speech` and ends up holding the contract; the other speeches and the play are heuristic:v1's."""
    m = model_for(game)
    m.warm()
    next_seed = hand_seeds(seed)
    for i in range(hands):
        deal = next_seed()
        dealer = i % game.n
        forced = (dealer + 1 + i // game.n) % game.n
        bots = [make_bot("heuristic:v1", game, bot_seed(seed, i, s)) for s in range(game.n)]
        state = game.new_hand(dealer, seed=deal)
        held = -1
        first: dict[int, float] = {}
        while state.to_act >= 0:
            seat = state.to_act
            legal = state.legal_actions()
            if state.phase == AUCTION:
                hand = state.hands[seat]
                if state.concealed and seat == state.folder and state.indicator >= 0:
                    hand |= 1 << state.indicator     # the seat's own face-down trump card is still its card
                if seat not in first:
                    first[seat] = m.z(hand)
                if seat == forced:
                    held = hand
                action = forced_speech(game, legal, seat, forced, state.high_bidder, hand)
            else:
                bot = bots[state.controller]
                action = bot.choose(state.view(seat) if bot.needs_view else None, legal)
            state.apply(action)
        if state.status == "complete" and state.special is None and state.bidder == forced and held >= 0:
            yield ForcedHand(state, dealer, forced, held, first)


def side_share(game: Game, f: ForcedHand) -> float:
    """The forced seat's side's share of the points less its seats' share."""
    state = f.state
    team = state.hand_team_of[f.forced]
    seats = sum(1 for t in state.hand_team_of if t == team)
    return state.team_points[team] / model_for(game).total - seats / game.n


def sample(game: Game, hands: int, seed: int) -> list[tuple[float, float, float, list[float]]]:
    """(share of the hand held at the forced seat's last speech, its z, its side's share taken less the seats'
    share, the z of each opponent at its first speech) per complete hand."""
    m = model_for(game)
    out: list[tuple[float, float, float, list[float]]] = []
    for f in forced_hands(game, hands, seed):
        team = f.state.hand_team_of[f.forced]
        opp = [v for s2, v in f.first.items() if f.state.hand_team_of[s2] != team]
        out.append((f.held.bit_count() / max(game.cards_each, 1), m.z(f.held), side_share(game, f), opp))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300, help="deals per file (default 300)")
    ap.add_argument("--seed", type=int, default=404, help="deal seed (default 404; not an evaluation seed)")
    ap.add_argument("--rulesets", default="", help="comma-separated files (default: every shipped file)")
    ap.add_argument("--json", dest="as_json", action="store_true", help="print the fits as JSON too")
    args = ap.parse_args()
    names = args.rulesets.split(",") if args.rulesets else sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
    pooled: dict[str, list[tuple[float, float]]] = defaultdict(list)
    report = {}
    against: list[tuple[float, float]] = []
    print("| file | hands | held | edge | slope per z | curve per z+^2 | residual sd |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        game = load_game(name)
        rows = sample(game, args.hands, args.seed)
        if not rows:
            print(f"| {name} | 0 | | | | | |")
            continue
        held = sum(h for h, _, _, _ in rows) / len(rows)
        e, s, c, sd, n = fit([(z, y) for _, z, y, _ in rows])
        report[name] = {"hands": n, "held": round(held, 3), "edge": round(e, 4), "slope": round(s, 4),
                        "curve": round(c, 4), "sd": round(sd, 4)}
        print(f"| {name} | {n} | {held:.2f} | {e:.4f} | {s:.4f} | {c:.4f} | {sd:.4f} |")
        against.extend((oz, y) for _, _, y, opp in rows for oz in opp)
        down = "face down" if game.rules.trump.concealed else "open"
        for h, z, y, _ in rows:
            pooled[f"held {'full' if h >= 1.0 else 'part'}, trump {down}"].append((z, y))
    print()
    print("| kind | hands | edge | slope per z | curve per z+^2 | residual sd |")
    print("|---|---|---|---|---|---|")
    for kind, rows2 in sorted(pooled.items()):
        e, s, c, sd, n = fit(rows2)
        report[kind] = {"hands": n, "edge": round(e, 4), "slope": round(s, 4), "curve": round(c, 4), "sd": round(sd, 4)}
        print(f"| {kind} | {n} | {e:.4f} | {s:.4f} | {c:.4f} | {sd:.4f} |")
    e, s, _, sd, n = fit(against, curved=False)
    report["against"] = {"hands": n, "edge": round(e, 4), "slope": round(s, 4), "sd": round(sd, 4)}
    print()
    print(f"The bidding side's share less its seats' share against an opponent's z at its first speech ({n} "
          f"opponents): {e:.4f} + {s:.4f} * z, residual sd {sd:.4f}")
    if args.as_json:
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
