"""Commands that play hands: replay, deal, simulate, bench."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from engine.cli.common import DEFAULT_RULESET, fail, load_game_or_exit, open_new_file
from engine.cli.render import render_deal, render_replay
from engine.errors import RulesetError, UnreadableError
from engine.play.game import Game
from engine.record import HandRecord, game_for, iter_records, outcome_of, record_of, replay, report
from engine.text import quoted


def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A hand record (YAML or JSON), or a JSON-lines file of records "
                                              "such as `simulate --out` writes.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the replay report as one JSON object (one per "
                                                         "line for a file of several records).")] = False,
) -> None:
    """Replay hand records trick by trick. Exit 0 complete/in progress/annulled, 1 illegal, 2 unreadable (for a
    file of several records: the worst of them)."""
    games: dict[tuple[str, Path | None], Game] = {}
    worst = 0
    try:
        for rec in iter_records(file):   # one at a time: a file of many records streams in constant memory
            worst = max(worst, _replay_one(rec, games, as_json))
    except UnreadableError as e:
        fail(str(e), 2)
    raise typer.Exit(worst)


def _replay_one(rec: HandRecord, games: dict[tuple[str, Path | None], Game], as_json: bool) -> int:
    """Replay one record and print its report; the exit status it calls for."""
    key = (rec.ruleset, rec.base_dir)
    try:
        game = games.get(key) or games.setdefault(key, game_for(rec))
    except (UnreadableError, RulesetError) as e:
        # the record names a rule file that cannot be used: one line naming the record, then the first reason
        problems = e.problems if isinstance(e, RulesetError) else [e.problem]
        more = f" (and {len(problems) - 1} more; see jacknine validate)" if len(problems) > 1 else ""
        typer.echo(f"{rec.source}:{rec.ruleset_line or 1}: ruleset {quoted(rec.ruleset)} cannot be used: "
                   f"{problems[0]}{more}", err=True)
        return 2
    try:
        rp = replay(rec, game)
    except UnreadableError as e:
        typer.echo(str(e), err=True)
        return 2
    rep = report(rp)
    typer.echo(json.dumps(rep) if as_json else render_replay(rp, rep))
    return 1 if rep["status"] == "illegal" else 0


def deal_cmd(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Shipped rule file name or path.")] = DEFAULT_RULESET,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0,
                                      help="Deal seed: the same seed deals the same cards.")] = 0,
    dealer: Annotated[int, typer.Option("--dealer", help="The dealer's seat.")] = 0,
    as_record: Annotated[bool, typer.Option("--record", help="Print a hand record (YAML) instead.")] = False,
) -> None:
    """Print the hands a seed deals."""
    game = load_game_or_exit(ruleset)
    if not 0 <= dealer < game.n:
        fail(f"--dealer: seat {dealer} does not exist (seats 0..{game.n - 1})", 2)
    state = game.new_hand(dealer, seed=seed)
    if as_record:
        rec = record_of(state, folder=Path.cwd())
        rec.extra["seed"] = seed
        typer.echo(rec.to_yaml(), nl=False)
    else:
        typer.echo(render_deal(state, seed))


def simulate_cmd(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Shipped rule file name or path.")] = DEFAULT_RULESET,
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, help="How many hands to play.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed for deals and bots.")] = 0,
    bots: Annotated[str, typer.Option("--bots", help="Bot name, or names per seat separated by commas.")] = "random",
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
    out: Annotated[Path | None, typer.Option("--out", help="Write every hand record as JSON lines to a new file.")]
    = None,
) -> None:
    """Play many hands between bots and print statistics (streams: constant memory)."""
    from engine.cli.common import make_bots
    from engine.sim import simulate

    game = load_game_or_exit(ruleset)
    seat_bots = make_bots(bots, game, seed)
    sink = open_new_file(out) if out is not None else None
    out_folder = out.parent if out is not None else None
    progress = _progress(hands) if sys.stderr.isatty() and not as_json else None

    def on_hand(state: object, deal_seed: int) -> None:
        from engine.play.state import State

        assert isinstance(state, State)
        if sink is not None:
            rec = record_of(state, folder=out_folder)
            rec.extra["seed"] = deal_seed
            rec.extra.update(outcome_of(state))
            sink.write(json.dumps(rec.to_dict()) + "\n")
        if progress is not None:
            progress.advance()

    try:
        stats = simulate(game, hands, seed, seat_bots, on_hand)
    finally:
        if sink is not None:
            sink.close()
        if progress is not None:
            progress.close()
    data = stats.to_dict()
    if as_json:
        typer.echo(json.dumps(data))
    else:
        from engine.cli.render import render_stats

        typer.echo(render_stats(data))


class _progress:
    """A progress bar on stderr (only on a terminal)."""

    def __init__(self, total: int) -> None:
        from rich.progress import Progress

        self._p = Progress(transient=True, console=None)
        self._p.start()
        self._task = self._p.add_task("hands", total=total)

    def advance(self) -> None:
        self._p.advance(self._task)

    def close(self) -> None:
        self._p.stop()


def bench_cmd(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Shipped rule file name or path.")] = DEFAULT_RULESET,
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, help="How many hands to time.")] = 20000,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0)] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
) -> None:
    """Random whole hands per second in one process: played out on card bitmasks, and through the
    legal_actions()/apply() loop."""
    from engine.sim import bench

    game = load_game_or_exit(ruleset)
    res = bench(game, hands, seed)
    if as_json:
        typer.echo(json.dumps(res))
    else:
        typer.echo(f"{res['ruleset']}: {res['hands']} hands in {res['seconds']:.2f} s = "
                   f"{res['hands_per_second']:,.0f} hands/s played out on card bitmasks; "
                   f"{res['api_hands_per_second']:,.0f} hands/s through legal_actions()/apply()")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_cmd)
    app.command("deal")(deal_cmd)
    app.command("simulate")(simulate_cmd)
    app.command("bench")(bench_cmd)
