"""What the bots that read their seat's View share: the compiled game they play, its hand model and contract
policy (the `never` option: 0.1's; `v1`: the auction of before bidding from the hand's worth; the heuristic's
card play of before its endgame goes with `v1` and `never`, heuristic.py), and a seeded generator."""

from __future__ import annotations

import random
from typing import TypeVar

from engine.bots.model import model_for
from engine.bots.policy import policy_for
from engine.bots.registry import BotOptions
from engine.play.game import Game
from engine.play.view import View

T = TypeVar("T")


def interpreted_class(cls: T) -> T:
    """Leaves a class as it is. On a class in a module the build compiles (setup.py), any decorator mypyc does not
    know keeps the class an ordinary Python class - its module's functions compiled all the same - so that it may
    inherit from ViewBot and be subclassed by bots written in Python."""
    return cls


class ViewBot:
    needs_view = True

    def __init__(self, game: Game, seed: int = 0, options: BotOptions | None = None) -> None:
        self.options = options if options is not None else BotOptions()
        self.game = game
        self.model = model_for(game)
        self.model.warm()   # the hand-evaluation tables are built now, not in the middle of a hand
        self.policy = policy_for(self.model, self.options.never, self.options.v1, self.options.v2,
                                 self.options.v3)
        self._rng = random.Random(seed)

    def reseed(self, seed: int) -> None:
        """As a new bot built with `seed` (the generator is all a bot of this kind carries from hand to hand)."""
        self._rng.seed(seed)

    def check_view(self, view: View | None) -> View:
        if view is None:
            raise ValueError(f"the {type(self).__name__} needs its seat's view")
        if view.ruleset != self.game.rules.name or view.players != self.game.n:
            raise ValueError(f"the {type(self).__name__} plays {self.game.rules.name}, not {view.ruleset}")
        return view
