"""The JSON Schema of rule files, generated from the models and made draft-07 compatible for editors.

pydantic writes draft 2020-12: `$defs` and `prefixItems`. Editors and the plain `jsonschema` library's
Draft7Validator want `definitions` and `items: [...]`, so the output is rewritten.

A file with `extends` is an overlay: it states only what it changes, so no section of it is required. The
schema says so with `if/then/else`: an overlay is checked against "Overlay" copies of the definitions with
`required` dropped along mapping keys (list items stay complete, since a list in an overlay replaces the
parent's whole list). The loader then checks the resolved rules in full.

The schema reads keys as the loader does: where a map is keyed by rank, `10` is the ten (T), and the two may
not both be written.
"""

from __future__ import annotations

import json
from typing import Any

from engine.rules.load import RANK_KEYED
from engine.rules.model import Ruleset
from engine.rules.yamlpos import KeyPath

SCHEMA_URI = "http://json-schema.org/draft-07/schema#"
OVERLAY = "Overlay"


def _draft7(node: Any) -> Any:
    """Rename `$defs` refs and turn `prefixItems` tuples into draft-07 `items` lists."""
    if isinstance(node, list):
        return [_draft7(v) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str):
            out[key] = value.replace("#/$defs/", "#/definitions/")
        elif key == "prefixItems":
            out["items"] = _draft7(value)
            out["additionalItems"] = False
        else:
            out[key] = _draft7(value)
    return out


def _overlay(node: Any, defs: dict[str, Any], made: dict[str, Any]) -> Any:
    """A copy of `node` that requires nothing along mapping keys; items of lists stay complete."""
    if isinstance(node, list):
        return [_overlay(v, defs, made) for v in node]
    if not isinstance(node, dict):
        return node
    return {key: _overlay_entry(key, value, defs, made) for key, value in node.items() if key != "required"}


def _overlay_entry(key: str, value: Any, defs: dict[str, Any], made: dict[str, Any]) -> Any:
    if key == "$ref":
        name = value.rsplit("/", 1)[-1]
        if name + OVERLAY not in made:
            made[name + OVERLAY] = {}  # placeholder against recursion
            made[name + OVERLAY] = _overlay(defs[name], defs, made)
        return f"#/definitions/{name}{OVERLAY}"
    if key in ("items", "additionalItems", "additionalProperties", "propertyNames", "not"):
        return value
    if key == "properties":
        return {k: _overlay(v, defs, made) for k, v in value.items()}
    return _overlay(value, defs, made)


def _property(defs: dict[str, Any], path: KeyPath) -> dict[str, Any]:
    """The schema of the property at `path`, following references from the root."""
    node = defs["Ruleset"]
    for part in path:
        node = node["properties"][part]
        for option in node.get("anyOf", ()):   # an optional section: its schema or null
            if "$ref" in option:
                node = option
        ref = node.get("$ref")
        if isinstance(ref, str) and part != path[-1]:
            node = defs[ref.rsplit("/", 1)[-1]]
    assert isinstance(node, dict)
    return node


def _ten_keys(defs: dict[str, Any]) -> None:
    """Rank-keyed maps accept `10` for the ten, as the loader does, but not together with `T`."""
    for path in RANK_KEYED:
        node = _property(defs, path)
        node["propertyNames"] = {"enum": [*node["propertyNames"]["enum"], "10"]}
        node["not"] = {"required": ["T", "10"]}


def ruleset_schema() -> dict[str, Any]:
    raw = _draft7(Ruleset.model_json_schema(by_alias=True, mode="validation"))
    defs: dict[str, Any] = raw.pop("definitions", raw.pop("$defs", {}))
    title = raw.get("title", "Ruleset")
    full = dict(raw)
    defs["Ruleset"] = full
    _ten_keys(defs)
    overlays: dict[str, Any] = {}
    overlay_root = _overlay(full, defs, overlays)
    overlay_root["required"] = ["schema_version", "name", "extends", "description"]
    overlays["Ruleset" + OVERLAY] = overlay_root
    return {
        "$schema": SCHEMA_URI,
        "title": title,
        "description": "A jacknine rule file: one game of the Jack-Nine family, or a house rule on one.",
        "type": "object",
        "if": {"required": ["extends"], "properties": {"extends": {"type": "string"}}},
        "then": {"$ref": "#/definitions/Ruleset" + OVERLAY},
        "else": {"$ref": "#/definitions/Ruleset"},
        "definitions": dict(sorted({**defs, **overlays}.items())),
    }


def schema_text() -> str:
    """The schema exactly as committed in schemas/ruleset.schema.json."""
    return json.dumps(ruleset_schema(), indent=2, sort_keys=False) + "\n"
