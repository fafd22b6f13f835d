"""The heuristic's full-hand raise and its sweep estimate on positions built by hand: the bidder raises only when
the raise is worth more by the file's bands than standing on the bid (a near-certain hand), `never` keeps 0.1's
rule; a concealed trump opened by a trumpless caller lets the trumps be drawn; a contract that stops the deal is
weighed on part of the hand; a house rule outside rulesets/ gets the same decisions."""

from __future__ import annotations

from pathlib import Path

from engine.bots.model import model_for
from engine.bots.policy import Facts, Knowledge, policy_for
from engine.play.base import AUCTION, DECLARE, RAISE, UNDECIDED
from engine.play.compile import load_game
from engine.play.game import Game
from tests.test_bot_specials import knowledge, mask


def raise_legal(game: Game, seat: int = 0) -> tuple:
    return (game.action(seat, "pass"),) + tuple(game.action(seat, "raise", str(v)) for v in range(24, 29))


def test_the_bidder_raises_a_near_certain_hand_only() -> None:
    game = load_game("twenty-eight")
    pol = policy_for(model_for(game))
    never = policy_for(model_for(game), never=True)
    legal = raise_legal(game)
    huge = knowledge(game, RAISE, "JH 9H AH TH KH JS JD JC", "H", bid=15)
    assert pol.choose(huge, legal).verb == "raise"
    assert never.choose(huge, legal).verb == "pass"     # 0.1's four-card estimate never reaches 25
    good = knowledge(game, RAISE, "JH 9H AH TH 7S 8S 7D 8C", "H", bid=15)
    assert pol.choose(good, legal).verb == "pass"
    partner = knowledge(game, RAISE, "JH 9H AH TH KH JS JD JC", None, seat=2, bid=15)
    assert pol.choose(partner, legal).verb == never.choose(partner, legal).verb   # no trump known: the old rule


def test_a_house_rule_outside_rulesets_raises_the_same(tmp_path: Path) -> None:
    f = tmp_path / "house.yaml"
    f.write_text("schema_version: 1\nname: raise-house\nextends: twenty-eight\ndescription: a test house rule\n",
                 encoding="utf-8")
    house = load_game(f)
    game = load_game("twenty-eight")
    for hand in ("JH 9H AH TH KH JS JD JC", "JH 9H AH TH 7S 8S 7D 8C", "JS 9S AS JH 9H AH JD 7C"):
        a = policy_for(model_for(game)).choose(knowledge(game, RAISE, hand, "H", bid=15), raise_legal(game))
        b = policy_for(model_for(house)).choose(knowledge(house, RAISE, hand, "H", bid=15), raise_legal(house))
        assert str(a) == str(b)


def thani_knowledge(game: Game, hand: str, partner: str, others: str) -> Knowledge:
    """The bidder (seat 0, trump hearts concealed) at the declaration, the unseen cards `partner` + `others`."""
    h = mask(game, hand)
    unknown = ((1 << game.size) - 1) & ~h
    facts = Facts(unknown, [8, 8, 8, 8], [0, 0], 16, 1, False, 0, False, False, 0, -1, 16, True)
    return Knowledge(0, DECLARE, h, 0, game.layout.parse_suit("H"), game.strength, 0, 16, 0, [0, 1, 0, 1], facts)


def test_sweep_estimate_of_a_concealed_trump() -> None:
    """All the trumps but the partner's and a master in each side suit: the sweep is lost only to a ruff before the
    trump is open, so the chance is high but not certain; a side card under an unseen one loses it for sure."""
    game = load_game("thani")
    sr = policy_for(model_for(game)).special
    c = game.contracts["thani"]
    strong = thani_knowledge(game, "JH 9H AH TH KH QH JS JD", "", "")
    p = sr.contract_sweep(strong, c)
    assert 0.3 < p < 1.0
    weak = thani_knowledge(game, "JH 9H AH TH KH QH 7S JD", "", "")
    assert sr.contract_sweep(weak, c) < 0.05


def test_cot_on_four_cards_by_its_chance() -> None:
    game = load_game("cot-four")
    pol = policy_for(model_for(game))
    legal = (game.action(1, "pass"), game.action(1, "bid", "15"), game.action(1, "declare", "cot"))

    def k(hand: str) -> Knowledge:
        h = mask(game, hand)
        facts = Facts(((1 << game.size) - 1) & ~h, [4, 4, 4, 4], [0, 0], 0, 1, False, 0, False, False, 0, -1, 14)
        return Knowledge(1, AUCTION, h, 0, UNDECIDED, game.strength, -1, 0, 0, [0, 1, 0, 1], facts)

    assert pol.choose(k("JS 9S JH 9H"), legal).verb == "declare"       # sure: four masters
    assert pol.choose(k("JS 9S AS JH"), legal).verb == "declare"       # the ace is led third: almost always good
    assert pol.choose(k("JS 7H 8D 7C"), legal).verb != "declare"
    assert policy_for(model_for(game), never=True).choose(k("JS 9S AS JH"), legal).verb != "declare"
