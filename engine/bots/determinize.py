"""Determinization: deal the cards a seat cannot see so that they agree with everything its view shows, and
rebuild a full `State` by replaying the public history on that deal.

Hard constraints (hand sizes, cards played, voids shown, a caller who could not trump, an exposed indicator)
are met by construction; everything else the rules imply (the bidder's trump-lead restriction, compulsory calls,
protected discards, the indicator coming from the first cards) is checked by replaying the history through the
engine, which rejects a deal that would have made a past action illegal."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from engine.bots.info import Seen, has_action
from engine.errors import JacknineError
from engine.play.actions import Action
from engine.play.base import PLAY
from engine.play.game import Game
from engine.play.rules import SEVENTH_CARD, SEVENTH_CARD_INDEX, STEP_TRUMP
from engine.play.state import State
from engine.play.tricks import play_card, play_mask
from engine.play.view import View

if TYPE_CHECKING:
    from engine.bots.turned_worlds import TurnedCard

ATTEMPTS = 6


class Replay:
    """A seat's public history read once per decision, to be replayed on every sampled deal.

    `fill_blank`: a trump choice the seat did not see (`SEAT trump`, its argument blank in the view) is filled in
    per world with the trump that world draws. Without it such a history replays on no world at all: that is what
    the search bot of 0.1 did (its parse refused the blanked action), so every seat but the bidder played as the
    heuristic until the trump was exposed; the `pimc` bot keeps that, its choices being frozen."""

    def __init__(self, game: Game, seen: Seen, fill_blank: bool) -> None:
        v = seen.view
        self.actions: list[Action | None] = []    # None: a blanked trump choice
        self.seats: list[int] = []
        # per seat, the cards seen played: a card played face down unseen (`play` blank) is none of them
        self.known_plays = list(seen.played_by)
        self.ok = deal_accepted(game, v.dealer, v.match_scores)
        for a in v.history:
            if not self.ok:
                break
            if a.verb == "trump" and not a.arg:
                if not fill_blank:
                    self.ok = False
                    break
                self.actions.append(None)
            else:
                self.actions.append(game.intern(a))
            self.seats.append(a.seat)


ACCEPTED_KEPT = 256        # (game, dealer, match scores) answers `deal_accepted` keeps
_ACCEPTED: dict[tuple[int, int, tuple[int, ...]], tuple[Game, bool]] = {}


def deal_accepted(game: Game, dealer: int, match_scores: tuple[int, ...] | list[int]) -> bool:
    """Whether `game` deals a hand with this dealer and these match scores (a view read from outside may say
    anything), answered once per game, dealer and scores: every decision of a hand asks the same."""
    key = (id(game), dealer, tuple(match_scores))
    known = _ACCEPTED.get(key)
    if known is not None and known[0] is game:
        return known[1]
    try:
        game.new_hand(dealer, seed=0, match_scores=list(match_scores))
        ok = True
    except JacknineError:
        ok = False
    if len(_ACCEPTED) >= ACCEPTED_KEPT:
        _ACCEPTED.clear()
    _ACCEPTED[key] = (game, ok)
    return ok


def _indicator_code(seen: Seen) -> tuple[int, str]:
    """(seat, card code) of the indicator card the history shows (laid as a card, and visible to this seat),
    or (-1, '')."""
    ids = seen.game.code_ids
    for a in seen.view.history:
        if a.verb == "trump" and a.arg in ids:
            return a.seat, a.arg
    return -1, ""


def _laid_cards(game: Game, seen: Seen) -> list[tuple[int, int]]:
    """(seat, card id) of every card the history shows laid as a trump by another seat and still unplayed: it is
    in that seat's hand (face down or, after a second auction gave the contract to someone else, back among its
    cards). The seat is the one that laid it, not the current bidder: the two differ once a later round of
    bidding has moved the contract."""
    ids = game.code_ids
    me = seen.view.seat
    out: list[tuple[int, int]] = []
    taken = 0
    for a in seen.view.history:
        if a.verb != "trump" or a.arg not in ids or a.seat == me:
            continue
        if any(seen.played_by[a.seat] >> c & 1 for c in ids[a.arg]):
            continue        # laid, then taken back and played
        free = [c for c in ids[a.arg] if seen.unknown >> c & 1 and not taken >> c & 1]
        if free:
            out.append((a.seat, free[0]))
            taken |= 1 << free[0]
    return out


def _hidden_trump_kind(game: Game, seen: Seen) -> str:
    """'' when nothing about the trump is hidden from this seat, else 'card', 'seventh' or 'suit'."""
    v = seen.view
    if v.trump is not None or v.bidder is None or not v.trump_concealed:
        return ""
    if has_action(v.history, "trump", "seventh"):
        return "seventh"
    return "card" if game.rules.trump.as_card else "suit"


def ids_of(mask: int) -> list[int]:
    """The card ids in a mask, lowest first (engine.cards.card_ids without the generator)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def randbelow(rng: random.Random, n: int) -> int:
    """A whole number in [0, n), n > 0, drawn as `random.Random` draws it (`_randbelow_with_getrandbits`)."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[int]) -> None:
    """`rng.shuffle(x)`, the same draws and the same order, as plain code a compiled build runs natively."""
    for i in range(len(x) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        x[i], x[j] = x[j], x[i]


def sample(rng: random.Random, population: list[int], k: int) -> list[int]:
    """`rng.sample(population, k)` for 0 <= k <= len(population): the same draws and the same result."""
    n = len(population)
    result = [0] * k
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = randbelow(rng, n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for i in range(k):
            j = randbelow(rng, n)
            while j in selected:
                j = randbelow(rng, n)
            selected.add(j)
            result[i] = population[j]
    return result


def _only_free_trumps(game: Game, seen: Seen) -> list[int]:
    """Per seat, the cards it may hold as the plays show under a card never forced (play.obligations.never_forced):
    a seat that did not follow a trump lead holds no trump but those cards (every card where nothing shows it)."""
    full = (1 << game.size) - 1
    out = [full] * game.n
    trump = seen.trump
    if not game.never_forced or trump is None or trump < 0 or seen.view.trump_concealed:
        return out
    suit = game.suit_masks[trump]
    for t in (*seen.view.tricks, seen.view.trick):
        if not _led_suit(game, t.cards, trump):
            continue
        for s, c in zip(t.seats[1:], t.cards[1:], strict=True):
            if c >= 0 and game.suit_of[c] != trump:
                out[s] &= ~suit | game.never_forced
    return out


def _led_suit(game: Game, cards: tuple[int, ...], suit: int) -> bool:
    """The trick was led, face up, in `suit`."""
    return bool(cards) and cards[0] >= 0 and game.suit_of[cards[0]] == suit


def _void_suits(game: Game, voids: int) -> int:
    """The cards of the suits in the mask `voids` (by suit index)."""
    return sum(game.suit_masks[x] for x in range(game.nsuits) if voids >> x & 1)


class HiddenSlots:
    """The cards a seat cannot see and where they may go: a card shown laid as a trump stays with the seat that
    laid it, each other seat gets as many cards as it holds, none of a suit it has shown void in."""

    def __init__(self, game: Game, seen: Seen) -> None:
        v = seen.view
        n = game.n
        fixed = [0] * n
        laid = 0
        for seat, card in _laid_cards(game, seen):
            fixed[seat] |= 1 << card
            laid |= 1 << card
        for s in range(n):   # hands lying face up stay where they are
            fixed[s] |= seen.exposed[s]
        self.fixed = fixed
        self.pool = seen.unknown & ~laid
        down = unseen_plays(v)
        need = [max(0, v.hand_sizes[s] + down[s] - fixed[s].bit_count()) for s in range(n)]
        need[v.seat] = 0
        self.need = need
        self.allowed = [self.pool & ~_void_suits(game, seen.voids[s]) for s in range(n)]
        self.dealt_to = [s for s in range(n) if need[s]]
        for s, cards in enumerate(_only_free_trumps(game, seen)):
            self.allowed[s] &= cards
        # a seat that may hold one card of a suit it showed void in (a concealed folded card, with the blind
        # cut): that card is drawn from the whole pool first (-1: none)
        self.one_free = -1
        # per seat, a mask for each card it played face down unseen (a card of none of the suits it had shown
        # void in by then, nor of the suit led): such a card may be of a suit it showed void in later. Each is
        # drawn from its mask first, and `extra_drawn` says which card each one was in the last deal.
        self.extra: list[list[int]] = [[] for _ in range(n)]
        self.extra_drawn: list[list[int]] = [[] for _ in range(n)]

    def pin(self, seat: int, cards: int) -> None:
        """`cards` (unseen, in the pool) are known to be in `seat`'s hand: they go there in every deal."""
        cards &= self.pool
        if not cards or seat not in self.dealt_to:
            return
        self.fixed[seat] |= cards
        self.pool &= ~cards
        self.need[seat] = max(0, self.need[seat] - cards.bit_count())
        for s in range(len(self.allowed)):
            self.allowed[s] &= ~cards
        self.dealt_to = [s for s in self.dealt_to if self.need[s]]

    def limit(self, seat: int, cards: int) -> None:
        """`seat`'s hidden cards are among `cards`."""
        self.allowed[seat] &= cards

    def set_aside(self, cards: int) -> None:
        """`cards` (unseen by the seat's reading, but lying face up on the table) go to no hand."""
        cards &= self.pool
        self.pool &= ~cards
        for s in range(len(self.allowed)):
            self.allowed[s] &= ~cards

    def deal(self, rng: random.Random, relax_last: bool, pinned: list[int] | None = None) -> list[int] | None:
        """The cards each other seat holds now (masks; the seat's own entry empty), the most constrained seat dealt
        first; None when ATTEMPTS tries fail. `relax_last`: the last try ignores voids rather than fail.
        `pinned`: per seat, cards of the pool placed in its hand for this deal only (meld_fit.py)."""
        need, allowed, pool, fixed, dealt_to = self.need, self.allowed, self.pool, self.fixed, self.dealt_to
        if pinned is not None:
            need, allowed, pool, fixed, dealt_to = self._with_pinned(pinned)
        for attempt in range(ATTEMPTS):
            relax = relax_last and attempt == ATTEMPTS - 1
            out = list(fixed)
            taken = [0] * len(need)
            left = self._draw_fixed(rng, pool, out, taken, need)
            if left >= 0 and self._draw_rest(rng, left, out, taken, need, allowed, dealt_to, relax):
                return out
        return None

    def _with_pinned(self, pinned: list[int]) -> tuple[list[int], list[int], int, list[int], list[int]]:
        """(need, allowed, pool, fixed, dealt_to) with `pinned` cards of the pool placed in their seats' hands
        (the lowest ones a seat still needs)."""
        placed = 0
        fixed = list(self.fixed)
        need = list(self.need)
        pool = self.pool
        for s in range(len(pinned)):
            p = pinned[s] & pool & ~placed
            if p and need[s]:
                p = _lowest(p, need[s])
                fixed[s] |= p
                need[s] -= p.bit_count()
                placed |= p
        allowed = [a & ~placed for a in self.allowed]
        return need, allowed, pool & ~placed, fixed, [s for s in self.dealt_to if need[s]]

    def _draw_fixed(self, rng: random.Random, left: int, out: list[int], taken: list[int], need: list[int]) -> int:
        """The draws the history dictates first: the seat with one free card, then one card of each mask in
        `extra` (recorded in extra_drawn); the pool left (-1: a mask found no card)."""
        free = self.one_free
        if free >= 0 and need[free] > len(self.extra[free]) and left:
            pick = sample(rng, ids_of(left), 1)[0]
            out[free] |= 1 << pick
            left ^= 1 << pick
            taken[free] = 1
        for s, masks in enumerate(self.extra):
            drawn = self.extra_drawn[s] = []
            for m in masks:
                cand = ids_of(left & m)
                if not cand or taken[s] >= need[s]:
                    return -1
                c = cand[randbelow(rng, len(cand))]
                out[s] |= 1 << c
                left ^= 1 << c
                taken[s] += 1
                drawn.append(c)
        return left

    def _draw_rest(self, rng: random.Random, left: int, out: list[int], taken: list[int], need: list[int],
                   allowed: list[int], dealt_to: list[int], relax: bool) -> bool:
        """Each seat's remaining cards, the most constrained seat first (False: one has too few candidates)."""
        order = sorted(dealt_to, key=lambda s: ((allowed[s] & left).bit_count() - need[s], rng.random()))
        for s in order:
            cand = ids_of(left if relax else allowed[s] & left)
            k = need[s] - taken[s]
            if len(cand) < k:
                return False
            for c in sample(rng, cand, k):
                out[s] |= 1 << c
                left ^= 1 << c
        return True


def _lowest(cards: int, k: int) -> int:
    """The k lowest card ids of `cards` (all of them when fewer)."""
    out = 0
    while cards and k > 0:
        low = cards & -cards
        out |= low
        cards ^= low
        k -= 1
    return out


class WorldMaker:
    """What does not change from one sampled world to the next within a decision, read once; `make(rng)` then
    draws a world. The generator is called exactly as 0.1's determinization called it (the `pimc` golden choices
    depend on it)."""

    def __init__(self, game: Game, seen: Seen, replay: Replay | None = None) -> None:
        self.game = game
        self.seen = seen
        v = seen.view
        self.replay = replay if replay is not None else Replay(game, seen, fill_blank=False)
        self.slots = HiddenSlots(game, seen)
        from engine.bots.meld_fit import MeldFit
        self.melds = MeldFit(game, seen)     # melds announced in trick 1 (none: the draws of before)
        self.melds.pin_shown(self.slots)
        self.kind = _hidden_trump_kind(game, seen)
        self.shown_by, self.shown_code = _indicator_code(seen)
        self.own_seventh = has_action(v.history, "trump", "seventh")
        # `trump last`: the suit of the last card dealt to its sayer is trumps; his deal order must make it so
        self.last_by = -1
        for a in v.history:
            if a.verb == "trump" and a.arg == "last":
                self.last_by = a.seat
        self.k_trump = cards_before_trump(game)
        self.turn: TurnedCard | None = None
        if game.rules.deal.turn_up:   # a turned card and a stock: each world deals its own (turned_worlds.py)
            from engine.bots.turned_worlds import TurnedCard as Turned
            self.turn = Turned(game, v, self.slots)

    def deal(self, rng: random.Random) -> list[int] | None:
        """Hidden cards per seat (masks; this seat's entry is its own hand), or None if no deal fits."""
        out = self.melds.deal(rng, self.slots, relax_last=True)
        if out is not None:
            out[self.seen.view.seat] = self.seen.hand
        return out

    def make(self, rng: random.Random) -> State | None:
        """One full state consistent with the seat's view, or None when the sampled deal failed to replay."""
        game, seen = self.game, self.seen
        v = seen.view
        hidden = self.deal(rng)
        if hidden is None:
            return None
        first_of, seventh_of = self._indicator_places(hidden)
        blank = self._hidden_trump(rng, hidden, first_of, seventh_of) if self.kind else ""
        dealt = []
        for s in range(game.n):
            cards = self._deal_order(rng, s, hidden[s], first_of, seventh_of)
            if cards is None:
                return None
            dealt.append(cards)
        stock: list[int] | None = None
        if self.turn is not None:
            taken = 0
            for h in hidden:
                taken |= h
            dealt, stock = self.turn.deal(rng, dealt, ids_of(self.slots.pool & ~taken))
            if stock is None:
                return None
        return replay_on(game, v.dealer, dealt, self.replay, list(v.match_scores), blank, v.seat, stock)


    def _indicator_places(self, hidden: list[int]) -> tuple[dict[int, int], dict[int, int]]:
        """(the card that must come first in a seat's deal order, the card that must come seventh): an indicator
        laid from the first cards dealt goes first in that seat's deal; this seat's own, seventh where it was
        the seventh card."""
        game, seen = self.game, self.seen
        v = seen.view
        first_of: dict[int, int] = {}
        seventh_of: dict[int, int] = {}
        shown_by, code = self.shown_by, self.shown_code
        if shown_by >= 0:
            mine = seen.played_by[shown_by] | hidden[shown_by]
            first_of[shown_by] = next((c for c in game.code_ids[code] if mine >> c & 1), game.code_ids[code][0])
        if seen.indicator >= 0:
            first_of[v.seat] = seen.indicator
            if self.own_seventh:
                seventh_of[v.seat] = first_of.pop(v.seat)
        return first_of, seventh_of

    def _hidden_trump(self, rng: random.Random, hidden: list[int], first_of: dict[int, int],
                      seventh_of: dict[int, int]) -> str:
        """The bidder's concealed trump in this world, drawn by its weight in his hidden cards: the suit named
        (kind "suit"), or his highest card of a drawn suit laid first ("card") or dealt seventh. Returns the
        blanked choice as the world fills it in ('' for none)."""
        game = self.game
        v = self.seen.view
        bidder = v.bidder if v.bidder is not None else -1
        held = hidden[bidder]
        weights = _trump_weights(game, held)
        if self.kind == "suit":
            suit = rng.choices(range(game.nsuits), weights=[w + 0.5 for w in weights])[0]
            return game.layout.suits[suit]
        if not held:
            return ""
        suit = rng.choices(range(game.nsuits), weights=weights)[0]
        ind = max(ids_of(held & game.suit_masks[suit]), key=lambda c: game.rank_of[c])
        if self.kind == "card":
            first_of[bidder] = ind
            return game.codes[ind]
        seventh_of[bidder] = ind
        return ""

    def _deal_order(self, rng: random.Random, s: int, hidden: int, first_of: dict[int, int],
                    seventh_of: dict[int, int]) -> list[int] | None:
        """Seat `s`'s cards in a drawn dealing order, with the cards whose place the history fixes in it (None
        when `trump last` finds no order)."""
        game, seen = self.game, self.seen
        own_indicator = 1 << seen.indicator if s == seen.view.seat and seen.indicator >= 0 else 0
        cards = ids_of(seen.played_by[s] | hidden | own_indicator)
        shuffle(rng, cards)
        if s in first_of:
            cards.remove(first_of[s])
            cards.insert(0, first_of[s])
        if s in seventh_of and len(cards) >= SEVENTH_CARD:
            cards.remove(seventh_of[s])
            cards.insert(SEVENTH_CARD_INDEX, seventh_of[s])
        if s == self.last_by and len(cards) == game.cards_each:
            return self._last_order(rng, cards) or None
        return cards

    def _last_order(self, rng: random.Random, cards: list[int]) -> list[int]:
        v = self.seen.view
        return last_card_order(self.game, rng, cards, v.trump if v.trump is not None else -1, self.k_trump)


def cards_before_trump(game: Game) -> int:
    """How many cards each seat holds at the trump step (all of them if the schedule has none)."""
    k = 0
    for code in game.rules.schedule:
        if code == STEP_TRUMP:
            return k
        if code > 0:
            k += code
    return game.cards_each


def last_card_order(game: Game, rng: random.Random, cards: list[int], known: int, k: int) -> list[int]:
    """The cards of the seat that said `trump last` in a dealing order that names the trump `known` (any suit
    when -1: hidden from the seat drawing), its first `k` cards of different suits where the rule needs it ([]
    when no order does)."""
    distinct = game.rules.trump.last_card_needs_distinct_suits
    options = [c for c in cards if known < 0 or game.suit_of[c] == known]
    shuffle(rng, options)
    for last in options:
        rest = [c for c in cards if c != last]
        shuffle(rng, rest)
        if not distinct:
            return rest + [last]
        front = distinct_front(game, rest, k)
        if len(front) == k:
            return front + [c for c in rest if c not in front] + [last]
    return []


def distinct_front(game: Game, cards: list[int], k: int) -> list[int]:
    """The first cards of `cards`, in order, of suits not yet among them (at most `k`)."""
    front: list[int] = []
    suits = 0
    for c in cards:
        if len(front) < k and not suits >> game.suit_of[c] & 1:
            front.append(c)
            suits |= 1 << game.suit_of[c]
    return front


def _trump_weights(game: Game, hand: int) -> list[float]:
    """How likely a bidder holding `hand` named each suit: long suits with the top cards."""
    out = []
    for s in range(game.nsuits):
        m = hand & game.suit_masks[s]
        top = sum(1 for c in ids_of(m) if game.rank_of[c] <= 1)
        out.append(float(m.bit_count() ** 2 + 2 * top) if m else 0.0)
    return out


def build_world(game: Game, seen: Seen, rng: random.Random, replay: Replay | None = None) -> State | None:
    """One full state consistent with the seat's view, or None when the sampled deal failed to replay. `replay`:
    the history read once for this decision (default: read now, as the search bot of 0.1 read it)."""
    return WorldMaker(game, seen, replay).make(rng)


def deals_whole_pack(game: Game, dealt: list[list[int]]) -> bool:
    """What `Game.check_hands` accepts, for lists of card ids made from masks: each seat its share, each card once."""
    if len(dealt) != game.n:
        return False
    seen = 0
    for cards in dealt:
        if len(cards) != game.cards_each:
            return False
        for c in cards:
            seen |= 1 << c
    return seen.bit_count() == game.n * game.cards_each and seen >> game.size == 0


def replay_on(game: Game, dealer: int, dealt: list[list[int]], replay: Replay, match_scores: list[int],
              blank: str, seat: int, stock: list[int] | None = None) -> State | None:
    """The state after the history on this deal, or None where the deal makes an action of it illegal. Card plays
    are checked against the playable-card mask and played by id (what `apply` does, without building the legal
    actions); everything else goes through `apply`."""
    if not replay.ok or (stock is None and not deals_whole_pack(game, dealt)):
        return None
    try:
        state = State(game, dealer, dealt, match_scores, stock=stock or None)
        for i, a in enumerate(replay.actions):
            if a is None:
                if not blank:
                    return None
                a = game.action(replay.seats[i], "trump", blank)
            if state.to_act != a.seat:
                return None
            if a.verb == "play" and state.phase == PLAY:
                if not replay_card(state, a, replay.known_plays[a.seat]):
                    return None
            else:
                state.apply(a)
    except JacknineError:
        return None
    return state if state.to_act == seat else None


def replay_card(state: State, a: Action, known: int) -> bool:
    """A card play of the history on this world, by id (False: no copy of it is playable; a play the seat did not
    see is a card the world's seat may play, `known`: the cards it is seen to play)."""
    mask = play_mask(state)
    if not a.arg:
        c = blank_play(state, mask, known)
        if c < 0:
            return False
        play_card(state, a.seat, c)
        return True
    for c in state.game.code_ids.get(a.arg, ()):
        if mask >> c & 1:
            play_card(state, a.seat, c)
            return True
    return False


def unseen_plays(view: View) -> list[int]:
    """Per seat, the cards it played face down that the view's seat did not see (the blind cut)."""
    out = [0] * view.players
    for t in (*view.tricks, view.trick):
        for s, c in zip(t.seats, t.cards, strict=True):
            if c < 0:
                out[s] += 1
    return out


def blank_play(state: State, mask: int, known: int) -> int:
    """A card for a play the seat did not see (face down): one the world's seat may play and is not seen to play,
    a plain card where there is one (a face-down trump would have been turned up); -1 when none."""
    free = mask & ~known
    plain = free & ~state.trump_mask
    pick = plain or free
    if not pick:
        return -1
    low = pick & -pick
    return low.bit_length() - 1
