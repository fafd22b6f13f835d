"""What the table announces as it happens, and lists again in the hand summary: calls for the trump, pairs shown,
doubling steps, surrenders and their answers, special contracts and redeals - each with who did it. Built from
the seat's `View` (its public history), so a concealed trump is never named before it is exposed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engine.play.view import View
from engine.table.render import Labels

_PLAIN = {"surrender": "offered to surrender", "accept": "accepted the surrender",
          "refuse": "refused the surrender", "redeal": "asked for a new deal",
          "show": "showed the pair (King and Queen of trumps)", "concede": "conceded: the contract fails"}


def event_text(entry: str, view: View, lab: Labels, doubling: Sequence[str]) -> Text | None:
    """One line for a notable history entry (`SEAT VERB [ARG]`), or None for bids, trump choices and cards."""
    seat_text, _, notation = entry.partition(" ")
    verb, _, arg = notation.partition(" ")
    who = lab.who(int(seat_text))
    if verb == "call":
        if view.trump is not None and not view.trump_concealed:
            return Text(f"{who} called for the trump: {lab.suit(view.trump)}")
        return Text(f"{who} called for the trump")
    if verb == "declare":
        return Text(f"{who} declared {arg}")
    if verb in ("bid", "pass") and arg.endswith("change"):
        said = "passed" if verb == "pass" else f"bid {arg.split()[0]}"
        return Text(f"{who} {said} and said change: a new trump card if still holder")
    if verb in _PLAIN:
        return Text(f"{who} {_PLAIN[verb]}")
    if verb in doubling:
        return Text(f"{who} said {verb}")
    return None


def events(view: View, lab: Labels, doubling: Sequence[str], start: int = 0) -> list[Text]:
    """The notable events of the hand from history entry `start` on (a `partner` speech is read in its context:
    the first asks the partner to speak, the second hands the speech back)."""
    out: list[Text] = []
    asker = -1
    for i, entry in enumerate(view.history):
        seat_text, _, notation = entry.partition(" ")
        verb = notation.partition(" ")[0]
        line: Text | None
        if verb == "partner":
            if asker < 0:
                asker = int(seat_text)
                line = Text(f"{lab.who(asker)} asked {lab.who_partner(asker, view)} to speak for them")
            else:
                line = Text(f"{lab.who(int(seat_text))} handed the speech back to {lab.who(asker)}")
        else:
            if verb in ("bid", "pass") or verb in doubling:
                asker = -1
            line = event_text(entry, view, lab, doubling)
        if i >= start and line is not None:
            out.append(line)
    return out
