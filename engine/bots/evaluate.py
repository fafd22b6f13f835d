"""Hand evaluation for the auction: how many card points a hand is worth with a given trump.

A hand scores "units" per suit as trump (Jacks and Nines of trumps count most, then trump length, then side
Jacks and guarded Nines). Units are turned into expected card points by comparing them with random hands of the
same size in the same game (a z-score), so one formula serves every deck and deal schedule."""

from __future__ import annotations

import random
from functools import lru_cache

from engine.cards import card_ids
from engine.play.game import Game

TRUMP_UNITS = (3.0, 2.2, 1.5, 1.2, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8)   # by rank position from the top
SIDE_TOP, SIDE_SECOND_GUARDED, SIDE_SECOND, SIDE_THIRD = 1.6, 1.1, 0.4, 0.3
Z_WEIGHT = 0.07   # card-point share gained per standard deviation of hand strength


def rank_pos(game: Game, card: int) -> int:
    """0 for the top rank of the deck (the Jack, or a rank tied with it), 1 for the next, ..."""
    return _top_strength(game) - game.strength[card]


@lru_cache(maxsize=128)
def _top_strength(game: Game) -> int:
    return max(game.strength)


def suit_units(game: Game, hand: int, trump: int) -> float:
    """Strength of `hand` if `trump` is trumps (-1: no-trumps)."""
    units = 0.0
    held_top = [False] * game.nsuits
    for c in card_ids(hand):
        if rank_pos(game, c) == 0:
            held_top[game.suit_of[c]] = True
    for c in card_ids(hand):
        s, r = game.suit_of[c], rank_pos(game, c)
        if s == trump:
            units += TRUMP_UNITS[min(r, len(TRUMP_UNITS) - 1)]
        elif r == 0:
            units += SIDE_TOP * (1.3 if trump < 0 else 1.0)
        elif r == 1:
            units += SIDE_SECOND_GUARDED if held_top[s] else SIDE_SECOND
        elif r == 2:
            units += SIDE_THIRD
    return units


def best_trump(game: Game, hand: int, allow_nt: bool = False) -> tuple[int, float]:
    """(suit, units) of the best trump for `hand`; ties go to the longer suit."""
    options = [(suit_units(game, hand, s), (hand & game.suit_masks[s]).bit_count(), s) for s in range(game.nsuits)]
    if allow_nt:
        options.append((suit_units(game, hand, -1) - 1.0, 0, -1))   # no-trumps must be clearly better
    u, _, s = max(options)
    return s, u


@lru_cache(maxsize=128)
def _units_spread(game: Game, k: int, allow_nt: bool) -> tuple[float, float]:
    """Mean and standard deviation of best-trump units over random k-card hands (fixed seed: deterministic)."""
    rng = random.Random(1234 + k)
    deck = list(range(game.size))
    xs = []
    for _ in range(800):
        hand = 0
        for c in rng.sample(deck, k):
            hand |= 1 << c
        xs.append(best_trump(game, hand, allow_nt)[1])
    mean = sum(xs) / len(xs)
    sd = (sum((x - mean) ** 2 for x in xs) / len(xs)) ** 0.5
    return mean, max(sd, 1e-6)


def warm(game: Game) -> None:
    """Compute the random-hand spreads for every hand size the deal schedule gives (at bind time, not mid-hand)."""
    k = 0
    for step in game.rules.schedule:
        if step > 0:
            k += step
            _units_spread(game, k, game.rules.trump.no_trumps)


def side_share(game: Game, seat: int) -> float:
    """The share of card points a side of average hands takes: its seats over all seats."""
    if game.rules.table.bidder_plays_alone:
        return 1 / game.n
    team = next(t for t in game.rules.table.teams if seat in t)
    return len(team) / game.n


def expected_points(game: Game, seat: int, hand: int, units: float) -> float:
    """Card points this seat's side may expect to take when the seat names the trump."""
    k = hand.bit_count()
    if k == 0:
        return 0.0
    mean, sd = _units_spread(game, k, game.rules.trump.no_trumps)
    z = (units - mean) / sd
    total = game.points_per_hand
    return total * (side_share(game, seat) + Z_WEIGHT * z)


def hand_z(game: Game, hand: int) -> float:
    """How unusually strong a hand is (standard deviations above a random hand of its size)."""
    k = hand.bit_count()
    if k == 0:
        return 0.0
    mean, sd = _units_spread(game, k, game.rules.trump.no_trumps)
    return (best_trump(game, hand, game.rules.trump.no_trumps)[1] - mean) / sd

