"""The per-step work of the learning environments (engine.rl), compiled with the hot path (setup.py): hands
stepped by action index, legal masks as int8 bytes, observation rows.

The AEC environment keeps each seat's row (a float32 array it hands out a copy of) and writes into it, in place,
only what changed since that seat's last observation (`Rows`: what the row was made from is noted in native fields
and compared; after a card played, only the seat's cards, the trick, the cards played, the seat to act and the card
points are looked at, `Rows.quick`). A row never made (a new hand) or made from the view (cards played face down)
is made whole by joining precomputed bytes (`Parts.row`). `AecDriver` is the environment's `step()` (the
environment's method is the driver's `env_step` itself), `last()`, a dead agent's step and agent selection
(`AgentIter`), with the environment's dicts updated in place. `VectorCore` steps the N hands of the vectorised
environment (engine/rl/vector.py): each hand's seats' rows are kept the same way (`Rows`), what changed noted as
int64 bytes for the environment to write with one numpy call per kind of change for all hands.
tests/test_rl_fast.py and tests/test_rl_vector.py hold every row equal to the whole encoding
(`Observation.encode_state`) and every mask equal to the legal actions, at every step of every shipped file."""

from __future__ import annotations

import random
from array import array
from typing import Any

from engine.adapters.encoding import ActionSpace, Observation, best_other, canonical
from engine.play.base import PLAY, UNDECIDED
from engine.play.game import Game
from engine.play.state import State

ILLEGAL = -1       # `EnvCore.step`: the action is not legal now (nothing changed)
TRICK_ENDED = 1    # `EnvCore.step` flags: the action ended a trick ...
HAND_ENDED = 2     # ... or the hand
DEAD_STEP = -2     # `AecDriver.step`: the agent selected is done (PettingZoo's dead step, for the environment)
NOT_AN_INT = -3    # `AecDriver.step`: the action is not a plain int (the environment converts it)
MASKS_KEPT = 16384     # masks kept by their legal actions (then the store starts again)


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
        self.parts = Parts(obs, self.n_actions)


class Parts:
    """Every part of one game's observation row as float32 bytes, precomputed (the card parts eight cards at a time,
    one-hot parts position by position, the few values cached as they first occur), so that a row is the bytes of
    its parts joined (`row`), read from the state's bitmasks and fields as `Observation.state_bits` reads them:
    nothing is encoded float by float and no record of what a row held is kept. The mask is made the same way, from
    runs of zero and one bytes (`mask`)."""

    def __init__(self, obs: Observation, n_actions: int) -> None:
        g = obs.game
        self.ob = obs
        self.n = g.n
        csize = self.csize = g.size
        self.copies = g.layout.copies
        self.first_mask = g.first_copy_mask
        self.nsuits = g.nsuits
        self.exposes = obs.exposes
        self.modes = obs.modes
        self.n_actions = n_actions
        names = [name for name, _ in obs.parts]
        expected = ["hand", "played", "trick", "indicator", "trump", "phase", "bidder", "to_act", "contract",
                    "card_points", "bids"] + (["exposed"] if obs.exposes else []) + (["trump_mode"] if obs.modes >= 0
                                                                                    else [])
        if names != expected:   # the row is joined in this order
            raise ValueError(f"observation parts {names}: the learning environments join {expected}")
        widths = {name: w for name, w in obs.parts}
        self.full = csize // 8      # a card part: `full` bytes of eight cards' floats, then a tail of `rem` cards
        self.rem = csize % 8
        self.eight = [floats([float(b >> i & 1) for i in range(8)]) for b in range(256)]
        self.tail = [floats([float(b >> i & 1) for i in range(self.rem)]) for b in range(1 << self.rem)]
        self.block0 = floats([0.0] * csize)
        # a card part with one card (the trick's blocks, the indicator): position -> bytes, csize: none
        self.one = [one_hot(csize, p) for p in range(csize + 1)]
        self.trump_part = [one_hot(widths["trump"], p) for p in range(widths["trump"])]
        self.phase_part = [one_hot(widths["phase"], p) for p in range(widths["phase"])]
        self.seat_part = [one_hot(g.n + 1, p) for p in range(g.n + 1)]    # bidder and to_act: relative seat, n: none
        self.zero1 = floats([0.0])
        self.now = [0] * g.n        # scratch: the trick's position in each relative seat's block
        self.contract: dict[int, bytes] = {}     # the few values met so far, by a key made of what they come from
        self.points: dict[int, bytes] = {}
        self.bid: dict[int, bytes] = {}
        self.mode: dict[int, bytes] = {}
        self.zeros = [bytes(k) for k in range(n_actions + 1)]      # the mask's runs
        self.ones = [b"\x01" * k for k in range(n_actions + 1)]

    def cards(self, out: list[bytes], bits: int) -> None:
        """A card part from the bits of its positions."""
        if bits == 0:
            out.append(self.block0)
            return
        eight = self.eight
        for _ in range(self.full):
            out.append(eight[bits & 255])
            bits >>= 8
        if self.rem:
            out.append(self.tail[bits])

    def row(self, out: list[bytes], st: State, seat: int, bids: list[int]) -> None:
        """Append the observation of `seat` in `st` (`bids`: each seat's last bid value, -1 for none): the bytes of
        `Observation.encode_state(st, seat, bids)` as float32."""
        ob = self.ob
        if st.face_down or st.hidden:
            # cards played face down (the blind cut): what the seat saw of them is the view's to say
            out.append(floats(ob.encode(st.view(seat))))
            return
        n = self.n
        copies = self.copies
        fmask = self.first_mask
        hands = st.hands
        fc = ob.first_copy
        self.cards(out, canonical(hands[seat], copies, fmask) if copies != 1 else hands[seat])
        # the cards played before this trick (not the indicator laid face down), then the trick's, by relative seat
        received = st.received
        played = 0
        for s in range(n):
            played |= received[s] & ~hands[s]
        concealed = st.concealed
        indicator = st.indicator if concealed else -1
        shown = self.csize
        if indicator >= 0:
            played &= ~(1 << indicator)
            if seat == st.folder:
                shown = fc[indicator]
        elif st.turned >= 0:        # the card lying face up, for everyone
            shown = fc[st.turned]
        cards = st.trick_cards
        trick_seats = st.trick_seats
        for c in cards:
            played &= ~(1 << c)
        self.cards(out, canonical(played, copies, fmask) if copies != 1 else played)
        one = self.one
        now = self.now
        for k in range(n):
            now[k] = self.csize
        for i in range(len(cards)):
            now[(trick_seats[i] - seat) % n] = fc[cards[i]]
        for k in range(n):
            out.append(one[now[k]])
        out.append(one[shown])
        # the trump, phase, bidder, seat to act
        trump = st.trump
        unknown = trump == UNDECIDED or (concealed and seat != st.folder)
        out.append(self.trump_part[self.nsuits + 1 if unknown else self.nsuits if trump < 0 else trump])
        out.append(self.phase_part[st.phase])
        bidder = st.bidder
        out.append(self.seat_part[(bidder - seat) % n if bidder >= 0 else n])
        to_act = st.to_act
        out.append(self.seat_part[(to_act - seat) % n if to_act >= 0 else n])
        # the contract: bid and target (when there is a bidder), multiplier, concealed
        bid = st.bid if bidder >= 0 else 0
        target = st.target if bidder >= 0 else 0
        mult = st.multiplier
        top = ob.top
        if 0 <= bid < 1 << 20 and 0 <= target < 1 << 20 and 0 <= mult < 1 << 12:
            key = ((bid << 20 | target) << 12 | mult) << 1 | (1 if concealed else 0)
            part = self.contract.get(key)
            if part is None:
                part = self.contract[key] = floats([bid / top, target / top, mult / 8.0, 1.0 if concealed else 0.0])
        else:
            part = floats([bid / top, target / top, mult / 8.0, 1.0 if concealed else 0.0])
        out.append(part)
        # the card points: the seat's team's, the most any other team took
        pts = st.team_points
        mine = pts[st.hand_team_of[seat]]
        theirs = best_other(pts, st.hand_team_of[seat])
        if 0 <= mine < 1 << 20 and 0 <= theirs < 1 << 20:
            key = mine << 20 | theirs
            part = self.points.get(key)
            if part is None:
                part = self.points[key] = floats([mine / ob.total, theirs / ob.total])
        else:
            part = floats([mine / ob.total, theirs / ob.total])
        out.append(part)
        # each seat's last bid, by relative seat
        for k in range(n):
            b = bids[(seat + k) % n]
            if b > 0:
                part = self.bid.get(b)
                if part is None:
                    part = self.bid[b] = floats([b / top])
                out.append(part)
            else:
                out.append(self.zero1)
        if self.exposes:
            for k in range(n):
                s = (seat + k) % n
                if s != seat and st.exposed >> s & 1:
                    self.cards(out, canonical(hands[s], copies, fmask))
                else:
                    out.append(self.block0)
        if self.modes >= 0:
            # the trump mode as the seat knows it (none while the trump is undecided or concealed from it)
            pos = -1
            m = 1
            if not unknown:
                pos = st.trump_mode
                m = st.trump_multiplier
            if 0 <= m < 1 << 20:
                key = (pos + 1) << 20 | m
                part = self.mode.get(key)
                if part is None:
                    part = self.mode[key] = mode_part(self.modes, pos, m)
            else:
                part = mode_part(self.modes, pos, m)
            out.append(part)

    def mask(self, out: list[bytes], play0: int, bits: int, others: list[int]) -> None:
        """Append the int8 mask of the legal actions `options` gave (`bits`: card ids from index `play0`)."""
        zeros = self.zeros
        ones = self.ones
        pos = 0
        if not others:      # runs of playable cards (the play phase's common case), straight from the bits
            while bits:
                start = (bits & -bits).bit_length() - 1
                run = ((bits >> start) ^ ((bits >> start) + 1)).bit_length() - 1    # the run's length
                out.append(zeros[play0 + start - pos])
                out.append(ones[run])
                pos = play0 + start + run
                bits ^= ((1 << run) - 1) << start
            out.append(zeros[self.n_actions - pos])
            return
        idx = list(others)
        while bits:
            low = bits & -bits
            idx.append(play0 + low.bit_length() - 1)
            bits ^= low
        idx.sort()
        i = 0
        count = len(idx)
        while i < count:
            a = idx[i]
            end = a + 1
            i += 1
            while i < count and idx[i] <= end:
                end = idx[i] + 1
                i += 1
            out.append(zeros[a - pos])
            out.append(ones[end - a])
            pos = end
        out.append(zeros[self.n_actions - pos])


class Kept:
    """What one kept row was made from (`Rows`): native fields, so nothing is boxed to note or compare them."""

    def __init__(self, n: int) -> None:
        self.valid = False     # False: made whole next time
        self.hand = 0
        self.played = 0
        self.shown = -1
        self.trick = 0         # the trick's card positions, a byte each by relative seat (position + 1; 0: none)
        self.trump = -1
        self.phase = -1
        self.bidder = -1
        self.to_act = -1
        self.bid = 0
        self.target = 0
        self.mult = 0
        self.conc = 0
        self.mine = 0
        self.theirs = 0
        self.bids = [0] * n
        self.exposed = [0] * n
        self.mode = -1
        self.mode_mult = 0
        self.slow = -1         # Rows.slow when it was made: the same, only a card was played since (`Rows.quick`)
        self.ntricks = -1      # tricks finished when it was made


class Rows:
    """Each seat's observation row kept by what it was made from (the seat's cards, the cards played, the trick's
    positions, the one-hot positions and the few values), so that bringing a row up to date writes only what
    changed since that seat's last observation: `refresh` appends the positions to set to 1.0 (`ones`), to 0.0
    (`zeros`) and to another value (`vidx`, `vval`), each plus `base`, for the caller to write; a card played is a
    bit or two. A row never made (a new hand), or one made from the view (cards played face down), is made whole
    by the caller (`Parts.row`) when `refresh` says so. The positions are those of `Observation.state_bits`, the
    values computed as it computes them, so a kept row equals the whole encoding (tests/test_rl_fast.py holds it
    at every step of every shipped file)."""

    def __init__(self, parts: Parts, count: int, into: Rows | None = None) -> None:
        """`count` rows; with `into`, what changed is noted in `into`'s lists (one set of lists for many)."""
        ob = parts.ob
        self.p = parts
        self.ob = ob
        n = self.n = parts.n
        self.csize = parts.csize
        self.size = ob.size
        self.top = ob.top
        self.total = ob.total
        self.o_exposed = ob.offsets["exposed"] if ob.exposes else -1
        self.o_mode = ob.offsets["trump_mode"] if ob.modes >= 0 else -1
        # per row (count of them): what it was made from
        self.rows = [Kept(n) for _ in range(count)]
        # what changed, when no row is written in place (`view`): the positions in the row set to 1.0 (`ones`), to
        # 0.0 (`zeros`) and to a value (`vidx`, `vval`), as int64 bytes, each beside the row's number (`row`, int64
        # bytes) in `ones_r`, `zeros_r`, `vidx_r` (so that nothing is boxed; numpy reads the lists joined)
        self.ones: list[bytes] = into.ones if into is not None else []
        self.zeros: list[bytes] = into.zeros if into is not None else []
        self.vidx: list[bytes] = into.vidx if into is not None else []
        self.vval: list[float] = into.vval if into is not None else []
        self.ones_r: list[bytes] = into.ones_r if into is not None else []
        self.zeros_r: list[bytes] = into.zeros_r if into is not None else []
        self.vidx_r: list[bytes] = into.vidx_r if into is not None else []
        self.row = bytes(8)
        self.pos: list[bytes] = into.pos if into is not None else [array("q", [k]).tobytes() for k in range(self.size)]
        # the row being refreshed, written in place instead (a writable float32 memoryview; None: the lists)
        self.view: Any = None
        self.one: object = 1.0      # (boxed once: a float written into a row is an object)
        self.zero: object = 0.0
        # what a card played rarely moves, as it stood after the last step (`played_card`); `slow` counts the
        # steps after which any of it may have moved (any action but a card, or a card that moved it)
        self.slow = 0
        self.s_trump = UNDECIDED
        self.s_conc = False
        self.s_phase = -1
        self.s_bidder = -1
        self.s_bid = 0
        self.s_target = 0
        self.s_mult = 0
        self.s_exposed = 0
        self.s_mode = -1
        self.s_mode_mult = 0
        self.s_indicator = -1
        self.s_turned = -1
        self.s_folder = -1

    def other_action(self) -> None:
        """An action that is not a card played: anything in a row may have moved."""
        self.slow += 1

    def played_card(self, st: State) -> None:
        """A card was played: the rows' slow parts (trump, phase, contract, bids, ...) moved only if one of the
        fields they come from did (then `slow` counts it)."""
        if (st.trump != self.s_trump or st.concealed != self.s_conc or st.phase != self.s_phase
                or st.bidder != self.s_bidder or st.bid != self.s_bid or st.target != self.s_target
                or st.multiplier != self.s_mult or st.exposed != self.s_exposed or st.trump_mode != self.s_mode
                or st.trump_multiplier != self.s_mode_mult or st.indicator != self.s_indicator
                or st.turned != self.s_turned or st.folder != self.s_folder):
            self.note(st)
            self.slow += 1

    def note(self, st: State) -> None:
        self.s_trump = st.trump
        self.s_conc = st.concealed
        self.s_phase = st.phase
        self.s_bidder = st.bidder
        self.s_bid = st.bid
        self.s_target = st.target
        self.s_mult = st.multiplier
        self.s_exposed = st.exposed
        self.s_mode = st.trump_mode
        self.s_mode_mult = st.trump_multiplier
        self.s_indicator = st.indicator
        self.s_turned = st.turned
        self.s_folder = st.folder

    def _played(self, st: State) -> int:
        """The played part's cards: played before this trick, not the indicator laid face down."""
        hands = st.hands
        received = st.received
        played = 0
        for s in range(self.n):
            played |= received[s] & ~hands[s]
        if st.concealed and st.indicator >= 0:
            played &= ~(1 << st.indicator)
        for c in st.trick_cards:
            played &= ~(1 << c)
        p = self.p
        return canonical(played, p.copies, p.first_mask) if p.copies != 1 else played

    def _trick(self, kr: Kept, st: State, seat: int, base: int, valid: bool) -> None:
        """The trick's part, by relative seat (what it holds kept as one int: a byte each)."""
        n = self.n
        fc = self.ob.first_copy
        cards = st.trick_cards
        trick_seats = st.trick_seats
        key = 0
        for i in range(len(cards)):
            key |= (fc[cards[i]] + 1) << ((trick_seats[i] - seat) % n * 8)
        old = kr.trick
        if key == old:
            return
        kr.trick = key
        if valid:
            o = base + self.ob.o_trick
            csize = self.csize
            while key != old:
                if (key ^ old) & 255:
                    self._move(o, (old & 255) - 1, (key & 255) - 1)
                key >>= 8
                old >>= 8
                o += csize

    def _points(self, kr: Kept, st: State, seat: int, base: int, valid: bool) -> None:
        """The card points: the seat's team's, the most any other team took."""
        pts = st.team_points
        team = st.hand_team_of[seat]
        mine = pts[team]
        theirs = best_other(pts, team)
        o = base + self.ob.o_card_points
        if valid:
            if mine != kr.mine:
                self._value(o, mine / self.total)
            if theirs != kr.theirs:
                self._value(o + 1, theirs / self.total)
        kr.mine = mine
        kr.theirs = theirs

    def _exposed(self, kr: Kept, st: State, seat: int, base: int, valid: bool) -> None:
        """The hands lying face up, by relative seat."""
        n = self.n
        p = self.p
        hands = st.hands
        ke = kr.exposed
        o = base + self.o_exposed
        for k in range(n):
            s = (seat + k) % n
            bits = canonical(hands[s], p.copies, p.first_mask) if s != seat and st.exposed >> s & 1 else 0
            if bits != ke[k]:
                if valid:
                    self._cards(o + k * self.csize, ke[k], bits)
                ke[k] = bits

    def quick(self, kr: Kept, st: State, seat: int, base: int) -> None:
        """`refresh` when only cards were played since the row was made (`slow` unchanged): the seat's cards, the
        cards played (when a trick ended), the trick, the seat to act, the card points, the hands face up."""
        p = self.p
        ob = self.ob
        hand = st.hands[seat]
        if p.copies != 1:
            hand = canonical(hand, p.copies, p.first_mask)
        if hand != kr.hand:
            self._cards(base + ob.o_hand, kr.hand, hand)
            kr.hand = hand
        ntricks = len(st.tricks)
        if ntricks != kr.ntricks:
            played = self._played(st)
            if played != kr.played:
                self._cards(base + ob.o_played, kr.played, played)
                kr.played = played
            kr.ntricks = ntricks
        self._trick(kr, st, seat, base, True)
        to_act = st.to_act
        pos = (to_act - seat) % self.n if to_act >= 0 else self.n
        if pos != kr.to_act:
            self._move(base + ob.o_to_act, kr.to_act, pos)
            kr.to_act = pos
        self._points(kr, st, seat, base, True)
        if self.o_exposed >= 0:
            self._exposed(kr, st, seat, base, True)

    def invalidate(self, first: int, count: int) -> None:
        rows = self.rows
        for r in range(first, first + count):
            rows[r].valid = False

    def clear(self) -> None:
        self.ones.clear()
        self.zeros.clear()
        self.vidx.clear()
        self.vval.clear()
        self.ones_r.clear()
        self.zeros_r.clear()
        self.vidx_r.clear()

    def _cards(self, base: int, old: int, new: int) -> None:
        changed = old ^ new
        view = self.view
        if view is not None:
            one = self.one
            zero = self.zero
            while changed:
                low = changed & -changed
                view[base + low.bit_length() - 1] = one if new & low else zero
                changed ^= low
            return
        pos = self.pos
        row = self.row
        while changed:
            low = changed & -changed
            at = pos[base + low.bit_length() - 1]
            if new & low:
                self.ones.append(at)
                self.ones_r.append(row)
            else:
                self.zeros.append(at)
                self.zeros_r.append(row)
            changed ^= low

    def _move(self, base: int, old: int, new: int) -> None:
        view = self.view
        if view is not None:
            if old >= 0:
                view[base + old] = self.zero
            if new >= 0:
                view[base + new] = self.one
            return
        if old >= 0:
            self.zeros.append(self.pos[base + old])
            self.zeros_r.append(self.row)
        if new >= 0:
            self.ones.append(self.pos[base + new])
            self.ones_r.append(self.row)

    def _value(self, pos: int, value: float) -> None:
        view = self.view
        if view is not None:
            view[pos] = value
            return
        self.vidx.append(self.pos[pos])
        self.vidx_r.append(self.row)
        self.vval.append(value)

    def refresh(self, r: int, st: State, seat: int, bids: list[int], base: int) -> bool:
        """Row `r` (seat `seat`'s in `st`): append what changed since it was last made, at `base` + position, and
        note what it is now made from; False when the caller must make it whole (`Parts.row`) instead (nothing
        appended then)."""
        kr = self.rows[r]
        if st.face_down or st.hidden:
            kr.valid = False     # the view's encoding: made whole, and whole again next time
            return False
        valid = kr.valid
        if valid and kr.slow == self.slow:
            self.quick(kr, st, seat, base)
            return True
        p = self.p
        ob = self.ob
        n = self.n
        copies = p.copies
        fmask = p.first_mask
        fc = ob.first_copy
        hands = st.hands
        # the seat's cards
        hand = canonical(hands[seat], copies, fmask) if copies != 1 else hands[seat]
        if valid and hand != kr.hand:
            self._cards(base + ob.o_hand, kr.hand, hand)
        kr.hand = hand
        # the cards played before this trick (not the indicator laid face down); the card shown
        played = self._played(st)
        concealed = st.concealed
        indicator = st.indicator if concealed else -1
        shown = -1
        if indicator >= 0:
            if seat == st.folder:
                shown = fc[indicator]
        elif st.turned >= 0:
            shown = fc[st.turned]
        if valid and played != kr.played:
            self._cards(base + ob.o_played, kr.played, played)
        kr.played = played
        if valid and shown != kr.shown:
            self._move(base + ob.o_indicator, kr.shown, shown)
        kr.shown = shown
        self._trick(kr, st, seat, base, valid)
        # trump, phase, bidder, seat to act
        trump = st.trump
        unknown = trump == UNDECIDED or (concealed and seat != st.folder)
        pos = p.nsuits + 1 if unknown else p.nsuits if trump < 0 else trump
        if valid and pos != kr.trump:
            self._move(base + ob.o_trump, kr.trump, pos)
        kr.trump = pos
        pos = st.phase
        if valid and pos != kr.phase:
            self._move(base + ob.o_phase, kr.phase, pos)
        kr.phase = pos
        bidder = st.bidder
        pos = (bidder - seat) % n if bidder >= 0 else n
        if valid and pos != kr.bidder:
            self._move(base + ob.o_bidder, kr.bidder, pos)
        kr.bidder = pos
        to_act = st.to_act
        pos = (to_act - seat) % n if to_act >= 0 else n
        if valid and pos != kr.to_act:
            self._move(base + ob.o_to_act, kr.to_act, pos)
        kr.to_act = pos
        # the contract: bid, target, multiplier, concealed
        bid = st.bid if bidder >= 0 else 0
        target = st.target if bidder >= 0 else 0
        mult = st.multiplier
        conc = 1 if concealed else 0
        o = base + ob.o_contract
        top = self.top
        if valid:
            if bid != kr.bid:
                self._value(o, bid / top)
            if target != kr.target:
                self._value(o + 1, target / top)
            if mult != kr.mult:
                self._value(o + 2, mult / 8.0)
            if conc != kr.conc:
                self._move(o + 3, -1 if conc else 0, 0 if conc else -1)
        kr.bid = bid
        kr.target = target
        kr.mult = mult
        kr.conc = conc
        self._points(kr, st, seat, base, valid)
        # each seat's last bid, by relative seat
        kb = kr.bids
        o = base + ob.o_bids
        for k in range(n):
            b = bids[(seat + k) % n]
            if b < 0:
                b = 0
            if b != kb[k]:
                if valid:
                    self._value(o + k, b / top)
                kb[k] = b
        if self.o_exposed >= 0:
            self._exposed(kr, st, seat, base, valid)
        if self.o_mode >= 0:
            pos = -1
            m = 1
            if not unknown:
                pos = st.trump_mode
                m = st.trump_multiplier
            o = base + self.o_mode
            if valid:
                if pos != kr.mode:
                    self._move(o, kr.mode, pos)
                if m != kr.mode_mult:
                    self._value(o + p.modes, m / 8.0)
            kr.mode = pos
            kr.mode_mult = m
        kr.valid = True
        kr.slow = self.slow
        kr.ntricks = len(st.tricks)
        return valid


def floats(values: list[float]) -> bytes:
    """The values as float32 bytes (the machine's order, as numpy reads them)."""
    return array("f", values).tobytes()


def one_hot(width: int, pos: int) -> bytes:
    """`width` float32 zeros but a 1.0 at `pos` (none when `pos` is `width`)."""
    return floats([1.0 if i == pos else 0.0 for i in range(width)])


def mode_part(modes: int, pos: int, multiplier: int) -> bytes:
    """The trump-mode part: the mode's one-hot position (-1: none), then the multiplier / 8."""
    return floats([1.0 if i == pos else 0.0 for i in range(modes)] + [multiplier / 8.0])


NO_INDICES: list[int] = []     # (shared, never changed)


def options(lay: Layout, st: State) -> tuple[int, list[int]]:
    """The legal actions of the seat to act, as the bits of the playable card ids (the play phase of a single pack,
    whose play indices follow the card ids from `lay.play0`; 0 elsewhere) and a list of every other legal index
    (a new list, or the shared empty one); nothing once the hand is over. No action is built in the play phase."""
    if st.to_act < 0:
        return 0, NO_INDICES
    if st.phase == PLAY and lay.play0 >= 0:
        bits = st.card_mask()
        extras = st._extras     # what card_mask() just made ready: the other actions (call, show pair, ...)
        if not extras:
            return bits, NO_INDICES
        return bits, [lay.space.of(x) for x in extras]
    return 0, lay.space.legal_fast(st)


def is_legal(lay: Layout, bits: int, others: list[int], index: int) -> bool:
    """Whether `index` is one of the legal actions `options` gave."""
    c = index - lay.play0
    if lay.play0 >= 0 and 0 <= c < lay.game.size and bits >> c & 1:
        return True
    return index in others


def indices(lay: Layout, bits: int, others: list[int]) -> list[int]:
    """The legal indices `options` gave, as one sorted list."""
    out = list(others)
    while bits:
        low = bits & -bits
        out.append(lay.play0 + low.bit_length() - 1)
        bits ^= low
    return sorted(set(out))


def apply_index(lay: Layout, st: State, index: int, bids: list[int]) -> bool:
    """Apply the legal action `index` (the caller checked it) for the seat to act, noting a bid in `bids`; whether
    it was a card played."""
    if st.phase == PLAY and lay.play0 >= 0:
        c = index - lay.play0
        if 0 <= c < lay.game.size:
            st.play_card_id(c)
            return True
    b = lay.bid_value[index]
    if b >= 0:
        bids[st.to_act] = b
    lay.space.apply(st, index)
    return False


class EnvCore:
    """The hand of the AEC environment, stepped by action index: the legal actions of the seat to act (`bits` and
    `others`, as `options` gives them; `legal()` lists them), its int8 mask (`mask()`, and `mask_key` to keep
    masks by) and each seat's kept observation row (`keep_rows`), brought up to date when asked for (`refresh`)."""

    def __init__(self, layout: Layout, state: State) -> None:
        self.lay = layout
        self.parts = layout.parts
        self.state = state
        self.bids = [-1] * layout.game.n
        self.tricks = 0
        self.bits = 0
        self.others: list[int] = NO_INDICES
        self.mask_key: object = 0
        # each seat's row, kept up to date by what changed (`refresh`): float32 arrays given by the environment
        # (numpy), written through memoryviews of them
        self.kept = Rows(layout.parts, layout.game.n)
        self.arrays: list[Any] = []
        self.views: list[Any] = []
        self.start(state)

    def keep_rows(self, arrays: list[Any]) -> None:
        """Keep each seat's row in `arrays` (one writable float32 array a seat, of the observation's size)."""
        self.arrays = arrays
        self.views = [memoryview(a) for a in arrays]
        self.kept.invalidate(0, self.lay.game.n)

    def start(self, state: State) -> None:
        """A new hand (to act or over): the bids start empty, the mask is that of its seat to act."""
        self.state = state
        self.bids = [-1] * self.lay.game.n
        self.tricks = len(state.tricks)
        self.kept.invalidate(0, self.lay.game.n)
        self.kept.note(state)
        self._legal()

    def _legal(self) -> None:
        bits, others = options(self.lay, self.state)
        self.bits = bits
        self.others = others
        if others:
            out: list[bytes] = []
            self.parts.mask(out, self.lay.play0, bits, others)
            self.mask_key = b"".join(out)
        else:
            self.mask_key = bits

    def mask(self) -> bytes:
        """The int8 mask of the legal actions now (`mask_key` says which: the playable cards' bits, or the mask
        itself where there are other actions), for the environment to keep by its key."""
        key = self.mask_key
        if isinstance(key, bytes):
            return key
        out: list[bytes] = []
        self.parts.mask(out, self.lay.play0, self.bits, NO_INDICES)
        return b"".join(out)

    def legal(self) -> list[int]:
        """The legal indices of the seat to act, sorted."""
        return indices(self.lay, self.bits, self.others)

    def step(self, index: int) -> int:
        """Apply `index` for the seat to act: ILLEGAL (nothing changed) unless it is one of the legal indices; else
        the flags TRICK_ENDED and HAND_ENDED of what it did (0: neither). The mask follows the new seat to act
        (all zeros once the hand is over)."""
        if not is_legal(self.lay, self.bits, self.others, index):
            return ILLEGAL
        st = self.state
        lay = self.lay
        card = apply_index(lay, st, index, self.bids)
        if card:
            self.kept.played_card(st)
        else:
            self.kept.other_action()
        self._legal()
        flags = 0
        if len(st.tricks) > self.tricks:
            self.tricks = len(st.tricks)
            flags = TRICK_ENDED
        if st.to_act < 0:
            return flags | HAND_ENDED
        return flags

    def refresh(self, seat: int) -> Any:
        """The seat's kept row (`keep_rows`) brought up to date: only what changed since its last observation is
        written, in place (a row never made, or made from the view, is made whole)."""
        kept = self.kept
        row = self.views[seat]
        st = self.state
        kept.view = row
        made = kept.refresh(seat, st, seat, self.bids, 0)
        kept.view = None
        if not made:
            out: list[bytes] = []
            self.parts.row(out, st, seat, self.bids)
            row[0:kept.size] = memoryview(b"".join(out)).cast("f")
        return self.arrays[seat]


class VectorCore:
    """N hands, hand i dealt one after another from its own seeded stream (`seeds[i]`; the dealer fixed or drawn
    from it). Each hand keeps its seats' observation rows (`Rows`, one per hand): row `i * n + seat` of the
    environment's (N * n, observation size) float32 array. After `start` and after each `step`, what the environment
    writes into that array and its other arrays with one numpy call per kind of change for all hands:
    - in `changes` (`Rows`' lists, int64 bytes): the rows and positions to set to 1.0, 0.0 and a value;
    - `whole_at` / `whole`: rows made whole (a new hand, cards face down), their numbers and float32 bytes;
    - `seats`: each hand's seat to act (its observation is row `i * n + seats[i]`);
    - `bits` (with `bulk`: a single pack whose card ids fit a machine word): each hand's playable card ids as bits,
      its mask's card indices from `lay.play0`; `extra`: flat positions (`i * n_actions + index`) of every other
      legal index (and of the playable cards too without `bulk`);
    - `ended`: the hands that ended with the step (dealt again at once), `ended_points`: their seats' game points
      (n a hand, in the order of `ended`; 0 for an annulled hand)."""

    def __init__(self, layout: Layout, seeds: list[int], dealer: int = -1) -> None:
        self.lay = layout
        self.parts = layout.parts
        g = layout.game
        self.game = g
        self.n = g.n
        count = len(seeds)
        self.count = count
        self.dealer = dealer
        self.size = layout.obs.size
        self.n_actions = layout.n_actions
        # card ids straight into the mask by bits (a single pack whose ids fit in 63 bits)
        self.bulk = layout.play0 >= 0 and g.size <= 63
        self.rngs = [random.Random(s) for s in seeds]
        self.row_bytes = [array("q", [r]).tobytes() for r in range(count * g.n)]
        self.whole_at: list[int] = []
        self.whole: list[bytes] = []
        self.extra: list[int] = []
        self.ended: list[int] = []
        self.ended_points: list[float] = []
        self.seats = [0] * count
        self.bits = [0] * count                  # each hand's legal actions, as `options` gives them
        self.others: list[list[int]] = [NO_INDICES] * count
        self.bids: list[list[int]] = [[] for _ in range(count)]
        # each hand's rows (`Rows`), noting what changed in the same lists for all hands
        self.changes = Rows(layout.parts, 0)
        self.kept = [Rows(layout.parts, g.n, self.changes) for _ in range(count)]
        self.states = [self._deal(i) for i in range(count)]
        for i in range(count):
            self._show(i, self.states[i])

    def _deal(self, i: int) -> State:
        """Hand i's next deal, dealt again until someone has a decision (a deal annulled at once); its rows are
        made whole when next shown."""
        g = self.game
        rng = self.rngs[i]
        while True:
            dealer = self.dealer if self.dealer >= 0 else rng.randrange(g.n)
            st = g.new_hand(dealer, seed=rng.getrandbits(48))
            if st.to_act >= 0:
                break
        self.bids[i] = [-1] * g.n
        kept = self.kept[i]
        kept.invalidate(0, g.n)
        kept.note(st)
        return st

    def clear(self) -> None:
        """Forget what the last step said (the environment has written it)."""
        self.changes.clear()
        self.whole_at.clear()
        self.whole.clear()
        self.extra.clear()
        self.ended.clear()
        self.ended_points.clear()

    def _show(self, i: int, st: State) -> None:
        """Hand i's seat to act: its row brought up to date, its legal actions."""
        seat = st.to_act
        self.seats[i] = seat
        r = i * self.n + seat
        bids = self.bids[i]
        kept = self.kept[i]
        kept.row = self.row_bytes[r]
        if not kept.refresh(seat, st, seat, bids, 0):
            out: list[bytes] = []
            self.parts.row(out, st, seat, bids)
            self.whole_at.append(r)
            self.whole.append(b"".join(out))
        lay = self.lay
        bits, others = options(lay, st)
        self.bits[i] = bits
        self.others[i] = others
        base = i * self.n_actions
        extra = self.extra
        if not self.bulk:     # (with `bulk` the environment spreads `bits` into the masks itself)
            while bits:
                low = bits & -bits
                extra.append(base + lay.play0 + low.bit_length() - 1)
                bits ^= low
        for x in others:
            extra.append(base + x)

    def first_illegal(self, actions: list[int]) -> int:
        """The first hand whose action is not one of its legal indices (-1: every one is)."""
        lay = self.lay
        for i in range(self.count):
            if not is_legal(lay, self.bits[i], self.others[i], actions[i]):
                return i
        return -1

    def legal(self, i: int) -> list[int]:
        """Hand i's legal indices, sorted."""
        return indices(self.lay, self.bits[i], self.others[i])

    def step(self, actions: list[int]) -> int:
        """Apply each hand's action (legal: `first_illegal` said so); a hand that ends is dealt again at once. The
        number of hands that ended."""
        self.clear()
        n = self.n
        lay = self.lay
        states = self.states
        for i in range(self.count):
            st = states[i]
            card = apply_index(lay, st, actions[i], self.bids[i])
            if st.to_act < 0:
                gp = st.game_points
                team_of = st.hand_team_of
                for s in range(n):
                    self.ended_points.append(float(gp[team_of[s]]))
                self.ended.append(i)
                st = states[i] = self._deal(i)
            elif card:
                self.kept[i].played_card(st)
            else:
                self.kept[i].other_action()
            self._show(i, st)
        return len(self.ended)


class AecDriver:
    """The common step of the AEC environment (engine/rl/aec.py) and its `last()`, compiled: the environment's
    dicts (`bind`, at every reset) updated in place, the seat's kept row handed out (`copy`: as a new array), the
    masks kept read-only by their legal actions. What is not common (a trick or a hand ended, a dead agent, an
    action that is not an int, an illegal one) is returned as a flag for the environment to handle."""

    def __init__(self, core: EnvCore, env: Any, agents: list[str], zero_mask: Any, new_mask: Any,
                 copy: bool = True) -> None:
        self.core = core
        self.env = env
        self.agents = agents
        self.seat_of = {a: s for s, a in enumerate(agents)}
        self.zero = zero_mask
        self.mask = zero_mask
        self.new_mask = new_mask    # int8 bytes -> the read-only mask array
        self.masks: dict[object, Any] = {}
        self.copy = copy
        self.trick_rewards = False   # True: the end of a trick is the environment's to book (rewards per trick)
        self.over = False
        self.rewarded = False
        self.selected = agents[0]    # the environment's agent_selection (its property reads and sets this)
        self.skip: str | None = None    # the live agent to select once the dead ones are stepped
        self.live: list[str] = []    # the environment's agents (those not yet removed)
        self.rewards: dict[str, float] = {}
        self.cumulative: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}

    def bind(self, live: list[str], rewards: dict[str, float], cumulative: dict[str, float],
             terminations: dict[str, bool], truncations: dict[str, bool], infos: dict[str, dict[str, Any]]) -> None:
        self.live = live
        self.rewards = rewards
        self.cumulative = cumulative
        self.terminations = terminations
        self.truncations = truncations
        self.infos = infos
        self.over = False
        self.rewarded = False
        self.skip = None

    def select_mask(self) -> Any:
        """The mask of the seat to act now (kept by its key; made and kept the first time)."""
        core = self.core
        key = core.mask_key
        mask = self.masks.get(key)
        if mask is None:
            if len(self.masks) >= MASKS_KEPT:
                self.masks.clear()
            mask = self.masks[key] = self.new_mask(core.mask())
        self.mask = mask
        return mask

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.seat_of[agent]
        row = self.core.refresh(seat)
        return {"observation": row.copy() if self.copy else row,
                "action_mask": self.mask if self.core.state.to_act == seat else self.zero}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.selected
        obs = self.observe(agent) if observe else None
        return obs, self.cumulative[agent], self.terminations[agent], self.truncations[agent], self.infos[agent]

    def step(self, action: object) -> int:
        """Apply the agent selected's action: 0 (the next seat selected, its mask in `infos`), or the flags of
        `EnvCore.step` (TRICK_ENDED, HAND_ENDED: the environment books them and selects), ILLEGAL (nothing
        changed), DEAD_STEP or NOT_AN_INT (nothing done)."""
        agent = self.selected
        if self.over or self.truncations[agent]:
            return DEAD_STEP
        if isinstance(action, bool) or not isinstance(action, int):
            return NOT_AN_INT
        core = self.core
        flags = core.step(action)
        if flags == ILLEGAL:
            return ILLEGAL
        if self.rewarded:
            rewards = self.rewards
            for a in self.agents:
                if a in rewards:
                    rewards[a] = 0.0
            self.rewarded = False
        self.cumulative[agent] = 0.0
        infos = self.infos
        infos[agent] = {}
        if flags == TRICK_ENDED and not self.trick_rewards:
            flags = 0       # nothing to book: the next seat is selected as after any other step
        if flags == 0:
            nxt = self.agents[core.state.to_act]
            self.selected = nxt
            infos[nxt] = {"action_mask": self.select_mask()}
        return flags

    def env_step(self, action: object) -> None:
        """The environment's `step()` whole: the common step here, the rest (`flags`) by the environment's
        `_step_rest` (a hand ended, a dead agent, an action to convert or refuse)."""
        flags = self.step(action)
        if flags == DEAD_STEP and action is None:
            self.dead_step()
        elif flags:
            self.env._step_rest(action, flags)

    def dead_step(self) -> None:
        """PettingZoo's step of a dead agent (`AECEnv._was_dead_step`, the same steps): the agent selected is
        removed from the agents and the dicts, the next dead agent is selected (or, once none is left, the live
        agent to act), the rewards are cleared."""
        agent = self.selected
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self.cumulative[agent]
        del self.infos[agent]
        self.live.remove(agent)
        dead = [a for a in self.live if self.terminations[a] or self.truncations[a]]
        if dead:
            if self.skip is None:
                self.skip = self.selected
            self.selected = dead[0]
        else:
            if self.skip is not None:
                self.selected = self.skip
            self.skip = None
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0.0


class AgentIter:
    """PettingZoo's `agent_iter()`: the agent selected, as long as agents remain (at most `left` times)."""

    def __init__(self, driver: AecDriver, left: int) -> None:
        self.driver = driver
        self.left = min(left, 1 << 60)     # (a small int: counted down natively)

    def __iter__(self) -> AgentIter:
        return self

    def __next__(self) -> str:
        driver = self.driver
        if self.left <= 0 or not driver.live:
            raise StopIteration
        self.left -= 1
        return driver.selected
