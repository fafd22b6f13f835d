"""What grading a hand's claims of the remaining tricks costs, and whether the bound on it changes any grade.

    python3 benchmarks/claim_grading.py three-hundred-and-four --random 4000 --heuristic 200 --rigged 600

Claims are graded when a hand is scored (engine/play/sweep_claims.py): the sweep prover is run at the turns before
a claim, within GRADING_BUDGET positions for the whole hand. This script plays hands to their end, grades each
finished hand's claims again twice, within `--bound` positions (the shipped GRADING_BUDGET by default) and within
`--wide` positions (10,000,000), and prints one JSON line per set of hands: how many hands were graded (a claim or
a sweep), the slowest grading within the bound (seconds, positions, hand), the most positions the wide grading
spent, and every hand whose grades differ.

The sets of hands:
- `--random N`: the first N hands `benchmarks/random_hands.py RULESET` plays (the same seeds and random stream;
  it plays HANDS / 5 hands, its rounds the same ones);
- `--heuristic N`: the hands of tests/test_claims_provable.py (the heuristic at every seat, hands 0 to N-1);
- `--rigged N`: the hands of tests/test_rules_behaviour.py that test `first_moment` (seat 0 dealt every card of
  the first suit, random players who pass half the time they may).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import _installed  # noqa: F401

import engine.play.sweep_claims as sweep_claims
from engine import load_game
from engine.bots.base import make_bot
from engine.errors import JacknineError, UnreadableError
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.playout import random_playout
from engine.play.state import State
from engine.sim import hand_seeds

WIDE = 10_000_000


def random_hands(game: Game, hands: int, seed: int = 1) -> Iterator[tuple[int, State]]:
    rand = random.Random(seed).random
    next_seed = hand_seeds(seed)
    for i in range(hands):
        st = game.new_hand(i % game.n, seed=next_seed())
        random_playout(st, rand)
        yield i, st


def heuristic_hands(game: Game, hands: int) -> Iterator[tuple[int, State]]:
    for seed in range(hands):
        st = game.new_hand(seed % game.n, seed=seed)
        players = [make_bot("heuristic", game, seed * 7 + i) for i in range(game.n)]
        while st.to_act >= 0:
            st.apply(players[st.controller].choose(st.view(st.to_act), st.legal_actions()))
        yield seed, st


def rigged_hands(game: Game, hands: int) -> Iterator[tuple[int, State]]:
    for index in range(hands):
        if index % 10 == 9:     # the behaviour test plays a match there
            continue
        rng = random.Random(1000 + index)
        scores = [(index % 3) - 1 if t == 0 else 0 for t in range(len(game.rules.table.teams))]
        dealer = index % game.n
        dealt = _one_suit_to_seat_0(game, game.shuffled_deal(index, dealer))
        st = game.new_hand(dealer, hands=dealt, match_scores=scores, stock=game.shuffled_stock(index) or None)
        while not st.is_terminal:
            st.apply(_choose(st.legal_actions(), rng))
        yield index, st


def _one_suit_to_seat_0(game: Game, dealt: list[list[int]]) -> list[list[int]]:
    suit = [c for h in dealt for c in h if game.suit_of[c] == 0]
    mine = suit + [c for c in dealt[0] if game.suit_of[c] != 0]
    spare = [c for c in dealt[0] if c not in mine[:len(dealt[0])]] + mine[len(dealt[0]):]
    out = [mine[:len(dealt[0])]]
    for h in dealt[1:]:
        out.append([c if game.suit_of[c] != 0 else spare.pop() for c in h])
    return out


def _choose(legal: list[Action], rng: random.Random) -> Action:
    if rng.random() < 0.5:
        for a in legal:
            if a.verb == "pass":
                return a
    return legal[int(rng.random() * len(legal))]


def graded(st: State, bound: int) -> tuple[list[tuple[int, str, int | None]], int, float]:
    """The hand's claim grades within `bound` positions, the positions spent, the seconds."""
    budget = sweep_claims._Budget(bound)
    t0 = time.perf_counter()
    grades = sweep_claims.claim_grades(st, [0] * len(st.game_points), budget)
    return grades, bound - budget.left, time.perf_counter() - t0


def compare(name: str, hands: Iterator[tuple[int, State]], bound: int, wide: int) -> dict[str, Any]:
    out: dict[str, Any] = {"hands": name, "bound": bound, "wide": wide, "played": 0, "graded": 0,
                           "slowest": None, "most_positions_wide": 0, "differ": []}
    worst = -1.0
    for i, st in hands:
        out["played"] += 1
        ship, used, secs = graded(st, bound)
        if not ship and not used:
            continue
        out["graded"] += 1
        if secs > worst:
            worst = secs
            out["slowest"] = {"hand": i, "seconds": round(secs, 4), "positions": used}
        far, far_used, _ = graded(st, wide)
        out["most_positions_wide"] = max(out["most_positions_wide"], far_used)
        if far != ship:
            out["differ"].append({"hand": i, "bound": ship, "wide": far})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ruleset", nargs="?", default="three-hundred-and-four", help="a shipped name or a rule file")
    ap.add_argument("--random", type=int, default=0, metavar="N", help="the first N hands random_hands.py plays")
    ap.add_argument("--heuristic", type=int, default=0, metavar="N", help="the claims test's hands 0..N-1")
    ap.add_argument("--rigged", type=int, default=0, metavar="N", help="the behaviour test's hands 0..N-1")
    ap.add_argument("--bound", type=int, default=sweep_claims.GRADING_BUDGET,
                    help=f"the bound tried (default the shipped GRADING_BUDGET, {sweep_claims.GRADING_BUDGET:,})")
    ap.add_argument("--wide", type=int, default=WIDE, help=f"the bound compared with (default {WIDE:,})")
    args = ap.parse_args()
    if min(args.random, args.heuristic, args.rigged) < 0 or args.wide < 1 or args.bound < 0:
        ap.error("hand counts at least 0, --wide at least 1, --bound at least 0")
    if not (args.random or args.heuristic or args.rigged):
        ap.error("say which hands: --random N, --heuristic N or --rigged N")
    try:
        game = load_game(args.ruleset)
    except JacknineError as e:
        print(e, file=sys.stderr)
        raise SystemExit(2 if isinstance(e, UnreadableError) else 1) from None
    sets: list[tuple[str, int, Callable[[Game, int], Iterator[tuple[int, State]]]]] = [
        ("random", args.random, random_hands), ("heuristic", args.heuristic, heuristic_hands),
        ("rigged", args.rigged, rigged_hands)]
    for name, count, make in sets:
        if count:
            found = compare(name, make(game, count), args.bound, args.wide)
            print(json.dumps({"ruleset": game.rules.name, **found}), flush=True)


if __name__ == "__main__":
    main()
