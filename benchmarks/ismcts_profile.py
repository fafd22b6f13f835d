"""Where OpenSpiel's IS-MCTS spends a decision on a rule file: cProfile over its decisions (needs the openspiel extra).

    python3 benchmarks/ismcts_profile.py three-hundred-and-four --simulations 200 --deals 2 --seconds 400

Deals from the tournament's seeds (engine.tournament.deal_seed, seed 1) are played with `ismcts:N` at the even
seats and the heuristic at the odd ones; every IS-MCTS decision with more than one legal action is timed (one line
each: deal, action number, phase, the action, seconds) and profiled. The profile, by cumulative time, follows:
the engine's parts are the worlds resampled at every simulation (engine/adapters/resample.py), the random
play-outs that value new nodes (engine/play/playout.py) with the scoring at their end (the claims' grading,
engine/play/sweep_claims.py), legal actions, state copies; OpenSpiel's own are its tree (ismcts.py) and the
information state strings it keys the tree by. The same seeds give the same decisions on any machine.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

import _installed  # noqa: F401

from engine import load_game
from engine.bots.base import make_bot
from engine.errors import JacknineError, UnreadableError
from engine.tournament import deal_seed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ruleset", nargs="?", default="three-hundred-and-four", help="a shipped name or a rule file")
    ap.add_argument("--simulations", type=int, default=200, help="IS-MCTS simulations per decision (200)")
    ap.add_argument("--deals", type=int, default=1, help="deals to play (1)")
    ap.add_argument("--seconds", type=float, default=300.0, help="stop after the action under way past this (300)")
    ap.add_argument("--lines", type=int, default=40, help="profile lines printed (40)")
    args = ap.parse_args()
    if args.simulations < 2 or args.deals < 1 or args.seconds <= 0 or args.lines < 1:
        ap.error("--simulations at least 2 (OpenSpiel's bot needs two), --deals and --lines at least 1, "
                 "--seconds above 0")
    try:
        game = load_game(args.ruleset)
        make_bot("ismcts", game, 0)
    except JacknineError as e:
        print(e, file=sys.stderr)
        raise SystemExit(2 if isinstance(e, UnreadableError) else 1) from None
    except ValueError as e:      # OpenSpiel missing
        print(e, file=sys.stderr)
        raise SystemExit(2) from None
    prof = cProfile.Profile()
    timed: list[float] = []
    start = time.perf_counter()
    for d in range(args.deals):
        s = game.new_hand(d % game.n, seed=deal_seed(1, d))
        bots = [make_bot(f"ismcts:{args.simulations}" if i % 2 == 0 else "heuristic", game, 100 * d + i)
                for i in range(game.n)]
        while s.to_act >= 0 and time.perf_counter() - start < args.seconds:
            legal = s.legal_actions()
            bot = bots[s.controller]
            view = s.view(s.to_act)
            if bot.name == "ismcts" and len(legal) > 1:
                t0 = time.perf_counter()
                prof.enable()
                a = bot.choose(view, legal)
                prof.disable()
                timed.append(time.perf_counter() - t0)
                print(f"deal {d} action {len(s.history)} {s.phase_name} {a} {timed[-1]:.2f} s", flush=True)
            else:
                a = bot.choose(view, legal)
            s.apply(a)
    print(f"{len(timed)} decisions, {sum(timed):.1f} s, the slowest {max(timed, default=0):.1f} s")
    pstats.Stats(prof).sort_stats("cumulative").print_stats(args.lines)


if __name__ == "__main__":
    main()
