"""Faults a command meets (issue 18): a full disk under standard output, an output file that may not grow, a rule
file that cannot be written, signals to long commands, concurrent saves, saves through links, temporary files.
Each is one line on stderr with exit 2, and nothing is left behind."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = [sys.executable, "-c", "from engine.cli.app import main; main()"]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")


def jacknine(*args: str, cwd: Path | None = None, stdout: object = subprocess.PIPE, file_limit: int | None = None,
             stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    return subprocess.run([*PROGRAM, *args], cwd=cwd or ROOT, env=ENV, stdout=stdout, stderr=subprocess.PIPE,
                          text=True, preexec_fn=limit, input=stdin, timeout=300, check=False)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["show", "twenty-eight"], ["--version"], ["simulate", "-n", "20", "--json"],
                                  ["rulesets"], ["deal", "--seed", "3"], ["validate", "twenty-nine"],
                                  ["replay", "--json", "tests/hands/28-annul-four-jacks.yaml"]])
def test_a_full_disk_under_stdout_is_one_line_and_exit_2(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        proc = jacknine(*args, stdout=full)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "No space left on device" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_out_that_cannot_grow_is_one_line_and_exit_2(tmp_path: Path, workers: str) -> None:
    out = tmp_path / "o.jsonl"
    proc = jacknine("simulate", "-n", "100", "-w", workers, "--out", str(out), file_limit=3000)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "cannot write" in proc.stderr and "Traceback" not in proc.stderr


def test_new_that_cannot_be_written_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "h.yaml"
    proc = jacknine("new", "--extends", "twenty-eight", "-o", str(target), file_limit=0)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "cannot write" in proc.stderr, proc.stderr
    assert not target.exists() and list(tmp_path.iterdir()) == []
    again = jacknine("new", "--extends", "twenty-eight", "-o", str(target))
    assert again.returncode == 0 and target.is_file(), again.stderr


# --- saves: one table at a time, links followed, no temporary file left -------------------------------------
def _start_save(folder: Path) -> Path:
    proc = jacknine("play", "-r", "twenty-eight", "--seed", "4", "--save", "m.yaml", cwd=folder, stdin="q\n")
    assert proc.returncode == 0, proc.stderr
    return folder / "m.yaml"


def _waiting_table(folder: Path, *args: str) -> subprocess.Popen[str]:
    """A table waiting for the player's input (its first save written)."""
    proc = subprocess.Popen([*PROGRAM, "play", *args], cwd=folder, env=ENV, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if "resumed" in line or "saving to" in line:
            return proc
    raise AssertionError(f"the table did not start: {proc.stderr.read() if proc.stderr else ''}")


def test_two_tables_on_one_save_the_second_is_refused(tmp_path: Path) -> None:
    save = _start_save(tmp_path)
    first = _waiting_table(tmp_path, "--resume", "m.yaml")
    try:
        second = jacknine("play", "--resume", "m.yaml", cwd=tmp_path, stdin="q\n")
        assert second.returncode == 2, second.stderr
        assert second.stderr == "m.yaml: another jacknine is playing this save; finish or stop it first\n"
    finally:
        out, err = first.communicate("q\n", timeout=120)
    assert first.returncode == 0, err
    again = jacknine("play", "--resume", "m.yaml", cwd=tmp_path, stdin="q\n")   # released at exit
    assert again.returncode == 0, again.stderr
    assert save.is_file()


def test_a_save_resumed_through_a_link_updates_the_target(tmp_path: Path) -> None:
    house = tmp_path / "rules"
    house.mkdir()
    (house / "h.yaml").write_text("schema_version: 1\nextends: twenty-eight\nname: h\ndescription: house\n")
    games = tmp_path / "games"
    games.mkdir()
    made = jacknine("play", "-r", "../rules/h.yaml", "--seed", "4", "--save", "m.yaml", cwd=games,
                    stdin="bid 16\nq\n")
    assert made.returncode == 0, made.stderr
    os.symlink("games/m.yaml", tmp_path / "link.yaml")
    before = (games / "m.yaml").read_text()
    resumed = jacknine("play", "--resume", "link.yaml", cwd=tmp_path, stdin="1\n1\nq\n")
    assert resumed.returncode == 0, resumed.stderr
    assert os.path.islink(tmp_path / "link.yaml")                   # the link is still a link
    assert (games / "m.yaml").read_text() != before                 # the target moved on
    assert jacknine("play", "--resume", "link.yaml", cwd=tmp_path, stdin="q\n").returncode == 0


def test_stale_temporary_files_are_removed_at_resume(tmp_path: Path) -> None:
    _start_save(tmp_path)
    stale = tmp_path / ".m.yaml.k3j9x_2q.tmp"
    stale.write_text("half a save")
    other = tmp_path / ".n.yaml.k3j9x_2q.tmp"        # another save's: not ours to remove
    other.write_text("x")
    planted = tmp_path / ".m.yaml.abcdefgh.tmp"
    os.symlink("victim", planted)                  # a link is never our temporary file
    proc = jacknine("play", "--resume", "m.yaml", cwd=tmp_path, stdin="q\n")
    assert proc.returncode == 0, proc.stderr
    assert not stale.exists() and other.exists() and os.path.islink(planted)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_a_killed_table_leaves_no_temporary_file_and_resumes(tmp_path: Path, sig: signal.Signals) -> None:
    _start_save(tmp_path)
    table = _waiting_table(tmp_path, "--resume", "m.yaml")
    assert table.stdin is not None
    table.stdin.write("1\n1\n")
    table.stdin.flush()
    table.send_signal(sig)
    table.communicate(timeout=120)
    if sig == signal.SIGKILL:        # nothing runs at a SIGKILL: the next table cleans up
        assert jacknine("play", "--resume", "m.yaml", cwd=tmp_path, stdin="q\n").returncode == 0
    else:
        assert table.returncode == 130
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    assert jacknine("play", "--resume", "m.yaml", cwd=tmp_path, stdin="q\n").returncode == 0


def test_the_save_text_of_finished_hands_is_written_once_and_is_the_whole_dump() -> None:
    from engine.table.save import MatchSave, hand_yaml

    hands = [{"ruleset": "twenty-eight", "dealer": i % 4, "seed": i, "actions": [f"{i % 4} bid 16", "1 pass"],
              "status": "complete", "score_change": [1, -1]} for i in range(5)]
    save = MatchSave("twenty-eight", 0, 3, "heuristic", 10, hands, [2, 3])
    texts = [hand_yaml(h) for h in hands[:3]]
    assert save.to_yaml(texts) == save.to_yaml() == save.to_yaml([])
    head = {"format": "jacknine match 1", "ruleset": "twenty-eight", "seat": 0, "seed": 3, "bots": "heuristic",
            "max_hands": 10, "status": "in_progress", "scores": [2, 3], "hands": hands}
    assert save.to_yaml() == yaml.safe_dump(head, sort_keys=False, default_flow_style=False, width=120,
                                            allow_unicode=True)
    empty = MatchSave("twenty-eight", 0, 3, "heuristic", 10)
    assert empty.to_yaml([]) == empty.to_yaml() and empty.to_yaml().endswith("hands: []\n")


# --- nothing a command starts outlives it ---------------------------------------------------------------------
# The bot forks a child that starts a session of its own, as a daemon would: its standard streams go to /dev/null,
# so it holds none of the pipes (a child holding jacknine's stderr would make the test wait for the child's own
# end, and the test then passed without the fix), and it sleeps far longer than the checks wait. The bot answers
# only once the child has written its pid, so the child always exists before the tournament can end.
ESCAPING_BOT = """
import json, os, sys, time
ready_r, ready_w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(ready_r)
    os.setsid()                       # out of the program's session and process group
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    with open(sys.argv[1], "a") as f:
        f.write(f"{os.getpid()}\\n")
    os.close(ready_w)
    time.sleep(float(sys.argv[3]))
    os._exit(0)
os.close(ready_w)
os.read(ready_r, 1)                   # end of file: the child has written its pid
for line in sys.stdin:
    time.sleep(float(sys.argv[2]))
    sys.stdout.write(json.dumps({"action": json.loads(line)["legal"][0]}) + "\\n")
    sys.stdout.flush()
"""
ESCAPED_SLEEP = 300.0     # seconds the escaped child would live: far beyond any wait of these tests


def _escaping_bot(pidfile: Path, slow: float = 0.0) -> str:
    import shlex

    script = pidfile.parent / "escaping_bot.py"
    script.write_text(ESCAPING_BOT)
    return "cmd:" + shlex.join([sys.executable, "-I", "-S", str(script), str(pidfile), str(slow),
                                str(ESCAPED_SLEEP)])


def _wait_for(path: Path, seconds: float = 60.0) -> None:
    import time

    end = time.monotonic() + seconds
    while not path.exists() or not path.read_text().strip():
        assert time.monotonic() < end, "the bot never started"
        time.sleep(0.05)


def _kill_leftovers(pids: list[int], marker: Path) -> None:
    """Whatever the test's outcome, no escaped child of ours keeps running: kill each pid still running the
    test's own script (checked in /proc, so a reused pid is left alone)."""
    from tests.external_support import alive

    for pid in pids:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if str(marker).encode() in cmdline and alive(pid):
            os.kill(pid, signal.SIGKILL)


def _run_to_files(args: list[str], folder: Path) -> subprocess.Popen[bytes]:
    """jacknine with its output to files, not pipes: waiting for it ends when it ends, whoever else holds its
    streams."""
    out = open(folder / "out.txt", "wb")   # noqa: SIM115  (closed below, the child keeps its copies)
    err = open(folder / "err.txt", "wb")   # noqa: SIM115
    try:
        return subprocess.Popen([*PROGRAM, *args], cwd=ROOT, env=ENV, stdout=out, stderr=err,
                                start_new_session=True)
    finally:
        out.close()
        err.close()


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("behaviour", ["answers", "stalls"])
def test_a_bots_child_in_its_own_session_dies_with_the_tournament(tmp_path: Path, workers: str,
                                                                  behaviour: str) -> None:
    """A bot that answers is closed at the end; one that stalls is killed and restarted (each start leaves a child
    of its own)."""
    from tests.external_support import gone, pids_in

    pidfile = tmp_path / "escaped"
    slow = ["--time-limit", "0.3"] if behaviour == "stalls" else []
    bot = _escaping_bot(pidfile, 30.0 if behaviour == "stalls" else 0.0)
    proc = _run_to_files(["tournament", "--bots", f"{bot},random", "-n", "2", "-w", workers, *slow], tmp_path)
    try:
        proc.wait(timeout=300)
        assert proc.returncode == 0, (tmp_path / "err.txt").read_text()
        escaped = pids_in(pidfile)
        assert escaped and gone([], escaped), escaped
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        _kill_leftovers(pids_in(pidfile), pidfile.parent)


@pytest.mark.parametrize("keeper", [True, False], ids=["keeper", "no-keeper"])
@pytest.mark.parametrize("behaviour", ["answers", "stalls"])
def test_a_bots_escaped_children_die_when_it_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        keeper: bool, behaviour: str) -> None:
    """In this process, with and without the keeper (without it, as where there is none, this process is the child
    subreaper that kills them): a bot stopped at each stall, or closed at the end, leaves no child running."""
    from engine.bots import program
    from engine.bots.external import ExternalBot
    from tests.external_support import first_decision, gone, pids_in

    monkeypatch.setattr(program, "_KEEPER", keeper and program._KEEPER)
    pidfile = tmp_path / "escaped"
    stalls = behaviour == "stalls"
    bot = ExternalBot(_escaping_bot(pidfile, 30.0 if stalls else 0.0)[len("cmd:"):], 1,
                      time_limit=0.3 if stalls else 10.0)
    view, legal = first_decision()
    try:
        for _ in range(3):
            assert bot.choose(view, legal) in legal
        assert bool(bot.incidents) == stalls, bot.incidents
        bot.close()
        escaped = pids_in(pidfile)
        assert len(escaped) == (3 if stalls else 1), escaped
        assert gone(bot.process_groups, escaped), escaped
    finally:
        bot.close()
        _kill_leftovers(pids_in(pidfile), pidfile.parent)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_signal_to_the_tournament_leaves_no_process(tmp_path: Path, workers: str, sig: signal.Signals) -> None:
    from tests.external_support import gone, pids_in

    pidfile = tmp_path / "escaped"
    proc = _run_to_files(["tournament", "--bots", f"{_escaping_bot(pidfile, 0.2)},random", "-n", "40",
                          "-w", workers], tmp_path)
    children: list[int] = []
    try:
        _wait_for(pidfile)
        children = _children_of(proc.pid)
        proc.send_signal(sig)
        proc.wait(timeout=60)
        assert proc.returncode == 128 + sig, proc.returncode
        assert gone([], pids_in(pidfile) + children), (pids_in(pidfile), children)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        _kill_leftovers(pids_in(pidfile), pidfile.parent)
        _kill_leftovers(children, Path("engine.cli.app"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the keeper is Linux only")
@pytest.mark.parametrize("command", [["play", "--auto", "-r", "twenty-eight"], ["tournament", "-n", "40", "-w", "1"],
                                     ["tournament", "-n", "40", "-w", "2"]], ids=["table", "w1", "w2"])
def test_sigkill_to_jacknine_kills_a_bots_child_in_its_own_session(tmp_path: Path, command: list[str]) -> None:
    """Nothing runs in jacknine at a SIGKILL: the bot's keeper sees its pipe from jacknine close and kills what the
    bot started, even a child in a session of its own (only the bot itself died with jacknine before)."""
    from tests.external_support import gone, pids_in

    pidfile = tmp_path / "escaped"
    bot = _escaping_bot(pidfile, 0.2)
    bots = bot if command[0] == "play" else f"{bot},random"
    proc = _run_to_files([*command, "--bots", bots], tmp_path)
    children: list[int] = []
    try:
        _wait_for(pidfile)
        children = _children_of(proc.pid)      # the keepers (table, -w 1) or the workers (-w 2)
        assert children, "jacknine started nothing"
        proc.kill()
        proc.wait(timeout=60)
        escaped = pids_in(pidfile)
        assert escaped and gone([], escaped + children, wait=10.0), \
            [p for p in escaped + children if Path(f"/proc/{p}").exists()]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        _kill_leftovers(pids_in(pidfile), pidfile.parent)
        _kill_leftovers(children, Path("engine"))


def _children_of(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True, check=False)
    return [int(x) for x in out.stdout.split()]


@pytest.mark.parametrize("bots", ["heuristic", "search", "pimc"])
def test_a_save_of_a_no_trump_hand_resumes(tmp_path: Path, bots: str) -> None:
    (tmp_path / "nt.yaml").write_text("schema_version: 1\nextends: twenty-nine\nname: nt\ndescription: no-trumps\n"
                                      "trump:\n  no_trumps: true\n")
    made = jacknine("play", "-r", "./nt.yaml", "--seed", "3", "--bots", bots, "--save", "m.yaml", cwd=tmp_path,
                    stdin="bid 28\ntrump NT\nq\n")
    assert made.returncode == 0, made.stderr
    text = (tmp_path / "m.yaml").read_text()
    if "trump NT" not in text:
        pytest.skip("the bidding did not reach seat 0 with this seed and these bots")
    for _ in range(2):
        again = jacknine("play", "--resume", "m.yaml", cwd=tmp_path, stdin="1\n1\n1\nq\n")
        assert again.returncode == 0, again.stderr
