"""`jacknine play`: a whole match at the table (with --auto, bots play every seat and it is shown hand by hand)."""

from __future__ import annotations

from typing import Annotated

import typer

from engine.cli.common import fail, load_game_or_exit, make_bots
from engine.cli.render import render_hand_summary, team_name
from engine.play.match import Match
from engine.sim import play_out


def play_cmd(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Shipped rule file name or path.")] = "twenty-eight",
    auto: Annotated[bool, typer.Option("--auto", help="Bots play every seat; the match is shown hand by hand.")]
    = False,
    bots: Annotated[str, typer.Option("--bots", help="Bot name, or one per seat separated by commas.")] = "random",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed for the deals and the bots.")] = 0,
    max_hands: Annotated[int, typer.Option("--max-hands", min=1, help="Stop after this many hands.")] = 500,
) -> None:
    """Play a whole match to the rule file's end."""
    game = load_game_or_exit(ruleset)
    if not auto:
        fail("play: interactive play is not available yet; use --auto to watch bots play a match", 2)
    seat_bots = make_bots(bots, game.n, seed)
    match = Match(game, seed=seed, max_hands=max_hands)
    teams = game.teams
    typer.echo(f"{game.name}: {game.rules.description}")
    typer.echo("teams: " + ", ".join(team_name(teams, i) for i in range(len(teams))))
    number = 0
    while not match.is_over:
        number += 1
        state = match.new_hand()
        play_out(state, seat_bots)
        match.record_hand(state)
        typer.echo(f"\nhand {number}, dealer {state.dealer}:")
        typer.echo(render_hand_summary(state))
        typer.echo("  match score: " + ", ".join(f"{team_name(teams, i)} {s}" for i, s in enumerate(match.scores)))
    won = " and ".join(team_name(teams, i) for i in match.winners)
    typer.echo(f"\nmatch over after {number} hands: {won} won ({', '.join(str(s) for s in match.scores)})")


def register(app: typer.Typer) -> None:
    app.command("play")(play_cmd)
