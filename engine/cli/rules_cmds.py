"""Commands for rule files: rulesets, validate, show, schema, new, diff.

Exit codes: 0 fine, 1 an invalid rule file, 2 a file that cannot be read (or a command used wrongly).
Problems go to stderr, one line each; nothing here lets a traceback through for a bad file.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from engine.errors import Problem, UnreadableError
from engine.rules import explain
from engine.rules.load import CatalogEntry, Report, catalog, check_ruleset, shipped_rulesets
from engine.rules.schema import schema_text
from engine.text import escaped, one_line, shell_word

REPO_SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "ruleset.schema.json"
PACKAGED_SCHEMA = Path(__file__).resolve().parents[1] / "data" / "schema" / "ruleset.schema.json"
VALID, INVALID, UNREADABLE = 0, 1, 2


class Format(StrEnum):
    text = "text"
    json = "json"


def schema_file() -> Path:
    return PACKAGED_SCHEMA if PACKAGED_SCHEMA.is_file() else REPO_SCHEMA


def _report_or_exit(ref: str) -> Report:
    """A valid report, or the problems on stderr and the matching exit code."""
    try:
        report = check_ruleset(ref)
    except UnreadableError as e:
        typer.echo(str(e.problem), err=True)
        raise typer.Exit(UNREADABLE) from None
    if not report.ok:
        for p in report.problems:
            typer.echo(str(p), err=True)
        raise typer.Exit(INVALID)
    return report


def rulesets() -> None:
    """List the shipped rule files by family, each base game first: name, players, what a player gets."""
    names = shipped_rulesets()
    entries = [e for e in catalog() if e.file in names]
    listed = {e.file for e in entries}
    rest = [CatalogEntry(n, "Other shipped files", "", ()) for n in names if n not in listed]
    shown_aliases = {e.file: e.aliases for e in entries}
    width = max(len(n) for n in names)
    family = None
    for e in [*entries, *rest]:
        if e.family != family:
            family = e.family
            typer.echo(("" if family is entries[0].family else "\n") + one_line(family))
        typer.echo(_listing(e, width, shown_aliases.get(e.file, ())))
    typer.echo("\nplay one: jacknine play -r NAME   ·   its rules: jacknine show NAME")


def _listing(e: CatalogEntry, width: int, aliases: tuple[str, ...]) -> str:
    """One shipped file's line: its name, players and what a player gets (or why it cannot be said)."""
    name = e.file
    try:
        report = check_ruleset(name)
    except UnreadableError as err:
        return f"  {name:<{width}}  (unreadable: {err.problem.message})"
    rs = report.ruleset
    if rs is None or report.problems:
        return f"  {name:<{width}}  (invalid: run `jacknine validate {name}`)"
    also = f" (also -r {', '.join(aliases)})" if aliases else ""
    return f"  {name:<{width}}  {rs.table.players}p  {one_line(e.line or rs.description)}{also}"


def validate(
    files: Annotated[list[str] | None, typer.Argument(help="Rule files or shipped names.")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Validate every shipped rule file.")] = False,
    fmt: Annotated[Format | None, typer.Option("--format", help="text, or json: the same as --json.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the problems as one JSON list.")] = False,
) -> None:
    """Check rule files; print every problem as file:line:column: path: message."""
    if as_json and fmt is Format.text:
        typer.echo("validate: --json and --format text ask for different outputs; give one of them", err=True)
        raise typer.Exit(UNREADABLE)
    fmt = Format.json if as_json else fmt or Format.text
    refs = list(files or []) + (list(shipped_rulesets()) if all_ else [])
    if not refs:
        typer.echo("validate: name at least one FILE, or use --all", err=True)
        raise typer.Exit(UNREADABLE)
    code, found = VALID, []
    for ref in refs:
        problems, status = _check(ref)
        code = max(code, status)
        found.extend(problems)
        if fmt is Format.text:
            _say_problems(ref, problems)
    if fmt is Format.json:
        typer.echo(json.dumps([p.as_dict() for p in found], indent=2))
    raise typer.Exit(code)


def _say_problems(ref: str, problems: list[Problem]) -> None:
    """A file's problems, one a line on stderr, or that it is ok."""
    for p in problems:
        typer.echo(str(p), err=True)
    if not problems:
        typer.echo(f"{escaped(ref)}: ok")


def _check(ref: str) -> tuple[list[Problem], int]:
    try:
        report = check_ruleset(ref)
    except UnreadableError as e:
        return [e.problem], UNREADABLE
    return report.problems, VALID if report.ok else INVALID


def show(
    ref: Annotated[str, typer.Argument(metavar="NAME|FILE", help="A shipped name or a rule file.")],
    origin: Annotated[bool, typer.Option("--origin", help="Say which file set each rule.")] = False,
) -> None:
    """The fully resolved rules as readable text."""
    typer.echo(explain.show(_report_or_exit(ref), origin=origin), nl=False)


def schema() -> None:
    """Print the JSON Schema of rule files (draft-07)."""
    typer.echo(schema_text(), nl=False)


def _file_name(path: Path) -> str:
    name = re.sub(r"[^a-z0-9-]+", "-", path.stem.lower()).strip("-")
    return name or "house"


def new(
    extends: Annotated[str, typer.Option("--extends", help="The shipped name or file to build on.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The file to create.")],
) -> None:
    """Start a house-rule file that extends a ruleset; never overwrites a file."""
    if output.exists():
        typer.echo(f"{escaped(str(output))}: already exists; jacknine new never overwrites a file", err=True)
        raise typer.Exit(UNREADABLE)
    parent = _report_or_exit(extends)
    ref = extends
    if extends not in shipped_rulesets():
        ref = os.path.relpath(Path(extends).resolve(), output.resolve().parent)
        ref = ref if ref.startswith(".") or os.path.isabs(ref) else "./" + ref
    text = _template(_file_name(output), ref, _schema_line(output), parent)
    created = False
    try:
        with output.open("x", encoding="utf-8") as f:
            created = True
            f.write(text)
    except OSError as e:
        if created:   # a file the disk could not fill is ours to remove: a retry must not meet "already exists"
            with contextlib.suppress(OSError):
                output.unlink()
        typer.echo(f"{escaped(str(output))}: cannot write ({escaped(str(e.strerror or e))})", err=True)
        raise typer.Exit(UNREADABLE) from None
    typer.echo(f"{escaped(str(output))}: created; check it with `jacknine validate {shell_word(str(output))}`")


def _schema_line(output: Path) -> str:
    """The editor's schema line: a path relative to the new file when it lies in a checkout of this repository
    (it then holds wherever the checkout is cloned), else no path at all but how to get one, since a path into an
    installed package (site-packages) breaks as soon as the file is shared."""
    checkout = REPO_SCHEMA.parents[1]
    folder = output.resolve().parent
    if REPO_SCHEMA.is_file() and folder.is_relative_to(checkout):
        return f"# yaml-language-server: $schema={Path(os.path.relpath(REPO_SCHEMA, folder)).as_posix()}"
    return ("# For key completion in an editor with the YAML language server: `jacknine schema > ruleset.schema.json`"
            "\n# beside this file, then make this line `# yaml-language-server: $schema=ruleset.schema.json`.")


def _template(name: str, ref: str, schema_line: str, parent: Report) -> str:
    rs = parent.ruleset
    assert rs is not None
    bids = rs.auction.bids
    if rs.scoring.bands:
        band = rs.scoring.bands[0]
        scoring = ("#   bands:                      # a list: it replaces the parent's bands entirely\n"
                   f"#     - {{bids: [{bids.min}, {bids.max}], made: {band.made}, failed: {band.failed}}}")
    else:   # banked points: no bands
        scoring = "#   banked:\n#     rounding: nearest_ten      # each side's score for the deal to the nearest ten"
    return f"""{schema_line}
schema_version: 1
name: {name}
extends: {ref}
description: {rs.name} with our house rules
# This file states only what differs from {rs.name}: mappings merge key by key, lists and plain values
# replace, and null removes a section. Uncomment and change what your table does differently, then run
# `jacknine validate` on this file and `jacknine diff {rs.name} <this file>`.
#
# auction:
#   bids: {{min: {bids.min}, max: {bids.max}}}
#   pass_is_final: true
#
# play:
#   no_discard_before_suit_led: [J]
#
# scoring:
{scoring}
#
# match: {{start: 0, win_at: {rs.match.win_at if rs.match.win_at is not None else "null"}, lose_at: null}}
#
# annul:
#   pointless_hand_may_redeal: true
"""


def diff(
    a: Annotated[str, typer.Argument(metavar="A", help="The ruleset to compare against.")],
    b: Annotated[str, typer.Argument(metavar="B", help="The ruleset whose changes are listed.")],
) -> None:
    """What B changes relative to A, rule by rule, on the resolved rules."""
    ra, rb = _report_or_exit(a).ruleset, _report_or_exit(b).ruleset
    assert ra is not None and rb is not None
    lines = explain.diff(ra, rb)
    if not lines:
        typer.echo(f"{escaped(b)} has the same rules as {escaped(a)}")
        return
    typer.echo(f"{escaped(b)} changes {len(lines)} rule(s) of {escaped(a)}:")
    for line in lines:
        typer.echo(f"  {line}")


def register(app: typer.Typer) -> None:
    app.command("rulesets")(rulesets)
    app.command("validate")(validate)
    app.command("show")(show)
    app.command("schema")(schema)
    app.command("new")(new)
    app.command("diff")(diff)
