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


# --- the text replay says the trump as it stands ----------------------------------------------------------------
TWENTY_NINE_DEAL = """dealer: 3
hands:
  0: 9S AS TS KS 9H AH TH KH
  1: QS 8S 7S QH 8H 7H 9D AD
  2: JS JH 9C AC JD JC TC KC
  3: TD KD QD 8D 7D QC 8C 7C
actions: [{actions}]
"""


@pytest.mark.parametrize(("ruleset", "actions", "says"), [
    ("twenty-nine", "0 bid 16, 1 pass, 2 pass, 3 pass", "contract: seat 0 bid 16, trump not chosen yet"),
    ("twenty-nine", "0 bid 16, 1 pass, 2 pass, 3 pass, 0 trump S", "contract: seat 0 bid 16, trump spades (concealed)"),
    ("./nt.yaml", "0 bid 16, 1 pass, 2 pass, 3 pass, 0 trump NT", "contract: seat 0 bid 16, trump no trumps"),
])
def test_replay_says_the_trump_as_it_stands(tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str,
                                            actions: str, says: str) -> None:
    (tmp_path / "nt.yaml").write_text("schema_version: 1\nextends: twenty-nine\nname: nt\ndescription: no-trumps\n"
                                      "trump:\n  no_trumps: true\n")
    record = tmp_path / "r.yaml"
    record.write_text(f"ruleset: {ruleset}\n" + TWENTY_NINE_DEAL.format(actions=actions))
    assert run(["replay", str(record)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    contract = [line.strip() for line in out.splitlines() if "contract:" in line]
    assert contract == [says], out
