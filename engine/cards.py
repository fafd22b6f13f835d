"""Cards as small ints and hands as int bitmasks, with the notation players write (JS, 9H, TD).

A deck is laid out suit by suit: card id = suit * block + rank_index * copies + copy, where block is the number
of physical cards in one suit. A hand is an int with bit (1 << id) set for every card it holds, so a suit is a
contiguous run of bits and following suit is one mask intersection. A double pack gives each copy its own bit.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

RANK_CODES = ("J", "9", "A", "T", "K", "Q", "8", "7", "6", "5", "4", "3", "2")
SUIT_CODES = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


# The symbols the table prints (and their outline forms, with or without an emoji variation selector).
SYMBOL_SUITS = {"\u2660": "S", "\u2664": "S", "\u2665": "H", "\u2661": "H", "\u2666": "D", "\u2662": "D",
                "\u2663": "C", "\u2667": "C"}
_VARIATION_SELECTORS = ("\ufe0e", "\ufe0f")


def normalise_rank(text: str) -> str:
    """'10' and 't' are the ten; ranks are upper case."""
    t = text.strip().upper()
    return "T" if t == "10" else t


def canonical_suit(text: str) -> str | None:
    """'H', 'h' or a heart symbol -> 'H'; None when the text is not one suit."""
    t = text.strip()
    for vs in _VARIATION_SELECTORS:
        t = t.removesuffix(vs)
    if t in SYMBOL_SUITS:
        return SYMBOL_SUITS[t]
    t = t.upper()
    return t if t in SUIT_CODES else None


def canonical_card(text: str) -> str | None:
    """'js', '10D', 'Q\u2665' -> 'JS', 'TD', 'QH': a rank of the family and a suit; None for anything else (whether
    the card is in a given deck is the deck's question)."""
    t = text.strip()
    for vs in _VARIATION_SELECTORS:
        t = t.removesuffix(vs)
    if len(t) < 2 or len(t) > 3:
        return None
    suit = canonical_suit(t[-1])
    rank = normalise_rank(t[:-1])
    if suit is None or rank not in RANK_CODES:
        return None
    return rank + suit


@dataclass(frozen=True, kw_only=True)
class DeckLayout:
    """The physical cards of one game and how their ids map to notation."""

    suits: tuple[str, ...]
    ranks: tuple[str, ...]          # high to low as the rule file lists them
    copies: int
    block: int = field(init=False)
    size: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "block", len(self.ranks) * self.copies)
        object.__setattr__(self, "size", len(self.suits) * len(self.ranks) * self.copies)

    # --- ids -----------------------------------------------------------------------------------
    def card_id(self, suit: int, rank: int, copy: int = 0) -> int:
        return suit * self.block + rank * self.copies + copy

    def suit_of(self, card: int) -> int:
        return card // self.block

    def rank_of(self, card: int) -> int:
        return (card % self.block) // self.copies

    def code(self, card: int) -> str:
        return self.ranks[self.rank_of(card)] + self.suits[self.suit_of(card)]

    def suit_mask(self, suit: int) -> int:
        return ((1 << self.block) - 1) << (suit * self.block)

    def ids_of_code(self, code: str) -> list[int]:
        """All copies of the card written `code`; raises ValueError for a card not in this deck."""
        card = canonical_card(code)
        if card is None:
            text = code.strip()
            if len(text) >= 2 and canonical_suit(text[-1]) is None:
                raise ValueError(f"{code!r}: unknown suit {text[-1]!r} (suits are {' '.join(self.suits)})")
            raise ValueError(f"{code!r} is not a card (write a rank, then a suit letter)")
        rank, suit = card[:-1], card[-1]
        if suit not in self.suits:
            raise ValueError(f"'{code}': unknown suit '{suit}' (suits are {' '.join(self.suits)})")
        if rank not in self.ranks:
            raise ValueError(f"'{code}': there is no {rank} in this deck (ranks are {' '.join(self.ranks)})")
        s, r = self.suits.index(suit), self.ranks.index(rank)
        return [self.card_id(s, r, c) for c in range(self.copies)]

    def parse_cards(self, codes: Iterable[str]) -> list[int]:
        """Parse a hand written card by card; repeated codes take the next copy of a double pack."""
        used: set[int] = set()
        out: list[int] = []
        for code in codes:
            for cid in self.ids_of_code(code):
                if cid not in used:
                    used.add(cid)
                    out.append(cid)
                    break
            else:
                raise ValueError(f"'{code}' appears more often than the deck holds it")
        return out

    def parse_suit(self, text: str) -> int:
        t = canonical_suit(text) or text
        if t not in self.suits:
            raise ValueError(f"'{text}' is not a suit (suits are {' '.join(self.suits)})")
        return self.suits.index(t)


def bits(mask: int) -> Iterator[int]:
    """The card ids in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def card_ids(mask: int) -> list[int]:
    """The card ids in a mask as a list, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

