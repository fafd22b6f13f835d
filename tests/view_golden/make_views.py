"""Write views.txt: the exact JSON outside bots were sent for seats' views, recorded before the View became typed.

The file was generated once from main at b9edbfd (the View then carried text: hand codes, history strings), with

    PYTHONPATH=. python3 tests/view_golden/make_views.py

tests/test_view_golden.py rebuilds every position and checks that today's `View.to_dict()` and the outside bots'
request line are byte for byte what was recorded. Running this script again must therefore rewrite the file
unchanged (a check, not a way to update the recorded views).

Positions: for every shipped rule file and the house rule tests/search_golden/house-cot.yaml (loaded from a copy
in a temporary folder), two hands played by random bots and one by heuristic bots; at every seventh decision the
acting seat's request line, at every eighth another seat's view, the first decision of every phase for the acting
seat and another, and one seat's view of the finished hand. The file alternates a line of JSON saying what was
recorded with the recorded line itself (a request without its closing newline).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine.bots.base import make_bot
from engine.bots.external import _request
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.rules.load import shipped_rulesets

HERE = Path(__file__).resolve().parent
HOUSE = HERE.parent / "search_golden" / "house-cot.yaml"
TIME_LIMIT = 2.0


def view_text(state: State, seat: int) -> str:
    return json.dumps(state.view(seat).to_dict())  # type: ignore[attr-defined]


def request_text(state: State) -> str:
    line = _request(state.view(state.to_act), state.legal_actions(), TIME_LIMIT)  # type: ignore[arg-type]
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    return line[:-1].decode()


def record_hand(game: Game, ref: str, hand_no: int, bot: str, seed: int, out: list[str]) -> None:
    dealer = hand_no % game.n
    bots = [make_bot(bot, game, seed * 10 + s) for s in range(game.n)]
    st = game.new_hand(dealer, seed=seed)
    checks: list[tuple[int, int, str, str]] = []
    phases: set[str] = set()
    decision = 0
    while st.to_act >= 0:
        here = len(st.history)
        if st.phase_name not in phases:
            phases.add(st.phase_name)
            other = (st.to_act + 1 + len(phases)) % game.n
            checks.append((here, st.to_act, "request", request_text(st)))
            checks.append((here, other, "view", view_text(st, other)))
        else:
            if decision % 7 == 0:
                checks.append((here, st.to_act, "request", request_text(st)))
            if decision % 8 == 3:
                other = (st.to_act + 1 + decision // 8) % game.n
                if other != st.to_act:
                    checks.append((here, other, "view", view_text(st, other)))
        decision += 1
        view = st.view(st.to_act) if bots[st.to_act].needs_view else None
        st.apply(bots[st.to_act].choose(view, st.legal_actions()))  # type: ignore[arg-type]
    last = (hand_no + 1) % game.n
    checks.append((len(st.history), last, "view", view_text(st, last)))
    head: dict[str, Any] = {"ruleset": ref, "dealer": dealer, "seed": seed, "actions": [str(a) for a in st.history]}
    out.append(json.dumps({"hand": head}))
    for upto, seat, kind, text in checks:
        out.append(json.dumps({"upto": upto, "seat": seat, "kind": kind}))
        out.append(text)


def main() -> None:
    out: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(HOUSE, Path(tmp) / HOUSE.name)
        games: list[tuple[str, Game]] = [(name, load_game(name)) for name in sorted(shipped_rulesets())]
        games.append((HOUSE.name, load_game(Path(tmp) / HOUSE.name)))
        for gi, (ref, game) in enumerate(games):
            for h, bot in enumerate(("random", "random", "heuristic")):
                record_hand(game, ref, h, bot, 3000 + 17 * gi + h, out)
    (HERE / "views.txt").write_text("\n".join(out) + "\n", encoding="utf-8")
    positions = sum(1 for x in out if x.startswith('{"upto'))
    print(f"{positions} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
