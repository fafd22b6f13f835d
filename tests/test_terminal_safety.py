"""Text from files people share never reaches the terminal raw: control and format characters in a rule file's
keys, description, notes and sources, or in a record's ruleset and actions, are dropped or shown escaped."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.cli.app import app

runner = CliRunner()
# as written inside a double-quoted YAML scalar: YAML's own escapes make the control characters
HOSTILE = "\\x1b[2J\\x1b]0;owned\\x07\\u202e\\x9b31m"


def _clean(text: str) -> bool:
    return not any(ch in text for ch in ("\x1b", "\x07", "\u202e", "\x9b"))


def _house(tmp_path: Path) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(
        "schema_version: 1\nname: house\nextends: twenty-eight\n"
        f'description: "ours {HOSTILE}"\nnotes: ["a note {HOSTILE}"]\nsources: ["src {HOSTILE}"]\n',
        encoding="utf-8")
    return path


def test_show_and_rulesets_print_no_control_characters(tmp_path: Path) -> None:
    res = runner.invoke(app, ["show", str(_house(tmp_path))])
    assert res.exit_code == 0 and _clean(res.output) and "ours" in res.output and "a note" in res.output


def test_validate_escapes_hostile_keys(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f'schema_version: 1\nname: bad\nextends: twenty-eight\ndescription: d\n"{HOSTILE}": 1\n',
                    encoding="utf-8")
    res = runner.invoke(app, ["validate", str(path)])
    assert res.exit_code == 1 and _clean(res.output) and "\\x1b" in res.output


def test_replay_quotes_a_hostile_ruleset_and_action(tmp_path: Path) -> None:
    rec = tmp_path / "r.yaml"
    rec.write_text(f'ruleset: "nope{HOSTILE}"\ndealer: 0\nseed: 1\nactions: []\n', encoding="utf-8")
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 2 and _clean(res.output) and res.output.count("\n") == 1
    rec.write_text(f'ruleset: twenty-eight\ndealer: 0\nseed: 1\nactions: ["1 bid 1{HOSTILE}"]\n', encoding="utf-8")
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 1 and _clean(res.output)
