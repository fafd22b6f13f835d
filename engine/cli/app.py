"""The typer application; each command group lives in its own module and registers itself here."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="jacknine",
    help="Play, check and simulate the Jack-Nine family of card games (28, 29, 40, 56 and house rules).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register_all() -> None:
    from engine.cli import hand_cmds, play_cmd, rules_cmds, tournament_cmd

    rules_cmds.register(app)
    hand_cmds.register(app)
    play_cmd.register(app)
    tournament_cmd.register(app)


_register_all()


def main() -> None:
    app()
