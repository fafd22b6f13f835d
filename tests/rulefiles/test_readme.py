"""The rule-file page (docs/rule-files.md, moved out of the README): the house-rule example is the committed file,
and the commands run."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "docs" / "rule-files.md").read_text(encoding="utf-8")
SECTIONS = README[README.index("## Rule files"):]
_END = SECTIONS.find("\n## ", SECTIONS.index("## Checking rule files"))
SECTIONS = SECTIONS if _END < 0 else SECTIONS[:_END]


def _blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced block."""
    out: list[tuple[str, str]] = []
    lang, body = None, []
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            if lang is None:
                lang, body = line[3:].strip(), []
            else:
                out.append((lang, "".join(body)))
                lang = None
        elif lang is not None:
            body.append(line)
    return out


COMMANDS = [line.split("#")[0].strip() for lang, body in _blocks(SECTIONS) if lang == ""
            for line in body.splitlines() if line.startswith("jacknine ")]


def test_house_rule_example_is_the_committed_file() -> None:
    [example] = [body for lang, body in _blocks(SECTIONS) if lang == "yaml"]
    assert example == (ROOT / "examples" / "our-table.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command.split(">")[0])[1:]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout
