"""Reading a YAML rule file safely, with the line and column of every key and value.

Only plain YAML is read (the shared reader, `engine.safeyaml`): mappings, lists, text, numbers, booleans and
null. Python tags and every other explicit tag are refused, and so are aliases (`*name`): a rule file never
needs them, and refusing them at the first one is what makes an alias bomb fail at once instead of expanding;
only regular files are opened (`engine.safefile`). Mapping keys are always kept as their source text, so
`9: 2` in a points table means the rank "9" (YAML alone would read the number 9).
Booleans are YAML 1.2's, as editors and the JSON Schema read them: true and false only; yes/no/on/off are text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from engine import safefile, safeyaml
from engine.errors import Problem, UnreadableError

MAX_BYTES = 1024 * 1024
MAX_DEPTH = safeyaml.MAX_DEPTH
WHAT = "rule file"

Key = str | int
KeyPath = tuple[Key, ...]

_TAG = safeyaml.TAG


@dataclass(frozen=True)
class Pos:
    """A place in a file, 1-based."""

    file: str
    line: int
    column: int


@dataclass
class Document:
    """One rule file as plain data, with where each key and value was written."""

    file: str
    data: dict[str, Any]
    values: dict[KeyPath, Pos] = field(default_factory=dict)
    keys: dict[KeyPath, Pos] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def read_bytes(path: Path, display: str) -> str:
    """The file's text, or UnreadableError for a missing, oversized, binary, non-UTF-8 or irregular file."""
    raw = safefile.read_regular(path, display, WHAT, MAX_BYTES, "1 MiB; a rule file is a few kilobytes")
    return safefile.decode_text(raw, display)


def parse(text: str, display: str) -> Document:
    """Compose `text` into a Document; UnreadableError for syntax errors, refused constructs, no mapping."""
    root = safeyaml.compose(text, display, WHAT, max_depth=MAX_DEPTH)
    if root is None:
        raise UnreadableError(display, "empty file; a rule file is a mapping of keys to values")
    if not isinstance(root, MappingNode) or root.tag != _TAG + "map":
        line, col = _at(root)
        raise UnreadableError(
            display, "the top level must be a mapping of keys to values, like `name: house`", line, col)
    doc = Document(display, {})
    doc.data = _mapping(root, (), doc, 0)
    return doc


def read_document(path: Path, display: str) -> Document:
    return parse(read_bytes(path, display), display)


def _at(node: Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _pos(doc: Document, node: Node) -> Pos:
    line, col = _at(node)
    return Pos(doc.file, line, col)


def _value(node: Node, path: KeyPath, doc: Document, depth: int) -> Any:
    doc.values[path] = _pos(doc, node)
    if depth > MAX_DEPTH:
        raise UnreadableError(doc.file, "nested too deeply to be a rule file", *_at(node))
    if isinstance(node, MappingNode):
        _require_tag(node, "map", doc)
        return _mapping(node, path, doc, depth)
    if isinstance(node, SequenceNode):
        _require_tag(node, "seq", doc)
        return [_value(item, (*path, i), doc, depth + 1) for i, item in enumerate(node.value)]
    assert isinstance(node, ScalarNode)
    return _scalar(node, doc)


def _mapping(node: MappingNode, path: KeyPath, doc: Document, depth: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, ScalarNode):
            raise UnreadableError(doc.file, "a key must be plain text, not a list or mapping", *_at(key_node))
        key = str(key_node.value)
        key_path = (*path, key)
        if key in out:
            first = doc.keys[key_path]
            doc.problems.append(Problem(doc.file, *_at(key_node), dotted(key_path),
                                        f"duplicate key (first written at line {first.line})"))
            continue
        doc.keys[key_path] = _pos(doc, key_node)
        out[key] = _value(value_node, key_path, doc, depth + 1)
    return out


def _require_tag(node: Node, kind: str, doc: Document) -> None:
    if node.tag != _TAG + kind:
        raise safeyaml.refuse_tag(node.tag, node, doc.file, WHAT)


def _scalar(node: ScalarNode, doc: Document) -> Any:
    return safeyaml.scalar(node, doc.file, WHAT)


def dotted(path: KeyPath) -> str:
    """`('scoring', 'bands', 0, 'bids')` -> `scoring.bands[0].bids`: how a path is shown to people."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out
