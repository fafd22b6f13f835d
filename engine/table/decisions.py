"""What a seat is asked to decide, said once for the terminal and the web page: a heading naming the kind of
decision ("your bid", "you must call for the trump"), the cards among the choices, a number picker for bids and
raises (a bid is chosen as a number, then a suit where bids name one), and every other legal action as it is
written. Built from the seat's own legal actions and the phase alone, so it says nothing another seat may not
know; any verb the engine lists is offered, a verb this module does not know under its own notation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.cards import canonical_card
from engine.play.actions import Action, bid_terms

NUMBERED = ("bid", "raise")   # verbs whose argument is a number, chosen with a picker
# Actions that commit a side beyond its card or bid, and cost game points when wrong: a claim or special contract
# (`declare ...`), a call for the concealed trump, a concession, a surrender offered, a doubling step (any name a
# rule file gives one). Judged by the kind of action, never by the game: they are never choice 1 at the terminal
# and a choice number taking one is confirmed once.
RISKY_VERBS = frozenset({"declare", "call", "concede", "surrender", "double", "redouble"})


def is_risky(action: Action, doubling: Sequence[str] = ()) -> bool:
    """Whether taking `action` by habit (pressing 1) could cost the side: see RISKY_VERBS."""
    return action.verb in RISKY_VERBS or action.verb in doubling


@dataclass(frozen=True)
class Picker:
    """The legal values of a numbered verb; for bids that name a suit, the suits allowed at each value."""

    verb: str
    values: list[int]
    suits: dict[int, list[str]] = field(default_factory=dict)   # empty: the verb takes a number only

    def notations(self, value: int) -> list[str]:
        if not self.suits:
            return [f"{self.verb} {value}"] if value in self.values else []
        return [f"{self.verb} {value} {s}" for s in self.suits.get(value, [])]

    @property
    def all_suits(self) -> list[str]:
        seen: dict[str, None] = {}
        for suits in self.suits.values():
            seen.update(dict.fromkeys(suits))
        return list(seen)


@dataclass(frozen=True)
class Decision:
    phase: str
    heading: str
    cards: list[str]             # the cards among the choices ('play JS' -> 'JS'; a face-down trump card too)
    card_verb: str               # 'play' or 'trump' ('' when no card is among the choices)
    pickers: list[Picker]        # bids and raises
    others: list[str]            # every other legal action, in the engine's order
    risky: tuple[str, ...] = ()  # the notations among `others` that are risky (is_risky): offered last, confirmed

    def to_dict(self) -> dict[str, object]:
        return {"phase": self.phase, "heading": self.heading, "cards": self.cards, "card_verb": self.card_verb,
                "pickers": [{"verb": p.verb, "values": p.values, "suits": {str(k): v for k, v in p.suits.items()}}
                            for p in self.pickers],
                "others": self.others}


def _is_card(arg: str) -> bool:
    return canonical_card(arg) == arg


def _add_numbered(p: Picker, arg: str) -> None:
    """A bid or raise joins its picker: its value once, and the suit it names under that value."""
    value, suit = bid_terms(arg)
    if value not in p.values:
        p.values.append(value)
    if suit:
        p.suits.setdefault(value, []).append(suit)


def decision(phase: str, legal: Sequence[Action], doubling: Sequence[str] = ()) -> Decision | None:
    """The decision a seat with these legal actions faces; None when it has none."""
    if not legal:
        return None
    cards: list[str] = []
    card_verb = ""
    numbered: dict[str, Picker] = {}
    others: list[str] = []
    for action in legal:
        verb, arg = action.verb, action.arg
        if verb in ("play", "trump") and _is_card(arg) and card_verb in ("", verb):
            card_verb = verb
            cards.append(arg)
            continue
        if verb in NUMBERED and arg:
            _add_numbered(numbered.setdefault(verb, Picker(verb, [])), arg)
            continue
        others.append(action.notation)
    return Decision(phase, heading(phase, legal, doubling), cards, card_verb, list(numbered.values()), others,
                    _risky(legal, others, doubling))


def _risky(legal: Sequence[Action], others: list[str], doubling: Sequence[str]) -> tuple[str, ...]:
    """The other actions the table asks the player to confirm."""
    return tuple(a.notation for a in legal if a.notation in others and is_risky(a, doubling))


def heading(phase: str, legal: Sequence[Action], doubling: Sequence[str] = ()) -> str:
    """What kind of decision this is, in a player's words."""
    fixed = _FIXED_HEADINGS.get(phase)
    if fixed is not None:
        return fixed
    words = _HEADINGS.get(phase)
    if words is not None:
        return words(legal, doubling)
    return f"your turn ({phase})"


def _verbs(legal: Sequence[Action]) -> set[str]:
    return {a.verb for a in legal}


def _auction_heading(legal: Sequence[Action], doubling: Sequence[str]) -> str:
    has = _verbs(legal)
    if "bid" in has and "pass" not in has:
        return "your bid: you must bid now (passing is not allowed)"
    return "your bid" + (" (or ask for a redeal)" if "redeal" in has else "")


def _trump_heading(legal: Sequence[Action], doubling: Sequence[str]) -> str:
    if any(a.verb == "trump" and _is_card(a.arg) for a in legal):
        return "choose the trump: lay a card of the trump suit face down"
    return "choose the trump suit"


def _doubling_heading(legal: Sequence[Action], doubling: Sequence[str]) -> str:
    steps = [a.verb for a in legal if a.verb in doubling or a.verb in ("double", "redouble")]
    return f"{' or '.join(dict.fromkeys(steps)) or 'double'}? (pass to let the contract stand)"


def _take_or_pass_heading(legal: Sequence[Action], doubling: Sequence[str]) -> str:
    has = _verbs(legal)
    if has == {"accept", "refuse"}:
        return "a schmeiss: accept (the cards are thrown in) or refuse (you play the contract)"
    if "take" in has:
        return "take the turned card's suit as trumps, or pass"
    if "pass" not in has:
        return "name the trump suit: you must choose"
    return "name another suit as trumps, or pass"


def _choose_trump_heading(legal: Sequence[Action], doubling: Sequence[str]) -> str:
    return "choose the trump" + (" (or push the choice to your partner)" if "push" in _verbs(legal) else "")


# What a card turn may offer besides the card, in the order the heading names them.
_PLAY_EXTRAS: Final = (("call for the trump", "call"), ("show the pair", "show"), ("offer to surrender", "surrender"),
                       ("make a claim", "declare"), ("announce your melds", "announce"))


def _play_heading(legal: Sequence[Action], doubling: Sequence[str]) -> str:
    has = _verbs(legal)
    if has == {"call"}:
        return "you cannot follow suit: you must call for the trump"
    extras = [w for w, v in _PLAY_EXTRAS if v in has]
    return "your card" + (f" (or {', '.join(extras)})" if extras else "")


# The headings of the phases whose words never change, and of those whose words depend on what is legal.
_FIXED_HEADINGS: Final = {
    "raise": "raise the contract? (pass keeps it as it is)",
    "declarations": "declare a special contract? (pass to play the normal contract)",
    "surrender": "answer the surrender: accept or refuse",
    "redeal": "ask for a new deal?",
    "melds": "show a meld? (pass when you have shown all you want)",
    "exchange": "exchange your lowest trump for the card face up?",
}
_HEADINGS: Final[dict[str, Callable[[Sequence[Action], Sequence[str]], str]]] = {
    "auction": _auction_heading, "trump": _trump_heading, "doubling": _doubling_heading,
    "take_or_pass": _take_or_pass_heading, "choose_trump": _choose_trump_heading, "play": _play_heading,
}
