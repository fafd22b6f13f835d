"""A PettingZoo AEC environment for any rule file: one hand (or one match) per episode.

Agents are `seat_0 .. seat_{n-1}`; the agent selected is the seat to act. Each seat's action space is one
`Discrete` over the rule file's action indices (`engine.adapters.encoding.ActionSpace`, the numbering the
OpenSpiel adapter uses) and never changes; its observation space is a `Dict` of `observation` (the seat's
`Observation` vector: its own cards and what is public, nothing of other seats' cards or a trump concealed from
it) and `action_mask` (1 for each legal action of the seat to act, all 0 for the others; also in `infos`).
Each seat's observation is kept and brought up to date only when asked for, by writing what changed since
that seat's last one (engine/adapters/runner.py); what is handed out is a copy, which later steps never change.

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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from engine.adapters.encoding import ActionSpace, Observation, max_multiplier
from engine.adapters.runner import (
    DEAD_STEP,
    HAND_ENDED,
    ILLEGAL,
    NOT_AN_INT,
    TRICK_ENDED,
    AecDriver,
    AgentIter,
    EnvCore,
    Layout,
)
from engine.errors import ArgumentError, IllegalActionError
from engine.play.game import Game
from engine.play.match import Match
from engine.play.state import State
from engine.rules.load import DEFAULT_RULESET

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
        self.layout = Layout(game, self.space, self.obs)
        n_actions = len(self.space)
        self.bid_value = self.layout.bid_value
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
        self.play0 = self.layout.play0

    def vector(self, state: State, seat: int, bids: list[int]) -> np.ndarray:
        """The seat's whole observation, encoded afresh (the reference the kept rows are tested against)."""
        ones, where, values = self.obs.state_bits(state, seat, bids)
        out = np.unpackbits(np.frombuffer(ones.to_bytes(self.nbytes, "little"), np.uint8), count=self.obs.size,
                            bitorder="little").astype(np.float32)
        out[where] = values
        return out


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
        self._zero_mask.flags.writeable = False
        self._core: EnvCore | None = None      # the compiled side: rows, mask, stepping (made with the first hand)
        self._driver: AecDriver | None = None  # the compiled common step and last() (made with the first hand)
        self._human = render_mode == "human"
        self._selected = self.possible_agents[0]
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
        self._bound = False     # the driver is given these dicts with the first hand
        self.hands_played = 0
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
            if state.to_act >= 0:
                break
            if self._match is not None:
                self._match.record_hand(state)      # annulled: the same dealer deals again
        self._start(state)

    def _start(self, state: State) -> None:
        """Play `state` from here: its rows and mask follow it, its seat to act is selected."""
        self.state = state
        core = self._core
        if core is None:
            core = self._core = EnvCore(self.enc.layout, state)
            core.keep_rows([np.zeros(self.enc.obs.size, np.float32) for _ in range(self.game.n)])
            made = self._driver = AecDriver(core, self, self.possible_agents, self._zero_mask, _read_only_mask)
            made.trick_rewards = self.reward_kind == "tricks"
            # last() and step() are the compiled driver's own from now on (no Python frame between the caller and
            # them); rendering after every step keeps the methods below
            self.__dict__["last"] = made.last
            if not self._human:
                self.__dict__["step"] = made.env_step
        else:
            core.start(state)
        driver = self._driver
        assert driver is not None
        if not self._bound:
            driver.bind(self.agents, self.rewards, self._cumulative_rewards, self.terminations, self.truncations,
                        self.infos)
            self._bound = True
        self._select()

    def _select(self) -> None:
        st = self.state
        assert st is not None and self._driver is not None
        if st.to_act < 0:
            return
        agent = self.possible_agents[st.to_act]
        self.agent_selection = agent
        self.infos[agent] = {"action_mask": self._driver.select_mask()}

    @property
    def agent_selection(self) -> str:    # type: ignore[override]
        """The agent to act (or, once the episode is over, the next to be stepped with None); kept by the
        compiled driver, which selects the next seat at every common step."""
        driver = self._driver
        return driver.selected if driver is not None else self._selected

    @agent_selection.setter
    def agent_selection(self, agent: str) -> None:
        self._selected = agent
        if self._driver is not None:
            self._driver.selected = agent

    @property
    def _mask(self) -> np.ndarray:
        """The mask of the seat to act."""
        assert self._driver is not None
        mask: np.ndarray = self._driver.mask
        return mask

    @property
    def _over(self) -> bool:
        """The episode ended: every agent terminated."""
        return self._driver is not None and self._driver.over

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
        assert self._driver is not None
        self._driver.over = True
        return True

    def _give(self, rewards: list[float]) -> None:
        for s, r in enumerate(rewards):
            a = self.possible_agents[s]
            if a in self.rewards:
                self.rewards[a] += r
        assert self._driver is not None
        self._driver.rewarded = True

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        driver = self._driver
        assert driver is not None and self.state is not None, "reset() the environment before observing it"
        obs: dict[str, np.ndarray] = driver.observe(agent)
        return obs

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's `last()`: the agent selected's observation, cumulative reward, termination, truncation
        and info (compiled: `AecDriver.last`)."""
        driver = self._driver
        assert driver is not None, "reset() the environment before it is observed"
        return driver.last(observe)

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """PettingZoo's `agent_iter()`: the agent selected, as long as agents remain (at most `max_iter` times)."""
        driver = self._driver
        assert driver is not None, "reset() the environment before iterating over its agents"
        return AgentIter(driver, max_iter)

    def step(self, action: int | None) -> None:
        driver = self._driver
        assert driver is not None, "reset() the environment before stepping it"
        flags = driver.step(action)     # compiled: the common step whole (see AecDriver.step)
        if flags or self._human:
            self._step_rest(action, flags)

    def _step_rest(self, action: object, flags: int) -> None:
        """What the common step leaves: a dead agent's step, an action to convert or refuse, the end of a trick
        or a hand (rewards, the next seat or the next deal), rendering."""
        driver = self._driver
        core = self._core
        assert driver is not None and core is not None
        agent = self.agent_selection
        if flags == DEAD_STEP:
            self._was_dead_step(action)
            return
        if flags == NOT_AN_INT:
            flags = driver.step(_index(action))
        if flags == ILLEGAL:
            legal = ", ".join(f"{i} {self.enc.space.names[i]}" for i in core.legal())
            raise IllegalActionError(f"{agent}: action {action!r} is not legal now (legal: {legal})")
        if flags > 0:
            st = self.state
            assert st is not None
            if flags & TRICK_ENDED and self.reward_kind == "tricks":
                t = st.tricks[-1]
                team = st.hand_team_of[t.winner]
                self._give([float(t.points) if st.hand_team_of[s] == team else 0.0 for s in range(self.game.n)])
            if not flags & HAND_ENDED or self._hand_over():
                self._select()
            else:
                self._deal()
            if driver.rewarded:     # rewards come only at the end of tricks and hands
                self._accumulate_rewards()
        if self._human:
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


def _read_only_mask(data: bytes) -> np.ndarray:
    """A mask handed out from now on (kept by its legal actions): read-only, as the bytes it views."""
    return np.frombuffer(data, np.int8)
