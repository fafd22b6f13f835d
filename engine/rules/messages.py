"""Plain-English messages for what pydantic finds wrong, without pydantic's vocabulary.

Each pydantic error becomes a `Finding`: the path in the rule file, the message, and whether the key itself,
its value, or the mapping that lacks a key should be pointed at.
"""

from __future__ import annotations

import difflib
import functools
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from engine.rules.model import Ruleset
from engine.rules.yamlpos import KeyPath

Anchor = Literal["key", "value", "parent"]
STEPS_HINT = "a step is `deal: N`, auction, trump or raise"


@dataclass(frozen=True)
class Finding:
    """One problem: where it lies (`path`), what is wrong, and, for a check across fields, what else it reads.

    `depends` names the other paths the finding was computed from. When `path` was inherited through `extends`
    but one of those was set by a file further down the chain, the loader reports the problem there, because
    that is the file the user changed. `hint` is said only where the problem is reported at its own path; `fix`
    replaces the default advice ("also override PATH") when it is reported at a dependency instead.
    """

    path: KeyPath
    message: str
    anchor: Anchor = "value"
    depends: tuple[KeyPath, ...] = ()
    hint: str = ""
    fix: str = ""


def describe(value: Any) -> str:
    """How a value the user wrote is named in a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"text {_short(value)!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def suggest(word: str, choices: list[str]) -> str | None:
    found = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return found[0] if found else None


# ------------------------------------------------------------------------------- the model at a path
def unwrap_type(tp: Any) -> Any:
    """Strip Annotated and Optional so the meaningful type is left."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


def type_at(path: KeyPath) -> Any:
    """The annotation the model expects at `path` (union branches are picked by their pydantic tag)."""
    tp: Any = Ruleset
    for part in path:
        tp = _type_below(unwrap_type(tp), part)
        if tp is None:
            return None
    return unwrap_type(tp)


def _type_below(tp: Any, part: str | int) -> Any:
    """The annotation one step down from `tp` (its own Annotated and Optional taken off) at `part`, or None."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        fields = {(f.alias or n): f for n, f in tp.model_fields.items()}
        return fields[part].annotation if isinstance(part, str) and part in fields else None
    below = _BELOW.get(typing.get_origin(tp))
    return below(tp, part) if below is not None else None


def _item_type(tp: Any, part: str | int) -> Any:
    if not isinstance(part, int):
        return None
    args = typing.get_args(tp)
    return args[min(part, len(args) - 1)] if typing.get_origin(tp) is tuple else args[0]


def _branch_type(tp: Any, part: str | int) -> Any:
    """A union's branch, named in the path by its class (pydantic's tag)."""
    return next((a for a in typing.get_args(tp) if getattr(a, "__name__", None) == part), None)


_BELOW: dict[Any, Callable[[Any, str | int], Any]] = {
    list: _item_type, tuple: _item_type, dict: lambda tp, part: typing.get_args(tp)[1],
    typing.Union: _branch_type, types.UnionType: _branch_type}


def _key_type_at(path: KeyPath) -> Any:
    """The type of the keys of the map that holds `path`."""
    args = typing.get_args(type_at(path[:-1]))
    return unwrap_type(args[0]) if args else None


def keys_at(path: KeyPath) -> list[str]:
    tp = type_at(path)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [f.alias or n for n, f in tp.model_fields.items()]
    return []


def _sections(tp: Any, path: tuple[str, ...], depth: int) -> Iterator[tuple[tuple[str, ...], type[BaseModel]]]:
    """Every section model reachable from `tp` through fields, list items, map values and union branches."""
    tp = unwrap_type(tp)
    origin = typing.get_origin(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        yield path, tp
        if depth:
            for name, f in tp.model_fields.items():
                yield from _sections(f.annotation, (*path, f.alias or name), depth - 1)
    elif origin in (list, tuple, dict, typing.Union, types.UnionType):
        args = typing.get_args(tp)
        for arg in args[1:] if origin is dict else args:
            yield from _sections(arg, path, depth)


@functools.cache
def homes_of(key: str, here: KeyPath) -> tuple[str, ...]:
    """The sections (dotted) where `key` is a known key, other than `here`: a key written in the wrong section."""
    # the section written in, without list indexes and union branch tags (models' class names)
    written = tuple(p for p in here if isinstance(p, str) and not p[:1].isupper())
    found = []
    for path, model in _sections(Ruleset, (), 3):
        if path != written and key in {f.alias or n for n, f in model.model_fields.items()}:
            found.append(".".join(path) or "the top level")
    return tuple(dict.fromkeys(found))[:3]


def literal_values(tp: Any) -> list[str]:
    return [str(v) for v in typing.get_args(tp)] if typing.get_origin(tp) is Literal else []


# ------------------------------------------------------------------------------------- translation
def findings(error: ValidationError, data: dict[str, Any]) -> list[Finding]:
    out: list[Finding] = []
    schedule_items: set[int] = set()
    for err in error.errors():
        loc = tuple(err["loc"])
        if len(loc) >= 3 and loc[0] == "schedule" and isinstance(loc[1], int):
            # a schedule step is a union; speak about the branch the user evidently meant
            if loc[1] in schedule_items:
                continue
            schedule_items.add(loc[1])
            out.extend(_schedule_step(loc[1], data, error))
            continue
        out.append(_one(err, loc))
    return out


def _schedule_step(index: int, data: dict[str, Any], error: ValidationError) -> Iterator[Finding]:
    item = data["schedule"][index]
    path: KeyPath = ("schedule", index)
    if isinstance(item, dict):
        for err in error.errors():
            loc = tuple(err["loc"])
            if loc[:3] == ("schedule", index, "DealStep"):
                yield _one(err, (*path, *loc[3:]), type_path=loc)
    elif isinstance(item, str):
        hint = suggest(item, ["auction", "trump", "raise", "deal"])
        did = f" (did you mean '{hint}'?)" if hint else ""
        yield Finding(path, f"unknown step {item!r}{did}; {STEPS_HINT}")
    else:
        yield Finding(path, f"expected a step, got {describe(item)}; {STEPS_HINT}")


def _one(err: ErrorDetails, loc: tuple[Any, ...], type_path: tuple[Any, ...] | None = None) -> Finding:
    kind, value, ctx = err["type"], err.get("input"), err.get("ctx") or {}
    tpath: KeyPath = tuple(type_path if type_path is not None else loc)
    is_key = bool(loc) and loc[-1] == "[key]"
    if is_key:
        loc, tpath = loc[:-1], tpath[:-1]
    path: KeyPath = tuple(loc)
    if kind == "extra_forbidden":
        return _unknown_key(path, tpath)
    if kind == "missing":
        return _missing(path, tpath)
    if kind == "literal_error":
        expected = literal_values(_key_type_at(tpath) if is_key else type_at(tpath))
        return Finding(path, _bad_choice(value, expected, is_key), "key" if is_key else "value")
    return Finding(path, _plain(kind, value, ctx, path))


def _unknown_key(path: KeyPath, tpath: KeyPath) -> Finding:
    """A key the section does not know: a near miss, a key of another section, or the keys it knows."""
    known = keys_at(tpath[:-1])
    hint = suggest(str(path[-1]), known)
    if hint:
        return Finding(path, f"unknown key (did you mean '{hint}'?)", "key")
    home = homes_of(str(path[-1]), tuple(tpath[:-1]))
    if home:
        return Finding(path, f"unknown key here; it belongs under {' or '.join(home)}", "key")
    return Finding(path, "unknown key; known keys here: " + ", ".join(known), "key")


def _missing(path: KeyPath, tpath: KeyPath) -> Finding:
    """A required key left out, or a [low, high] pair one item short."""
    if isinstance(path[-1], int):  # a short [low, high] pair
        size = len(typing.get_args(type_at(tpath[:-1]))) or 2
        return Finding(path[:-1], f"expected {size} items, got {path[-1]}")
    hint = _MISSING_HINTS.get(tuple(x for x in path if isinstance(x, str)), "")
    return Finding(path, "required key is missing" + hint, "parent")


# What to write where a required key whose meaning is not plain from its name is missing (by its path, list
# indices left out)
_MISSING_HINTS: dict[tuple[str, ...], str] = {
    ("trump", "modes", "points"): "; a trump mode states its own card points, e.g. points: {A: 11, K: 4, Q: 3, "
                                  "J: 2, T: 10} (ranks not listed are worth 0)",
    ("trump", "modes", "ranks"): "; a trump mode states its order in every suit, the deck's ranks highest first",
    ("trump", "modes", "trumps"): "; none (no trump suit) or all (every suit plays as trumps)",
}


def _bad_choice(value: Any, choices: list[str], is_key: bool) -> str:
    what = "key" if is_key else "value"
    if isinstance(value, int | float) and not isinstance(value, bool) and str(value) in choices:
        return f'{value} is read as a number here; write it in quotes: "{value}"'
    if str(value) == "10" and "T" in choices:
        return f"unknown {what} '10' (the ten is written T)"
    hint = suggest(str(value), choices) if isinstance(value, str) else None
    if hint:
        return f"unknown {what} {_short(str(value))!r} (did you mean '{hint}'?)"
    listed = ", ".join(choices)
    if is_key:
        return f"unknown key {_short(str(value))!r}; expected one of {listed}"
    return f"expected one of {listed}; got {describe(value)}"


_TYPE_NAMES = {
    "int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole number",
    "bool_type": "true or false", "bool_parsing": "true or false", "string_type": "text",
    "list_type": "a list", "tuple_type": "a list", "dict_type": "a mapping (key: value lines)",
    "model_type": "a mapping (key: value lines)", "model_attributes_type": "a mapping (key: value lines)",
    "none_required": "null",
}


# YAML 1.1's other booleans, read as text (see yamlpos): what the writer evidently meant.
_YAML11_BOOLS = {"yes": "true", "on": "true", "y": "true", "no": "false", "off": "false", "n": "false"}


def _plain(kind: str, value: Any, ctx: dict[str, Any], path: KeyPath) -> str:
    if kind in ("bool_type", "bool_parsing") and isinstance(value, str) and value.lower() in _YAML11_BOOLS:
        return f"expected true or false, got text {value!r} (write {_YAML11_BOOLS[value.lower()]})"
    if kind in _TYPE_NAMES:
        return f"expected {_TYPE_NAMES[kind]}, got {describe(value)}"
    words = _PLAIN_WORDS.get(kind)
    return words(kind, value, ctx) if words is not None else f"invalid value {describe(value)}"


# a bound broken: the context keys that hold it (the first found), and the words
_BOUNDS = {"greater_than_equal": ("ge", "gt", "must be at least"), "greater_than": ("ge", "gt", "must be more than"),
           "less_than_equal": ("le", "lt", "must be at most"), "less_than": ("le", "lt", "must be less than")}


def _bound(kind: str, value: Any, ctx: dict[str, Any]) -> str:
    first, second, words = _BOUNDS[kind]
    return f"{words} {ctx.get(first, ctx.get(second))}"


def _length(kind: str, value: Any, ctx: dict[str, Any]) -> str:
    key, words = ("min_length", "needs at least") if kind == "too_short" else ("max_length", "allows at most")
    if ctx.get("field_type") == "Tuple":
        return f"expected {ctx.get(key)} items, got {ctx.get('actual_length')}"
    return f"{words} {ctx.get(key)} item(s)"


def _name(kind: str, value: Any, ctx: dict[str, Any]) -> str:
    pattern = str(ctx.get("pattern", ""))
    case = "letters" if "A-Z" in pattern else "lower-case letters"
    start = " starting with a letter or digit" if "0-9][" in pattern else " starting with a letter"
    return f"{_short(str(value))!r} is not a valid name: use {case}, digits and hyphens,{start}"


def _a_set(kind: str, value: Any, ctx: dict[str, Any]) -> str:
    return f"expected a list, got {describe(value)}"


_PLAIN_WORDS: dict[str, Callable[[str, Any, dict[str, Any]], str]] = {
    **dict.fromkeys(_BOUNDS, _bound), "too_short": _length, "too_long": _length,
    "string_pattern_mismatch": _name, "frozen_set_type": _a_set, "set_type": _a_set}
