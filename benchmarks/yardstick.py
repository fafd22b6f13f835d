"""Our speed yardstick: a stripped-down 28-like deal written as fast as plain Python allows.

    python3 benchmarks/yardstick.py [SECONDS]     # prints deals per second

32 cards (eight ranks in four suits), four hands of eight, no auction and no trump: every trick the players
follow suit when they can, at random, and the highest card of the suit led wins; the two sides' card points are
counted (J 3, 9 2, A and T 1). Nothing of the engine is used, so the engine's own figures (benchmarks/random_hands.py,
search_speed.py) are given as ratios to this, measured in the same run: ratios carry from one machine to another,
hands per second do not.

Cards are bits of one int: suit s holds bits 8*s .. 8*s+7, a higher bit beating a lower one of its suit, so the
winner of a trick is the largest bit of the suit led.
"""

from __future__ import annotations

import random
import time

SUITS = 4
RANKS = 8                      # bit 7 of a suit is its Jack, 6 its Nine, 5 its Ace, 4 its Ten
SUIT_BYTE = 0xFF
# points of the cards one side took, from three masks: Jacks, Nines, and Aces with Tens
JACKS = sum(1 << (RANKS * s + 7) for s in range(SUITS))
NINES = sum(1 << (RANKS * s + 6) for s in range(SUITS))
ACES_TENS = sum(0b11 << (RANKS * s + 4) for s in range(SUITS))
# for each value of one suit's byte, the bits set in it (as single-bit ints of that byte, low to high)
BITS_OF_BYTE = [tuple(1 << i for i in range(RANKS) if v >> i & 1) for v in range(256)]
_PACK = [1 << c for c in range(SUITS * RANKS)]   # shuffled in place, deal after deal


def _any_card(mask: int, pick: float) -> int:
    """One set bit of `mask`, chosen by `pick` in [0, 1)."""
    n = int(pick * mask.bit_count())
    for _ in range(n):
        mask &= mask - 1          # drop the lowest set bit n times
    return mask & -mask


def deal_and_play(rng: random.Random, first: int) -> tuple[int, int]:
    """One random deal played out at random; the card points of seats 0+2 and of seats 1+3."""
    draw = rng.random
    cards = _PACK
    for i in range(len(cards) - 1, 0, -1):   # shuffle by hand: random.shuffle costs more than the play
        j = int(draw() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    hands = [sum(cards[0:8]), sum(cards[8:16]), sum(cards[16:24]), sum(cards[24:32])]
    taken_even = 0                 # the cards won by seats 0 and 2
    lead = first
    for _ in range(RANKS):
        card = _any_card(hands[lead], draw())
        hands[lead] ^= card
        shift = (card.bit_length() - 1) & ~7     # the suit's first bit
        top, winner, trick = card, lead, card
        for step in (1, 2, 3):
            seat = (lead + step) & 3
            held = hands[seat]
            suit = (held >> shift) & SUIT_BYTE
            if suit:
                options = BITS_OF_BYTE[suit]
                card = options[int(draw() * len(options))] << shift
                if card > top:
                    top, winner = card, seat
            else:
                card = _any_card(held, draw())
            hands[seat] = held ^ card
            trick |= card
        if winner & 1 == 0:
            taken_even |= trick
        lead = winner
    even = 3 * (taken_even & JACKS).bit_count() + 2 * (taken_even & NINES).bit_count() \
        + (taken_even & ACES_TENS).bit_count()
    return even, 28 - even


def rate(seconds: float) -> float:
    """Deals played per second over at least `seconds` of wall time (the same seed every call)."""
    rng = random.Random(28)
    played = 0
    start = time.perf_counter()
    while True:
        for i in range(1000):
            deal_and_play(rng, i & 3)
        played += 1000
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return played / elapsed


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seconds", nargs="?", type=float, default=3.0, help="how long to play (default 3)")
    print(f"{rate(ap.parse_args().seconds):.0f}")
