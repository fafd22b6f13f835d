"""The sweep estimate behind the special contracts (engine/bots/special.py), on positions built by hand: the defenders
of a contract for every trick keep the cards that can beat it; a contract whose declarer lays the trump anew is
weighed in the suit he will name, and he names it; the calibration map the decisions read (fitted by
benchmarks/sweep_calibration.py) is monotone and moves the decisions only where the counterfactuals say so."""

from __future__ import annotations

from engine.bots.model import model_for
from engine.bots.policy import Facts, Knowledge, policy_for
from engine.bots.registry import make_bot
from engine.play.base import AUCTION, TRUMP, UNDECIDED
from engine.play.compile import load_game
from tests.test_bot_specials import mask


def test_defenders_keep_the_cards_that_beat_a_reversed_sweep() -> None:
    """Royals (ranks reversed: Q K T A 9 J) on a hand the defenders can beat only with their Queens and Kings, which
    are worth the fewest card points: a points-first discard threw them away and let the sweep through."""
    game = load_game("thunee")
    hands = {2: "AS AH KH QH QD KC", 3: "9H JH QS QC TS 9S", 0: "TH TC AD 9C JC JS", 1: "KS KD TD AC 9D JD"}
    st = game.new_hand(3, hands=[[game.code_ids[c][0] for c in hands[s].split()] for s in range(4)])
    bots = [make_bot("heuristic", game, s) for s in range(4)]
    declared = False
    while st.to_act >= 0:
        legal = st.legal_actions()
        roy = [a for a in legal if a.verb == "declare" and a.arg == "royals" and a.seat == 2]
        if roy and not declared:
            st.apply(roy[0])
            declared = True
            continue
        st.apply(bots[st.controller].choose(st.view(st.to_act), legal))
    assert declared and st.special is not None and st.declarer == 2
    assert not st.made
    assert any(t.winner in (1, 3) for t in st.tricks)


def second_auction(game, hand: str, seat: int, phase: int = AUCTION, special: bool = False) -> Knowledge:
    """Seat `seat` of 304 with eight cards, the trump concealed (seat 0 holds it), at the second auction."""
    h = mask(game, hand)
    facts = Facts(((1 << game.size) - 1) & ~h, [8, 8, 8, 8], [0, 0], 0, 1, False, 0, False, special, 2, -1, 250,
                  True)
    trump = UNDECIDED
    return Knowledge(seat, phase, h, 0, trump, game.strength, 0, 250, 0, [0, 1, 0, 1], facts)


def test_a_contract_whose_declarer_names_the_trump_is_weighed_in_his_suit() -> None:
    game = load_game("three-hundred-and-four")
    sr = policy_for(model_for(game)).special
    pcc = game.contracts["pcc"]
    assert sr.names_trump_anew(pcc)
    assert not sr.names_trump_anew(load_game("thani").contracts["thani"])
    # six spades from the top and two top hearts: spades drawn first, then the hearts; the other side sees no trump
    strong = second_auction(game, "JS 9S AS TS KS QS JH 9H", 1)
    threats = 0b0101
    p = sr.contract_sweep(strong, pcc)
    assert p > 0.9
    assert p == max(sr.sweep_chance(strong, threats, s, game.strength, 0, True) for s in range(4))
    weak = second_auction(game, "JS 9S AS TS 7H 8H 7D 7C", 1)
    assert sr.contract_sweep(weak, pcc) < 0.05
    # the declarer lays the suit of his best sweep: spades (the hand evaluation's choice on a tie)
    k = second_auction(game, "JS 9S AS TS KS QS JH 9H", 1, TRUMP, special=True)
    k.bidder = 1
    legal = tuple(game.action(1, "trump", c) for c in "JS 9S AS TS KS QS JH 9H".split())
    choice = policy_for(model_for(game)).choose(k, legal)
    assert choice.arg.endswith("S")
    assert sr.declarer_trump(second_auction(game, "JS 9S AS TS KS QS JH 9H", 1, TRUMP)) == -1   # no contract


def test_the_calibration_map_is_monotone_and_ends_at_its_table() -> None:
    from engine.bots.special import SWEEP_CAL, calibrated, sweep_kind
    game = load_game("thunee")
    assert sweep_kind(game.contracts["thunee"]) == 2
    assert sweep_kind(load_game("single-hand").contracts["single-hand"]) == 1
    assert sweep_kind(load_game("cot-four").contracts["cot"]) == 0 and sweep_kind(None) == 0
    for kind, table in enumerate(SWEEP_CAL):
        xs = [calibrated(i / 100, kind) for i in range(101)]
        assert all(a <= b + 1e-12 for a, b in zip(xs, xs[1:], strict=False))
        assert xs[0] == table[0] and abs(xs[100] - 1.0) < 1e-12 and abs(calibrated(0.5, kind) - table[3]) < 1e-12


def test_a_declaration_needs_the_raw_floor_and_the_calibrated_value() -> None:
    """An opponent of the trumper with a helping partner, at a raw estimate under MIN_SWEEP whose calibrated chance
    is above it: still a pass (such takes lost game points on held-out hands); a near-certain hand declares, and a
    hand rated near 0 passes."""
    from engine.bots.special import MIN_SWEEP, calibrated
    from engine.play.base import DECLARE
    from tests.test_bot_specials import knowledge
    game = load_game("thunee")
    pol = policy_for(model_for(game))
    c = game.contracts["thunee"]
    legal = (game.action(1, "pass"), game.action(1, "declare", "thunee"))
    k = knowledge(game, DECLARE, "JD JH 9D AH AD JS", None, seat=1, bid=0)
    raw = pol.special.contract_sweep(k, c)
    assert raw < MIN_SWEEP <= calibrated(raw, 2)
    assert pol.choose(k, legal).verb == "pass"
    sure = knowledge(game, DECLARE, "JH 9H AH TH JS 9S", None, seat=1, bid=0)
    assert pol.choose(sure, legal).verb == "declare"
    weak = knowledge(game, DECLARE, "QH KH QD QC KS TS", None, seat=1, bid=0)
    assert pol.choose(weak, legal).verb == "pass"
