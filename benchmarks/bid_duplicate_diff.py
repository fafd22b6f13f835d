"""Where the heuristic's auction and `heuristic:v1`'s differ in duplicate, and which side gains there.

    python3 benchmarks/bid_duplicate_diff.py RULESET [--deals 500] [--seed 1] [--json]

The duplicate deals of `engine/tournament.py` (same deal and bot seeds), `heuristic` against `heuristic:v1`. At
every decision outside the card play, the other bot's choice at the same view is asked for too; where the two
differ, the hand is copied and played to its end once more with the other choice (the same bots at every seat
after it). The gain of the choice taken over the other, for the choosing seat's side (its game points less the
other side's best), is grouped by who chose (new, v1), the phase, the kind of speech (an opening, over an
opponent's bid, over the partner's) and what was chosen (a bid or a pass, the bid's band against the standing
bid's). Only each hand's first differing decision is counted (later ones lie on a path the other bot would not
have reached), unless `--every`. Positive for `heuristic`: the new auction's choice paid; positive for
`heuristic:v1`: the old one's did.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from typing import Any

import _installed  # noqa: F401

from engine.bots.model import model_for
from engine.bots.registry import make_bot
from engine.play.actions import Action
from engine.play.base import AUCTION, PHASE_NAMES, PLAY
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.tournament import bot_seed, deal_seed, seatings

SPECS = ("heuristic", "heuristic:v1")


def side_gain(state: State, seat: int) -> float:
    gp = state.game_points
    team = state.hand_team_of[seat]
    return float(gp[team] - max((p for t, p in enumerate(gp) if t != team), default=0))


def band_index(game: Game, bid: int) -> int:
    for i, b in enumerate(game.rules.scoring.bands):
        if b.lo <= bid <= b.hi:
            return i
    return -1


def finish(state: State, bots: list[Any]) -> State:
    while state.to_act >= 0:
        b = bots[state.controller]
        state.apply(b.choose(state.view(state.to_act) if b.needs_view else None, state.legal_actions()))
    return state


def describe(game: Game, state: State, seat: int, a: Action) -> str:
    if a.verb != "bid":
        return a.verb
    value = game.bid_terms(a.arg)[0]
    if state.phase != AUCTION or state.high_bidder < 0:
        return f"bid {value} (band {band_index(game, value)})"
    rel = "same band" if band_index(game, value) == band_index(game, state.high) else "higher band"
    return f"bid {value} ({rel})"


def kind_of(state: State, seat: int) -> str:
    if state.phase != AUCTION:
        return PHASE_NAMES[state.phase]
    hb = state.high_bidder
    if hb < 0:
        return "opening"
    if state.hand_team_of[hb] == state.hand_team_of[seat]:
        return "over the partner"
    return "over an opponent"


def hand_of(state: State, seat: int) -> int:
    """The seat's cards, its own face-down trump card counted."""
    own = 1 << state.indicator if state.concealed and state.indicator >= 0 and seat == state.folder else 0
    return state.hands[seat] | own


def spoken(state: State) -> str:
    """The auction's speeches so far, one letter each: b a bid, p a pass."""
    return "".join("b" if a.verb == "bid" else "p" for a in state.history if a.verb in ("bid", "pass"))


def deal_rows(game: Game, seed: int, index: int, every: bool = False) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    model = model_for(game)
    dealer = index % game.n
    cards = game.shuffled_deal(deal_seed(seed, index), dealer)
    stock = game.shuffled_stock(deal_seed(seed, index))
    for k, arr in enumerate(seatings(game)):
        def bots_for(arr: tuple[int, ...] = arr, k: int = k) -> list[Any]:
            return [make_bot(SPECS[arr[s]], game, bot_seed(seed, index, k, s)) for s in range(game.n)]
        bots = bots_for()
        other = [make_bot(SPECS[1 - arr[s]], game, bot_seed(seed, index, k, s)) for s in range(game.n)]
        state = game.new_hand(dealer, hands=cards, stock=stock)
        found = 0
        while state.to_act >= 0:
            seat = state.to_act
            who = state.controller
            legal = state.legal_actions()
            view = state.view(seat)
            act = bots[who].choose(view, legal)
            if (every or not found) and state.phase != PLAY and len(legal) > 1:
                alt = other[who].choose(view, legal)
                if alt != act:
                    found += 1
                    a_state = state.clone()
                    a_state.apply(act)
                    b_state = state.clone()
                    b_state.apply(alt)
                    ga = side_gain(finish(a_state, bots_for()), seat)
                    gb = side_gain(finish(b_state, bots_for()), seat)
                    rows.append({"deal": index, "seating": k, "who": SPECS[arr[who]], "kind": kind_of(state, seat),
                                 "high": state.high, "took": describe(game, state, seat, act),
                                 "other": describe(game, state, seat, alt), "gain": ga - gb, "nth": found,
                                 "z": round(model.z(hand_of(state, seat)), 3), "spoken": spoken(state)})
            state.apply(act)
    return rows


def mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--deals", type=int, default=500, help="duplicate deals (default 500)")
    ap.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    ap.add_argument("--start", type=int, default=0, help="first deal number (default 0)")
    ap.add_argument("--every", action="store_true",
                    help="count every differing decision on the path played, not only each hand's first")
    ap.add_argument("--json", dest="as_json", action="store_true", help="print every differing decision as JSON")
    args = ap.parse_args()
    if args.deals < 1:
        ap.error("--deals must be at least 1")
    try:
        game = load_game(args.ruleset)
    except Exception as e:   # a bad name: one line
        ap.exit(2, f"bid_duplicate_diff.py: {e}\n")
    rows: list[dict[str, Any]] = []
    for i in range(args.start, args.start + args.deals):
        rows.extend(deal_rows(game, args.seed, i, args.every))
    groups: dict[tuple[str, str, str, str], list[float]] = defaultdict(list)
    for r in rows:
        took = r["took"].split(" (")[0].split(" ")[0] + (" (" + r["took"].split(" (")[1] if " (" in r["took"] else "")
        other = r["other"].split(" (")[0].split(" ")[0] + (" (" + r["other"].split(" (")[1] if " (" in r["other"]
                                                            else "")
        nth = "1st" if r["nth"] == 1 else "later"
        groups[(r["who"], r["kind"] + ("" if not args.every else f" ({nth})"), took, other)].append(r["gain"])
    hands = args.deals * len(seatings(game))
    print(f"{args.ruleset}: {args.deals} deals ({hands} hands), seed {args.seed}; {len(rows)} hands differ")
    print("| who chose | speech | took | the other's choice | hands | gain of the choice taken [95%] | "
          "total per hand |")
    print("|---|---|---|---|---|---|---|")
    for key, xs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        m, h = mean_ci(xs)
        print(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {len(xs)} | {m:+.3f} [{m - h:+.3f}, {m + h:+.3f}] | "
              f"{sum(xs) / hands:+.4f} |")
    if args.as_json:
        print(json.dumps(rows, indent=0))


if __name__ == "__main__":
    main()
