"""Rule axes from RULES.md 10/11 beyond the shipped files, each switched on by a small test rule file in
tests/rulefiles/axes/ and checked on a hand built card by card."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Action, IllegalActionError, State, load_game
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


def legal(state: State) -> set[str]:
    return {a.notation for a in state.legal_actions()}


ONE_SUIT_EACH = {0: "JH 9H AH TH KH QH 8H 7H", 1: "JS 9S AS TS KS QS 8S 7S",
                 2: "JD 9D AD TD KD QD 8D 7D", 3: "JC 9C AC TC KC QC 8C 7C"}


def test_partner_overcall_forbidden() -> None:
    s = run(deal(game("nair"), 3, ONE_SUIT_EACH), "0 bid 14", "1 pass")
    assert legal(s) == {"pass"}                       # seat 2 may not overbid partner 0
    run(s, "2 pass", "3 bid 15")
    assert "bid 16" in legal(s)                       # seat 0 may overbid the opponents
    run(s, "0 bid 16")
    assert "bid 17" in legal(s)                       # seat 1 overbids an opponent (its partner's 15 is beaten)
    run(s, "1 pass")
    assert legal(s) == {"pass"}                       # seat 2 may not overbid its partner 0's standing 16


def test_partner_overcall_forbidden_message() -> None:
    s = run(deal(game("nair"), 3, ONE_SUIT_EACH), "0 bid 14", "1 pass")
    with pytest.raises(IllegalActionError) as e:
        s.apply(Action.parse("2 bid 20"))
    assert "partner" in e.value.reason


def test_hold_equal_bid_and_max_bid_ends() -> None:
    g = game("hold-29")
    s = run(deal(g, 3, ONE_SUIT_EACH), "0 bid 15", "1 bid 16", "2 pass", "3 pass")
    assert "bid 16" in legal(s) and "bid 15" not in legal(s)   # the earlier speaker may hold 16
    run(s, "0 bid 16")
    assert min(int(a.arg) for a in s.legal_actions() if a.verb == "bid") == 17  # the later speaker must go over
    run(s, "1 bid 29")
    assert s.phase_name == "trump" and s.bidder == 1            # the maximum ends the auction at once


def test_dealer_forced_bid_value() -> None:
    s = run(deal(game("hold-29"), 3, ONE_SUIT_EACH), "0 pass", "1 pass", "2 pass")
    assert legal(s) == {"bid 15"}
    run(s, "3 bid 15")
    assert s.bidder == 3 and s.phase_name == "trump"


E7 = {0: "JD 8H 7H 8S 7S 8C 7C QD", 1: "7D QS KS AS TS 9S JS 9H", 2: "AD QH KH AH TH JH 9C 8D",
      3: "TD QC KC AC TC JC 9D KD"}


def test_reversed_no_trumps_e7() -> None:
    """E7: no-trumps with reversed ranks: West leads JD, North 7D, East AD, South TD - North's 7D wins, 5 points."""
    g = game("delhi-reverse")           # twenty-nine, clockwise: dealer South = seat 3, West 0, North 1, East 2
    s = run(deal(g, 3, E7), "0 pass", "1 pass", "2 pass", "3 bid 16", "3 trump NT")
    assert s.legal_actions()[0].seat == 0
    run(s, "0 play JD", "1 play 7D", "2 play AD", "3 play TD")
    t = s.tricks[0]
    assert t.winner == 1 and t.points == 5
    assert s.view(1).trump is None                      # nobody else knows it is no-trumps yet
    assert "show pair" not in legal(s)


def test_kerala_bidder_discards_any_and_second_auction() -> None:
    g = game("kerala-house")            # twenty-eight, everyone may raise after the full deal
    s = run(deal(g, 3, ONE_SUIT_EACH), "0 bid 14", "1 pass", "2 pass", "3 pass", "0 trump TH")
    assert s.phase_name == "raise" and s.to_act == 0
    run(s, "0 pass", "2 pass", "1 raise 24", "3 pass")
    # seat 1 took the contract over: it chooses a new trump, and seat 0 has its indicator back
    assert s.phase_name == "trump" and s.bidder == 1 and s.bid == 24
    view = s.view(0)
    assert [view.code(c) for c in view.hand_cards()].count("TH") == 1 and view.indicator is None
    run(s, "1 trump 7S", "0 play JH")
    # the bidder, void in hearts, may discard a spade (no power while concealed) or call and play the indicator
    assert legal(s) == {"call", "play JS", "play 9S", "play AS", "play TS", "play KS", "play QS", "play 8S"}
    run(s, "1 play JS", "2 play 7D", "3 play 7C")
    assert s.tricks[0].winner == 0                      # JS had no trump power


def test_kerala_bidder_call_must_play_indicator() -> None:
    g = game("kerala-house")
    s = run(deal(g, 3, ONE_SUIT_EACH), "0 bid 14", "1 pass", "2 pass", "3 pass", "0 trump TH",
            "0 pass", "2 pass", "1 raise 24", "3 pass", "1 trump 7S", "0 play JH", "1 call")
    assert legal(s) == {"play 7S"}


STRICT = {0: "AS KS QS 8S 7S AH KH QH", 1: "9D AD TD KD 9H 8H 7H TH", 2: "JD 8D 7D JC 9C AC TC KC",
          3: "JS 9S TS JH QD QC 8C 7C"}


def test_no_undertrump_and_jack_rule_counts_played_suits() -> None:
    g = game("strict-open")
    s = run(deal(g, 3, STRICT), "0 bid 14", "1 bid 15", "2 pass", "3 pass", "0 pass", "1 trump D",
            "1 pass", "3 pass", "0 play AS", "1 play 9D")
    # seat 2, void in spades: over-trump with JD or discard a club; never 7D/8D under 9D, nor JC (no club played)
    assert legal(s) == {"play JD", "play 9C", "play AC", "play TC", "play KC"}
    with pytest.raises(IllegalActionError):
        s.apply(Action.parse("2 play 8D"))
    run(s, "2 play 9C", "3 play TS", "1 play 9H")
    assert "play JC" in legal(s)                        # a club has been played now, so its Jack may go
