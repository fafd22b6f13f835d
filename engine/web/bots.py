"""Bots at the web table, asked off the event loop: the quick ones in a small thread pool, the search bots in a
bounded pool of worker processes (a search decision takes milliseconds of pure Python, which would hold up every
other table). A quick bot is made once per hand and seat (seeded by the match, the hand and the seat) and kept for
the hand; a search bot is made in its worker for each decision (seeded by the step too). Bots see only the seat's
`View`. After a restart a hand's bots start afresh: a bot that draws random numbers may then choose otherwise than
it would have, which no one at the table can tell; the log, not the bots, rebuilds the table."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from engine.bots.base import Bot, make_bot
from engine.bots.registry import parse_bot_spec
from engine.play.actions import Action
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.view import View

MAX_WORLDS = 256          # a table may ask a search bot for at most this many worlds per decision
KEPT_BOTS = 4096          # quick bots kept (a hand's bots at every table), the oldest dropped first
_GAMES: dict[str, Game] = {}


def check_table_bot(spec: str) -> str:
    """The bot name if a table may seat it (built-in bots only, a bounded search effort); ValueError otherwise."""
    spec = spec.strip()
    parsed = parse_bot_spec(spec, bounded=False)
    if parsed.is_program:
        raise ValueError("a web table seats only built-in bots, never an outside program")
    worlds = parsed.options.worlds
    if worlds is not None and worlds > MAX_WORLDS:
        raise ValueError(f"bot {spec!r}: at most {MAX_WORLDS} worlds per decision at a web table")
    parse_bot_spec(spec)   # within the registry's own bounds too
    return spec


def is_searcher(spec: str) -> bool:
    """A bot that samples worlds (costly per decision): it decides in a worker process."""
    kind = parse_bot_spec(spec).kind
    return kind is not None and kind.takes_worlds


def choose_in_worker(spec: str, ref: str, seed: int, view: View, legal: Sequence[Action]) -> str:
    """Run in a worker process: the bot's action for one decision (the game loaded once per worker)."""
    game = _GAMES.get(ref)
    if game is None:
        game = _GAMES[ref] = load_game(ref)
    return make_bot(spec, game, seed).choose(view, legal).notation


def choose_with(bot: Bot, view: View, legal: Sequence[Action]) -> str:
    return bot.choose(view, legal).notation


class BotPool:
    """The executors bots run in, started on first use and shut down with the server."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = max(1, workers)
        self._threads: ThreadPoolExecutor | None = None
        self._processes: ProcessPoolExecutor | None = None
        self._bots: OrderedDict[Hashable, Bot] = OrderedDict()

    def _executor(self, searcher: bool) -> Executor:
        if searcher:
            if self._processes is None:
                # spawn: a forked copy of a server with running threads could hold a lock forever
                self._processes = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
            return self._processes
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="jacknine-bot")
        return self._threads

    async def choose(self, spec: str, game: Game, key: Hashable, hand_seed: int, step_seed: int, view: View,
                     legal: Sequence[Action]) -> str:
        """The bot's action. `key` names the bot (table, hand, seat, spec): a quick bot is kept under it for the
        hand, seeded with `hand_seed`; a search bot is made per decision, seeded with `step_seed`."""
        loop = asyncio.get_running_loop()
        if is_searcher(spec) and game.ref is not None:
            return await loop.run_in_executor(self._executor(True), choose_in_worker, spec, game.ref, step_seed,
                                              view, tuple(legal))
        bot = self._bots.get(key)
        if bot is None:   # made in the pool too: the first bot of a game builds its evaluation tables
            bot = await loop.run_in_executor(self._executor(False), make_bot, spec, game, hand_seed)
            self._bots[key] = bot
            while len(self._bots) > KEPT_BOTS:
                self._bots.popitem(last=False)
        return await loop.run_in_executor(self._executor(False), choose_with, bot, view, tuple(legal))

    def close(self) -> None:
        if self._threads is not None:
            self._threads.shutdown(wait=True, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=True, cancel_futures=True)
        self._threads = self._processes = None
