"""Golden records for the games and house rules of issue 14 (tests/hands/more/NAME.yaml + NAME.json), worked out
by hand from MORE-GAMES.md: each record's comment header does the arithmetic (card points per trick, targets,
stones, balls, tables or stakes) and names the rule it pins down.

Each expected report pins what the rules decide, in the replay report's fields (docs/hand-record.md). Where the
rules leave a value open the record leaves its key out and the comparison does not look at it: the message of a
refusal (only its index and action are pinned; any message saying why is accepted), `annulled_because`, the number
of a contract that outranks every number (PCC, Cot on four cards, Thunee, Royals), and the trump of a hand shown
instead of played. Every key the record gives must be in the engine's report with that value; keys the engine
adds beside them are allowed, as the record format lets it write more.

Until the engine ships a record's rule file, the record is skipped with the reason printed, so it goes live the
day the game lands. The referee's own oracle (tests/oracle/referee.py) must reproduce every record now.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from engine.cli.app import app
from engine.rules.load import shipped_rulesets
from tests.oracle.referee import BASE_CLASSES, NEW_FILES, agrees, pinned, referee_report

HANDS = Path(__file__).parent / "hands"
MORE = HANDS / "more"
RECORDS = sorted(MORE.glob("*.yaml"))
BASE_RECORDS = [p for p in sorted(HANDS.glob("*.yaml")) + sorted((HANDS / "family").glob("*.yaml"))
                if yaml.safe_load(p.read_text(encoding="utf-8"))["ruleset"] in BASE_CLASSES]
SHIPPED = set(shipped_rulesets())


def _record(path: Path) -> dict:  # type: ignore[type-arg]
    return yaml.safe_load(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_every_record_has_a_header_and_an_expected_report() -> None:
    for rec in RECORDS:
        assert rec.read_text(encoding="utf-8").startswith("#"), f"{rec.name}: a comment header works it out"
        assert rec.with_suffix(".json").is_file(), f"{rec.name} has no expected report"


def test_every_new_file_has_records() -> None:
    counts: dict[str, int] = {}
    for rec in RECORDS:
        name = _record(rec)["ruleset"]
        counts[name] = counts.get(name, 0) + 1
    assert set(counts) <= set(NEW_FILES), sorted(set(counts) - set(NEW_FILES))
    short = {n: counts.get(n, 0) for n in NEW_FILES if counts.get(n, 0) < 3}
    assert not short, f"files with fewer than 3 hand-worked records: {short}"


@pytest.mark.parametrize("record", RECORDS, ids=[r.stem for r in RECORDS])
def test_the_referee_reproduces_the_record(record: Path) -> None:
    expected = json.loads(record.with_suffix(".json").read_text(encoding="utf-8"))
    data = _record(record)
    assert pinned(data["ruleset"], referee_report(data)) == expected


@pytest.mark.parametrize("record", RECORDS, ids=[r.stem for r in RECORDS])
def test_the_engine_replays_the_record(record: Path) -> None:
    name = _record(record)["ruleset"]
    if name not in SHIPPED:
        pytest.skip(f"ruleset {name} is not shipped yet")
    expected = json.loads(record.with_suffix(".json").read_text(encoding="utf-8"))
    result = CliRunner().invoke(app, ["replay", str(record), "--json"])
    assert result.exit_code == (1 if expected["status"] == "illegal" else 0), result.output
    assert agrees(expected, json.loads(result.stdout)) == []


@pytest.mark.parametrize("record", BASE_RECORDS, ids=[r.stem for r in BASE_RECORDS])
def test_the_referee_plays_the_base_games_as_their_goldens(record: Path) -> None:
    """The house rules of issue 14 stand on the referee's own twenty-eight, twenty-nine and fifty-six: these must
    agree with every shipped golden record of those games (the engine's own message texts aside)."""
    expected = json.loads(record.with_suffix(".json").read_text(encoding="utf-8"))
    expected.pop("annulled_because", None)
    if expected.get("error"):
        expected["error"].pop("message")
    mine = referee_report(_record(record))
    if mine.get("error"):
        mine["error"]["message"] = "(the referee's)"
    assert agrees(expected, mine) == []


def test_enough_base_goldens_are_checked() -> None:
    assert len(BASE_RECORDS) >= 150
