"""What the table announces as it happens, and lists again in the hand summary: calls for the trump, pairs shown,
doubling steps, surrenders and their answers, special contracts, redeals - and any other verb a rule file brings
(claims, melds, ...), told generically from its notation - each with who did it.

One description serves the terminal and the web page. It is built from the seat's `View` (its public history),
so a concealed trump is never named before it is exposed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text

from engine.play.view import View
from engine.table.render import Labels

# Verbs shown elsewhere on the screen (the auction line, the contract, the trick): not announced.
SHOWN_ELSEWHERE = frozenset({"bid", "pass", "trump", "play", "raise"})

_PLAIN = {"surrender": "offered to surrender", "accept": "accepted the surrender",
          "refuse": "refused the surrender", "redeal": "asked for a new deal",
          "show": "showed the pair (King and Queen of trumps)"}


@dataclass(frozen=True)
class Event:
    """One notable entry of the hand's public history: its index there, who, the verb and its argument."""

    index: int
    seat: int
    verb: str
    arg: str

    @property
    def notation(self) -> str:
        return f"{self.verb} {self.arg}" if self.arg else self.verb


def notable(view: View, start: int = 0) -> list[Event]:
    """Every history entry from `start` on that is announced (everything not shown elsewhere on the screen)."""
    out: list[Event] = []
    for i, entry in enumerate(view.history[start:], start):
        seat_text, _, notation = entry.partition(" ")
        verb, _, arg = notation.partition(" ")
        if verb not in SHOWN_ELSEWHERE and seat_text.isdigit():
            out.append(Event(i, int(seat_text), verb, arg))
    return out


def describe(event: Event, view: View, who: Callable[[int], str], suit: Callable[[str], str],
             doubling: Sequence[str]) -> str:
    """The event in words: `who(seat)` names the seat, `suit(letter)` names a suit. A verb this module does not
    know is told from its notation ("seat 2: claim rest"), so a new verb of the rule language is announced too."""
    name = who(event.seat)
    if event.verb == "call":
        if view.trump is not None and not view.trump_concealed:
            return f"{name} called for the trump: {suit(view.trump)}"
        return f"{name} called for the trump"
    if event.verb == "declare":
        return f"{name} declared {event.arg}"
    if event.verb in _PLAIN:
        return f"{name} {_PLAIN[event.verb]}"
    if event.verb in doubling:
        return f"{name} said {event.verb}"
    return f"{name}: {event.notation}"


def events(view: View, lab: Labels, doubling: Sequence[str], start: int = 0) -> list[Text]:
    """The notable events of the hand from history entry `start` on, as terminal lines."""
    return [Text(describe(e, view, lab.who, lab.suit, doubling)) for e in notable(view, start)]
