"""A vectorised environment for array-based trainers: N hands stepped at once from one array of actions.

    venv = engine.rl.VectorEnv(ruleset=NAME_OR_PATH, num_hands=64)
    obs, masks, info = venv.reset(seed=1)        # (N, observation size) float32, (N, actions) int8
    while training:
        actions = policy(obs, masks)              # one legal action index per hand
        obs, masks, rewards, dones, info = venv.step(actions)

Each of the N hands has one seat to act (`info["to_act"]`); `obs` is that seat's observation (the layout of the
AEC environment and the OpenSpiel adapter: its own cards and what is public), `masks` its legal actions. `rewards`
is (N, players): each seat's game points in the hand that just ended (0 elsewhere, and 0 for an annulled hand),
`dones` whether the hand ended with this step; a hand that ended is replaced at once by the next deal of its own
stream, so the observation given for it is the new hand's first decision. Hand i is dealt from a stream seeded by
(`seed`, i): the same seed and actions give the same hands. An illegal action (or an index outside the space)
raises IllegalActionError before any hand moves. The work per hand is done without numpy
(engine/adapters/runner.py, compiled with the hot path); the arrays are filled for all N hands at once.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np

from engine.adapters.runner import HandRunner, Layout, collect, step_all
from engine.errors import ArgumentError, IllegalActionError
from engine.play.game import Game
from engine.rl.aec import Encoder, load
from engine.rules.load import DEFAULT_RULESET


class VectorEnv:
    """N hands of one rule file, stepped together (see the module's documentation)."""

    def __init__(self, ruleset: str | Path | Game = DEFAULT_RULESET, num_hands: int = 64,
                 dealer: int | None = None) -> None:
        game = self.game = load(ruleset)
        if isinstance(num_hands, bool) or not isinstance(num_hands, int) or not 1 <= num_hands <= 1_000_000:
            raise ArgumentError(f"num_hands {num_hands!r}: a whole number from 1 to 1,000,000")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < game.n):
            raise ArgumentError(f"dealer {dealer!r} is not at the table (seats 0..{game.n - 1})")
        self.enc = Encoder(game)
        self.layout = Layout(game, self.enc.space, self.enc.obs)
        self.num_hands = num_hands
        self.dealer = -1 if dealer is None else dealer
        self.observation_space = self.enc.vector_space
        self.n_actions = self.enc.n_actions
        self._runners: list[HandRunner] = []
        slots = self.layout.slots
        self._slots = np.array(slots, np.intp)
        self._rows = np.arange(num_hands)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
        base = random.Random(seed).getrandbits(48) if seed is not None else random.getrandbits(48)
        self._runners = [HandRunner(self.layout, random.Random(f"vector/{base}/{i}").getrandbits(48), self.dealer)
                         for i in range(self.num_hands)]
        obs, masks, seats = self._arrays()
        return obs, masks, {"to_act": seats}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._runners:
            raise ArgumentError("reset() the environment before stepping it")
        acts = np.asarray(actions)
        if acts.shape != (self.num_hands,) or not np.issubdtype(acts.dtype, np.integer):
            raise ArgumentError(f"actions: one whole number per hand ({self.num_hands}), not {acts.shape} "
                                f"of {acts.dtype}")
        bad = (acts < 0) | (acts >= self.n_actions)
        legal = np.zeros(self.num_hands, bool)
        legal[~bad] = self._masks[self._rows[~bad], acts[~bad]] == 1
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise IllegalActionError(f"hand {i}: action {int(acts[i])} is not legal now")
        runners = self._runners
        done = step_all(runners, acts.tolist())
        rewards = np.zeros((self.num_hands, self.game.n), np.float32)
        dones = np.zeros(self.num_hands, bool)
        for i in done:
            rewards[i] = runners[i].rewards
            dones[i] = True
        obs, masks, seats = self._arrays()
        return obs, masks, rewards, dones, {"to_act": seats}

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        lay = self.layout
        rows, values, mask_bits, seats = collect(self._runners)
        n = self.num_hands
        obs = np.frombuffer(rows, np.uint8).reshape(n, self.enc.obs.size).astype(np.float32)
        obs[:, self._slots] = np.frombuffer(values, np.float32).reshape(n, len(self._slots))
        masks = np.unpackbits(np.frombuffer(mask_bits, np.uint8).reshape(n, lay.mask_nbytes), axis=1,
                              count=self.n_actions, bitorder="little").view(np.int8)
        self._masks = masks
        return obs, masks.copy(), np.array(seats, np.int64)

    @property
    def states(self) -> list[Any]:
        """The hands being played (engine `State`s), for inspection."""
        return [r.state for r in self._runners]
