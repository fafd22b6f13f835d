"""Actions: small immutable values with a notation that round-trips (`2 play JS`, `0 bid 30 NT`)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import normalise_rank
from engine.errors import RecordError

# Verbs of the hand-record contract; doubling steps add their own names from the rule file.
VERBS = ("bid", "pass", "redeal", "trump", "raise", "double", "redouble", "declare", "call", "show", "play",
         "surrender", "accept", "refuse")


@dataclass(frozen=True, slots=True)
class Action:
    """One seat's action: `seat`, a `verb` and its argument text in canonical notation ('' when none)."""

    seat: int
    verb: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.seat} {self.notation}"

    @property
    def notation(self) -> str:
        """The action without its seat, as in a replay report's `next.legal`."""
        return f"{self.verb} {self.arg}" if self.arg else self.verb

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read `SEAT VERB [ARGUMENTS]`; card and suit arguments are put in canonical form."""
        parts = str(text).split()
        digits = parts[0].lstrip("-") if parts else ""
        if len(parts) < 2 or not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
            raise RecordError(f"'{text}' is not an action (write SEAT VERB [ARGUMENTS], e.g. '2 play JS')")
        seat = int(parts[0])
        return cls(seat, parts[1].lower() if parts[1].lower() in VERBS else parts[1],
                   canonical_arg(parts[1].lower(), parts[2:]))


def canonical_arg(verb: str, args: list[str]) -> str:
    """Upper-case cards and suits, '10' as 'T', 'nt' as 'NT'; other arguments as written (lower case)."""
    if verb == "play" and len(args) == 1:
        return canonical_card(args[0])
    if verb == "trump" and len(args) == 1:
        a = args[0]
        if a.lower() == "seventh":
            return "seventh"
        return a.upper() if len(a) == 1 else canonical_card(a)
    if verb == "bid":
        return " ".join([args[0]] + [a.upper() for a in args[1:]]) if args else ""
    if verb in ("show", "declare"):
        return " ".join(a.lower() if verb == "show" else a for a in args)
    return " ".join(args)


def canonical_card(text: str) -> str:
    t = text.strip().upper()
    return normalise_rank(t[:-1]) + t[-1:] if len(t) >= 2 else t
