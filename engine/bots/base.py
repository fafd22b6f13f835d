"""The bot interface: a bot chooses one of the legal actions from what its seat may see.

Bots are made for one compiled `Game`, handed to them by whoever runs them (the table, simulate, tournaments,
the OpenSpiel adapter): a bot never loads a rule file by name, so a house rule is played by its own rules."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from engine.play.actions import Action
from engine.play.game import Game
from engine.play.view import View


class Bot(Protocol):
    """`needs_view`: whether `choose` reads the view (building one costs time; a random bot skips it)."""

    name: str
    needs_view: bool

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action: ...


BotFactory = Callable[[Game, int], Bot]   # (game, seed) -> bot

_REGISTRY: dict[str, BotFactory] = {}
CMD_PREFIX = "cmd:"


def register(name: str, factory: BotFactory) -> None:
    _REGISTRY[name] = factory


def _load_builtins() -> None:
    from engine.adapters import ismcts  # noqa: F401  (OpenSpiel's IS-MCTS; imports OpenSpiel only when made)
    from engine.bots import heuristic, pimc, random_bot, search  # noqa: F401  (each registers itself)


SEARCHERS = ("search", "pimc", "ismcts")   # bots with a budget per decision: 'search:N' worlds, 'ismcts:N' runs


def check_bot_spec(spec: str) -> None:
    """Raise ValueError (naming the known bots) unless `spec` names a bot: 'random', 'heuristic', 'search' (search
    with inference from the auction and play, and a searched bid and trump), 'pimc' (plain determinized search,
    the search bot of 0.1), 'search:N' or 'pimc:N' (N sampled worlds per decision), 'ismcts' (OpenSpiel's IS-MCTS,
    'ismcts:N' for N simulations per decision), or an outside program 'cmd:PROGRAM'."""
    if spec.startswith(CMD_PREFIX):
        from engine.bots.external import command_argv

        try:
            command_argv(spec[len(CMD_PREFIX):])
        except ValueError as e:
            raise ValueError(f"bot {spec!r}: {e}") from None
        return
    _load_builtins()
    name, sep, option = spec.partition(":")
    if name not in _REGISTRY:
        raise ValueError(f"unknown bot '{spec}' (known: {', '.join(known_bots())})")
    if sep and (name not in SEARCHERS or not (option.isascii() and option.isdigit()) or len(option) > 6
                or int(option) < 1):
        raise ValueError(f"bot '{spec}': only 'search:N' takes an option (N worlds per decision, 1 to 999999; "
                         "'pimc:N' likewise, 'ismcts:N' N simulations)")


def make_bot(spec: str, game: Game, seed: int = 0) -> Bot:
    """The bot `spec` names (see `check_bot_spec`), playing `game`; raises ValueError for an unknown name."""
    check_bot_spec(spec)
    if spec.startswith(CMD_PREFIX):
        from engine.bots.external import ExternalBot

        return ExternalBot(spec[len(CMD_PREFIX):], seed)
    name, _, option = spec.partition(":")
    if option:
        from engine.bots.pimc import PimcBot
        from engine.bots.search import SearchBot

        if name == "ismcts":
            from engine.adapters.ismcts import IsmctsBot

            return IsmctsBot(game, seed, simulations=int(option))
        return (PimcBot if name == "pimc" else SearchBot)(game, seed, worlds=int(option))
    return _REGISTRY[name](game, seed)


def known_bots() -> list[str]:
    _load_builtins()
    return sorted(_REGISTRY) + [CMD_PREFIX + "PROGRAM"]
