"""Issue 18, "what a newcomer meets" and the smaller points: each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.cli.app import app

HEAD = "schema_version: 1\nname: x\nextends: twenty-eight\ndescription: d\n"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _file(tmp_path: Path, body: str, name: str = "h.yaml") -> str:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return str(path)


def test_tab_in_a_rule_file_says_use_spaces(tmp_path: Path) -> None:
    code, _, err = _run("validate", _file(tmp_path, HEAD + "auction:\n\tpass_is_final: true\n"))
    assert code == 2 and "use spaces" in err and len(err.strip().splitlines()) == 1


def test_extends_with_yaml_suffix_suggests_the_shipped_name(tmp_path: Path) -> None:
    code, _, err = _run("validate", _file(tmp_path, HEAD.replace("twenty-eight", "twenty-eight.yaml")))
    assert "did you mean 'twenty-eight'?" in err and code == 2


def test_missing_parent_file_exits_2_as_a_missing_file_does(tmp_path: Path) -> None:
    code, _, err = _run("validate", _file(tmp_path, HEAD.replace("twenty-eight", "./nothere.yaml")))
    assert code == 2 and "parent file not found" in err and len(err.strip().splitlines()) == 1
    assert _run("validate", str(tmp_path / "nothere.yaml"))[0] == 2


def test_key_in_the_wrong_section_names_its_section(tmp_path: Path) -> None:
    _, _, err = _run("validate", _file(tmp_path, HEAD + "play:\n  pass_is_final: true\n"))
    assert "play.pass_is_final: unknown key here; it belongs under auction" in err
    _, _, err = _run("validate", _file(tmp_path, HEAD + "auction:\n  win_at: 5\n"))
    assert "belongs under match" in err
    _, _, err = _run("validate", _file(tmp_path, HEAD + "auction:\n  bidz: {min: 14, max: 28}\n"))
    assert "did you mean 'bids'?" in err   # a typo is still a typo
