"""Rules whose meaning the issue tracker pinned down, each through records played on house-rule files in a folder
of their own (never only through rulesets/)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from engine.cli.app import app

HANDS = Path(__file__).parent / "hands"


def _replay(record: Path) -> dict[str, object]:
    result = CliRunner().invoke(app, ["replay", str(record), "--json"])
    assert result.exit_code in (0, 1), result.output
    out: dict[str, object] = json.loads(result.stdout)
    return out


def _house(tmp_path: Path, body: str, record: str) -> Path:
    """A house rule extending twenty-eight in tmp_path, and a copy of a golden record that plays on it."""
    (tmp_path / "house.yaml").write_text(
        "schema_version: 1\nname: house\nextends: twenty-eight\ndescription: a house rule\n" + body)
    text = (HANDS / record).read_text().replace("ruleset: twenty-eight", "ruleset: ./house.yaml")
    path = tmp_path / record
    path.write_text(text)
    return path


def test_last_trick_indicator_exposed_as_played_by_default(tmp_path: Path) -> None:
    rep = _replay(_house(tmp_path, "", "28-last-trick-direct-indicator.yaml"))
    assert rep["trump"] == {"suit": "S", "exposed_in_trick": 8}
    last = {"leader": 0, "cards": ["7H", "JD", "AS", "JH"], "winner": 2, "points": 7}
    assert rep["tricks"][-1] == last  # type: ignore[index]


def test_last_trick_indicator_played_unexposed_when_the_file_says_so(tmp_path: Path) -> None:
    body = "play:\n  reveal:\n    last_trick_forces_exposure: false\n"
    rep = _replay(_house(tmp_path, body, "28-last-trick-direct-indicator.yaml"))
    # AS goes face up as a plain card: no trump power, hearts led, JH wins; the trump was never exposed
    assert rep["trump"] == {"suit": "S", "exposed_in_trick": None}
    assert rep["tricks"][-1]["winner"] == 3  # type: ignore[index]
    # calling first still exposes it: the indicator is then a trump
    rep = _replay(_house(tmp_path, body, "28-last-trick-call-indicator.yaml"))
    assert rep["trump"] == {"suit": "S", "exposed_in_trick": 8}
    assert rep["tricks"][-1]["winner"] == 2  # type: ignore[index]


def test_unexposed_last_trick_can_annul(tmp_path: Path) -> None:
    body = "play:\n  reveal:\n    last_trick_forces_exposure: false\nannul:\n  trump_never_exposed: true\n"
    rep = _replay(_house(tmp_path, body, "28-last-trick-direct-indicator.yaml"))
    assert rep["status"] == "annulled"
    assert rep["annulled_because"] == "the trump was never exposed"


def test_a_house_rule_reusing_a_shipped_name_plays_by_its_own_rules(tmp_path: Path) -> None:
    """`name: twenty-eight` in a file of one's own: the record names the file, and the file's rules apply."""
    shutil.copy(HANDS / "28-last-trick-direct-indicator.yaml", tmp_path / "rec.yaml")
    (tmp_path / "mine.yaml").write_text(
        "schema_version: 1\nname: twenty-eight\nextends: twenty-eight\ndescription: same name, own rules\n"
        "play:\n  reveal:\n    last_trick_forces_exposure: false\n")
    rec = tmp_path / "rec.yaml"
    rec.write_text(rec.read_text().replace("ruleset: twenty-eight", "ruleset: ./mine.yaml"))
    rep = _replay(rec)
    assert rep["ruleset"] == "twenty-eight"
    assert rep["tricks"][-1]["winner"] == 3  # type: ignore[index]
