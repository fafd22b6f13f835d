"""What each auction speech of the heuristic is worth when the hand is played out: the margins of bidding.py.

    python3 benchmarks/bid_rollouts.py [--rulesets twenty-nine] [--hands 1500] [--seed 404] [--json]
                                       [--set OVERCALL_GAIN=0 --set OPEN_GAIN=0]

The heuristic plays `--hands` deals at every seat. At each of its speeches that may pass or bid, the deal is copied
and played to its end once per choice - passing, and each of the next four bids (naming the seat's best suit where
bids name the trump) - with the heuristic at every seat after it. Where the rules oblige the seat to bid, the lowest
bid stands for passing ("forced opening"). What the speaking seat's side scored less the other side's, per choice,
is set against the weighing's own numbers (engine/bots/bidding.py: a bid's worth, passing's worth). Speeches are
grouped by kind: an opening (no bid yet), a bid over an opponent's standing bid, a bid over the partner's. For each
kind it prints the least-squares line of the played-out gain of the next bid over passing on the weighing's margin
(the next bid's worth less passing's), the margin at which that line crosses zero (where a bid starts to pay), and
the mean gain per band of the margin.
`--rows FILE` writes every speech played out (its cards, seat, dealer, the speeches before it, the gain of each
choice), which benchmarks/call_fit.py fits Thunee's calls from; `--above BID` plays out only speeches over a standing
bid of at least BID (the re-calls).
`--set NAME=VALUE` sets one of bidding.py's constants for the run: OPEN_GAIN and OVERCALL_GAIN were fitted with
both set to 0 (the auction before them), seed 404 ( not an evaluation seed: bot_table.py, strength.py and the
tournaments use 1-3 and 9).
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

import _installed  # noqa: F401

from engine.bots import bidding
from engine.bots.model import model_for
from engine.bots.policy import policy_for, state_knowledge
from engine.bots.registry import make_bot
from engine.play.base import AUCTION
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.sim import bot_seed, hand_seeds

Z_BANDS = ((-9.0, 0.0), (0.0, 1.0), (1.0, 1.5), (1.5, 2.0), (2.0, 2.5), (2.5, 9.0))
MARGIN_BANDS = ((-9.0, -0.2), (-0.2, 0.0), (0.0, 0.1), (0.1, 0.2), (0.2, 0.3), (0.3, 9.0))


def finish(state: State, game: Game, seed: int, index: int) -> State:
    bots = [make_bot("heuristic", game, bot_seed(seed, index, s) + 7) for s in range(game.n)]
    while state.to_act >= 0:
        b = bots[state.controller]
        state.apply(b.choose(state.view(state.to_act) if b.needs_view else None, state.legal_actions()))
    return state


def side_gain(state: State, seat: int) -> float:
    if state.status != "complete":
        return 0.0
    gp = state.game_points
    team = state.hand_team_of[seat]
    return float(gp[team] - max((p for t, p in enumerate(gp) if t != team), default=0))


def contested(state: State, m: Any, least: float) -> bool:
    """Whether, at the auction's first speech, seats of two different sides hold hands of strength `least` or
    more (every deal where `least` is None)."""
    teams = {state.hand_team_of[s] for s in range(state.n) if m.z(state.hands[s]) >= least}
    return len(teams) >= 2


def speeches(game: Game, hands: int, seed: int, least: float | None = None, kind_only: str = "",
             min_z: float = -99.0, tried: list[int] | None = None, above: int = -1) -> list[dict[str, Any]]:
    m = model_for(game)
    policy = policy_for(m)
    rules = policy.auction
    out: list[dict[str, Any]] = []
    next_seed = hand_seeds(seed)
    i = -1
    kept = 0
    while kept < hands:
        i += 1
        deal = next_seed()
        state = game.new_hand(i % game.n, seed=deal)
        if least is not None and not (state.phase == AUCTION and contested(state, m, least)):
            continue
        kept += 1
        bots = [make_bot("heuristic", game, bot_seed(seed, i, s)) for s in range(game.n)]
        while state.to_act >= 0:
            seat = state.to_act
            legal = state.legal_actions()
            b = bots[state.controller]
            act = b.choose(state.view(seat) if b.needs_view else None, legal)
            passing = [a for a in legal if a.verb == "pass"][:1]
            bids = [a for a in legal if a.verb == "bid"]
            if state.phase == AUCTION and bids and game.rules.trump.in_bid:   # the bids naming the seat's own suit
                bids = policy.bid_options(legal, policy.bid_estimate(state_knowledge(state, seat))[0])[0]
            bids = bids[:5 - len(passing)]
            if not passing and len(bids) > 1:   # an opening the rules force: the lowest bid stands for passing
                passing, bids = bids[:1], bids[1:]
            if state.phase == AUCTION and passing and bids:
                k = state_knowledge(state, seat)
                z = m.z(k.held)
                rnd = rules.round_now(k)
                strengths = rules.strengths(k, z, rules.standing_z(k, rnd), rnd)
                mean = rules.side_points(k, seat, strengths)
                sd = rules.spread(k.held.bit_count())
                kind = "opening" if k.standing < 0 else ("over the partner" if k.partners(k.standing, seat)
                                                         else "over an opponent")
                if passing[0].verb == "bid":
                    kind = "forced opening"
                if (kind_only and kind != kind_only) or z < min_z or k.facts.high < above:
                    state.apply(act)
                    continue
                gains = []
                for a in passing + bids:
                    c = state.clone()
                    c.apply(a)
                    gains.append(side_gain(finish(c, game, seed, i), seat))
                options = passing + bids
                suit = m.best_trump(k.held, False)[0]
                ranks = game.layout.ranks
                out.append({"kind": kind, "high": k.facts.high, "z": round(z, 3),
                            "margin": rules.worth(m.value_of(bids[0]), rnd, mean, sd)
                            - rules.pass_value(k, strengths, sd, rnd),
                            "gains": gains, "chose": options.index(act) if act in options else -1,
                            "held": k.held.bit_count(), "mask": k.held,
                            "seat": seat, "dealer": state.dealer,
                            "speeches": list(k.facts.speeches), "spoken": sum(1 for a in state.history if a.seat >= 0
                                                                      and a.verb in ("bid", "pass")),
                            "trump_len": (k.held & game.suit_masks[suit]).bit_count() if suit >= 0 else 0,
                            "tops": [sum(1 for c in range(game.size) if k.held >> c & 1
                                         and game.rank_of[c] == r) for r in range(min(2, len(ranks)))]})
            state.apply(act)
    if tried is not None:
        tried.append(i + 1)
    return out


def line(rows: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    """(intercept, slope, their standard errors) of least squares."""
    n = len(rows)
    mx = sum(x for x, _ in rows) / n
    my = sum(y for _, y in rows) / n
    sxx = sum((x - mx) ** 2 for x, _ in rows)
    if n < 3 or sxx <= 0:
        return my, 0.0, 0.0, 0.0
    b = sum((x - mx) * (y - my) for x, y in rows) / sxx
    a = my - b * mx
    s = math.sqrt(sum((y - a - b * x) ** 2 for x, y in rows) / (n - 2))
    return a, b, s * math.sqrt(1 / n + mx * mx / sxx), s / math.sqrt(sxx)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", default="twenty-nine", help="comma-separated files (default twenty-nine)")
    ap.add_argument("--hands", type=int, default=1500, help="deals per file (default 1500)")
    ap.add_argument("--seed", type=int, default=404, help="deal seed (default 404; not an evaluation seed)")
    ap.add_argument("--json", dest="as_json", action="store_true", help="also print the fits as JSON")
    ap.add_argument("--by-high", action="store_true",
                    help="also split each kind of speech by the standing bid and the hand's z: the gain of the next "
                         "bid, and of the one after it, over passing")
    ap.add_argument("--contested", type=float, default=None, metavar="Z",
                    help="keep only deals where, at the auction's first speech, seats of two different sides hold "
                         "hands of strength Z or more (--hands counts the deals kept; dealing is cheap, so thousands "
                         "of speeches in the strong bands come without playing the rest)")
    ap.add_argument("--kind", default="",
                    choices=("", "opening", "forced opening", "over an opponent", "over the partner"),
                    help="play out only this kind of speech")
    ap.add_argument("--min-z", type=float, default=-99.0, help="play out only speeches from hands this strong")
    ap.add_argument("--above", type=int, default=-1, metavar="BID",
                    help="play out only speeches over a standing bid of at least BID (e.g. Thunee's re-calls)")
    ap.add_argument("--rows", default="", metavar="FILE", help="also write every speech played out (JSON lines)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="set a number of engine/bots/bidding.py for the run (e.g. OVERCALL_GAIN=0)")
    args = ap.parse_args()
    if args.hands < 1:
        ap.error("--hands must be at least 1")
    for item in args.set:
        key, _, value = item.partition("=")
        if not isinstance(getattr(bidding, key, None), float):
            ap.error(f"--set {item}: not a number of bidding.py")
        try:
            setattr(bidding, key, float(value))
        except ValueError:
            ap.error(f"--set {item}: the value is not a number")
    report: dict[str, Any] = {}
    for name in args.rulesets.split(","):
        try:
            game = load_game(name)
        except Exception as e:   # a bad name: one line
            ap.exit(2, f"bid_rollouts.py: {e}\n")
        tried: list[int] = []
        rows = speeches(game, args.hands, args.seed, args.contested, args.kind, args.min_z, tried, args.above)
        print(f"{name}: {len(rows)} speeches, seed {args.seed}, {args.hands} deals kept of {tried[0]}")
        if args.rows:
            with open(args.rows, "a", encoding="utf-8") as f:
                for r in rows:
                    f.write(json.dumps({"ruleset": name, **r}) + "\n")
        print("| speech | n | gain of the next bid over passing | crosses zero at margin | mean gain by margin |")
        print("|---|---|---|---|---|")
        for kind in ("opening", "forced opening", "over an opponent", "over the partner"):
            pts = [(r["margin"], r["gains"][1] - r["gains"][0]) for r in rows if r["kind"] == kind]
            if len(pts) < 3:
                continue
            a, b, sa, sb = line(pts)
            cross = -a / b if b > 0 else float("nan")
            by = []
            for lo, hi in MARGIN_BANDS:
                g = [y for x, y in pts if lo <= x < hi]
                if len(g) >= 20:
                    by.append(f"{lo:+.1f}..{hi:+.1f}: {sum(g) / len(g):+.2f} ({len(g)})")
            print(f"| {kind} | {len(pts)} | {a:+.3f} (±{sa:.3f}) {b:+.3f} (±{sb:.3f}) x margin | {cross:+.3f} | "
                  f"{'; '.join(by)} |")
            report[f"{name} {kind}"] = {"n": len(pts), "intercept": round(a, 4), "slope": round(b, 4),
                                        "crosses": round(cross, 4) if b > 0 else None}
        if args.by_high:
            print()
            print("| speech | standing bid | z band | n | gain of the next bid over passing [95%] | "
                  "of the bid after it |")
            print("|---|---|---|---|---|---|")
            for kind in ("opening", "forced opening", "over an opponent", "over the partner"):
                for high in sorted({r["high"] for r in rows if r["kind"] == kind}):
                    for lo, hi in Z_BANDS:
                        g = [r for r in rows if r["kind"] == kind and r["high"] == high and lo <= r["z"] < hi]
                        if not g:
                            continue
                        one = [r["gains"][1] - r["gains"][0] for r in g]
                        two = [r["gains"][2] - r["gains"][0] for r in g if len(r["gains"]) > 2]
                        print(f"| {kind} | {high} | {lo:+.1f}..{hi:+.1f} | {len(g)} | {ci_text(one)} | "
                              f"{ci_text(two) if two else '-'} |")
    if args.as_json:
        print(json.dumps(report, indent=1))


def ci_text(xs: list[float]) -> str:
    n = len(xs)
    m = sum(xs) / n
    h = 1.96 * math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0
    return f"{m:+.2f} [{m - h:+.2f}, {m + h:+.2f}]"


if __name__ == "__main__":
    main()
