"""House rules uploaded to a table as files: checked by the same reader and checks as `jacknine validate`, with the
same `file:line:column` messages, naming the files as they were uploaded.

An uploaded file may `extends` only a shipped game or another file uploaded with it - never a path on the server:
`extends` is checked before anything is loaded. The files are written, under their checked names, into a folder
of the server's own (nothing else is in it), and loaded from there."""

from __future__ import annotations

import difflib
import re
import shutil
from collections.abc import Collection
from pathlib import Path

from engine.errors import Problem, RulesetError, UnreadableError
from engine.play.compile import load_game
from engine.play.game import Game
from engine.rules.load import check_ruleset, display_name, shipped_rulesets
from engine.rules.yamlpos import MAX_BYTES, parse
from engine.text import escaped, quoted

MAX_FILES = 8
MAX_TOTAL = 2 * MAX_BYTES
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,60}\.ya?ml")
# the table's own download names: an uploaded file so named could never be downloaded
RESERVED = frozenset({"save.yaml", "save.yml", "hands.jsonl"})


class UploadError(Exception):
    """The upload cannot be used; `problems` are the lines to show, `file:line:column: path: message`."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def _check_names(files: dict[str, str], main: str) -> list[str]:
    problems = []
    if not files:
        problems.append("no rule file was uploaded")
    if len(files) > MAX_FILES:
        problems.append(f"{len(files)} files uploaded; at most {MAX_FILES}")
    for name, text in files.items():
        if not NAME.fullmatch(name):
            problems.append(f"{quoted(name)}: a rule file's name is letters, digits, '-' and '_', ending in .yaml")
        elif name.lower() in RESERVED:
            problems.append(f"{name}: the name of the table's match save; call the rule file something else")
        elif len(text.encode("utf-8", "replace")) > MAX_BYTES:
            problems.append(f"{name}: larger than 1 MiB; a rule file is a few kilobytes")
    if sum(len(t.encode("utf-8", "replace")) for t in files.values()) > MAX_TOTAL:
        problems.append("the files together are larger than 2 MiB")
    if main not in files:
        problems.append(f"{quoted(main)} is not among the uploaded files")
    return problems


def _check_extends(files: dict[str, str]) -> list[str]:
    """Each file's `extends` names a shipped game or another uploaded file, and nothing else."""
    problems: list[str] = []
    shipped = shipped_rulesets()
    for name, text in files.items():
        try:
            doc = parse(text, name)
        except UnreadableError as e:
            problems.append(str(e))
            continue
        ref = doc.data.get("extends")
        if not isinstance(ref, str) or _extendable(ref, name, files, shipped):
            continue  # (missing, or of the wrong type: the loader says what is wrong)
        pos = doc.values.get(("extends",))
        where = f"{name}:{pos.line}:{pos.column}" if pos is not None else name
        near = difflib.get_close_matches(ref, [*shipped, *(n for n in files if n != name)], n=1)
        hint = f" (did you mean '{near[0]}'?)" if near else ""
        problems.append(f"{where}: extends: an uploaded rule file may extend only a shipped game or another file "
                        f"uploaded with it, not {quoted(ref)}{hint}")
    return problems


def _extendable(ref: str, name: str, files: dict[str, str], shipped: Collection[str]) -> bool:
    """`ref` names a shipped game, or another file of the upload (`./` allowed)."""
    local = ref[2:] if ref.startswith("./") else ref
    return (ref in shipped and "/" not in ref) or (local in files and local != name and bool(NAME.fullmatch(local)))


def _shown(problem: Problem | str, folder: Path, files: dict[str, str]) -> str:
    """A problem with the server's folder taken out of every file name it mentions."""
    line = str(problem)
    for name in files:
        for form in {display_name(folder / name), escaped(str((folder / name).resolve())), str(folder / name)}:
            line = line.replace(form, name)
    return line


def write_files(folder: Path, files: dict[str, str]) -> None:
    """The uploaded files in a fresh folder of their own (names already checked)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(mode=0o700, parents=True)
    for name, text in files.items():
        with open(folder / name, "x", encoding="utf-8") as f:
            f.write(text)


def check_upload(files: dict[str, str], main: str, folder: Path) -> list[str]:
    """Every problem of the upload, as `validate` words them; [] when `main` can be played."""
    problems = _check_names(files, main) or _check_extends(files)
    if problems:
        return problems
    write_files(folder, files)
    try:
        report = check_ruleset(folder / main)
    except UnreadableError as e:
        return [_shown(e.problem, folder, files)]
    return [_shown(p, folder, files) for p in report.problems]


def load_upload(files: dict[str, str], main: str, folder: Path) -> Game:
    """The game of an upload that checks clean; UploadError with every problem otherwise."""
    problems = check_upload(files, main, folder)
    if problems:
        raise UploadError(problems)
    try:
        return load_game(folder / main)
    except (RulesetError, UnreadableError) as e:   # checked clean a moment ago; said as one line all the same
        raise UploadError([_shown(str(e), folder, files)]) from None
