"""The built-in bots, in one table, and the one reader of bot names (`search:8`, `heuristic:never`, `cmd:...`)
that the CLI, the table, saves and tournaments use.

A bot name is `NAME[:OPTION]...`: each option either a whole number (sampled worlds per decision, for the bots that
take it) or a word the bot takes (`never`: the contract policy of 0.1, for comparisons; `heuristic:v1`: the heuristic
as it was before it bid from the hand's worth and weighed its last cards over sampled worlds (engine/bots/endgame.py),
its auction and its card play of then; `heuristic:v2`: its auction before a banked file's bids and doubles
weighed the banked score; `heuristic:v3`: its turned-card choice before it counted the cards in play); or
`cmd:PROGRAM`, an
outside program. A new built-in bot is one module whose class takes `(game, seed, options)`, plus one line in
`BUILTIN_BOTS`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.play.game import Game

if TYPE_CHECKING:
    from engine.bots.base import Bot

CMD_PREFIX = "cmd:"
MAX_WORLDS_DIGITS = 6
READ_DIGITS = 18           # a saved name's number of worlds is read this far to say what it asks for
NEVER = "never"
V1 = "v1"                  # the heuristic's auction before bidding from the hand's worth, and its card play before the
                           # endgame (kept for comparisons)
V2 = "v2"                  # the heuristic's auction before banked files weighed their banked scores (the same)
V3 = "v3"                  # the heuristic's turned-card choice before it counted the cards in play (the same)


@dataclass(frozen=True)
class BotKind:
    """One built-in bot: its name, where its class lives (`module:Class`), what it does in a few words, and the
    options it takes."""

    name: str
    where: str
    summary: str
    takes_worlds: bool = False
    words: tuple[str, ...] = ()


BUILTIN_BOTS: tuple[BotKind, ...] = (
    BotKind("random", "engine.bots.random_bot:RandomBot", "uniform over the legal actions"),
    BotKind("heuristic", "engine.bots.heuristic:HeuristicBot", "hand evaluation, card-play rules of thumb, the last "
            "cards weighed over a few sampled worlds",
            words=(NEVER, V1, V2, V3)),
    BotKind("pimc", "engine.bots.pimc:PimcBot", "plain determinized search (the search bot of 0.1)",
            takes_worlds=True, words=(NEVER,)),
    BotKind("search", "engine.bots.search:SearchBot", "determinized search with inference, contract steps "
            "searched too", takes_worlds=True, words=(NEVER,)),
    # OpenSpiel's IS-MCTS (the openspiel extra); its number is simulations per decision
    BotKind("ismcts", "engine.adapters.ismcts:IsmctsBot", "OpenSpiel's information-set Monte Carlo tree search",
            takes_worlds=True),
)
_BY_NAME = {k.name: k for k in BUILTIN_BOTS}


@dataclass(frozen=True)
class BotOptions:
    """What a bot name asks of a built-in bot: `worlds` sampled worlds per decision (None: its own budget) and
    option words (`never`, `v1`, `v2`, `v3`)."""

    worlds: int | None = None
    words: frozenset[str] = field(default_factory=frozenset)

    @property
    def never(self) -> bool:
        """The contract policy of 0.1 (special options practically never taken), kept for comparisons."""
        return NEVER in self.words

    @property
    def v1(self) -> bool:
        """The heuristic of before bidding from the hand's worth and weighing its last cards over sampled worlds
        (`heuristic:v1`: both its auction and its card play), kept for comparisons."""
        return V1 in self.words

    @property
    def v2(self) -> bool:
        """The heuristic's auction of before a banked file's bids and doubles weighed the banked score
        (`heuristic:v2`), kept for comparisons."""
        return V2 in self.words

    @property
    def v3(self) -> bool:
        """The heuristic's take-or-pass weighing of before it counted the cards in play where some stay in a stock
        (`heuristic:v3`), kept for comparisons."""
        return V3 in self.words


@dataclass(frozen=True)
class BotSpec:
    """A bot name, read: a built-in `kind` with its `options`, or an outside program's `command`."""

    text: str
    kind: BotKind | None
    options: BotOptions
    command: str = ""

    @property
    def is_program(self) -> bool:
        return self.kind is None


def known_bots() -> list[str]:
    return sorted(_BY_NAME) + [CMD_PREFIX + "PROGRAM"]


def names_program(text: str) -> bool:
    """Whether a bot name starts an outside program."""
    return text.strip().startswith(CMD_PREFIX)


def parse_bot_spec(text: str, bounded: bool = True) -> BotSpec:
    """Read a bot name (see the module's docstring); ValueError saying what is wrong, naming the known bots.
    `bounded=False` reads a number of worlds past the bound too (up to READ_DIGITS digits), to say what a saved
    name asks for."""
    spec = text.strip()
    if names_program(spec):
        from engine.bots.external import command_argv

        command = spec[len(CMD_PREFIX):]
        try:
            command_argv(command)
        except ValueError as e:
            raise ValueError(f"bot {spec!r}: {e}") from None
        return BotSpec(spec, None, BotOptions(), command)
    name, *options = spec.split(":")
    kind = _BY_NAME.get(name)
    if kind is None:
        raise ValueError(f"unknown bot '{spec}' (known: {', '.join(known_bots())})")
    worlds: int | None = None
    words: set[str] = set()
    for option in options:
        if option.isascii() and option.isdigit() and kind.takes_worlds:
            digits = MAX_WORLDS_DIGITS if bounded else READ_DIGITS
            if worlds is not None or len(option) > digits or int(option) < 1:
                raise ValueError(f"bot '{spec}': {_takes(kind)}")
            worlds = int(option)
        elif option in kind.words and option not in words:
            words.add(option)
        else:
            raise ValueError(f"bot '{spec}': {_takes(kind)}")
    return BotSpec(spec, kind, BotOptions(worlds, frozenset(words)))


def _takes(kind: BotKind) -> str:
    takes = ([f"'{kind.name}:N' (N worlds per decision, 1 to 999999)"] if kind.takes_worlds else []) + \
        [f"'{kind.name}:{w}'" for w in kind.words]
    if not takes:
        return f"'{kind.name}' takes no option"
    return f"{kind.name} takes only " + ", ".join(takes) + " (options may be combined, each once)"


def check_bot_spec(text: str) -> None:
    """Raise ValueError unless `text` names a bot (nothing is started)."""
    parse_bot_spec(text)


def make_bot(text: str, game: Game, seed: int = 0) -> Bot:
    """The bot `text` names, playing `game`; ValueError for a name that is not one."""
    spec = parse_bot_spec(text)
    if spec.kind is None:
        from engine.bots.external import ExternalBot

        return ExternalBot(spec.command, seed)
    module, _, cls = spec.kind.where.partition(":")
    bot: Bot = getattr(importlib.import_module(module), cls)(game, seed, spec.options)
    return bot


def bot_list(text: str) -> list[str]:
    """The bot names of a comma-separated list, each stripped (empty entries dropped)."""
    return [x.strip() for x in text.split(",") if x.strip()]
