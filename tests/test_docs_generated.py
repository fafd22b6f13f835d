"""The project's documents stay true to the program.

- docs/rule-language.md and docs/games/*.md are what `python -m engine.rules.reference write` makes from the
  models and the shipped rule files (rerun it after changing either);
- every field of the rule language has a meaning and an example on the page;
- docs/hand-record.md documents every action verb the notation reads, and README's notation table too;
- docs/mechanisms/README.md links only to pages that exist, and every page there is linked;
- README, docs/ and engine/ name no reference outside the repository as if it were in it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.play.actions import VERBS
from engine.rules import reference
from engine.rules.load import shipped_rulesets
from engine.rules.model import Ruleset

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
FIX = f"run `{reference.GENERATOR}`"


def test_rule_language_page_is_current() -> None:
    page = DOCS / "rule-language.md"
    assert page.is_file(), f"docs/rule-language.md is missing: {FIX}"
    assert page.read_text(encoding="utf-8") == reference.rule_language_page(), f"docs/rule-language.md is stale: {FIX}"


def test_game_pages_are_current() -> None:
    assert reference.stale(DOCS) == [], f"stale pages under docs/: {FIX}"


def test_every_shipped_game_has_a_page() -> None:
    for name in shipped_rulesets():
        assert (DOCS / "games" / f"{name}.md").is_file(), f"docs/games/{name}.md is missing: {FIX}"


def test_every_field_is_on_the_page_with_a_meaning_and_an_example() -> None:
    rows = reference.rows()
    paths = [r.path for r in rows]
    assert len(paths) == len(set(paths))
    page = (DOCS / "rule-language.md").read_text(encoding="utf-8")
    for r in rows:
        assert r.meaning and r.example and r.kind and r.default, r
        assert f"| `{r.path}` |" in page
    assert {r.path for r in rows if not r.section} == {f.alias or n for n, f in Ruleset.model_fields.items()}


def test_a_field_without_a_meaning_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(reference.MEANINGS, "BidRange.min")
    with pytest.raises(LookupError, match="BidRange.min has no description"):
        reference.rows()


def test_the_generator_reports_a_stale_page(tmp_path: Path) -> None:
    assert reference.main(["write", str(tmp_path)]) == 0
    assert reference.main(["check", str(tmp_path)]) == 0
    (tmp_path / "games" / "twenty-eight.md").write_text("edited by hand\n", encoding="utf-8")
    (tmp_path / "games" / "no-such-game.md").write_text("left over\n", encoding="utf-8")
    assert reference.stale(tmp_path) == ["games/twenty-eight.md", "games/no-such-game.md"]
    assert reference.main(["check", str(tmp_path)]) == 1
    assert reference.main(["write", str(tmp_path)]) == 0
    assert reference.stale(tmp_path) == []


# ------------------------------------------------------------------------------------------- records
def _verbs_in_table(text: str) -> set[str]:
    """The verbs a markdown table's first column names (each `code` span's first word)."""
    found: set[str] = set()
    for line in text.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            found.update(span.split()[0] for span in re.findall(r"`([^`]+)`", first))
    return found


def test_hand_record_page_documents_every_verb() -> None:
    page = (DOCS / "hand-record.md").read_text(encoding="utf-8")
    missing = sorted(set(VERBS) - _verbs_in_table(page))
    assert not missing, f"docs/hand-record.md has no row for the verbs {missing}"


def test_readme_notation_table_names_every_verb() -> None:
    readme = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")   # moved out of the README
    start = readme.index("## Card and action notation")
    end = readme.find("\n## ", start + 3)
    missing = sorted(set(VERBS) - _verbs_in_table(readme[start:end if end > 0 else None]))
    assert not missing, f"README's notation table has no row for the verbs {missing}"


# ------------------------------------------------------------------------------------------ mechanisms
def test_mechanism_index_links_every_page() -> None:
    folder = DOCS / "mechanisms"
    index = (folder / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([a-z0-9-]+\.md)\)", index))
    pages = {p.name for p in folder.glob("*.md")} - {"README.md"}
    assert linked <= pages, f"docs/mechanisms/README.md links to missing pages {sorted(linked - pages)}"
    assert pages <= linked, f"docs/mechanisms/README.md does not link {sorted(pages - linked)}"


# --------------------------------------------------------------------------------------- no outside refs
OUTSIDE = re.compile(r"RULES\.md|BUILTINS\.md|MORE-GAMES|\.\./shared|/work/shared|design notes")


def _project_texts() -> list[Path]:
    files = [ROOT / "README.md", *sorted(DOCS.rglob("*.md")), *sorted((ROOT / "engine").rglob("*.py")),
             *sorted((ROOT / "rulesets").glob("*.yaml"))]
    return [f for f in files if f.is_file()]


def test_no_reference_outside_the_repository() -> None:
    bad = [f"{f.relative_to(ROOT)}:{i}: {line.strip()[:80]}" for f in _project_texts()
           for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1) if OUTSIDE.search(line)]
    assert not bad, "cite a source by its address or say what it means in words:\n" + "\n".join(bad)
