"""Hostile and mutated input: loading either succeeds or reports problems, and never raises anything else."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import yaml
from fuzz_support import value_paths
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RulesetError, UnreadableError
from engine.rules.load import load_ruleset, shipped_rulesets
from engine.rules.yamlpos import parse

SHIPPED = {name: yaml.safe_load(path.read_text(encoding="utf-8")) for name, path in shipped_rulesets().items()}
KEYS = sorted({"players", "teams", "deal", "auction", "trump", "raise", "min", "max", "bids", "ranks", "points",
               "made", "failed", "call", "extends", "schema_version", "name", "J", "9", "10"})

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                    st.text(max_size=12), st.sampled_from(["J", "9", "T", "auction", "in_bid", "twenty-eight"]))
values: st.SearchStrategy[Any] = st.recursive(
    scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                     st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)),
    max_leaves=8)


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    data = yaml.safe_load(yaml.safe_dump(SHIPPED[draw(st.sampled_from(sorted(SHIPPED)))]))
    for _ in range(draw(st.integers(1, 4))):
        paths = value_paths(data)
        path = draw(st.sampled_from(paths))
        parent: Any = data
        for part in path[:-1]:
            parent = parent[part]
        kind = draw(st.sampled_from(["drop", "change", "rename"]))
        key = path[-1]
        if kind == "drop":
            del parent[key]
        elif kind == "change":
            parent[key] = draw(values)
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(KEYS))] = parent.pop(key)
    return data


def _load_text(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mutant.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            load_ruleset(path)
        except (RulesetError, UnreadableError) as e:
            assert str(e)


@settings(max_examples=300, deadline=None)
@given(mutated())
def test_mutated_shipped_files_load_or_report(data: dict[str, Any]) -> None:
    _load_text(yaml.safe_dump(data, sort_keys=False))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_arbitrary_text_parses_or_is_unreadable(text: str) -> None:
    try:
        parse(text, "fuzz.yaml")
    except UnreadableError as e:
        assert e.problem.file == "fuzz.yaml"


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(SHIPPED)), st.integers(0, 2000), st.text(max_size=6))
def test_spliced_text_loads_or_reports(name: str, at: int, junk: str) -> None:
    text = shipped_rulesets()[name].read_text(encoding="utf-8")
    _load_text(text[:at] + junk + text[at:])
