"""Cards as (rank, suit) strings like "9S", and the games' tables: rank order and points by role (trump, plain,
or a no-trump / all-trump mode), the natural order of sequences."""
from __future__ import annotations

from dataclasses import dataclass, field

FRENCH_TRUMP = "J9ATKQ87"                       # Belote / Klaverjas / Klaberjass trump order, high to low
FRENCH_PLAIN = "ATKQJ987"
FRENCH_TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}
FRENCH_PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
SWISS_TRUMP = "J9AKQT876"
SWISS_PLAIN = "AKQJT9876"
SWISS_TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "K": 4, "Q": 3, "T": 10}
SWISS_PLAIN_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10}
OBENABE = ("AKQJT9876", {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "8": 8})
UNDENUFE = ("6789TJQKA", {"6": 11, "8": 8, "T": 10, "J": 2, "Q": 3, "K": 4})


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


@dataclass(frozen=True)
class Mode:
    """How one deal is played: the trump suit (None: no trumps), or a no-trump mode's own order and points."""

    trump: str | None
    trump_order: str
    trump_points: dict[str, int]
    plain_order: str
    plain_points: dict[str, int]
    name: str = ""
    all_trumps: bool = False        # every suit plays as the trump (its order, its points, its duties)

    def is_trump(self, card: str) -> bool:
        return self.all_trumps or (self.trump is not None and suit(card) == self.trump)

    def strength(self, card: str) -> int:
        """Higher is stronger within the card's own suit (by its role)."""
        order = self.trump_order if self.is_trump(card) else self.plain_order
        return len(order) - order.index(rank(card))

    def points(self, card: str) -> int:
        table = self.trump_points if self.is_trump(card) else self.plain_points
        return table.get(rank(card), 0)


def suit_mode(trump: str, swiss: bool) -> Mode:
    if swiss:
        return Mode(trump, SWISS_TRUMP, SWISS_TRUMP_POINTS, SWISS_PLAIN, SWISS_PLAIN_POINTS, trump)
    return Mode(trump, FRENCH_TRUMP, FRENCH_TRUMP_POINTS, FRENCH_PLAIN, FRENCH_PLAIN_POINTS, trump)


SANS_ATOUT = ("ATKQJ987", {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2})


def no_trump_mode(name: str) -> Mode:
    """Obenabe, undenufe (Schieber), sans-atout (Coinche): no trumps, one order and table for every suit;
    tout-atout: every suit ranks and counts as the trump."""
    if name == "tout-atout":
        return Mode(None, FRENCH_TRUMP, FRENCH_TRUMP_POINTS, FRENCH_TRUMP, FRENCH_TRUMP_POINTS, name, True)
    order, points = {"obenabe": OBENABE, "undenufe": UNDENUFE, "sans-atout": SANS_ATOUT}[name]
    return Mode(None, order, points, order, points, name)


@dataclass
class Trick:
    leader: int
    seats: list[int] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
