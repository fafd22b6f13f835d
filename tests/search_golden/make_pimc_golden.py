"""Write pimc_choices.json: the choices of plain determinized search (PIMC) at fixed seeded positions.

The file was generated once from the search bot of 0.1 (engine/bots/search.py at main eeb8af8, registered then as
`search`), before it was rewritten for speed, with

    cd /work/wt-search && PYTHONPATH=. python3 tests/search_golden/make_pimc_golden.py search

tests/test_search_pimc.py checks that today's `pimc` bot with 0.1's contract policy (`pimc:never`) chooses exactly
the same. Running this script with `pimc:never` must therefore rewrite the file unchanged (a check, not a way to
update the golden data).

Two kinds of record per game (twenty-eight, twenty-nine, fifty-six and the house rule house-cot.yaml, loaded from
a copy in a temporary folder):
- positions: hands played by heuristic bots at every seat; at every second play decision with a choice, a fresh
  search bot (seeded per position, default budget) chooses; the hand's history and the choice are kept;
- self-play: whole hands with a search bot (default budget) at every seat, so the bots' generators carry over
  from one decision to the next and every phase is met; the whole history is kept.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine.bots.base import make_bot
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.view import View

HERE = Path(__file__).resolve().parent
GAMES = ("twenty-eight", "twenty-nine", "fifty-six", "house-cot.yaml")
POSITIONS_PER_GAME = 70
SELF_PLAY_HANDS = 2


def position_seed(game_index: int, hand: int, step: int) -> int:
    return 7919 * game_index + 104729 * hand + step


def positions(game: Game, gi: int, spec: str) -> dict[str, Any]:
    heur = [make_bot("heuristic", game, s) for s in range(game.n)]
    hands: list[dict[str, Any]] = []
    chosen: list[list[Any]] = []
    h = 0
    while len(chosen) < POSITIONS_PER_GAME:
        seed, dealer = 500 + h, h % game.n
        st = game.new_hand(dealer, seed=seed)
        decisions = 0
        while st.to_act >= 0:
            legal = st.legal_actions()
            view = st.view(st.to_act)
            assert isinstance(view, View)
            if st.phase_name == "play" and len(legal) > 1:
                decisions += 1
                if decisions % 2 == 0 and len(chosen) < POSITIONS_PER_GAME:
                    bseed = position_seed(gi, h, len(st.history))
                    pick = make_bot(spec, game, bseed).choose(view, legal)
                    chosen.append([len(hands), len(st.history), bseed, str(pick)])
            st.apply(heur[st.to_act].choose(view, legal))
        hands.append({"seed": seed, "dealer": dealer, "history": [str(a) for a in st.history]})
        h += 1
    return {"hands": hands, "positions": chosen}


def self_play(game: Game, gi: int, spec: str) -> list[dict[str, Any]]:
    out = []
    for h in range(SELF_PLAY_HANDS):
        seed, dealer = 900 + h, (h + 1) % game.n
        bot_seeds = [position_seed(gi, 1000 + h, s) for s in range(game.n)]
        bots = [make_bot(spec, game, b) for b in bot_seeds]
        st = game.new_hand(dealer, seed=seed)
        while st.to_act >= 0:
            view = st.view(st.to_act)
            assert isinstance(view, View)
            st.apply(bots[st.to_act].choose(view, st.legal_actions()))
        out.append({"seed": seed, "dealer": dealer, "bot_seeds": bot_seeds, "history": [str(a) for a in st.history]})
    return out


def main() -> None:
    spec = sys.argv[1] if len(sys.argv) > 1 else "pimc:never"
    data: dict[str, Any] = {"bot": "pimc (the search bot of 0.1, default budget)", "games": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for gi, name in enumerate(GAMES):
            if name.endswith(".yaml"):
                shutil.copy(HERE / name, Path(tmp) / name)
                game = load_game(Path(tmp) / name)
            else:
                game = load_game(name)
            data["games"][name] = {**positions(game, gi, spec), "self_play": self_play(game, gi, spec)}
            print(name, len(data["games"][name]["positions"]), file=sys.stderr)
    (HERE / "pimc_choices.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
