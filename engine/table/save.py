"""The match save file: one YAML document holding the match's settings and one hand record per hand.

A save is written whole after every move of the player and at the end of every hand, atomically (a temporary
file in the same folder, fsync, rename), so a crash leaves either the previous save or the new one.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.errors import UnreadableError

FORMAT = "jacknine match 1"
MAX_SAVE_BYTES = 8 << 20


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

    def same_game(self, other: MatchSave) -> bool:
        """The same rules, seat, seed and bots: replaying the same inputs gives the same match."""
        return (self.ruleset, self.seat, self.seed, self.bots, self.max_hands) == \
            (other.ruleset, other.seat, other.seed, other.bots, other.max_hands)

    def to_yaml(self) -> str:
        data: dict[str, Any] = {
            "format": FORMAT, "ruleset": self.ruleset, "seat": self.seat, "seed": self.seed, "bots": self.bots,
            "max_hands": self.max_hands, "status": self.status, "scores": list(self.scores),
        }
        if self.winners is not None:
            data["winners"] = list(self.winners)
        data["hands"] = self.hands
        return yaml.safe_dump(data, sort_keys=False, default_flow_style=False, width=120, allow_unicode=True)


def _int(data: dict[str, Any], key: str, source: str) -> int:
    v = data.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise UnreadableError(source, f"{key}: missing or not a whole number")
    return v


def parse_save(text: str, source: str) -> MatchSave:
    """Read a save; UnreadableError when it is not a jacknine match save or a field is malformed."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        raise UnreadableError(source, "not a jacknine match save (not valid YAML)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UnreadableError(source, f"not a jacknine match save (no 'format: {FORMAT}' line)")
    ruleset, bots, status = data.get("ruleset"), data.get("bots"), data.get("status", "in_progress")
    if not isinstance(ruleset, str) or not ruleset:
        raise UnreadableError(source, "ruleset: missing or not a name/path")
    if not isinstance(bots, str) or not bots:
        raise UnreadableError(source, "bots: missing or not a bot name")
    if status not in ("in_progress", "over"):
        raise UnreadableError(source, "status: must be in_progress or over")
    hands = data.get("hands") or []
    if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
        raise UnreadableError(source, "hands: must be a list of hand records")
    for i, h in enumerate(hands):
        acts = h.get("actions", [])
        if not isinstance(acts, list) or not isinstance(h.get("seed"), int) or not isinstance(h.get("dealer"), int):
            raise UnreadableError(source, f"hands[{i}]: a hand record needs dealer, seed and a list of actions")
    scores = data.get("scores") or []
    if not isinstance(scores, list) or not all(isinstance(s, int) for s in scores):
        raise UnreadableError(source, "scores: must be a list of whole numbers")
    winners = data.get("winners")
    return MatchSave(ruleset, _int(data, "seat", source), _int(data, "seed", source), bots,
                     _int(data, "max_hands", source), hands, scores, status,
                     winners if isinstance(winners, list) else None)


def read_save(path: Path) -> MatchSave:
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise UnreadableError(str(path), f"cannot read: {e.strerror or e}") from None
    if len(raw) > MAX_SAVE_BYTES or b"\0" in raw:
        raise UnreadableError(str(path), "not a jacknine match save (binary or too large)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableError(str(path), "not a jacknine match save (not UTF-8 text)") from None
    return parse_save(text, str(path))


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` by `text` all at once: readers see the old file or the new one, never half of one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    # the rename itself must reach the disk too; some systems cannot open a folder, which is harmless
    with contextlib.suppress(OSError):
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
