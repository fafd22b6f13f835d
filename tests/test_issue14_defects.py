"""The two defects issue 14 found, with the tests that would have caught them: score bands written on a bid step
must cover only the bids that exist, and stakes exchanged with a lone bidder must be conserved."""

from __future__ import annotations

from pathlib import Path

from engine import Action, Match, load_game
from engine.rules.load import check_ruleset

HEAD = "schema_version: 1\nname: house\ndescription: a house rule\n"


def test_bands_on_a_bid_step_cover_only_the_bids_that_exist(tmp_path: Path) -> None:
    path = tmp_path / "steps.yaml"
    base = Path(__file__).parent / "rulefiles" / "axes" / "partner-speech.yaml"   # bids 160-300 in tens
    path.write_text(HEAD + f"extends: {base}\nscoring:\n  bands:\n"
                    "    - {bids: [160, 190], made: 1, failed: -2}\n    - {bids: [200, 240], made: 2, failed: -3}\n"
                    "    - {bids: [250, 300], made: 3, failed: -4}\n")
    report = check_ruleset(path)
    assert report.ok, [p.message for p in report.problems]      # 191-199 are not bids: no gap
    gap = tmp_path / "gap.yaml"
    gap.write_text(path.read_text().replace("[200, 240]", "[210, 240]"))
    problems = [p.message for p in check_ruleset(gap).problems]
    assert problems == ["bid 200 is in no band"]                  # a real bid still must be covered


def test_an_extra_bid_needs_a_band_too(tmp_path: Path) -> None:
    path = tmp_path / "extra.yaml"
    path.write_text(HEAD + "extends: twenty-eight-flat\nauction:\n  bids: {min: 14, max: 26, extra: [28]}\n"
                    "scoring:\n  bands:\n    - {bids: [14, 26], made: 1, failed: -1}\n")
    assert [p.message for p in check_ruleset(path).problems] == ["bid 28 is in no band"]


def test_exchange_with_a_lone_bidder_conserves_the_stakes(tmp_path: Path) -> None:
    """Three players, exchange: a made contract moves the lone bidder by twice the amount and each opponent by
    minus it (it used to move each opponent by -v and the bidder by +v only)."""
    path = tmp_path / "swap.yaml"
    path.write_text(HEAD + "extends: twenty-eight-3p\nscoring:\n  method: exchange\n")
    game = load_game(path)
    hands = {0: "JS 9S JH 9H AS TS AH TH", 1: "JD 9D KS QS AD TD KH QH", 2: "JC 9C KD QD AC TC KC QC"}
    state = game.new_hand(2, hands=[game.layout.parse_cards(hands[s].split()) for s in range(3)])
    for text in ["0 bid 12", "1 pass", "2 pass", "0 trump JS", "0 play JH", "1 play KH", "2 play QC",
                 "0 play 9H", "1 play QH", "2 play KC", "0 play AH", "1 play QS", "2 play KD", "0 play TH",
                 "1 play KS", "2 play QD", "0 play 9S", "1 play TD", "2 play TC", "0 play AS", "1 play AD",
                 "2 play AC", "0 play TS", "1 play 9D", "2 play 9C", "0 play JS", "1 play JD", "2 play JC"]:
        state.apply(Action.parse(text))
    assert state.made and state.game_points == [2, -1]             # bids 12-19 made +1: from each of two
    change = Match(game).to_match_points(state)
    assert change == [2, -1, -1] and sum(change) == 0
