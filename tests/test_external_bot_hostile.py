"""Outside bots can do no harm: every misbehaving program found by the audit, and the guarantees behind the fixes
(own process group, writes and reads bounded by the decision's deadline, answers bounded in size and nesting,
everything the program started killed whenever we give up on it, close it, or exit)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from external_support import (
    alive,
    fake_bot,
    first_decision,
    gone,
    pids_in,
    script_bot,
    within,
)

from engine.bots.base import make_bot
from engine.bots.external import CLOSE_GRACE, MAX_ANSWER_BYTES, MAX_DEPTH, MAX_RESTARTS, ExternalBot
from engine.bots.program import Closed, Program, Stalled, write_all
from engine.play.compile import load_game
from engine.tournament import run

TWENTY_NINE = load_game("twenty-nine")
LIMIT = 0.5   # seconds per decision: generous, so that a loaded machine does not make a good answer late
SLACK = 3.0   # seconds allowed beyond what a bound says, for a loaded machine


def _bot(spec: str, limit: float = LIMIT) -> ExternalBot:
    bot = make_bot(spec, TWENTY_NINE, 1)
    assert isinstance(bot, ExternalBot)
    bot.time_limit = limit
    return bot


def _decide(bot: ExternalBot, times: int) -> list[float]:
    """`times` decisions on the same request (pass is always legal); each answer legal; the seconds each took."""
    view, legal = first_decision()
    took = []
    for _ in range(times):
        t0 = time.monotonic()
        assert bot.choose(view, legal) in legal
        took.append(time.monotonic() - t0)
    return took


def _hex(text: str | bytes) -> str:
    return (text.encode() if isinstance(text, str) else text).hex()


# --- the audit's findings -------------------------------------------------------------------------------
STOPS_READING = """\
import array, fcntl, os, termios, time
try:
    fcntl.fcntl(0, fcntl.F_SETPIPE_SZ, 4096)   # a small pipe fills sooner (Linux); otherwise 64 KiB
except (AttributeError, OSError):
    pass
seen = 0
while True:   # answers every time more input arrives, but never reads any of it
    n = array.array("i", [0])
    fcntl.ioctl(0, termios.FIONREAD, n, True)
    if n[0] > seen:
        os.write(1, b'{"action": "pass"}\\n')
    seen = n[0]
    time.sleep(0.002)
"""


def test_a_program_that_never_reads_its_input_cannot_hang_the_tournament(tmp_path: Path) -> None:
    # its input pipe fills after a few requests: writing the next one used to block for ever
    bot = _bot(script_bot(tmp_path / "deaf.py", STOPS_READING))
    try:
        within(120, lambda: _decide(bot, 150))
    finally:
        bot.close()
    assert any("did not read its request within 0.5 s (stalled; stopped)" in x for x in bot.incidents)
    assert gone(bot.process_groups)


def test_a_request_bigger_than_the_pipe_cannot_hang_the_tournament() -> None:
    view, legal = first_decision()
    big = dataclasses.replace(view, history=["1 pass"] * 40000)   # about 400 KB of request
    bot = _bot(fake_bot({"pre": [["sleep", 60]], "steps": [[["good"]]]}))
    try:
        t0 = time.monotonic()
        assert within(60, lambda: bot.choose(big, legal)) in legal
        assert time.monotonic() - t0 < LIMIT + SLACK
    finally:
        bot.close()
    assert "did not read its request within 0.5 s (stalled; stopped); the random bot played" in bot.incidents[0]
    assert gone(bot.process_groups)


def test_deeply_nested_answers_are_refused_not_parsed(tmp_path: Path) -> None:
    # 200,000 '[' used to abort the tournament with RecursionError; now too long, or too deep when shorter
    for unit, times, reason in (("[", 200_000, "answer longer than 16384 bytes (stopped)"),
                                ("[", 5000, "is nested more than 16 deep"),
                                ('{"a":', 3000, "is nested more than 16 deep")):
        spec = fake_bot({"steps": [[["rep", _hex(unit), times], ["w", _hex("\n")]]]})
        rep = within(120, lambda spec=spec: run(TWENTY_NINE, [spec, "random"], 1, seed=2, time_limit=LIMIT))
        ext = rep["bots"][0]
        assert ext["incidents"] >= ext["decisions"] > 10
        assert reason in ext["incident_examples"][0]


def test_a_program_that_closes_its_output_and_sleeps_is_stopped() -> None:
    # used to abort the tournament with TimeoutExpired while waiting for an exit code
    spec = fake_bot({"steps": [[["close"], ["sleep", 60]]]})
    rep = within(120, lambda: run(TWENTY_NINE, [spec, "random"], 1, seed=2, time_limit=LIMIT))
    ext = rep["bots"][0]
    assert ext["incidents"] >= ext["decisions"] > 10
    assert "the program closed its output instead of answering (stopped)" in ext["incident_examples"][0]


def test_children_holding_the_pipes_are_killed_with_the_program(tmp_path: Path) -> None:
    # a program forking a child per request used to leave every child running after the tournament
    pids = tmp_path / "pids"
    spec = fake_bot({"pre": [["pid", str(pids)]], "steps": [[["fork", str(pids)], ["good"]]]})
    rep = within(120, lambda: run(TWENTY_NINE, [spec, "random"], 1, seed=2, time_limit=LIMIT))
    assert rep["bots"][0]["incidents"] == 0, rep["bots"][0]["incident_examples"]
    started = pids_in(pids)
    assert len(started) > 10
    assert gone([], started), [p for p in started if alive(p)]


# --- the process group ----------------------------------------------------------------------------------
def test_a_program_runs_in_a_session_and_process_group_of_its_own() -> None:
    bot = _bot(fake_bot({"steps": [[["good"]]]}))
    try:
        _decide(bot, 1)
        (pgid,) = bot.process_groups
        assert os.getpgid(pgid) == pgid == os.getsid(pgid)
        assert pgid != os.getpgrp()
    finally:
        bot.close()
    assert gone(bot.process_groups)


def test_close_kills_a_program_that_ignores_the_end_of_its_input(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    bot = _bot(fake_bot({"steps": [[["fork", str(pids)], ["good"]]], "eof": [["sleep", 60]]}))
    _decide(bot, 3)
    t0 = time.monotonic()
    bot.close()
    assert time.monotonic() - t0 < CLOSE_GRACE + SLACK
    assert bot.incidents == []
    assert gone(bot.process_groups, pids_in(pids))


def test_a_stalled_program_and_its_children_are_killed_before_the_restart(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    bot = _bot(fake_bot({"steps": [[["fork", str(pids)], ["good"]], [["sleep", 60]]]}))
    try:
        _decide(bot, 2)   # answers, then stalls: stopped
        first = bot.process_groups[0]
        assert gone([first], pids_in(pids))
        _decide(bot, 1)   # restarted
        assert len(bot.process_groups) == 2 and not gone(bot.process_groups[1:], wait=0)
    finally:
        bot.close()
    assert gone(bot.process_groups, pids_in(pids))


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="without pidfds the time limit ends the wait")
def test_a_program_that_exits_while_its_child_holds_the_pipes_is_seen_to_exit_at_once(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    bot = _bot(fake_bot({"steps": [[["good"]], [["fork", str(pids)], ["exit", 3]]]}), limit=10.0)
    try:
        took = _decide(bot, 2)
    finally:
        bot.close()
    assert took[1] < 10.0 / 2
    assert bot.incidents == ["seat 1, decision 2: the program exited (code 3) instead of answering; the random bot "
                             "played"]
    assert gone(bot.process_groups, pids_in(pids))


def test_programs_still_running_are_killed_when_the_interpreter_exits(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    spec = fake_bot({"pre": [["pid", str(pids)]], "steps": [[["fork", str(pids)], ["good"]]],
                     "eof": [["sleep", 60]]})
    code = textwrap.dedent(f"""
        from engine.bots.base import make_bot
        from engine.play.compile import load_game
        from external_support import first_decision as decision
        bot = make_bot({spec!r}, load_game("twenty-nine"), 1)
        view, legal = decision()
        bot.choose(view, legal)
        assert not bot.incidents, bot.incidents
        KEEP = bot   # never closed: the engine must clean up as the interpreter exits
    """)
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parent.parent, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parent)}, capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    started = pids_in(pids)
    assert len(started) == 2
    assert gone([started[0]], started), [p for p in started if alive(p)]


# --- standard error -------------------------------------------------------------------------------------
def test_a_program_flooding_standard_error_still_plays() -> None:
    # our standard error is drained here (pytest captures it to a file): the program's logs go there
    bot = _bot(fake_bot({"steps": [[["stderr", 300_000], ["good"]]]}), limit=5.0)
    try:
        _decide(bot, 3)
    finally:
        bot.close()
    assert bot.incidents == []


def test_a_program_blocked_on_standard_error_cannot_block_us() -> None:
    # the engine's own standard error is a pipe nobody reads: the program blocks writing its logs, the engine
    # does not (it never reads or writes that pipe), and the program is handled as stalled
    spec = fake_bot({"steps": [[["stderr", 1_000_000], ["good"]]]})
    code = textwrap.dedent(f"""
        import json, time
        from engine.bots.base import make_bot
        from engine.play.compile import load_game
        from external_support import first_decision as decision
        bot = make_bot({spec!r}, load_game("twenty-nine"), 1)
        bot.time_limit = {LIMIT}
        view, legal = decision()
        t0 = time.monotonic()
        ok = [bot.choose(view, legal) in legal for _ in range(8)]
        bot.close()
        print(json.dumps({{"ok": ok, "seconds": time.monotonic() - t0, "incidents": bot.incidents,
                          "groups": bot.process_groups}}))
    """)
    r, w = os.pipe()
    try:
        child = subprocess.Popen([sys.executable, "-c", code], cwd=Path(__file__).parent.parent, stderr=w,
                                 stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(Path(__file__).parent)})
        os.close(w)
        out, _ = child.communicate(timeout=120)
    finally:
        os.close(r)
    report = json.loads(out)
    assert report["ok"] == [True] * 8
    assert report["seconds"] < (MAX_RESTARTS + 1) * (LIMIT + 1) + SLACK
    assert sum("no answer within 0.5 s (stalled; stopped)" in x for x in report["incidents"]) == MAX_RESTARTS + 1
    assert gone(report["groups"])


# --- the cost of one bad program ------------------------------------------------------------------------
def test_one_stalling_program_costs_a_bounded_time() -> None:
    bot = _bot(fake_bot({"steps": [[["sleep", 60]]]}))
    try:
        took = _decide(bot, 30)
    finally:
        bot.close()
    assert max(took) < LIMIT + SLACK
    assert sum(took) < (MAX_RESTARTS + 1) * (LIMIT + 1) + SLACK
    assert sum("stalled" in x for x in bot.incidents) == MAX_RESTARTS + 1
    assert all("gave up restarting the program after 4 starts" in x for x in bot.incidents[MAX_RESTARTS + 1:])
    assert len(bot.incidents) == 30
    assert gone(bot.process_groups)


def test_a_program_exiting_between_decisions_is_reported_and_restarted() -> None:
    bot = _bot(fake_bot({"steps": [[["good"], ["exit", 7]]]}))
    view, legal = first_decision()
    try:
        for _ in range(6):
            assert bot.choose(view, legal) in legal
            time.sleep(0.3)   # it has exited by the next request (if not, it fails that one instead)
    finally:
        bot.close()
    assert bot.incidents[:MAX_RESTARTS] == [f"seat 1, decision {d}: the program had exited (code 7) since its last "
                                            "answer" for d in range(2, MAX_RESTARTS + 2)]
    assert bot.incidents[MAX_RESTARTS:] == [
        "seat 1, decision 5: the program had exited (code 7) since its last answer",
        "seat 1, decision 5: gave up restarting the program after 4 starts; the random bot played",
        "seat 1, decision 6: gave up restarting the program after 4 starts; the random bot played"]
    assert len(bot.process_groups) == MAX_RESTARTS + 1
    assert gone(bot.process_groups)


def test_an_unusable_command_line_is_reported_at_every_decision() -> None:
    # make_bot refuses an empty command early; the bot itself copes with any command line it is given
    for command, reason in (("python3 'bot.py", "cannot start 'python3 'bot.py': the command line cannot be split "
                                                "(No closing quotation)"),
                            ("   ", "cannot start '   ': no program named"),
                            ("/nonexistent/bot", "cannot start '/nonexistent/bot': No such file")):
        bot = ExternalBot(command, 1, time_limit=LIMIT)
        _decide(bot, 3)
        assert len(bot.incidents) == 3 and all(reason in x for x in bot.incidents), bot.incidents
        assert bot.process_groups == []


# --- stray output ---------------------------------------------------------------------------------------
def test_a_second_line_in_one_answer_is_reported_and_discarded() -> None:
    answer = b'{"action": "pass"}\n{"action": "bid 16"}\n'
    bot = _bot(fake_bot({"steps": [[["w", _hex(answer)]], [["good"]]]}))
    try:
        _decide(bot, 3)
    finally:
        bot.close()
    assert len(bot.incidents) == 1
    assert "decision 1: answered more than one line (then '{\"action\": \"bid 16\"}\\n', discarded)" \
        in bot.incidents[0]
    assert len(bot.process_groups) == 1   # kept running: the next answers were fine


def test_output_before_the_request_is_reported_and_discarded() -> None:
    unasked = ["w", _hex('{"action": "pass"}\n')]
    bot = _bot(fake_bot({"steps": [[["good"], ["sleep", 0.3], unasked], [["good"]]]}))
    view, legal = first_decision()
    try:
        assert bot.choose(view, legal) in legal
        time.sleep(1.5)   # the unasked line is there before the next request
        assert bot.choose(view, legal) in legal
        assert bot.choose(view, legal) in legal
    finally:
        bot.close()
    assert len(bot.incidents) == 1
    assert "decision 2: the program wrote '{\"action\": \"pass\"}\\n' before being asked (discarded)" \
        in bot.incidents[0]


def test_incidents_show_the_programs_text_escaped() -> None:
    nasty = '{"action": "\\u001b[2J\\u202e\\ud800 play JS"}\n'   # clear screen, right-to-left, lone surrogate
    bot = _bot(fake_bot({"steps": [[["w", _hex(nasty)]]]}))
    try:
        _decide(bot, 1)
    finally:
        bot.close()
    (incident,) = bot.incidents
    assert incident.isprintable() and incident.isascii(), incident
    assert "illegal action '\\x1b[2J\\u202e\\ud800 play JS' (not ASCII)" in incident


# --- the program layer on its own -----------------------------------------------------------------------
def test_writing_to_a_program_that_does_not_read_gives_up_at_the_deadline() -> None:
    program = Program([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        t0 = time.monotonic()
        with pytest.raises(Stalled):
            program.send(b"x" * 1_000_000, t0 + 0.3)
        assert time.monotonic() - t0 < 0.3 + SLACK
    finally:
        program.kill()
    assert gone([program.pgid])


# --- the keeper (Linux): the program runs under it, and nothing of that shows ----------------------------------
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the keeper is Linux only")


def _output(program: Program) -> bytes:
    lines = []
    deadline = time.monotonic() + 30
    try:
        while True:
            lines.append(program.output.read_line(deadline, 1 << 20))
    except Closed:
        pass
    return b"\n".join(lines)


@LINUX
def test_the_keeper_leads_the_session_and_runs_the_program_as_its_child() -> None:
    program = Program([sys.executable, "-I", "-S", "-c", "import os; print(os.getpid(), os.getppid(), flush=True)"])
    try:
        pid, parent = map(int, _output(program).split())
        assert pid == program.program_pid != program.pgid == parent
        assert program.exit_code(5) == 0
    finally:
        program.kill()
    assert gone([program.pgid], [pid])


@LINUX
@pytest.mark.parametrize(("code", "expected"), [("raise SystemExit(3)", 3), ("import os; os.kill(os.getpid(), 9)", -9),
                                                ("import os; os.kill(os.getpid(), 15)", -15)])
def test_the_keeper_exits_as_the_program_did(code: str, expected: int) -> None:
    program = Program([sys.executable, "-I", "-S", "-c", code])
    try:
        assert program.exit_code(10) == expected
    finally:
        program.kill()


@LINUX
@pytest.mark.parametrize(("argv", "error"), [(["/nonexistent/bot"], FileNotFoundError), (["/etc/hostname"], OSError)])
def test_a_program_the_keeper_cannot_start_is_the_same_error(argv: list[str], error: type[OSError]) -> None:
    try:
        subprocess.run(argv, check=False)
    except OSError as e:
        direct = e
    with pytest.raises(error) as kept:
        Program(argv)
    assert type(kept.value) is type(direct) and kept.value.strerror == direct.strerror


@LINUX
def test_the_program_gets_the_signals_and_mask_a_direct_start_gives() -> None:
    """Python ignores SIGPIPE and SIGXFSZ; the keeper, like subprocess, gives the program the defaults back."""
    def fields(text: bytes) -> dict[bytes, bytes]:
        return {k: v.strip() for k, _, v in (line.partition(b":") for line in text.splitlines())
                if k in (b"SigIgn", b"SigBlk")}

    program = Program(["cat", "/proc/self/status"])
    try:
        kept = fields(_output(program))
    finally:
        program.kill()
    direct = fields(subprocess.run(["cat", "/proc/self/status"], capture_output=True, check=True).stdout)
    assert kept == direct and len(kept) == 2


@LINUX
def test_the_keeper_loads_nothing_the_environment_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It runs isolated: a module planted on PYTHONPATH, or a start-up file, never runs in it."""
    marker = tmp_path / "ran"
    for name in ("select", "signal", "contextlib", "ctypes", "resource", "sitecustomize"):
        (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write('{name}')\n")
    (tmp_path / "startup.py").write_text(f"open({str(marker)!r}, 'a').write('startup')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv("PYTHONSTARTUP", str(tmp_path / "startup.py"))
    monkeypatch.chdir(tmp_path)
    program = Program(["cat"])
    try:
        program.send(b"hello\n", time.monotonic() + 10)
        assert program.output.read_line(time.monotonic() + 10, 100) == b"hello"
    finally:
        program.close(1.0)
    assert not marker.exists(), marker.read_text()


@LINUX
def test_a_forked_copy_of_jacknine_does_not_keep_a_keeper_waiting() -> None:
    """A worker forked after a program started must not hold that keeper's pipe: when jacknine goes, the keeper
    must see it go (here: jacknine's end is closed, as at its death, while the fork still runs)."""
    program = Program(["cat"])
    child = os.fork()
    if child == 0:      # the fork: outlive the parent's end of the pipe, touch nothing
        time.sleep(30)
        os._exit(0)
    try:
        assert program._control is not None
        os.close(program._control)
        program._control = None
        assert program.exit_code(20) is not None     # the keeper saw end of file, killed cat and exited
    finally:
        os.kill(child, 9)
        os.waitpid(child, 0)
        program.kill()
    assert gone([program.pgid], [program.program_pid])


def test_write_all_reports_a_closed_pipe() -> None:
    r, w = os.pipe()
    os.close(r)
    os.set_blocking(w, False)
    try:
        with pytest.raises(Closed):
            write_all(w, b"x", time.monotonic() + 1)
    finally:
        os.close(w)


def test_the_readme_states_the_limits_the_code_applies() -> None:
    readme = (Path(__file__).resolve().parent.parent / "docs" / "bots.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Outside bots"):readme.index("### OpenSpiel")]
    assert f"at most {MAX_ANSWER_BYTES // 1024} KiB, JSON nested at most {MAX_DEPTH} deep" in section
    assert {3: "up to three times"}[MAX_RESTARTS] in section
    assert {0.5: "after half a second"}[CLOSE_GRACE] in section
