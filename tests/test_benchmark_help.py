"""Every benchmark script answers --help with its usage and exit code 0 (not a traceback, not a run)."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
SCRIPTS = sorted(p.name for p in BENCHMARKS.glob("*.py") if not p.name.startswith("_"))
NEED_NOTHING = {"yardstick.py", "web_load.py"}   # plain Python, or jacknine imported only once running


@pytest.mark.parametrize("script", SCRIPTS)
def test_help(script: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # in this process (the scripts import their modules once for all): a run instead of the usage would show as a
    # missing usage line or a slow test
    monkeypatch.setattr(sys, "argv", [str(BENCHMARKS / script), "--help"])
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(BENCHMARKS / script), run_name="__main__")
    assert done.value.code in (0, None)
    out = capsys.readouterr().out
    assert "usage" in out.lower() or "python3 benchmarks/" in out, out[:300]


@pytest.mark.parametrize("script", sorted(set(SCRIPTS) - NEED_NOTHING))
def test_outside_the_environment_one_line(script: str) -> None:
    # `-S`: no site-packages, so neither jacknine nor its libraries can be imported, as with the system's python3
    # before the virtual environment is activated
    done = subprocess.run([sys.executable, "-S", str(BENCHMARKS / script), "--help"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2, done.stdout[:300] + done.stderr[-300:]
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "engine" in done.stderr and ".venv/bin/python" in done.stderr
