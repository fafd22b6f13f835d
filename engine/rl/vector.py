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
raises IllegalActionError before any hand moves. The per-hand work (engine/adapters/runner.py, compiled with the
hot path) is the engine's step and a few numbers read from the hand: its seat to act, that seat's cards and the
cards played as bits, the trick, the card points. What a card played seldom moves (the trump, the phase, the
contract, the bids, ...) is kept for every hand's every seat in one array and rewritten only when it moves. Each
step's observations are that array's rows of the seats to act, with the rest written in by one numpy call per
part for all hands; the masks are made from the playable cards' bitmasks in bulk. The arrays returned are new at
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
        n, size, ob = game.n, self.enc.obs.size, self.enc.obs
        # every hand's every seat's slow parts (`VectorCore`), row i * players + seat
        self._slow_rows = np.zeros((num_hands * n, size), np.float32)
        self._first_row = np.arange(num_hands, dtype=np.int64) * n
        self._hand_col = np.arange(num_hands, dtype=np.int64)[:, None]
        self._seat_col = np.arange(n, dtype=np.int64)[None, :]
        # a trick entry's flat position in the observations, less one (the entry is the card's position + 1)
        self._trick_base = (self._hand_col * size + ob.o_trick - 1) + self._seat_col * game.size
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
        """The observations, masks and seats to act after the last step (new arrays)."""
        num, n, ob = self.num_hands, self.game.n, self.enc.obs
        csize = self.game.size
        w = core.words
        nums = np.array(core.nums, np.uint64).reshape(num, core.width)
        info = nums[:, 0]
        seats = (info & np.uint64(255)).astype(np.int64)
        if core.slow_at:
            self._slow_rows[core.slow_at] = np.frombuffer(b"".join(core.slow), np.float32).reshape(
                len(core.slow_at), -1)
        obs = self._slow_rows[self._first_row + seats]
        cards = self._spread(nums[:, 1:1 + 2 * w], 2 * num)     # the seat's cards, then the cards played
        obs[:, ob.o_hand:ob.o_hand + csize] = cards[0::2]
        obs[:, ob.o_played:ob.o_played + csize] = cards[1::2]
        # the trick by seat, turned to each hand's seat to act; a card's position + 1 (0: none)
        by_seat = _le(nums[:, 1 + 2 * w:]).view(np.uint8).reshape(num, -1)
        trick = by_seat[self._hand_col, (seats[:, None] + self._seat_col) % n].astype(np.int64)
        at = self._trick_base + trick
        obs.reshape(-1)[at[trick > 0]] = 1.0
        obs[:, ob.o_card_points] = (info >> np.uint64(36)).astype(np.float64) / ob.total
        obs[:, ob.o_card_points + 1] = (info >> np.uint64(8) & np.uint64((1 << 28) - 1)).astype(np.float64) / ob.total
        if ob.exposes:
            o = ob.offsets["exposed"]
            words = np.array(core.exposed, np.uint64).reshape(num * n, w)
            obs[:, o:o + n * csize] = self._spread(words, num * n).reshape(num, n * csize)
        if core.whole_at:
            obs[core.whole_at] = np.frombuffer(b"".join(core.whole), np.float32).reshape(len(core.whole_at), -1)
        masks = np.zeros((num, self.n_actions), np.int8)
        if core.bulk:      # the playable cards' bits, all hands at once
            masks[:, self._cards] = np.array(core.bits, np.uint64)[:, None] >> self._shifts & np.uint64(1)
        if core.extra:
            masks.reshape(-1)[core.extra] = 1
        return obs, masks, seats

    def _spread(self, words: np.ndarray, count: int) -> np.ndarray:
        """`count` card parts given as 64-bit numbers (`VectorCore.words` each, lowest first): 0/1 by position."""
        raw = _le(words).view(np.uint8).reshape(count, -1)
        return np.unpackbits(raw, axis=1, bitorder="little")[:, :self.game.size]

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


def _le(words: np.ndarray) -> np.ndarray:
    """Unsigned 64-bit numbers, little-endian and contiguous (so that their bytes run lowest first)."""
    return np.ascontiguousarray(words, dtype="<u8")
