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


def _quick_start() -> list[str]:
    quick = OURS[OURS.index("## Quick start"): OURS.index("## Playing and simulating")]
    return [body.strip() for lang, body in _blocks(quick) if lang == ""]


def test_quick_start_has_two_commands() -> None:
    cmds = _quick_start()
    assert cmds[0].startswith("python3 -m venv .venv && .venv/bin/pip install . && ")
    assert cmds[0].endswith(".venv/bin/jacknine play --ruleset twenty-eight --auto")
    assert cmds[1] == "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest"


def test_quick_start_never_installs_into_the_system_python() -> None:
    """issue 18: a current Debian/Ubuntu refuses `pip install` outside a virtual environment (PEP 668), so every
    step of both commands after `python3 -m venv .venv` runs the venv's own tools."""
    for cmd in _quick_start():
        first, *rest = [part.strip() for part in cmd.split("&&")]
        assert first == "python3 -m venv .venv", cmd
        assert rest and all(part.startswith(".venv/bin/") for part in rest), cmd


def test_ci_runs_exactly_the_readme_test_command() -> None:
    """.ci/run holds the README's test command as one whole line, and its ruff and mypy are the venv's."""
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert _quick_start()[1] in ci_lines
    assert ".venv/bin/ruff check || exit 1" in ci_lines and ".venv/bin/mypy --strict engine || exit 1" in ci_lines
    assert not [line for line in ci_lines if line.startswith(("python3 -m pip", "ruff ", "mypy "))]


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
