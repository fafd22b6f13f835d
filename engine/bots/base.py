"""The bot interface: a bot chooses one of the legal actions from what its seat may see."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from engine.play.actions import Action
from engine.play.view import View


class Bot(Protocol):
    """`needs_view`: whether `choose` reads the view (building one costs time; a random bot skips it)."""

    name: str
    needs_view: bool

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action: ...


BotFactory = Callable[[int], Bot]   # seed -> bot

_REGISTRY: dict[str, Callable[[int], Bot]] = {}
CMD_PREFIX = "cmd:"


def register(name: str, factory: Callable[[int], Bot]) -> None:
    _REGISTRY[name] = factory


def _load_builtins() -> None:
    from engine.bots import heuristic, random_bot, search  # noqa: F401  (each registers itself)


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot by name ('random', 'heuristic', 'search', 'search:ITERATIONS') or an outside program ('cmd:PROGRAM');
    raises ValueError naming the known ones."""
    if spec.startswith(CMD_PREFIX):
        from engine.bots.external import ExternalBot

        return ExternalBot(spec[len(CMD_PREFIX):], seed)
    _load_builtins()
    name, _, option = spec.partition(":")
    if name not in _REGISTRY:
        raise ValueError(f"unknown bot '{spec}' (known: {', '.join(known_bots())})")
    if option:
        from engine.bots.search import SearchBot

        if name != "search" or not option.isdigit() or int(option) < 1:
            raise ValueError(f"bot '{spec}': only 'search:N' takes an option (N worlds per decision, N >= 1)")
        return SearchBot(seed, worlds=int(option))
    return _REGISTRY[name](seed)


def known_bots() -> list[str]:
    _load_builtins()
    return sorted(_REGISTRY) + [CMD_PREFIX + "PROGRAM"]
