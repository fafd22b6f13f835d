"""`jacknine show` says what the engine does for each file: exact sentences for the rules that used to be
misdescribed, checked on shipped files and on house rules in a tmp folder of their own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rules.explain import show
from engine.rules.load import check_ruleset, load_ruleset, shipped_rulesets

HEAD = "schema_version: 1\nname: house\ndescription: a house rule\n"


def text_of(ref: str | Path) -> str:
    report = check_ruleset(ref)
    assert report.ok, report.problems
    return show(report)


def rules_lines(ref: str | Path) -> list[str]:
    """The rule sentences only: the header (name, description, sources, notes) is the file's own prose."""
    lines = text_of(ref).splitlines()
    first_section = lines.index("")
    return [line.strip() for line in lines[first_section:] if line.startswith("  ")]


def house(tmp_path: Path, body: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + body, encoding="utf-8")
    return path


# --------------------------------------------------------------------------------- compulsory calls
def test_twenty_nine_bidder_must_call_like_everyone() -> None:
    lines = rules_lines("twenty-nine")
    assert ("While the trump is concealed, every player who cannot follow suit, the bidder included, must call "
            "for it, which exposes it.") in lines
    assert not any(line.startswith("A bidder who cannot follow a plain suit may") for line in lines), \
        "under a compulsory call the bidder has no discard option"


def test_compulsory_call_with_bidder_barred_on_trump_leads(tmp_path: Path) -> None:
    path = house(tmp_path, "extends: twenty-nine\nplay:\n  bidder_while_concealed:\n"
                 "    when_trump_suit_led: follow_or_discard\n")
    lines = rules_lines(path)
    assert ("While the trump is concealed, every player who cannot follow suit must call for it, which exposes "
            "it; the bidder too when a plain suit is led.") in lines
    assert ("When another player leads the trump suit and the bidder cannot follow from hand, the bidder discards "
            "and may not call.") in lines


def test_optional_call_lists_the_bidders_discard_options() -> None:
    lines = rules_lines("twenty-eight")
    assert ("A bidder who cannot follow a plain suit may discard a card of another plain suit (holding none, they "
            "must call), or call and then play the indicator.") in lines


# ------------------------------------------------------------------------------ forced trump-suit lead
FORCED = "The bidder may not lead the trump suit while holding other suits; such a forced lead does not expose the "


def test_forced_trump_lead_under_retroactive_exposure() -> None:
    assert (FORCED + "trump, and it counts as a trump only if the trump is exposed later in that trick."
            ) in rules_lines("twenty-nine")


def test_forced_trump_lead_without_retroactive_exposure(tmp_path: Path) -> None:
    assert (FORCED + "trump, and it has no trump power, even if the trump is exposed later in that trick."
            ) in rules_lines("twenty-eight")
    path = house(tmp_path, "extends: twenty-nine\nplay:\n  reveal:\n    retroactive: false\n")
    assert (FORCED + "trump, and it has no trump power, even if the trump is exposed later in that trick."
            ) in rules_lines(path)


# ----------------------------------------------------------------------------------------- one suit
def test_one_suit_rule_for_the_first_hand_and_for_everyone(tmp_path: Path) -> None:
    assert "The first hand may not bid while holding cards of one suit only." in rules_lines("forty")
    path = house(tmp_path, "extends: forty\nauction:\n  one_suit_hand_may_not_bid: everyone\n")
    assert "Nobody may bid while holding cards of one suit only." in rules_lines(path)


# -------------------------------------------------------------------------------------------- scoring
def test_credited_losses_are_scored_by_the_opponents() -> None:
    lines = rules_lines("forty")
    assert "A made contract scores for the bidding team, a failed one for the opponents." in lines
    assert "Bids 20-29: made, the bidders score 1; failed, the opponents score 2." in lines
    assert not any("failed -" in line for line in lines)


def test_exchange_says_who_pays_whom() -> None:
    lines = rules_lines("fifty-six")
    assert "The losing side pays the winning side." in lines
    assert "Bids 28-39: made, the opponents pay the bidders 1; failed, the bidders pay the opponents 2." in lines
    assert "Bid 56: made, the opponents pay the bidders 4; failed, the bidders pay the opponents 5." in lines


def test_bidding_team_scoring_is_signed() -> None:
    lines = rules_lines("twenty-eight")
    assert "Only the bidding team's score moves." in lines
    assert "Bids 14-19: made +1, failed -2." in lines


def test_three_teams_are_each_credited(tmp_path: Path) -> None:
    """With three teams every other team's score moves by the amount (the engine's score_hand); under exchange
    each of them pays or is paid the amount, so the bidders move by twice it (stakes are conserved)."""
    path = house(tmp_path, "extends: twenty-eight-6p\nscoring:\n  method: opponents_credited\n")
    assert "Bids 12-19: made, the bidders score 1; failed, each other team scores 2." in rules_lines(path)
    path = house(tmp_path, "extends: twenty-eight-6p\nscoring:\n  method: exchange\n", "swap.yaml")
    assert ("Bids 12-19: made, each other team pays the bidders 1; failed, the bidders pay each other team 2."
            ) in rules_lines(path)


# ---------------------------------------------------------------------------------------------- 'C'
def test_only_the_bidder_says_c() -> None:
    lines = rules_lines("odisha")
    assert ("After a double, the bidder may say C instead of redouble while no match points are showing (every "
            "score still at 0): the hand is then worth 6 either way.") in lines
    assert not any("bidding team may say" in line for line in lines)


# ------------------------------------------------------------------------------------ lone bidder
NO_SIDES = re.compile(r"\b(teams?|partners?)\b", re.IGNORECASE)


def test_three_player_show_has_no_teams_or_partners() -> None:
    lines = rules_lines("twenty-eight-3p")
    assert [line for line in lines if NO_SIDES.search(line)] == []
    assert "Only the bidder's score moves." in lines
    assert "At the end, the bidder turns out to have held every trump." in lines
    assert "Every player starts at 0." in lines
    assert "\nPlayers\n" in text_of("twenty-eight-3p")


def test_lone_bidder_house_rule_with_every_feature_has_no_teams_or_partners(tmp_path: Path) -> None:
    """Pair, surrender, contracts, raise, doubling and the scoring methods, each worded for a lone bidder."""
    body = """extends: twenty-eight-3p
schedule:
  - deal: 4
  - auction
  - trump
  - deal: 4
  - raise
raise: {by: [bidder], min: 20, others_may_raise: true}
special:
  pair:
    bidding_team:
      - {bids: [12, 19], adjust: null}
      - {bids: [20, 28], adjust: -4}
  contracts:
    - {name: thani, who: bidder, made: 4, failed: -5}
  all_tricks:
    surrender: {}
  doubling:
    steps:
      - {name: double, by: opponents}
      - {name: redouble, by: bidding_team}
    fixed_stake: {}
"""
    for method in ("bidding_team", "opponents_credited", "exchange"):
        path = house(tmp_path, body + f"scoring:\n  method: {method}\n", f"alone-{method}.yaml")
        lines = rules_lines(path)
        assert [line for line in lines if NO_SIDES.search(line)] == [], method
    credited = rules_lines(tmp_path / "alone-opponents_credited.yaml")
    assert "Bids 12-19: made, the bidder scores 1; failed, each other player scores 2." in credited
    assert "Shown by one of the other players: target +4." in credited
    assert "After the full deal the bidder may raise once, to at least 20 and above the standing bid." in credited
    assert ("Then every other player in turn may raise too; another player who raises highest becomes the bidder "
            "and chooses a new trump.") in credited
    exchanged = rules_lines(tmp_path / "alone-exchange.yaml")
    # stakes exchanged with each opponent: the lone bidder moves by twice the amount (issue 14's defect 2)
    assert ("Bids 12-19: made, each other player pays the bidder 1; failed, the bidder pays each other player 2."
            ) in exchanged


# ------------------------------------------------------------------------------------ six players
def test_six_player_28_has_no_partner_overcall() -> None:
    assert load_ruleset("twenty-eight-6p").auction.partner_overcall is None
    assert not any("partner's standing bid" in line for line in rules_lines("twenty-eight-6p"))
    notes = load_ruleset("twenty-eight-6p").notes
    assert any("No partner-overcall rule" in n and "six-player section" in n for n in notes)


# ---------------------------------------------------------------------------------- the last trick
LAST = "If the trump is still concealed at the last trick, the indicator is the bidder's last card: "


def test_last_trick_exposure_true() -> None:
    assert LAST + "it is exposed as it is played and is a trump in that trick." in rules_lines("twenty-eight")


def test_last_trick_exposure_false(tmp_path: Path) -> None:
    path = house(tmp_path, "extends: twenty-eight\nplay:\n  reveal:\n    last_trick_forces_exposure: false\n")
    assert (LAST + "played without a call, it is an ordinary card with no trump power and the trump is never "
            "exposed; a bidder who cannot follow a plain suit may call first, making it an exposed trump."
            ) in rules_lines(path)


def test_last_trick_sentence_only_where_there_is_an_indicator_card(tmp_path: Path) -> None:
    named_suit = rules_lines("twenty-nine")
    assert not any("concealed at the last trick" in line for line in named_suit), "a named suit, no card"
    path = house(tmp_path, "extends: twenty-nine\ntrump:\n  seventh_card: true\n")
    assert ("If the seventh card is the indicator and the trump is still concealed at the last trick, it is the "
            "bidder's last card: it is exposed as it is played and is a trump in that trick.") in rules_lines(path)
    path = house(tmp_path, "extends: twenty-nine\ntrump:\n  seventh_card: true\n"
                 "play:\n  reveal:\n    last_trick_forces_exposure: false\n")
    assert ("If the seventh card is the indicator and the trump is still concealed at the last trick, it is the "
            "bidder's last card: played without a call, it is an ordinary card with no trump power and the trump "
            "is never exposed (so the hand is annulled); a bidder who cannot follow a plain suit may call first, "
            "making it an exposed trump.") in rules_lines(path)


def test_bidder_who_must_call_on_a_trump_lead_then_plays_the_indicator(tmp_path: Path) -> None:
    path = house(tmp_path, "extends: twenty-eight\nplay:\n  bidder_while_concealed:\n"
                 "    when_trump_suit_led: must_call\n")
    assert ("When another player leads the trump suit and the bidder cannot follow from hand, the bidder must "
            "call and then play the indicator.") in rules_lines(path)
    assert ("When another player leads the trump suit and the bidder cannot follow from hand, the bidder must "
            "call and then play any card.") in rules_lines("twenty-nine")


# ------------------------------------------------------------------------------------ everything
@pytest.mark.parametrize("name", sorted(shipped_rulesets()))
def test_show_reads_cleanly_for_every_shipped_file(name: str) -> None:
    lines = rules_lines(name)
    assert lines
    for line in lines:
        assert line[0].isupper() or line[0].isdigit() or line[0] == "`" or line.split()[0].islower(), line
        assert "  " not in line and " ," not in line and ",." not in line and ".." not in line, line


# ------------------------------------------------------------------------------ issue 14's auction mechanisms
AXES = Path(__file__).parent / "axes"


def test_calls_exactly_one_step_with_a_default_caller() -> None:
    lines = rules_lines(AXES / "calls.yaml")
    assert "Bids from 10 to 100 in steps of 10, then 104, each higher than the last." in lines
    assert "Each bid is exactly the next one above the standing bid: no jumps." in lines
    assert "Only an opponent of the standing bidder may bid." in lines
    assert ("The first hand holds a standing bid of 0 before anyone bids; if nobody bids, he is the bidder at 0."
            in lines)
    assert ("The auction ends when all the other players have passed in a row after a bid (the standing bidder's "
            "own passes do not count).") in lines
    assert ("Instead of choosing the trump, a bidder whose cards total at most 10 points may ask for a new deal "
            "(`redeal`).") in lines
    assert ("The opponents count their card points against a target of 105, less the bid: the contract is made when "
            "they stay below it.") in lines
    assert ("The side that wins the last trick takes 10 card points from the opponents (they count toward the "
            "contract).") in lines
    assert ("After a scored hand the dealer deals again while his team's score is below another team's; otherwise "
            "the deal passes to the next player.") in lines
    assert "Once every step is done, before the first lead: the bidding team was dealt every trump." in lines


def test_partner_speech_and_a_second_auction_of_one_turn_each() -> None:
    lines = rules_lines(AXES / "partner-speech.yaml")
    assert ("Once a player has spoken (a bid, a pass, or a speech his partner made for him), his bids are at least "
            "200.") in lines
    assert ("A player may say `partner` at his turn: his partner at once bids or passes in his place, or hands it "
            "back once (the asker must then bid or pass); it counts as a speech of both, and the partner's own next "
            "turn lapses: neither a bid nor a pass, so the auction ends only once every player but the holder has "
            "passed since the standing bid, and a player whose turn lapsed is asked again when it comes round."
            ) in lines
    assert ("The first hand may ask for a new deal at their first turn if their cards total at most 14 points. A "
            "`partner` speech is a first speech of both partners: after it, no redeal.") in lines
    assert "If every player passes, the deal passes to the next player." in lines
    assert "Every player speaks once." in lines
    assert ("A holder who bid again in this auction and stays holder lays his trump card anew (it may be the same "
            "card).") in lines
    assert "Bids 160-190: made, the opponents pay the bidders 1; failed, the bidders pay the opponents 2." in lines


def test_kerala_rounds_change_and_concede() -> None:
    lines = rules_lines("twenty-eight-kerala")
    assert "5. Second auction (see below)." in lines
    assert ("A player who passed may bid again later; it ends when all the others have passed in a row after the "
            "last bid (with no bid, once every player has passed).") in lines
    assert ("A holder who stays holder keeps his trump card, unless one of his speeches in this auction was marked "
            "change (`bid N change`, `pass change`): then he lays it anew.") in lines
    assert ("The contract holder may concede (`concede`) instead of laying the trump card after the first auction; "
            "instead of laying it anew after the second auction (a holder who keeps it concedes in play); at any of "
            "his turns to play while his side has not reached its target: play stops and the contract counts as "
            "failed, scored as a contract of the round that fixed it.") in lines
    assert ("Bids 24-28 fixed in round 2: made, the opponents pay the bidders 2; failed, the bidders pay the "
            "opponents 3.") in lines
    three = rules_lines("twenty-eight-kerala-3p")
    assert "The stake is exchanged between the bidder and each other player separately, so stakes are conserved." \
        in three
    assert ("Bids 12-18 fixed in round 1: made, each other player pays the bidder 1; failed, the bidder pays each "
            "other player 1.") in three


def test_doubling_windows_captures_shortfall_and_sets() -> None:
    assert ("In the auction, at their turn, an opponent of the standing bid may double (the paid side receives 1 "
            "more), then a player of the standing bid's side may redouble (the paid side receives 1 more, +2 in "
            "all); each once per bid. A higher bid cancels them, and the auction goes on."
            ) in rules_lines("fifty-six-8p")
    assert ("After every other step, just before the first lead, an opponent may double (x2), then the bidding team "
            "may redouble (x2, x4 in all).") in rules_lines("kotah")
    assert ("A side whose tricks hold all four Jacks scores 1 more game point, whatever the contract did."
            ) in rules_lines("four-jacks-honour")
    assert ("Falling short of the bid by 14 card points or more, the bidding team loses as many game points as the "
            "bid instead.") in rules_lines("bhangi")
    assert ("Scores are kept in sets: a team reaching +6 opens a red set, -6 a black one, and its score returns to "
            "0; sets of one colour open on every side cancel one for one. A team with 3 red sets open wins the "
            "match.") in rules_lines("sets")
