"""Bots at the web table, asked off the event loop: the quick ones in a small thread pool, the search bots in a
bounded pool of worker processes (a search decision takes milliseconds of pure Python, which would hold up every
other table). A bot is made afresh for each decision, seeded by the match, hand, seat and step, and sees only the
seat's `View`, so the same table replays to the same choices after a restart."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from engine.bots.base import CMD_PREFIX, SEARCHERS, check_bot_spec, make_bot
from engine.play.actions import Action
from engine.play.game import Game, load_game
from engine.play.view import View

MAX_WORLDS = 256          # a table may ask a search bot for at most this many worlds per decision
_GAMES: dict[str, Game] = {}


def check_table_bot(spec: str) -> str:
    """The bot name if a table may seat it (built-in bots only, a bounded search effort); ValueError otherwise."""
    spec = spec.strip()
    if spec.startswith(CMD_PREFIX):
        raise ValueError("a web table seats only built-in bots, never an outside program")
    check_bot_spec(spec)
    name, _, option = spec.partition(":")
    if name in SEARCHERS and option and int(option) > MAX_WORLDS:
        raise ValueError(f"bot {spec!r}: at most {MAX_WORLDS} worlds per decision at a web table")
    return spec


def choose_in_worker(spec: str, ref: str, seed: int, view: View, legal: Sequence[Action]) -> str:
    """Run in a worker process: the bot's action for one decision (the game loaded once per worker)."""
    game = _GAMES.get(ref)
    if game is None:
        game = _GAMES[ref] = load_game(ref)
    return make_bot(spec, game, seed).choose(view, legal).notation


def choose_here(spec: str, game: Game, seed: int, view: View, legal: Sequence[Action]) -> str:
    return make_bot(spec, game, seed).choose(view, legal).notation


class BotPool:
    """The executors bots run in, started on first use and shut down with the server."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = max(1, workers)
        self._threads: ThreadPoolExecutor | None = None
        self._processes: ProcessPoolExecutor | None = None

    def _executor(self, searcher: bool) -> Executor:
        if searcher:
            if self._processes is None:
                # spawn: a forked copy of a server with running threads could hold a lock forever
                self._processes = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
            return self._processes
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="jacknine-bot")
        return self._threads

    async def choose(self, spec: str, game: Game, seed: int, view: View, legal: Sequence[Action]) -> str:
        loop = asyncio.get_running_loop()
        searcher = spec.partition(":")[0] in SEARCHERS and game.ref is not None
        if searcher:
            assert game.ref is not None
            return await loop.run_in_executor(self._executor(True), choose_in_worker, spec, game.ref, seed, view,
                                              tuple(legal))
        return await loop.run_in_executor(self._executor(False), choose_here, spec, game, seed, view, tuple(legal))

    def close(self) -> None:
        if self._threads is not None:
            self._threads.shutdown(wait=True, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=True, cancel_futures=True)
        self._threads = self._processes = None
