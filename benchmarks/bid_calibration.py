"""Fits the auction's hand estimate (engine/bots/bidding.py: BID_EDGE, BID_Z, BID_SD) on simulated hands.

    python3 benchmarks/bid_calibration.py [--hands 300] [--seed 404] [--rulesets a,b] [--json]

For every deal one seat, turned round the table deal by deal, is made the bidder: it bids the lowest bid it may
(naming its best suit where bids name one) whenever it does not hold the standing bid, and every other seat passes
where it may (else bids the lowest bid). Everything after the auction is the heuristic's (`heuristic:v1`), so the
hand is played as the bots play it. Forcing the bidder keeps weak hands in the fit: the auction must know what a
weak hand is worth too, to pass it. The seed is not one of the evaluation seeds (bot_table.py, strength.py and the
tournaments use 1-3 and 9).

At the forced seat's last speech the script keeps how strong its hand was: z, the hand evaluation's best-suit units
in standard deviations of random hands of that size (HandModel.z), and what share of the full hand it held then.
After the hand it keeps the share of the pack's card points its side took, less the seats' share (a side of two of
four seats: 0.5). Per file it prints the least-squares line `taken - seats' share = edge + slope * z` and the spread
of the residuals, and pooled over the files, the same line per kind of auction (the part of the hand held at the
speech; the trump named face down or not): the constants of bidding.py come from the pooled lines.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path

from engine.bots.model import model_for
from engine.bots.registry import make_bot
from engine.play.actions import Action
from engine.play.base import AUCTION
from engine.play.compile import load_game
from engine.play.game import Game
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


def fit(rows: list[tuple[float, float]]) -> tuple[float, float, float, int]:
    """(edge, slope, residual sd, n) of y = edge + slope * z."""
    n = len(rows)
    if n < 3:
        return 0.0, 0.0, 0.0, n
    mz = sum(z for z, _ in rows) / n
    my = sum(y for _, y in rows) / n
    szz = sum((z - mz) ** 2 for z, _ in rows)
    szy = sum((z - mz) * (y - my) for z, y in rows)
    slope = szy / szz if szz > 0 else 0.0
    edge = my - slope * mz
    sd = math.sqrt(sum((y - edge - slope * z) ** 2 for z, y in rows) / (n - 2))
    return edge, slope, sd, n


def sample(game: Game, hands: int, seed: int) -> list[tuple[float, float, float]]:
    """(share of the hand held at the speech, z, side's share taken less the seats' share) per complete hand."""
    m = model_for(game)
    m.warm()
    out: list[tuple[float, float, float]] = []
    next_seed = hand_seeds(seed)
    for i in range(hands):
        deal = next_seed()
        dealer = i % game.n
        forced = (dealer + 1 + i // game.n) % game.n
        bots = [make_bot("heuristic:v1", game, bot_seed(seed, i, s)) for s in range(game.n)]
        state = game.new_hand(dealer, seed=deal)
        z = held = -1.0
        while state.to_act >= 0:
            seat = state.to_act
            legal = state.legal_actions()
            if state.phase == AUCTION:
                hand = state.hands[seat]
                if seat == forced:
                    z = m.z(hand)
                    held = hand.bit_count() / max(game.cards_each, 1)
                action = forced_speech(game, legal, seat, forced, state.high_bidder, hand)
            else:
                who = state.controller
                bot = bots[who]
                action = bot.choose(state.view(seat) if bot.needs_view else None, legal)
            state.apply(action)
        if state.status != "complete" or state.special is not None or state.bidder != forced or held < 0:
            continue
        team = state.hand_team_of[forced]
        seats = sum(1 for t in state.hand_team_of if t == team)
        taken = state.team_points[team] / m.total - seats / game.n
        out.append((held, z, taken))
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
    print("| file | hands | held | edge | slope per z | residual sd |")
    print("|---|---|---|---|---|---|")
    for name in names:
        game = load_game(name)
        rows = sample(game, args.hands, args.seed)
        if not rows:
            print(f"| {name} | 0 | | | | |")
            continue
        held = sum(h for h, _, _ in rows) / len(rows)
        e, s, sd, n = fit([(z, y) for _, z, y in rows])
        report[name] = {"hands": n, "held": round(held, 3), "edge": round(e, 4), "slope": round(s, 4), "sd": round(sd, 4)}
        print(f"| {name} | {n} | {held:.2f} | {e:.4f} | {s:.4f} | {sd:.4f} |")
        kind = f"held {'full' if held >= 0.99 else 'part'}, trump {'face down' if game.rules.trump.concealed else 'open'}"
        pooled[kind].extend((z, y) for _, z, y in rows)
    print()
    print("| kind | hands | edge | slope per z | residual sd |")
    print("|---|---|---|---|---|")
    for kind, rows2 in sorted(pooled.items()):
        e, s, sd, n = fit(rows2)
        report[kind] = {"hands": n, "edge": round(e, 4), "slope": round(s, 4), "sd": round(sd, 4)}
        print(f"| {kind} | {n} | {e:.4f} | {s:.4f} | {sd:.4f} |")
    if args.as_json:
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
