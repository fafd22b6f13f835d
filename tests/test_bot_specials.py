"""The heuristic's special decisions (engine/bots/special.py) on positions built by hand: a special contract only on
a sure sweep, the surrender answered by its value, conceding only a lost contract, the seventh card on singletons,
doubling on strength; `never` takes none of them; a house rule outside rulesets/ is played the same; simulate
reports each mechanism offered, taken and won."""

from __future__ import annotations

from pathlib import Path

from engine.bots.heuristic import view_knowledge
from engine.bots.info import read_view
from engine.bots.model import model_for
from engine.bots.policy import Facts, Knowledge, policy_for, state_knowledge
from engine.play.base import ANSWER, AUCTION, DECLARE, DOUBLING, PLAY, TRUMP, UNDECIDED
from engine.play.compile import load_game
from engine.play.game import Game
from engine.sim import simulate


def mask(game: Game, codes: str) -> int:
    """The cards named (a code written twice: both copies of a double pack)."""
    m = 0
    for code in codes.split():
        ids = game.code_ids[code]
        free = [c for c in ids if not m >> c & 1]
        m |= 1 << (free[0] if free else ids[0])
    return m


def knowledge(game: Game, phase: int, hand: str, trump: str | None, *, seat: int = 0, bidder: int = 0, bid: int = 16,
              points: list[int] | None = None, target: int = 16, tricks: int = 0, leading: bool = False,
              multiplier: int = 1) -> Knowledge:
    h = mask(game, hand)
    full = (1 << game.size) - 1
    n = h.bit_count()
    played = 0
    if tricks:   # cards already played: the lowest ones nobody holds, four a trick
        free = [c for c in range(game.size) if not h >> c & 1]
        for c in sorted(free, key=lambda c: game.strength[c])[:tricks * game.n]:
            played |= 1 << c
    unknown = full & ~h & ~played
    sizes = [n] * game.n
    t = UNDECIDED if trump is None else game.layout.parse_suit(trump)
    facts = Facts(unknown, sizes, points or [0, 0], target, multiplier, False, tricks, leading, False, 0, -1, bid)
    return Knowledge(seat, phase, h, 0, t, game.strength, bidder, bid, bidder, [0, 1, 0, 1], facts)


def test_thani_only_on_a_sure_sweep() -> None:
    game = load_game("thani")
    pol = policy_for(model_for(game))
    legal = (game.action(0, "pass"), game.action(0, "declare", "thani"))
    sure = knowledge(game, DECLARE, "JH 9H AH TH KH QH 8H JS", "H")
    assert pol.choose(sure, legal).verb == "declare"
    assert policy_for(model_for(game), never=True).choose(sure, legal).verb == "pass"
    loser = knowledge(game, DECLARE, "JH 9H AH TH KH QH 8H 7S", "H")   # 7S loses to any spade out
    assert pol.choose(loser, legal).verb == "pass"


def test_a_house_rule_outside_rulesets_is_declared_the_same(tmp_path: Path) -> None:
    f = tmp_path / "solo.yaml"
    f.write_text("schema_version: 1\nname: solo-house\nextends: twenty-eight\ndescription: a test house rule\n"
                 "special:\n  contracts:\n    - {name: solo, who: anyone, partner: sits_out, trumps: none, made: 3, "
                 "failed: -3}\n", encoding="utf-8")
    game = load_game(f)
    pol = policy_for(model_for(game))
    legal = (game.action(1, "pass"), game.action(1, "declare", "solo"))
    sure = knowledge(game, DECLARE, "JH 9H AH TH JS 9S JC 9C", None, seat=1)   # the top two of three suits
    assert pol.choose(sure, legal).verb == "declare"
    weak = knowledge(game, DECLARE, "7H 8H QH KH 7S 8S 7C 8C", None, seat=1)
    assert pol.choose(weak, legal).verb == "pass"


def test_surrender_answered_by_its_value() -> None:
    game = load_game("cot")
    pol = policy_for(model_for(game))
    legal = (game.action(0, "accept"), game.action(0, "refuse"))
    # four tricks won, the four cards left the masters of their suits and the last trumps
    sure = knowledge(game, ANSWER, "JH 9H AH TH", "H", tricks=4, points=[18, 0])
    assert pol.choose(sure, legal).verb == "refuse"
    weak = knowledge(game, ANSWER, "7S 8S 7D 8D", "H", tricks=4, points=[18, 0])
    assert pol.choose(weak, legal).verb == "accept"


def test_surrender_offered_once_the_bidders_have_made_it() -> None:
    game = load_game("cot")
    pol = policy_for(model_for(game))
    offer = [game.action(1, "surrender")]
    made = knowledge(game, PLAY, "7S 8S 7D 8D", "H", seat=1, tricks=4, points=[18, 0])
    assert pol.play_extra(made, offer) == offer[0]
    short = knowledge(game, PLAY, "7S 8S 7D 8D", "H", seat=1, tricks=2, points=[8, 0])
    assert pol.play_extra(short, offer) is None
    assert policy_for(model_for(game), never=True).play_extra(made, offer) is None


def test_concede_only_a_contract_that_is_lost() -> None:
    game = load_game("twenty-eight-kerala")
    pol = policy_for(model_for(game))
    concede = [game.action(0, "concede")]
    lost = knowledge(game, PLAY, "7S 8S 7D 8D", "H", tricks=4, points=[2, 20], target=20)
    assert pol.play_extra(lost, concede) == concede[0]
    alive = knowledge(game, PLAY, "7S 8S 7D 8D", "H", tricks=4, points=[14, 8], target=20)
    assert pol.play_extra(alive, concede) is None


def test_seventh_card_on_four_singletons() -> None:
    game = load_game("seventh-card")
    pol = policy_for(model_for(game))
    legal = tuple(game.action(0, "trump", c) for c in ("7H", "8S", "QD", "KC")) + (game.action(0, "trump", "seventh"),)
    flat = knowledge(game, TRUMP, "7H 8S QD KC", None)
    assert pol.choose(flat, legal).arg == "seventh"
    legal2 = tuple(game.action(0, "trump", c) for c in ("JH", "9H", "QD", "KC")) + (game.action(0, "trump", "seventh"),)
    pair = knowledge(game, TRUMP, "JH 9H QD KC", None)
    assert pol.choose(pair, legal2).arg != "seventh"


def test_doubling_on_strength_only() -> None:
    game = load_game("kotah")
    pol = policy_for(model_for(game))
    legal = (game.action(1, "pass"), game.action(1, "double"))
    strong = knowledge(game, DOUBLING, "JH 9H JS 9S JC 9C JD 9D", None, seat=1, bid=20, target=20)
    assert pol.choose(strong, legal).verb == "double"
    weak = knowledge(game, DOUBLING, "7H 8H 7S 8S 7C 8C 7D 8D", None, seat=1, bid=20, target=20)
    assert pol.choose(weak, legal).verb == "pass"
    assert policy_for(model_for(game), never=True).choose(weak, legal).verb == "pass"


def test_simulate_reports_each_mechanism() -> None:
    game = load_game("cot")
    d = simulate(game, 40, 5, ["heuristic"] * 4).to_dict()
    surrender = d["mechanisms"]["surrender"]["other"]
    assert surrender["offered"] >= surrender["taken"] > 0
    never = simulate(game, 40, 5, ["heuristic:never"] * 4).to_dict()
    assert never["mechanisms"]["surrender"]["other"]["taken"] == 0


def test_doubling_weighs_the_files_stakes() -> None:
    """The same cards against the same bid: kotah's contract loses two when it fails and wins one when made, so a
    double pays there at a chance of the contract at which it does not pay at even stakes (double-redouble)."""
    hand = "JH 9H AH JS 9S AS TC KD"
    uneven = load_game("kotah")
    k = knowledge(uneven, DOUBLING, hand, None, seat=1, bid=14, target=14)
    sp = policy_for(model_for(uneven)).special
    p = sp.other_chances(k, 14)[0]
    assert 0.5 < p < 0.62   # made more often than not, yet a double gains: 2 - 3p > 0
    legal = (uneven.action(1, "pass"), uneven.action(1, "double"))
    assert policy_for(model_for(uneven)).choose(k, legal).verb == "double"
    even = load_game("double-redouble")
    ke = knowledge(even, DOUBLING, hand, None, seat=1, bid=16, target=16)
    ke.facts.high = 16
    spe = policy_for(model_for(even)).special
    pe = spe.other_chances(ke, 16)[0]
    assert pe > 0.5
    legal_e = (even.action(1, "pass"), even.action(1, "double"))
    assert policy_for(model_for(even)).choose(ke, legal_e).verb == "pass"


def test_fixed_stake_taken_when_it_is_worth_most() -> None:
    """Odisha's C (six either way) beats a redouble (four) when the doubled bidder is nearly sure of the contract;
    a bidder who may well fail passes."""
    game = load_game("odisha")
    pol = policy_for(model_for(game))
    legal = (game.action(0, "pass"), game.action(0, "redouble"), game.action(0, "C"))
    sure = knowledge(game, DOUBLING, "JH 9H AH TH", "H", bid=16, target=16, multiplier=2)
    sure.facts.concealed = True   # the window is before the second deal, the trump face down
    assert pol.choose(sure, legal).verb == "C"
    weak = knowledge(game, DOUBLING, "7H 8S 7D 8C", "H", bid=16, target=16, multiplier=2)
    weak.facts.concealed = True
    assert pol.choose(weak, legal).verb == "pass"
    assert policy_for(model_for(game), never=True).choose(sure, legal).verb != "C"


def test_auction_double_from_the_bid_suit() -> None:
    """Inside the auction the other side reads the standing bid's suit: holding its top trumps it doubles, holding
    none of them it passes; a seat that would bid over it bids."""
    game = load_game("fifty-six-double")
    pol = policy_for(model_for(game))
    hearts = game.layout.parse_suit("H")

    def at(hand: str) -> Knowledge:
        k = knowledge(game, AUCTION, hand, None, seat=1, bidder=-1, bid=0, target=0)
        k.standing = 0
        k.team_of = [0, 1, 0, 1, 0, 1]
        k.facts.high = 40
        k.facts.high_suit = hearts
        k.facts.sizes = [8] * 6
        return k

    legal = (game.action(1, "pass"), game.action(1, "double"))
    strong = at("JH JH 9H 9H AH QS KS QC")
    assert pol.special.bid(strong, legal, legal[0]).verb == "double"
    weak = at("QS KS QC KC QD KD TS TC")
    assert pol.special.bid(weak, legal, legal[0]).verb == "pass"


def test_forced_bid_read_from_the_history() -> None:
    """A bid the rules forced (the dealer after every other seat passed) is known to every seat, from the State
    and from the View alike."""
    game = load_game("double-redouble")
    found = [False, False]
    for seed in range(40):
        s = game.new_hand(seed % 4, seed=seed)
        opened = seed % 2 == 1     # odd seeds: the first hand opens, the others pass
        while s.to_act >= 0 and s.phase == AUCTION:
            legal = s.legal_actions()
            bids = [a for a in legal if a.verb == "bid"]
            if opened and bids and not s.history:
                s.apply(bids[0])
                continue
            s.apply(next(a for a in legal if a.verb == "pass") if any(a.verb == "pass" for a in legal) else legal[0])
        if s.bidder < 0 or s.to_act < 0:
            continue
        seat = s.to_act
        f = state_knowledge(s, seat).facts
        v = view_knowledge(read_view(game, s.view(seat))).facts
        assert f.forced == v.forced and f.added == v.added and f.high_suit == v.high_suit
        assert f.forced == (seed % 2 == 0)
        found[f.forced] = True
    assert all(found)


def test_closed_trumper_opens_a_long_trump_suit_headed_by_its_top() -> None:
    game = load_game("three-hundred-and-four")
    pol = policy_for(model_for(game))
    legal = (game.action(0, "open"), game.action(0, "pass"))
    long_top = knowledge(game, DECLARE, "JH 9H TH KH 8H AS KS 7D", "H", bid=200, target=200)
    assert pol.choose(long_top, legal).verb == "open"
    assert policy_for(model_for(game), never=True).choose(long_top, legal).verb == "pass"
    no_jack = knowledge(game, DECLARE, "9H AH TH KH 8H AS KS 7D", "H", bid=200, target=200)   # JH is out
    assert pol.choose(no_jack, legal).verb == "pass"
    short = knowledge(game, DECLARE, "JH 9H TH AS KS AD 7D 8C", "H", bid=200, target=200)   # three trumps
    assert pol.choose(short, legal).verb == "pass"


def test_trump_last_by_the_hand_evaluation() -> None:
    game = load_game("thunee")
    pol = policy_for(model_for(game))
    never = policy_for(model_for(game), never=True)
    cards = ("QH", "KS", "QD", "KC")
    legal = tuple(game.action(0, "trump", c) for c in cards) + (game.action(0, "trump", "last"),)
    flat = knowledge(game, TRUMP, "QH KS QD KC", None, bid=0)   # four low singletons: the sixth card's suit
    assert pol.choose(flat, legal).arg == "last"
    assert never.choose(flat, legal).arg != "last"
    # a house rule offering it on any cards: two top trumps in hand are worth more than an unseen suit
    legal2 = tuple(game.action(0, "trump", c) for c in ("JH", "9H", "QS", "KD")) + (game.action(0, "trump", "last"),)
    pair = knowledge(game, TRUMP, "JH 9H QS KD", None, bid=0)
    assert pol.choose(pair, legal2).arg in ("9H", "JH")


def test_redeal_when_the_hand_is_worth_less_than_a_new_deal() -> None:
    game = load_game("thunee")
    pol = policy_for(model_for(game))
    never = policy_for(model_for(game), never=True)
    weak = knowledge(game, TRUMP, "QH KS QD KC", None, bid=0)   # 10 points: the trumpers' contract is a loss
    legal = tuple(game.action(0, "trump", c) for c in ("QH", "KS", "QD", "KC")) + (game.action(0, "redeal"),)
    assert pol.choose(weak, legal).verb == "redeal"
    assert never.choose(weak, legal).verb == "trump"
    # a house rule offering it on any cards: the top four trumps expect more than a new deal
    strong = knowledge(game, TRUMP, "JH 9H AH TH", None, bid=0)
    legal2 = tuple(game.action(0, "trump", c) for c in ("JH", "9H", "AH", "TH")) + (game.action(0, "redeal"),)
    assert pol.choose(strong, legal2).verb == "trump"


def test_royals_weighed_at_the_reversed_ranks() -> None:
    game = load_game("thunee")
    pol = policy_for(model_for(game))
    legal = (game.action(0, "pass"), game.action(0, "declare", "thunee"), game.action(0, "declare", "royals"))
    low = knowledge(game, DECLARE, "QH KH TH QS KS TS", None, bid=0)   # the top of two suits once ranks reverse
    assert pol.choose(low, legal).arg == "royals"
    assert policy_for(model_for(game), never=True).choose(low, legal).verb == "pass"
    high = knowledge(game, DECLARE, "JH 9H JS 9S AD TD", None, bid=0)   # the bottom of them
    assert pol.choose(high, legal).arg != "royals"


def test_led_trump_declarer_leads_his_longest_suit() -> None:
    from engine.bots.info import led_trump_suit
    game = load_game("thunee")
    h = mask(game, "QH KH TH QS KS QD")
    assert game.layout.suits[led_trump_suit(game, h, game.reversed_strength)] == "H"
    assert led_trump_suit(game, 0, game.strength) == -1


def test_an_automatic_double_is_not_read_as_a_seat_doubling() -> None:
    """A file whose high bids are worth two from the start tells nothing of the other side's cards: the bidders'
    chances at that stake are the undoubled ones; a real double on top still counts."""
    game = load_game("gorakhpur")
    special = policy_for(model_for(game)).special
    hand = "JH 9H AH TH KH QS 8C 7D"
    auto = knowledge(game, DOUBLING, hand, "H", bid=22, target=22, multiplier=2)
    plain = knowledge(game, DOUBLING, hand, "H", bid=22, target=22)
    doubled = knowledge(game, DOUBLING, hand, "H", bid=22, target=22, multiplier=4)
    low = knowledge(game, DOUBLING, hand, "H", bid=18, target=18, multiplier=2)   # below the automatic bids
    assert not special.doubled_by_a_seat(auto) and not special.doubled_by_a_seat(plain)
    assert special.doubled_by_a_seat(doubled) and special.doubled_by_a_seat(low)
    assert special.own_chances(auto, 22, special.doubled_by_a_seat(auto)) == special.own_chances(plain, 22, False)
    assert special.make_chance(auto, 22, special.doubled_by_a_seat(auto)) > special.make_chance(doubled, 22, True)
    # the plain contract at the automatic stake: the same chance, twice the game points
    assert special.plain_value(auto) == 2 * special.plain_value(plain)
