"""Big runs: one executor interface for worker processes and Dask clusters (a 2-worker local cluster's reports
equal one process's; skipped without the `cluster` extra), shards that merge into the exact report, the compiled
rules travelling with the work, the version check, and no worker outliving a command stopped by a signal."""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import load_game
from engine.cli.app import app
from engine.errors import ArgumentError, ClusterError
from engine.executor import chunks, engine_version, make_executor, parse_cluster, run_job
from engine.rules.load import shipped_rulesets
from engine.sim import merge_records, simulate
from engine.tournament import run, without_timings

runner = CliRunner()
REPO = Path(__file__).resolve().parents[1]


def _has_dask() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


needs_dask = pytest.mark.skipif(not _has_dask(), reason="the 'cluster' extra (dask's distributed) is not installed")


def _sq(x: int) -> int:
    return x * x


def test_cluster_forms_are_read_strictly() -> None:
    assert parse_cluster("local:2") == ("local", 2, "")
    assert parse_cluster("tcp://10.0.0.5:8786") == ("tcp", 0, "tcp://10.0.0.5:8786")
    assert parse_cluster("tcp://sched.example.org:8786")[0] == "tcp"
    for bad in ("local", "local:0", "local:x", "local:1000", "http://h:1", "tcp://h", "tcp://h:0", "tcp://h:99999",
                "tcp://a b:1", "local:2 ", ""):
        with pytest.raises(ArgumentError, match="--cluster"):
            parse_cluster(bad)


def test_chunks_cover_the_range_in_order() -> None:
    for n, w in ((0, 1), (1, 4), (7, 2), (1000, 2), (1000, 64)):
        parts = chunks(range(5, 5 + n), w)
        assert [i for p in parts for i in p] == list(range(5, 5 + n))
        assert all(0 < len(p) <= 25 for p in parts)


def test_process_executor_keeps_job_order_and_refuses_another_version() -> None:
    with make_executor(workers=2) as ex:
        assert list(ex.map(_sq, range(50))) == [x * x for x in range(50)]
    with pytest.raises(ClusterError, match="install the same jacknine"):
        run_job("0.0.1 (elsewhere)", _sq, 3)
    assert run_job(engine_version(), _sq, 3) == 9


@pytest.mark.parametrize("ruleset", sorted(shipped_rulesets()))
def test_compiled_rules_travel_by_pickle(ruleset: str) -> None:
    """What a worker receives: the compiled rules (plain records) pickle, and the game rebuilt from them deals and
    plays exactly as the game they came from (the compiled build's classes must allow this too)."""
    from engine.play.game import Game

    game = load_game(ruleset)
    rules = pickle.loads(pickle.dumps(game.rules))
    assert rules == game.rules and hash(rules) == hash(game.rules)
    twin = Game(rules, game.ref)
    a = run(game, ["heuristic", "random"], 3, seed=4)
    b = run(twin, ["heuristic", "random"], 3, seed=4)
    assert without_timings(a) == without_timings(b)
    job = (game.rules, game.ref, ("heuristic", "random"), 4, [0, 1], None)
    assert pickle.loads(pickle.dumps(job)) == job


def test_simulate_gives_the_same_statistics_in_pieces_and_processes() -> None:
    game = load_game("twenty-nine")
    one = simulate(game, 60, 3, ["heuristic", "random", "heuristic", "random"]).to_dict()
    two = simulate(game, 60, 3, ["heuristic", "random", "heuristic", "random"], workers=2).to_dict()
    assert one == two
    a = simulate(game, 25, 3, ["heuristic", "random", "heuristic", "random"])
    a.merge(simulate(game, 35, 3, ["heuristic", "random", "heuristic", "random"], start=25))
    assert a.to_dict() == one


@needs_dask
def test_two_worker_local_cluster_reports_equal_one_process() -> None:
    game = load_game("twenty-eight")
    one = run(game, ["pimc:4", "heuristic"], 12, seed=9)
    dask = run(game, ["pimc:4", "heuristic"], 12, seed=9, cluster="local:2")
    assert without_timings(dask) == without_timings(one)
    sims = [simulate(load_game("twenty-nine"), 80, 5, ["random"] * 4, **kw).to_dict()
            for kw in ({}, {"cluster": "local:2"})]
    assert sims[0] == sims[1]


@needs_dask
def test_cluster_of_another_version_is_refused_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.executor as ex

    monkeypatch.setattr(ex, "engine_version", lambda: "9.9.9 (other)")
    with pytest.raises(ClusterError, match=r"workers run jacknine .*, this is jacknine 9.9.9 \(other\)"):
        ex.DaskExecutor("local:1")


@needs_dask
def test_unreachable_scheduler_is_one_line() -> None:
    import engine.executor as ex

    with pytest.raises(ClusterError, match="cannot reach the scheduler"):
        ex.DaskExecutor("tcp://127.0.0.1:9", timeout=1.0)


def test_cluster_option_errors_are_one_line() -> None:
    for cmd in (["tournament", "--hands", "2"], ["simulate", "--hands", "2"]):
        res = runner.invoke(app, [*cmd, "--cluster", "everywhere"])
        assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "--cluster 'everywhere'" in res.stderr
    if not _has_dask():
        res = runner.invoke(app, ["tournament", "--hands", "2", "--cluster", "local:2"])
        assert res.exit_code == 2 and "'cluster' extra" in res.stderr


# --- shards ---------------------------------------------------------------------------------------------------
def test_tournament_shards_merge_into_the_report_of_one_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    base = ["tournament", "-r", "twenty-nine", "--bots", "pimc:4,heuristic", "--json"]
    common = [*base, "--seed", "3"]
    whole = json.loads(runner.invoke(app, [*common, "--hands", "10"]).stdout)
    for span, name in (("0:4", "a.jsonl"), ("4:10", "b.jsonl")):
        res = runner.invoke(app, [*common, "--deals", span, "--out", name])
        assert res.exit_code == 0, res.output
    rows = Path("b.jsonl").read_text().splitlines()
    assert len(rows) == 1 + 6 and json.loads(rows[0])["deals"] == [4, 10]
    merged = runner.invoke(app, ["tournament", "merge", "b.jsonl", "a.jsonl", "--json"])
    assert merged.exit_code == 0, merged.output
    assert without_timings(json.loads(merged.stdout)) == without_timings(whole)
    text = runner.invoke(app, ["tournament", "merge", "a.jsonl", "b.jsonl"])
    assert "difference pimc:4 - heuristic" in text.stdout
    assert runner.invoke(app, [*common, "--deals", "12:14", "--out", "f.jsonl"]).exit_code == 0
    gap = runner.invoke(app, ["tournament", "merge", "a.jsonl", "f.jsonl", "--json"])
    assert gap.exit_code == 0 and json.loads(gap.stdout)["deals"] == 6
    assert gap.stderr == "note: deals missing between 0 and 14: 4:12 (8 deals)\n"
    # a shard twice, a shard of another run, a damaged line: one line each, exit 2
    res = runner.invoke(app, ["tournament", "merge", "a.jsonl", "a.jsonl"])
    assert res.exit_code == 2 and "deal 0 is in another shard" in res.stderr
    assert runner.invoke(app, [*base, "--seed", "4", "--deals", "10:12", "--out", "c.jsonl"]).exit_code == 0
    res = runner.invoke(app, ["tournament", "merge", "a.jsonl", "c.jsonl"])
    assert res.exit_code == 2 and "its seed is 4, there 3" in res.stderr and res.stderr.count("\n") == 1
    lines = Path("a.jsonl").read_text().splitlines()
    lines[2] = lines[2].replace('"annulled": 0', '"annulled": -1')
    Path("d.jsonl").write_text("\n".join(lines) + "\n")
    res = runner.invoke(app, ["tournament", "merge", "d.jsonl"])
    assert res.exit_code == 2 and res.stderr.startswith("d.jsonl:3: annulled must be")
    Path("e.jsonl").write_text('{"ruleset": "twenty-nine"}\n')
    res = runner.invoke(app, ["tournament", "merge", "e.jsonl"])
    assert res.exit_code == 2 and "not a tournament shard" in res.stderr
    res = runner.invoke(app, ["tournament", "--deals", "5:5"])
    assert res.exit_code == 2 and "A must be below B" in res.stderr


def test_simulate_shards_merge_into_the_statistics_of_one_run(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    common = ["simulate", "-r", "twenty-eight", "--bots", "heuristic,random,heuristic,random", "--seed", "2", "--json"]
    whole = json.loads(runner.invoke(app, [*common, "--hands", "30"]).stdout)
    assert runner.invoke(app, [*common, "--hands", "0:12", "--out", "a.jsonl"]).exit_code == 0
    assert runner.invoke(app, [*common, "--hands", "12:30", "--out", "b.jsonl", "--workers", "2"]).exit_code == 0
    merged = runner.invoke(app, ["simulate", "merge", "a.jsonl", "b.jsonl", "--json"])
    assert merged.exit_code == 0, merged.output
    assert json.loads(merged.stdout) == whole
    assert merge_records([Path("b.jsonl"), Path("a.jsonl")]).to_dict() == whole
    res = runner.invoke(app, ["simulate", "merge", "a.jsonl", "a.jsonl"])
    assert res.exit_code == 2 and "hand 0 is in another record" in res.stderr
    res = runner.invoke(app, ["simulate", "--hands", "3:x"])
    assert res.exit_code == 2 and "--hands: write a number N, or A:B" in res.stderr


# --- signals --------------------------------------------------------------------------------------------------
def _descendants(pid: int) -> set[int]:
    """Every living process below `pid` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.add(c)
            todo.append(c)
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("how", ["--workers", "--cluster"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_stops_every_worker(how: str, sig: int) -> None:
    if how == "--cluster" and not _has_dask():
        pytest.skip("the 'cluster' extra is not installed")
    where = ["--workers", "2"] if how == "--workers" else ["--cluster", "local:2"]
    jacknine = [sys.executable, "-c", "from engine.cli.app import main; main()"]
    proc = subprocess.Popen([*jacknine, "tournament", "--bots", "search,pimc", "--hands", "400", *where], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.2)
            workers = _descendants(proc.pid)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(1.0)
        proc.send_signal(sig)
        code = proc.wait(30)
        assert code == 128 + sig, proc.stderr.read() if proc.stderr else b""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.1)
        assert not any(_alive(p) for p in workers), "a worker outlived the command"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_readme_big_runs_commands_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every `jacknine` command of the README's "Big runs" section runs, on a thousandth of the deals and a
    ten-thousandth of the hands, at least two (the hands are played by `search`: a thousandth took two minutes of
    the suite); a local cluster becomes two worker processes where the extra is missing."""
    import re
    import shlex
    import shutil

    readme = (REPO / "docs" / "simulating.md").read_text(encoding="utf-8")
    start = readme.index("## Big runs and house-rule studies\n")
    end = readme.find("\n## ", start + 3)
    section = readme[start:end if end > 0 else None]
    commands = [line.strip() for line in section.splitlines() if line.startswith("jacknine ")]
    assert len(commands) >= 7
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)

    def smaller(m: re.Match[str]) -> str:
        a, b = m.group(2), m.group(4)
        scale = 1000 if m.group(1) == "--deals" else 10_000
        if b is None:
            return f"{m.group(1)} {max(2, int(a) // scale)}"
        return f"{m.group(1)} {int(a) // scale}:{max(int(b) // scale, int(a) // scale + 2)}"

    for command in commands:
        command = re.sub(r"(--hands|--deals) (\d+)(:(\d+))?", smaller, command)
        if not _has_dask():
            command = command.replace("--cluster local:2", "--workers 2")
        res = runner.invoke(app, shlex.split(command)[1:])
        assert res.exit_code == 0, (command, res.output)
        assert res.stdout.strip() or "--out" in command
