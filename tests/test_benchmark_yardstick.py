"""The benchmarks' yardstick ships in the repository (issue 18): from a fresh clone the scripts print ratios."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_benchmark_reads_outside_the_repository() -> None:
    for script in (ROOT / "benchmarks").glob("*.py"):
        assert "shared" not in script.read_text(encoding="utf-8").replace("shared machine", ""), script.name


def test_the_yardstick_plays_whole_deals() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import yardstick
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    rng = random.Random(1)
    totals = [yardstick.deal_and_play(rng, i & 3) for i in range(500)]
    assert all(a + b == 28 and 0 <= a <= 28 for a, b in totals)
    assert len({a for a, _ in totals}) > 10


def test_random_hands_prints_ratios_run_from_anywhere(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "random_hands.py"), "twenty-eight", "50"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ratio_to_yardstick"] > 0 and out["api_ratio_to_yardstick"] > 0
