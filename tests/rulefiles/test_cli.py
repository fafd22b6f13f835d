"""The rule-file commands through the real typer app: output, stderr and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from engine.cli.app import app
from engine.rules.load import shipped_rulesets

from .helpers import BAD

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_validate_all_passes() -> None:
    code, out, err = run("validate", "--all")
    assert code == 0 and err == ""
    assert "twenty-eight: ok" in out and out.count(": ok") == len(shipped_rulesets())


def test_validate_exit_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    assert run("validate", "unknown-key-typo.yaml")[0] == 1
    assert run("validate", "yaml-syntax-error.yaml")[0] == 2
    assert run("validate", "no-such-file.yaml")[0] == 2
    assert run("validate", "unknown-key-typo.yaml", "empty.yaml")[0] == 2  # the worst one wins
    assert run("validate")[0] == 2


def test_validate_text_and_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    code, out, err = run("validate", "unknown-key-typo.yaml")
    assert code == 1 and out == ""
    assert err == "unknown-key-typo.yaml:7:5: play.reveal.calll: unknown key (did you mean 'call'?)\n"
    code, out, _ = run("validate", "--format", "json", "unknown-key-typo.yaml", "empty.yaml")
    assert code == 2
    assert json.loads(out) == [
        {"file": "unknown-key-typo.yaml", "line": 7, "column": 5, "path": "play.reveal.calll",
         "message": "unknown key (did you mean 'call'?)"},
        {"file": "empty.yaml", "line": None, "column": None, "path": "",
         "message": "empty file; a rule file is a mapping of keys to values"},
    ]


def test_validate_json_is_the_same_as_format_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    files = ("unknown-key-typo.yaml", "empty.yaml", "twenty-eight")
    by_format = run("validate", "--format", "json", *files)
    assert run("validate", "--json", *files) == by_format
    assert run("validate", "--json", "--format", "json", *files) == by_format
    assert by_format[0] == 2 and len(json.loads(by_format[1])) == 2
    assert run("validate", "--json", "twenty-eight") == (0, "[]\n", "")


def test_validate_json_and_format_text_together_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    code, out, err = run("validate", "--json", "--format", "text", "unknown-key-typo.yaml")
    assert (code, out) == (2, "")
    assert err == "validate: --json and --format text ask for different outputs; give one of them\n"


def test_rulesets_lists_every_shipped_file() -> None:
    code, out, _ = run("rulesets")
    lines = [line.split() for line in out.splitlines() if line.startswith("  ")]   # one indented line a file
    assert code == 0 and sorted(line[0] for line in lines) == sorted(shipped_rulesets())
    assert any(line[:2] == ["fifty-six", "6p"] for line in lines)


def test_show_is_readable_text() -> None:
    code, out, _ = run("show", "twenty-eight")
    assert code == 0
    for expected in ("4 players", "Teams (seats): 0+2 against 1+3.", "Card points: J 3, 9 2, A 1, T 1",
                     "28 points in all.", "Bids from 14 to 28", "Bids 20-24: made +2, failed -3.",
                     "A team reaching 6 wins the match.", "all four Jacks"):
        assert expected in out
    assert "schema_version" not in out  # sentences, not a dump


def test_show_origin_names_the_file_that_set_each_rule() -> None:
    code, out, _ = run("show", "--origin", "thani")
    assert code == 0
    contract = next(line for line in out.splitlines() if line.strip().startswith("thani (`declare thani`)"))
    assert "thani.yaml:" in contract
    bids = next(line for line in out.splitlines() if "Bids from" in line)
    assert "twenty-eight.yaml:" in bids
    assert "[default]" in out


def test_show_bad_file_is_one_line_per_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    code, out, err = run("show", "teams-not-partition.yaml")
    assert code == 1 and out == "" and len(err.splitlines()) == 2


def test_schema_prints_the_committed_schema() -> None:
    code, out, _ = run("schema")
    committed = (Path(__file__).resolve().parents[2] / "schemas" / "ruleset.schema.json").read_text()
    assert code == 0 and out == committed


def test_new_writes_a_valid_overlay_and_never_overwrites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, _ = run("new", "--extends", "twenty-nine", "-o", "our-table.yaml")
    assert code == 0
    text = Path("our-table.yaml").read_text()
    # outside a checkout no path is written (one into site-packages breaks when the file is shared), only how
    assert text.startswith("# For key completion") and "$schema=ruleset.schema.json" in text
    assert "site-packages" not in text and "/schemas/" not in text
    data = yaml.safe_load(text)
    assert data == {"schema_version": 1, "name": "our-table", "extends": "twenty-nine",
                    "description": "twenty-nine with our house rules"}
    assert "# scoring:" in text
    assert run("validate", "our-table.yaml")[0] == 0
    assert run("diff", "twenty-nine", "our-table.yaml")[1] == "our-table.yaml has the same rules as twenty-nine\n"
    code, _, err = run("new", "--extends", "twenty-nine", "-o", "our-table.yaml")
    assert code == 2 and "already exists" in err
    assert Path("our-table.yaml").read_text() == text


def test_new_with_unknown_parent_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("new", "--extends", "twenty-seven", "-o", "x.yaml")[0] == 2
    assert not Path("x.yaml").exists()


def test_diff_lists_changed_rules() -> None:
    code, out, _ = run("diff", "twenty-eight", "open-trump")
    assert code == 0
    assert out.splitlines() == [
        "open-trump changes 2 rule(s) of twenty-eight:",
        "  trump.declared_as: card -> suit",
        "  trump.concealed: true -> false",
    ]


def test_diff_with_unreadable_side_exits_2() -> None:
    assert run("diff", "twenty-eight", "nowhere.yaml")[0] == 2
