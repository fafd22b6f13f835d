"""The auction mechanisms of issue 14 on hands built card by card, each expectation worked out from the rule it
tests: calls exactly one step up with a value off the step, only the standing caller's opponents calling, a default
caller, a counting opposing side with a fixed target lowered by the call, the last-trick transfer, a redeal at the
trump step, the dealer who stays while behind, a void deal found before the first lead (tests/rulefiles/axes/
calls.yaml); and limits per speech, the partner speech with its hand-back and lapsed turn, a redeal by a points
threshold, a second auction of one turn each where a holder who bids again lays his trump anew, and an all-pass that
passes the deal on (partner-speech.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Action, IllegalActionError, Match, State, load_game
from engine.play.game import Game

AXES = Path(__file__).parent / "rulefiles" / "axes"


def game(name: str) -> Game:
    return load_game(AXES / f"{name}.yaml")


def deal(g: Game, dealer: int, hands: dict[int, str]) -> State:
    return g.new_hand(dealer, hands=[g.layout.parse_cards(hands[s].split()) for s in range(g.n)])


def run(state: State, *actions: str) -> State:
    for text in actions:
        state.apply(Action.parse(text))
    return state


def legal(state: State) -> list[str]:
    return [a.notation for a in state.legal_actions()]


def refused(state: State, text: str) -> str:
    with pytest.raises(IllegalActionError) as e:
        state.apply(Action.parse(text))
    return e.value.reason


# ------------------------------------------------------------------------------------------- calls
# Dealer 3, so seat 0 is the first hand and the default caller. First packets of four, then two more each.
SIX = {0: "JS 9S AS TS KS QS", 1: "JH 9H AH TH KH QH", 2: "JD 9D AD TD KD QD", 3: "JC 9C AC TC KC QC"}


def test_the_default_caller_cannot_call_at_his_first_turn() -> None:
    s = deal(game("calls"), 3, SIX)
    assert s.to_act == 0 and legal(s) == ["pass"]      # he holds the standing call of 0; only opponents call
    run(s, "0 pass")
    assert legal(s) == ["pass", "bid 10"]                # exactly one step above 0
    run(s, "1 bid 10")
    assert legal(s) == ["pass", "bid 20"]                # seat 2 is an opponent of seat 1
    run(s, "2 pass")
    assert legal(s) == ["pass"]                          # seat 3 is seat 1's partner
    assert "opponent" in refused(s, "3 bid 20")


def test_calls_go_exactly_one_step_up() -> None:
    s = run(deal(game("calls"), 3, SIX), "0 pass", "1 bid 10")
    assert "exactly the next one" in refused(s, "2 bid 30")
    assert "steps of 10" in refused(s, "2 bid 25")


def test_no_call_leaves_the_first_hand_caller_at_0() -> None:
    s = run(deal(game("calls"), 3, SIX), "0 pass", "1 pass", "2 pass", "3 pass")
    # the other three passed in a row: seat 0 is trumper at 0, and the opponents need 105
    assert s.phase_name == "trump" and s.bidder == 0 and s.bid == 0 and s.target == 105


def test_the_auction_ends_when_the_others_pass_after_the_last_call() -> None:
    s = run(deal(game("calls"), 3, SIX), "0 pass", "1 bid 10", "2 pass", "3 pass")
    assert s.phase_name == "auction" and s.to_act == 0
    run(s, "0 pass")
    assert s.phase_name == "trump" and s.bidder == 1 and s.bid == 10 and s.target == 95   # 105 less the call


def test_104_only_over_100() -> None:
    s = run(deal(game("calls"), 3, SIX), "0 pass")
    seat, value = 1, 10
    while value <= 100:
        run(s, f"{seat} bid {value}")
        seat = (seat + 1) % 4
        value += 10
    # seats 1, 2, 3, 0, 1, ... called 10, 20, ...: seat 2 called 100, and seat 3 may now call only 104
    assert s.high == 100 and s.high_bidder == 2 and s.to_act == 3
    assert legal(s) == ["pass", "bid 104"]
    run(s, "3 bid 104")
    assert legal(s) == ["pass"]                          # nothing above 104


def test_a_weak_trumper_may_ask_for_a_new_deal() -> None:
    weak = {0: "KS QS KH QH JS 9S", 1: "JH 9H AH TH AS TS", 2: "JD 9D AD TD KD QD", 3: "JC 9C AC TC KC QC"}
    s = run(deal(game("calls"), 3, weak), "0 pass", "1 pass", "2 pass", "3 pass")
    assert "redeal" in legal(s)                          # K Q K Q: 10 points, at most 10
    run(s, "0 redeal")
    assert s.status == "annulled"
    strong = run(deal(game("calls"), 3, SIX), "0 pass", "1 pass", "2 pass", "3 pass")
    assert "redeal" not in legal(strong)


# Seat 0 passes, and so do the others: he is trumper at 0 and lays 9S (spades concealed). Worked by hand:
# trick 1 AH JH QH KH to seat 1 (46); 2 9H TH TD KD to seat 1 (43); 3 QD JD 9D QC to seat 2 (54);
# 4 KS TC TS AS to seat 1 (34, no trump power while concealed); 5 QS AD AC JS to seat 0 (54);
# 6 the face-down 9S, exposed as led, KC 9C JC to seat 0 (73, and 10 from the losers): 191 against 113.
TRANSFER = {0: "JS 9S AH KD QC TS", 1: "AS JH 9H QD KC QS", 2: "KS TH QH JD 9C AD", 3: "JC AC TC 9D TD KH"}
TRANSFER_PLAY = ["0 play AH", "1 play JH", "2 play QH", "3 play KH", "1 play 9H", "2 play TH", "3 play TD",
                 "0 play KD", "1 play QD", "2 play JD", "3 play 9D", "0 play QC", "2 play KS", "3 play TC",
                 "0 play TS", "1 play AS", "1 play QS", "2 play AD", "3 play AC", "0 play JS", "0 play 9S",
                 "1 play KC", "2 play 9C", "3 play JC"]


def test_the_last_trick_is_a_transfer_and_the_opponents_count() -> None:
    s = run(deal(game("calls"), 3, TRANSFER), "0 pass", "1 pass", "2 pass", "3 pass", "0 trump 9S",
            *TRANSFER_PLAY)
    assert [t.points for t in s.tricks] == [46, 43, 54, 34, 54, 83]   # the last: 73 and the 10 taken
    assert s.team_points == [191, 113] and sum(s.team_points) == 304
    # seats 1 and 3 count against 105 (less a call of 0): 113 reaches it, so the trumper's contract failed,
    # and the opponents score the failed value of bid 0
    assert s.target == 105 and s.made is False and s.game_points == [0, 1]


def test_a_call_lowers_the_counting_sides_target() -> None:
    # the same cards with seat 1 calling 10 and seat 0 passing it: seat 1 is trumper (lays QD), the counting
    # side is seats 0 and 2 against 95
    s = run(deal(game("calls"), 3, TRANSFER), "0 pass", "1 bid 10", "2 pass", "3 pass", "0 pass")
    assert s.bidder == 1 and s.target == 95 and s.phase_name == "trump"


def test_the_dealer_stays_while_his_team_is_behind() -> None:
    g = game("calls")
    m = Match(g, seed=5)
    seen = 0
    while not m.is_over and seen < 40:
        state = m.new_hand()
        while not state.is_terminal:
            state.apply(state.legal_actions()[0])
        dealer = m.dealer
        m.record_hand(state)
        seen += 1
        if state.status == "complete":
            mine = g.team_of[dealer]
            behind = any(sc > m.scores[mine] for t, sc in enumerate(m.scores) if t != mine)
            assert m.dealer == (dealer if behind else (dealer + 1) % 4)
        else:
            assert m.dealer == dealer                    # a redeal or a void deal: the same dealer


def test_a_void_deal_is_found_before_the_first_lead() -> None:
    # seats 0 and 2 hold every spade; seat 0, trumper at 0, lays a spade: the deal is void before anyone leads
    void = {0: "JS 9S AS TS JH 9H", 1: "AH TH KH QH JC 9C", 2: "KS QS JD 9D AD TD", 3: "KD QD AC TC KC QC"}
    s = run(deal(game("calls"), 3, void), "0 pass", "1 pass", "2 pass", "3 pass", "0 trump JS")
    assert s.status == "annulled" and s.tricks == []


# ------------------------------------------------------------------------------------------- partner
# Dealer 3: seat 0 speaks first. Each seat's first packet is four cards of its own suit (J 9 A T: 71 points).
EIGHT = {0: "JS 9S AS TS KS QS 8S 7S", 1: "JH 9H AH TH KH QH 8H 7H", 2: "JD 9D AD TD KD QD 8D 7D",
         3: "JC 9C AC TC KC QC 8C 7C"}
BIDS_160 = [f"bid {v}" for v in range(160, 310, 10)]
BIDS_200 = [f"bid {v}" for v in range(200, 310, 10)]


def test_partner_speaks_in_the_askers_place_and_his_own_turn_lapses() -> None:
    s = deal(game("partner-speech"), 3, EIGHT)
    assert legal(s) == ["pass", *BIDS_160, "partner"]
    run(s, "0 partner")
    assert s.to_act == 2 and legal(s) == ["pass", *BIDS_160, "partner"]   # his own first speech; may hand back
    run(s, "2 bid 160")
    assert s.high_bidder == 2 and s.to_act == 1
    run(s, "1 pass")
    assert s.to_act == 3                                 # seat 2's own turn lapsed
    run(s, "3 pass")
    # seat 0 has spoken (his speech was used), and seat 2 is his partner: 200 at least
    assert legal(s) == ["pass", *BIDS_200, "partner"]
    run(s, "0 pass")
    assert s.phase_name == "trump" and s.bidder == 2 and s.bid == 160


def test_the_speech_handed_back_must_be_a_bid_or_a_pass() -> None:
    s = run(deal(game("partner-speech"), 3, EIGHT), "0 partner", "2 partner")
    assert s.to_act == 0 and legal(s) == ["pass", *BIDS_160]   # still his first speech; no third hand-over
    assert "bid or pass" in refused(s, "0 partner")
    run(s, "0 bid 170", "1 pass")
    assert s.to_act == 3                                 # seat 2 handed back: his own turn lapses too


def test_a_pass_for_the_asker_is_his_and_a_lapsed_turn_is_no_pass() -> None:
    # 0 passes (through 2), 1 and 3 pass; seat 2's lapsed turn is neither a bid nor a pass (MORE-GAMES.md 9.1), so
    # the auction goes round again until seat 2 himself has passed
    s = run(deal(game("partner-speech"), 3, EIGHT), "0 partner", "2 pass", "1 pass", "3 pass")
    assert s.status == "in_progress" and s.to_act == 0
    run(s, "0 pass", "1 pass")
    assert s.status == "in_progress" and s.to_act == 2
    run(s, "2 pass")
    assert s.status == "annulled" and s.annul_reason == "every player passed"


def test_limits_per_speech() -> None:
    s = deal(game("partner-speech"), 3, EIGHT)
    run(s, "0 bid 160")
    assert legal(s)[:2] == ["pass", "bid 170"]          # a first speech may overcall an opponent below 200
    run(s, "1 bid 170", "2 bid 180", "3 bid 190")
    assert legal(s)[:2] == ["pass", "bid 200"]          # seat 0 has spoken: 200 at least
    assert "higher than 190" in refused(s, "0 bid 190")
    over = run(deal(game("partner-speech"), 3, EIGHT), "0 bid 160", "1 pass")
    assert legal(over)[:2] == ["pass", "bid 200"]       # overcalling one's partner needs 200, even at first


def test_first_hand_with_few_points_may_ask_for_a_new_deal() -> None:
    weak = {**EIGHT, 0: "KS QS 8S 7S JS 9S AS TS"}   # K Q 8 7: 5 points, at most 14
    s = deal(game("partner-speech"), 3, weak)
    assert legal(s)[0] == "redeal"
    run(s, "0 redeal")
    assert s.status == "annulled"
    m = Match(game("partner-speech"))
    assert m.dealer == 0
    m.record_hand(s)
    assert m.dealer == 0                                # the same dealer after a redeal


def test_an_all_pass_passes_the_deal_on() -> None:
    s = run(deal(game("partner-speech"), 3, EIGHT), "0 pass", "1 pass", "2 pass", "3 pass")
    assert s.status == "annulled"
    m = Match(game("partner-speech"))
    m.record_hand(s)
    assert m.dealer == 1


def test_second_auction_once_each_and_a_new_fold() -> None:
    s = run(deal(game("partner-speech"), 3, EIGHT), "0 bid 160", "1 pass", "2 pass", "3 pass", "0 trump JS")
    assert s.phase_name == "auction" and s.round == 2 and s.to_act == 0   # the holder speaks first
    assert legal(s) == ["pass", *[f"bid {v}" for v in range(250, 310, 10)], "partner"]
    run(s, "0 pass", "1 bid 250", "2 pass")
    assert s.to_act == 3
    run(s, "3 pass")
    # everyone spoke once: seat 1 holds the contract at 250; seat 0's JS is back in his hand, seat 1 lays anew
    assert s.phase_name == "trump" and s.bidder == 1 and s.bid == 250 and s.contract_round == 2
    assert "JS" in s.view(0).to_dict()["hand"] and s.view(0).indicator is None
    run(s, "1 trump JH")
    assert s.phase_name == "play" and s.view(1).to_dict()["indicator"] == "JH" and s.view(0).trump is None


def test_a_holder_who_bids_again_lays_his_trump_anew() -> None:
    s = run(deal(game("partner-speech"), 3, EIGHT), "0 bid 160", "1 pass", "2 pass", "3 pass", "0 trump JS",
            "0 bid 250", "1 pass", "2 pass", "3 pass")
    assert s.phase_name == "trump" and s.bidder == 0 and "trump JS" in legal(s)   # the same card may be laid
    kept = run(deal(game("partner-speech"), 3, EIGHT), "0 bid 160", "1 pass", "2 pass", "3 pass", "0 trump JS",
               "0 pass", "1 pass", "2 pass", "3 pass")
    assert kept.phase_name == "play" and kept.bid == 160 and kept.contract_round == 1


def test_partner_in_the_second_auction_lapses_the_partners_turn() -> None:
    s = run(deal(game("partner-speech"), 3, EIGHT), "0 bid 160", "1 pass", "2 pass", "3 pass", "0 trump JS",
            "0 pass", "1 partner", "3 bid 250")
    assert s.to_act == 2
    run(s, "2 pass")
    # seat 3 spoke for seat 1, so his own turn lapses: the round is over, seat 3 holds it
    assert s.phase_name == "trump" and s.bidder == 3
