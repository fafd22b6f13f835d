"""Actions: small immutable values with a notation that round-trips (`2 play JS`, `0 bid 30 NT`).

`Action.parse` reads the notation strictly: every verb takes exactly the arguments it takes, numbers are ASCII
digits of sensible length, cards and suits are the letters of the hand-record format (or the suit symbols the
table prints), and anything else is a `RecordError` that says what was expected, with a suggestion where one
fits (`trump hearts` -> did you mean 'trump H'?).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from engine.cards import SUIT_CODES, canonical_card, canonical_suit
from engine.errors import RecordError

# Verbs of the hand-record contract; doubling steps add their own names from the rule file.
VERBS = ("bid", "pass", "redeal", "trump", "raise", "double", "redouble", "declare", "call", "show", "play",
         "surrender", "accept", "refuse", "partner", "concede", "open", "announce", "take", "push", "schmeiss",
         "exchange")
_NO_ARGUMENT = ("redeal", "double", "redouble", "call", "surrender", "accept", "refuse", "partner", "concede",
                "open", "announce", "take", "push", "schmeiss", "exchange")
CHANGE: Final = "change"   # the marker of a second-auction speech: `bid 25 change`, `pass change`
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]{0,39}")
_MODE = re.compile(r"[a-z][a-z0-9-]{0,23}")   # a trump mode's name (rules.trump.modes), in lower case
MAX_NUMBER_DIGITS: Final = 6  # bids and raises: no game bids a million; longer digit strings are refused unread
MAX_SEAT_DIGITS: Final = 2
MAX_TEXT: Final = 200         # an action is a few words; longer text is refused before it is split


@dataclass(frozen=True, slots=True)
class Action:
    """One seat's action: `seat`, a `verb` and its argument text in canonical notation ('' when none)."""

    seat: int
    verb: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.seat} {self.notation}"

    def __reduce__(self) -> tuple[type[Action], tuple[int, str, str]]:
        # explicit: a compiled (mypyc) frozen class cannot be rebuilt field by field as pickle does by default
        return (Action, (self.seat, self.verb, self.arg))

    @property
    def notation(self) -> str:
        """The action without its seat, as in a replay report's `next.legal`."""
        return f"{self.verb} {self.arg}" if self.arg else self.verb

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read `SEAT VERB [ARGUMENTS]` into canonical form; RecordError saying what is wrong otherwise."""
        if not isinstance(text, str):
            raise RecordError(f"an action is text like '2 play JS', not {type(text).__name__}")
        if len(text) > MAX_TEXT:
            raise RecordError(f"'{text[:40]}...' is not an action: {len(text)} characters (write SEAT VERB "
                              "[ARGUMENTS], e.g. '2 play JS')")
        parts = text.split()
        if len(parts) < 2:
            raise RecordError(f"{text!r} is not an action (write SEAT VERB [ARGUMENTS], e.g. '2 play JS')")
        return cls(parse_seat(parts[0], text), *parse_notation(parts[1:]))


def bid_terms(arg: str) -> tuple[int, str]:
    """The number and the suit a bid's or raise's argument names, in the canonical notation the engine writes
    ('30 NT' -> (30, 'NT'), '16' -> (16, '')): the one reader of it, so bots and the table never take text apart."""
    number, _, suit = arg.partition(" ")
    return int(number), suit


def meld_terms(arg: str) -> tuple[str, str]:
    """A shown meld's argument ('jodi H') as (meld name, suit letter): the one place that reads it."""
    name, _, letter = arg.partition(" ")
    return name, letter


def parse_seat(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > MAX_SEAT_DIGITS:
        raise RecordError(f"{text!r} is not an action: it starts with a seat number such as 0 or 2, not {word!r}")
    return int(word)


def parse_number(word: str, what: str) -> int:
    """A whole number written in ASCII digits (at most MAX_NUMBER_DIGITS of them)."""
    if not (word.isascii() and word.isdigit()):
        raise RecordError(f"{what} is a whole number such as 16, not {word!r}")
    if len(word) > MAX_NUMBER_DIGITS:
        raise RecordError(f"{what} {word[:12]}... is far too large")
    return int(word)


def parse_notation(words: list[str]) -> tuple[str, str]:
    """(verb, canonical argument) of an action written without its seat."""
    verb, args = words[0], words[1:]
    low = _verb_of(verb)
    shown = " ".join(words)
    if low == "pass":
        return low, _pass_argument(args, shown)
    if low in _NO_ARGUMENT or low not in VERBS:
        if args:
            raise RecordError(f"'{shown}': {verb} takes no argument (write just '{verb}')")
        return low, ""
    if not args:
        raise RecordError(f"'{shown}': {low} needs an argument ({_EXAMPLE[low]})")
    if low == "bid":
        return low, _bid_argument(args, shown)
    if low == "show" and len(args) == 2:   # a meld of one suit: `show jodi H`
        return low, _meld_argument(args, shown)
    if len(args) != 1:
        raise RecordError(f"'{shown}': {low} takes one argument ({_EXAMPLE[low]})")
    return low, _one_argument(low, args[0], shown)


def _verb_of(verb: str) -> str:
    """The verb in lower case, or as written where it is a doubling step the rule file names (e.g. C): checked
    against the rules when applied."""
    low = verb.lower()
    if low in VERBS:
        return low
    if not _NAME.fullmatch(verb):
        raise RecordError(f"{verb!r} is not an action verb (verbs: {', '.join(VERBS)})")
    return verb


def _pass_argument(args: list[str], shown: str) -> str:
    """A pass's argument: none, or the second-auction marker."""
    if not args:
        return ""
    if len(args) == 1 and args[0].lower() == CHANGE:
        return CHANGE
    raise RecordError(f"'{shown}': pass takes no argument but the marker change (write 'pass' or 'pass change')")


def _bid_argument(args: list[str], shown: str) -> str:
    """A bid's argument: a number, at most a suit or NT or a trump mode, and (in a second auction) the marker."""
    marked = len(args) > 1 and args[-1].lower() == CHANGE
    if marked:
        args = args[:-1]
    if len(args) > 2:
        raise RecordError(f"'{shown}': a bid is a number and at most a suit or NT or a trump mode "
                          "(then, in a second auction, "
                          "the marker change), e.g. 'bid 30 S' or 'bid 25 change'")
    value = parse_number(args[0], "a bid")
    text = str(value) if len(args) == 1 else f"{value} {_trump_word(args[1], shown, allow_card=False)}"
    return f"{text} {CHANGE}" if marked else text


def _meld_argument(args: list[str], shown: str) -> str:
    """A shown meld of one suit: its name and the suit (`jodi H`)."""
    suit = canonical_suit(args[1])
    if not _NAME.fullmatch(args[0]) or suit is None:
        raise RecordError(f"'{shown}': a meld is shown by its name and suit, e.g. 'show jodi H'")
    return f"{args[0].lower()} {suit}"


def _one_argument(low: str, arg: str, shown: str) -> str:
    """The argument of a verb that takes one: raise, play, trump, show (the pair) or declare."""
    if low == "raise":
        return str(parse_number(arg, "a raise"))
    if low == "play":
        return _card(arg, shown)
    if low == "trump":
        if arg.lower() in ("seventh", "last"):
            return arg.lower()
        return _trump_word(arg, shown, allow_card=True)
    if low == "show":
        if arg.lower() != "pair":
            raise RecordError(f"'{shown}': the only thing to show is the pair: write 'show pair'")
        return "pair"
    # declare NAME
    if not _NAME.fullmatch(arg):
        raise RecordError(f"'{shown}': declare takes a contract's name from the rule file")
    return arg


_EXAMPLE = {"bid": "e.g. 'bid 16' or 'bid 30 NT'", "raise": "e.g. 'raise 24'", "play": "a card, e.g. 'play JS'",
            "trump": "a card, a suit, NT, a trump mode, seventh or last, e.g. 'trump 9D', 'trump D'",
            "show": "'show pair', or a meld and its suit, e.g. 'show jodi H'",
            "declare": "the name of a contract or claim the rule file defines"}


def _trump_word(word: str, shown: str, allow_card: bool) -> str:
    """A suit letter or symbol, NT, or (where allowed) a card; suit words are refused with a suggestion."""
    if word.upper() == "NT":
        return "NT"
    suit = canonical_suit(word)
    if suit is not None:
        return suit
    if allow_card:
        card = canonical_card(word)
        if card is not None:
            return card
    guess = _suit_from_word(word)
    what = ("a card, a suit (S H D C), NT or a trump mode's name" if allow_card
            else "a suit (S H D C), NT or a trump mode's name")
    if guess is None and _MODE.fullmatch(word):
        return word   # a trump mode the rule file names (trump.modes): checked against the rules when applied
    if guess is not None:
        fixed = shown.replace(word, guess)
        raise RecordError(f"'{shown}': {word!r} is not {what} (did you mean '{fixed}'?)")
    raise RecordError(f"'{shown}': {word!r} is not {what}")


def _card(word: str, shown: str) -> str:
    card = canonical_card(word)
    if card is None:
        raise RecordError(f"'{shown}': {word!r} is not a card (write rank then suit: JS, 9H, TD or 10D)")
    return card


_SUIT_WORDS = {"spade": "S", "spades": "S", "heart": "H", "hearts": "H", "diamond": "D", "diamonds": "D",
               "club": "C", "clubs": "C"}


def _suit_from_word(word: str) -> str | None:
    """The suit letter a player probably meant by a suit's name ('hearts' -> H)."""
    letter = _SUIT_WORDS.get(word.lower())
    return letter if letter in SUIT_CODES else None
