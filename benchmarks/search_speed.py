"""Milliseconds per decision of the search bots, beside the plain-Python yardstick in the same run.

    python3 benchmarks/search_speed.py [--bots pimc,search] [--rulesets twenty-eight,twenty-nine] [--hands 8]
                                       [--rounds 3] [--also PYTHONPATH ...]

The positions are every decision with a choice (more than one legal action) in `--hands` hands that heuristic bots
play from fixed seeds: the same positions for every bot and every build. Each round times every bot over all of them
(a fresh bot, seed 1), then the yardstick (benchmarks/yardstick.py) for about as long; the medians over the
rounds are printed, as one JSON line per build, ruleset and bot:

- `ms_play`, `ms_contract`, `ms_all`: milliseconds per decision in the play phase, in the auction and contract steps,
  and over both;
- `yardstick_deals_per_decision`: how many yardstick deals the machine plays in the time of one decision (ms_all
  over the yardstick's ms per deal, measured side by side: the figure that carries from one machine to another).

The first build timed is the `engine` this Python imports (run from the repository with PYTHONPATH=. to time the
sources rather than an installed copy); `--also DIR` times the engine found in DIR as well, in a child process (for
example a compiled build: `pip install .` into a scratch folder, or mypyc run on a copy of the sources as setup.py's
COMPILED list says). `compiled` in each line tells which modules were native.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import _installed  # noqa: F401
from random_hands import yardstick  # this folder is on the path when a script in it runs

from engine.bots.base import make_bot
from engine.play.actions import Action
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.view import View

Position = tuple[View, tuple[Action, ...], bool]   # (view, legal actions, in the play phase)


def positions(game: Game, hands: int) -> list[Position]:
    bots = [make_bot("heuristic", game, s) for s in range(game.n)]
    out: list[Position] = []
    for h in range(hands):
        st = game.new_hand(h % game.n, seed=7000 + h)
        while st.to_act >= 0:
            legal = st.legal_actions()
            view = st.view(st.to_act)
            assert isinstance(view, View)
            if len(legal) > 1:
                out.append((view, legal, st.phase_name == "play"))
            st.apply(bots[st.to_act].choose(view, legal))
    return out


def time_bot(game: Game, spec: str, pos: list[Position]) -> tuple[float, float, int, int]:
    """(seconds in play decisions, seconds in other decisions, their counts)."""
    bot = make_bot(spec, game, 1)
    play = other = 0.0
    n_play = n_other = 0
    for view, legal, in_play in pos:
        t0 = time.perf_counter()
        bot.choose(view, legal)
        dt = time.perf_counter() - t0
        if in_play:
            play += dt
            n_play += 1
        else:
            other += dt
            n_other += 1
    return play, other, n_play, n_other


def compiled_modules() -> list[str]:
    """The modules of the timed engine that are native (an older engine may lack some of them)."""
    out = []
    for name in ("engine.play.state", "engine.bots.rollout", "engine.bots.determinize"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin is not None and not spec.origin.endswith(".py"):
            out.append(name)
    return out


def measure(args: argparse.Namespace) -> list[dict[str, Any]]:
    rate = yardstick()
    rows: list[dict[str, Any]] = []
    import engine

    for ruleset in args.rulesets.split(","):
        game = load_game(ruleset)
        pos = positions(game, args.hands)
        bots = args.bots.split(",")
        per: dict[str, list[dict[str, float]]] = {b: [] for b in bots}
        yard: list[float] = []
        for _ in range(args.rounds):
            spent = 0.0
            for b in bots:
                play, other, n_play, n_other = time_bot(game, b, pos)
                spent += play + other
                per[b].append({"ms_play": 1000 * play / max(n_play, 1), "ms_contract": 1000 * other / max(n_other, 1),
                               "ms_all": 1000 * (play + other) / max(n_play + n_other, 1),
                               "n_play": n_play, "n_contract": n_other})
            yard.append(rate(max(0.5, spent / len(bots))))
        for b in bots:
            row: dict[str, Any] = {"build": "compiled" if compiled_modules() else "pure-python",
                                   "compiled": compiled_modules(), "engine": str(Path(engine.__file__).parent),
                                   "ruleset": ruleset, "bot": b, "rounds": args.rounds,
                                   "decisions_play": per[b][0]["n_play"], "decisions_contract": per[b][0]["n_contract"]}
            for key in ("ms_play", "ms_contract", "ms_all"):
                row[key] = round(statistics.median(r[key] for r in per[b]), 3)
            if yard:
                ratios = [r["ms_all"] / 1000 * y for r, y in zip(per[b], yard, strict=True)]
                row["yardstick_deals_per_second"] = round(statistics.median(yard))
                row["yardstick_deals_per_decision"] = round(statistics.median(ratios), 1)
            rows.append(row)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="pimc,search", help="bots to time, comma-separated")
    ap.add_argument("--rulesets", default="twenty-eight,twenty-nine")
    ap.add_argument("--hands", type=int, default=8, help="hands of positions per ruleset")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--also", action="append", default=[], metavar="DIR",
                    help="also time the engine in DIR (put first on PYTHONPATH in a child process)")
    args = ap.parse_args()
    for row in measure(args):
        print(json.dumps(row), flush=True)
    child = ["--bots", args.bots, "--rulesets", args.rulesets, "--hands", str(args.hands), "--rounds", str(args.rounds)]
    for folder in args.also:
        path = os.environ.get("PYTHONPATH", "")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([folder, path]) if path else folder)
        subprocess.run([sys.executable, __file__, *child], env=env, check=True)


if __name__ == "__main__":
    main()
