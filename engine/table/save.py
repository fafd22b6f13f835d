"""The match save file: one YAML document holding the match's settings and one hand record per hand.

A save is written whole after every move of the player and at the end of every hand, atomically (a new file
created exclusively in the same folder, fsync, rename), so a crash leaves either the previous save or the new one,
and no link planted beside the save can redirect the write. Hands already over are serialised once (the table keeps
their text), so a move of a long match costs a copy of the text, not a YAML dump of every hand. A table holds an
exclusive lock on its save (SaveLock): a second table on the same save is refused. The temporary files a killed
table leaves are removed at the next save or resume and at exit.

Saves are shared between people, so reading one is strict: the shared safe YAML reader, known fields only, exact
types. Whether the hands agree with the rules (and with the save's own seed, scores and status) is checked by
replaying them (`engine.table.session`).
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

from engine import safefile, safeyaml
from engine.errors import UnreadableError
from engine.text import escaped, quoted

try:
    import fcntl
except ImportError:  # pragma: no cover - a system without flock: saves are not locked
    fcntl = None  # type: ignore[assignment]

FORMAT = "jacknine match 1"
MAX_SAVE_BYTES = 8 << 20
MAX_SAVE_VALUES = 400_000   # a hand takes fewer than 150 values, and a match at the table at most MAX_HANDS hands
MAX_HANDS = 2000
WHAT = "match save"
SAVE_FIELDS = ("format", "ruleset", "seat", "seed", "bots", "max_hands", "status", "scores", "winners", "hands")
HAND_FIELDS = ("ruleset", "dealer", "seed", "hands", "stock", "actions", "status", "score_change")
HAND_STATUSES = ("complete", "annulled")


@dataclass
class MatchSave:
    """The settings that make a match reproducible, the hands so far and where the match stands."""

    ruleset: str                       # a shipped name, or a path relative to the save file
    seat: int
    seed: int
    bots: str
    max_hands: int
    hands: list[dict[str, Any]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    status: str = "in_progress"        # or "over"
    winners: list[int] | None = None
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)  # "hands[2].seed" -> its line
    text: str | None = field(default=None, compare=False, repr=False)                     # the text it was read from

    def same_game(self, other: MatchSave) -> bool:
        """The same rules, seat, seed and bots: replaying the same inputs gives the same match."""
        return (self.ruleset, self.seat, self.seed, self.bots, self.max_hands) == \
            (other.ruleset, other.seat, other.seed, other.bots, other.max_hands)

    def to_yaml(self, hand_texts: list[str] | None = None) -> str:
        """The save as YAML. `hand_texts`, when given, are the first hands already written by `hand_yaml` (a hand
        once over never changes): a long match then serialises only its header and its last hands, and the text
        is the same as a whole dump."""
        data: dict[str, Any] = {
            "format": FORMAT, "ruleset": self.ruleset, "seat": self.seat, "seed": self.seed, "bots": self.bots,
            "max_hands": self.max_hands, "status": self.status, "scores": list(self.scores),
        }
        if self.winners is not None:
            data["winners"] = list(self.winners)
        if not self.hands:
            return _dump(data) + "hands: []\n"
        done = hand_texts[:len(self.hands)] if hand_texts is not None else []
        return _dump(data) + "hands:\n" + "".join(done) + "".join(hand_yaml(h) for h in self.hands[len(done):])


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=False, width=120, allow_unicode=True)


def hand_yaml(hand: dict[str, Any]) -> str:
    """One hand as the item of the save's `hands` list (a top-level block list is indentless, as inside it)."""
    return _dump([hand])


# ------------------------------------------------------------------------------------------------ reading
class _Reader:
    """Checks one save's fields; every refusal names the field and the line it is on."""

    def __init__(self, source: str, root: MappingNode) -> None:
        self.source = source
        self.root = root

    def fail(self, where: str, message: str, node: Node | None) -> UnreadableError:
        line = node.start_mark.line + 1 if node is not None else None
        return UnreadableError(self.source, f"{where}: {message}" if where else message, line)

    def fields(self, node: MappingNode, allowed: tuple[str, ...], where: str) -> dict[str, Node]:
        """The value node of each field; an unknown field is refused with the nearest known name."""
        nodes: dict[str, Node] = {}
        for key_node, value_node in node.value:
            key = safeyaml.scalar(key_node, self.source, WHAT)
            if not isinstance(key, str) or key not in allowed:
                near = difflib.get_close_matches(str(key), allowed, n=1)
                hint = f" (did you mean '{near[0]}'?)" if near else f" (a {WHAT} has {', '.join(allowed)})"
                prefix = f"{where}: " if where else ""
                raise UnreadableError(self.source, f"{prefix}unknown field {quoted(str(key))}{hint}",
                                      key_node.start_mark.line + 1)
            nodes[key] = value_node
        return nodes

    def whole(self, value: Any, where: str, node: Node | None, minimum: int | None = None,
              maximum: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or (minimum is not None and value < minimum) \
                or (maximum is not None and value > maximum):
            bounds = f" from {minimum} to {maximum}" if maximum is not None else \
                f" of at least {minimum}" if minimum is not None else ""
            raise self.fail(where, f"must be a whole number{bounds}, not {_shown(value)}", node)
        return value

    def text(self, value: Any, where: str, node: Node | None) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, f"must be text, not {_shown(value)}", node)
        return value

    def numbers(self, value: Any, where: str, node: Node | None) -> list[int]:
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise self.fail(where, f"must be a list of whole numbers, not {_shown(value)}", node)
        return list(value)


def _shown(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return quoted(str(value), 40)


def _hand(r: _Reader, raw: Any, node: Node, index: int) -> dict[str, Any]:
    where = f"hands[{index}]"
    if not isinstance(raw, dict) or not isinstance(node, MappingNode):
        raise r.fail(where, "must be a hand record (ruleset, dealer, seed, actions...)", node)
    nodes = r.fields(node, HAND_FIELDS, where)
    for required in ("ruleset", "dealer", "seed", "actions"):
        if required not in raw:
            raise r.fail(where, f"{required}: missing", node)
    hand: dict[str, Any] = {
        "ruleset": r.text(raw["ruleset"], f"{where}.ruleset", nodes["ruleset"]),
        "dealer": r.whole(raw["dealer"], f"{where}.dealer", nodes["dealer"], 0),
        "seed": r.whole(raw["seed"], f"{where}.seed", nodes["seed"], 0),
    }
    if "hands" in raw:
        hand["hands"] = _cards(r, raw["hands"], f"{where}.hands", nodes["hands"])
    if "stock" in raw:   # the undealt cards (games with a stock): checked against the seed's
        hand["stock"] = r.text(raw["stock"], f"{where}.stock", nodes["stock"])
    hand["actions"] = _actions(r, raw["actions"], f"{where}.actions", nodes["actions"])
    if ("status" in raw) != ("score_change" in raw):
        raise r.fail(where, "status and score_change go together (a finished hand has both)", node)
    if "status" in raw:
        hand["status"] = _hand_status(r, raw["status"], f"{where}.status", nodes["status"])
        hand["score_change"] = r.numbers(raw["score_change"], f"{where}.score_change", nodes["score_change"])
    return hand


def _actions(r: _Reader, raw: Any, where: str, node: Node) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(a, str) for a in raw):
        raise r.fail(where, "must be a list of actions such as '2 play JS'", node)
    return list(raw)


def _hand_status(r: _Reader, raw: Any, where: str, node: Node) -> str:
    if raw not in HAND_STATUSES:
        raise r.fail(where, f"must be {' or '.join(HAND_STATUSES)}, not {_shown(raw)}", node)
    return str(raw)


def _cards(r: _Reader, raw: Any, where: str, node: Node) -> dict[int, str]:
    """Each seat's cards as the save writes them: `SEAT: CARD CARD ...`, seats 0, 1, 2... in order."""
    if not isinstance(raw, dict) or not all(isinstance(k, int) and not isinstance(k, bool) and isinstance(v, str)
                                            for k, v in raw.items()):
        raise r.fail(where, "must map each seat number to its cards ('0: JS 9S ...')", node)
    if sorted(raw) != list(range(len(raw))):
        raise r.fail(where, "seats must be numbered 0, 1, 2, ... with none missing", node)
    return {k: raw[k] for k in sorted(raw)}


def parse_save(text: str, source: str) -> MatchSave:
    """Read a save; UnreadableError when it is not a jacknine match save or a field is malformed."""
    data, root = safeyaml.load(text, source, WHAT, max_values=MAX_SAVE_VALUES)
    if not isinstance(data, dict) or not isinstance(root, MappingNode) or data.get("format") != FORMAT:
        raise UnreadableError(source, f"not a jacknine match save (no 'format: {FORMAT}' line)")
    r = _Reader(source, root)
    nodes = r.fields(root, SAVE_FIELDS, "")
    _require_fields(data, source)
    status = data["status"]
    if status not in ("in_progress", "over"):
        raise r.fail("status", f"must be in_progress or over, not {_shown(status)}", nodes["status"])
    winners = _winners(r, data, status == "over", nodes, root)
    hands_raw, hands_node = data["hands"], nodes["hands"]
    if not isinstance(hands_raw, list) or not isinstance(hands_node, SequenceNode):
        raise r.fail("hands", "must be a list of hand records", hands_node)
    hands = [_hand(r, h, n, i) for i, (h, n) in enumerate(zip(hands_raw, hands_node.value, strict=True))]
    return MatchSave(
        ruleset=r.text(data["ruleset"], "ruleset", nodes["ruleset"]),
        seat=r.whole(data["seat"], "seat", nodes["seat"], 0),
        seed=r.whole(data["seed"], "seed", nodes["seed"], 0),
        bots=r.text(data["bots"], "bots", nodes["bots"]),
        max_hands=r.whole(data["max_hands"], "max_hands", nodes["max_hands"], 1, MAX_HANDS),
        hands=hands,
        scores=r.numbers(data["scores"], "scores", nodes["scores"]),
        status=status,
        winners=winners,
        lines=_lines(root),
        text=text,
    )


def _require_fields(data: dict[str, Any], source: str) -> None:
    """Every field of a save but the winners (which only a finished match has) is there."""
    for required in SAVE_FIELDS:
        if required not in data and required != "winners":
            raise UnreadableError(source, f"{required}: missing")


def _winners(r: _Reader, data: dict[str, Any], over: bool, nodes: dict[str, Node], root: Node) -> list[int] | None:
    """A finished match names its winners; a match in progress has none."""
    if not over:
        if "winners" in data:
            raise r.fail("winners", "only a finished match (status: over) has winners", nodes["winners"])
        return None
    if "winners" not in data:
        raise r.fail("winners", "missing (a finished match names its winners)", root)
    return r.numbers(data["winners"], "winners", nodes["winners"])


def _lines(root: MappingNode) -> dict[str, int]:
    """The line of every field and hand-record field, by its dotted path (for messages about a hand)."""
    out: dict[str, int] = {}
    pending: list[tuple[str, Node]] = [("", root)]
    while pending:
        path, node = pending.pop()
        out[path] = node.start_mark.line + 1
        if path.count(".") + path.count("[") >= 3:
            continue  # deeper than a hand record's fields: nothing is reported there
        if isinstance(node, MappingNode):
            pending += [(f"{path}.{k.value}" if path else str(k.value), v) for k, v in node.value]
        elif isinstance(node, SequenceNode):
            pending += [(f"{path}[{i}]", v) for i, v in enumerate(node.value)]
    return out


def read_save(path: Path) -> MatchSave:
    """A save file: a regular file of UTF-8 text, at most MAX_SAVE_BYTES (far more than any match writes)."""
    display = escaped(str(path))
    raw = safefile.read_regular(path, display, WHAT, MAX_SAVE_BYTES, "8 MiB; no match save is that long")
    return parse_save(safefile.decode_text(raw, display), display)


# ------------------------------------------------------------------------------------------------ writing
def _new_file_mode(path: Path) -> int:
    """The permissions the save gets: the existing save's, else what the user's umask gives a new file."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


class SaveInUse(Exception):
    """Another process holds the save (two tables playing one match would each overwrite the other)."""


class SaveLock:
    """An exclusive lock on the save file a table writes, held while the table plays.

    The lock is on the file itself (flock), and a save is replaced by a rename, so each new file is locked before
    it takes the save's name and the old one released after: another process opening the save at any moment finds
    it locked. Where the system has no flock, nothing is locked."""

    def __init__(self) -> None:
        self.fd: int | None = None

    def acquire(self, path: Path) -> None:
        """Lock the save at `path` if it exists; SaveInUse if another process holds it."""
        if fcntl is None:
            return
        for _ in range(20):
            try:
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
            except FileNotFoundError:
                return                   # a new save: its first file is locked as it is written
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                same = os.fstat(fd).st_ino == os.stat(path).st_ino
            except BlockingIOError:
                os.close(fd)
                raise SaveInUse from None
            except OSError:
                os.close(fd)
                raise
            if same:
                self.swap(fd)
                return
            os.close(fd)                 # the holder replaced the file meanwhile: lock the new one
        raise SaveInUse

    def swap(self, fd: int | None) -> None:
        old, self.fd = self.fd, fd
        if old is not None:
            with contextlib.suppress(OSError):
                os.close(old)

    def release(self) -> None:
        self.swap(None)


def _temp_pattern(path: Path) -> re.Pattern[str]:
    # tempfile's names: 8 characters of lower-case letters, digits and '_'
    return re.compile(r"\." + re.escape(path.name) + r"\.[a-z0-9_]{8}\.tmp")


def remove_stale_temps(path: Path) -> int:
    """Remove the temporary files a killed table left beside the save at `path` (our own name pattern, regular
    files of this user only); call it holding the save's lock. The number removed."""
    pattern = _temp_pattern(path)
    removed = 0
    try:
        names = os.listdir(path.parent)
    except OSError:
        return 0
    for name in names:
        if not pattern.fullmatch(name):
            continue
        full = path.parent / name
        try:
            st = os.lstat(full)
            if stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid():
                os.unlink(full)
                removed += 1
        except OSError:
            continue
    return removed


def write_atomic(path: Path, text: str, lock: SaveLock | None = None) -> None:
    """Replace `path` by `text` all at once: readers see the old file or the new one, never half of one.

    The temporary file is created exclusively (O_EXCL, a random name) in the save's folder, so nothing planted
    there, a symbolic link included, is followed or overwritten; the rename then replaces `path` itself (a link
    at `path` is replaced, not followed: the table follows a link once, when the player names the save). With
    `lock`, the new file is locked before it takes the save's name."""
    mode = _new_file_mode(path)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    held: int | None = None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            os.fchmod(f.fileno(), mode)
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
            if lock is not None and fcntl is not None:
                held = os.dup(f.fileno())
                fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if held is not None:
            os.close(held)
        raise
    if lock is not None and held is not None:
        lock.swap(held)
    # the rename itself must reach the disk too; some systems cannot open a folder, which is harmless
    with contextlib.suppress(OSError):
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
