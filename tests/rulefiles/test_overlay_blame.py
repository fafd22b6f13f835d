"""A problem an overlay causes in a value it inherited is reported in the overlay, at the line it changed,
saying where the inherited value came from and what to override too (house rules in a tmp folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules.load import KeyPath, Origin, _Blame, check_ruleset, problems_of

from .helpers import BAD


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")


def lines(ref: str) -> list[str]:
    return [str(p) for p in problems_of(ref)]


def test_raise_null_with_the_inherited_raise_step(here: Path) -> None:
    write(here, "house.yaml", "schema_version: 1\nname: house\nextends: twenty-eight\ndescription: no raise\n"
          "raise: null\n")
    assert lines("house.yaml") == [
        "house.yaml:5:8: raise: the schedule has a raise step but there is no raise section; schedule[4] is "
        "inherited from shipped twenty-eight.yaml:28: also override schedule (without raise)"]


def test_house_rule_reusing_a_shipped_name(here: Path) -> None:
    """`name: twenty-eight` in a file twenty-eight.yaml that extends the shipped twenty-eight."""
    write(here, "twenty-eight.yaml", "schema_version: 1\nname: twenty-eight\nextends: twenty-eight\n"
          "description: our six-handed table\ntable:\n  players: 6\n  teams: [[0, 2, 4], [1, 3, 5]]\n")
    assert lines("twenty-eight.yaml") == [
        "twenty-eight.yaml:6:12: table.players: the deal gives 6 players 8 cards each (48 cards) but the deck has "
        "32 (4 suits x 8 ranks x 1 copy); every card is dealt; schedule is inherited from shipped "
        "twenty-eight.yaml:23: also override schedule"]


def test_one_change_breaking_two_inherited_values(here: Path) -> None:
    write(here, "house.yaml", "schema_version: 1\nname: bid-trumps\nextends: twenty-eight\ndescription: d\n"
          "trump:\n  chosen: in_bid\n")
    assert lines("house.yaml") == [
        "house.yaml:6:11: trump.chosen: no trump step with trump.chosen: in_bid (the bid names it); schedule[2] is "
        "inherited from shipped twenty-eight.yaml:26: also override schedule (without trump)",
        "house.yaml:6:11: trump.chosen: a trump named in the bid is public; trump.concealed is inherited from "
        "shipped twenty-eight.yaml:40: also set trump.concealed: false"]


def test_narrower_bids_blame_the_bids_not_the_parent_bands(here: Path) -> None:
    write(here, "house.yaml", "schema_version: 1\nname: low\nextends: twenty-nine\ndescription: d\n"
          "auction: {bids: {min: 12}}\n")
    assert lines("house.yaml") == [
        "house.yaml:5:23: auction.bids.min: bids 12-15 are in no pair band; special.pair.bidding_team[0].bids is "
        "inherited from shipped twenty-nine.yaml:60: also override special.pair.bidding_team",
        "house.yaml:5:23: auction.bids.min: the target bounds 16-28 do not cover the bids 12-28: a pair would move "
        "a target past its bid; special.pair.target_bounds is inherited from shipped twenty-nine.yaml:64: also set "
        "special.pair.target_bounds for these bids ([12, 28], or null for the bid range)",
        "house.yaml:5:23: auction.bids.min: bids 12-15 are in no band; scoring.bands[0].bids is inherited from "
        "shipped twenty-nine.yaml:69: also override scoring.bands"]


def test_dropped_rank_can_be_zeroed(here: Path) -> None:
    """Mappings merge, so a parent's points for a dropped rank cannot be removed: the message says to zero them,
    and doing so gives a valid file."""
    broken = ("schema_version: 1\nname: no-nines\nextends: twenty-eight\ndescription: d\n"
              "deck:\n  ranks: [J, A, T, K, Q, \"8\", \"7\", \"6\"]\n")
    write(here, "house.yaml", broken)
    first = lines("house.yaml")[0]
    assert first == (
        "house.yaml:6:10: deck.ranks: rank 9 is not in the deck (deck.ranks is J A T K Q 8 7 6); deck.points.9 is "
        "inherited from shipped twenty-eight.yaml:20: also set deck.points.9: 0 in this file (points of a rank "
        "outside the deck can be zeroed, not removed)")
    write(here, "house.yaml", broken + "  points: {\"9\": 0}\nauction:\n  bids: {max: 20}\n  partner_overcall: "
          "{min: 18}\nraise: {min: 18}\nscoring:\n  bands:\n    - {bids: [14, 20], made: 1, failed: -1}\n")
    assert lines("house.yaml") == []


def test_the_file_that_changed_the_dependency_is_blamed_along_a_chain(here: Path) -> None:
    write(here, "mid.yaml", "schema_version: 1\nname: mid\nextends: twenty-eight\ndescription: d\n"
          "auction:\n  bids: {max: 22}\n")
    write(here, "top.yaml", "schema_version: 1\nname: top\nextends: ./mid.yaml\ndescription: d\n"
          "match: {win_at: 8}\n")
    blamed = lines("top.yaml")
    assert len(blamed) == 3 and all(line.startswith("mid.yaml:6:15: auction.bids.max: ") for line in blamed), blamed
    assert ("mid.yaml:6:15: auction.bids.max: 24 is outside the bid range 14-22; raise.min is inherited from "
            "shipped twenty-eight.yaml:55: also override raise.min") in blamed
    write(here, "top.yaml", "schema_version: 1\nname: top\nextends: ./mid.yaml\ndescription: d\n"
          "auction:\n  bids: {max: 21}\n")
    blamed = lines("top.yaml")
    assert len(blamed) == 3 and all(line.startswith("top.yaml:6:15: auction.bids.max: ") for line in blamed), blamed


def test_a_default_value_is_named_as_such(here: Path) -> None:
    """raise.by is not written in the parent (the default, bidder then partner); the child makes the bidder play
    alone, so the default no longer fits and the child is told."""
    base = (BAD / "_base.yaml").read_text(encoding="utf-8")
    write(here, "parent.yaml", base.replace("  by: [bidder, partner]\n", ""))
    assert check_ruleset("parent.yaml").ok
    write(here, "child.yaml", "schema_version: 1\nname: child\nextends: ./parent.yaml\ndescription: d\n"
          "table:\n  bidder_plays_alone: true\n  teams: [[0], [1], [2], [3]]\n")
    assert lines("child.yaml") == [
        "child.yaml:6:23: table.bidder_plays_alone: nobody has a partner; auction.partner_overcall is inherited "
        "from parent.yaml:33: also set auction.partner_overcall: null",
        "child.yaml:6:23: table.bidder_plays_alone: nobody has a partner here, so the partner cannot raise; "
        'raise.by keeps its default, ["bidder", "partner"]: also override raise.by (without partner)']


def test_a_default_inside_a_mapping_the_child_wrote_is_reported_there(here: Path) -> None:
    """The child wrote the trump section, so the default concealed: true is its own to change."""
    write(here, "parent.yaml", (BAD / "_base.yaml").read_text(encoding="utf-8").replace("  concealed: true\n", ""))
    write(here, "child.yaml", "schema_version: 1\nname: child\nextends: ./parent.yaml\ndescription: d\n"
          "trump:\n  chosen: in_bid\nschedule:\n  - deal: 4\n  - auction\n  - deal: 4\n  - raise\n")
    assert lines("child.yaml") == [
        "child.yaml:5:1: trump.concealed: a trump named in the bid is public; set concealed: false"]


def test_a_value_set_by_the_checked_file_is_reported_where_it_is(here: Path) -> None:
    write(here, "house.yaml", "schema_version: 1\nname: house\nextends: twenty-eight\ndescription: d\n"
          "auction:\n  bids: {min: 29, max: 28}\n")
    assert lines("house.yaml") == ["house.yaml:6:15: auction.bids.min: the lowest bid 29 is above the top one, 28"]


def test_many_findings_in_an_overlay_stay_linear(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """5,000 inherited values that the overlay's change breaks, each blamed on the overlay: every dependency is
    indexed once, not scanned per finding (that scan was quadratic: minutes at 20,000). Counted, not timed: the
    origins are scanned once per distinct dependency, however many findings share it."""
    ties = ", ".join(['"8"'] * 5_000)
    base = (BAD / "_base.yaml").read_text(encoding="utf-8")
    bonus = "  last_trick_bonus: 0\n"
    write(here, "parent.yaml", base.replace(bonus, f"{bonus}  rank_ties: [[{ties}]]\n"))
    write(here, "house.yaml", "schema_version: 1\nname: h\nextends: ./parent.yaml\ndescription: d\ndeck:\n"
          "  ranks: [J, \"9\", A, T, K, Q, \"7\", \"6\"]\n")
    scans: list[KeyPath] = []
    real_index = _Blame.first_set

    def counted(self: _Blame, dep: KeyPath) -> dict[int, tuple[int, int, int, KeyPath, Origin]]:
        if dep not in self._first:
            scans.append(dep)
        return real_index(self, dep)

    monkeypatch.setattr(_Blame, "first_set", counted)
    found = lines("house.yaml")
    blamed = [line for line in found if line.startswith("house.yaml:6:10: deck.ranks: rank 8 is not in the deck")]
    assert len(blamed) == 5_000
    assert 0 < len(scans) == len(set(scans)) <= 4
