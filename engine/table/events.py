"""What the table announces as it happens, and lists again in the hand summary: calls for the trump, pairs shown,
doubling steps, surrenders and their answers, special contracts, redeals, partner speeches, concessions - and any
other verb a rule file brings (claims, melds, ...), told generically from its notation - each with who did it.

One description serves the terminal and the web page (`described`, with the caller's way of naming seats and
suits). It is built from the seat's `View` (its public history), so a concealed trump is never named before it is
exposed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text

from engine.play.actions import Action, bid_terms, meld_terms
from engine.play.view import View
from engine.table.melds import announced_words
from engine.table.render import Labels

# Verbs shown elsewhere on the screen (the auction line, the contract, the trick): not announced as such.
SHOWN_ELSEWHERE = frozenset({"bid", "pass", "trump", "play", "raise"})

_PLAIN = {"surrender": "offered to surrender", "accept": "accepted the surrender",
          "refuse": "refused the surrender", "redeal": "asked for a new deal",
          "show": "showed the pair (King and Queen of trumps)", "concede": "conceded: the contract fails"}

Namer = Callable[[int], str]


@dataclass(frozen=True)
class Event:
    """One announced entry of the hand's public history: its index there, the action and what is said."""

    index: int
    action: Action
    text: str


def describe(action: Action, view: View, who: Namer, suit: Callable[[str], str], doubling: Sequence[str]) -> str | None:
    """One entry in words (`who(seat)` names a seat, `suit(letter)` a suit), or None for what the screen shows
    elsewhere (bids, passes, trump choices, raises, cards). A verb this module does not know is told from its
    notation ("seat 2: claim rest"), so a new verb of the rule language is announced too."""
    verb = action.verb
    name = who(action.seat)
    words = _VERB_WORDS.get(verb)
    said = words(action, view, suit) if words is not None else None
    if said is not None:
        return f"{name} {said}"
    if verb in _PLAIN:
        return f"{name} {_PLAIN[verb]}"
    if verb in doubling:
        return f"{name} said {verb}"
    if verb in SHOWN_ELSEWHERE:
        return None
    return f"{name}: {action.notation}"


def _call_words(action: Action, view: View, suit: Callable[[str], str]) -> str | None:
    known = view.trump_code()
    if known is not None and not view.trump_concealed:
        return f"called for the trump: {suit(known)}"
    return "called for the trump"


def _declare_words(action: Action, view: View, suit: Callable[[str], str]) -> str | None:
    return f"declared {action.arg}"


def _announce_words(action: Action, view: View, suit: Callable[[str], str]) -> str | None:
    return f"announced {announced_words(view, action.seat)}"


def _show_words(action: Action, view: View, suit: Callable[[str], str]) -> str | None:
    """A meld of one suit (`show jodi H`); the pair is said with the plain verbs."""
    if action.arg == "pair":
        return None
    kind, letter = meld_terms(action.arg)
    return f"showed {kind} in {suit(letter)}"


def _change_words(action: Action, view: View, suit: Callable[[str], str]) -> str | None:
    """A bid or pass marked `change` (other bids and passes are shown elsewhere)."""
    if not action.arg.endswith("change"):
        return None
    said = "passed" if action.verb == "pass" else f"bid {bid_terms(action.arg)[0]}"
    return f"{said} and said change: a new trump card if still holder"


# The verbs whose words depend on the action or the view (None: said another way, or not at all).
_VERB_WORDS: dict[str, Callable[[Action, View, Callable[[str], str]], str | None]] = {
    "call": _call_words, "declare": _declare_words, "announce": _announce_words, "show": _show_words,
    "bid": _change_words, "pass": _change_words,
}


def described(view: View, who: Namer, suit: Callable[[str], str], doubling: Sequence[str],
              partner_of: Namer, start: int = 0) -> list[Event]:
    """The announced events of the hand from history entry `start` on (a `partner` speech is read in its context:
    the first asks the partner to speak, the second hands the speech back; `partner_of(seat)` names the seat's
    partner)."""
    out: list[Event] = []
    asker = -1
    for i, entry in enumerate(view.history):
        verb = entry.verb
        text: str | None
        if verb == "partner":
            if asker < 0:
                asker = entry.seat
                text = f"{who(asker)} asked {partner_of(asker)} to speak for them"
            else:
                text = f"{who(entry.seat)} handed the speech back to {who(asker)}"
        else:
            if verb in ("bid", "pass") or verb in doubling:
                asker = -1
            text = describe(entry, view, who, suit, doubling)
        if i >= start and text is not None:
            out.append(Event(i, entry, text))
    return out


def event_text(action: Action, view: View, lab: Labels, doubling: Sequence[str]) -> Text | None:
    """One terminal line for a history entry, or None for what is shown elsewhere."""
    text = describe(action, view, lab.who, lab.suit, doubling)
    return Text(text) if text is not None else None


def events(view: View, lab: Labels, doubling: Sequence[str], start: int = 0) -> list[Text]:
    """The notable events of the hand from history entry `start` on, as terminal lines."""
    return [Text(e.text) for e in described(view, lab.who, lab.suit, doubling,
                                            lambda seat: lab.who_partner(seat, view), start)]
