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


class RowState:
    """What one observation row holds, field by field (native ints and floats: an update compares them and writes
    only what moved)."""

    def __init__(self, n: int) -> None:
        self.exact = False          # false while the row holds nothing known (new) or something written whole
        self.hand = 0               # the bits of the hand part, played part
        self.played = 0
        self.indicator = -1         # the position set in the indicator part (-1: none)
        self.trick = [-1] * n       # per relative seat: the position set in its block of the trick part (-1: none)
        self.exposed = [0] * n      # per relative seat: the bits of its block of the exposed part
        self.hot_trump = -1         # the positions set in the one-hot parts (-1: none)
        self.hot_phase = -1
        self.hot_bidder = -1
        self.hot_to_act = -1
        # what the trump, phase, bidder and contract parts were written from
        self.trump = -99
        self.phase = -1
        self.bidder = -99
        self.bid = 0
        self.target = 0
        self.multiplier = 0
        self.concealed = False
        self.folder = -99
        self.mine = 0.0             # the card points written (mine, theirs)
        self.theirs = 0.0
        self.bids = [0.0] * n       # the bids written, per relative seat
        self.hot_mode = -1          # the trump mode part (trump.modes, trump.suit_multipliers): its one-hot position
        self.mode_value = 0.0       # and the multiplier written


class Rows:
    """`count` observation rows as float32 in one flat array (`buf`, row r at r * size), each with a record of what
    it holds (`RowState`), so that `update` writes only what changed (see the module's documentation)."""

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
        self.modes = obs.modes
        self.m0 = obs.offsets["trump_mode"] if obs.modes >= 0 else 0
        self.buf = array("f", bytes(4 * obs.size * count))
        self.zero = array("f", bytes(4 * obs.size))
        self.recs = [RowState(g.n) for _ in range(count)]
        self.now = [-1] * g.n       # scratch: the trick positions now, per relative seat

    def _clear(self, r: int) -> None:
        """Row r all zeros, its record saying so."""
        size = self.size
        self.buf[r * size:(r + 1) * size] = self.zero
        rec = RowState(self.n)
        rec.exact = True
        rec.bid = rec.target = rec.multiplier = 0
        self.recs[r] = rec

    def _bits(self, base: int, old: int, new: int) -> None:
        """Write the bits that differ between `old` and `new` (1.0 or 0.0) from position `base` of the buffer."""
        diff = old ^ new
        buf = self.buf
        while diff:
            low = diff & -diff
            i = low.bit_length() - 1
            buf[base + i] = 1.0 if new >> i & 1 else 0.0
            diff ^= low

    def _move(self, base: int, old: int, new: int) -> None:
        """A one-hot position moves from `old` to `new` (-1: none) in the row at `base`."""
        if old >= 0:
            self.buf[base + old] = 0.0
        if new >= 0:
            self.buf[base + new] = 1.0

    def update(self, r: int, st: State, seat: int, bids: list[int]) -> None:
        """Row r becomes the observation of `seat` in `st` (`bids`: each seat's last bid value, -1 for none):
        `Observation.encode_state(st, seat, bids)`, written where it differs from what the row held."""
        ob = self.ob
        size = self.size
        base = r * size
        if st.face_down or st.hidden:
            # cards played face down (the blind cut): what the seat saw of them is the view's to say
            self.buf[base:base + size] = array("f", ob.encode(st.view(seat)))
            self.recs[r].exact = False
            return
        rec = self.recs[r]
        if not rec.exact:
            self._clear(r)
            rec = self.recs[r]
        n = self.n
        csize = self.csize
        copies = self.copies
        fmask = self.first_mask
        hands = st.hands
        fc = ob.first_copy
        buf = self.buf
        # the cards
        hand = canonical(hands[seat], copies, fmask) if copies != 1 else hands[seat]
        if hand != rec.hand:
            self._bits(base + ob.o_hand, rec.hand, hand)
            rec.hand = hand
        now = self.now
        for k in range(n):
            now[k] = -1
        trick_mask = 0
        cards = st.trick_cards
        seats = st.trick_seats
        for i in range(len(cards)):
            c = cards[i]
            k = (seats[i] - seat) % n
            now[k] = k * csize + fc[c]
            trick_mask |= 1 << c
        o_trick = base + ob.o_trick
        held = rec.trick
        for k in range(n):
            if now[k] != held[k]:
                self._move(o_trick, held[k], now[k])
                held[k] = now[k]
        received = st.received
        played = 0
        for s in range(n):
            played |= received[s] & ~hands[s]
        concealed = st.concealed
        indicator = st.indicator if concealed else -1
        shown = -1
        if indicator >= 0:
            played &= ~(1 << indicator)
            if seat == st.folder:
                shown = fc[indicator]
        elif st.turned >= 0:        # the card lying face up, for everyone
            shown = fc[st.turned]
        if shown != rec.indicator:
            self._move(base + ob.o_indicator, rec.indicator, shown)
            rec.indicator = shown
        played &= ~trick_mask
        if copies != 1:
            played = canonical(played, copies, fmask)
        if played != rec.played:
            self._bits(base + ob.o_played, rec.played, played)
            rec.played = played
        if self.exposes:
            ex = rec.exposed
            for s in range(n):
                k = (s - seat) % n
                bits = canonical(hands[s], copies, fmask) if s != seat and st.exposed >> s & 1 else 0
                if bits != ex[k]:
                    self._bits(base + self.e0 + k * csize, ex[k], bits)
                    ex[k] = bits
        # the seat to act
        to_act = st.to_act
        pos = ob.o_to_act + ((to_act - seat) % n if to_act >= 0 else n)
        if pos != rec.hot_to_act:
            self._move(base, rec.hot_to_act, pos)
            rec.hot_to_act = pos
        # the trump, phase, bidder and contract: written again only when what they come from moved
        trump = st.trump
        bidder = st.bidder
        top = ob.top
        if (trump != rec.trump or st.phase != rec.phase or bidder != rec.bidder or st.bid != rec.bid
                or st.target != rec.target or st.multiplier != rec.multiplier or concealed != rec.concealed
                or st.folder != rec.folder):
            rec.trump = trump
            rec.phase = st.phase
            rec.bidder = bidder
            rec.bid = st.bid
            rec.target = st.target
            rec.multiplier = st.multiplier
            rec.concealed = concealed
            rec.folder = st.folder
            if trump == UNDECIDED or (concealed and seat != st.folder):
                pos = ob.o_trump + self.nsuits + 1
            elif trump < 0:
                pos = ob.o_trump + self.nsuits
            else:
                pos = ob.o_trump + trump
            if pos != rec.hot_trump:
                self._move(base, rec.hot_trump, pos)
                rec.hot_trump = pos
            pos = ob.o_phase + st.phase
            if pos != rec.hot_phase:
                self._move(base, rec.hot_phase, pos)
                rec.hot_phase = pos
            pos = ob.o_bidder + ((bidder - seat) % n if bidder >= 0 else n)
            if pos != rec.hot_bidder:
                self._move(base, rec.hot_bidder, pos)
                rec.hot_bidder = pos
            c0 = base + ob.o_contract
            buf[c0] = st.bid / top if bidder >= 0 else 0.0
            buf[c0 + 1] = st.target / top if bidder >= 0 else 0.0
            buf[c0 + 2] = st.multiplier / 8.0
            buf[c0 + 3] = 1.0 if concealed else 0.0
        pts = st.team_points
        mine = st.hand_team_of[seat]
        x = pts[mine] / ob.total
        y = best_other(pts, mine) / ob.total
        if x != rec.mine or y != rec.theirs:
            rec.mine = x
            rec.theirs = y
            buf[base + ob.o_card_points] = x
            buf[base + ob.o_card_points + 1] = y
        if self.modes >= 0:
            # the trump mode as the seat knows it (none while the trump is undecided or concealed from it)
            m0 = base + self.m0
            pos = -1
            mv = 1 / 8.0
            if not (trump == UNDECIDED or (concealed and seat != st.folder)):
                if st.trump_mode >= 0:
                    pos = st.trump_mode
                mv = st.trump_multiplier / 8.0
            if pos != rec.hot_mode:
                self._move(m0, rec.hot_mode, pos)
                rec.hot_mode = pos
            if mv != rec.mode_value:
                rec.mode_value = mv
                buf[m0 + self.modes] = mv
        written = rec.bids
        b0 = base + ob.o_bids
        for s in range(n):
            b = bids[s]
            v = b / top if b > 0 else 0.0
            k = (s - seat) % n
            if v != written[k]:
                written[k] = v
                buf[b0 + k] = v


def legal_indices(lay: Layout, st: State) -> list[int]:
    """The legal action indices of the seat to act (in the play phase of a single pack read from the playable-card
    bits); empty once the hand is over."""
    if st.to_act < 0:
        return []
    if st.phase == PLAY and lay.play0 >= 0:
        out = [lay.space.of(a) for a in st.other_actions()]
        bits = st.card_mask()
        p0 = lay.play0
        while bits:
            low = bits & -bits
            out.append(p0 + low.bit_length() - 1)
            bits ^= low
        return out
    return lay.space.legal_fast(st)


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
    """The hand of the AEC environment: every seat's observation row (`rows`, brought up to date when observed),
    the legal indices of the seat to act (`legal`) and its mask (`mask`: int8 bytes, a new one at every step, for
    the environment to hand out as it is), stepped by action index."""

    def __init__(self, layout: Layout, state: State) -> None:
        self.lay = layout
        n = layout.game.n
        self.rows = Rows(layout.obs, n)
        self.state = state
        self.bids = [-1] * n
        self.tricks = 0
        self.legal: list[int] = []
        self.mask = bytearray(layout.n_actions)
        self.start(state)

    def start(self, state: State) -> None:
        """A new hand (to act or over): the bids start empty, the mask is that of its seat to act."""
        self.state = state
        self.bids = [-1] * self.lay.game.n
        self.tricks = len(state.tricks)
        self._legal()

    def _legal(self) -> None:
        legal = self.legal = legal_indices(self.lay, self.state)
        mask = self.mask = bytearray(self.lay.n_actions)
        for i in legal:
            mask[i] = 1

    def step(self, index: int) -> int:
        """Apply `index` for the seat to act: ILLEGAL (nothing changed) unless it is one of the legal indices; else
        the flags TRICK_ENDED and HAND_ENDED of what it did (0: neither). The mask follows the new seat to act
        (all zeros once the hand is over)."""
        if index not in self.legal:
            return ILLEGAL
        st = self.state
        apply_index(self.lay, st, index, self.bids)
        self._legal()
        flags = 0
        if len(st.tricks) > self.tricks:
            self.tricks = len(st.tricks)
            flags = TRICK_ENDED
        if st.to_act < 0:
            return flags | HAND_ENDED
        return flags

    def observe(self, seat: int) -> None:
        """Bring the seat's row (row `seat` of `rows`) up to date."""
        self.rows.update(seat, self.state, seat, self.bids)


class VectorCore:
    """N hands, hand i dealt one after another from its own seeded stream (`seeds[i]`; the dealer fixed or drawn
    from it). Row i * n + s of `rows` is seat s of hand i; `at[i]` is the row of hand i's seat to act, `seats[i]`
    that seat; `masks` (new at every step, int8 bytes, `n_actions` a hand) their legal masks; after a step,
    `rewards` (new, float32, n a hand) holds the game points of each seat whose hand ended with it (0 elsewhere,
    and for an annulled hand) and `dones` (new, one byte a hand) whether hand i ended."""

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
        self.at = array("q", bytes(8 * count))
        self.seats = array("q", bytes(8 * count))
        self.masks = bytearray(count * layout.n_actions)
        self.rewards = array("f", bytes(4 * count * g.n))
        self.dones = bytearray(count)
        self.legal: list[list[int]] = [[] for _ in range(count)]
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
        legal = self.legal[i] = legal_indices(self.lay, st)
        base = i * self.lay.n_actions
        masks = self.masks
        for a in legal:
            masks[base + a] = 1
        self.at[i] = r
        self.seats[i] = seat

    def first_illegal(self, actions: list[int]) -> int:
        """The first hand whose action is not one of its legal indices (-1: every one is)."""
        for i in range(self.count):
            if actions[i] not in self.legal[i]:
                return i
        return -1

    def step(self, actions: list[int]) -> int:
        """Apply each hand's action (legal: `first_illegal` said so); a hand that ends is dealt again at once. The
        number of hands that ended."""
        n = self.n
        count = self.count
        self.masks = bytearray(count * self.lay.n_actions)
        rewards = self.rewards = array("f", bytes(4 * count * n))
        dones = self.dones = bytearray(count)
        ended = 0
        lay = self.lay
        for i in range(count):
            st = self.states[i]
            apply_index(lay, st, actions[i], self.bids[i])
            if st.to_act < 0:
                gp = st.game_points
                team_of = st.hand_team_of
                for s in range(n):
                    rewards[i * n + s] = float(gp[team_of[s]])
                dones[i] = 1
                ended += 1
                self.states[i] = self._deal(i)
            self._show(i)
        return ended
