"""The small exception tree of jacknine; the CLI turns each into one clear line and an exit code."""

from __future__ import annotations

from dataclasses import dataclass

from engine.text import escaped


class JacknineError(Exception):
    """Base of every error jacknine raises on purpose."""


MAX_PROBLEM_LINE = 2000


@dataclass(frozen=True)
class Problem:
    """One problem in a rule file or record, with where it is."""

    file: str
    line: int | None
    column: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        line = f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"
        # keys, names and file names come from files people share: nothing in them may reach a terminal raw
        return escaped(line, MAX_PROBLEM_LINE)

    def as_dict(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "column": self.column, "path": self.path,
                "message": self.message}


class RulesetError(JacknineError):
    """A rule file is invalid: carries every problem found, one per line."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class UnreadableError(JacknineError):
    """A file cannot be read at all: missing, not YAML, not a mapping, too large, binary (exit code 2)."""

    def __init__(self, file: str, message: str, line: int | None = None, column: int | None = None) -> None:
        self.problem = Problem(file, line, column, "", message)
        super().__init__(str(self.problem))


class RecordError(JacknineError):
    """A hand record is malformed (not a rules problem: the record itself cannot be understood)."""


class ArgumentError(JacknineError, ValueError, TypeError):
    """A Python API call got an argument it cannot use: a seat that is not at the table, a negative seed, a deal
    that is not the game's pack, text where an Action is expected. Nothing was changed."""


class IllegalActionError(JacknineError):
    """An action the rules forbid; `reason` says why in a player's words. The state is left untouched."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class ClusterError(JacknineError):
    """Work cannot be shared out: a Dask scheduler that cannot be reached, workers running another jacknine, the
    `cluster` extra not installed (exit code 2)."""
