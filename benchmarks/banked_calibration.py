"""Fits the banked auction's estimate (engine/bots/banked_bidding.py: BANKED_FIT, MELD_FIT) on simulated hands.

    python3 benchmarks/banked_calibration.py [--hands 1500] [--seed 404] [--rulesets coinche,coinche-ta-sa] [--json]
    python3 benchmarks/banked_calibration.py --turned --rulesets belote,klaberjass       (turned_choice.TAKE_FIT)
    python3 benchmarks/banked_calibration.py --turned --rulesets schieber,klaverjas      (CHOOSE_FIT, PUSH_MEAN)

For files scored `scoring.method: banked` with an auction. For every deal one seat, turned round the table deal by
deal, is made the bidder: it bids the lowest bid naming its best trump (a suit or a mode, by the hand evaluation's
units, HandModel.units_named) and every other seat passes; everything after the auction is the heuristic's, so
the hand is played as the bots play it. Forcing the bidder keeps weak hands in the fit. The seed is not one of the
evaluation seeds (the tournaments use 1-3 and 9).

Per hand it keeps the bidder's z for the trump named (units in standard deviations of random hands of that size),
the melds his own hand arranges into (combinations.game_melds) and his trump marriage (both cards held), and after
the hand his side's card points (a share of the named trump's pack: its total card points with the last trick),
the melds that scored for it, its marriage, and the other side's melds and marriage. It prints the least-squares
curve `card share - seats' share = edge + slope * z + curve * max(z, 0)^2`, the line `side's melds + marriage =
m0 + m1 * own melds + m2 * own marriage`, the residual spread of the side's whole total about both (card points),
and the other side's mean melds + marriage.

`--turned`: files whose trump is taken or chosen without an auction (engine/play/turned.py). The forced seat takes
the turned card at its first turn (the seats before it pass), or, where the forehand chooses, names his best trump
(a suit or a mode) without pushing; z is read from the cards it holds then (the turned card counted where the taker
gets it). It prints the same fits, and the mean banked difference between the chooser's side and the other.
`--modes` makes the chooser name each named mode in turn (deal by deal), its z read against that mode's own spread
(turned_choice.TurnedWeigh.mode_z): turned_choice.MODE_FIT.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _installed  # noqa: F401, E402
from bid_calibration import fit, solve  # noqa: E402

from engine.bots.banked_bidding import code_total, marriage_held, own_melds  # noqa: E402
from engine.bots.model import model_for  # noqa: E402
from engine.bots.registry import make_bot  # noqa: E402
from engine.bots.turned_choice import in_play_total, weigh_for  # noqa: E402
from engine.play.actions import Action  # noqa: E402
from engine.play.banked import score_banked  # noqa: E402
from engine.play.base import AUCTION, CHOOSE, TAKE  # noqa: E402
from engine.play.compile import load_game  # noqa: E402
from engine.play.game import Game  # noqa: E402
from engine.play.state import State  # noqa: E402
from engine.sim import bot_seed, hand_seeds  # noqa: E402

diffs: list[float] = []
Row = tuple[float, float, float, float, float, float, float]   # z, own melds, own marriage, card share less
#                                     seats', side's melds + marriage, total (card points + melds + marriage), the
#                                     card points the share is of


def best_bid(game: Game, bids: list[Action], hand: int) -> tuple[Action, str]:
    m = model_for(game)
    best = bids[0]
    best_u = -1e9
    for a in bids:
        if a.verb != "bid":
            continue
        u = m.units_named(hand, m.code_of(a))
        if u > best_u:
            best, best_u = a, u
    return best, m.code_of(best)


def turned_action(game: Game, legal: tuple[Action, ...], state: State, mode: int = -1) -> tuple[Action, str, int]:
    """The forced seat's take or choice: (action, code, the card it receives); `mode`: the named mode it must name
    where it may."""
    m = model_for(game)
    if mode >= 0:
        named_mode = next((a for a in legal if a.verb == "trump" and a.arg == game.mode_names[mode]), None)
        if named_mode is not None:
            return named_mode, named_mode.arg, -1
    hand = state.hands[state.to_act]
    take = next((a for a in legal if a.verb == "take"), None)
    if take is not None and state.turned >= 0:
        gets = state.turned if game.rules.deal.turned_to_taker else -1
        return take, game.layout.suits[game.suit_of[state.turned]], gets
    named = [a for a in legal if a.verb == "trump" and (a.arg in game.layout.suits or game.mode_index(a.arg) >= 0)]
    best = max(named, key=lambda a: m.units_named(hand, a.arg))
    return best, best.arg, -1


def sample(game: Game, hands: int, seed: int, turned: bool = False, modes: bool = False) -> tuple[list[Row],
                                                                                                 list[float]]:
    m = model_for(game)
    m.warm()
    rows: list[Row] = []
    other: list[float] = []
    diffs.clear()
    next_seed = hand_seeds(seed)
    for i in range(hands):
        deal = next_seed()
        dealer = i % game.n
        forced = (dealer + 1 + i // game.n) % game.n
        bots = [make_bot("heuristic", game, bot_seed(seed, i, s)) for s in range(game.n)]
        state = game.new_hand(dealer, seed=deal)
        z = -1000.0
        melds = marriage = 0.0
        total = m.total
        while state.to_act >= 0:
            seat = state.to_act
            legal = state.legal_actions()
            if turned and state.phase in (TAKE, CHOOSE) and state.bidder < 0:
                named = [a for a in legal if a.verb in ("take", "trump")]
                passing = next((a for a in legal if a.verb == "pass"), None)
                if named and (seat == forced or state.phase == CHOOSE or passing is None):
                    mode = i % len(game.mode_names) if modes and game.mode_names else -1
                    action, code, gets = turned_action(game, legal, state, mode)
                    forced = seat
                    hand = state.hands[seat] | (1 << gets if gets >= 0 else 0)
                    mean, sd = m.spread(hand.bit_count())
                    z = (m.units_named(hand, code) - mean) / sd
                    if mode >= 0:
                        z = weigh_for(game).mode_z(hand, game.mode_index(code))
                    melds = float(own_melds(game, seat, hand))
                    marriage = float(marriage_held(game, hand, code))
                    out = state.turned if state.turned >= 0 and not game.rules.deal.turned_to_taker else -1
                    total = in_play_total(game, code, hand, out)
                else:
                    action = passing if passing is not None else legal[0]
            elif state.phase == AUCTION:
                passing = next((a for a in legal if a.verb == "pass"), None)
                bids = [a for a in legal if a.verb == "bid"]
                if seat == forced and state.high_bidder != seat and bids:
                    hand = state.hands[seat]
                    lowest = m.value_of(bids[0])
                    action, code = best_bid(game, [a for a in bids if m.value_of(a) == lowest], hand)
                    mean, sd = m.spread(hand.bit_count())
                    z = (m.units_named(hand, code) - mean) / sd
                    melds = float(own_melds(game, seat, hand))
                    marriage = float(marriage_held(game, hand, code))
                    total = code_total(game, code)
                elif passing is not None:
                    action = passing
                else:
                    action = bids[0] if bids else legal[0]
            else:
                bot = bots[state.controller]
                action = bot.choose(state.view(seat) if bot.needs_view else None, legal)
            state.apply(action)
        if state.status != "complete" or state.bidder != forced or z < -99:
            continue
        team = state.hand_team_of[forced]
        seats = sum(1 for t in state.hand_team_of if t == team)
        cards = state.team_points[team]
        side = state.meld_points[team] + state.marriage_points[team]
        rows.append((z, melds, marriage, cards / total - seats / game.n, float(side), float(cards + side),
                     float(total)))
        other.append(float(state.meld_points[1 - team] + state.marriage_points[1 - team]))
        pts = score_banked(state).points
        diffs.append(float(pts[team] - pts[1 - team]))
    return rows, other


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1500, help="deals per file (default 1500)")
    ap.add_argument("--seed", type=int, default=404, help="deal seed (default 404; not an evaluation seed)")
    ap.add_argument("--rulesets", default="coinche", help="comma-separated banked files with an auction")
    ap.add_argument("--json", dest="as_json", action="store_true", help="print the fits as JSON too")
    ap.add_argument("--turned", action="store_true", help="the turned card taken or the trump chosen, no auction")
    ap.add_argument("--modes", action="store_true", help="with --turned: the chooser names each named mode in turn")
    args = ap.parse_args()
    rows: list[Row] = []
    other: list[float] = []
    all_diffs: list[float] = []
    for name in args.rulesets.split(","):
        r, o = sample(load_game(name), args.hands, args.seed, args.turned, args.modes)
        rows.extend(r)
        other.extend(o)
        all_diffs.extend(diffs)
    n = len(rows)
    if n < 8:
        print("too few hands")
        return
    edge, slope, curve, sd_share, _ = fit([(r[0], r[3]) for r in rows])
    cols = 3 if any(r[2] for r in rows) else 2     # no marriage in any hand (a mode): no column for it
    xs = [[1.0, r[1], r[2]][:cols] for r in rows]
    a = [[sum(x[i] * x[j] for x in xs) for j in range(cols)] for i in range(cols)]
    b = [sum(x[i] * r[4] for x, r in zip(xs, rows, strict=True)) for i in range(cols)]
    m0, m1, m2 = ([*solve(a, b), 0.0])[:3]
    model = model_for(load_game(args.rulesets.split(",")[0]))
    share = model.share[0]
    res = []
    for r in rows:
        zp = max(r[0], 0.0)
        pred = r[6] * (share + edge + slope * r[0] + curve * zp * zp) + m0 + m1 * r[1] + m2 * r[2]
        res.append(r[5] - pred)
    sd_total = math.sqrt(sum(x * x for x in res) / (n - 6))
    out = {"hands": n, "edge": round(edge, 4), "slope": round(slope, 4), "curve": round(curve, 4),
           "share_sd": round(sd_share, 4), "m0": round(m0, 2), "m1": round(m1, 3), "m2": round(m2, 3),
           "total_sd": round(sd_total, 2), "other_melds": round(sum(other) / len(other), 2),
           "own_melds_mean": round(sum(r[1] for r in rows) / n, 2),
           "own_marriage_mean": round(sum(r[2] for r in rows) / n, 2),
           "mean_difference": round(sum(all_diffs) / max(len(all_diffs), 1), 2)}
    print(f"{n} hands: card share - seats' share = {edge:.4f} + {slope:.4f} z + {curve:.4f} max(z,0)^2 "
          f"(sd {sd_share:.4f}); side's melds + marriage = {m0:.2f} + {m1:.3f} own melds + {m2:.3f} own marriage; "
          f"total's residual sd {sd_total:.2f}; other side's melds + marriage {out['other_melds']}; mean banked "
          f"difference {out['mean_difference']}")
    if args.as_json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
