"""Hands stepped by action index for array-based learners (engine.rl.vector.VectorEnv), without numpy: each
`HandRunner` plays one hand after another and keeps the observation of the seat to act as the bytes of a row
(1 at the 1.0 positions of `Observation`'s layout) and a short list of values (its other positions, which are fixed:
the contract, the card points and the bids), brought up to date from what changed since that seat last looked
(the cards played, a trick ended, a speech), and encoded whole (`Observation.state_bits`) only when something
else changed. `step_all` and `collect` do the work for many runners at once, so that the caller turns their
rows into arrays in one numpy call. Compiled with the hot path (setup.py); the same answers pure.
tests/test_rl_vector.py holds every observation and mask equal to the whole encoding at every step."""

from __future__ import annotations

import random
from array import array

from engine.adapters.encoding import ActionSpace, Observation, best_other
from engine.play.base import PLAY
from engine.play.game import Game
from engine.play.state import State

SPEECH = -(1 << 20)    # in a runner's log: an action other than a card that changed only the bids
SEAT_SHIFT = 10        # a card played is logged as seat << SEAT_SHIFT | card
CARD_BITS = (1 << SEAT_SHIFT) - 1
DIGIT_BYTES = bytes.maketrans(b"01", b"\x00\x01")


class Layout:
    """What every runner of one game shares: the action space, the observation's layout, where its values lie."""

    def __init__(self, game: Game, space: ActionSpace, obs: Observation) -> None:
        self.game = game
        self.space = space
        self.obs = obs
        n, size = game.n, game.size
        play = space.card_index
        self.play0 = play[0] if game.layout.copies == 1 and play == list(range(play[0], play[0] + size)) else -1
        self.fast = self.play0 >= 0 and not obs.exposes
        self.bid_value = [-1] * len(space.names)
        for i, name in enumerate(space.names):
            parts = name.split()
            if parts[0] == "bid":
                self.bid_value[i] = int(parts[1])
        c0, cp, b0 = obs.o_contract, obs.o_card_points, obs.o_bids
        self.slots = [c0, c0 + 1, c0 + 2, cp, cp + 1] + [b0 + k for k in range(n)]
        if obs.modes >= 0:      # the hand's multiplier by its trump (trump.modes, trump.suit_multipliers)
            self.slots.append(obs.offsets["trump_mode"] + obs.modes)
        self.slot_bits = 0
        for k in self.slots:
            self.slot_bits |= 1 << k
        self.zero_trick = bytes(n * size)
        self.digits = f"0{obs.size}b"       # an observation's bits as binary digits, every position written
        self.nbytes = (obs.size + 7) // 8
        self.mask_nbytes = (len(space.names) + 7) // 8


class ChangeLog:
    """What changed in a hand since an epoch began, for observations kept up to date rather than encoded again: the
    cards played (seat << SEAT_SHIFT | card), the tricks ended (-1 - k for trick k) and the speeches that changed
    only the bids (SPEECH); anything else starts a new epoch (`epoch` moves, the log empties). `fast`: whether the
    game allows it at all (a single pack whose play indices follow the card ids, no hands lying face up)."""

    def __init__(self, fast: bool) -> None:
        self.fast = fast
        self.epoch = 0
        self.log: list[int] = []
        self.key: tuple[int, ...] = ()
        self.history = 0
        self.tricks = 0
        self.points = 0

    def restart(self, st: State) -> None:
        self.epoch += 1
        self.log = []
        self.key = _key(st)
        self.history = len(st.history)
        self.tricks = len(st.tricks)
        self.points = sum(st.team_points)

    def played(self, st: State, seat: int, card: int) -> None:
        """`seat` took an action (`card`: the card it played, -1 for anything else); `st` is the state after it."""
        fast = self.fast
        if fast and card < 0 and len(st.history) == self.history + 1 and len(st.tricks) == self.tricks \
                and not st.trick_cards and _key(st) == self.key:
            self.history += 1
            self.log.append(SPEECH)
            return
        if (fast and card >= 0 and len(st.history) == self.history + 1 and card != st.indicator
                and not st.face_down and not st.hidden and _key(st) == self.key):
            self.history += 1
            self.log.append(seat << SEAT_SHIFT | card)
            t = len(st.tricks)
            points = sum(st.team_points)
            if t == self.tricks and points == self.points:
                return
            if t == self.tricks + 1:
                self.log.append(-t)
                self.tricks = t
                self.points = points
                return
        self.restart(st)


class HandRunner:
    """One hand at a time, dealt from its own seeded stream (`seed`), the dealer fixed or drawn."""

    def __init__(self, layout: Layout, seed: int, dealer: int = -1) -> None:
        self.lay = layout
        g = layout.game
        self.game = g
        self.n = g.n
        self.size = g.size
        self.rng = random.Random(seed)
        self.dealer = dealer
        n = g.n
        self.rows = [bytearray(layout.obs.size) for _ in range(n)]
        self.vals = [[0.0] * len(layout.slots) for _ in range(n)]
        self.changes = ChangeLog(layout.fast)
        self.row_epoch = [-1] * n
        self.row_seen = [0] * n
        self.row_to_act = [0] * n
        self.bids = [-1] * n
        self.rewards = [0.0] * n
        self.state = self._new_state()

    def _new_state(self) -> State:
        """Deal until someone has a decision (a deal annulled at once is dealt again)."""
        g = self.game
        while True:
            dealer = self.dealer if self.dealer >= 0 else self.rng.randrange(g.n)
            st = g.new_hand(dealer, seed=self.rng.getrandbits(48))
            if st.to_act >= 0:
                break
        self.state = st
        self.bids = [-1] * g.n
        self.changes.restart(st)
        return st

    def step(self, index: int) -> bool:
        """Apply the legal action `index` (the caller checked the mask) for the seat to act. True when the hand
        ended: `rewards` then holds each seat's game points (0 for an annulled hand) and the next hand is dealt."""
        st = self.state
        lay = self.lay
        seat = st.to_act
        card = -1
        if st.phase == PLAY and lay.play0 >= 0:
            c = index - lay.play0
            if 0 <= c < self.size:
                card = c
        if card >= 0:
            st.play_card_id(card)
        else:
            b = lay.bid_value[index]
            if b >= 0:
                self.bids[seat] = b
            lay.space.apply(st, index)
        if st.to_act < 0:
            gp = st.game_points
            self.rewards = [float(gp[st.hand_team_of[s]]) for s in range(self.n)]
            self._new_state()
            return True
        self.changes.played(st, seat, card)
        return False

    def seat_row(self) -> bytearray:
        """The observation of the seat to act, one byte per position (1 where it holds 1.0; the positions of
        `Layout.slots` are 0 here and hold `seat_values`), brought up to date."""
        st = self.state
        seat = st.to_act
        lay = self.lay
        ob = lay.obs
        n = self.n
        changes = self.changes
        row = self.rows[seat]
        if self.row_epoch[seat] != changes.epoch:
            ones, where, values = ob.state_bits(st, seat, self.bids)
            vals = self.vals[seat]
            slots = lay.slots
            for k in range(len(vals)):
                vals[k] = 0.0
            if ones & lay.slot_bits:
                for k in range(len(vals)):
                    if ones >> slots[k] & 1:
                        vals[k] = 1.0       # a value of exactly 1.0 may come as a bit
                ones &= ~lay.slot_bits
            for i in range(len(where)):
                vals[slots.index(where[i])] = values[i]
            # the bits as bytes in one go: binary digits, lowest first, '0'/'1' turned into 0/1
            row[:] = format(ones, lay.digits)[::-1].encode("ascii").translate(DIGIT_BYTES)
            self.row_epoch[seat] = changes.epoch
            self.row_seen[seat] = len(changes.log)
            self.row_to_act[seat] = ob.o_to_act + (st.to_act - seat) % n
            return row
        log = changes.log
        k = self.row_seen[seat]
        if k < len(log):
            size = self.size
            o_trick = ob.o_trick
            ended = False
            spoke = False
            for i in range(k, len(log)):
                e = log[i]
                if e == SPEECH:
                    spoke = True
                elif e >= 0:
                    p = e >> SEAT_SHIFT
                    c = e & CARD_BITS
                    if p == seat:
                        row[ob.o_hand + c] = 0
                    row[o_trick + (p - seat) % n * size + c] = 1
                else:
                    row[o_trick:o_trick + n * size] = lay.zero_trick
                    o_played = ob.o_played
                    for c in st.tricks[-1 - e].cards:
                        row[o_played + c] = 1
                    ended = True
            self.row_seen[seat] = len(log)
            vals = self.vals[seat]
            if spoke:
                top = ob.top
                for s in range(n):
                    v = self.bids[s]
                    vals[5 + (s - seat) % n] = v / top if v > 0 else 0.0
            if ended:
                pts = st.team_points
                mine = st.hand_team_of[seat]
                theirs = best_other(pts, mine)
                vals[3] = pts[mine] / ob.total
                vals[4] = theirs / ob.total
        t = ob.o_to_act + (st.to_act - seat) % n
        old = self.row_to_act[seat]
        if t != old:
            row[old] = 0
            row[t] = 1
            self.row_to_act[seat] = t
        return row

    def seat_values(self) -> list[float]:
        """The observation's values at `Layout.slots` for the seat to act (after `seat_row`)."""
        return self.vals[self.state.to_act]

    def mask_bits(self) -> int:
        """The legal action indices of the seat to act, as bits."""
        return legal_bits(self.lay, self.state)


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


def _key(st: State) -> tuple[int, ...]:
    """What playing a card or a speech leaves as it was, the trick it may end aside (else rows start afresh)."""
    return (st.phase, st.trump, int(st.concealed), st.exposed, st.multiplier, st.bidder, st.bid, st.target,
            st.face_down, st.hidden, st.indicator, st.folder, sum(st.given), st.trump_mode, st.trump_multiplier)


def step_all(runners: list[HandRunner], actions: list[int]) -> list[int]:
    """Step every runner with its action; the positions of those whose hand ended."""
    done: list[int] = []
    for i in range(len(runners)):
        if runners[i].step(actions[i]):
            done.append(i)
    return done


def collect(runners: list[HandRunner]) -> tuple[bytes, bytes, bytes, list[int]]:
    """For every runner: the observation of the seat to act (`seat_row`, `Layout.obs.size` bytes each), its
    values (float32, `Layout.slots` of them), the mask bits (each `Layout.mask_nbytes`, little-endian), and the
    seat to act."""
    values = array("f")
    if not runners:
        return b"", values.tobytes(), b"", []
    lay = runners[0].lay
    mb = lay.mask_nbytes
    rows = bytearray()
    masks: list[bytes] = []
    seats: list[int] = []
    for r in runners:
        rows += r.seat_row()
        values.extend(r.seat_values())
        masks.append(r.mask_bits().to_bytes(mb, "little"))
        seats.append(r.state.to_act)
    return bytes(rows), values.tobytes(), b"".join(masks), seats
