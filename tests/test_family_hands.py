"""Golden records for the family beyond twenty-eight and twenty-nine (tests/hands/family/NAME.yaml + NAME.json).

Each record's comment header says which rule it pins down; its expected report was checked against the rule
text (BUILTINS.md, RULES.md) with an independent trick calculation, not copied from the engine's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from engine.cli.app import app

FAMILY = Path(__file__).parent / "hands" / "family"
RECORDS = sorted(FAMILY.glob("*.yaml"))
RULESETS = Path(__file__).resolve().parents[1] / "rulesets"
# The base games have their own goldens in tests/hands; every other shipped file needs three here.
BASE_GAMES = {"twenty-eight", "twenty-nine"}


def test_every_family_file_has_three_records() -> None:
    counts: dict[str, int] = {}
    for rec in RECORDS + sorted((FAMILY.parent / "more").glob("*.yaml")):  # the issue-14 files' records too
        assert rec.with_suffix(".json").is_file(), f"{rec.name} has no expected report"
        assert rec.read_text().startswith("#"), f"{rec.name} needs a comment header saying what it tests"
        name = yaml.safe_load(rec.read_text())["ruleset"]
        counts[name] = counts.get(name, 0) + 1
    shipped = {p.stem for p in RULESETS.glob("*.yaml")} - BASE_GAMES
    short = {name: counts.get(name, 0) for name in shipped if counts.get(name, 0) < 3}
    assert not short, f"rule files with fewer than 3 golden records: {short}"


@pytest.mark.parametrize("record", RECORDS, ids=[r.stem for r in RECORDS])
def test_family_record(record: Path) -> None:
    expected = json.loads(record.with_suffix(".json").read_text())
    result = CliRunner().invoke(app, ["replay", str(record), "--json"])
    assert result.exit_code == (1 if expected["status"] == "illegal" else 0), result.output
    assert json.loads(result.stdout) == expected
