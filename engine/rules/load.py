"""Loading rule files: YAML with positions, `extends`, the models, the semantic checks, friendly errors.

`check_ruleset(ref)` returns a `Report` with every problem found and never raises except `UnreadableError`;
`load_ruleset(ref)` returns the `Ruleset` or raises `RulesetError` with all the problems at once.

`extends` overlays one file on another: mappings merge key by key; lists, scalars and `null` replace
(so `raise: null` removes a section). Every resolved value keeps its `Origin`, the file and place that set
it, so an error about an inherited value points at the file that wrote it - unless the value only became wrong
because a file further down the chain changed something it depends on: then that file is told, at its own line,
where the inherited value came from and what to override too.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
import stat
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from pydantic import ValidationError

from engine import safefile
from engine.errors import Problem, RulesetError, UnreadableError
from engine.rules import checks, messages
from engine.rules.model import SCHEMA_VERSION, Ruleset
from engine.rules.yamlpos import MAX_BYTES, Document, KeyPath, dotted, read_document
from engine.text import escaped, quoted

REPO_RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
PACKAGED_RULESETS = Path(__file__).resolve().parents[1] / "data" / "rulesets"
MAX_CHAIN = 16
MAX_RULE_NUMBER = 1_000_000      # every whole number a rule file writes, either way (multiplied and printed)
MAX_CHAIN_BYTES = 2 << 20        # every file of a chain together: twice what one rule file may hold
MAX_CHAIN_VALUES = 150_000       # every file of a chain together: one and a half times one file's limit
MAX_CHAIN_SECONDS = 20.0         # reading and merging the chain; shipped files take milliseconds
# Maps whose keys are ranks: keys there are normalised (`10` is the ten, T).
RANK_KEYED: tuple[KeyPath, ...] = (("deck", "points"), ("combinations", "four_of_a_kind"))


# The shipped rule file used when a command or adapter is given none: a default, never a branch in the engine.
DEFAULT_RULESET = "twenty-eight"


def shipped_dir() -> Path:
    return PACKAGED_RULESETS if PACKAGED_RULESETS.is_dir() else REPO_RULESETS


def shipped_rulesets() -> dict[str, Path]:
    return {p.stem: p for p in sorted(shipped_dir().glob("*.yaml"))}


CATALOG = "catalog.yml"   # beside the shipped rule files: families, a player's line and aliases (not a rule file)


@dataclass(frozen=True)
class CatalogEntry:
    file: str
    family: str
    line: str
    aliases: tuple[str, ...]


@functools.lru_cache(maxsize=1)
def catalog() -> tuple[CatalogEntry, ...]:
    """The shipped catalog, in its order (empty if it is missing or malformed: names then stay the only way)."""
    from engine import safeyaml

    path = shipped_dir() / CATALOG
    try:
        data, _ = safeyaml.load(path.read_text(encoding="utf-8"), CATALOG, "catalog")
    except (OSError, UnicodeDecodeError, UnreadableError):
        return ()
    families = data.get("families") if isinstance(data, dict) else None
    return tuple(entry for fam in (families if isinstance(families, list) else []) for entry in _games(fam))


def _games(fam: Any) -> Iterator[CatalogEntry]:
    """The well-formed games of one family of the catalog."""
    if not isinstance(fam, dict):
        return
    for g in fam.get("games") or []:
        if isinstance(g, dict) and isinstance(g.get("file"), str):
            yield CatalogEntry(g["file"], str(fam.get("family", "")), str(g.get("line", "")),
                               tuple(str(a) for a in g.get("aliases") or []))


def aliases() -> dict[str, str]:
    """Short names for shipped files (a number for a file), from the catalog (rulesets/catalog.yml)."""
    shipped = shipped_rulesets()
    return {a: e.file for e in catalog() for a in e.aliases if e.file in shipped and a not in shipped}


def canonical_name(ref: str) -> str:
    """A shipped file's name for an alias of it; anything else unchanged."""
    return aliases().get(ref, ref)


@dataclass(frozen=True)
class Origin:
    """Where a resolved value was set: the value's place, and its key's place when it has a key."""

    file: str
    line: int
    column: int
    key_line: int | None = None
    key_column: int | None = None


Origins = dict[KeyPath, Origin]


@dataclass
class Report:
    """The outcome of checking one rule file: its problems, the resolved data, where each value came from."""

    file: str
    problems: list[Problem] = field(default_factory=list)
    ruleset: Ruleset | None = None
    resolved: dict[str, Any] = field(default_factory=dict)
    origins: Origins = field(default_factory=dict)
    chain: list[str] = field(default_factory=list)
    cross_field: list[Problem] = field(default_factory=list)  # those of `problems` that checks.py found

    @property
    def ok(self) -> bool:
        return self.ruleset is not None and not self.problems

    def where(self, path: KeyPath, anchor: messages.Anchor = "value") -> tuple[str, int | None, int | None]:
        """The file, line and column to report for `path`: its own origin or its nearest written ancestor."""
        if anchor == "parent":
            path = path[:-1]
        probe = path
        while probe:
            o = self.origins.get(probe)
            if o is not None:
                if (anchor == "key" or probe != path or anchor == "parent") and o.key_line is not None:
                    return o.file, o.key_line, o.key_column
                return o.file, o.line, o.column
            probe = probe[:-1]
        return self.file, None, None

    def problem(self, path: KeyPath, message: str, anchor: messages.Anchor = "value") -> Problem:
        return Problem(*self.where(path, anchor), dotted(path), message)


# ------------------------------------------------------------------------------------------ locating
def display_name(path: Path) -> str:
    """A path as shown in messages: relative to the working directory when it is below it; control characters
    escaped and a very long name cut short, so the message stays one readable line."""
    try:
        shown = str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # elsewhere, a link loop, a vanished working directory
        shown = str(path)
    return escaped(shown)


def _resolved(path: Path) -> Path:
    """The path with links followed as far as they go (a loop or an unreadable folder stops there)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _something_at(path: Path) -> bool:
    """Whether a name in the folder is taken (by a file, a pipe, a link loop...): the reader then says what
    is wrong with it, rather than "no such name"."""
    try:
        os.stat(path)
    except OSError as e:
        return e.errno in (errno.ELOOP, errno.EACCES, errno.EPERM)
    except ValueError:
        return False
    return True


def locate(ref: str | Path, base_dir: Path | None = None) -> Path | None:
    """A shipped name or a path (relative to `base_dir`, else the working directory); None: no such name.
    Never raises: whether the path can be read is the reader's question."""
    text = str(ref)
    is_path = isinstance(ref, Path) or "/" in text or "\\" in text or text.endswith((".yaml", ".yml"))
    if not is_path:
        text = canonical_name(text)
        shipped = shipped_rulesets().get(text)
        if shipped is not None:
            return shipped
        if not _taken_here(text, base_dir):
            return None
    return _as_path(text, base_dir)


def _taken_here(name: str, base_dir: Path | None) -> bool:
    """Whether a bare name (not a shipped game) is taken in the folder (`base_dir`, else the working directory)."""
    try:
        here = base_dir or Path.cwd()
    except OSError:
        return False
    return _something_at(here / name)


def _as_path(text: str, base_dir: Path | None) -> Path:
    p = Path(text)
    try:
        p = p.expanduser()
    except RuntimeError:  # `~someone` with no such user: the name is taken as written
        pass
    return p if p.is_absolute() or base_dir is None else base_dir / p


# ------------------------------------------------------------------------------------------ resolving
@functools.lru_cache(maxsize=256)
def _read_cached(path: str, display: str, stamp: tuple[int, int, int, int], digest: str) -> Document:
    return read_document(Path(path), display)


def _read(path: Path) -> Document:
    """The parsed file, from the cache when its bytes are the ones parsed before: a file edited in place keeping
    its size and time (an editor, a copy with preserved times) is keyed by a hash of what it holds now."""
    display = display_name(path)
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            return read_document(path, display)   # the reader says what is wrong with it
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read(MAX_BYTES + 1)).hexdigest()
    except (OSError, ValueError):
        return read_document(path, display)  # raises the right UnreadableError
    # keyed by the resolved path and the file's identity: many spellings of one path are one document; and by
    # a hash of its bytes, since an edit in place can keep the size and time
    return _read_cached(str(_resolved(path)), display, (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size), digest)


def _origins(doc: Document) -> Origins:
    out: Origins = {}
    for path, pos in doc.values.items():
        key = doc.keys.get(path)
        out[path] = Origin(pos.file, pos.line, pos.column,
                           key.line if key else None, key.column if key else None)
    return out


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = _merge(base[key], value) if key in base else value
        return out
    return over


def _merged_origins(value: Any, path: KeyPath, over: Origins, base: Origins, out: Origins) -> None:
    origin = over.get(path) or base.get(path)
    if origin is not None:
        out[path] = origin
    if isinstance(value, dict):
        for k, v in value.items():
            _merged_origins(v, (*path, k), over, base, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _merged_origins(v, (*path, i), over, base, out)


def _version_problem(doc: Document) -> Problem | None:
    """schema_version is checked before anything else: another version's keys would only mislead."""
    version = doc.data.get("schema_version")
    if version == SCHEMA_VERSION and not isinstance(version, bool):
        return None
    if "schema_version" not in doc.data:
        return Problem(doc.file, 1, 1, "schema_version",
                       f"required key is missing; start the file with `schema_version: {SCHEMA_VERSION}`")
    pos = doc.values[("schema_version",)]
    shown = version if isinstance(version, int) and not isinstance(version, bool) else messages.describe(version)
    return Problem(doc.file, pos.line, pos.column, "schema_version",
                   f"this jacknine reads schema_version {SCHEMA_VERSION}, not {shown}")


def _did_you_mean(name: str) -> str:
    hint = messages.suggest(name, list(shipped_rulesets()))
    return f" (did you mean '{hint}'?)" if hint else ""


class _Stop(Exception):
    """Resolution cannot go on (wrong schema_version); carries the problem."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem


Resolved = tuple[dict[str, Any], Origins, list[str]]


@dataclass
class _ChainBudget:
    """What a whole `extends` chain may cost together: the limits of one file hold per file, so a chain of many
    big files would multiply them. Bytes and values are counted over every file of the chain, and the chain is
    resolved within a time bound."""

    bytes_left: int = MAX_CHAIN_BYTES
    values_left: int = MAX_CHAIN_VALUES
    deadline: float = 0.0

    def over(self, path: Path) -> str | None:
        """Why reading `path` as the next file of the chain would exceed the chain's limits, or None."""
        try:
            size = path.stat().st_size
        except (OSError, ValueError):
            size = 0   # the reader says what is wrong with it
        if size > self.bytes_left:
            return (f"the files of the extends chain would hold more than {MAX_CHAIN_BYTES >> 20} MiB together; "
                    "a house rule states only what differs from its parent")
        if self.deadline and time.monotonic() > self.deadline:
            return f"the extends chain took more than {MAX_CHAIN_SECONDS} s to read; shorten it"
        self.bytes_left -= size
        return None

    def spend_values(self, doc: Document) -> None:
        self.values_left -= len(doc.values)

    @staticmethod
    def values_message() -> str:
        return (f"the files of the extends chain hold more than {MAX_CHAIN_VALUES:,} values together; "
                "a house rule states only what differs from its parent")


def _resolve(path: Path, stack: list[Path], problems: list[Problem], budget: _ChainBudget | None = None) -> Resolved:
    if budget is None:
        budget = _ChainBudget(deadline=time.monotonic() + MAX_CHAIN_SECONDS)
        budget.over(path)     # the first file: its own limits hold, and it counts towards the chain's
    doc = _read(path)
    budget.spend_values(doc)
    stop = _version_problem(doc)
    if stop is not None:
        raise _Stop(stop)
    problems.extend(doc.problems)
    data, origins = _normalise_rank_keys(doc, problems)
    parent_ref = doc.data.get("extends")
    chain = [doc.file]
    if parent_ref is None:
        return data, origins, chain
    for required in ("name", "description"):
        if required not in doc.data:
            problems.append(Problem(doc.file, 1, 1, required,
                                    "required key is missing (a file that extends another states its own)"))
    parent, problem = _parent(doc, parent_ref, path, stack, budget)
    if problem is not None or parent is None:
        pos = doc.values[("extends",)]
        problems.append(Problem(doc.file, pos.line, pos.column, "extends", problem or ""))
        return data, origins, chain
    base, base_origins, base_chain = _resolve(parent, [*stack, path], problems, budget)
    merged = _merge(base, data)
    merged_origins: Origins = {}
    _merged_origins(merged, (), origins, base_origins, merged_origins)
    return merged, merged_origins, [*base_chain, doc.file]


def _parent(doc: Document, parent_ref: Any, path: Path, stack: list[Path],
            budget: _ChainBudget) -> tuple[Path | None, str | None]:
    """The parent file `extends` names, and what is wrong with it (said at `extends`; the chain stops there)."""
    if not isinstance(parent_ref, str) or not parent_ref.strip():
        return None, f"expected a shipped rule file's name or a path, got {messages.describe(parent_ref)}"
    parent = locate(parent_ref, path.parent)
    names = " -> ".join([display_name(p) for p in stack] + [doc.file])
    if parent is None:
        return None, f"no shipped rule file named {quoted(parent_ref)}{_did_you_mean(parent_ref)} (chain: {names})"
    return parent, _parent_unusable(doc, parent_ref, parent, path, stack, budget, names)


def _parent_unusable(doc: Document, parent_ref: str, parent: Path, path: Path, stack: list[Path],
                     budget: _ChainBudget, names: str) -> str | None:
    """Why the parent cannot be read as the next file of the chain (None: it can)."""
    unreadable = safefile.not_regular(parent, "rule file")
    if unreadable == "no such file":
        _missing_parent(doc, parent_ref, parent, names)
    if unreadable is not None:
        return f"parent file {display_name(parent)}: {unreadable} (chain: {names})"
    if any(_resolved(parent) == _resolved(p) for p in [*stack, path]):
        return f"extends cycle: {names} -> {display_name(parent)}"
    if len(stack) >= MAX_CHAIN:
        return f"extends chain longer than {MAX_CHAIN} files (chain: {names})"
    too_much = budget.values_message() if budget.values_left < 0 else budget.over(parent)
    if too_much is not None:
        return f"parent file {display_name(parent)} not read: {too_much} (chain: {names})"
    return None


def _missing_parent(doc: Document, parent_ref: str, parent: Path, names: str) -> NoReturn:
    """A parent file that is not there is input that cannot be read (exit 2, as for the file named on the command
    line)."""
    stem = Path(parent_ref).name.removesuffix(".yaml").removesuffix(".yml")
    did = _did_you_mean(stem) if stem in shipped_rulesets() else ""
    did = did.replace("did you mean", "a shipped game is named without .yaml: did you mean")
    pos = doc.values[("extends",)]
    raise UnreadableError(doc.file, f"extends: parent file not found: {display_name(parent)}{did} "
                          f"(chain: {names})", pos.line, pos.column)


def _normalise_rank_keys(doc: Document, problems: list[Problem]) -> tuple[dict[str, Any], Origins]:
    """`10` is accepted for the ten wherever a map is keyed by rank (documented in the README).

    Done per file, before merging, so `10:` in a house rule overrides its parent's `T:`. The cached document
    is never edited: the mappings along the way are copied.
    """
    data, origins = dict(doc.data), _origins(doc)
    for map_path in RANK_KEYED:
        parent = _copied_parent(data, map_path)
        table = parent.get(map_path[-1]) if isinstance(parent, dict) else None
        if not isinstance(table, dict) or "10" not in table:
            continue
        if "T" in table:
            pos = doc.keys[(*map_path, "10")]
            problems.append(Problem(doc.file, pos.line, pos.column, dotted((*map_path, "10")),
                                    "10 and T are both the ten; write it once"))
            parent[map_path[-1]] = {k: v for k, v in table.items() if k != "10"}  # said once is enough
            continue
        parent[map_path[-1]] = {("T" if k == "10" else k): v for k, v in table.items()}
        _move_origins(origins, map_path)
    return data, origins


def _copied_parent(data: dict[str, Any], map_path: KeyPath) -> Any:
    """The mapping that holds the table at `map_path` (or the deepest one reached), each mapping on the way
    copied into its parent so the cached document is never edited."""
    parent: Any = data
    for part in map_path[:-1]:
        child = parent.get(part) if isinstance(parent, dict) else None
        if not isinstance(child, dict):
            break
        parent[part] = parent = dict(child)
    return parent


def _move_origins(origins: Origins, map_path: KeyPath) -> None:
    """Where `10:` was written is where `T:` now is."""
    moved = (*map_path, "10")
    for old in [p for p in origins if p[: len(moved)] == moved]:
        origins[(*map_path, "T", *old[len(moved):])] = origins.pop(old)


# ------------------------------------------------------------------------------------------ public API
def check_ruleset(ref: str | Path) -> Report:
    """Every problem of a rule file and its extends chain; raises only UnreadableError."""
    path = locate(ref)
    if path is None:
        raise UnreadableError(escaped(str(ref)), "no such file, and no shipped rule file has this name"
                              f"{_did_you_mean(str(ref))}; `jacknine rulesets` lists them")
    report = Report(display_name(path))
    try:
        data, report.origins, report.chain = _resolve(path, [], report.problems)
    except _Stop as stop:
        report.problems = [stop.problem]
        return report
    report.resolved = data
    if any(p.path == "extends" for p in report.problems):
        return report  # without its parent the file is a fragment: "missing key" errors would only mislead
    huge = list(_huge_numbers(data, ()))
    if huge:
        report.problems.extend(report.problem(path, _huge_message(value)) for path, value in huge)
        report.problems = _in_reading_order(report.problems, report.file)
        return report
    _validate(report, data)
    report.problems = _in_reading_order(report.problems, report.file)
    return report


def _validate(report: Report, data: dict[str, Any]) -> None:
    """The models, then (on a ruleset they accept) the checks across fields."""
    try:
        report.ruleset = Ruleset.model_validate_json(json.dumps(data), strict=True)
    except ValidationError as e:
        found = messages.findings(e, data)
        report.problems.extend(report.problem(f.path, f.message, f.anchor) for f in found)
    except (ValueError, TypeError) as e:  # json cannot carry the value (e.g. NaN); say so plainly
        report.problems.append(Problem(report.file, None, None, "", f"cannot read the values: {e}"))
    if report.ruleset is not None:
        blame = _Blame(report)
        report.cross_field = [blame.problem(f) for f in checks.run(report.ruleset)]
        report.problems.extend(report.cross_field)


def _huge_numbers(value: Any, path: KeyPath) -> Iterable[tuple[KeyPath, int]]:
    """Every whole number of the resolved data beyond MAX_RULE_NUMBER, with its path (in the order written)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _huge_numbers(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _huge_numbers(v, (*path, i))
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_RULE_NUMBER:
        yield path, value


def _huge_message(value: int) -> str:
    # the number itself may be too long to print (Python refuses ints of more than 4,300 digits as text)
    digits = value.bit_length() * 30103 // 100000 + 1
    shown = f"a number of about {digits:,} digits" if digits > 20 else f"{value:,}"
    return (f"{shown} is too large: every number in a rule file is at most {MAX_RULE_NUMBER:,} either way "
            "(scores, bids, multipliers and match targets are multiplied and printed; a game needs far less)")


# ------------------------------------------------------------------------------- findings across files
class _Blame:
    """Where each dependency was first set in each file of the chain, computed once per report.

    A hostile file can yield tens of thousands of findings over as many values; scanning every origin for every
    finding would be quadratic, so each dependency is indexed once, by chain position.
    """

    def __init__(self, report: Report) -> None:
        self.report = report
        self.rank = {file: i for i, file in enumerate(report.chain)}
        self.last = len(report.chain) - 1
        self._first: dict[KeyPath, dict[int, tuple[int, int, int, KeyPath, Origin]]] = {}

    def first_set(self, dep: KeyPath) -> dict[int, tuple[int, int, int, KeyPath, Origin]]:
        """Per chain position: the first place (in reading order) where `dep` or a value inside it was set."""
        found = self._first.get(dep)
        if found is None:
            found = {}
            for path, origin in self.report.origins.items():
                if path[: len(dep)] == dep:
                    rank = self.rank.get(origin.file, -1)
                    place = (origin.line, origin.column, len(path), path, origin)
                    if rank not in found or place[:3] < found[rank][:3]:
                        found[rank] = place
            self._first[dep] = found
        return found

    def later_dependency(self, finding: messages.Finding) -> tuple[KeyPath, Origin] | None:
        """Where a dependency was set further down the chain than `path`: in the last such file, the dependency
        the check lists first (the likeliest cause), at its first place in that file."""
        own = _written(self.report, finding.path)
        own_rank = self.rank.get(own.file, -1) if own is not None else -1
        for rank in range(self.last, own_rank, -1):
            for dep in finding.depends:
                place = self.first_set(dep).get(rank)
                if place is not None:
                    return place[3], place[4]
        return None

    def problem(self, finding: messages.Finding) -> Problem:
        """A cross-field finding as a problem, reported in the file that caused it.

        When the value at the finding's path came from a parent but a value it depends on was set further down
        the `extends` chain, the later file is the one the user changed: the problem is reported there, saying
        where the inherited value came from and what to override too.
        """
        report = self.report
        moved = self.later_dependency(finding) if finding.depends else None
        if moved is None:
            return report.problem(finding.path, finding.message + finding.hint, finding.anchor)
        dep_path, origin = moved
        fix = finding.fix or f"also override {dotted(_overridable(finding.path))}"
        message = f"{finding.message}; {dotted(finding.path)} {_came_from(report, finding.path)}: {fix}"
        return Problem(origin.file, origin.line, origin.column, dotted(dep_path), message)


def _written(report: Report, path: KeyPath) -> Origin | None:
    """The origin of `path`, or of its nearest written ancestor when it was left at its default."""
    probe = path
    while probe:
        origin = report.origins.get(probe)
        if origin is not None:
            return origin
        probe = probe[:-1]
    return None


def _overridable(path: KeyPath) -> KeyPath:
    """What an overlay has to write to change `path`: a list is replaced whole, so the list itself."""
    for i, part in enumerate(path):
        if isinstance(part, int):
            return path[:i]
    return path


def _came_from(report: Report, path: KeyPath) -> str:
    origin = report.origins.get(path)
    if origin is None:
        return f"keeps its default, {_shown(_default_at(report, path))}"
    return f"is inherited from {_file_name(origin.file)}:{origin.key_line or origin.line}"


def _file_name(file: str) -> str:
    """A shipped parent is named as such: its full path (often in site-packages) says nothing useful."""
    path = Path(file)
    if path.resolve().parent == shipped_dir().resolve():
        return f"shipped {path.name}"
    return file


def _default_at(report: Report, path: KeyPath) -> Any:
    node: Any = report.ruleset.model_dump(mode="json", by_alias=True) if report.ruleset else None
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _shown(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def _in_reading_order(problems: Iterable[Problem], main: str) -> list[Problem]:
    """The checked file's problems first, then its parents'; each file top to bottom; no repeats."""
    unique = {str(p): p for p in problems}.values()
    return sorted(unique, key=lambda p: (p.file != main, p.file, p.line or 0, p.column or 0))


def load_ruleset(ref: str | Path) -> Ruleset:
    """The Ruleset of a shipped name (or alias) or a file path; RulesetError or UnreadableError otherwise."""
    text = str(ref) if isinstance(ref, Path) else canonical_name(str(ref))
    if not isinstance(ref, Path) and text in shipped_rulesets():
        return _load_shipped(text, _digest(shipped_rulesets()[text]))
    return _load(ref)


def _digest(path: Path) -> str:
    """What the file holds now, as a cache key (its time and size can stay the same across an edit)."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read(MAX_BYTES + 1)).hexdigest()
    except OSError:
        return ""   # the loader says what is wrong


@functools.lru_cache(maxsize=64)
def _load_shipped(name: str, digest: str) -> Ruleset:
    # The engine loads rule files at start-up and per match: shipped files are parsed once per process.
    return _load(name)


def _load(ref: str | Path) -> Ruleset:
    report = check_ruleset(ref)
    if report.problems or report.ruleset is None:
        raise RulesetError(report.problems)
    return report.ruleset


def problems_of(ref: str | Path) -> list[Problem]:
    """Every problem of a rule file as a list, the unreadable case included (for `validate`)."""
    try:
        return check_ruleset(ref).problems
    except UnreadableError as e:
        return [e.problem]
