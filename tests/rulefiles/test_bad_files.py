"""Every broken file in bad/ gives exactly the lines in its .expected file (first line: the exit code).

Set JACKNINE_REGEN=1 to rewrite the .expected files after a deliberate change of wording; review the diff.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from engine.errors import UnreadableError
from engine.rules.load import check_ruleset
from engine.rules.yamlpos import MAX_BYTES

from .helpers import BAD, outcome

CASES = sorted(p.name for p in BAD.glob("*.yaml") if not p.name.startswith("_"))


def test_there_are_at_least_thirty_broken_files() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("name", CASES)
def test_exact_error_lines(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    code, lines = outcome(name)
    got = "\n".join([f"exit {code}", *lines]) + "\n"
    expected = BAD / (Path(name).stem + ".expected")
    if os.environ.get("JACKNINE_REGEN"):
        expected.write_text(got, encoding="utf-8")
    assert code != 0, "a file in bad/ must be rejected"
    assert got == expected.read_text(encoding="utf-8")


def test_oversized_file_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("schema_version: 1\nnotes:\n" + "  - padding padding padding padding\n" * 40_000)
    assert big.stat().st_size > MAX_BYTES
    with pytest.raises(UnreadableError, match="larger than 1 MiB"):
        check_ruleset(big)


def test_alias_bomb_fails_fast() -> None:
    start = time.perf_counter()
    with pytest.raises(UnreadableError, match="aliases"):
        check_ruleset(BAD / "alias-bomb.yaml")
    assert time.perf_counter() - start < 1.0


def test_deep_nesting_is_unreadable_not_a_crash(tmp_path: Path) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("schema_version: 1\nx: " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(UnreadableError, match="nested too deeply"):
        check_ruleset(deep)


def test_missing_file_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(UnreadableError, match="no such file"):
        check_ruleset(tmp_path / "absent.yaml")
