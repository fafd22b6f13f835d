"""Worlds a seat cannot tell from the hand it sees: OpenSpiel's `resample_from_infostate`, for any rule file.

Built on the bots' determinization (engine/bots/determinize.py): the cards the seat cannot see are dealt by
`HiddenSlots` (hand sizes, cards played, voids shown and an exposed indicator hold by construction), the cards
still to come are shuffled out to every seat, a concealed trump the seat did not see is drawn uniformly among the
choices the bidder had that agree with the rest, and the public history is replayed on the deal by the engine,
which refuses any deal that makes a past action illegal. A world is kept only if the seat's `View` of it is the
view it was drawn for, field for field, so a resampled state never tells the seat anything it did not know.

Unlike the search bot's worlds (engine/bots/worlds.py), nothing is weighted by a model of the other players:
among the deals that fit, each is drawn with the chances of dealing the hidden cards at random, as OpenSpiel's
IS-MCTS assumes. The seat's own cards keep the order it received them in, when that is known (`own_dealt`).
"""

from __future__ import annotations

import random

from engine.bots.determinize import (
    HiddenSlots,
    Replay,
    _indicator_code,
    cards_before_trump,
    ids_of,
    last_card_order,
    randbelow,
    shuffle,
    unseen_plays,
)
from engine.bots.info import read_view
from engine.bots.meld_fit import MeldFit
from engine.bots.turned_worlds import TurnedCard
from engine.errors import JacknineError
from engine.play.actions import Action
from engine.play.base import PLAY
from engine.play.game import Game
from engine.play.state import State
from engine.play.view import View

ATTEMPTS = 200     # deals drawn before a world is given up (the tests count how rarely a draw fails)
BLANK_TRIES = 4    # cards tried for one play face down the seat did not see, before the deal is given up
BLANK_BUDGET = 16  # cards tried for all such plays of one deal


class WorldDrawer:
    """What stays the same from one world to the next for one view, read once; `draw(rng)` makes a world."""

    def __init__(self, game: Game, view: View, own_dealt: list[int] | None = None) -> None:
        self.game = game
        self.view = view
        seen = self.seen = read_view(game, view)
        me = self.me = view.seat
        n = game.n
        self.replay = Replay(game, seen, fill_blank=True)
        self.slots = HiddenSlots(game, seen)
        self.melds = MeldFit(game, seen)     # melds announced in trick 1 (engine/bots/meld_fit.py)
        self.melds.pin_shown(self.slots)
        bidder = view.bidder if view.bidder is not None else -1
        # the seat that laid the trump face down: the last to choose it (a later round of bidding may have moved
        # the contract), else the bidder
        folder = next((a.seat for a in reversed(view.history) if a.verb == "trump"), bidder)
        self.folder = folder
        # the fold was never shown to this seat (blanked in its history): with the blind cut it stays blanked
        # after the trump opens, so the folder may still hold it in a suit he showed void in while it lay aside
        fold_unseen = any(a.verb == "trump" and a.seat == folder and not a.arg for a in view.history)
        if folder >= 0 and folder != me and (view.trump_concealed or (game.rules.play.blind_cut and fold_unseen)):
            # a seat that did not follow a suit may still hold its face-down card of that suit: its voids are
            # left to the replay to check
            if game.rules.play.blind_cut:   # he plays face down when void: only the fold may break his voids
                self.slots.one_free = folder
            else:
                self.slots.allowed[folder] = self.slots.pool
        own = seen.hand | seen.played_by[me] | (1 << seen.indicator if seen.indicator >= 0 else 0)
        self.own_cards = own
        # a turned card and a stock (engine/play/turned.py): face-up cards go to no hand, the turned card to
        # whoever holds it, and each world deals its own stock (see `_stocked`)
        self.turn = TurnedCard(game, view, self.slots) if game.rules.deal.turn_up else None
        if self.turn is not None and self.turn.exchanger == me:
            own = (own & ~(1 << self.turn.card)) | (1 << self.turn.low)   # the cards as dealt
        self.own_dealt = _relabelled(game, own_dealt, own) if own_dealt is not None else None
        down = unseen_plays(view)
        if any(down):
            self.slots.extra = _face_down_masks(game, view, self.slots.pool)
        received = [seen.played_by[s].bit_count() + view.hand_sizes[s] + down[s] for s in range(n)]
        received[me] = own.bit_count()
        self.future = [game.cards_each - received[s] for s in range(n)]
        if game.stock_size:   # no card is still to come to a hand that the stock does not give
            self.future = [0] * n
        self.shown_by, self.shown_code = _indicator_code(seen)
        self.seventh = any(a.verb == "trump" and a.arg == "seventh" for a in view.history)
        self.last_card = any(a.verb == "trump" and a.arg == "last" for a in view.history)
        self.k_trump = cards_before_trump(game)
        self.trump_suit = view.trump if view.trump is not None and view.trump >= 0 else -1
        fits = sum(self.slots.need) + sum(self.future) == self.slots.pool.bit_count()
        if game.stock_size:   # the cards left over are the stock's unseen ones
            fits = sum(self.slots.need) <= self.slots.pool.bit_count()
        self.blank_rank: dict[int, int] = {}   # history index of a play face down -> its rank among the seat's
        counts = [0] * n
        for i, a in enumerate(self.replay.actions):
            if a is not None and a.verb == "play" and not a.arg:
                self.blank_rank[i] = counts[a.seat]
                counts[a.seat] += 1
        self.budget = BLANK_BUDGET
        self.ok = (self.replay.ok and min(self.future) >= 0 and fits
                   and (own_dealt is None or self.own_dealt is not None))

    def draw(self, rng: random.Random, attempts: int = ATTEMPTS) -> State | None:
        """A full state whose view for the seat is the view given, or None when `attempts` deals all fail."""
        if not self.ok:
            return None
        for _ in range(attempts):
            world = self._try(rng)
            if world is not None:
                return world
        return None

    def _try(self, rng: random.Random) -> State | None:
        game, me = self.game, self.me
        held = self.melds.deal(rng, self.slots, relax_last=False)
        if held is None:
            return None
        taken = 0
        for h in held:
            taken |= h
        rest = ids_of(self.slots.pool & ~taken)
        shuffle(rng, rest)
        dealt: list[list[int]] = []
        pos = 0
        for s in range(game.n):
            cur = self._own_order(rng) if s == me else self._their_order(rng, s, held[s])
            k = self.future[s]
            dealt.append(cur + rest[pos:pos + k])
            pos += k
        stock: list[int] | None = None
        if self.turn is not None:
            dealt, stock = self.turn.deal(rng, dealt, rest[pos:])
            if stock is None:
                return None
        world = self._replay(rng, dealt, held, stock)
        if world is None:
            return None
        return world if world.view(me) == self.view else None

    def _own_order(self, rng: random.Random) -> list[int]:
        if self.own_dealt is not None:
            return list(self.own_dealt)
        seen = self.seen
        cur = ids_of(self.own_cards)
        shuffle(rng, cur)
        if seen.indicator >= 0:     # this seat's own face-down card: first in its deal, or seventh
            cur.remove(seen.indicator)
            cur.insert(6 if self.seventh and len(cur) >= 7 else 0, seen.indicator)
        return cur

    def _their_order(self, rng: random.Random, s: int, held: int) -> list[int]:
        game, seen = self.game, self.seen
        cur = ids_of(seen.played_by[s] | held)
        shuffle(rng, cur)
        if s == self.shown_by:      # an indicator laid from the first cards dealt
            first = next((c for c in game.code_ids[self.shown_code] if cur.count(c)), -1)
            if first >= 0:
                cur.remove(first)
                cur.insert(0, first)
        if s == self.folder and self.seventh and len(cur) >= 7:
            # the seventh card dealt is the indicator: face down (so still held) while the trump is concealed,
            # else a card of the trump suit
            pool = ids_of(held) if self.view.trump_concealed else [
                c for c in cur if game.suit_of[c] == self.trump_suit]
            if pool:
                pick = pool[randbelow(rng, len(pool))]
                cur.remove(pick)
                cur.insert(6, pick)
        if s == self.folder and self.last_card and len(cur) == game.cards_each:
            # `trump last`: the last card dealt to him is of the trump suit (any, while it is hidden from this
            # seat), his first cards of different suits where the rule needs it
            cur = last_card_order(game, rng, cur, self.trump_suit, self.k_trump) or cur
        return cur

    def _replay(self, rng: random.Random, dealt: list[list[int]], held: list[int],
                stock: list[int] | None = None) -> State | None:
        """The public history replayed on the deal, None where the engine refuses it."""
        v = self.view
        self.budget = BLANK_BUDGET
        try:
            state = State(self.game, v.dealer, dealt, list(v.match_scores), match_target=v.match_target,
                          stock=stock or None)
            return self._replay_from(rng, state, 0, held)
        except JacknineError:
            return None

    def _replay_from(self, rng: random.Random, state: State, start: int, held: list[int]) -> State | None:
        """Replay the history from action `start` on. A blanked trump choice tries the bidder's legal choices
        in a random order (named by a card: a card still face down, so one the bidder holds now) and keeps the
        first that the rest of the history agrees with."""
        game = self.game
        replay = self.replay
        for i in range(start, len(replay.actions)):
            a = replay.actions[i]
            if a is None:
                opts = [x for x in state.legal_actions() if x.verb == "trump" and x.arg not in ("seventh", "last")]
                if game.rules.trump.as_card:
                    # a card still face down, or one that went back unseen into the hand (then held or played)
                    b = replay.seats[i]
                    mine = held[b] | self.seen.played_by[b]
                    opts = [x for x in opts if any(mine >> c & 1 for c in game.code_ids[x.arg])]
                while opts:
                    pick = opts.pop(randbelow(rng, len(opts)))
                    world = self._tried(rng, state, i, held, pick=pick)
                    if world is not None:
                        return world
                return None
            if state.to_act != a.seat:
                return None
            if a.verb == "play" and state.phase == PLAY:
                mask = state.card_mask()
                if not a.arg:   # played face down, unseen: the card drawn for it first, then others
                    k = self.blank_rank[i]
                    drawn = self.slots.extra_drawn[a.seat]
                    first = drawn[k] if k < len(drawn) else -1
                    return self._blank_from(rng, state, i, held, mask & ~replay.known_plays[a.seat], first)
                for c in game.code_ids[a.arg]:
                    if mask >> c & 1:
                        state.play_card_id(c)
                        break
                else:
                    return None
            else:
                state.apply(a)
        return state


    def _blank_from(self, rng: random.Random, state: State, i: int, held: list[int], free: int,
                    first: int) -> State | None:
        """The history from action `i`, a play face down the seat did not see: the card drawn for it (`first`)
        if the world's player may play it, then other cards, plain ones where he has one (a trump played face
        down would have been turned up), in a random order, until the rest of the history agrees (at most
        BLANK_TRIES cards for this play, BLANK_BUDGET for the deal)."""
        plain = free & ~state.trump_mask
        cards = ids_of(plain or free)
        if not cards:
            return None
        shuffle(rng, cards)
        if first >= 0 and free >> first & 1:
            if first in cards:
                cards.remove(first)
            cards.insert(0, first)
        for c in cards[:BLANK_TRIES]:
            if self.budget <= 0:
                return None
            self.budget -= 1
            world = self._tried(rng, state, i, held, card=c)
            if world is not None:
                return world
        return None

    def _tried(self, rng: random.Random, state: State, i: int, held: list[int], pick: Action | None = None,
               card: int = -1) -> State | None:
        """A copy of `state` with action `i` taken as `pick` (or as the play of card id `card`), the rest of the
        history replayed on it: the world, if the engine allows every action and the seat's view of it is the
        view drawn for; else None."""
        trial = state.clone()
        try:
            if pick is not None:
                trial.apply(pick)
            else:
                trial.play_card_id(card)
            world = self._replay_from(rng, trial, i + 1, held)
        except JacknineError:
            return None
        return world if world is not None and world.view(self.me) == self.view else None


def _face_down_masks(game: Game, view: View, pool: int) -> list[list[int]]:
    """Per seat, for each card it played face down unseen by the view's seat (in the order played), the cards
    it may have been: none of the suit led, nor of a suit the seat had shown void in before (a void shown later
    says nothing of it)."""
    suits = game.suit_masks
    out: list[list[int]] = [[] for _ in range(game.n)]
    voids = [0] * game.n
    for t in (*view.tricks, view.trick):
        if not t.cards or t.cards[0] < 0:
            continue
        led = game.suit_of[t.cards[0]]
        for s, c in zip(t.seats, t.cards, strict=True):
            if c < 0:
                barred = voids[s] | 1 << led
                out[s].append(pool & ~sum(suits[x] for x in range(game.nsuits) if barred >> x & 1))
            if c < 0 or game.suit_of[c] != led:
                voids[s] |= 1 << led
    out[view.seat] = []
    return out


def _relabelled(game: Game, dealt: list[int], own: int) -> list[int] | None:
    """`dealt` in the card ids the view's reading gave this seat's cards: a double pack's two copies of a card
    look alike, so which copy a seat holds is not something it knows (None: the cards are not `own`)."""
    out: list[int] = []
    left = own
    for c in dealt:
        pick = next((x for x in game.code_ids[game.codes[c]] if left >> x & 1), -1)
        if pick < 0:
            return None
        out.append(pick)
        left ^= 1 << pick
    return out if not left else None


def world_drawer(state: State, seat: int) -> WorldDrawer:
    """The drawer of the worlds `seat` cannot tell from `state` (its own cards in the order it received them)."""
    view = state.view(seat)
    assert isinstance(view, View)
    game = state.game
    assert isinstance(game, Game)   # a state's game is the Game that dealt it (typed by its tables below it)
    return WorldDrawer(game, view, list(state.dealt[seat][:state.given[seat]]))


def resample(state: State, seat: int, rng: random.Random, attempts: int = ATTEMPTS,
             drawer: WorldDrawer | None = None) -> State | None:
    """A world `seat` cannot tell from `state` (its own cards in the order it received them): a drawn one, else
    `state` itself. `drawer`: `world_drawer(state, seat)` made once for several draws (a drawer keeps nothing of
    one draw that the next one reads, so the worlds are those of a fresh drawer)."""
    if drawer is None:
        drawer = world_drawer(state, seat)
    world = drawer.draw(rng, attempts)
    if world is None:
        # every draw failed (a rule combination the drawer fits badly): `state` itself is a world the seat cannot
        # tell from it, so a reachable state always has one (issue 25: the search stopped on an error)
        world = state.clone()
    return world
