"""What the melds announced in trick 1 (rule-file section `combinations`, counted: declared) say about the cards a
seat cannot see, so that the search bots' sampled worlds agree with them (worlds.py draws with it).

An announced meld is public at once by its kind, length and value, its cards once trick 1 is complete:
- shown: its cards not yet played are in the announcer's hand (`must_hold`);
- shown or not, the announcer's cards as dealt held exactly the melds announced - the engine announces the best
  arrangement of a hand's melds (combinations.game_melds), so a world whose hand arranges into other melds (more,
  fewer, longer) would be refused or would score differently;
- not shown yet: each draw first places every announced meld on
  cards the announcer may hold (a suit and a top card for a run, a rank for a set of four, chosen at random among
  those that fit), then deals the rest, and a deal whose arrangement differs from the announcement is dealt again.

Read from the seat's view only. Plain typed Python."""

from __future__ import annotations

import random

from engine.bots.determinize import HiddenSlots, randbelow
from engine.bots.info import Seen
from engine.play.combinations import FOUR_OF_A_KIND, KIND_NAMES, SEQUENCE, game_melds
from engine.play.game import Game

MELD_TRIES = 8     # deals tried for the announced melds before a draw gives up


class MeldFit:
    """Per seat: `must_hold` (cards of shown melds still held), `wanted`, the melds it announced as sorted
    (kind, length, value), and `to_place`, those not shown yet."""

    def __init__(self, game: Game, seen: Seen) -> None:
        self.game = game
        self.seen = seen
        n = game.n
        v = seen.view
        self.must_hold = [0] * n
        self.wanted: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        self.to_place: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        cr = game.rules.combinations
        for m in v.announced:
            if m.seat == v.seat or m.seat >= n or cr is None or m.kind not in KIND_NAMES:
                continue
            meld = (KIND_NAMES.index(m.kind), m.length, m.value)
            self.wanted[m.seat].append(meld)
            if m.cards:
                self.must_hold[m.seat] |= m.cards & seen.unknown
            else:
                self.to_place[m.seat].append(meld)
        for w in self.wanted:
            w.sort()
        self.active = any(self.wanted)

    def pin_shown(self, slots: HiddenSlots) -> None:
        """The shown melds' cards not yet played go to their announcers in every deal."""
        for seat, cards in enumerate(self.must_hold):
            if cards:
                slots.pin(seat, cards)

    def deal(self, rng: random.Random, slots: HiddenSlots, relax_last: bool) -> list[int] | None:
        """`slots.deal`, with every announced meld not yet shown in its announcer's hand: a placement of each is
        pinned for the deal, and a deal whose announcers' cards arrange otherwise is dealt again (MELD_TRIES)."""
        if not self.active:
            return slots.deal(rng, relax_last)
        played_by = self.seen.played_by
        for _ in range(MELD_TRIES):
            pinned = self.place(rng, slots)
            if pinned is None:
                return None
            held = slots.deal(rng, relax_last, pinned)
            if held is None:
                continue
            if all(not self.wanted[s] or self.fits(s, played_by[s] | held[s]) for s in range(len(held))):
                return held
        return None

    def place(self, rng: random.Random, slots: HiddenSlots) -> list[int] | None:
        """Per seat, the cards of one placement of each announced, unshown meld (HiddenSlots.deal's `pinned`),
        chosen at random among those that fit; None when some meld fits nowhere."""
        pinned = [0] * self.game.n
        taken = 0
        for seat, wanted in enumerate(self.to_place):
            for kind, length, value in wanted:
                options = [c for c in self.placements(slots, seat, kind, length, value)
                           if not c & taken & ~pinned[seat]]
                if not options:
                    return None
                pick = options[randbelow(rng, len(options))]
                pinned[seat] |= pick
                taken |= pick
        return pinned

    def placements(self, slots: HiddenSlots, seat: int, kind: int, length: int, value: int) -> list[int]:
        """The card sets a meld of this kind, length and value may lie on in `seat`'s cards as dealt: each card
        either still free for the seat (in the pool, allowed to it) or already its own (played by it, or pinned)."""
        g = self.game
        cr = g.rules.combinations
        assert cr is not None
        may = (slots.allowed[seat] & slots.pool) | slots.fixed[seat] | self.seen.played_by[seat]
        out: list[int] = []
        if kind == FOUR_OF_A_KIND:
            for r, v in enumerate(cr.quads):
                if v != value:
                    continue
                cards = _one_per_suit(g, may & g.rank_masks[r])
                if cards.bit_count() >= length:
                    out.append(cards)
            return out
        if kind != SEQUENCE:
            return out
        places = len(cr.natural)
        for suit in range(g.nsuits):
            held = may & g.suit_masks[suit]
            for top in range(places - length + 1):
                cards = 0
                for place in range(top, top + length):
                    one = held & g.rank_masks[cr.by_place[place]]
                    if not one:
                        cards = -1
                        break
                    cards |= one & -one
                if cards > 0:
                    out.append(cards)
        return out

    def fits(self, seat: int, cards: int) -> bool:
        """Whether `cards` (the seat's cards as dealt) arrange into exactly the melds it announced."""
        got = sorted((m.kind, m.length, m.value) for m in game_melds(self.game, seat, cards))
        return got == self.wanted[seat]


def _one_per_suit(g: Game, cards: int) -> int:
    out = 0
    for s in range(g.nsuits):
        one = cards & g.suit_masks[s]
        out |= one & -one
    return out
