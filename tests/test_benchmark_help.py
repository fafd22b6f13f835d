"""Every benchmark script answers --help with its usage and exit code 0 (not a traceback, not a run)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
SCRIPTS = sorted(p.name for p in BENCHMARKS.glob("*.py"))


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
