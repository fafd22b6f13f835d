"""The bot interface: a bot chooses one of the legal actions from what its seat may see.

Bots are made for one compiled `Game`, handed to them by whoever runs them (the table, simulate, tournaments,
the OpenSpiel adapter): a bot never loads a rule file by name, so a house rule is played by its own rules. Which
bots there are, and how a bot name is read, is `engine.bots.registry` (re-exported here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.bots.registry import (
    CMD_PREFIX,
    BotOptions,
    BotSpec,
    check_bot_spec,
    known_bots,
    make_bot,
    parse_bot_spec,
)
from engine.play.actions import Action
from engine.play.view import View

__all__ = ["CMD_PREFIX", "Bot", "BotOptions", "BotSpec", "check_bot_spec", "known_bots", "make_bot",
           "parse_bot_spec"]


class Bot(Protocol):
    """`needs_view`: whether `choose` reads the view (building one costs time; a random bot skips it)."""

    name: str
    needs_view: bool

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action: ...
