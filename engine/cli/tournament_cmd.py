"""The tournament command: duplicate deals between two bots; `tournament merge` joins shards of one run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Annotated, Any

import typer

from engine.cli.common import DEFAULT_RULESET, UNREADABLE, fail, load_game_or_exit, open_new_file
from engine.cli.runs import CLUSTER_HELP, WORKERS_HELP, check_cluster, count_or_range, progress_bar
from engine.errors import ClusterError, UnreadableError
from engine.text import escaped

MAX_INCIDENT_SHOWN = 2000   # an incident's text as shown (a shard's incident texts are at most this long)
tournament_app = typer.Typer(no_args_is_help=False, add_completion=False)


@tournament_app.callback(invoke_without_command=True)
def tournament_cmd(
    ctx: typer.Context,
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Shipped rule file name or path.")] = DEFAULT_RULESET,
    bots: Annotated[str, typer.Option(
        "--bots", help="Two bots, e.g. 'search,heuristic' or 'cmd:python3 bot.py,random'.")] = "heuristic,random",
    hands: Annotated[int | None, typer.Option(
        "--hands", "-n", min=1, help="How many deals (each is played in every seating); default 200.")] = None,
    deals: Annotated[str | None, typer.Option(
        "--deals", help="Play deals A to B-1 only (A:B): a shard of a bigger run, see `tournament merge`.")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed for the deals and the bots.")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help=WORKERS_HELP)] = 1,
    cluster: Annotated[str | None, typer.Option("--cluster", help=CLUSTER_HELP)] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0.01,
                                              help="Seconds an outside bot may take per decision.")] = 2.0,
    max_seconds: Annotated[float | None, typer.Option(
        "--max-seconds", min=0.01, help="Start no deal after this many seconds in all; the report says how many "
        "of the deals were played.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", help="Write one JSON line per deal to a new file (a shard `tournament merge` reads).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
) -> None:
    """Duplicate tournament: every deal is played with the bots in each other's seats, so the luck cancels.

    Reports game points per hand for each bot with a 95% confidence interval, the difference between them, contract
    success and time per decision. Outside bots (cmd:PROGRAM) that crash, stall or answer illegally are reported
    and the random bot decides for them. A big run can be split: `--deals 0:5000 --out a.jsonl` and `--deals
    5000:10000 --out b.jsonl` (anywhere, in any order), then `jacknine tournament merge a.jsonl b.jsonl`."""
    if ctx.invoked_subcommand is not None:
        return
    from engine import shards
    from engine.tournament import run

    span = _deal_span(hands, deals)
    check_cluster(cluster)
    game = load_game_or_exit(ruleset)
    specs = _two_bots(bots)
    sink: IO[str] | None = None
    bar = progress_bar(len(span), "deals", quiet=as_json)
    try:
        if out is not None:
            sink = open_new_file(out)
            shards.write_header(sink, shards.header(game, specs, seed, span.start, span.stop))
        on_deal = (lambda r: shards.write_row(sink, r)) if sink is not None else None
        report = run(game, specs, len(span), seed, workers=workers, time_limit=time_limit,
                     on_progress=bar.update if bar is not None else None, cluster=cluster, start=span.start,
                     on_deal=on_deal, max_seconds=max_seconds)
    except ValueError as e:
        fail(f"--bots: {e}", UNREADABLE)
    except ClusterError as e:
        fail(str(e), UNREADABLE)
    finally:
        if bar is not None:
            bar.close()
        if sink is not None:
            sink.close()
    typer.echo(json.dumps(report) if as_json else render(report))


def _deal_span(hands: int | None, deals: str | None) -> range:
    """The deals to play: --deals A:B, or the first --hands (200 by default)."""
    if hands is not None and deals is not None:
        fail("--hands and --deals: give one of them (--deals A:B plays deals A to B-1)", UNREADABLE)
    return count_or_range(deals, "--deals") if deals is not None else range(hands or 200)


def _two_bots(bots: str) -> list[str]:
    """The two bot specs, each checked before any file is written or process started."""
    from engine.bots.base import check_bot_spec

    specs = [x.strip() for x in bots.split(",") if x.strip()]
    if len(specs) != 2:
        fail(f"--bots: give exactly two bots separated by a comma, not {len(specs)}", UNREADABLE)
    for spec in specs:
        try:
            check_bot_spec(spec)
        except ValueError as e:
            fail(f"--bots: {e}", UNREADABLE)
    return specs


@tournament_app.command("merge")
def merge_cmd(
    files: Annotated[list[Path], typer.Argument(help="Shard files that `tournament --deals A:B --out FILE` wrote.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
) -> None:
    """Join the shards of one tournament into its report: the same report one run over their deals gives. Exit 2,
    with one line, for a shard that cannot be read or says what no run writes (numbers out of bounds, shards of
    different runs)."""
    from engine import shards

    try:
        report, notes = shards.merge(files)
    except UnreadableError as e:
        fail(str(e), UNREADABLE)
    for note in notes:
        typer.echo(f"note: {note}", err=True)
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
    if "max_seconds" in report:
        stopped = "stopped there" if report["stopped_by_max_seconds"] else "not reached"
        lines.append(f"time bound --max-seconds {report['max_seconds']:g}: {stopped}; {report['deals']} of "
                     f"{report['deals_asked']} deals played")
    for b in report["bots"]:
        for x in b["incident_examples"]:
            lines.append(f"incident ({escaped(b['bot'])}): {escaped(x, MAX_INCIDENT_SHOWN)}")
        if b["incidents"] > len(b["incident_examples"]):
            lines.append(f"incident ({b['bot']}): ... {b['incidents'] - len(b['incident_examples'])} more")
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")
