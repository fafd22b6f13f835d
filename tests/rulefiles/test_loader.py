"""How extends merges, where values come from, and how keys are read."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import RulesetError
from engine.rules.load import check_ruleset, load_ruleset, problems_of

HEAD = "schema_version: 1\nname: house\ndescription: test house\n"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_mappings_merge_and_lists_replace(tmp_path: Path) -> None:
    path = write(tmp_path, "house.yaml", HEAD + "extends: twenty-eight\nplay:\n  reveal:\n    retroactive: true\n"
                 "scoring:\n  bands:\n    - {bids: [14, 28], made: 1, failed: -1}\n")
    rs = load_ruleset(path)
    assert rs.play.reveal.retroactive is True
    assert rs.play.reveal.caller_must_trump is True  # kept from the parent: mappings merge
    assert [b.bids for b in rs.scoring.bands] == [(14, 28)]  # the list replaced the parent's


def test_null_removes_a_section(tmp_path: Path) -> None:
    path = write(tmp_path, "house.yaml", HEAD + "extends: twenty-eight\nraise: null\nschedule:\n"
                 "  - deal: 4\n  - auction\n  - trump\n  - deal: 4\n")
    assert load_ruleset(path).raise_ is None


def test_relative_extends_and_origins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "middle.yaml", "schema_version: 1\nname: middle\nextends: twenty-nine\n"
          "description: m\nmatch: {win_at: 8}\n")
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "top.yaml", HEAD + "extends: ../middle.yaml\ntrump:\n  seventh_card: true\n")
    report = check_ruleset("sub/top.yaml")
    assert report.ok, report.problems
    assert [Path(c).name for c in report.chain] == ["twenty-nine.yaml", "middle.yaml", "top.yaml"]
    assert report.origins[("trump", "seventh_card")].file == "sub/top.yaml"
    assert report.origins[("match", "win_at")].file == "middle.yaml"
    assert report.origins[("match", "win_at")].line == 5
    assert report.origins[("deck", "ranks")].file.endswith("twenty-nine.yaml")


def test_error_in_inherited_value_points_at_the_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The child changed nothing the broken value depends on: the parent is where it is wrong."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "parent.yaml", "schema_version: 1\nname: parent\nextends: twenty-eight\ndescription: p\n"
          "auction:\n  partner_overcall: {min: 30}\n")
    write(tmp_path, "child.yaml", HEAD + "extends: ./parent.yaml\nmatch: {win_at: 8}\n")
    assert [str(p) for p in problems_of("child.yaml")] == [
        "parent.yaml:6:27: auction.partner_overcall.min: 30 is outside the bid range 14-28"]


def test_error_caused_by_the_child_is_reported_in_the_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """The parent's value became wrong because the child narrowed the bids: the child is told, at its bids."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "parent.yaml", "schema_version: 1\nname: parent\nextends: twenty-eight\ndescription: p\n"
          "auction:\n  partner_overcall: {min: 22}\n")
    write(tmp_path, "child.yaml", HEAD + "extends: ./parent.yaml\nauction:\n  bids: {min: 14, max: 21}\n"
          "scoring:\n  bands:\n    - {bids: [14, 21], made: 1, failed: -1}\nraise: null\nschedule:\n"
          "  - deal: 4\n  - auction\n  - trump\n  - deal: 4\n")
    assert [str(p) for p in problems_of("child.yaml")] == [
        "child.yaml:6:24: auction.bids.max: 22 is outside the bid range 14-21; auction.partner_overcall.min is "
        "inherited from parent.yaml:6: also override auction.partner_overcall.min"]


def test_unquoted_number_keys_in_points_are_ranks(tmp_path: Path) -> None:
    path = write(tmp_path, "house.yaml", HEAD + "extends: twenty-eight\ndeck:\n  points: {9: 3, 10: 2}\n")
    rs = load_ruleset(path)
    assert rs.deck.points["9"] == 3 and rs.deck.points["T"] == 2


def test_every_problem_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, "house.yaml", HEAD + "extends: twenty-eight\ntable:\n  players: many\n"
                 "trump:\n  concealedd: true\nplay:\n  reveal: {call: always}\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert [p.path for p in info.value.problems] == ["table.players", "trump.concealedd", "play.reveal.call"]
    assert str(info.value).count("\n") == 2


def test_a_shipped_name_that_does_not_exist_is_unreadable() -> None:
    [problem] = problems_of("twenty-seven")
    assert "no shipped rule file has this name" in problem.message
