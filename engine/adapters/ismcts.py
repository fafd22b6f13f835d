"""`ismcts`: OpenSpiel's IS-MCTS as a jacknine bot, an outside reference for the engine's own bots (needs the
`openspiel` extra).

Every decision, the bot draws one world its seat cannot tell from its view (engine/adapters/resample.py), makes
it an OpenSpiel state of the `python_jacknine` game, and asks `open_spiel.python.algorithms.ismcts.ISMCTSBot` for
an action. The search resamples worlds from the seat's information state at every simulation (hidden cards
uniformly among those that fit, as OpenSpiel's IS-MCTS assumes), grows one tree over information states, and
values new nodes by one random play-out (`RolloutEvaluator`); the action visited most is played. Budgets are
counts, so a seed gives the same choices on any machine: `ismcts` runs SIMULATIONS simulations per decision,
`ismcts:N` runs N, with UCT constant UCT_C (game points are the returns).

OpenSpiel's C++ `pyspiel.ISMCTSBot` cannot be used here: the bridge OpenSpiel uses for games written in Python
does not pass `ResampleFromInfostate` on to the Python method (open_spiel 2.0.2), so its C++ algorithms stop with
"ResampleFromInfostate() not implemented" on any Python game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.adapters.resample import WorldDrawer
from engine.bots.registry import BotOptions
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.view import View

SIMULATIONS = 200
UCT_C = 2.0


class IsmctsBot:
    name = "ismcts"
    needs_view = True

    def __init__(self, game: Game, seed: int = 0, options: BotOptions | None = None, uct_c: float = UCT_C) -> None:
        simulations = options.worlds if options is not None and options.worlds is not None else SIMULATIONS
        try:
            import numpy as np
            import pyspiel  # type: ignore[import-not-found]
            from open_spiel.python.algorithms.ismcts import ISMCTSBot
        except ImportError:
            raise ValueError("bot 'ismcts' needs OpenSpiel: pip install '.[openspiel]' (from a checkout)") from None
        from engine.adapters.openspiel import RolloutEvaluator, use_game
        from engine.adapters.openspiel import register as register_game

        register_game()
        self.game = game
        self.simulations = simulations
        self.rng = random.Random(seed)
        self.spiel_game = pyspiel.load_game("python_jacknine", {"ruleset": use_game(game)})
        self.search: Any = ISMCTSBot(self.spiel_game, RolloutEvaluator(1, seed=self.rng.getrandbits(48)), uct_c,
                                     simulations, random_state=np.random.RandomState(self.rng.getrandbits(32)))
        # the worlds drawn from this bot's seed (OpenSpiel's default sampler is seeded afresh at every call)
        draws = random.Random(self.rng.getrandbits(48)).random
        self.search.set_resampler(lambda state, player: state.resample_from_infostate(player, draws))
        self.incidents: list[str] = []

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        assert view is not None
        world = WorldDrawer(self.game, view).draw(self.rng)
        if world is None:     # no deal fits the view (the tests find none): play on rather than stop
            self.incidents.append("no world fits the view; the first legal action was played")
            return legal[0]
        state = self.spiel_game.new_initial_state()
        state._load(world)
        space = state._g.space
        index = int(self.search.step(state))
        for a in legal:
            if space.of(a) == index:
                return a
        raise AssertionError(f"IS-MCTS chose {space.names[index]!r}, not a legal action")

