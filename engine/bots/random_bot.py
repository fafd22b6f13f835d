"""The random bot: uniform over the legal actions, from its own seeded generator."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots.base import register
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.view import View


class RandomBot:
    name = "random"
    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed).random

    @classmethod
    def for_game(cls, game: Game, seed: int = 0) -> RandomBot:
        return cls(seed)

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        return legal[int(self._random() * len(legal))]


register("random", RandomBot.for_game)
