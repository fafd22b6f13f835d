"""A PettingZoo AEC environment for any rule file: one hand (or one match) per episode.

Agents are `seat_0 .. seat_{n-1}`; the agent selected is the seat to act. Each seat's action space is one
`Discrete` over the rule file's action indices (`engine.adapters.encoding.ActionSpace`, the numbering the
OpenSpiel adapter uses) and never changes; its observation space is a `Dict` of `observation` (the seat's
`Observation` vector: its own cards and what is public, nothing of other seats' cards or a trump concealed from
it) and `action_mask` (1 for each legal action of the seat to act, all 0 for the others; also in `infos`).
Observations are encoded only when asked for, for the agent asked about, from the state's public fields.

The deal is the engine's seeded shuffle (`Game.new_hand(seed=...)`): `reset(seed=S)` starts a stream of deal
seeds, so the same seed and the same actions give the same hands, observations and rewards.

Rewards (`reward=`):
- "hand" (default): at the end of the hand, every seat gets its team's game points (0 for an annulled hand);
- "tricks": as each trick ends, every seat gets the card points its team took in it (last-trick bonus included);
  no game points are added.
With `match=True` an episode is a whole match (the rule file's match rules: hands until a team reaches its
winning or losing score, or `max_hands`; an annulled hand is dealt again): each hand's game points are given as
that hand ends, per match team (`reward="tricks"` gives card points as in one hand).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from engine.adapters.encoding import ActionSpace, Observation, best_other, max_multiplier
from engine.adapters.runner import SEAT_SHIFT, SPEECH, ChangeLog
from engine.errors import ArgumentError, IllegalActionError
from engine.play.base import PLAY
from engine.play.game import Game
from engine.play.match import Match
from engine.play.state import State
from engine.rules.load import DEFAULT_RULESET

CARD_BITS = (1 << SEAT_SHIFT) - 1

REWARDS = ("hand", "tricks")


def load(ruleset: str | Path | Game) -> Game:
    """A compiled game: given as one, or loaded from a shipped name or a rule file's path."""
    if isinstance(ruleset, Game):
        return ruleset
    from engine import load_game

    return load_game(ruleset)


class Encoder:
    """What the environments share for one game: the action index space, the observation layout and its bounds,
    and each index's bid value (so the observation's bids are tracked as actions are applied)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.space = ActionSpace(game)
        self.obs = Observation(game)
        n_actions = len(self.space)
        self.bid_value = [-1] * n_actions
        for i, name in enumerate(self.space.names):
            parts = name.split()
            if parts[0] == "bid":
                self.bid_value[i] = int(parts[1])
        high = np.ones(self.obs.size, np.float32)
        c0 = self.obs.offsets["contract"]
        # bids are scaled by the plain range's top; an extra bid above it (a call of 104 over 100) reads above 1
        top_bid = max(1.0, max(self.bid_value, default=0) / self.obs.top)
        high[c0] = top_bid
        high[c0 + 1] = max(1.0, game.points_per_hand / self.obs.top, top_bid)
        high[c0 + 2] = max(1.0, max_multiplier(game) / 8.0)
        b0 = self.obs.offsets["bids"]
        high[b0:b0 + game.n] = top_bid
        if self.obs.modes >= 0:    # the hand's multiplier by its trump (trump.modes, trump.suit_multipliers)
            t = game.rules.trump
            most = max([1, *t.suit_multipliers, *(md.multiplier for md in t.modes)])
            high[self.obs.offsets["trump_mode"] + self.obs.modes] = max(1.0, most / 8.0)
        self.high = high
        self.vector_space = spaces.Box(0.0, high, (self.obs.size,), np.float32)
        self.mask_space = spaces.Box(0, 1, (n_actions,), np.int8)
        self.n_actions = n_actions
        self.nbytes = (self.obs.size + 7) // 8
        # a single pack's play indices follow the card ids from play0 (-1: they do not)
        play = self.space.card_index
        self.play0 = play[0] if game.layout.copies == 1 and play == list(range(play[0], play[0] + game.size)) else -1

    def vector(self, state: State, seat: int, bids: list[int]) -> np.ndarray:
        ones, where, values = self.obs.state_bits(state, seat, bids)
        out = np.unpackbits(np.frombuffer(ones.to_bytes(self.nbytes, "little"), np.uint8), count=self.obs.size,
                            bitorder="little").astype(np.float32)
        out[where] = values
        return out

    def mask(self, legal: list[int]) -> np.ndarray:
        m = np.zeros(self.n_actions, np.int8)
        m[legal] = 1
        return m

    def state_mask(self, state: State) -> np.ndarray:
        """The legal-action mask of the seat to act. In the play phase of a single pack (play indices follow the
        card ids) it is read from the playable-card bits, with no list of indices built."""
        if state.phase != PLAY or self.play0 < 0:
            return self.mask(self.space.legal_fast(state))
        m = np.zeros(self.n_actions, np.int8)
        for a in state.other_actions():
            m[self.space.of(a)] = 1
        bits = state.card_mask()
        p0 = self.play0
        while bits:
            low = bits & -bits
            m[p0 + low.bit_length() - 1] = 1
            bits ^= low
        return m

    def card_of(self, index: int) -> int:
        """The card id an index plays in a single pack (-1: not a card's index, or a double pack)."""
        c = index - self.play0
        return c if self.play0 >= 0 and 0 <= c < self.game.size else -1


class Observations:
    """Every seat's observation of one hand, kept as rows of one array and brought up to date only when a seat's
    is asked for (`row`): the cards played are logged, and a row catches up with the log (a card leaves its
    player's hand and joins the trick; a finished trick joins the cards played and the sides' card points; the
    seat to act moves). Anything else (a bid, the trump, a trump shown, a face-down card, the hand's end) starts
    the rows afresh, each encoded whole (`Encoder.vector`) when next asked for. Only for single packs without
    hands lying face up (`fast`); otherwise every row is encoded whole. tests/test_rl_fast.py holds every row
    equal to the whole encoding at every step of every shipped file."""

    def __init__(self, enc: Encoder) -> None:
        self.enc = enc
        g = enc.game
        self.n = g.n
        self.size = g.size
        self.rows = np.zeros((g.n, enc.obs.size), np.float32)
        self.fast = enc.play0 >= 0 and not enc.obs.exposes
        ob = enc.obs
        self.o_hand, self.o_trick, self.o_to_act = ob.o_hand, ob.o_trick, ob.o_to_act
        self.o_played, self.o_points = ob.o_played, ob.o_card_points
        self.total = ob.total
        self.o_bids, self.top = ob.o_bids, ob.top
        self.state: State | None = None
        self.bids: list[int] = []
        self.changes = ChangeLog(self.fast)
        self.row_epoch = [-1] * g.n
        self.row_seen = [0] * g.n        # entries of the log already in the row
        self.row_to_act = [0] * g.n      # the to_act position the row marks

    def start(self, state: State, bids: list[int]) -> None:
        """A new hand (`bids`: the caller's list of each seat's last bid value, kept up to date by it)."""
        self.state = state
        self.bids = bids
        self.changes.restart(state)

    def played(self, seat: int, card: int) -> None:
        """`seat` took an action (`card`: the card it played, -1 for anything else)."""
        st = self.state
        assert st is not None
        self.changes.played(st, seat, card)

    def row(self, seat: int) -> np.ndarray:
        """The seat's observation now (the array's own row: copy it to keep it)."""
        st = self.state
        assert st is not None
        r: np.ndarray = self.rows[seat]
        n = self.n
        changes = self.changes
        if self.row_epoch[seat] != changes.epoch:
            r[:] = self.enc.vector(st, seat, self.bids)
            self.row_epoch[seat] = changes.epoch
            self.row_seen[seat] = len(changes.log)
            self.row_to_act[seat] = self.o_to_act + ((st.to_act - seat) % n if st.to_act >= 0 else n)
            return r
        log = changes.log
        k = self.row_seen[seat]
        if k < len(log):
            size = self.size
            o_trick = self.o_trick
            ended = spoke = False
            for e in log[k:]:
                if e == SPEECH:
                    spoke = True
                elif e >= 0:
                    p, c = e >> SEAT_SHIFT, e & CARD_BITS
                    if p == seat:
                        r[self.o_hand + c] = 0.0
                    r[o_trick + (p - seat) % n * size + c] = 1.0
                else:
                    r[o_trick:o_trick + n * size] = 0.0
                    o_played = self.o_played
                    for c in st.tricks[-1 - e].cards:
                        r[o_played + c] = 1.0
                    ended = True
            self.row_seen[seat] = len(log)
            if spoke:
                b0 = self.o_bids
                top = self.top
                for s, v in enumerate(self.bids):
                    r[b0 + (s - seat) % n] = v / top if v > 0 else 0.0
            if ended:
                pts = st.team_points
                mine = st.hand_team_of[seat]
                theirs = best_other(pts, mine)
                r[self.o_points] = pts[mine] / self.total
                r[self.o_points + 1] = theirs / self.total
        t = self.o_to_act + ((st.to_act - seat) % n if st.to_act >= 0 else n)
        if t != self.row_to_act[seat]:
            r[self.row_to_act[seat]] = 0.0
            r[t] = 1.0
            self.row_to_act[seat] = t
        return r


def _index(action: object) -> int:
    """An action index from what a caller passed (an int or a numpy integer); -1 for anything else."""
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        return -1
    return int(action)


class JackNineEnv(AECEnv):
    """The AEC environment (see the module's documentation); made by `engine.rl.env(ruleset=..., ...)`."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "jacknine_v0",
                                "is_parallelizable": False}

    def __init__(self, ruleset: str | Path | Game = DEFAULT_RULESET, reward: str = "hand", match: bool = False,
                 dealer: int | None = None, max_hands: int = 1000, render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ArgumentError(f"reward {reward!r}: one of {', '.join(REWARDS)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(f"render_mode {render_mode!r}: one of human, ansi or None")
        game = self.game = load(ruleset)
        if dealer is not None and (isinstance(dealer, bool) or not (isinstance(dealer, int) and 0 <= dealer < game.n)):
            raise ArgumentError(f"dealer {dealer!r} is not at the table (seats 0..{game.n - 1})")
        if isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1:
            raise ArgumentError(f"max_hands {max_hands!r}: a whole number, 1 or more")
        self.enc = Encoder(game)
        self.reward_kind = reward
        self.match_play = match
        self.fixed_dealer = dealer
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(game.n)]
        self.seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self._action_spaces = {a: spaces.Discrete(self.enc.n_actions) for a in self.possible_agents}
        self._observation_spaces = {a: spaces.Dict({"observation": self.enc.vector_space,
                                                    "action_mask": self.enc.mask_space})
                                    for a in self.possible_agents}
        self._zero_mask = np.zeros(self.enc.n_actions, np.int8)
        self._obs = Observations(self.enc)
        self._changes = self._obs.changes
        self._play0 = self.enc.play0
        self._size = game.size
        self._zero_mask.flags.writeable = False
        self._rng = random.Random()
        self.state: State | None = None        # the hand being played (`deal_seed` deals it again)
        self.deal_seed = 0
        self._match: Match | None = None
        self.hands_played = 0

    # --- spaces ---------------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # --- episode --------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.hands_played = 0
        self._rewarded = False
        self._skip_agent_selection = None
        if self.match_play:
            first = self.fixed_dealer if self.fixed_dealer is not None else self._rng.randrange(self.game.n)
            self._match = Match(self.game, seed=self._rng.getrandbits(48), first_dealer=first,
                                max_hands=self.max_hands)
        self._deal()

    def _deal(self) -> None:
        """Deal the next hand and select its first seat to act. A deal annulled before anyone acts (a seat holding
        every Jack, say) is dealt again: nobody had a decision to learn from."""
        while True:
            if self._match is not None:
                state = self._match.new_hand()
                self.deal_seed = self._match.current_seed
            else:
                dealer = self.fixed_dealer if self.fixed_dealer is not None else self._rng.randrange(self.game.n)
                self.deal_seed = self._rng.getrandbits(48)
                state = self.game.new_hand(dealer, seed=self.deal_seed)
            self.state = state
            self._bids = [-1] * self.game.n
            self._obs.start(state, self._bids)
            self._tricks = 0
            if state.to_act >= 0:
                break
            if self._match is not None:
                self._match.record_hand(state)      # annulled: the same dealer deals again
        self._select()

    def _select(self) -> None:
        st = self.state
        assert st is not None
        if st.to_act < 0:
            return
        agent = self.possible_agents[st.to_act]
        self.agent_selection = agent
        self._mask = self.enc.state_mask(st)
        self.infos[agent] = {"action_mask": self._mask}

    def _hand_over(self) -> bool:
        """Book the finished hand; True when the episode ends with it (rewards given, every agent terminated)."""
        st = self.state
        assert st is not None
        self.hands_played += 1
        g = self.game
        if self.reward_kind == "hand":
            if self._match is not None:
                pts = self._match.to_match_points(st) if st.status == "complete" else [0] * len(g.rules.table.teams)
                self._give([float(pts[g.team_of[s]]) for s in range(g.n)])
            else:
                gp = st.game_points
                self._give([float(gp[st.hand_team_of[s]]) for s in range(g.n)])
        if self._match is not None:
            self._match.record_hand(st)
            if not self._match.is_over:
                return False
        for a in self.agents:
            self.terminations[a] = True
            self.infos[a] = {}
        return True

    def _give(self, rewards: list[float]) -> None:
        for s, r in enumerate(rewards):
            a = self.possible_agents[s]
            if a in self.rewards:
                self.rewards[a] += r
        self._rewarded = True

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self.state
        assert st is not None, "reset() the environment before observing it"
        seat = self.seat_of[agent]
        return {"observation": self._obs.row(seat).copy(),
                "action_mask": self._mask if st.to_act == seat else self._zero_mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state
        assert st is not None
        seat = st.to_act
        index = action if type(action) is int else _index(action)
        if not 0 <= index < self.enc.n_actions or not self._mask[index]:
            legal = ", ".join(f"{i} {self.enc.space.names[i]}" for i in np.flatnonzero(self._mask))
            raise IllegalActionError(f"{agent}: action {action!r} is not legal now (legal: {legal})")
        rewarded = self._rewarded
        if rewarded:
            for a in self.rewards:
                self.rewards[a] = 0.0
            self._rewarded = False
        self._cumulative_rewards[agent] = 0.0
        card = index - self._play0 if st.phase == PLAY and self._play0 >= 0 else -1
        if 0 <= card < self._size:
            st.play_card_id(card)        # legal: the mask said so
        else:
            card = -1
            bid = self.enc.bid_value[index]
            if bid >= 0:
                self._bids[seat] = bid
            self.enc.space.apply(st, index)
        self._changes.played(st, seat, card)
        self.infos[agent] = {}
        if self.reward_kind == "tricks" and len(st.tricks) > self._tricks:
            self._tricks = len(st.tricks)
            t = st.tricks[-1]
            team = st.hand_team_of[t.winner]
            self._give([float(t.points) if st.hand_team_of[s] == team else 0.0 for s in range(self.game.n)])
        if st.to_act < 0 and not self._hand_over():
            self._deal()
        else:
            self._select()
        if self._rewarded:     # rewards come only at the end of tricks and hands: most steps add nothing
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # --- the rest of the interface --------------------------------------------------------------------------
    def render(self) -> str | None:
        from engine.cli.render import render_hand_summary

        st = self.state
        if st is None:
            return None
        text = f"{self.game.rules.name}: dealer {st.dealer}, " + (
            f"seat {st.to_act} to act" if st.to_act >= 0 else st.status) + "\n" + render_hand_summary(st)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.state = None
