"""The shipped rule files: all valid, named after their files, and valid against the committed schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft7Validator

from engine.rules.load import check_ruleset, load_ruleset, shipped_rulesets
from engine.rules.schema import schema_text

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "schemas" / "ruleset.schema.json"
SHIPPED = sorted(shipped_rulesets())
EXPECTED_NAMES = {
    "twenty-eight", "twenty-nine", "fifty-six", "forty", "twenty-eight-3p", "twenty-eight-6p",
    "twenty-eight-flat", "seventh-card", "double-redouble", "gorakhpur", "odisha", "west-bengal-pair",
    "single-hand", "thani", "cot", "no-jack-discard", "pointless-redeal", "open-trump",
}


@pytest.fixture(scope="module")
def validator() -> Draft7Validator:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema)


def _errors(validator: Draft7Validator, data: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]


def test_every_builtin_is_shipped() -> None:
    assert EXPECTED_NAMES <= set(SHIPPED)


def test_committed_schema_matches_the_models() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        "schemas/ruleset.schema.json is stale: run `jacknine schema > schemas/ruleset.schema.json`")


def test_schema_is_draft07_without_newer_keywords() -> None:
    text = SCHEMA_FILE.read_text(encoding="utf-8")
    assert json.loads(text)["$schema"] == "http://json-schema.org/draft-07/schema#"
    for newer in ('"$defs"', '"prefixItems"', '"unevaluatedProperties"', '"dependentRequired"'):
        assert newer not in text


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_file_is_valid(name: str) -> None:
    report = check_ruleset(name)
    assert report.problems == []
    assert report.ruleset is not None and report.ruleset.name == name
    assert report.ruleset.description and report.ruleset.sources


@pytest.mark.parametrize("name", SHIPPED)
def test_raw_file_validates_against_schema(name: str, validator: Draft7Validator) -> None:
    """Each file as written: a base game in full, a house rule as an overlay (the schema's if/then)."""
    raw = yaml.safe_load(shipped_rulesets()[name].read_text(encoding="utf-8"))
    assert _errors(validator, raw) == []


@pytest.mark.parametrize("name", SHIPPED)
def test_resolved_rules_validate_against_schema(name: str, validator: Draft7Validator) -> None:
    """The mapping after `extends` is resolved, and the same with every default written out."""
    report = check_ruleset(name)
    assert _errors(validator, report.resolved) == []
    assert report.ruleset is not None
    full = report.ruleset.model_dump(mode="json", by_alias=True, exclude={"extends"})
    assert _errors(validator, full) == []


def test_schema_rejects_what_the_loader_rejects(validator: Draft7Validator) -> None:
    data = check_ruleset("twenty-eight").resolved
    broken = {**data, "play": {"reveal": {"calll": "optional"}}}
    assert any("calll" in e for e in _errors(validator, broken))
    overlay = {"schema_version": 1, "name": "x", "extends": "twenty-eight", "description": "d",
               "scoring": {"bands": [{"bids": [14, 28], "made": 1}]}}
    assert any("failed" in e for e in _errors(validator, overlay)), "list items in an overlay are complete"


def test_load_ruleset_caches_shipped_files() -> None:
    assert load_ruleset("twenty-eight") is load_ruleset("twenty-eight")


def test_load_ruleset_by_path_equals_by_name() -> None:
    assert load_ruleset(shipped_rulesets()["thani"]) == load_ruleset("thani")
