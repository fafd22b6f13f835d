"""Faults a command meets (issue 18): a full disk under standard output, an output file that may not grow, a rule
file that cannot be written, signals to long commands, concurrent saves, saves through links, temporary files.
Each is one line on stderr with exit 2, and nothing is left behind."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

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
