"""What the bots that read their seat's View share: a seeded generator and the compiled game they play."""

from __future__ import annotations

import random

from engine.bots.evaluate import warm
from engine.bots.info import game_named
from engine.play.game import Game
from engine.play.view import View


class ViewBot:
    needs_view = True

    def __init__(self, seed: int = 0, game: Game | None = None) -> None:
        self._rng = random.Random(seed)
        self.game = game

    def bind(self, game: Game) -> None:
        """Tell the bot which compiled game it plays (otherwise it loads the game its views name)."""
        warm(game)
        self.game = game

    def game_for(self, view: View | None) -> Game:
        assert view is not None, f"the {type(self).__name__} needs its seat's view"
        return self.game or game_named(view.ruleset)
