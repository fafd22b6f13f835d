"""The JSON Schema (what editors check) and the loader agree on every file the schema can judge.

The schema sees the data as the loader reads it (yamlpos: YAML 1.2 booleans, keys as written). It can judge
types, keys, names and bounds, not checks across fields: those are the loader's alone. So for each file of the
corpus the two verdicts are compared on the loader's problems other than cross-field findings, and every such
problem must lie where the schema also sees one. Left out: files that cannot be read at all, files whose
`extends` chain is broken (the schema cannot follow it), and duplicate keys (the data keeps only the first).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from engine.errors import UnreadableError
from engine.rules.load import check_ruleset, shipped_rulesets
from engine.rules.yamlpos import dotted, parse, read_document

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))
RULEFILES = Path(__file__).parent

# New cases for the two points where they used to disagree: 10 for the ten, and YAML 1.1 booleans.
OVERLAY = "schema_version: 1\nname: case\nextends: twenty-eight\ndescription: a case\n"
CASES = {
    "ten-in-overlay.yaml": OVERLAY + "deck:\n  points: {10: 2}\n",
    "ten-quoted-in-overlay.yaml": OVERLAY + 'deck:\n  points: {"10": 2, J: 4}\n',
    "ten-and-t.yaml": OVERLAY + "deck:\n  points: {T: 1, 10: 1}\n",
    "ten-in-rank-list.yaml": OVERLAY + "play:\n  no_discard_before_suit_led: [10]\n",
    "yes-as-text.yaml": OVERLAY.replace("a case", "yes") + "notes: [on, off, No]\n",
    "yes-for-bool.yaml": OVERLAY + "trump:\n  concealed: yes\n",
    "on-for-bool.yaml": OVERLAY + "annul:\n  trump_never_exposed: On\n",
    "true-any-case.yaml": OVERLAY + "annul:\n  bidding_team_held_all_trumps: TRUE\n",
    "no-as-name.yaml": OVERLAY.replace("name: case", "name: no"),
}


def _base_with_ten() -> str:
    """A complete file (no extends) that writes the ten as 10."""
    text = (ROOT / "rulesets" / "twenty-eight.yaml").read_text(encoding="utf-8")
    return text.replace("name: twenty-eight", "name: ten-base").replace("T: 1}", "10: 1}")


def corpus(tmp: Path) -> list[Path]:
    for name, text in {**CASES, "ten-in-base.yaml": _base_with_ten()}.items():
        (tmp / name).write_text(text, encoding="utf-8")
    return [*shipped_rulesets().values(), *sorted(RULEFILES.rglob("*.yaml")), *sorted(tmp.glob("*.yaml"))]


def verdicts(path: Path, validator: Draft7Validator) -> tuple[list[str], list[str]] | None:
    """(schema error paths, loader problem paths the schema could see), or None when the schema cannot judge."""
    try:
        data = read_document(path, str(path)).data
        report = check_ruleset(path)
    except UnreadableError:
        return None
    if any(p.path == "extends" for p in report.problems):
        return None
    if any(p.message.startswith("duplicate key") for p in report.problems):
        return None
    schema = [dotted(tuple(e.absolute_path)) for e in validator.iter_errors(data)]
    loader = [p.path for p in report.problems if p not in report.cross_field]
    return schema, loader


def _related(a: str, b: str) -> bool:
    """One path lies inside the other (a missing key is reported on its mapping by the schema)."""
    return a == b or not a or not b or a.startswith(b + ".") or b.startswith(a + ".") or \
        a.startswith(b + "[") or b.startswith(a + "[")


@pytest.fixture(scope="module")
def validator() -> Draft7Validator:
    return Draft7Validator(SCHEMA)


def test_schema_and_loader_agree_on_the_corpus(tmp_path: Path, validator: Draft7Validator) -> None:
    judged, disagreements = 0, []
    for path in corpus(tmp_path):
        found = verdicts(path, validator)
        if found is None:
            continue
        judged += 1
        schema, loader = found
        if bool(schema) != bool(loader):
            disagreements.append(f"{path.name}: schema {schema or 'accepts'}, loader {loader or 'accepts'}")
        for where in loader:
            if not any(_related(where, s) for s in schema):
                disagreements.append(f"{path.name}: the loader finds {where!r}; the schema only {schema}")
    assert disagreements == []
    assert judged >= 80


def test_new_cases_come_out_as_intended(tmp_path: Path, validator: Draft7Validator) -> None:
    corpus(tmp_path)
    rejected = {name for name in [*CASES, "ten-in-base.yaml"]
                if (found := verdicts(tmp_path / name, validator)) is not None and found[1]}
    assert rejected == {"ten-and-t.yaml", "ten-in-rank-list.yaml", "yes-for-bool.yaml", "on-for-bool.yaml"}


def test_yaml_1_1_booleans_are_read_as_text() -> None:
    doc = parse("a: yes\nb: No\nc: on\nd: OFF\ne: true\nf: False\ng: TRUE\n", "x.yaml")
    assert doc.data == {"a": "yes", "b": "No", "c": "on", "d": "OFF", "e": True, "f": False, "g": True}


def test_schema_accepts_ten_where_the_loader_does(validator: Draft7Validator) -> None:
    overlay = {"schema_version": 1, "name": "x", "extends": "twenty-eight", "description": "d"}
    assert list(validator.iter_errors({**overlay, "deck": {"points": {"10": 2}}})) == []
    assert list(validator.iter_errors({**overlay, "deck": {"points": {"10": 2, "T": 1}}})) != []


def test_a_text_field_keeps_yes_and_on_as_written(tmp_path: Path) -> None:
    corpus(tmp_path)
    rs = check_ruleset(tmp_path / "yes-as-text.yaml").ruleset
    assert rs is not None and rs.description == "yes" and rs.notes == ["on", "off", "No"]
    assert check_ruleset(tmp_path / "no-as-name.yaml").ruleset is not None
