"""The per-step work of the learning environments (engine.rl), without numpy and compiled with the hot path
(setup.py): hands stepped by action index, each seat's observation kept as a float32 row of one flat `array('f')`
and the legal mask as int8 bytes of an `array('b')`, which the environments view with numpy without copying.

A row is brought up to date by writing only the positions that differ from what it last held (`Rows.update`): the
observation's parts are recomputed from the state's bitmasks (own cards, cards played, the trick, the indicator,
hands lying face up) and its few one-hot and value positions (trump, phase, bidder, seat to act, contract, card
points, bids), each compared with the row's record of it, so a card played writes a handful of floats and a bid a
few more, and nothing is encoded whole (a card played face down that not everyone saw is the exception: that row is
the view's encoding, written whole). The mask is kept the same way, from the legal action indices as bits.
`EnvCore` steps the one hand of the AEC environment (engine/rl/aec.py), `VectorCore` the N hands of the vectorised
one (engine/rl/vector.py). tests/test_rl_fast.py and tests/test_rl_vector.py hold every row equal to the whole
encoding (`Observation.encode_state`) and every mask equal to the legal actions, at every step of every shipped file."""

from __future__ import annotations

import random
from array import array

from engine.adapters.encoding import ActionSpace, Observation, best_other, canonical
from engine.play.base import PLAY, UNDECIDED
from engine.play.game import Game
from engine.play.state import State

ILLEGAL = -1       # `EnvCore.step`: the action is not legal now (nothing changed)
TRICK_ENDED = 1    # `EnvCore.step` flags: the action ended a trick ...
HAND_ENDED = 2     # ... or the hand


class Layout:
    """What the environments of one game share: the action space, the observation's layout, each index's bid."""

    def __init__(self, game: Game, space: ActionSpace, obs: Observation) -> None:
        self.game = game
        self.space = space
        self.obs = obs
        self.n_actions = len(space.names)
        play = space.card_index
        # a single pack's play indices follow the card ids from play0 (-1: they do not)
        self.play0 = play[0] if game.layout.copies == 1 and play == list(range(play[0], play[0] + game.size)) else -1
        self.bid_value = [-1] * len(space.names)
        for i, name in enumerate(space.names):
            parts = name.split()
            if parts[0] == "bid":
                self.bid_value[i] = int(parts[1])


class Rows:
    """`count` observation rows as float32 in one flat array (`buf`, row r at r * size), each with a record of what
    it holds, so that `update` writes only what changed (see the module's documentation)."""

    def __init__(self, obs: Observation, count: int) -> None:
        g = obs.game
        self.ob = obs
        self.game = g
        self.count = count
        self.size = obs.size
        self.n = g.n
        self.csize = g.size
        self.copies = g.layout.copies
        self.first_mask = g.first_copy_mask
        self.nsuits = g.nsuits
        self.exposes = obs.exposes
        self.e0 = obs.offsets["exposed"] if obs.exposes else 0
        self.buf = array("f", bytes(4 * obs.size * count))
        self.zero = array("f", bytes(4 * obs.size))
        # what each row holds: its card parts as bits, its one-hot positions (trump, phase, bidder, to act; four a
        # row) and its values (contract bid, target, multiplier, concealed, card points mine and theirs, then one
        # bid per relative seat: 6 + n a row); `exact` false while a row holds something written whole
        self.hand = [0] * count
        self.played = [0] * count
        self.trick = [0] * count
        self.indicator = [0] * count
        self.exposed = [0] * count
        self.hot = [0] * (4 * count)
        self.nvals = 6 + g.n
        self.vals = [0.0] * (self.nvals * count)
        self.exact = [False] * count
        # what the trump, phase, bidder and contract parts were written from, and the bids (skipped when unmoved)
        self.sig: list[tuple[int, int, int, int, int, int, bool, int]] = [(0, 0, 0, 0, 0, 0, False, 0)] * count
        self.bids: list[list[int]] = [[] for _ in range(count)]
        for r in range(count):
            self._clear(r)

    def _clear(self, r: int) -> None:
        """Row r all zeros, its record saying so (-1: no one-hot position set)."""
        size = self.size
        self.buf[r * size:(r + 1) * size] = self.zero
        self.hand[r] = 0
        self.played[r] = 0
        self.trick[r] = 0
        self.indicator[r] = 0
        self.exposed[r] = 0
        for k in range(4):
            self.hot[4 * r + k] = -1
        for k in range(self.nvals):
            self.vals[self.nvals * r + k] = 0.0
        self.sig[r] = (-9, 0, 0, 0, 0, 0, False, 0)       # no state has trump -9: the next update writes them
        self.bids[r] = []
        self.exact[r] = True

    def _bits(self, base: int, old: int, new: int) -> None:
        """Write the bits that differ between `old` and `new` (1.0 or 0.0) from position `base` of the buffer."""
        diff = old ^ new
        buf = self.buf
        while diff:
            low = diff & -diff
            i = low.bit_length() - 1
            buf[base + i] = 1.0 if new >> i & 1 else 0.0
            diff ^= low

    def _hot(self, base: int, k: int, pos: int) -> None:
        """One-hot k of the row at `base` (its record at index k of `hot`) moves to `pos`."""
        old = self.hot[k]
        if old != pos:
            if old >= 0:
                self.buf[base + old] = 0.0
            self.buf[base + pos] = 1.0
            self.hot[k] = pos

    def _val(self, base: int, k: int, pos: int, value: float) -> None:
        if self.vals[k] != value:
            self.vals[k] = value
            self.buf[base + pos] = value

    def update(self, r: int, st: State, seat: int, bids: list[int]) -> None:
        """Row r becomes the observation of `seat` in `st` (`bids`: each seat's last bid value, -1 for none):
        `Observation.encode_state(st, seat, bids)`, written where it differs from what the row held."""
        ob = self.ob
        size = self.size
        base = r * size
        if st.face_down or st.hidden:
            # cards played face down (the blind cut): what the seat saw of them is the view's to say
            self.buf[base:base + size] = array("f", ob.encode(st.view(seat)))
            self.exact[r] = False
            return
        if not self.exact[r]:
            self._clear(r)
        n = self.n
        csize = self.csize
        copies = self.copies
        fmask = self.first_mask
        hands = st.hands
        fc = ob.first_copy
        # the cards
        hand = canonical(hands[seat], copies, fmask)
        if hand != self.hand[r]:
            self._bits(base + ob.o_hand, self.hand[r], hand)
            self.hand[r] = hand
        trick = 0
        trick_mask = 0
        cards = st.trick_cards
        seats = st.trick_seats
        for i in range(len(cards)):
            c = cards[i]
            trick |= 1 << ((seats[i] - seat) % n * csize + fc[c])
            trick_mask |= 1 << c
        if trick != self.trick[r]:
            self._bits(base + ob.o_trick, self.trick[r], trick)
            self.trick[r] = trick
        received = st.received
        played = 0
        for s in range(n):
            played |= received[s] & ~hands[s]
        concealed = st.concealed
        indicator = st.indicator if concealed else -1
        shown = 0
        if indicator >= 0:
            played &= ~(1 << indicator)
            if seat == st.folder:
                shown = 1 << fc[indicator]
        if shown != self.indicator[r]:
            self._bits(base + ob.o_indicator, self.indicator[r], shown)
            self.indicator[r] = shown
        played = canonical(played & ~trick_mask, copies, fmask)
        if played != self.played[r]:
            self._bits(base + ob.o_played, self.played[r], played)
            self.played[r] = played
        if self.exposes:
            exposed = 0
            if st.exposed:
                for s in range(n):
                    if s != seat and st.exposed >> s & 1:
                        exposed |= canonical(hands[s], copies, fmask) << ((s - seat) % n * csize)
            if exposed != self.exposed[r]:
                self._bits(base + self.e0, self.exposed[r], exposed)
                self.exposed[r] = exposed
        h = 4 * r
        v = self.nvals * r
        to_act = st.to_act
        self._hot(base, h + 3, ob.o_to_act + ((to_act - seat) % n if to_act >= 0 else n))
        bidder = st.bidder
        top = ob.top
        sig = (st.trump, st.phase, bidder, st.bid, st.target, st.multiplier, concealed, st.folder)
        if sig != self.sig[r]:
            self.sig[r] = sig
            t = st.trump
            if t == UNDECIDED or (concealed and seat != st.folder):
                self._hot(base, h, ob.o_trump + self.nsuits + 1)
            elif t < 0:
                self._hot(base, h, ob.o_trump + self.nsuits)
            else:
                self._hot(base, h, ob.o_trump + t)
            self._hot(base, h + 1, ob.o_phase + st.phase)
            self._hot(base, h + 2, ob.o_bidder + ((bidder - seat) % n if bidder >= 0 else n))
            c0 = ob.o_contract
            self._val(base, v, c0, st.bid / top if bidder >= 0 else 0.0)
            self._val(base, v + 1, c0 + 1, st.target / top if bidder >= 0 else 0.0)
            self._val(base, v + 2, c0 + 2, st.multiplier / 8.0)
            self._val(base, v + 3, c0 + 3, 1.0 if concealed else 0.0)
        pts = st.team_points
        mine = st.hand_team_of[seat]
        cp = ob.o_card_points
        self._val(base, v + 4, cp, pts[mine] / ob.total)
        self._val(base, v + 5, cp + 1, best_other(pts, mine) / ob.total)
        if bids != self.bids[r]:
            self.bids[r] = list(bids)
            b0 = ob.o_bids
            for s in range(n):
                b = bids[s]
                k = (s - seat) % n
                self._val(base, v + 6 + k, b0 + k, b / top if b > 0 else 0.0)


class Masks:
    """`count` legal-action masks as int8 in one flat array (`buf`, mask r at r * width), each with the bits it
    holds, so that `set` writes only the indices that changed."""

    def __init__(self, width: int, count: int) -> None:
        self.width = width
        self.buf = array("b", bytes(width * count))
        self.bits = [0] * count

    def set(self, r: int, bits: int) -> None:
        old = self.bits[r]
        if old == bits:
            return
        self.bits[r] = bits
        base = r * self.width
        buf = self.buf
        diff = old ^ bits
        while diff:
            low = diff & -diff
            i = low.bit_length() - 1
            buf[base + i] = 1 if bits >> i & 1 else 0
            diff ^= low


def legal_bits(lay: Layout, st: State) -> int:
    """The legal action indices of the seat to act, as bits (in the play phase of a single pack read from the
    playable-card bits)."""
    out = 0
    if st.phase == PLAY and lay.play0 >= 0:
        for a in st.other_actions():
            out |= 1 << lay.space.of(a)
        return out | st.card_mask() << lay.play0
    for i in lay.space.legal_fast(st):
        out |= 1 << i
    return out


def apply_index(lay: Layout, st: State, index: int, bids: list[int]) -> None:
    """Apply the legal action `index` (the caller checked it) for the seat to act, noting a bid in `bids`."""
    if st.phase == PLAY and lay.play0 >= 0:
        c = index - lay.play0
        if 0 <= c < lay.game.size:
            st.play_card_id(c)
            return
    b = lay.bid_value[index]
    if b >= 0:
        bids[st.to_act] = b
    lay.space.apply(st, index)


class EnvCore:
    """The hand of the AEC environment: every seat's observation row (`rows`, brought up to date when observed)
    and the mask of the seat to act (`masks`, one row), stepped by action index."""

    def __init__(self, layout: Layout, state: State) -> None:
        self.lay = layout
        n = layout.game.n
        self.rows = Rows(layout.obs, n)
        self.masks = Masks(layout.n_actions, 1)
        self.state = state
        self.bids = [-1] * n
        self.tricks = 0
        self.start(state)

    def start(self, state: State) -> None:
        """A new hand (to act or over): the bids start empty, the mask is that of its seat to act."""
        self.state = state
        self.bids = [-1] * self.lay.game.n
        self.tricks = len(state.tricks)
        self.masks.set(0, legal_bits(self.lay, state) if state.to_act >= 0 else 0)

    def legal(self, index: int) -> bool:
        return 0 <= index < self.lay.n_actions and self.masks.bits[0] >> index & 1 == 1

    def step(self, index: int) -> int:
        """Apply `index` for the seat to act: ILLEGAL (nothing changed) unless it is one of the legal indices; else
        the flags TRICK_ENDED and HAND_ENDED of what it did (0: neither). The mask follows the new seat to act
        (all zeros once the hand is over)."""
        if not self.legal(index):
            return ILLEGAL
        st = self.state
        apply_index(self.lay, st, index, self.bids)
        flags = 0
        if len(st.tricks) > self.tricks:
            self.tricks = len(st.tricks)
            flags = TRICK_ENDED
        if st.to_act < 0:
            self.masks.set(0, 0)
            return flags | HAND_ENDED
        self.masks.set(0, legal_bits(self.lay, st))
        return flags

    def observe(self, seat: int) -> None:
        """Bring the seat's row (row `seat` of `rows`) up to date."""
        self.rows.update(seat, self.state, seat, self.bids)


class VectorCore:
    """N hands, hand i dealt one after another from its own seeded stream (`seeds[i]`; the dealer fixed or drawn
    from it). Row i * n + s of `rows` is seat s of hand i; `at[i]` is the row of hand i's seat to act, `seats[i]`
    that seat, row i of `masks` its legal mask; after a step, `rewards` (n per hand) holds the game points of each
    seat whose hand ended with it (0 elsewhere, and for an annulled hand) and `dones[i]` whether hand i ended."""

    def __init__(self, layout: Layout, seeds: list[int], dealer: int = -1) -> None:
        self.lay = layout
        g = layout.game
        self.game = g
        self.n = g.n
        count = len(seeds)
        self.count = count
        self.dealer = dealer
        self.rngs = [random.Random(s) for s in seeds]
        self.rows = Rows(layout.obs, count * g.n)
        self.masks = Masks(layout.n_actions, count)
        self.at = array("q", bytes(8 * count))
        self.seats = array("q", bytes(8 * count))
        self.rewards = array("f", bytes(4 * count * g.n))
        self.dones = array("b", bytes(count))
        self.ended: list[int] = []
        self.bids: list[list[int]] = [[] for _ in range(count)]
        self.states = [self._deal(i) for i in range(count)]
        for i in range(count):
            self._show(i)

    def _deal(self, i: int) -> State:
        """Hand i's next deal, dealt again until someone has a decision (a deal annulled at once)."""
        g = self.game
        rng = self.rngs[i]
        while True:
            dealer = self.dealer if self.dealer >= 0 else rng.randrange(g.n)
            st = g.new_hand(dealer, seed=rng.getrandbits(48))
            if st.to_act >= 0:
                break
        self.bids[i] = [-1] * g.n
        return st

    def _show(self, i: int) -> None:
        """Hand i's observation and mask of its seat to act, up to date."""
        st = self.states[i]
        seat = st.to_act
        r = i * self.n + seat
        self.rows.update(r, st, seat, self.bids[i])
        self.masks.set(i, legal_bits(self.lay, st))
        self.at[i] = r
        self.seats[i] = seat

    def first_illegal(self, actions: list[int]) -> int:
        """The first hand whose action is not one of its legal indices (-1: every one is)."""
        bits = self.masks.bits
        n_actions = self.lay.n_actions
        for i in range(self.count):
            a = actions[i]
            if not 0 <= a < n_actions or not bits[i] >> a & 1:
                return i
        return -1

    def step(self, actions: list[int]) -> int:
        """Apply each hand's action (legal: `first_illegal` said so); a hand that ends is dealt again at once. The
        number of hands that ended."""
        n = self.n
        for i in self.ended:
            self.dones[i] = 0
            for s in range(n):
                self.rewards[i * n + s] = 0.0
        self.ended = []
        lay = self.lay
        for i in range(self.count):
            st = self.states[i]
            apply_index(lay, st, actions[i], self.bids[i])
            if st.to_act < 0:
                gp = st.game_points
                team_of = st.hand_team_of
                for s in range(n):
                    self.rewards[i * n + s] = float(gp[team_of[s]])
                self.dones[i] = 1
                self.ended.append(i)
                self.states[i] = self._deal(i)
            self._show(i)
        return len(self.ended)
