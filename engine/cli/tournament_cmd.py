"""The tournament command: duplicate deals between two bots."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from engine.cli.common import DEFAULT_RULESET, UNREADABLE, fail, load_game_or_exit


def tournament_cmd(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Shipped rule file name or path.")] = DEFAULT_RULESET,
    bots: Annotated[str, typer.Option(
        "--bots", help="Two bots, e.g. 'search,heuristic' or 'cmd:python3 bot.py,random'.")] = "heuristic,random",
    hands: Annotated[int, typer.Option(
        "--hands", "-n", min=1, help="How many deals (each is played in every seating).")] = 200,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed for the deals and the bots.")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Worker processes (same result as one).")] = 1,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0.01,
                                              help="Seconds an outside bot may take per decision.")] = 2.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
) -> None:
    """Duplicate tournament: every deal is played with the bots in each other's seats, so the luck cancels.

    Reports game points per hand for each bot with a 95% confidence interval, the difference between them, contract
    success and time per decision. Outside bots (cmd:PROGRAM) that crash, stall or answer illegally are reported
    and the random bot decides for them."""
    from engine.tournament import run

    game = load_game_or_exit(ruleset)
    specs = [x.strip() for x in bots.split(",") if x.strip()]
    if len(specs) != 2:
        fail(f"--bots: give exactly two bots separated by a comma, not {len(specs)}", UNREADABLE)
    progress = None
    if sys.stderr.isatty() and not as_json:
        def progress(done: int) -> None:
            typer.echo(f"\r{done}/{hands} deals", err=True, nl=False)
    try:
        report = run(game, specs, hands, seed, workers=workers, time_limit=time_limit,
                     on_progress=progress)
    except ValueError as e:
        fail(f"--bots: {e}", UNREADABLE)
    if progress is not None:
        typer.echo("", err=True)
    typer.echo(json.dumps(report) if as_json else render(report))


def render(report: dict[str, Any]) -> str:
    lines = [f"{report['ruleset']}: {report['deals']} duplicate deals x {report['seatings_per_deal']} seatings = "
             f"{report['hands']} hands, seed {report['seed']}", ""]
    width = max(len(b["bot"]) for b in report["bots"]) + 2
    lines.append(f"{'bot':<{width}}{'points/hand':>12}  {'95% CI':<18}{'contracts':>10}{'made':>8}"
                 f"{'ms/decision':>13}{'max ms':>9}{'incidents':>11}")
    for b in report["bots"]:
        lo, hi = b["ci95"]
        rate = f"{100 * b['success_rate']:.1f}%" if b["success_rate"] is not None else "-"
        lines.append(f"{b['bot']:<{width}}{b['game_points_per_hand']:>+12.3f}  {f'[{lo:+.3f}, {hi:+.3f}]':<18}"
                     f"{b['contracts']:>10}{rate:>8}{b['ms_per_decision']:>13.2f}{b['max_ms_per_decision']:>9.1f}"
                     f"{b['incidents']:>11}")
    d = report["difference"]
    lo, hi = d["ci95"]
    lines += ["", f"difference {d['bots']}: {d['game_points_per_hand']:+.3f} game points per hand, "
                  f"95% CI [{lo:+.3f}, {hi:+.3f}]",
              f"annulled hands: {report['annulled_hands']}"]
    for b in report["bots"]:
        for x in b["incident_examples"]:
            lines.append(f"incident ({b['bot']}): {x}")
        if b["incidents"] > len(b["incident_examples"]):
            lines.append(f"incident ({b['bot']}): ... {b['incidents'] - len(b['incident_examples'])} more")
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament_cmd)
