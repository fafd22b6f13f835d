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


def _thrown_in(g: Game, spec: str, hands: int) -> float:
    """The share of `hands` seeded deals that `spec` at both seats throws in (every pass, or a schmeiss taken)."""
    from engine.sim import bot_seed, hand_seeds, play_out

    next_seed = hand_seeds(5)
    thrown = 0
    for i in range(hands):
        state = g.new_hand(i % g.n, seed=next_seed())
        play_out(state, [make_bot(spec, g, bot_seed(5, i, s)) for s in range(g.n)])
        thrown += state.status != "complete"
    return thrown / hands


def test_where_cards_stay_in_a_stock_a_take_is_weighed_on_the_cards_in_play() -> None:
    # belote deals every card: the pack's points; klaberjass plays 18 of 32: its own 6 cards' points, 12 of the 25
    # unseen cards' share (the turned card is out of play) and the last trick
    from engine.bots.banked_bidding import code_total
    from engine.bots.turned_choice import in_play_total

    b = load_game("belote")
    assert in_play_total(b, "H", sum(1 << c for c in _ids(b, "JH 9H AH AS TS"))) == code_total(b, "H") == 162
    k = load_game("klaberjass")
    hand = sum(1 << c for c in _ids(k, "JH 9H AH AS TS KS"))
    turned = k.code_ids["TD"][0]
    own = 20 + 14 + 11 + 11 + 10 + 4
    assert in_play_total(k, "H", hand, turned) == round(own + (152 - own - 10) * 12 / 25) + 10
    # a hand with the trump Jack and Nine takes; the weighing of before (heuristic:v3) read it against the whole
    # pack's points and passed far more: the deals thrown in fall from about half to a few
    assert weigh_for(k).worth(0, hand, "H", -1, turned) > 0
    assert _thrown_in(k, "heuristic", 40) < 0.3 < _thrown_in(k, "heuristic:v3", 40)


def test_a_suit_every_other_seat_showed_void_in_has_no_card_in_play_where_cards_stay_out() -> None:
    from engine.bots.heuristic import read_view

    k = load_game("klaberjass")
    state = k.new_hand(0, seed=3)
    bots = [make_bot("heuristic", k, s) for s in range(2)]
    while state.to_act >= 0:
        seat = state.to_act
        seen = read_view(k, state.view(seat))
        other = 1 - seat
        for suit in range(k.nsuits):
            if seen.voids[other] >> suit & 1 and seen.outstanding(suit):
                assert seen.live(suit) == seen.outstanding(suit)   # only where the heuristic says so
                seen.live_only = True
                assert seen.live(suit) == 0
                return
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
    raise AssertionError("no void shown in this deal")


def _first_lead(spec: str, first: str) -> str:
    """Klaberjass: seat 0 (forehand) takes hearts holding `first` and leads to trick 1; the heuristic's card."""
    k = load_game("klaberjass")
    h0, h1 = _ids(k, first), _ids(k, "9H TH 7S 8S 7D 8D")
    stock = _ids(k, "7H QC KC AC 9C JC TC")
    rest = [c for c in range(k.size) if c not in h0 + h1 + stock]
    state = k.new_hand(1, hands=[h0, h1], stock=stock + rest)
    bot = make_bot(spec, k, 0)
    state.apply(next(a for a in state.legal_actions() if a.verb == "take"))
    while True:
        a = bot.choose(state.view(0), state.legal_actions())
        if a.verb == "play":
            return a.arg
        state.apply(a)


def test_where_cards_stay_out_a_short_trump_holding_is_kept_to_ruff() -> None:
    # the trump Jack and one more: no trump drawn, an ace led (the bot of before led the Jack); three trumps: drawn
    assert _first_lead("heuristic", "JH 8H AS KS AD KD") in ("AS", "AD")
    assert _first_lead("heuristic:v3", "JH 8H AS KS AD KD") == "JH"
    assert _first_lead("heuristic", "JH 8H QH AS KS AD") == "JH"


def test_a_hopeless_hand_offers_the_schmeiss() -> None:
    """The heuristic offers a schmeiss with a hand no suit of which is worth SCHMEISS_BELOW (the rule is played,
    not left to the file alone); with the threshold out of reach it never does."""
    import engine.bots.turned_choice as tc
    from engine.sim import bot_seed, hand_seeds, play_out

    k = load_game("klaberjass")

    def offers() -> int:
        next_seed = hand_seeds(11)
        count = 0
        for i in range(60):
            state = k.new_hand(i % k.n, seed=next_seed())
            play_out(state, [make_bot("heuristic", k, bot_seed(11, i, s)) for s in range(k.n)])
            count += sum(a.verb == "schmeiss" for a in state.history)
        return count

    assert offers() > 0
    real = tc.SCHMEISS_BELOW
    try:
        tc.SCHMEISS_BELOW = -1000.0
        assert offers() == 0
    finally:
        tc.SCHMEISS_BELOW = real
