"""The heuristic's hand evaluation, on masks, for one game: how strong a hand is with each suit as trumps, how
many card points a side may expect from it, and - softened into a likelihood - how probable another seat's trump
choice was with the cards a sampled world gives it (worlds.py).

A hand scores "units" per suit as trump (Jacks and Nines of trumps count most, then trump length, then side Jacks
and guarded Nines). Units are turned into expected card points by comparing them with random hands of the same
size in the same game (a z-score), so one formula serves every deck and deal schedule. The contract rules that
use these numbers are in policy.py. Plain typed Python that mypyc can compile (setup.py's COMPILED list).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from engine.play.actions import Action, bid_terms
from engine.play.game import NO_TRUMP, Game

TRUMP_UNITS = (3.0, 2.2, 1.5, 1.2, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8)   # by rank position from the top
SIDE_TOP, SIDE_SECOND_GUARDED, SIDE_SECOND, SIDE_THIRD = 1.6, 1.1, 0.4, 0.3
NT_TOP = 1.3           # a side suit's top card is worth this much more at no-trumps
# Units are added up in hundredths, as ints: a suit's share is looked up once per holding, and equal hands tie
# exactly whatever order their cards are added in.
CENTS = 100
_TRUMP_CENTS = tuple(round(u * CENTS) for u in TRUMP_UNITS)
_TOP_CENTS, _NT_TOP_CENTS = round(SIDE_TOP * CENTS), round(SIDE_TOP * NT_TOP * CENTS)
_SECOND_GUARDED_CENTS, _SECOND_CENTS = round(SIDE_SECOND_GUARDED * CENTS), round(SIDE_SECOND * CENTS)
_THIRD_CENTS = round(SIDE_THIRD * CENTS)
Z_WEIGHT = 0.07        # card-point share gained per standard deviation of hand strength
SPREAD_HANDS = 800     # random hands that fix the mean and spread of hand strength for each hand size
SOFT_BID = 0.07        # softness of a bid or pass: a share of the pack's card points (about two points)
SOFT_SUIT = 0.8        # softness of a trump choice, in hand-evaluation units
FLOOR = 1e-3           # no observed action is ever taken as impossible: the model is only a model
# The heuristic's thresholds (policy.py and the search read them from here)
RAISE_MARGIN = 1       # raise with this many points to spare
PARTNER_MARGIN = 4     # overcall a partner's standing bid only with this many points to spare
RAISE_Z = 2.0          # without knowing the trump, only a hand this unusual raises
DOUBLE_MARGIN = 4      # the bidding side doubles with this many points over its bid
DOUBLE_TOPS = 3        # the other side doubles holding this many cards of the top rank ...
DOUBLE_ABOVE_MIN = 4   # ... against a bid at least this far above the lowest bid
TRICK_WORTH = 2        # card points that make a trick worth winning or calling for the trump
MODELS_KEPT = 64


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def log_floor(p: float) -> float:
    return math.log(max(p, FLOOR))


class HandModel:
    """The hand evaluation of one game, and the readers of bids and trump choices the policy and the worlds share."""

    def __init__(self, game: Game) -> None:
        self.game = game
        top = max(game.strength)
        self.rank_pos = [top - game.strength[c] for c in range(game.size)]
        # a card's place in its suit's order when that suit is trump (deck.trump_ranks; else its plain place),
        # and in each named trump mode's order (rules.trump.modes)
        self.trump_pos = [0] * game.size
        for c in range(game.size):
            own = game.suit_strength[game.suit_of[c]]
            self.trump_pos[c] = max(own[x] for x in range(game.size) if game.suit_of[x] == game.suit_of[c]) - own[c]
        self.mode_pos = [[max(st) - st[c] for c in range(game.size)] for st in game.mode_strength]
        self._mode_cents: list[dict[int, int]] = [{} for _ in game.mode_strength]
        self.top_mask = [0] * game.nsuits          # per suit: cards of the top rank
        for c in range(game.size):
            if self.rank_pos[c] == 0:
                self.top_mask[game.suit_of[c]] |= 1 << c
        self.total = float(game.points_per_hand)
        self.no_trumps = game.rules.trump.no_trumps
        if game.rules.table.bidder_plays_alone:
            self.share = [1.0 / game.n] * game.n
        else:
            self.share = [len(game.rules.table.teams[game.team_of[s]]) / game.n for s in range(game.n)]
        self._spread: dict[int, tuple[float, float]] = {}
        self.bid_value: dict[Action, int] = {}
        self.bid_code: dict[Action, str] = {}
        self._cents: list[dict[int, tuple[int, int, int]]] = [{} for _ in range(game.nsuits)]

    # --- hand evaluation ------------------------------------------------------------------------------------
    def suit_cents(self, hand: int, s: int) -> tuple[int, int, int]:
        """What the cards of suit `s` in `hand` are worth, in hundredths of a unit: (as trumps, as a side suit at
        no-trumps, as a side suit beside a trump suit). Computed once per holding of the suit."""
        key = hand & self.game.suit_masks[s]
        table = self._cents[s]
        out = table.get(key)
        if out is None:
            trump = nt = side = 0
            guarded = key & self.top_mask[s] != 0
            m = key
            while m:
                low = m & -m
                m ^= low
                c = low.bit_length() - 1
                r = self.rank_pos[c]
                trump += _TRUMP_CENTS[min(self.trump_pos[c], len(_TRUMP_CENTS) - 1)]
                if r == 0:
                    nt += _NT_TOP_CENTS
                    side += _TOP_CENTS
                elif r == 1:
                    v = _SECOND_GUARDED_CENTS if guarded else _SECOND_CENTS
                    nt += v
                    side += v
                elif r == 2:
                    nt += _THIRD_CENTS
                    side += _THIRD_CENTS
            out = table[key] = (trump, nt, side)
        return out

    def units(self, hand: int, trump: int) -> float:
        """The strength of `hand` with `trump` as trumps (NO_TRUMP: no-trumps)."""
        total = 0
        for s in range(self.game.nsuits):
            t, nt, side = self.suit_cents(hand, s)
            total += t if s == trump else (nt if trump < 0 else side)
        return total / CENTS

    def mode_units(self, hand: int, mode: int) -> float:
        """The strength of `hand` in the named trump mode `mode` (rules.trump.modes): every suit stands alone, as
        at no-trumps, in the mode's order; like no-trumps it must be clearly better than a suit."""
        g = self.game
        pos = self.mode_pos[mode]
        table = self._mode_cents[mode]
        total = -CENTS
        for s in range(g.nsuits):
            key = hand & g.suit_masks[s]
            cents = table.get(key)
            if cents is None:
                cents = 0
                m = key
                guarded = False
                while m:
                    low = m & -m
                    m ^= low
                    guarded = guarded or pos[low.bit_length() - 1] == 0
                m = key
                while m:
                    low = m & -m
                    m ^= low
                    r = pos[low.bit_length() - 1]
                    cents += (_NT_TOP_CENTS if r == 0 else (_SECOND_GUARDED_CENTS if guarded else _SECOND_CENTS)
                              if r == 1 else _THIRD_CENTS if r == 2 else 0)
                table[key] = cents
            total += cents
        return total / CENTS

    def best_choice(self, hand: int) -> tuple[str, float]:
        """(code, units) of the best trump choice a bid may name: a suit, NT where allowed, or a named mode (a mode
        only when clearly better than the best suit)."""
        g = self.game
        suit, units = self.best_trump(hand, self.no_trumps)
        code = "NT" if suit < 0 else g.layout.suits[suit]
        for k in range(len(g.mode_names)):
            u = self.mode_units(hand, k)
            if u > units:
                code, units = g.mode_names[k], u
        return code, units

    def units_named(self, hand: int, code: str) -> float:
        """The strength of `hand` with the trump a bid names: a suit, NT (less the no-trump margin) or a mode."""
        g = self.game
        if code == "NT":
            return self.units(hand, NO_TRUMP) - 1.0
        if code in g.layout.suits:
            return self.units(hand, g.layout.suits.index(code))
        mode = g.mode_index(code)
        return self.mode_units(hand, mode) if mode >= 0 else self.units(hand, NO_TRUMP) - 1.0

    def best_trump(self, hand: int, allow_nt: bool) -> tuple[int, float]:
        """(suit, units) of the best trump, ties to the longer suit (then the higher index); no-trumps (where
        allowed) must be clearly better."""
        g = self.game
        parts = [self.suit_cents(hand, s) for s in range(g.nsuits)]
        sides = 0
        nts = 0
        for p in parts:
            sides += p[2]
            nts += p[1]
        best_u = -1
        best_len = -1
        best_s = 0
        for s in range(g.nsuits):
            u = sides - parts[s][2] + parts[s][0]
            n = (hand & g.suit_masks[s]).bit_count()
            if s == 0 or u > best_u or (u == best_u and (n > best_len or (n == best_len and s > best_s))):
                best_u, best_len, best_s = u, n, s
        if allow_nt:
            u = nts - CENTS
            if u > best_u or (u == best_u and 0 > best_len):
                best_u, best_s = u, NO_TRUMP
        return best_s, best_u / CENTS

    def spread(self, k: int) -> tuple[float, float]:
        """Mean and standard deviation of best-trump units over random k-card hands (fixed seed: deterministic)."""
        out = self._spread.get(k)
        if out is None:
            out = self._spread[k] = hand_spread(self.game.size, k, 1234 + k,
                                                lambda hand: float(self.best_trump(hand, self.no_trumps)[1]))
        return out

    def warm(self) -> None:
        """The spreads of every hand size the deal schedule gives, computed now rather than in the middle of a hand."""
        k = 0
        for step in self.game.rules.schedule:
            if step > 0:
                k += step
                self.spread(k)

    def expected(self, seat: int, hand: int, units: float) -> float:
        """Card points the seat's side may expect when the seat names the trump with `units`."""
        k = hand.bit_count()
        if k == 0:
            return 0.0
        mean, sd = self.spread(k)
        return self.total * (self.share[seat] + Z_WEIGHT * ((units - mean) / sd))

    def z(self, hand: int) -> float:
        """How unusually strong a hand is (standard deviations above a random hand of its size)."""
        k = hand.bit_count()
        if k == 0:
            return 0.0
        mean, sd = self.spread(k)
        return (self.best_trump(hand, self.no_trumps)[1] - mean) / sd

    # --- reading actions -----------------------------------------------------------------------------------
    def value_of(self, a: Action) -> int:
        """The number a bid or raise names."""
        v = self.bid_value.get(a)
        if v is None:
            v = self.bid_value[a] = bid_terms(a.arg)[0]
        return v

    def code_of(self, a: Action) -> str:
        """The suit (or NT) a bid names, '' for none."""
        v = self.bid_code.get(a)
        if v is None:
            v = self.bid_code[a] = bid_terms(a.arg)[1]
        return v

    # --- likelihood of a trump choice --------------------------------------------------------------------------
    def suit_log_likelihood(self, hand: int, chosen: int, as_card: bool) -> float:
        """log of the chance that the heuristic, holding `hand`, names suit `chosen` (NO_TRUMP: no-trumps): a
        softmax of the hand's strength with each suit as trumps (named by a card: only suits held)."""
        g = self.game
        scores: list[float] = []
        mine = -1e9
        for s in range(-1 if chosen == NO_TRUMP else 0, g.nsuits):
            if as_card and s >= 0 and not hand & g.suit_masks[s]:
                continue
            u = self.units(hand, s) - (1.0 if s < 0 else 0.0)
            scores.append(u / SOFT_SUIT)
            if s == chosen:
                mine = u / SOFT_SUIT
        if not scores or mine < -1e8:
            return math.log(FLOOR)
        top = max(scores)
        total = 0.0
        for x in scores:
            total += math.exp(x - top)
        return max(mine - top - math.log(total), math.log(FLOOR))

    def suit_weights(self, hand: int, must_hold: bool) -> list[float]:
        """The model's chances (unnormalised) of the heuristic naming each suit as trump with `hand`."""
        g = self.game
        scores = [-1e9] * g.nsuits
        for s in range(g.nsuits):
            if must_hold and not hand & g.suit_masks[s]:
                continue
            scores[s] = self.units(hand, s) / SOFT_SUIT
        top = max(scores)
        return [math.exp(x - top) if x > -1e8 else 0.0 for x in scores]


_MODELS: dict[int, HandModel] = {}


def model_for(game: Game) -> HandModel:
    """The model of this game, built once per process."""
    m = _MODELS.get(id(game))
    if m is None or m.game is not game:
        if len(_MODELS) >= MODELS_KEPT:
            _MODELS.clear()
        m = _MODELS[id(game)] = HandModel(game)
    return m


def hand_spread(size: int, n: int, seed: int, value: Callable[[int], float],
                hands: int = SPREAD_HANDS) -> tuple[float, float]:
    """Mean and standard deviation (at least 1e-6) of `value` over `hands` random n-card hands of a `size`-card
    pack, drawn from a generator seeded with `seed` (so the same on every run)."""
    rng = random.Random(seed)
    deck = list(range(size))
    xs: list[float] = []
    for _ in range(hands):
        hand = 0
        for c in rng.sample(deck, n):
            hand |= 1 << c
        xs.append(value(hand))
    mean = sum(xs) / len(xs)
    sd = (sum((x - mean) ** 2 for x in xs) / len(xs)) ** 0.5
    return mean, max(sd, 1e-6)
