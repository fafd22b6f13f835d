"""Reading a YAML rule file safely, with the line and column of every key and value.

Only plain YAML is read: mappings, lists, text, numbers, booleans and null. Python tags and every other
explicit tag are refused, and so are aliases (`*name`): a rule file never needs them, and refusing them at
the first one is what makes an alias bomb fail at once instead of expanding. Mapping keys are always kept
as their source text, so `9: 2` in a points table means the rank "9" (YAML alone would read the number 9).
Booleans are YAML 1.2's, as editors and the JSON Schema read them: true and false only; yes/no/on/off are text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from engine.errors import Problem, UnreadableError

MAX_BYTES = 1024 * 1024
MAX_DEPTH = 40

Key = str | int
KeyPath = tuple[Key, ...]

_TAG = "tag:yaml.org,2002:"
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


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


class _NoAliasLoader(yaml.SafeLoader):
    """SafeLoader that stops at the first alias, so no document can expand beyond its own size."""

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed in rule files; write the value out", mark)
        return super().compose_node(parent, index)


def read_bytes(path: Path, display: str) -> str:
    """The file's text, or UnreadableError for a missing, oversized, binary or non-UTF-8 file."""
    try:
        if path.is_dir():
            raise UnreadableError(display, "is a directory, not a rule file")
        with path.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise UnreadableError(display, "no such file") from None
    except OSError as e:
        raise UnreadableError(display, f"cannot read the file ({e.strerror or e})") from None
    if len(raw) > MAX_BYTES:
        raise UnreadableError(display, "file is larger than 1 MiB; a rule file is a few kilobytes")
    if b"\x00" in raw:
        raise UnreadableError(display, "binary file (it contains NUL bytes), not YAML text")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UnreadableError(display, f"not UTF-8 text (bad byte at offset {e.start})") from None


def parse(text: str, display: str) -> Document:
    """Compose `text` into a Document; UnreadableError for syntax errors, refused constructs, no mapping."""
    try:
        root = _compose(text)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        what = e.problem or e.context or "invalid YAML"
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        raise UnreadableError(display, f"YAML syntax error: {what}", line, col) from None
    except yaml.reader.ReaderError as e:
        raise UnreadableError(display, f"character #x{e.character:04x} is not allowed in YAML text "
                              f"(at offset {e.position})") from None
    except yaml.YAMLError as e:
        raise UnreadableError(display, f"YAML error: {e}") from None
    except RecursionError:
        raise UnreadableError(display, "nested too deeply to be a rule file") from None
    if root is None:
        raise UnreadableError(display, "empty file; a rule file is a mapping of keys to values")
    if not isinstance(root, MappingNode) or root.tag != _TAG + "map":
        line, col = _at(root)
        raise UnreadableError(
            display, "the top level must be a mapping of keys to values, like `name: house`", line, col)
    doc = Document(display, {})
    doc.data = _mapping(root, (), doc, 0)
    return doc


def _compose(text: str) -> Node | None:
    loader = _NoAliasLoader(text)  # the reader already checks the characters here, so it may raise
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


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


def _refuse_tag(tag: str, node: Node, doc: Document) -> UnreadableError:
    shown = "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag
    return UnreadableError(doc.file, f"unsupported YAML tag {shown}; rule files use plain YAML only", *_at(node))


def _require_tag(node: Node, kind: str, doc: Document) -> None:
    if node.tag != _TAG + kind:
        raise _refuse_tag(node.tag, node, doc)


def _scalar(node: ScalarNode, doc: Document) -> Any:
    tag = node.tag
    try:
        if tag == _TAG + "str" or tag == _TAG + "timestamp":
            return str(node.value)  # a date is kept as the text written
        if tag == _TAG + "int":
            return _CONSTRUCTOR.construct_yaml_int(node)
        if tag == _TAG + "float":
            return _CONSTRUCTOR.construct_yaml_float(node)
        if tag == _TAG + "bool":
            # YAML 1.2, as editors and the JSON Schema read it: only true/false are booleans; YAML 1.1's
            # yes/no/on/off stay the text written (a yes/no field then says to write true or false).
            if str(node.value).lower() not in ("true", "false"):
                return str(node.value)
            return _CONSTRUCTOR.construct_yaml_bool(node)
        if tag == _TAG + "null":
            return None
    except ValueError:  # e.g. an integer with more digits than Python converts
        number = str(node.value)[:20]
        raise UnreadableError(doc.file, f"cannot read the number {number!r}", *_at(node)) from None
    raise _refuse_tag(tag, node, doc)


def dotted(path: KeyPath) -> str:
    """`('scoring', 'bands', 0, 'bids')` -> `scoring.bands[0].bids`: how a path is shown to people."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out
