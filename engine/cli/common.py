"""What every command shares: one clear line per error and the exit codes (0 ok, 1 rules/record, 2 unreadable)."""

from __future__ import annotations

from pathlib import Path
from typing import IO, NoReturn

import typer

from engine.bots.base import Bot, make_bot
from engine.bots.registry import bot_list
from engine.errors import RulesetError, UnreadableError
from engine.play.compile import load_game
from engine.play.game import Game
from engine.rules.load import DEFAULT_RULESET
from engine.text import printable

__all__ = ["DEFAULT_RULESET", "INVALID", "UNREADABLE", "fail", "load_game_or_exit", "make_bots", "open_new_file"]

INVALID = 1
UNREADABLE = 2


def fail(message: str, code: int) -> NoReturn:
    """Print `message` (made safe for a terminal) on stderr and exit with `code`."""
    typer.echo(printable(message, keep_newlines=True), err=True)
    raise typer.Exit(code)


def load_game_or_exit(ref: str, base_dir: Path | None = None, exit_code: int = INVALID) -> Game:
    """Load and compile a rule file, or print its problems and exit (`exit_code` for an invalid one)."""
    target: str | Path = ref
    if base_dir is not None and ("/" in ref or ref.endswith((".yaml", ".yml"))) and not Path(ref).is_absolute():
        target = base_dir / ref
    try:
        return load_game(target)
    except UnreadableError as e:
        fail(str(e), UNREADABLE)
    except RulesetError as e:
        fail(str(e), exit_code)


def open_new_file(path: Path) -> IO[str]:
    """Open a file for writing that must not exist yet: nothing the user wrote is overwritten."""
    try:
        return path.open("x", encoding="utf-8")
    except FileExistsError:
        fail(f"{path}: already exists; choose a new file name (nothing was overwritten)", UNREADABLE)
    except OSError as e:
        fail(f"{path}: cannot write ({e.strerror or e})", UNREADABLE)


def make_bots(spec: str, game: Game, seed: int) -> list[Bot]:
    """One bot name for every seat, or one name per seat separated by commas; each bot plays `game`."""
    players = game.n
    names = bot_list(spec)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        fail(f"--bots: give one bot for every seat or one per seat ({players} seats), not {len(names)}", UNREADABLE)
    try:
        return [make_bot(name, game, seed * 1000 + i) for i, name in enumerate(names)]
    except ValueError as e:
        fail(f"--bots: {e}", UNREADABLE)
