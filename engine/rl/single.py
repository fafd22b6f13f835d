"""A Gymnasium environment for one learning seat, the engine's own bots in the other seats.

The observation is the learner's `Observation` vector (a `Box`), the action one index of the rule file's action
space (a `Discrete`, the numbering of the AEC environment and the OpenSpiel adapter); `action_masks()` gives the
legal actions (for maskable policy methods such as sb3-contrib's MaskablePPO), and so does `info["action_mask"]`.
`reset()` deals until the learner has a decision (a deal annulled at once, or a hand in which the learner sits
out from the start, is dealt again); `step()` applies the learner's action and lets the bots act until the
learner's next decision or the end. Rewards as in the AEC environment (`reward="hand"` or `"tricks"`,
`match=True` for a whole match), for the learner's team. An illegal action ends the episode with
`illegal_reward` (default: minus the most a hand can score) and `info["illegal_action"] = True`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from engine.adapters.encoding import utility_bound
from engine.bots.base import Bot, check_bot_spec, make_bot
from engine.errors import ArgumentError, IllegalActionError
from engine.play.game import Game
from engine.play.match import Match
from engine.play.state import State
from engine.rl.aec import REWARDS, Encoder, load
from engine.rules.load import DEFAULT_RULESET


class SingleSeatEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One learner at `seat`; `opponents` names the bot at every other seat (one name, or one per other seat)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(self, ruleset: str | Path | Game = DEFAULT_RULESET, seat: int = 0,
                 opponents: str | Sequence[str] = "heuristic", reward: str = "hand", match: bool = False,
                 dealer: int | None = None, max_hands: int = 1000, illegal_reward: float | None = None,
                 render_mode: str | None = None) -> None:
        game = self.game = load(ruleset)
        if reward not in REWARDS:
            raise ArgumentError(f"reward {reward!r}: one of {', '.join(REWARDS)}")
        if isinstance(seat, bool) or not (isinstance(seat, int) and 0 <= seat < game.n):
            raise ArgumentError(f"seat {seat!r} is not at the table (seats 0..{game.n - 1})")
        if dealer is not None and (isinstance(dealer, bool) or not (isinstance(dealer, int) and 0 <= dealer < game.n)):
            raise ArgumentError(f"dealer {dealer!r} is not at the table (seats 0..{game.n - 1})")
        if render_mode is not None and render_mode != "ansi":
            raise ArgumentError(f"render_mode {render_mode!r}: 'ansi' or None")
        names = [opponents] * (game.n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != game.n - 1:
            raise ArgumentError(f"opponents: one bot name, or one for each of the {game.n - 1} other seats")
        try:
            for name in names:
                check_bot_spec(name)
        except ValueError as e:
            raise ArgumentError(f"opponents: {e}") from None
        self.opponent_specs = names
        self.seat = seat
        self.enc = Encoder(game)
        self.reward_kind = reward
        self.match_play = match
        self.fixed_dealer = dealer
        self.max_hands = max_hands
        self.illegal_reward = -utility_bound(game) if illegal_reward is None else float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = self.enc.vector_space
        self.action_space = spaces.Discrete(self.enc.n_actions)
        self.state: State | None = None
        self._match: Match | None = None
        self._bots: list[Bot | None] = []
        self._legal: list[int] = []
        self._ended = False

    # --- episode --------------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(1 << 62)))
        self._match = None
        self._ended = False
        if self.match_play:
            first = self.fixed_dealer if self.fixed_dealer is not None else self._rng.randrange(self.game.n)
            self._match = Match(self.game, seed=self._rng.getrandbits(48), first_dealer=first,
                                max_hands=self.max_hands)
        reward = self._deal()
        while self.state is None or self.state.to_act != self.seat:   # the learner had no decision in that hand
            reward += self._deal()
        self._pending = reward
        return self._observation(), self._info()

    def _deal(self) -> float:
        """Deal a hand, seat the bots for it, and let them act up to the learner's first decision; the reward the
        learner's team earned meanwhile (a hand that ends without the learner acting is booked and dealt again)."""
        g = self.game
        if self._match is not None:
            state = self._match.new_hand()
        else:
            dealer = self.fixed_dealer if self.fixed_dealer is not None else self._rng.randrange(g.n)
            state = g.new_hand(dealer, seed=self._rng.getrandbits(48))
        self.state = state
        specs = iter(self.opponent_specs)
        self._bots = [None if s == self.seat else make_bot(next(specs), g, self._rng.getrandbits(48))
                      for s in range(g.n)]
        self._bids = [-1] * g.n
        self._tricks = 0
        return self._advance()

    def _advance(self) -> float:
        """Let the bots act until the learner's decision or the hand's end; the learner's reward on the way."""
        st = self.state
        assert st is not None
        reward = 0.0
        while st.to_act >= 0 and st.to_act != self.seat:
            bot = self._bots[st.to_act]
            assert bot is not None
            legal = st.legal_actions()
            action = bot.choose(st.view(st.to_act) if bot.needs_view else None, legal)  # type: ignore[arg-type]
            index = self.enc.space.of(action)
            if self.enc.bid_value[index] >= 0:
                self._bids[st.to_act] = self.enc.bid_value[index]
            st.apply(action)
            reward += self._trick_reward()
        if st.to_act < 0:
            reward += self._hand_reward()
        else:
            self._legal = self.enc.space.legal_fast(st)
        return reward

    def _trick_reward(self) -> float:
        st = self.state
        assert st is not None
        if self.reward_kind != "tricks" or len(st.tricks) <= self._tricks:
            return 0.0
        self._tricks = len(st.tricks)
        t = st.tricks[-1]
        return float(t.points) if st.hand_team_of[t.winner] == st.hand_team_of[self.seat] else 0.0

    def _hand_reward(self) -> float:
        st = self.state
        assert st is not None
        out = 0.0
        if self._match is not None:
            if self.reward_kind == "hand" and st.status == "complete":
                out = float(self._match.to_match_points(st)[self.game.team_of[self.seat]])
            self._match.record_hand(st)
        elif self.reward_kind == "hand":
            out = float(st.game_points[st.hand_team_of[self.seat]])
        return out

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        st = self.state
        if st is None or st.to_act != self.seat or self._ended:
            raise IllegalActionError("the episode is over (or never began): reset() the environment first")
        reward = self._pending
        self._pending = 0.0
        index = int(action)
        if index not in self._legal:
            self._ended = True    # the hand is not played on: no step until reset()
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), reward + self.illegal_reward, True, False, info
        if self.enc.bid_value[index] >= 0:
            self._bids[self.seat] = self.enc.bid_value[index]
        self.enc.space.apply(st, index)
        reward += self._trick_reward()
        reward += self._advance()
        while st.to_act < 0:
            if self._match is None or self._match.is_over:
                return self._observation(), reward, True, False, self._info()
            reward += self._deal()     # the match goes on: the learner's next decision
            st = self.state
            assert st is not None
        return self._observation(), reward, False, False, self._info()

    # --- what the learner sees ------------------------------------------------------------------------------
    def _observation(self) -> np.ndarray:
        st = self.state
        assert st is not None
        return self.enc.vector(st, self.seat, self._bids)

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as booleans (all False once the episode is over)."""
        st = self.state
        m = np.zeros(self.enc.n_actions, bool)
        if st is not None and st.to_act == self.seat:
            m[self._legal] = True
        return m

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8)}

    def render(self) -> str | None:
        from engine.cli.render import render_hand_summary

        st = self.state
        return None if st is None else render_hand_summary(st)
