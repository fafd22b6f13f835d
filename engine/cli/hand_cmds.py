"""Commands that play hands: replay, deal, simulate, bench."""

from __future__ import annotations

import contextlib
import json
import os
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import IO, Annotated

import typer

from engine.cli.common import DEFAULT_RULESET, INVALID, UNREADABLE, bot_names, fail, load_game_or_exit, open_new_file
from engine.cli.render import render_deal, render_replay
from engine.cli.runs import CLUSTER_HELP, WORKERS_HELP, ProgressBar, check_cluster, count_or_range, progress_bar
from engine.errors import ClusterError, RecordError, RulesetError, UnreadableError
from engine.play.game import Game
from engine.record import HandRecord, game_for, iter_records, record_of, replay, report, ruleset_reference
from engine.rules.load import locate
from engine.text import quoted


def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A hand record (YAML or JSON), or a JSON-lines file of records "
                                              "such as `simulate --out` writes.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the replay report as one JSON object (one per "
                                                         "line for a file of several records).")] = False,
) -> None:
    """Replay hand records trick by trick. Exit 0 complete/in progress/annulled, 1 illegal, 2 unreadable (for a
    file of several records: the worst of them)."""
    games = GameCache()
    worst = 0
    try:
        for rec in iter_records(file):   # one at a time: a file of many records streams in constant memory
            worst = max(worst, _replay_one(rec, games, as_json))
    except UnreadableError as e:
        fail(str(e), 2)
    raise typer.Exit(worst)


class GameCache:
    """The compiled games of a replay, by rule file identity: the resolved path and the file's device, inode, size
    and modification time (a shipped name by its name). However many spellings of one path the records use
    (`./h.yaml`, `././h.yaml`...), the file is compiled once; at most SIZE games are kept (least recently used
    go first), so a file of records streams in bounded memory whatever they name."""

    SIZE = 8

    def __init__(self) -> None:
        self.games: OrderedDict[tuple[object, ...], Game] = OrderedDict()

    def get(self, rec: HandRecord) -> Game:
        key = _identity(rec)
        game = self.games.get(key)
        if game is None:
            game = game_for(rec)
            self.games[key] = game
            while len(self.games) > self.SIZE:
                self.games.popitem(last=False)
        else:
            self.games.move_to_end(key)
        return game


def _identity(rec: HandRecord) -> tuple[object, ...]:
    ref = rec.ruleset
    if not ("/" in ref or "\\" in ref or ref.endswith((".yaml", ".yml"))):
        return ("name", ref)
    path = locate(ref, rec.base_dir)
    if path is None:
        return ("missing", ref, rec.base_dir)
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
    except (OSError, ValueError):
        return ("unreadable", ref, rec.base_dir)
    return ("file", real, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _replay_one(rec: HandRecord, games: GameCache, as_json: bool) -> int:
    """Replay one record and print its report; the exit status it calls for."""
    try:
        game = games.get(rec)
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


simulate_app = typer.Typer(no_args_is_help=False, add_completion=False)


@simulate_app.callback(invoke_without_command=True)
def simulate_cmd(
    ctx: typer.Context,
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Shipped rule file name or path.")] = DEFAULT_RULESET,
    hands: Annotated[str, typer.Option(
        "--hands", "-n", help="How many hands to play, or A:B for hands A to B-1 only (a shard of a bigger run, "
                              "see `simulate merge`).")] = "1000",
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed for deals and bots.")] = 0,
    bots: Annotated[str, typer.Option("--bots", help="Bot name, or names per seat separated by commas (the "
                                                     "heuristic bot by default, as in compare).")] = "heuristic",
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help=WORKERS_HELP)] = 1,
    cluster: Annotated[str | None, typer.Option("--cluster", help=CLUSTER_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
    out: Annotated[Path | None, typer.Option(
        "--out", help="Write every hand record as JSON lines to a new file (each with its hand number: "
                      "`simulate merge` rebuilds the statistics from such files).")] = None,
) -> None:
    """Play many hands between bots and print statistics (streams: constant memory).

    Hand N of a seed is always the same deal played by the same bots, so a big run can be split (`--hands 0:50000
    --out a.jsonl`, `--hands 50000:100000 --out b.jsonl`, anywhere) and `jacknine simulate merge a.jsonl b.jsonl`
    prints the statistics of the whole."""
    if ctx.invoked_subcommand is not None:
        return
    from engine.sim import simulate

    span = count_or_range(hands, "--hands")
    check_cluster(cluster)
    game = load_game_or_exit(ruleset)
    specs = bot_names(bots, game)
    record_ref = ruleset_reference(game, out.parent) if out is not None else None
    sink = open_new_file(out) if out is not None else None
    bar = progress_bar(len(span), "hands", quiet=as_json)
    try:
        stats = simulate(game, len(span), seed, specs, start=span.start, workers=workers, cluster=cluster,
                         record_ref=record_ref, on_records=_record_writer(sink) if sink is not None else None,
                         on_progress=bar.update if bar is not None else None)
        if sink is not None:
            _close_sink(sink)          # the last records leave the buffer here: a full disk shows now
    except ClusterError as e:
        fail(str(e), UNREADABLE)
    except _SinkError as e:
        fail(f"{out}: cannot write ({e.error.strerror or e.error}); the file holds the records written before",
             UNREADABLE)
    finally:
        _close_quietly(sink, bar)
    data = stats.to_dict()
    if not as_json:   # the JSON report stays what `simulate merge` rebuilds from the records
        data["bots"] = list(specs)
    _print_stats(data, as_json)


def _record_writer(sink: IO[str]) -> Callable[[list[dict[str, object]]], None]:
    """Writes each batch of records as JSON lines (_SinkError when the file cannot take them)."""
    def write(records: list[dict[str, object]]) -> None:
        try:
            for rec in records:
                sink.write(json.dumps(rec) + "\n")
        except OSError as e:
            raise _SinkError(e) from None
    return write


def _close_quietly(sink: IO[str] | None, bar: ProgressBar | None) -> None:
    """After a run, whatever happened: the file closed (its error already said) and the progress bar."""
    if sink is not None:
        with contextlib.suppress(OSError):
            sink.close()
    if bar is not None:
        bar.close()


def _close_sink(sink: IO[str]) -> None:
    try:
        sink.close()
    except OSError as e:
        raise _SinkError(e) from None


class _SinkError(Exception):
    """Writing `simulate --out`'s file failed (a full disk, a size limit)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


@simulate_app.command("merge")
def simulate_merge_cmd(
    files: Annotated[list[Path], typer.Argument(help="JSON-lines files of hand records that `simulate --out` "
                                                     "wrote.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
) -> None:
    """Rebuild the statistics of a simulation from the hand records its pieces wrote (each record is replayed):
    the same statistics one run over those hands prints. Exit 1 for a record whose hand stops short or a rule file
    problem, 2 for a file that cannot be read."""
    from engine.sim import merge_records

    try:
        stats = merge_records(files)
    except UnreadableError as e:
        fail(str(e), UNREADABLE)
    except (RulesetError, RecordError) as e:
        fail(str(e), INVALID)
    _print_stats(stats.to_dict(), as_json)


def _print_stats(data: dict[str, object], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(data))
    else:
        from engine.cli.render import render_stats

        typer.echo(render_stats(data))


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
    app.add_typer(simulate_app, name="simulate")
    app.command("bench")(bench_cmd)
