"""What the player types: a choice number, a card (`JS`), an action (`bid 18`, `play JS`, `call`, `show pair`),
`?` for an explanation of every card, or `q` to save and stop."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import DeckLayout
from engine.errors import RecordError
from engine.play.actions import VERBS, Action
from engine.text import escaped, quoted

EXPLAIN = "explain"
QUIT = "quit"
HELP = "help"
MAX_LINE = 200   # longer than any action; a longer line is refused before anything reads it


@dataclass(frozen=True)
class Parsed:
    """Exactly one of: an action to try, a command (EXPLAIN, QUIT, HELP), or the reason the text is not understood."""

    action: Action | None = None
    command: str | None = None
    problem: str | None = None


def usage(n_choices: int) -> str:
    numbers = f"1-{n_choices}" if n_choices > 1 else "1"
    return (f"type a choice number ({numbers}), a card such as JS, an action such as 'bid 18' or 'pass', "
            "? to explain your cards, or q to save and stop")


def parse_input(text: str, seat: int, legal: Sequence[Action], layout: DeckLayout,
                extra_verbs: Sequence[str] = ()) -> Parsed:
    """Turn one line of input into an action of `seat` (legality is left to the engine, which says why)."""
    t = text.replace("\t", " ").strip()
    low = t.lower()
    if not t:
        return Parsed(problem="nothing typed: " + usage(len(legal)))
    if len(t) > MAX_LINE:
        return Parsed(problem=f"that line is {len(t)} characters long, which no action is: " + usage(len(legal)))
    if escaped(t) != t:  # control or format characters: said back escaped, never echoed as typed
        return Parsed(problem=f"{quoted(t)} is not understood: " + usage(len(legal)))
    if low in ("?", "why", "explain"):
        return Parsed(command=EXPLAIN)
    if low in ("q", "quit", "exit", "save"):
        return Parsed(command=QUIT)
    if low in ("h", "help"):
        return Parsed(command=HELP)
    if t.isascii() and t.isdigit():
        k = int(t)
        if 1 <= k <= len(legal):
            return Parsed(action=legal[k - 1])
        return Parsed(problem=f"there is no choice {k}: choose 1 to {len(legal)}")
    words = t.split()
    verbs = {v.lower() for v in (*VERBS, *extra_verbs)}
    if words[0].lower() not in verbs:
        if len(words) == 1:
            try:
                layout.ids_of_code(t)
            except ValueError as e:
                if 2 <= len(t) <= 3 and t[:-1].upper() in (*layout.ranks, "10"):
                    return Parsed(problem=str(e))
            else:
                words = ["play", t]
        if words[0] != "play":
            return Parsed(problem=f"{quoted(t)} is not understood: " + usage(len(legal)))
    try:
        return Parsed(action=Action.parse(f"{seat} {' '.join(words)}"))
    except RecordError as e:
        return Parsed(problem=str(e))
