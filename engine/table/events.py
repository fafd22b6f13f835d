"""What the table announces as it happens, and lists again in the hand summary: calls for the trump, pairs shown,
doubling steps, surrenders and their answers, special contracts and redeals - each with who did it. Built from
the seat's `View` (its public history), so a concealed trump is never named before it is exposed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engine.play.actions import Action, bid_terms
from engine.play.view import View
from engine.table.render import Labels

_PLAIN = {"surrender": "offered to surrender", "accept": "accepted the surrender",
          "refuse": "refused the surrender", "redeal": "asked for a new deal",
          "show": "showed the pair (King and Queen of trumps)", "concede": "conceded: the contract fails"}


def event_text(action: Action, view: View, lab: Labels, doubling: Sequence[str]) -> Text | None:
    """One line for a notable history entry, or None for bids, trump choices and cards."""
    verb, arg = action.verb, action.arg
    who = lab.who(action.seat)
    known = view.trump_code()
    if verb == "call":
        if known is not None and not view.trump_concealed:
            return Text(f"{who} called for the trump: {lab.suit(known)}")
        return Text(f"{who} called for the trump")
    if verb == "declare":
        return Text(f"{who} declared {arg}")
    if verb in ("bid", "pass") and arg.endswith("change"):
        said = "passed" if verb == "pass" else f"bid {bid_terms(arg)[0]}"
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
        verb = entry.verb
        line: Text | None
        if verb == "partner":
            if asker < 0:
                asker = entry.seat
                line = Text(f"{lab.who(asker)} asked {lab.who_partner(asker, view)} to speak for them")
            else:
                line = Text(f"{lab.who(entry.seat)} handed the speech back to {lab.who(asker)}")
        else:
            if verb in ("bid", "pass") or verb in doubling:
                asker = -1
            line = event_text(entry, view, lab, doubling)
        if i >= start and line is not None:
            out.append(line)
    return out
