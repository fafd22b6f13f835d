"""Banked scoring (scoring.method: banked): every worked deal of the Jass group's rules page (§8) through the
arithmetic of engine/play/banked.py, with the card points, melds and marriages the deal gives; the rules as the
shipped games will state them."""

from __future__ import annotations

from typing import Any

import pytest

from engine.play.banked import bank, round_to_ten
from engine.play.compile import _banked
from engine.play.rules import BankedRules
from engine.rules import model as m

NS, EW = 0, 1


def rules(**kw: Any) -> BankedRules:
    b = _banked(m.Scoring(method="banked", banked=m.Banked.model_validate(kw)))
    assert b is not None
    return b


BELOTE = rules(success="beats_opponents", failed_defenders="all_points_and_their_melds",
               all_tricks={"card_points": 250})
LITIGE = rules(success="beats_opponents", ties="held_over", failed_defenders="all_points_and_their_melds",
               all_tricks={"card_points": 250})
COINCHE = rules(success="reaches_bid_and_beats_opponents", add_bid=True, failed_defenders="fixed_and_bid",
                failed_fixed=160, doubled="fixed_and_bid_times_multiplier",
                all_tricks={"card_points": 250, "bid_from": 250})
COINCHE_ROUNDED = rules(success="reaches_bid_and_beats_opponents", add_bid=True, failed_defenders="fixed_and_bid",
                        failed_fixed=160, doubled="fixed_and_bid_times_multiplier",
                        all_tricks={"card_points": 250, "bid_from": 250}, rounding="nearest_ten")
KLAVERJAS = rules(success="beats_opponents", failed_defenders="all_points_and_all_melds", all_tricks={"bonus": 100})
SCHIEBER = rules(success="none", all_tricks={"bonus": 100})
KLABERJASS = rules(success="beats_opponents", ties="maker_scores_nothing", failed_defenders="both_totals")


def test_b1_dedans_the_takers_keep_their_belote() -> None:
    s = bank(BELOTE, NS, cards=[62, 100], melds=[0, 20], marriage=[20, 0], sweep=-1)
    assert (s.made, s.points) == (False, [20, 182])


def test_b2_the_best_meld_side_scores_and_the_takers_go_dedans() -> None:
    s = bank(BELOTE, NS, cards=[97, 65], melds=[0, 100], marriage=[0, 20], sweep=-1)
    assert (s.made, s.points) == (False, [0, 282])


def test_b3_capot_counts_250() -> None:
    s = bank(BELOTE, NS, cards=[162, 0], melds=[20, 0], marriage=[0, 0], sweep=NS)
    assert (s.made, s.points) == (True, [270, 0])


def test_b4_a_tie_is_dedans_in_the_base_file_and_held_over_under_litige() -> None:
    s = bank(BELOTE, NS, cards=[81, 81], melds=[0, 0], marriage=[0, 0], sweep=-1)
    assert (s.made, s.points, s.held) == (False, [0, 162], 0)
    s = bank(LITIGE, NS, cards=[81, 81], melds=[0, 0], marriage=[0, 0], sweep=-1)
    assert (s.made, s.points, s.held, s.winner) == (False, [0, 81], 81, -1)


def test_a_capot_by_the_defenders_makes_the_takers_fail_even_with_big_melds() -> None:
    s = bank(BELOTE, NS, cards=[0, 162], melds=[300, 0], marriage=[20, 0], sweep=EW)
    assert (s.made, s.points) == (False, [20, 250])


def test_c1_made_adds_the_bid() -> None:
    s = bank(COINCHE, NS, cards=[112, 50], melds=[0, 0], marriage=[20, 0], sweep=-1, bid=100)
    assert (s.made, s.points) == (True, [232, 50])


def test_c2_short_of_the_bid_the_defenders_take_160_and_the_bid() -> None:
    s = bank(COINCHE, NS, cards=[85, 77], melds=[0, 0], marriage=[0, 20], sweep=-1, bid=90)
    assert (s.made, s.points) == (False, [0, 270])


def test_c3_coinched_the_winner_takes_fixed_and_bid_doubled() -> None:
    s = bank(COINCHE, EW, cards=[67, 95], melds=[0, 0], marriage=[0, 0], sweep=-1, bid=120, multiplier=2)
    assert (s.made, s.points) == (False, [560, 0])
    s = bank(COINCHE, EW, cards=[67, 95], melds=[0, 0], marriage=[0, 0], sweep=-1, bid=120, multiplier=4)
    assert s.points == [1120, 0]


def test_c4_rounding_after_the_success_test() -> None:
    s = bank(COINCHE, NS, cards=[113, 49], melds=[0, 0], marriage=[0, 0], sweep=-1, bid=110)
    assert (s.made, s.points) == (True, [223, 49])
    s = bank(COINCHE_ROUNDED, NS, cards=[113, 49], melds=[0, 0], marriage=[0, 0], sweep=-1, bid=110)
    assert (s.made, s.points) == (True, [220, 50])


def test_coinche_needs_82_at_80_and_a_capot_bid_needs_every_trick() -> None:
    assert not bank(COINCHE, NS, cards=[81, 81], melds=[0, 0], marriage=[0, 0], sweep=-1, bid=80).made
    assert bank(COINCHE, NS, cards=[82, 80], melds=[0, 0], marriage=[0, 0], sweep=-1, bid=80).made
    s = bank(COINCHE, NS, cards=[150, 12], melds=[0, 0], marriage=[0, 0], sweep=-1, bid=250)
    assert (s.made, s.points) == (False, [0, 410])
    s = bank(COINCHE, NS, cards=[162, 0], melds=[20, 0], marriage=[20, 0], sweep=NS, bid=250)
    assert (s.made, s.points) == (True, [540, 0])   # 250 + 250 + melds + belote


def test_k1_made_each_side_its_own_with_roem() -> None:
    s = bank(KLAVERJAS, EW, cards=[68, 94], melds=[40, 20], marriage=[0, 0], sweep=-1)
    assert (s.made, s.points) == (True, [108, 114])


def test_k2_nat_the_defenders_take_162_and_all_roem() -> None:
    s = bank(KLAVERJAS, NS, cards=[75, 87], melds=[0, 50], marriage=[0, 0], sweep=-1)
    assert (s.made, s.points) == (False, [0, 212])


def test_k3_pit_adds_100() -> None:
    s = bank(KLAVERJAS, NS, cards=[162, 0], melds=[20, 0], marriage=[0, 0], sweep=NS)
    assert (s.made, s.points) == (True, [282, 0])


def test_s1_no_contract_each_side_banks_its_own() -> None:
    s = bank(SCHIEBER, NS, cards=[98, 59], melds=[50, 0], marriage=[0, 20], sweep=-1)
    assert (s.made, s.points) == (True, [148, 79])


def test_s2_the_mode_multiplies_everything() -> None:
    s = bank(SCHIEBER, NS, cards=[101, 56], melds=[0, 0], marriage=[0, 0], sweep=-1, trump_multiplier=3)
    assert s.points == [303, 168]


def test_s3_match_bonus_then_the_suit_multiplier() -> None:
    s = bank(SCHIEBER, NS, cards=[0, 157], melds=[0, 0], marriage=[0, 0], sweep=EW, trump_multiplier=2)
    assert s.points == [0, 514]


def test_kb1_maker_beats_the_opponent() -> None:
    s = bank(KLABERJASS, 0, cards=[85, 60], melds=[20, 0], marriage=[20, 0], sweep=-1)
    assert (s.made, s.points) == (True, [125, 60])


def test_kb2_bate_the_opponent_takes_both_totals() -> None:
    s = bank(KLABERJASS, 0, cards=[50, 65], melds=[20, 0], marriage=[0, 20], sweep=-1)
    assert (s.made, s.points) == (False, [0, 155])


def test_kb3_tie_the_maker_scores_nothing() -> None:
    s = bank(KLABERJASS, 0, cards=[70, 70], melds=[0, 0], marriage=[0, 0], sweep=-1)
    assert (s.made, s.points) == (False, [0, 70])


@pytest.mark.parametrize("raw,rounded", [(0, 0), (4, 0), (5, 10), (9, 10), (112, 110), (117, 120), (223, 220),
                                         (49, 50), (115, 120)])
def test_nearest_ten(raw: int, rounded: int) -> None:
    assert round_to_ten(raw) == rounded
