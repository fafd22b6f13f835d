"""The heuristic bids, doubles and takes by the banked score where a file banks its points (banked_bidding.py,
turned_choice.py): a strong hand bids above the lowest bid in its best suit, a weak one passes, a contract worth
more is weighed higher; `heuristic:v2` keeps the auction and the turned choice of before."""

from __future__ import annotations

from engine import load_game
from engine.bots.banked_bidding import BankedAuction, banked_difference
from engine.bots.bidding import AuctionRules
from engine.bots.model import model_for
from engine.bots.policy import policy_for
from engine.bots.registry import make_bot, parse_bot_spec
from engine.bots.turned_choice import weigh_for
from engine.play.game import Game
from engine.play.state import State


def _ids(g: Game, codes: str) -> list[int]:
    return [g.code_ids[c][0] for c in codes.split()]


def _deal(g: Game, first: str) -> State:
    """Coinche dealt by seat 3, so seat 0 speaks first holding `first`; the rest of the pack to the others."""
    mine = _ids(g, first)
    rest = [c for c in range(g.size) if c not in mine]
    return g.new_hand(3, hands=[mine, rest[0:8], rest[8:16], rest[16:24]])


def test_v2_keeps_the_auction_of_before() -> None:
    g = load_game("coinche")
    m = model_for(g)
    assert isinstance(policy_for(m).auction, BankedAuction)
    old = policy_for(m, v2=True).auction
    assert isinstance(old, AuctionRules) and not isinstance(old, BankedAuction)
    assert parse_bot_spec("heuristic:v2").options.v2
    assert make_bot("heuristic:v2", g).choose is not None


def test_a_strong_hand_bids_high_in_its_suit_and_a_weak_one_passes() -> None:
    g = load_game("coinche")
    policy = policy_for(model_for(g))
    strong = _deal(g, "JH 9H AH TH KH QH AS AD")
    assert strong.to_act == 0
    a = policy.action(strong)
    assert a.verb == "bid" and a.arg.endswith("H") and int(a.arg.split()[0]) > 100, a
    weak = _deal(g, "7S 8S 7D 8D 7C 8C QS QD")
    assert policy.action(weak).verb == "pass"


def test_the_banked_worth_grows_with_the_side_total_and_the_bid_costs_when_short() -> None:
    g = load_game("coinche")
    b = g.rules.scoring.banked
    assert b is not None
    low = banked_difference(b, 80, 70.0, 30.0, 1, 162, 0.0)
    high = banked_difference(b, 80, 120.0, 30.0, 1, 162, 0.0)
    assert low < 0 < high
    assert banked_difference(b, 150, 120.0, 30.0, 1, 162, 0.0) < high
    assert banked_difference(b, 80, 130.0, 30.0, 2, 162, 0.0) > banked_difference(b, 80, 130.0, 30.0, 1, 162, 0.0)


def test_the_turned_card_is_worth_taking_with_its_jack_and_nine() -> None:
    g = load_game("belote")
    w = weigh_for(g)
    turned = g.code_ids["8H"][0]
    good = sum(1 << c for c in _ids(g, "JH 9H AH AS TS"))
    poor = sum(1 << c for c in _ids(g, "7S 8D 7C 8C QD"))
    assert w.worth(0, good, "H", turned) > 0 > w.worth(0, poor, "H", turned)
