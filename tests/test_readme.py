"""The README's own examples run: every `jacknine` command of the play/replay sections, the record example is
the committed example file, and the Python API snippet executes."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 3)
    return README[start:] if end < 0 else README[start:end]


# Other sections are covered by their own tests (tests/rulefiles/test_readme.py, the table's and the bots').
OURS = "".join(_section(t) for t in ("Quick start", "Playing and simulating", "Hand records and replay",
                                     "Python API"))


def _blocks(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    lang: str | None = None
    body: list[str] = []
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("```"):
            if lang is None:
                lang, body = stripped[3:].strip(), []
            else:
                out.append((lang, "".join(body)))
                lang = None
        elif lang is not None:
            body.append(line.strip() + "\n" if lang == "" else line)
    return out


def _commands(text: str) -> list[str]:
    found = []
    for lang, body in _blocks(text):
        if lang:
            continue
        for line in body.splitlines():
            for part in line.split("&&"):
                part = part.split("  #")[0].strip()
                if part.startswith("jacknine "):
                    found.append(part)
    return found


COMMANDS = _commands(OURS)


def test_quick_start_has_two_commands() -> None:
    quick = OURS[OURS.index("## Quick start"): OURS.index("## Playing and simulating")]
    cmds = [body.strip() for lang, body in _blocks(quick) if lang == ""]
    assert cmds[0].startswith("python3 -m pip install .") and "jacknine play --ruleset twenty-eight --auto" in cmds[0]
    assert cmds[1] == "python3 -m pip install -q -e '.[test]' && python3 -m pytest"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert cmds[1].replace("python3 -m pip", "python3 -m pip") in ci  # CI runs exactly the README's test command


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command)[1:]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip()
    if "--json" in args:
        json.loads(result.stdout)


def test_record_example_is_the_committed_file() -> None:
    [record] = [body for lang, body in _blocks(OURS) if lang == "yaml"]
    assert record == (ROOT / "examples" / "hand.yaml").read_text(encoding="utf-8")


def test_python_api_snippet_runs() -> None:
    [code] = [body for lang, body in _blocks(OURS) if lang == "python"]
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102 - our own README
    assert "view" in namespace


def test_readme_names_every_shipped_game() -> None:
    from engine.rules.load import shipped_rulesets

    intro = README[: README.index("## Quick start")]
    assert [n for n in shipped_rulesets() if n not in intro] == []
