"""How often bots take the declarations a rule file offers, and how often those are made.

    PYTHONPATH=. python3 benchmarks/declarations_taken.py RULESET HANDS BOT

Plays HANDS seeded hands (deal seed = hand number, dealer = hand number mod players) with BOT at every seat (a
dummy's cards chosen by its declarer's bot) and prints, per declaration, the number of times it was legal for a
seat (each seat counted once per hand), the number of times a bot made it, and how many of those were made. For a
declaration before a trick it also counts the offers declined, split by whether the player won every trick left
anyway (a declined sure thing would show there).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

import _installed  # noqa: F401

from engine import load_game
from engine.bots.base import make_bot


def main(ruleset: str, hands: int, bot: str) -> dict[str, object]:
    game = load_game(ruleset)
    offered: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    made: Counter[str] = Counter()
    declined: Counter[str] = Counter()
    for i in range(hands):
        bots = [make_bot(bot, game, seed=i * 10 + s) for s in range(game.n)]
        state = game.new_hand(dealer=i % game.n, seed=i)
        seen: set[tuple[str, int]] = set()
        in_play: dict[str, int] = {}
        while state.to_act >= 0:
            legal = state.legal_actions()
            for a in legal:
                if a.verb == "declare" and (a.arg, a.seat) not in seen:
                    seen.add((a.arg, a.seat))
                    offered[a.arg] += 1
                    if state.phase_name == "play":
                        in_play[a.arg] = a.seat
            who = bots[state.controller]
            action = who.choose(state.view(state.to_act) if who.needs_view else None, legal)
            if action.verb == "declare":
                taken[action.arg] += 1
            state.apply(action)
        if state.special is not None and state.made:
            made[state.special.name] += 1
        for name, seat in in_play.items():
            if state.special is None or state.special.name != name:
                rest = state.tricks[game.contracts[name].trick - 1:]
                won = all(t.winner == seat for t in rest)
                declined["won the rest anyway" if won else "lost a trick"] += 1
    return {"ruleset": ruleset, "bot": bot, "hands": hands, "offered": dict(offered), "taken": dict(taken),
            "made": dict(made), "declined_in_play": dict(declined)}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ruleset", help="a shipped name or a rule file's path")
    ap.add_argument("hands", type=int, help="hands to play")
    ap.add_argument("bot", help="the bot at every seat, e.g. heuristic")
    args = ap.parse_args()
    print(json.dumps(main(args.ruleset, args.hands, args.bot)))
