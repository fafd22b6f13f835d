"""Game: a resolved ruleset compiled once into the ints, masks and lookups the hot path needs."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.cards import DeckLayout
from engine.play.actions import Action
from engine.rules.model import DealStep, Ruleset, SpecialContract

if TYPE_CHECKING:
    from engine.play.state import State

# Schedule step codes
STEP_AUCTION, STEP_TRUMP, STEP_RAISE = -1, -2, -3
NO_TRUMP = -1


@dataclass(frozen=True)
class Band:
    lo: int
    hi: int
    made: int
    failed: int


class Game:
    """Immutable: the rules of one game plus the precomputed tables `State` works with."""

    def __init__(self, ruleset: Ruleset, source: str | Path | None = None) -> None:
        self.rules = r = ruleset
        self.name = r.name
        self.source = source
        self.n = n = r.table.players
        d = r.deck
        self.layout = layout = DeckLayout(tuple(d.suits), tuple(d.ranks), d.copies)
        self.size = layout.size
        self.nsuits = len(d.suits)
        self.suit_masks = [layout.suit_mask(s) for s in range(self.nsuits)]
        self.suit_of = [layout.suit_of(c) for c in range(self.size)]
        self.rank_of = [layout.rank_of(c) for c in range(self.size)]
        self.codes = [layout.code(c) for c in range(self.size)]
        self.points = [d.points.get(d.ranks[self.rank_of[c]], 0) for c in range(self.size)]
        self.point_mask = sum(1 << c for c in range(self.size) if self.points[c])
        self.total_points = sum(self.points)
        self.last_trick_bonus = d.last_trick_bonus
        # Strength: higher beats lower; tied ranks and copies share a strength (first played wins).
        tie_of: dict[str, int] = {}
        for group in d.rank_ties:
            top = min(d.ranks.index(x) for x in group)
            for x in group:
                tie_of[x] = top
        self.strength = [len(d.ranks) - tie_of.get(d.ranks[self.rank_of[c]], self.rank_of[c])
                         for c in range(self.size)]
        self.reversed_strength = [len(d.ranks) + 1 - s for s in self.strength]
        # Teams
        self.teams = [list(t) for t in r.table.teams]
        self.team_of = [0] * n
        for i, t in enumerate(self.teams):
            for s in t:
                self.team_of[s] = i
        self.bidder_alone = r.table.bidder_plays_alone
        # Schedule
        self.schedule: list[int] = []
        for step in r.schedule:
            if isinstance(step, DealStep):
                self.schedule.append(step.deal)
            else:
                self.schedule.append({"auction": STEP_AUCTION, "trump": STEP_TRUMP, "raise": STEP_RAISE}[step])
        self.cards_each = sum(x for x in self.schedule if x > 0)
        self.tricks_per_hand = self.cards_each
        # Auction
        a = r.auction
        self.bid_min, self.bid_max, self.bid_step = a.bids.min, a.bids.max, a.bids.step
        self.bid_values = list(range(self.bid_min, self.bid_max + 1, self.bid_step))
        self.bid_in_suit = r.trump.chosen == "in_bid"
        self.bid_suits: list[str] = list(d.suits) + (["NT"] if r.trump.no_trumps else []) if self.bid_in_suit else []
        # Scoring
        self.bands = [Band(b.bids[0], b.bids[1], b.made, b.failed) for b in r.scoring.bands]
        self.band_for = {v: next((b for b in self.bands if b.lo <= v <= b.hi), None)
                         for v in range(0, self.bid_max + 1)}
        pair = r.special.pair
        self.pair_bounds = (pair.target_bounds if pair and pair.target_bounds else (self.bid_min, self.bid_max))
        self.contracts: dict[str, SpecialContract] = {c.name: c for c in r.special.contracts}
        self.doubling_names = [s.name for s in r.special.doubling.steps] if r.special.doubling else []
        if r.special.doubling and r.special.doubling.fixed_stake:
            self.doubling_names.append(r.special.doubling.fixed_stake.name)
        self.no_discard_ranks = {d.ranks.index(x) for x in r.play.no_discard_before_suit_led}
        # Interned actions: the hot path hands out the same objects again and again.
        self._actions: dict[tuple[int, str, str], Action] = {}
        self.play_action = [[self.action(s, "play", self.codes[c]) for c in range(self.size)] for s in range(n)]
        self.block = layout.block
        block_mask = (1 << layout.block) - 1
        # per seat, per suit, per suit-bits value: the tuple of play actions (suits are contiguous bit runs)
        # (a double pack's two copies are one action: dict.fromkeys keeps the first of each)
        self.play_table: list[list[list[tuple[Action, ...]]]] = [
            [[tuple(dict.fromkeys(self.play_action[s][su * layout.block + i]
                                  for i in range(layout.block) if v >> i & 1))
              for v in range(block_mask + 1)] for su in range(self.nsuits)] for s in range(n)]
        # Every bid per seat in increasing order (for in-bid suits: value-major), so the legal bids are a slice.
        self.bid_actions: list[list[Action]] = [
            [self.action(s, "bid", f"{v} {su}") for v in self.bid_values for su in self.bid_suits]
            if self.bid_in_suit else [self.action(s, "bid", str(v)) for v in self.bid_values] for s in range(n)]
        self.bids_per_value = len(self.bid_suits) if self.bid_in_suit else 1
        self.pass_action = [self.action(s, "pass") for s in range(n)]
        self.has_pair = r.special.pair is not None
        # a void player's choice is narrowed by a rule (so the inlined "anything goes" path does not apply)
        self.void_filters = bool(r.play.no_discard_before_suit_led) or r.play.must_not_undertrump
        self.has_surrender = r.special.all_tricks is not None and r.special.all_tricks.surrender is not None
        self.code_ids: dict[str, list[int]] = {}
        for c in range(self.size):
            self.code_ids.setdefault(self.codes[c], []).append(c)
        self.protected_masks = [sum(1 << c for c in range(self.size)
                                    if self.suit_of[c] == su and self.rank_of[c] in self.no_discard_ranks)
                                for su in range(self.nsuits)]

    def action(self, seat: int, verb: str, arg: str = "") -> Action:
        key = (seat, verb, arg)
        a = self._actions.get(key)
        if a is None:
            a = self._actions[key] = Action(seat, verb, arg)
        return a

    def intern(self, a: Action) -> Action:
        return self.action(a.seat, a.verb, a.arg)

    # --- helpers used by State and tools --------------------------------------------------------
    def first_hand(self, dealer: int) -> int:
        return (dealer + 1) % self.n

    def hand_points(self, mask: int) -> int:
        pts = self.points
        total = 0
        m = mask & self.point_mask
        while m:
            low = m & -m
            total += pts[low.bit_length() - 1]
            m ^= low
        return total

    def shuffled_deal(self, seed: int | None, dealer: int) -> list[list[int]]:
        """Cards each seat receives, in order, from a seeded shuffle (the same seed deals the same cards)."""
        # Fisher-Yates on random(): fixed by the seed alone, and faster than random.shuffle
        rand = random.Random(seed).random
        deck = list(range(self.size))
        for i in range(self.size - 1, 0, -1):
            j = int(rand() * (i + 1))
            deck[i], deck[j] = deck[j], deck[i]
        return self.deal_in_order(deck, dealer)

    def deal_in_order(self, order: list[int], dealer: int) -> list[list[int]]:
        """The cards each seat receives when the pack, in `order`, is dealt by the schedule from the first hand."""
        hands: list[list[int]] = [[] for _ in range(self.n)]
        pos = 0
        first = self.first_hand(dealer)
        for k in self.schedule:
            if k <= 0:
                continue
            for i in range(self.n):
                hands[(first + i) % self.n].extend(order[pos:pos + k])
                pos += k
        return hands

    def new_hand(self, dealer: int = 0, seed: int | None = None, hands: list[list[int]] | None = None,
                 match_scores: list[int] | None = None) -> State:
        from engine.play.state import State

        return State(self, dealer, hands if hands is not None else self.shuffled_deal(seed, dealer),
                     match_scores)


def load_game(ref: str | Path) -> Game:
    """Load a rule file (shipped name or path) and compile it."""
    from engine.rules.load import load_ruleset

    return Game(load_ruleset(ref), ref)
