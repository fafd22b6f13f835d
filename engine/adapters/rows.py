"""Observation rows made from precomputed float32 bytes, for the learning environments (compiled with the hot path,
setup.py).

A row is the bytes of its parts joined, in `Observation`'s order, read from the state's bitmasks and fields as
`Observation.state_bits` reads them: nothing is encoded float by float. `Parts` holds every part's bytes for one
game (the card parts eight cards at a time, the one-hot parts position by position, the few values cached as they
first occur). `HandRows` makes the rows of one hand's seats: what a card played seldom moves (the card shown, the
trump, the phase, the bidder, the contract, the bids, the trump mode; the *slow* parts) is kept per seat, joined,
until an action moves it, and the cards played before the trick per hand until a trick ends, so that a row after a
card played is about fifteen pieces appended. tests/test_rl_fast.py and tests/test_rl_vector.py hold every row
equal to the whole encoding (`Observation.encode_state`) at every step of every shipped file."""

from __future__ import annotations

from array import array

from engine.adapters.encoding import Observation, best_other, canonical
from engine.play.base import UNDECIDED
from engine.play.state import State


class Parts:
    """Every part of one game's observation row as float32 bytes (see the module's documentation), and the int8
    mask of a set of legal actions made the same way, from runs of zero and one bytes (`mask`)."""

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

    def played(self, st: State) -> int:
        """The played part's positions: the cards played before this trick, not the indicator laid face down."""
        hands = st.hands
        received = st.received
        played = 0
        for s in range(self.n):
            played |= received[s] & ~hands[s]
        if st.concealed and st.indicator >= 0:
            played &= ~(1 << st.indicator)
        for c in st.trick_cards:
            played &= ~(1 << c)
        return canonical(played, self.copies, self.first_mask) if self.copies != 1 else played

    def trick(self, out: list[bytes], st: State, seat: int) -> None:
        """The trick's cards, a block for each seat relative to `seat`."""
        n = self.n
        csize = self.csize
        fc = self.ob.first_copy
        now = self.now
        for k in range(n):
            now[k] = csize
        cards = st.trick_cards
        trick_seats = st.trick_seats
        for i in range(len(cards)):
            now[(trick_seats[i] - seat) % n] = fc[cards[i]]
        one = self.one
        for k in range(n):
            out.append(one[now[k]])

    def middle(self, st: State, seat: int) -> bytes:
        """The card shown (the indicator to its folder, a card turned face up to all), the trump (unknown while
        undecided or concealed from the seat), the phase and the bidder."""
        fc = self.ob.first_copy
        shown = self.csize
        if st.concealed and st.indicator >= 0:
            if seat == st.folder:
                shown = fc[st.indicator]
        elif st.turned >= 0:
            shown = fc[st.turned]
        bidder = st.bidder
        n = self.n
        return b"".join([self.one[shown], self.trump_part[self.trump_position(st, seat)],
                         self.phase_part[st.phase], self.seat_part[(bidder - seat) % n if bidder >= 0 else n]])

    def trump_position(self, st: State, seat: int) -> int:
        trump = st.trump
        if trump == UNDECIDED or (st.concealed and seat != st.folder):
            return self.nsuits + 1
        return self.nsuits if trump < 0 else trump

    def contract_part(self, st: State) -> bytes:
        """The contract: bid and target (when there is a bidder), multiplier, whether the trump is concealed."""
        bidder = st.bidder
        bid = st.bid if bidder >= 0 else 0
        target = st.target if bidder >= 0 else 0
        mult = st.multiplier
        conc = 1 if st.concealed else 0
        top = self.ob.top
        if 0 <= bid < 1 << 20 and 0 <= target < 1 << 20 and 0 <= mult < 1 << 12:
            key = ((bid << 20 | target) << 12 | mult) << 1 | conc
            part = self.contract.get(key)
            if part is None:
                part = self.contract[key] = floats([bid / top, target / top, mult / 8.0, float(conc)])
            return part
        return floats([bid / top, target / top, mult / 8.0, float(conc)])

    def points_part(self, st: State, seat: int) -> bytes:
        """The card points: the seat's team's, the most any other team took."""
        pts = st.team_points
        team = st.hand_team_of[seat]
        mine = pts[team]
        theirs = best_other(pts, team)
        total = self.ob.total
        if 0 <= mine < 1 << 20 and 0 <= theirs < 1 << 20:
            key = mine << 20 | theirs
            part = self.points.get(key)
            if part is None:
                part = self.points[key] = floats([mine / total, theirs / total])
            return part
        return floats([mine / total, theirs / total])

    def bids_part(self, seat: int, bids: list[int]) -> bytes:
        """Each seat's last bid (`bids`: -1 for none), by relative seat."""
        n = self.n
        top = self.ob.top
        out: list[bytes] = []
        for k in range(n):
            b = bids[(seat + k) % n]
            if b > 0:
                part = self.bid.get(b)
                if part is None:
                    part = self.bid[b] = floats([b / top])
                out.append(part)
            else:
                out.append(self.zero1)
        return b"".join(out)

    def exposed(self, out: list[bytes], st: State, seat: int) -> None:
        """The hands lying face up, by relative seat (the seat's own never)."""
        n = self.n
        hands = st.hands
        for k in range(n):
            s = (seat + k) % n
            if s != seat and st.exposed >> s & 1:
                self.cards(out, canonical(hands[s], self.copies, self.first_mask))
            else:
                out.append(self.block0)

    def mode_part(self, st: State, seat: int) -> bytes:
        """The trump mode as the seat knows it (none while the trump is undecided or concealed from it)."""
        pos = -1
        m = 1
        if self.trump_position(st, seat) < self.nsuits + 1:
            pos = st.trump_mode
            m = st.trump_multiplier
        if 0 <= m < 1 << 20:
            key = (pos + 1) << 20 | m
            part = self.mode.get(key)
            if part is None:
                part = self.mode[key] = mode_part(self.modes, pos, m)
            return part
        return mode_part(self.modes, pos, m)

    def mask(self, out: list[bytes], play0: int, bits: int, others: list[int]) -> None:
        """Append the int8 mask of a set of legal actions (`bits`: card ids from index `play0`, `others`: any other
        indices)."""
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


class HandRows:
    """The observation rows of one hand's seats (see the module's documentation). `start` with each new hand,
    `played_card` after a card played, `other_action` after anything else; `row` appends a seat's row."""

    def __init__(self, parts: Parts) -> None:
        self.p = parts
        n = parts.n
        # `slow` counts the steps after which a slow part may have moved; a seat's slow parts were made at `made`
        self.slow = 0
        self.made = [-1] * n
        self.middle = [b""] * n
        self.contract = [b""] * n
        self.bids = [b""] * n
        self.mode = [b""] * n
        self.played = b""           # the played part, joined, as it stood after `played_tricks` tricks
        self.played_tricks = -1
        self.played_slow = -1
        # what the slow parts come from, as it stood after the last step
        self.s_trump = UNDECIDED
        self.s_conc = False
        self.s_phase = -1
        self.s_bidder = -1
        self.s_bid = 0
        self.s_target = 0
        self.s_mult = 0
        self.s_mode = -1
        self.s_mode_mult = 0
        self.s_indicator = -1
        self.s_turned = -1
        self.s_folder = -1

    def start(self, st: State) -> None:
        """A new hand: every part is made again."""
        self.slow += 1
        self.note(st)

    def other_action(self) -> None:
        """An action that is not a card played: any slow part may have moved."""
        self.slow += 1

    def played_card(self, st: State) -> None:
        """A card was played: the slow parts moved only if a field they come from did."""
        if (st.trump != self.s_trump or st.concealed != self.s_conc or st.phase != self.s_phase
                or st.bidder != self.s_bidder or st.bid != self.s_bid or st.target != self.s_target
                or st.multiplier != self.s_mult or st.trump_mode != self.s_mode
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
        self.s_mode = st.trump_mode
        self.s_mode_mult = st.trump_multiplier
        self.s_indicator = st.indicator
        self.s_turned = st.turned
        self.s_folder = st.folder

    def row(self, out: list[bytes], st: State, seat: int, bids: list[int]) -> None:
        """Append the bytes of `Observation.encode_state(st, seat, bids)` as float32 (`bids`: each seat's last bid
        value, -1 for none)."""
        p = self.p
        if st.face_down or st.hidden:
            # cards played face down (the blind cut): what the seat saw of them is the view's to say
            out.append(floats(p.ob.encode(st.view(seat))))
            return
        hand = st.hands[seat]
        p.cards(out, canonical(hand, p.copies, p.first_mask) if p.copies != 1 else hand)
        slow = self.slow
        ntricks = len(st.tricks)
        if ntricks != self.played_tricks or self.played_slow != slow:
            pieces: list[bytes] = []
            p.cards(pieces, p.played(st))
            self.played = b"".join(pieces)
            self.played_tricks = ntricks
            self.played_slow = slow
        out.append(self.played)
        p.trick(out, st, seat)
        if self.made[seat] != slow:
            self.middle[seat] = p.middle(st, seat)
            self.contract[seat] = p.contract_part(st)
            self.bids[seat] = p.bids_part(seat, bids)
            if p.modes >= 0:
                self.mode[seat] = p.mode_part(st, seat)
            self.made[seat] = slow
        out.append(self.middle[seat])
        to_act = st.to_act
        n = p.n
        out.append(p.seat_part[(to_act - seat) % n if to_act >= 0 else n])
        out.append(self.contract[seat])
        out.append(p.points_part(st, seat))
        out.append(self.bids[seat])
        if p.exposes:
            p.exposed(out, st, seat)
        if p.modes >= 0:
            out.append(self.mode[seat])


def floats(values: list[float]) -> bytes:
    """The values as float32 bytes (the machine's order, as numpy reads them)."""
    return array("f", values).tobytes()


def one_hot(width: int, pos: int) -> bytes:
    """`width` float32 zeros but a 1.0 at `pos` (none when `pos` is `width`)."""
    return floats([1.0 if i == pos else 0.0 for i in range(width)])


def mode_part(modes: int, pos: int, multiplier: int) -> bytes:
    """The trump-mode part: the mode's one-hot position (-1: none), then the multiplier / 8."""
    return floats([1.0 if i == pos else 0.0 for i in range(modes)] + [multiplier / 8.0])
