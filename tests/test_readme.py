"""The README's own commands run, and its shape holds for a newcomer: "play tonight" first, the command to play
yourself within the first 40 lines, under 300 lines, and the first two commands what CI and a player run. The
pages the reference material moved to (docs/) are checked by the tests of their sections: the record example and
the Python API here, the rule files in tests/rulefiles/test_readme.py, bots, big runs and learning in theirs."""

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
API = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
SIMULATING = (ROOT / "docs" / "simulating.md").read_text(encoding="utf-8")


def _section(text: str, title: str) -> str:
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 3)
    return text[start:] if end < 0 else text[start:end]


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
    """Every `jacknine` command of the text's shell blocks (`.venv/bin/jacknine` included), comments dropped."""
    found = []
    for lang, body in _blocks(text):
        if lang:
            continue
        for line in body.splitlines():
            for part in line.split("&&"):
                part = part.split("  #")[0].strip().removeprefix(".venv/bin/")
                if part.startswith("jacknine "):
                    found.append(part)
    return found


HOUSE_RULES = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
COMMANDS = (_commands(README) + _commands(_section(API, "Hand records and replay"))
            + _commands(_section(SIMULATING, "Playing and simulating")) + _commands(HOUSE_RULES))


def _first_two() -> list[str]:
    return [body.strip() for lang, body in _blocks(README) if lang == ""][:2]


def test_the_readme_opens_with_play_tonight_and_stays_short() -> None:
    lines = README.splitlines()
    assert len(lines) < 300
    assert lines.index("## Play tonight") < 10
    first_40 = "\n".join(lines[:40])
    assert "jacknine play -r twenty-eight" in first_40
    play = [c for c in _commands("\n".join(lines[:40])) if c.startswith("jacknine play") and "--auto" not in c]
    assert play, "the command to play yourself (not --auto) is within the first 40 lines"
    assert "jacknine serve" in "\n".join(lines[:60])


def test_the_first_command_sets_up_and_plays_a_shipped_game_the_second_runs_the_tests() -> None:
    cmds = _first_two()
    assert cmds[0] == ("python3 -m venv .venv && .venv/bin/pip install '.[web]' && "
                       ".venv/bin/jacknine play -r twenty-eight")
    assert cmds[1] == "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest"


def test_the_first_commands_never_install_into_the_system_python() -> None:
    """issue 18: a current Debian/Ubuntu refuses `pip install` outside a virtual environment (PEP 668), so every
    step of both commands after `python3 -m venv .venv` runs the venv's own tools."""
    for cmd in _first_two():
        first, *rest = [part.strip() for part in cmd.split("&&")]
        assert first == "python3 -m venv .venv", cmd
        assert rest and all(part.startswith(".venv/bin/") for part in rest), cmd


def test_ci_runs_exactly_the_readme_test_command() -> None:
    """.ci/run holds the README's test command as one whole line, and its ruff and mypy are the venv's."""
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert _first_two()[1] in ci_lines
    assert ".venv/bin/ruff check || exit 1" in ci_lines and ".venv/bin/mypy --strict engine || exit 1" in ci_lines
    assert not [line for line in ci_lines if line.startswith(("python3 -m pip", "ruff ", "mypy "))]


def test_every_readme_link_to_docs_exists() -> None:
    import re

    for target in re.findall(r"\]\((docs/[^)#]+)\)", README):
        assert (ROOT / target).exists(), target


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command runs and prints something (`play` without --auto meets the end of input: it saves and stops;
    `serve` would run until stopped: its options are checked with --help, and tests/test_web_live.py serves)."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command)[1:]
    if args[0] == "bench" and "--hands" in args:   # (CI's budget: the speed figure is the benchmark's, not a test's;
        i = args.index("--hands") + 1               # the same command runs on a tenth of its hands, at most 2000)
        args[i] = str(min(int(args[i]), 2000))
    if args[0] == "serve":
        pytest.importorskip("starlette")
        args.append("--help")
    if args[:2] == ["play", "--resume"]:
        assert CliRunner().invoke(app, ["play", "-r", "29", "--save", args[2]], input="").exit_code == 0
    result = CliRunner().invoke(app, args, input="")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip()
    if "--json" in args:
        json.loads(result.stdout)


def test_record_example_is_the_committed_file() -> None:
    [record] = [body for lang, body in _blocks(_section(API, "Hand records and replay")) if lang == "yaml"]
    assert record == (ROOT / "examples" / "hand.yaml").read_text(encoding="utf-8")


def test_python_api_snippet_runs() -> None:
    [code] = [body for lang, body in _blocks(_section(API, "Python API")) if lang == "python"]
    namespace: dict[str, object] = {}
    exec(compile(code, "docs/api.md", "exec"), namespace)  # noqa: S102 - our own documentation
    assert "view" in namespace


def test_the_worked_house_rule_is_the_committed_example() -> None:
    [example] = [body for lang, body in _blocks(HOUSE_RULES) if lang == "yaml"]
    assert example == (ROOT / "examples" / "our-table.yaml").read_text(encoding="utf-8")


def test_every_shipped_game_is_listed_in_the_games_index_and_the_catalog() -> None:
    from engine.rules.load import catalog, shipped_rulesets

    index = (ROOT / "docs" / "games" / "README.md").read_text(encoding="utf-8")
    assert [n for n in shipped_rulesets() if n not in index] == []
    assert sorted(e.file for e in catalog()) == sorted(shipped_rulesets())
