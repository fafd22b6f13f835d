"""The one safe way jacknine reads YAML written by someone else: rule files, hand records and match saves.

Only plain YAML is read: mappings, lists, text, numbers, booleans and null. Aliases (`*name`) are refused at the
first one (so an alias bomb cannot expand), every explicit tag other than the plain ones is refused, and nesting
deeper than `MAX_DEPTH` is refused where it starts. The document is built from the parser's events in a loop,
never by recursion, so no depth of brackets can exhaust the stack; size limits are the callers' (they read the
file). Every refusal is an `UnreadableError` of one line naming the file, line and column.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from engine.errors import UnreadableError
from engine.text import quoted

MAX_DEPTH = 40
MAX_VALUES = 100_000    # keys, values and list items; each costs a few hundred bytes while the file is read
TAG = "tag:yaml.org,2002:"
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
# libyaml's parser is an order of magnitude faster than the pure-Python one, which matters for a long save;
# rule files keep the pure-Python parser, whose error wording their tests pin down.
_FAST_LOADER: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Refused(Exception):
    """A construct jacknine does not read, found at `mark`."""

    def __init__(self, message: str, mark: Any) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark


def _where(mark: Any) -> tuple[int | None, int | None]:
    return (mark.line + 1, mark.column + 1) if mark is not None else (None, None)


def compose(text: str, display: str, what: str, fast: bool = False, max_depth: int = MAX_DEPTH,
            max_values: int = MAX_VALUES) -> Node | None:
    """The document's node tree (None for an empty document); UnreadableError for syntax errors, aliases,
    nesting deeper than `max_depth`, more than `max_values` values and more than one document. `what` names the
    kind of file in messages."""
    try:
        loader = (_FAST_LOADER if fast else yaml.SafeLoader)(text)  # the pure reader checks characters here
        try:
            return _build(loader, what, max_depth, max_values)
        finally:
            loader.dispose()
    except _Refused as e:
        raise UnreadableError(display, e.message, *_where(e.mark)) from None
    except yaml.MarkedYAMLError as e:
        if fast and "maximum nesting depth" in str(e.problem):
            # libyaml (0.2.5 and later) may stop at its own depth limit while scanning ahead, before the
            # events reach the depth check below; the pure reader finds where our limit was crossed
            return compose(text, display, what, False, max_depth, max_values)
        mark = e.problem_mark or e.context_mark
        problem = " ".join(str(e.problem or e.context or "invalid YAML").split())
        if "'\\t'" in problem:  # PyYAML's words for a tab where indentation or a token starts
            problem += "; YAML indents with spaces, not tabs: use spaces"
        raise UnreadableError(display, f"YAML syntax error: {problem}", *_where(mark)) from None
    except yaml.reader.ReaderError as e:
        character = e.character if isinstance(e.character, int) else ord(str(e.character)[:1] or "?")
        raise UnreadableError(display, f"character #x{character:04x} is not allowed in YAML text "
                              f"(at offset {e.position})") from None
    except yaml.YAMLError as e:
        raise UnreadableError(display, f"YAML error: {' '.join(str(e).split())}") from None
    except RecursionError:  # cannot happen (nothing recurses), but a traceback must never be the answer
        raise UnreadableError(display, f"nested too deeply to be a {what}") from None


def _build(loader: Any, what: str, max_depth: int, max_values: int) -> Node | None:
    loader.get_event()                                   # stream start
    if loader.check_event(yaml.StreamEndEvent):
        return None
    loader.get_event()                                   # document start
    root: Node | None = None
    open_nodes: list[Node] = []                          # the collections being filled, outermost first
    pending_key: list[Node | None] = []                  # per open mapping: a key waiting for its value
    values = 0
    while root is None:
        event = loader.get_event()
        if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            node = open_nodes.pop()
            pending_key.pop()
            node.end_mark = event.end_mark
        elif isinstance(event, yaml.AliasEvent):
            raise _Refused(f"YAML syntax error: aliases (*name) are not allowed in {what}s; write the value out",
                           event.start_mark)
        else:
            if len(open_nodes) > max_depth:
                raise _Refused(f"nested too deeply to be a {what}", event.start_mark)
            values += 1
            if values > max_values:
                raise _Refused(f"more than {max_values:,} values; no {what} needs that many", event.start_mark)
            start: Any = event.start_mark  # a pure-Python or a libyaml mark: both have line and column
            if isinstance(event, yaml.ScalarEvent):
                tag = event.tag
                if tag is None or tag == "!":
                    tag = loader.resolve(ScalarNode, event.value, event.implicit)
                node = ScalarNode(tag, event.value, start, None, style=event.style)  # no end mark: less memory
            else:
                kind = SequenceNode if isinstance(event, yaml.SequenceStartEvent) else MappingNode
                tag = event.tag
                if tag is None or tag == "!":
                    tag = loader.resolve(kind, None, event.implicit)
                node = kind(tag, [], start, None, flow_style=event.flow_style)
                open_nodes.append(node)
                pending_key.append(None)
                continue
        if not open_nodes:
            root = node
        elif isinstance(open_nodes[-1], SequenceNode):
            open_nodes[-1].value.append(node)
        elif pending_key[-1] is None:
            pending_key[-1] = node
        else:
            open_nodes[-1].value.append((pending_key[-1], node))
            pending_key[-1] = None
    loader.get_event()                                   # document end
    if not loader.check_event(yaml.StreamEndEvent):
        extra = loader.get_event()
        raise yaml.composer.ComposerError("expected a single document in the stream", root.start_mark,
                                          "but found another document", extra.start_mark)
    return root


def refuse_tag(tag: str, node: Node, display: str, what: str) -> UnreadableError:
    shown = "!!" + tag[len(TAG):] if tag.startswith(TAG) else tag
    return UnreadableError(display, f"unsupported YAML tag {quoted(shown, 80)[1:-1]}; {what}s use plain YAML only",
                           *_where(node.start_mark))


def scalar(node: ScalarNode, display: str, what: str) -> Any:
    """The value of a plain scalar: text, a whole or decimal number, a boolean (true/false) or null (a date
    stays text)."""
    tag = node.tag
    try:
        if tag == TAG + "str" or tag == TAG + "timestamp":
            return str(node.value)
        if tag == TAG + "int":
            return _CONSTRUCTOR.construct_yaml_int(node)
        if tag == TAG + "float":
            return _CONSTRUCTOR.construct_yaml_float(node)
        if tag == TAG + "bool":
            # YAML 1.2, as editors and the JSON Schema read it: only true/false are booleans; YAML 1.1's
            # yes/no/on/off stay the text written (a yes/no field then says to write true or false).
            if str(node.value).lower() not in ("true", "false"):
                return str(node.value)
            return _CONSTRUCTOR.construct_yaml_bool(node)
        if tag == TAG + "null":
            return None
    except ValueError:  # e.g. an integer with more digits than Python converts
        number = str(node.value)[:20]
        raise UnreadableError(display, f"cannot read the number {number!r}", *_where(node.start_mark)) from None
    raise refuse_tag(tag, node, display, what)


def plain(node: Node, display: str, what: str) -> Any:
    """The node as Python data (dicts, lists, str, int, float, bool, None); keys must be scalars and written once.
    Recursion is bounded: `compose` already refused anything nested deeper than its limit."""
    if isinstance(node, ScalarNode):
        return scalar(node, display, what)
    if isinstance(node, SequenceNode):
        if node.tag != TAG + "seq":
            raise refuse_tag(node.tag, node, display, what)
        return [plain(item, display, what) for item in node.value]
    assert isinstance(node, MappingNode)
    if node.tag != TAG + "map":
        raise refuse_tag(node.tag, node, display, what)
    out: dict[Any, Any] = {}
    first_line: dict[Any, int] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, ScalarNode):
            raise UnreadableError(display, "a key must be plain text, not a list or mapping",
                                  *_where(key_node.start_mark))
        key = scalar(key_node, display, what)
        if key in out:
            raise UnreadableError(display, f"duplicate key {quoted(str(key))} (first written at line "
                                  f"{first_line[key]})", *_where(key_node.start_mark))
        first_line[key] = key_node.start_mark.line + 1
        out[key] = plain(value_node, display, what)
    return out


def load(text: str, display: str, what: str, fast: bool = True,
         max_values: int = MAX_VALUES) -> tuple[Any, Node | None]:
    """Plain data and its node tree (for line numbers); (None, None) for an empty document."""
    node = compose(text, display, what, fast, max_values=max_values)
    return (plain(node, display, what) if node is not None else None), node
