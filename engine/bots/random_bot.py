"""The random bot: uniform over the legal actions, from its own seeded generator."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots.registry import BotOptions
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.view import View


class RandomBot:
    name = "random"
    needs_view = False

    def __init__(self, game: Game | None = None, seed: int = 0, options: BotOptions | None = None) -> None:
        """`game` is not needed: any legal action will do."""
        self._rng = random.Random(seed)
        self._random = self._rng.random

    def reseed(self, seed: int) -> None:
        """As a new bot built with `seed`."""
        self._rng.seed(seed)

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        return legal[int(self._random() * len(legal))]
