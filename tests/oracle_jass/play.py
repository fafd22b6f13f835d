"""Trick winner and the legal cards of each game's duties (the Jass group's play sections, one function each)."""
from __future__ import annotations

from collections.abc import Callable

from .cards import Mode, Trick, suit


def winner_index(mode: Mode, cards: list[str]) -> int:
    """Index of the card that holds the trick: the best trump, else the best card of the suit led."""
    led = suit(cards[0])
    best = 0
    if mode.all_trumps:   # only the suit led can win
        for i, c in enumerate(cards):
            if suit(c) == led and mode.strength(c) > mode.strength(cards[best]):
                best = i
        return best
    for i, c in enumerate(cards[1:], 1):
        b = cards[best]
        if mode.is_trump(c) and not mode.is_trump(b):
            best = i
        elif suit(c) == suit(b) and mode.strength(c) > mode.strength(b) and (suit(c) == led or mode.is_trump(c)):
            best = i
    return best


def _context(mode: Mode, hand: list[str], trick: Trick, seat: int, players: int):  # type: ignore[no-untyped-def]
    led = suit(trick.cards[0])
    win = trick.seats[winner_index(mode, trick.cards)]
    partner_winning = players == 4 and win != seat and win % 2 == seat % 2
    if mode.all_trumps:   # tout-atout: the suit led is the trump of this trick
        mode = Mode(led, mode.trump_order, mode.trump_points, mode.plain_order, mode.plain_points, mode.name)
    trumps_in_trick = [c for c in trick.cards if mode.is_trump(c)]
    top = max((mode.strength(c) for c in trumps_in_trick), default=0)
    my_trumps = [c for c in hand if mode.is_trump(c)]
    higher = [c for c in my_trumps if mode.strength(c) > top]
    return led, partner_winning, trumps_in_trick, my_trumps, higher


def _follow_or_none(mode: Mode, hand: list[str], led: str) -> list[str]:
    return [c for c in hand if suit(c) == led]


def legal_belote(mode: Mode, hand: list[str], trick: Trick, seat: int, players: int) -> list[str]:
    """Belote (and Coinche): follow; trumps led, beat every trump in the trick when able, whoever holds it, else
    any trump; void with an opponent holding the trick, trump - over a trump in it when able, else a lower one;
    void with the partner holding it, anything; no trump at all, anything."""
    led, partner_winning, in_trick, my_trumps, higher = _context(mode, hand, trick, seat, players)
    same = _follow_or_none(mode, hand, led)
    if same:
        if mode.is_trump(same[0]):
            return higher or same
        return same
    if mode.trump is None or mode.all_trumps or partner_winning or not my_trumps:
        return list(hand)
    if in_trick:
        return higher or my_trumps
    return my_trumps


def legal_amsterdam(mode: Mode, hand: list[str], trick: Trick, seat: int, players: int) -> list[str]:
    """Klaverjas, Amsterdam: follow; trumps led, beat the trick if able else any trump; void, opponent winning:
    trump, over an opponent's trump if able, else discard a plain card (a lower trump only holding nothing but
    trumps); void, partner winning: anything but a trump lower than one in the trick, unless he has no other card."""
    led, partner_winning, in_trick, my_trumps, higher = _context(mode, hand, trick, seat, players)
    same = _follow_or_none(mode, hand, led)
    if same:
        if mode.is_trump(same[0]):
            return higher or same
        return same
    if not my_trumps:
        return list(hand)
    lower = [c for c in my_trumps if c not in higher] if in_trick else []
    if partner_winning:
        others = [c for c in hand if c not in lower]
        return others or list(hand)
    if not in_trick:
        return my_trumps
    if higher:
        return higher
    plain = [c for c in hand if not mode.is_trump(c)]
    return plain or list(hand)


def legal_rotterdam(mode: Mode, hand: list[str], trick: Trick, seat: int, players: int) -> list[str]:
    """Klaverjas, Rotterdam: as Amsterdam, except a void player holding a trump must trump, even over his
    partner, going over the trumps in the trick when able, else a lower one (forced undertrump)."""
    led, _partner, in_trick, my_trumps, higher = _context(mode, hand, trick, seat, players)
    same = _follow_or_none(mode, hand, led)
    if same:
        if mode.is_trump(same[0]):
            return higher or same
        return same
    if not my_trumps:
        return list(hand)
    return (higher or my_trumps) if in_trick else my_trumps


def legal_klaberjass(mode: Mode, hand: list[str], trick: Trick, seat: int, players: int) -> list[str]:
    """Klaberjass: follow suit; void, trump if able; trumps led, beat the trump if able."""
    led, _partner, in_trick, my_trumps, higher = _context(mode, hand, trick, seat, players)
    same = _follow_or_none(mode, hand, led)
    if same:
        if mode.is_trump(same[0]):
            return higher or same
        return same
    if not my_trumps:
        return list(hand)
    return (higher or my_trumps) if in_trick else my_trumps


def legal_schieber(mode: Mode, hand: list[str], trick: Trick, seat: int, players: int) -> list[str]:
    """Schieber: holding the led suit, play it or any trump; trumps led, any trump, but the trump Jack is never
    forced; void, anything; no undertrumping in a plain-suit trick holding a trump unless holding only trumps
    (and never while holding the led suit). No-trump modes: follow suit if able, else anything."""
    led = suit(trick.cards[0])
    same = [c for c in hand if suit(c) == led]
    if mode.trump is None:
        return same or list(hand)
    my_trumps = [c for c in hand if mode.is_trump(c)]
    if led == mode.trump:
        if [c for c in my_trumps if c[0] != "J"]:
            return my_trumps
        return list(hand)
    in_trick = [c for c in trick.cards if mode.is_trump(c)]
    top = max((mode.strength(c) for c in in_trick), default=0)
    lower = [c for c in my_trumps if mode.strength(c) < top] if in_trick else []
    allowed = (same + my_trumps) if same else list(hand)
    only_trumps = len(my_trumps) == len(hand)
    if lower and not only_trumps:
        allowed = [c for c in allowed if c not in lower]
    return allowed


def legal_partner_trump_free(mode: Mode, hand: list[str], trick: Trick, seat: int, players: int) -> list[str]:
    """coinche-partner-trump-free: Belote's duties, except that trumps led and the partner holding the trick,
    any trump will do."""
    led, partner_winning, _in_trick, _my_trumps, _higher = _context(mode, hand, trick, seat, players)
    same = _follow_or_none(mode, hand, led)
    if same and partner_winning and (mode.all_trumps or mode.is_trump(same[0])):
        return same
    return legal_belote(mode, hand, trick, seat, players)


DUTIES: dict[str, Callable[[Mode, list[str], Trick, int, int], list[str]]] = {
    "belote": legal_belote, "amsterdam": legal_amsterdam, "rotterdam": legal_rotterdam,
    "klaberjass": legal_klaberjass, "schieber": legal_schieber,
    "partner_trump_free": legal_partner_trump_free}


def legal(duty: str, mode: Mode, hand: list[str], trick: Trick, seat: int, players: int) -> list[str]:
    """The cards `seat` may play from `hand` to `trick` (any card when leading)."""
    if not trick.cards:
        return list(hand)
    return DUTIES[duty](mode, hand, trick, seat, players)
