"""jacknine: one engine for the Jack-Nine family of trick-taking card games, driven by YAML rule files.

The public API::

    from engine import load_game, Action
    game = load_game("twenty-eight")           # a shipped name or a path to a rule file
    state = game.new_hand(dealer=0, seed=7)    # the same seed always deals the same cards
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    state.result                               # tricks, card points, contract, game points
"""

from engine.errors import (
    ArgumentError,
    IllegalActionError,
    JacknineError,
    RecordError,
    RulesetError,
    UnreadableError,
)
from engine.play.actions import Action
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.match import Match
from engine.play.state import State
from engine.play.view import View
from engine.rules.load import load_ruleset

__all__ = ["Action", "ArgumentError", "Game", "IllegalActionError", "JacknineError", "Match", "RecordError",
           "RulesetError", "State", "UnreadableError", "View", "load_game", "load_ruleset"]
