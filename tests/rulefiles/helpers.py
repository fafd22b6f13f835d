"""Shared helpers for the rule-file tests."""

from __future__ import annotations

import os
from pathlib import Path

from engine.errors import UnreadableError
from engine.rules.load import check_ruleset, shipped_dir

BAD = Path(__file__).parent / "bad"


def outcome(ref: str) -> tuple[int, list[str]]:
    """The exit code `validate` gives and the problem lines it prints, shipped paths made portable."""
    try:
        report = check_ruleset(ref)
    except UnreadableError as e:
        return 2, [portable(str(e.problem))]
    return (0 if report.ok else 1), [portable(str(p)) for p in report.problems]


def portable(line: str) -> str:
    return line.replace(str(shipped_dir()) + os.sep, "<shipped>/")
