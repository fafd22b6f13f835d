"""The `jacknine` program itself: usage errors are one line with exit 2, --version, a closed pipe, bad seeds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli.app import BROKEN_PIPE, run, version_text

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = [sys.executable, "-c", "from engine.cli.app import main; main()"]


@pytest.mark.parametrize(("args", "says"), [
    (["dael"], "jacknine: No such command 'dael'. Did you mean 'deal'?"),
    (["deal", "--seed", "-1"], "jacknine deal: Invalid value for '--seed'"),
    (["deal", "--seed", "abc"], "jacknine deal: Invalid value for '--seed'"),
    (["simulate", "--bogus"], "jacknine simulate: No such option: --bogus"),
    (["tournament", "--seed", "-3"], "jacknine tournament: Invalid value for '--seed'"),
])
def test_usage_errors_are_one_line_with_exit_2(args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(says), err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--version"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == version_text() and out.startswith("jacknine ")


def test_a_closed_pipe_ends_quietly() -> None:
    proc = subprocess.Popen([*PROGRAM, "rulesets"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    assert proc.wait(timeout=60) == BROKEN_PIPE
    assert proc.stderr.read() == b""


@pytest.mark.parametrize(("bots", "says"), [
    ("cmd:python3 'x,random", "the command line cannot be split"),
    ("cmd:,random", "no program named"),
    ("clever,random", "unknown bot 'clever'"),
    ("search:0,random", "search takes only 'search:N' (N worlds per decision, 1 to 999999), 'search:never'"),
])
def test_bad_bot_specs_are_refused_before_anything_starts(bots: str, says: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["tournament", "--bots", bots, "--hands", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err, err
