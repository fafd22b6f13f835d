"""How well the search bot's sampled worlds fit the public history: candidates drawn, candidates the replay
refuses, and why.

    python3 benchmarks/world_fit.py [--rulesets twenty-eight,twenty-nine,...] [--hands 6] [--draws 8] [--seed 1]
                                    [--json]

Heuristic bots play `--hands` hands of each rule file from fixed seeds. At every decision with a choice, the
seat's `worlds.Sampler` (what `search` builds there) draws `--draws` candidate deals from the seat's own
generator, and each is replayed on the public history as `Sampler.replay` does. A refusal is classed by the
history step that refused it: its verb, whether the seat that acted was the bidder, whether the trump was still
concealed, and the engine's reason (`why_illegal`, cards and numbers blanked); a world that replays but whose
melds announced in trick 1 (kind, length, value, cards once shown) differ from the view's is refused too.
`draw-none` counts draws that
produced no candidate at all (no deal fits the hard constraints). Seeded: the same run prints the same figures.

A rule file is a shipped name or a path; `five-wide` is benchmarks/rules/five-wide.yaml (5 seats, 307 bids).
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import _installed  # noqa: F401

from engine.bots.base import make_bot
from engine.bots.determinize import blank_play
from engine.bots.info import read_view
from engine.bots.model import model_for
from engine.bots.worlds import Candidate, Sampler
from engine.errors import JacknineError
from engine.play.base import PLAY
from engine.play.compile import load_game
from engine.play.explain import why_illegal
from engine.play.game import Game
from engine.play.state import State
from engine.play.tricks import play_card, play_mask
from engine.play.view import View

DEFAULT = ("twenty-eight,twenty-nine,fifty-six,three-hundred-and-four,thunee,seventh-card,twenty-eight-3p,"
           "twenty-eight-6p,five-wide")

FIVE_WIDE = Path(__file__).resolve().parent / "rules" / "five-wide.yaml"


def refusal(sampler: Sampler, cand: Candidate) -> str:
    """'' when the candidate replays, else the class of the history step that refused it (Sampler.replay's steps,
    with the reason kept)."""
    game = sampler.game
    plan = sampler.replay_plan
    v = sampler.seen.view
    bidder = v.bidder if v.bidder is not None else -1
    try:
        state = State(game, v.dealer, cand.dealt, sampler.match_scores, stock=cand.stock or None)
    except JacknineError as e:
        return f"deal: {_blank(str(e))}"
    for i in range(len(plan.actions)):
        found = plan.actions[i]
        a = game.action(plan.seats[i], "trump", cand.blank) if found is None else found
        role = "bidder" if a.seat == bidder else "other"
        concealed = "concealed" if state.concealed else "open"
        where = f"{a.verb} by {role}, trump {concealed}"
        if state.to_act != a.seat:
            return f"{where}: not his turn (seat to act {'bidder' if state.to_act == bidder else 'other'})"
        try:
            if a.verb == "play" and state.phase == PLAY:
                mask = play_mask(state)
                card = -1
                if not a.arg:
                    card = blank_play(state, mask, plan.known_plays[a.seat])
                    if card < 0:
                        return f"{where}: no card for a face-down play"
                for c in game.code_ids.get(a.arg, ()):
                    if mask >> c & 1:
                        card = c
                        break
                if card < 0:
                    return f"{where}: {_blank(why_illegal(state, a))}"
                play_card(state, a.seat, card)
            else:
                state.apply(a)     # an illegal action raises with the engine's reason
        except JacknineError as e:
            return f"{where}: {_blank(str(e))}"
    if state.to_act != v.seat:
        return "end: another seat to act"
    shown = [(m.seat, m.kind, m.length, m.value, m.cards) for m in v.announced]
    told = [(m.seat, m.kind, m.length, m.value, m.cards) for m in state.view(v.seat).announced]
    if shown != told:
        return "end: the melds announced differ from the view's"
    return ""


def _blank(text: str) -> str:
    text = re.sub(r"\b[0-9AJKQT][CDHS]\b", "CARD", text)
    text = re.sub(r"\(([CDHS])\)", "(SUIT)", text)
    return re.sub(r"\d+", "N", text)[:110]


def rule_game(name: str) -> Game:
    if name == "five-wide":
        return load_game(FIVE_WIDE)
    return load_game(name)


def measure(game: Game, hands: int, draws: int, seed: int) -> dict[str, Any]:
    bots = [make_bot("heuristic", game, s) for s in range(game.n)]
    model = model_for(game)
    model.warm()
    drawn = refused = none = decisions = empty = 0
    why: Counter[str] = Counter()
    for h in range(hands):
        state = game.new_hand(h % game.n, seed=seed * 1000 + h)
        while not state.is_terminal:
            seat = state.to_act
            legal = state.legal_actions()
            view = state.view(seat)
            assert isinstance(view, View)
            if len(legal) > 1:
                decisions += 1
                seen = read_view(game, view)
                sampler = Sampler(game, seen, model)
                rng = random.Random(seed * 7919 + decisions)
                fits = 0
                for _ in range(draws):
                    cand = sampler.draw(rng)
                    if cand is None:
                        none += 1
                        continue
                    drawn += 1
                    r = refusal(sampler, cand)
                    if r:
                        refused += 1
                        why[r] += 1
                    else:
                        fits += 1
                if not fits:
                    empty += 1
            state.apply(bots[seat].choose(view, legal))
    return {"ruleset": game.rules.name, "hands": hands, "decisions": decisions, "draws": decisions * draws,
            "draw_none": none, "candidates": drawn, "refused": refused,
            "refused_share": round(refused / drawn, 4) if drawn else None,
            "decisions_without_world": empty, "why": dict(why.most_common())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", default=DEFAULT, help="rule files (names or paths), comma-separated")
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--draws", type=int, default=8, help="candidates drawn at each decision")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", dest="as_json", action="store_true", help="one JSON line per rule file")
    args = ap.parse_args()
    for name in args.rulesets.split(","):
        row = measure(rule_game(name), args.hands, args.draws, args.seed)
        if args.as_json:
            print(json.dumps(row), flush=True)
            continue
        share = row["refused_share"]
        print(f"{name}: {row['decisions']} decisions, {row['candidates']} candidates "
              f"({row['draw_none']} draws without one), {row['refused']} refused "
              f"({'-' if share is None else f'{100 * share:.1f}%'}), "
              f"{row['decisions_without_world']} decisions with no world", flush=True)
        for reason, k in row["why"].items():
            print(f"    {k:6d}  {reason}")


if __name__ == "__main__":
    main()
