"""Helpers shared by the fuzz campaigns (tests/test_fuzz_untrusted.py, tests/rulefiles/test_fuzz.py)."""

from __future__ import annotations

from typing import Any


def value_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path (keys and indexes) of every value nested in `node`, parents before their children."""
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += value_paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += value_paths(v, (*prefix, i))
    return out
