"""The heuristic's auction in every shipped rule file: what it bids, how often it makes it, which hands are annulled,
and the duplicate result of the heuristic against the old one (`heuristic:v1`).

    python3 benchmarks/bot_table.py [--hands 2000] [--deals 2000] [--seed 1] [--workers 2] [--rulesets a,b]

For each file, `--hands` hands with `heuristic` at every seat (the seeds of `jacknine simulate`): the plain contracts
by bid, the share of them at the lowest bid (0 too where the first hand holds a standing bid of 0), the share made,
the special contracts, and the annulled hands by reason. Hands annulled by the bots' own choice (every seat passed;
a redeal asked for) are played again from the same deal with the other choice - the redeal refused (the seat's
next choice), or the last seat to pass bidding the lowest bid - and the table gives what the choosing side scored
then, less the other side, per hand with its 95% interval: below zero, the choice paid (an annulled hand scores
nothing). Then `--deals` duplicate deals of `heuristic` against `heuristic:v1` (engine/tournament.py): game points
per hand of the new less the old, with its 95% interval. Prints a Markdown table; `--json` prints the rows too.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import _installed  # noqa: F401

from engine.bots.registry import make_bot
from engine.play.actions import Action
from engine.play.base import ANNUL_ALL_PASS, ANNUL_REDEAL, AUCTION
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.sim import bot_seed, play_hands
from engine.tournament import mean_ci, run

ROOT = Path(__file__).resolve().parent.parent
OWN_CHOICE = (ANNUL_ALL_PASS, ANNUL_REDEAL)


def replay_other_choice(game: Game, bot: str, seed: int, index: int, deal: int, done: State) -> float | None:
    """The hand `index` (annulled by the bots' choice) played again with the other choice: what the choosing side
    scored less the other sides' best. None when there was no other choice."""
    history = list(done.history)
    at = -1
    chooser = -1
    if done.annul_code == ANNUL_REDEAL:
        for i, a in enumerate(history):
            if a.verb == "redeal":
                at, chooser = i, a.seat
        if at < 0:
            return None
    else:
        for i, a in enumerate(history):
            if a.verb == "pass":
                at, chooser = i, a.seat
    state = game.new_hand(index % game.n, seed=deal)
    for a in history[:at]:
        state.apply(a)
    legal = state.legal_actions()
    if done.annul_code == ANNUL_REDEAL:
        others = [a for a in legal if a.verb != "redeal"]
        if not others:
            return None
        b = make_bot(bot, game, bot_seed(seed, index, chooser))
        choice: Action = b.choose(state.view(chooser) if b.needs_view else None, others)
    else:
        bids = [a for a in legal if a.verb == "bid"]
        if not bids or state.phase != AUCTION:
            return None
        choice = bids[0]
    state.apply(choice)
    bots = [make_bot(bot, game, bot_seed(seed, index, s) + 1) for s in range(game.n)]
    while state.to_act >= 0:
        who = state.controller
        legal = state.legal_actions()
        view = state.view(state.to_act) if bots[who].needs_view else None
        state.apply(bots[who].choose(view, legal))
    if state.status != "complete":
        return 0.0
    gp = state.game_points
    team = state.hand_team_of[chooser]
    return float(gp[team] - max(p for i, p in enumerate(gp) if i != team))


def file_row(name: str, hands: int, deals: int, seed: int, workers: int, bot: str, old: str) -> dict[str, Any]:
    game = load_game(name)
    t0 = time.perf_counter()
    contracts: Counter[int] = Counter()
    made: Counter[int] = Counter()
    specials: Counter[str] = Counter()
    annulled: Counter[str] = Counter()
    other_choice: dict[str, list[float]] = {}
    for index, deal, state in play_hands(game, [bot] * game.n, seed, 0, hands):
        if state.status == "annulled":
            kind = "redeal asked" if state.annul_code == ANNUL_REDEAL else (
                "all passed" if state.annul_code == ANNUL_ALL_PASS else state.annul_reason.split(" ", 2)[-1]
                if state.annul_reason.startswith("seat ") else state.annul_reason)
            annulled[kind] += 1
            if state.annul_code in OWN_CHOICE:
                v = replay_other_choice(game, bot, seed, index, deal, state)
                if v is not None:
                    other_choice.setdefault(kind, []).append(v)
            continue
        if state.special is not None:
            specials[state.special.name] += 1
            continue
        contracts[state.bid] += 1
        made[state.bid] += bool(state.made)
    plain = sum(contracts.values())
    lowest = game.rules.auction.bid_min
    at_min = contracts[lowest] + (contracts[0] if game.rules.auction.default_bidder else 0)
    row: dict[str, Any] = {
        "file": name, "players": game.n, "hands": hands, "contracts": plain,
        "by_bid": {str(b): c for b, c in sorted(contracts.items())},
        "at_min": round(at_min / plain, 3) if plain else None,
        "made": round(sum(made.values()) / plain, 3) if plain else None,
        "specials": dict(specials), "annulled": dict(annulled),
        "other_choice": {k: [round(x, 3) for x in mean_ci(v)] + [len(v)] for k, v in other_choice.items()},
    }
    if deals:
        rep = run(game, [bot, old], deals, seed, workers=workers)
        d = rep["difference"]
        row["duplicate"] = {"deals": rep["deals"], "difference": d["game_points_per_hand"], "ci95": d["ci95"]}
    row["seconds"] = round(time.perf_counter() - t0, 1)
    return row


def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def show(row: dict[str, Any]) -> str:
    bids = " ".join(f"{b}:{c}" for b, c in row["by_bid"].items())
    if row["specials"]:
        bids += " (special: " + ", ".join(f"{k} {v}" for k, v in sorted(row["specials"].items())) + ")"
    ann = ", ".join(f"{k} {v}" for k, v in sorted(row["annulled"].items())) or "0"
    choice = "; ".join(f"{k}: {m:+.3f} [{lo:+.3f}, {hi:+.3f}] of {n}" for k, (m, lo, hi, n) in
                       sorted(row["other_choice"].items())) or "-"
    dup = row.get("duplicate")
    dtext = f"{dup['difference']:+.3f} [{dup['ci95'][0]:+.3f}, {dup['ci95'][1]:+.3f}] ({dup['deals']})" if dup else "-"
    return (f"| {row['file']} | {row['players']} | {row['hands']} | {row['contracts']} | {pct(row['at_min'])} | "
            f"{pct(row['made'])} | {bids} | {ann} | {choice} | {dtext} |")


HEADER = ("| file | seats | hands | plain contracts | at the lowest bid | made | contracts by bid | annulled | "
          "the other choice, choosing side less the other [95%] | new - v1 per hand [95%] (deals) |\n"
          "|---|---|---|---|---|---|---|---|---|---|")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200, help="hands per file with the heuristic at every seat (200)")
    ap.add_argument("--deals", type=int, default=200, help="duplicate deals per file, new against old (200; 0: none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1, help="processes for the duplicate tournaments (1)")
    ap.add_argument("--rulesets", default="", help="comma-separated files (default: every shipped file)")
    ap.add_argument("--bot", default="heuristic", help="the bot at every seat (heuristic)")
    ap.add_argument("--old", default="heuristic:v1", help="the bot it meets in duplicate (heuristic:v1)")
    ap.add_argument("--json", dest="as_json", action="store_true", help="also print each row as JSON")
    args = ap.parse_args()
    for n in ("hands", "deals", "workers"):
        if getattr(args, n) < (1 if n != "deals" else 0):
            ap.error(f"--{n} must be at least {1 if n != 'deals' else 0}")
    names = args.rulesets.split(",") if args.rulesets else sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
    try:
        games = [load_game(n) for n in names]
    except Exception as e:   # a bad name: one line
        ap.exit(2, f"bot_table.py: {e}\n")
    del games
    print(f"bot {args.bot} at every seat, {args.hands} hands per file, seed {args.seed}; duplicate {args.bot} - "
          f"{args.old}, {args.deals} deals")
    print()
    print(HEADER, flush=True)
    for name in names:
        row = file_row(name, args.hands, args.deals, args.seed, args.workers, args.bot, args.old)
        print(show(row), flush=True)
        if args.as_json:
            print(json.dumps(row))


if __name__ == "__main__":
    main()
