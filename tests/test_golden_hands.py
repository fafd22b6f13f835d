"""Golden hand records: every tests/hands/NAME.yaml replays through the CLI to exactly tests/hands/NAME.json.

The records (twenty-eight and twenty-nine, one rule each, named in each file's comment header) pin the engine's
behaviour down the way perft counts pin a move generator: a change in any trick winner, score or message fails.
Subfolders hold other engineers' goldens and are not collected here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app

HANDS = Path(__file__).parent / "hands"
RECORDS = sorted(HANDS.glob("*.yaml"))


def test_enough_golden_records() -> None:
    assert len(RECORDS) >= 40
    for rec in RECORDS:
        assert rec.with_suffix(".json").is_file(), f"{rec.name} has no expected report"
        assert rec.read_text().startswith("#"), f"{rec.name} needs a comment header saying what it tests"


@pytest.mark.parametrize("record", RECORDS, ids=[r.stem for r in RECORDS])
def test_golden_record(record: Path) -> None:
    expected = json.loads(record.with_suffix(".json").read_text())
    result = CliRunner().invoke(app, ["replay", str(record), "--json"])
    assert result.exit_code == (1 if expected["status"] == "illegal" else 0), result.output
    assert json.loads(result.stdout) == expected
