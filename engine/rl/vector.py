"""A vectorised environment for array-based trainers: N hands stepped at once from one array of actions.

    venv = engine.rl.VectorEnv(ruleset=NAME_OR_PATH, num_hands=256)
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
raises IllegalActionError before any hand moves. Every seat's observation row is kept in one preallocated array
(hands x seats x observation size); the per-hand work (engine/adapters/runner.py, compiled with the hot path) is the
engine's step and the list of what changed in the rows, written here with one numpy call per kind of change for
all hands at once; the masks are made from the playable cards' bitmasks in bulk. The arrays returned are new at
every step (the environment never writes them again).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np

from engine.adapters.runner import VectorCore
from engine.errors import ArgumentError, IllegalActionError
from engine.play.game import Game
from engine.rl.aec import Encoder, load
from engine.rules.load import DEFAULT_RULESET


class VectorEnv:
    """N hands of one rule file, stepped together (see the module's documentation)."""

    def __init__(self, ruleset: str | Path | Game = DEFAULT_RULESET, num_hands: int = 256,
                 dealer: int | None = None) -> None:
        game = self.game = load(ruleset)
        if isinstance(num_hands, bool) or not isinstance(num_hands, int) or not 1 <= num_hands <= 1_000_000:
            raise ArgumentError(f"num_hands {num_hands!r}: a whole number from 1 to 1,000,000")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < game.n):
            raise ArgumentError(f"dealer {dealer!r} is not at the table (seats 0..{game.n - 1})")
        self.enc = Encoder(game)
        self.layout = self.enc.layout
        self.num_hands = num_hands
        self.dealer = -1 if dealer is None else dealer
        self.observation_space = self.enc.vector_space
        self.n_actions = self.enc.n_actions
        self._core: VectorCore | None = None
        size = self.enc.obs.size
        # every seat's kept row, hand by hand (row i * players + seat)
        self._rows = np.zeros((num_hands * game.n, size), np.float32)
        self._first_row = np.arange(num_hands, dtype=np.int64) * game.n
        play0 = self.layout.play0
        self._cards = slice(max(0, play0), max(0, play0) + game.size)
        self._shifts = np.arange(game.size, dtype=np.uint64)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
        base = random.Random(seed).getrandbits(48) if seed is not None else random.getrandbits(48)
        seeds = [random.Random(f"vector/{base}/{i}").getrandbits(48) for i in range(self.num_hands)]
        core = self._core = VectorCore(self.layout, seeds, self.dealer)
        obs, masks, seats = self._show(core)
        return obs, masks, {"to_act": seats}

    def _show(self, core: VectorCore) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Write what the last step changed into the kept rows; the observations, masks and seats to act (new
        arrays)."""
        rows = self._rows
        if core.whole_at:
            rows[core.whole_at] = np.frombuffer(b"".join(core.whole), np.float32).reshape(len(core.whole_at), -1)
        ch = core.changes
        if ch.ones:
            rows[_ints(ch.ones_r), _ints(ch.ones)] = 1.0
        if ch.zeros:
            rows[_ints(ch.zeros_r), _ints(ch.zeros)] = 0.0
        if ch.vidx:
            rows[_ints(ch.vidx_r), _ints(ch.vidx)] = ch.vval
        seats = np.array(core.seats, np.int64)
        obs = rows[self._first_row + seats]
        masks = np.zeros((self.num_hands, self.n_actions), np.int8)
        if core.bulk:      # the playable cards' bits, all hands at once
            masks[:, self._cards] = np.array(core.bits, np.uint64)[:, None] >> self._shifts & np.uint64(1)
        if core.extra:
            masks.reshape(-1)[core.extra] = 1
        return obs, masks, seats

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        core = self._core
        if core is None:
            raise ArgumentError("reset() the environment before stepping it")
        acts = np.asarray(actions)
        if acts.shape != (self.num_hands,) or not np.issubdtype(acts.dtype, np.integer):
            raise ArgumentError(f"actions: one whole number per hand ({self.num_hands}), not {acts.shape} "
                                f"of {acts.dtype}")
        todo = acts.tolist()
        bad = core.first_illegal(todo)
        if bad >= 0:
            raise IllegalActionError(f"hand {bad}: action {todo[bad]} is not legal now")
        core.step(todo)
        rewards = np.zeros((self.num_hands, self.game.n), np.float32)
        dones = np.zeros(self.num_hands, np.bool_)
        if core.ended:
            rewards[core.ended] = np.array(core.ended_points, np.float32).reshape(len(core.ended), -1)
            dones[core.ended] = True
        obs, masks, seats = self._show(core)
        return obs, masks, rewards, dones, {"to_act": seats}

    @property
    def states(self) -> list[Any]:
        """The hands being played (engine `State`s), for inspection."""
        return list(self._core.states) if self._core is not None else []


def _ints(parts: list[bytes]) -> np.ndarray:
    """int64 bytes joined, as an array."""
    return np.frombuffer(b"".join(parts), np.int64)
