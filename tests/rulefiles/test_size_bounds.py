"""Rule files are bounded in what multiplies (bids, players x bids, cards): every game in RULES.md fits, the
largest file the bounds allow validates quickly, and one step beyond is refused with the bound in the message."""

from __future__ import annotations

import time
from pathlib import Path

from engine.rules import checks
from engine.rules.load import check_ruleset

RANKS8 = '[J, "9", A, T, K, Q, "8", "7"]'


def full_file(players: int, teams: str, ranks: str, copies: int, deals: list[int], bids: tuple[int, int, int],
              in_bid: bool, points: str = '{J: 200, "9": 2, A: 1, T: 1}', bands: int = 1) -> str:
    """A complete rule file (no extends) with `bands` score bands splitting the bid range."""
    low, high, step = bids
    values = list(range(low, high + 1, step))
    size = max(1, len(values) // bands)
    chunks = [values[i:i + size] for i in range(0, len(values), size)]
    band_lines = "".join(f"    - {{bids: [{c[0]}, {c[-1] if c is not chunks[-1] else high}], made: 1, failed: -1}}\n"
                         for c in chunks)
    trump = ("trump: {chosen: in_bid, concealed: false, no_trumps: true}\n" if in_bid else
             "trump: {chosen: after_auction, declared_as: card, concealed: true}\n")
    schedule = "".join(f"  - deal: {d}\n" for d in deals[:1]) + "  - auction\n" + (
        "" if in_bid else "  - trump\n") + "".join(f"  - deal: {d}\n" for d in deals[1:])
    return (f"schema_version: 1\nname: big\ndescription: as large as the bounds allow\n"
            f"table: {{players: {players}, teams: {teams}}}\n"
            f"deck: {{ranks: {ranks}, copies: {copies}, points: {points}}}\n"
            f"schedule:\n{schedule}auction:\n  bids: {{min: {low}, max: {high}, step: {step}}}\n{trump}"
            f"scoring:\n  bands:\n{band_lines}annul: {{one_hand_holds_all_of: null}}\n")


def check(tmp_path: Path, text: str, name: str = "big.yaml") -> list[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [p.message for p in check_ruleset(path).problems]


EIGHT = "[[0, 2, 4, 6], [1, 3, 5, 7]]"
TWELVE = "[[0, 2, 4, 6, 8, 10], [1, 3, 5, 7, 9, 11]]"
RANKS12 = '[J, "9", A, T, K, Q, "8", "7", "6", "5", "4", "3"]'


def test_the_largest_games_in_the_rules_digest_fit(tmp_path: Path) -> None:
    # 56 for eight players: 64 cards (a double pack of 8 ranks), bids 28-56 naming a trump or no-trumps
    assert check(tmp_path, full_file(8, EIGHT, RANKS8, 2, [4, 4], (28, 56, 1), True,
                                     points='{J: 3, "9": 2, A: 1, T: 1}')) == []
    # 304: bids 160-300 in tens on 32 cards (J 30, 9 20, A 11, T 10, K 3, Q 2)
    assert check(tmp_path, full_file(4, "[[0, 2], [1, 3]]", RANKS8, 1, [4, 4], (160, 300, 10), False,
                                     points='{J: 30, "9": 20, A: 11, T: 10, K: 3, Q: 2}')) == []


def test_largest_files_the_bounds_allow_validate_fast(tmp_path: Path) -> None:
    """Eight players, 64 cards, bids naming one of five trumps up to the bid-table bound, a band per bid; and
    twelve players with the most bids allowed. Generous bound: validating stays well under 2 s."""
    bids = checks.MAX_BID_ACTIONS // (8 * 5)
    widest = full_file(8, EIGHT, RANKS8, 2, [4, 4], (0, bids - 1, 1), True, bands=bids)
    most_bids = full_file(12, TWELVE, RANKS12, 1, [2, 2], (0, checks.MAX_BIDS - 1, 1), False,
                          bands=checks.MAX_BIDS)
    for name, text in (("widest.yaml", widest), ("most-bids.yaml", most_bids)):
        start = time.perf_counter()
        assert check(tmp_path, text, name) == [], name
        assert time.perf_counter() - start < 2.0, name


def test_one_bid_too_many_is_refused(tmp_path: Path) -> None:
    top = checks.MAX_BIDS
    assert check(tmp_path, full_file(4, "[[0, 2], [1, 3]]", RANKS8, 1, [4, 4], (0, top - 1, 1), False)) == []
    assert check(tmp_path, full_file(4, "[[0, 2], [1, 3]]", RANKS8, 1, [4, 4], (0, top, 1), False)) == [
        f"0-{top} in steps of 1 is {top + 1} different bids; jacknine allows at most {top} (use a larger step or "
        "a narrower range)"]


def test_players_times_bids_is_bounded(tmp_path: Path) -> None:
    bids = checks.MAX_BID_ACTIONS // (8 * 5)
    assert check(tmp_path, full_file(8, EIGHT, RANKS8, 2, [4, 4], (0, bids - 1, 1), True)) == []
    assert check(tmp_path, full_file(8, EIGHT, RANKS8, 2, [4, 4], (0, bids, 1), True)) == [
        f"8 players x {bids + 1} bids x 5 trump choices named in a bid make {8 * (bids + 1) * 5} possible bids; "
        f"jacknine allows at most {checks.MAX_BID_ACTIONS}"]


def test_the_largest_deck_the_types_allow_is_fine(tmp_path: Path) -> None:
    """A double pack of thirteen ranks, 26 cards a suit: the engine's tables do not grow with 2^26."""
    text = full_file(4, "[[0, 2], [1, 3]]", '[J, "9", A, T, K, Q, "8", "7", "6", "5", "4", "3", "2"]', 2,
                     [13, 13], (14, 28, 1), False)
    assert check(tmp_path, text) == []


def test_seventh_card_must_come_after_the_trump_step(tmp_path: Path) -> None:
    head = "schema_version: 1\nname: seventh\nextends: twenty-nine\ndescription: d\ntrump: {seventh_card: true}\n"
    six_before = head + "schedule:\n  - deal: 3\n  - deal: 3\n  - auction\n  - trump\n  - deal: 2\n"
    seven_before = head + "schedule:\n  - deal: 4\n  - deal: 3\n  - auction\n  - trump\n  - deal: 1\n"
    assert check(tmp_path, six_before) == []
    assert check(tmp_path, seven_before) == [
        "each player holds 7 cards before the trump step, so the bidder's seventh card is already in their hand "
        "and a hand would be played with no trump; deal it after the trump step"]


def test_a_pair_needs_a_rank(tmp_path: Path) -> None:
    text = "schema_version: 1\nname: p\nextends: twenty-nine\ndescription: d\nspecial:\n  pair:\n    ranks: []\n"
    assert check(tmp_path, text) == ["a pair needs at least one rank"]
