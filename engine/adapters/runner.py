"""The per-step work of the learning environments (engine.rl), compiled with the hot path (setup.py): hands
stepped by action index, legal masks as int8 bytes, observation rows.

Rows are made by joining precomputed float32 bytes (engine/adapters/rows.py: `HandRows` keeps what a card played
seldom moves). The AEC environment keeps each seat's row in a float32 array it hands out a copy of; `EnvCore`
writes the joined bytes into it when the seat is observed. `AecDriver` is the environment's `step()` (the
environment's method is the driver's `env_step` itself), `last()`, a dead agent's step and agent selection
(`AgentIter`), with the environment's dicts updated in place. `VectorCore` steps the N hands of the vectorised
environment (engine/rl/vector.py) and appends every hand's row to one list of bytes, for the environment to join
into one array. tests/test_rl_fast.py and tests/test_rl_vector.py hold every row equal to the whole encoding
(`Observation.encode_state`) and every mask equal to the legal actions, at every step of every shipped file."""

from __future__ import annotations

import random
from typing import Any

from engine.adapters.encoding import ActionSpace, Observation
from engine.adapters.rows import HandRows, Parts
from engine.play.base import PLAY
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
    """The hand of the AEC environment, stepped by action index: the legal actions of the seat to act (`bits` and
    `others`, as `options` gives them; `legal()` lists them), its int8 mask (`mask()`, and `mask_key` to keep
    masks by) and each seat's observation row, written into the seat's array when asked for (`keep_rows`,
    `refresh`)."""

    def __init__(self, layout: Layout, state: State) -> None:
        self.lay = layout
        self.parts = layout.parts
        self.state = state
        self.bids = [-1] * layout.game.n
        self.tricks = 0
        self.bits = 0
        self.others: list[int] = NO_INDICES
        self.mask_key: object = 0
        self.rows = HandRows(layout.parts)
        # each seat's row: float32 arrays given by the environment (numpy), written through byte memoryviews
        self.arrays: list[Any] = []
        self.views: list[Any] = []
        self.start(state)

    def keep_rows(self, arrays: list[Any]) -> None:
        """Write each seat's row into `arrays` (one writable float32 array a seat, of the observation's size)."""
        self.arrays = arrays
        self.views = [memoryview(a).cast("B") for a in arrays]

    def start(self, state: State) -> None:
        """A new hand (to act or over): the bids start empty, the mask is that of its seat to act."""
        self.state = state
        self.bids = [-1] * self.lay.game.n
        self.tricks = len(state.tricks)
        self.rows.start(state)
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
        card = st.phase == PLAY and lay.play0 >= 0 and 0 <= index - lay.play0 < lay.game.size
        apply_index(lay, st, index, self.bids)
        if card:
            self.rows.played_card(st)
        else:
            self.rows.other_action()
        self._legal()
        flags = 0
        if len(st.tricks) > self.tricks:
            self.tricks = len(st.tricks)
            flags = TRICK_ENDED
        if st.to_act < 0:
            return flags | HAND_ENDED
        return flags

    def refresh(self, seat: int) -> Any:
        """The seat's array (`keep_rows`) holding its observation now."""
        out: list[bytes] = []
        self.rows.row(out, self.state, seat, self.bids)
        self.views[seat][:] = b"".join(out)
        return self.arrays[seat]


class VectorCore:
    """N hands, hand i dealt one after another from its own seeded stream (`seeds[i]`; the dealer fixed or drawn
    from it). After `start` and after each `step`, what the environment turns into arrays:
    - `out`: each hand's observation row (of its seat to act) as float32 bytes, hand after hand, to be joined;
    - `seats`: each hand's seat to act;
    - `bits` (with `bulk`: a single pack whose card ids fit a machine word): each hand's playable card ids as bits,
      its mask's card indices from `lay.play0`; `extra`: flat positions (`i * n_actions + index`) of every other
      legal index (and of the playable cards too without `bulk`);
    - `ended`: the hands that ended with the step (dealt again at once), `ended_points`: their seats' game points
      (n a hand, in the order of `ended`; 0 for an annulled hand)."""

    def __init__(self, layout: Layout, seeds: list[int], dealer: int = -1) -> None:
        self.lay = layout
        g = layout.game
        self.game = g
        self.n = g.n
        count = len(seeds)
        self.count = count
        self.dealer = dealer
        self.n_actions = layout.n_actions
        # card ids straight into the mask by bits (a single pack whose ids fit in 63 bits)
        self.bulk = layout.play0 >= 0 and g.size <= 63
        self.rngs = [random.Random(s) for s in seeds]
        self.out: list[bytes] = []
        self.extra: list[int] = []
        self.ended: list[int] = []
        self.ended_points: list[float] = []
        self.seats = [0] * count
        self.bits = [0] * count                  # each hand's legal actions, as `options` gives them
        self.others: list[list[int]] = [NO_INDICES] * count
        self.bids: list[list[int]] = [[] for _ in range(count)]
        self.rows = [HandRows(layout.parts) for _ in range(count)]
        self.states = [self._deal(i) for i in range(count)]
        for i in range(count):
            self._show(i, self.states[i])

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
        self.rows[i].start(st)
        return st

    def clear(self) -> None:
        """Forget what the last step said (the environment has read it)."""
        self.out.clear()
        self.extra.clear()
        self.ended.clear()
        self.ended_points.clear()

    def _show(self, i: int, st: State) -> None:
        """Hand i's seat to act: its row, its legal actions."""
        seat = st.to_act
        self.seats[i] = seat
        self.rows[i].row(self.out, st, seat, self.bids[i])
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
        play0 = lay.play0
        csize = self.game.size
        states = self.states
        for i in range(self.count):
            st = states[i]
            a = actions[i]
            card = st.phase == PLAY and play0 >= 0 and 0 <= a - play0 < csize
            apply_index(lay, st, a, self.bids[i])
            if st.to_act < 0:
                gp = st.game_points
                team_of = st.hand_team_of
                for s in range(n):
                    self.ended_points.append(float(gp[team_of[s]]))
                self.ended.append(i)
                st = states[i] = self._deal(i)
            elif card:
                self.rows[i].played_card(st)
            else:
                self.rows[i].other_action()
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
