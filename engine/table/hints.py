"""`?` at the table: why each of the player's cards can or cannot be played now.

The reasons come from the engine (`why_illegal`), which looks at the whole hand's state; what is printed is
checked so that it never names the concealed trump to a seat that does not know it.
"""

from __future__ import annotations

from rich.text import Text

from engine.cards import SUIT_NAMES
from engine.play.explain import why_illegal
from engine.play.state import State
from engine.play.view import View, build_view
from engine.table.render import Labels


def guarded(reason: str, state: State, view: View, notation: str) -> str:
    """The reason, or a neutral one where it would name a trump this seat may not know."""
    trump = state.trump_suit_code()
    if view.trump is None and trump is not None and "trump" in reason and \
            (SUIT_NAMES[trump] in reason.lower() or f" {trump}" in reason):
        return f"you may not {notation} now"
    return reason


def explain_cards(state: State, seat: int, lab: Labels) -> list[Text]:
    """One line per distinct card the seat holds (the face-down indicator included, for its owner)."""
    view = build_view(state, seat)
    if state.is_terminal:
        return [Text("the hand is over")]
    if state.to_act != seat:
        return [Text(f"it is {lab.who(state.to_act)}'s turn")]
    legal = state.legal_actions()
    others = [a.notation for a in legal if a.verb != "play"]
    if view.phase != "play":
        names = sorted({a.verb for a in view.legal})
        return [Text(f"no card is played during the {view.phase}; you may now: {', '.join(names)}")]
    cards = view.hand_cards() + ([view.indicator] if view.indicator is not None else [])
    codes = list(dict.fromkeys(view.code(c) for c in cards))
    lines: list[Text] = []
    for code in codes:
        action = state.game.action(seat, "play", code)
        line = lab.card(code).append(": ")
        if action in legal:
            line.append("playable", style="green")
        else:
            line.append("not playable: " + guarded(why_illegal(state, action), state, view, action.notation))
        lines.append(line)
    if others:
        lines.append(Text("you may also: " + ", ".join(others)))
    return lines
