"""RULES.md section 12: every twenty-eight and twenty-nine worked example as an explicit test.

The examples name seats N/E/S/W. Seats here are numbered in playing order: for twenty-eight (counter-clockwise,
S->E->N->W) S=0, E=1, N=2, W=3; for E5 (twenty-nine, clockwise, dealer South so West leads) W=0, N=1, E=2, S=3.
Each example is played from an explicit deal through the public API (`new_hand(dealer, hands=...)`, `apply`).
E10's scoring lines reuse the play of golden records in tests/hands with the bid (or doubling) changed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from engine.errors import IllegalActionError
from engine.play.actions import Action
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.record import read_record

TESTS = Path(__file__).parent
RETRO = str(TESTS / "rulefiles" / "variants" / "twenty-eight-retroactive.yaml")
S000 = str(TESTS / "rulefiles" / "variants" / "twenty-eight-s000-bidder-void.yaml")
S, E, N, W = 0, 1, 2, 3  # twenty-eight seats in playing order


def start(ruleset: str, dealer: int, hands: list[str], actions: Sequence[str] = ()) -> State:
    g = load_game(ruleset)
    state = g.new_hand(dealer, hands=[g.layout.parse_cards(h.split()) for h in hands])
    return act(state, actions)


def act(state: State, actions: Sequence[str]) -> State:
    for a in actions:
        state.apply(Action.parse(a))
    return state


def legal(state: State) -> list[str]:
    return sorted(a.notation for a in state.legal_actions())


def refused(state: State, action: str) -> str:
    before = (list(state.history), list(state.hands), state.to_act)
    with pytest.raises(IllegalActionError) as err:
        state.apply(Action.parse(action))
    assert (list(state.history), list(state.hands), state.to_act) == before
    return str(err.value)


# --- E1: cards played before the reveal are not trumps -----------------------------------------------------
# Bidder W (seat 3) lays JC (clubs); S leads trick 1.
E1_HANDS = ["8H 7H KH QH JS 9S 8D 7D", "AC 9C JD 9D AS TS AD TD", "QC 8C KD QD KS QS 8S 7S",
            "JC TC AH TH JH 9H KC 7C"]
E1_ACTIONS = ["0 bid 14", "1 pass", "2 pass", "3 bid 15", "0 pass", "1 pass", "2 pass", "3 trump JC", "3 pass",
              "1 pass", "0 play 8H", "1 play AC", "2 call", "2 play QC", "3 play AH"]


def test_e1_cards_before_the_reveal_are_not_trumps() -> None:
    s = start("twenty-eight", W, E1_HANDS, E1_ACTIONS)
    t = s.tricks[0]
    assert (t.winner, t.points) == (N, 2)
    assert s.team_points == [2, 0]  # N-S


def test_e1_caller_must_trump() -> None:
    s = start("twenty-eight", W, E1_HANDS, E1_ACTIONS[:-2])
    assert legal(s) == ["play 8C", "play QC"]
    assert refused(s, "2 play KD") == "you called for the trump and must play a trump (clubs)"


def test_e1_retroactive_variant_flips_the_winner() -> None:
    s = start(RETRO, W, E1_HANDS, E1_ACTIONS)
    assert (s.tricks[0].winner, s.tricks[0].points) == (E, 2)


# --- E2: trump suit led before the reveal ------------------------------------------------------------------
# Dealer E (seat 1), so N (seat 2) is first hand and leads; bidder S lays 8S.
E2_HANDS = ["8S KS AH TH JC 9C 8H 7H", "9S 7S JD 9D AD TD KH QH", "JS AS TS QS JH 9H KD QD",
            "7D 8D AC TC KC QC 8C 7C"]
E2_PREFIX = ["2 bid 14", "3 bid 15", "0 bid 16", "1 pass", "2 pass", "3 pass", "0 trump 8S", "0 pass", "2 pass",
             "2 play JS", "3 call", "3 play 7D", "0 play KS"]


@pytest.mark.parametrize(("ruleset", "east", "winner", "points"), [
    ("twenty-eight", "9S", E, 5),
    ("twenty-eight", "7S", S, 3),
    (RETRO, "9S", N, 5),
    (RETRO, "7S", N, 3),
])
def test_e2_trump_suit_led_before_the_reveal(ruleset: str, east: str, winner: int, points: int) -> None:
    s = start(ruleset, E, E2_HANDS, E2_PREFIX + [f"1 play {east}"])
    t = s.tricks[0]
    assert (t.winner, t.points) == (winner, points)
    assert s.exposed_trick == 1


def test_e2_the_indicator_joins_the_bidders_hand() -> None:
    g = load_game("twenty-eight")
    s = start("twenty-eight", E, E2_HANDS, E2_PREFIX[:11])  # West has called
    assert s.hands[S] >> g.layout.parse_cards(["8S"])[0] & 1


# --- E3: the concealed trump suit has no power in phase 1 ---------------------------------------------------
E3_HANDS = ["KD QD JS 9S AS TS 8C 7C", "9H 7D 8H 7H JC 9C KS QS", "AD TD 8D 9D JD 8S 7S QH",
            "JH AH TH KH QC AC TC KC"]


def test_e3_concealed_trump_has_no_power() -> None:
    s = start("twenty-eight", W, E3_HANDS, ["0 bid 14", "1 bid 15", "2 pass", "3 pass", "0 pass", "1 trump 9H",
                                           "1 pass", "3 pass", "0 play KD", "1 play 7D", "2 play AD", "3 play JH"])
    assert s.concealed
    assert (s.tricks[0].winner, s.tricks[0].points) == (N, 4)


# --- E4: bidder void in a plain suit ------------------------------------------------------------------------
# East (seat 1) bids and lays 9H; three tricks later East holds 8H KH 7C QC and North leads AS.
E4_HANDS = ["JD QD TD AC 8S JS 9S TS", "9H 8H KH 7C QC 7D 8D 8C", "AD KD JC AS KS TC KC 7H",
            "9D 7S 9C QS JH AH TH QH"]
E4_ACTIONS = ["0 bid 14", "1 bid 15", "2 pass", "3 pass", "0 pass", "1 trump 9H", "1 pass", "3 pass",
              "0 play JD", "1 play 7D", "2 play AD", "3 play 9D",
              "0 play QD", "1 play 8D", "2 play KD", "3 play 7S",
              "2 play JC", "3 play 9C", "0 play AC", "1 play 8C",
              "2 play AS", "3 play QS", "0 play 8S"]


def _e4(ruleset: str) -> State:
    s = start(ruleset, W, E4_HANDS, E4_ACTIONS)
    g = s.game
    assert s.to_act == E and s.concealed
    assert sorted(g.codes[c] for c in range(g.size) if s.hands[E] >> c & 1) == ["7C", "8H", "KH", "QC"]
    return s


def test_e4_pagat_bidder_void_in_a_plain_suit() -> None:
    s = _e4("twenty-eight")
    assert legal(s) == ["call", "play 7C", "play QC"]
    for card in ("8H", "KH"):
        assert refused(s, f"1 play {card}") == ("the bidder may not play a card of the concealed trump suit from "
                                                "hand: discard another suit, or call and play the indicator")
    act(s, ["1 call"])
    assert legal(s) == ["play 9H"]


def test_e4_s000_variant_discard_any_or_any_trump() -> None:
    s = _e4(S000)
    assert legal(s) == ["call", "play 7C", "play 8H", "play KH", "play QC"]
    act(s, ["1 call"])
    assert legal(s) == ["play 8H", "play 9H", "play KH"]


# --- E5: twenty-nine, compulsory call, no duty to trump ------------------------------------------------------
E5_HANDS = ["KS QS 8S 7S JD 9D AD TD", "7C 8H JC 9C AC TC KC QC", "TH JH 9H AH KD QD 8D 7D",
            "AS JS 9S TS KH QH 7H 8C"]
E5_EAST, E5_SOUTH = 2, 3  # W=0, N=1


def test_e5_compulsory_call_and_no_duty_to_trump() -> None:
    s = start("twenty-nine", E5_SOUTH, E5_HANDS, ["0 pass", "1 pass", "2 pass", "3 bid 16", "3 trump H", "0 play KS"])
    assert legal(s) == ["call"]  # North is the first player unable to follow
    assert refused(s, "1 play 7C") == "you must call for the trump: you are the first player unable to follow suit"
    act(s, ["1 call", "1 play 7C", "2 play TH", "3 play AS"])
    t = s.tricks[0]
    assert (t.winner, t.points) == (E5_EAST, 2)
    assert s.team_points == [2, 0]  # E-W are team {0, 2}


def test_e5_under_28_rules_the_caller_must_trump() -> None:
    # The same trick in twenty-eight: South's first packet holds KH, laid as the indicator.
    hands = list(E5_HANDS)
    hands[E5_SOUTH] = "KH JS 9S TS AS QH 7H 8C"
    s = start("twenty-eight", E5_SOUTH, hands, ["0 bid 14", "1 pass", "2 pass", "3 bid 15", "0 pass", "1 pass",
                                          "2 pass", "3 trump KH", "3 pass", "1 pass", "0 play KS", "1 call"])
    assert refused(s, "1 play 7C") == "you called for the trump and must play a trump (hearts)"
    assert legal(s) == ["play 8H"]


# --- E9: twenty-eight bidding legality ----------------------------------------------------------------------
E9_HANDS = ["JS 9S AH TH KD QD 8C 7C", "9H 8H 7H AS KC QC JD TD", "JH AD 9D 8D 7D TS KS QS",
            "JC 9C AC TC KH QH 8S 7S"]
POINTLESS = ["KS QH 8D 7C JS 9S AH TH", "9H 8H 7H AS KC QC JD TD", "JH AD 9D KD 7D TS QD QS",
             "JC 9C AC TC KH 8C 8S 7S"]


def test_e9_bidding_legality() -> None:
    s = start("twenty-eight", 3, E9_HANDS)
    assert refused(s, "0 pass") == "the first hand must open the bidding"
    act(s, ["0 bid 16", "1 pass"])
    assert refused(s, "2 bid 17") == "to overcall your partner's bid after a pass you must bid at least 20"
    act(s, ["2 bid 20"])
    assert [a for a in legal(s) if a != "pass"][0] == "bid 21"
    act(s, ["3 pass", "0 pass"])
    assert s.phase_name == "auction"
    act(s, ["1 pass"])  # three passes in a row
    assert s.phase_name == "trump" and s.bidder == 2
    act(s, ["2 trump 9D"])
    assert s.to_act == 2 and s.phase_name == "raise"
    assert refused(s, "2 raise 22") == "a raise must be at least 24"
    act(s, ["2 raise 24"])
    assert s.bid == 24 and s.to_act == 0  # then the partner, never an opponent
    assert "raise 24" not in legal(s)
    act(s, ["0 pass"])
    assert s.phase_name == "play"


def test_e9_pointless_first_hand_may_demand_a_redeal() -> None:
    s = start("twenty-eight", 3, POINTLESS)
    assert "redeal" in legal(s) and "pass" not in legal(s)
    act(s, ["0 redeal"])
    assert s.status == "annulled"


# --- E10: scoring -------------------------------------------------------------------------------------------
def golden(name: str) -> tuple[int, list[str], list[str]]:
    rec = read_record(TESTS / "hands" / f"{name}.yaml")
    assert rec.hands is not None
    return rec.dealer, [" ".join(h) for h in rec.hands], list(rec.actions)


def replace(actions: list[str], old: str, new: list[str]) -> list[str]:
    i = actions.index(old)
    return actions[:i] + new + actions[i + 1:]


@pytest.mark.parametrize(("record", "bid", "points", "game_points"), [
    ("28-band1-made", 19, 20, 1),      # 14-19 made
    ("28-band1-failed", 19, 16, -2),   # 14-19 failed
    ("28-band1-made", 20, 20, 2),      # 20-24 made
    ("28-band1-made", 24, 20, -3),     # 20-24 failed
    ("28-band3-made-after-raise", 25, 28, 3),
    ("28-band1-made", 25, 20, -4),
])
def test_e10_twenty_eight_bands(record: str, bid: int, points: int, game_points: int) -> None:
    dealer, hands, actions = golden(record)
    # the same play with another opening bid and no raise
    actions = [f"{a[0]} pass" if " raise " in a else a for a in actions]
    actions = replace(actions, next(a for a in actions if " bid " in a), [f"0 bid {bid}"])
    s = start("twenty-eight", dealer, hands, actions)
    assert s.status == "complete"
    assert (s.bid, s.team_points[0], s.game_points) == (bid, points, [game_points, 0])


PAIR_OWN = "29-pair-bidding-team"       # seat 0 (bidder) shows KH QH after winning trick 1
PAIR_OPP = "29-pair-opponents"          # seat 3 (opponent) shows KH QH in trick 3


def _pair_target(ruleset: str, record: str, bid: int) -> tuple[State, int]:
    dealer, hands, actions = golden(record)
    actions = replace(actions, next(a for a in actions if " bid " in a), [f"0 bid {bid}"])
    cut = actions.index(next(a for a in actions if a.endswith("show pair")))
    s = start(ruleset, dealer, hands, actions[:cut])
    shower = int(actions[cut].split()[0])
    if "show pair" not in legal(s):
        return s, s.target
    act(s, [f"{shower} show pair"])
    return s, s.target


@pytest.mark.parametrize(("ruleset", "record", "bid", "target"), [
    ("twenty-nine", PAIR_OWN, 20, 16),     # bidding side's pair: -4
    ("twenty-nine", PAIR_OPP, 20, 24),     # opponents' pair: +4
    ("twenty-nine", PAIR_OPP, 26, 28),     # capped at 28
    ("twenty-nine", PAIR_OPP, 19, 23),     # RUM29: bid 19, opponents show royals
    ("west-bengal-pair", PAIR_OWN, 18, 18),  # no pair for bids 16-18
    ("west-bengal-pair", PAIR_OWN, 19, 16),  # 19 takes three off
    ("west-bengal-pair", PAIR_OPP, 18, 22),  # the opponents' pair is always +4
])
def test_e10_pair_targets(ruleset: str, record: str, bid: int, target: int) -> None:
    assert _pair_target(ruleset, record, bid)[1] == target


def test_e10_west_bengal_pair_not_offered_for_low_bids() -> None:
    s, _ = _pair_target("west-bengal-pair", PAIR_OWN, 18)
    assert "show pair" not in legal(s)
    assert "may not show a pair at a bid of 18 (it may at bids 19, 20-28)" in refused(s, "0 show pair")  # issue 18


def _doubled(ruleset: str, bid: int, window: list[str], with_pair: bool) -> State:
    """The play of 29-pair-bidding-team (bidders take 17) with another bid and a doubling window after the trump."""
    dealer, hands, actions = golden(PAIR_OWN)
    actions = replace(actions, "0 bid 20", [f"0 bid {bid}"])
    actions = replace(actions, "0 trump H", ["0 trump H", *window])
    if not with_pair:
        actions.remove("0 show pair")
    return start(ruleset, dealer, hands, actions)


@pytest.mark.parametrize(("ruleset", "bid", "window", "with_pair", "made", "game_points"), [
    ("double-redouble", 18, ["1 double", "0 pass", "2 pass"], True, True, 2),            # doubled, made
    ("double-redouble", 18, ["1 double", "0 redouble"], False, False, -4),              # redoubled, failed
    ("gorakhpur", 21, ["1 pass", "3 pass"], True, True, 2),                             # auto-double: worth 2
    ("gorakhpur", 21, ["1 double"], True, True, 4),                                     # doubled to the cap
    ("gorakhpur", 21, ["1 double"], False, False, -4),
])
def test_e10_doubling(ruleset: str, bid: int, window: list[str], with_pair: bool, made: bool,
                      game_points: int) -> None:
    s = _doubled(ruleset, bid, window, with_pair)
    assert s.status == "complete"
    assert s.team_points[0] == 17
    assert (s.made, s.game_points) == (made, [game_points, 0])


def test_e10_gorakhpur_no_redouble_past_the_cap() -> None:
    s = _doubled("gorakhpur", 21, ["1 double"], True)
    assert s.multiplier == 4
    s = _doubled("gorakhpur", 20, ["1 double", "0 pass", "2 pass"], True)
    assert s.multiplier == 2  # bids up to 20 double and redouble normally
    s = _doubled("gorakhpur", 20, ["1 double", "0 redouble"], True)
    assert s.multiplier == 4


def test_e10_odisha_half_bid_rule() -> None:
    # The play of E5 with North (seat 1) bidding 20 for hearts: the bidders take 0 of 29 (< 10): -2, not -1.
    dealer, hands, actions = golden("29-e5-compulsory-call-no-duty-to-trump")
    actions = ["0 pass", "1 bid 20", "2 pass", "3 pass", "0 pass", "1 trump H", "2 pass", "0 pass"] + actions[5:]
    s = start("odisha", dealer, hands, actions)
    assert s.status == "complete" and s.bidder == 1
    assert s.team_points[1] < 10
    assert s.game_points == [0, -2]
    s = start("double-redouble", dealer, hands, actions)
    assert s.game_points == [0, -1]


def test_e10_redeal_on_four_jacks() -> None:
    hands = ["9S AS TS KS 9H AH TH KH", "QS 8S 7S QH 8H 7H 9D AD", "JS JH 9C AC JD JC TC KC",
             "TD KD QD 8D 7D QC 8C 7C"]
    s = start("twenty-eight", 3, hands, ["0 bid 14", "1 pass", "2 pass", "3 pass"])
    assert s.status == "in_progress"  # only two Jacks are dealt yet
    act(s, ["0 trump 9S"])
    assert s.status == "annulled"


def test_e10_redeal_when_the_bidding_team_held_all_trumps() -> None:
    dealer, hands, actions = golden("28-annul-bidding-team-held-all-trumps")
    s = start("twenty-eight", dealer, hands, actions[:-1])
    assert s.status == "in_progress"
    act(s, actions[-1:])
    assert s.status == "annulled" and s.game_points == [0, 0]


# --- E6 and E8: equal cards, first played wins ---------------------------------------------------------------
def _deal_with_first_trick(g: Game, cards: list[str], seed: int) -> list[list[int]]:
    """A deal where seat i holds cards[i] as its only card of the led suit (seat 0 also gets the suit's other
    cards), so every seat can follow with exactly the card the example names."""
    ids = g.layout.parse_cards(cards)
    suit = g.suit_of[ids[0]]
    each = g.cards_each
    rest = [c for c in range(g.size) if c not in ids]
    same = [c for c in rest if g.suit_of[c] == suit]
    other = [c for c in rest if g.suit_of[c] != suit]
    random.Random(seed).shuffle(other)
    hands = [[ids[0]] + same] + [[ids[i]] for i in range(1, g.n)]
    for h in hands:
        while len(h) < each:
            h.append(other.pop())
    return hands


def _auction_to_first_lead(s: State, bidder: int, bid: str, avoid_suit: int) -> None:
    """`bidder` bids `bid`, everybody else passes; an indicator card (if any) avoids `avoid_suit`."""
    g = s.game
    while s.phase_name != "play":
        options = s.legal_actions()
        if s.phase_name == "auction" and s.to_act == bidder and s.high_bidder != bidder:
            pick = next(a for a in options if a.notation == bid)
        elif s.phase_name == "trump":
            pick = next(a for a in options if g.suit_of[g.layout.parse_cards([a.arg])[0]] != avoid_suit)
        else:
            pick = next(a for a in options if a.verb == "pass")
        s.apply(pick)


def test_e6_fifty_six_duplicates_first_played_wins() -> None:
    g = load_game("fifty-six")
    cards = ["TC", "JC", "KC", "9C", "JC", "AC"]  # P1..P6 = seats 0..5, trump spades named in the bid
    s = g.new_hand(5, hands=_deal_with_first_trick(g, cards, 6))
    _auction_to_first_lead(s, 1, "bid 28 S", -1)
    assert s.to_act == 0
    act(s, [f"{p} play {c}" for p, c in enumerate(cards)])
    t = s.tricks[0]
    assert (t.winner, t.points) == (1, 10)  # P2's JC was the first of the two; team B = {1, 3, 5}
    assert s.team_points == [0, 10]


def test_e8_forty_jack_and_three_equal() -> None:
    g = load_game("forty")
    cards = ["3S", "JS", "9S", "AS", "7S", "KS"]  # P1..P6 = seats 0..5
    s = g.new_hand(5, hands=_deal_with_first_trick(g, cards, 8))
    _auction_to_first_lead(s, 1, "bid 20", g.layout.parse_suit("S"))
    assert s.to_act == 0
    act(s, [f"{p} play {c}" for p, c in enumerate(cards)])
    t = s.tricks[0]
    assert (t.winner, t.points) == (0, 9)  # 3S and JS rank equal; 3S was played first


# --- E10: Thani, Cot and Forty -------------------------------------------------------------------------------
def _before_first_play(actions: list[str], extra: list[str]) -> list[str]:
    i = next(k for k, a in enumerate(actions) if " play " in a)
    return actions[:i] + extra + actions[i:]


@pytest.mark.parametrize(("record", "game_points"), [
    ("28-band3-made-after-raise", 4),   # seat 0 wins all eight tricks alone
    ("28-band1-made", -5),              # its partner and the opponents win some
])
def test_e10_thani(record: str, game_points: int) -> None:
    dealer, hands, actions = golden(record)
    s = start("thani", dealer, hands, _before_first_play(actions, ["0 declare thani"]))
    assert s.status == "complete" and s.special is not None
    assert s.game_points == [game_points, 0]


def _cot(record: str, offer_before: str, answer: str) -> State:
    dealer, hands, actions = golden(record)
    actions = [f"{a[0]} pass" if " raise " in a else a for a in actions]
    actions = replace(actions, next(a for a in actions if " bid " in a), ["0 bid 20"])
    seat = offer_before.split()[0]
    return start("cot", dealer, hands, replace(actions, offer_before, [f"{seat} surrender", f"0 {answer}",
                                                                       offer_before]))


def test_e10_cot_refused_surrender() -> None:
    s = _cot("28-band3-made-after-raise", "1 play QD", "refuse")  # then the bidders take every trick
    assert s.game_points == [4, 0]
    s = _cot("28-band1-made", "3 play 8S", "refuse")  # then they lose trick 4
    assert s.game_points == [-6, 0]


def test_e10_cot_accepted_surrender_single_amount() -> None:
    dealer, hands, actions = golden("28-band1-made")
    actions = replace(actions, "0 bid 19", ["0 bid 20"])
    s = start("cot", dealer, hands, actions[:actions.index("3 play 8S")] + ["3 surrender", "0 accept"])
    assert s.status == "complete" and s.game_points == [2, 0]


@pytest.mark.parametrize(("bid", "made", "bidders", "opponents"), [(31, False, 0, 3), (34, True, 3, 0)])
def test_e10_forty_scores(bid: int, made: bool, bidders: int, opponents: int) -> None:
    g = load_game("forty")
    for seed in range(200):
        rng = random.Random(seed)
        s = g.new_hand(0, seed=seed)
        while not s.is_terminal:
            options = s.legal_actions()
            if s.phase_name == "auction":  # the first seat that may bid `bid` does; everybody else passes
                want = Action(s.to_act, "bid", str(bid))
                s.apply(want if s.high_bidder < 0 and want in options else Action(s.to_act, "pass"))
            else:
                s.apply(rng.choice(options))
        if s.status == "complete" and s.bid == bid and s.made is made:
            team = s.hand_team_of[s.bidder]
            assert s.game_points[team] == bidders
            assert s.game_points[1 - team] == opponents
            return
    pytest.fail(f"no random forty hand with bid {bid} and made={made}")
