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


def register(name: str, factory: Callable[[int], Bot]) -> None:
    _REGISTRY[name] = factory


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot by name ('random', ...); raises ValueError naming the known ones."""
    from engine.bots import random_bot  # noqa: F401  (registers itself)

    if spec not in _REGISTRY:
        raise ValueError(f"unknown bot '{spec}' (known: {', '.join(sorted(_REGISTRY))})")
    return _REGISTRY[spec](seed)


def known_bots() -> list[str]:
    from engine.bots import random_bot  # noqa: F401

    return sorted(_REGISTRY)
