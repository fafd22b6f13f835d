"""`jacknine show` says every rule: flipping any yes/no or named-option field of a shipped game (wherever the
result is still a valid rule file) changes the text a player reads."""

from __future__ import annotations

import copy
import types
import typing
from collections.abc import Iterator
from typing import Any, Literal, get_args, get_origin

import pytest
from pydantic import BaseModel

from engine.rules import checks
from engine.rules.explain import show
from engine.rules.load import Report, check_ruleset
from engine.rules.model import Ruleset

BASES = ("twenty-eight", "twenty-nine", "fifty-six", "double-redouble", "cot", "no-jack-discard", "odisha",
         "twenty-eight-kerala", "fifty-six-8p", "thunee")


def _options(annotation: Any) -> list[Any]:
    """The values a bool or Literal field (possibly optional) can take."""
    if annotation is bool:
        return [True, False]
    origin = get_origin(annotation)
    if origin is Literal:
        return list(get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        out: list[Any] = []
        for arg in get_args(annotation):
            if arg is not type(None):
                out.extend(_options(arg))
        return out
    return []


def _model_of(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _model_of(arg)
        if found is not None:
            return found
    return None


def _switches(model: type[BaseModel], prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], list[Any]]]:
    for name, info in model.model_fields.items():
        key = info.alias or name
        sub = _model_of(info.annotation)
        if get_origin(info.annotation) is list:
            continue
        if sub is not None:
            yield from _switches(sub, prefix + (key,))
        else:
            opts = _options(info.annotation)
            if len(opts) > 1:
                yield prefix + (key,), opts


SWITCHES = [(path, opts) for path, opts in _switches(Ruleset) if path[0] not in ("schema_version",)]


def _text(data: dict[str, Any]) -> str | None:
    try:
        rs = Ruleset.model_validate(data)
    except Exception:
        return None
    if list(checks.run(rs)):
        return None
    return show(Report("x.yaml", ruleset=rs, resolved=data, chain=["x.yaml"]))


def _resolved(name: str) -> dict[str, Any]:
    data = check_ruleset(name).resolved
    data.pop("extends", None)
    return data


def _effective(rs: Ruleset, path: tuple[str, ...]) -> Any:
    node: Any = rs
    for key in path:
        node = getattr(node, "raise_" if key == "raise" else key, None)
        if node is None:
            return None
    return node


@pytest.mark.parametrize("path,options", SWITCHES, ids=[".".join(p) for p, _ in SWITCHES])
def test_flipping_a_rule_changes_what_show_says(path: tuple[str, ...], options: list[Any]) -> None:
    """Some valid flip of the rule, on some shipped game where it applies, changes the text."""
    flips, shown = [], 0
    for base_name in BASES:
        base = _resolved(base_name)
        before = _text(base)
        rs = Ruleset.model_validate(base)
        if _effective(rs, path[:-1]) is None and len(path) > 1:
            continue
        for value in options:
            if value == _effective(rs, path):
                continue
            changed = copy.deepcopy(base)
            target = changed
            for key in path[:-1]:
                target = target.setdefault(key, {})
            target[path[-1]] = value
            after = _text(changed)
            if after is None:
                continue
            flips.append(f"{base_name}: {value!r}")
            shown += after != before
    if not flips:
        pytest.skip("no shipped game where this switch gives a valid rule file")
    assert shown, f"{'.'.join(path)}: no flip changes what show says ({', '.join(flips)})"
