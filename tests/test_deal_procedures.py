"""Deal and trump-choice procedures (engine/play/turned.py, issue 26): the undealt stock, the turned card with two
rounds of take or pass (and schmeiss), completing the hands, choose_trump with push, the exchange of the lowest
trump, the first forehand by a card, and the coinche auction's options. Small rule files in tests/rulefiles/deal/."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.errors import IllegalActionError, RecordError
from engine.play.actions import Action
from engine.play.compile import compile_game, load_game
from engine.play.game import Game
from engine.play.match import Match
from engine.play.state import State
from engine.record import read_record_text, record_of, replay, report
from engine.rules.load import load_ruleset

DEAL = Path(__file__).parent / "rulefiles" / "deal"
FILES = ("turned-four", "turned-two", "choose-push", "coinche-auction")


def game(name: str) -> Game:
    return load_game(DEAL / f"{name}.yaml")


def twin(name: str, change: dict[str, object]) -> Game:
    """The file with fields changed (a dotted path to a value), compiled."""
    rs = load_ruleset(DEAL / f"{name}.yaml")
    data = rs.model_dump(by_alias=True, exclude_none=False)
    for path, value in change.items():
        node = data
        keys = path.split(".")
        for k in keys[:-1]:
            node = node[int(k)] if isinstance(node, list) else node[k]
        node[keys[-1] if not isinstance(node, list) else int(keys[-1])] = value
    return compile_game(type(rs).model_validate(data))


def play_random(g: Game, seed: int) -> State:
    st = g.new_hand(seed % g.n, seed=seed)
    rng = random.Random(seed)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    return st


def act(st: State, *texts: str) -> None:
    for t in texts:
        st.apply(Action.parse(t))


@pytest.mark.parametrize("name", FILES)
def test_random_hands_replay_from_their_records(name: str) -> None:
    g = game(name)
    for seed in range(12):
        st = play_random(g, seed)
        rec = record_of(st, folder=DEAL)
        again = read_record_text(json.dumps(rec.to_dict()), "<t>", DEAL)
        rp = replay(again, g)
        assert rp.error is None
        assert [str(a) for a in rp.state.history] == [str(a) for a in st.history]
        assert rp.state.status == st.status and rp.state.game_points == st.game_points
        if st.status == "complete":
            assert len(st.tricks) == g.tricks_per_hand
            assert sum(st.team_points) <= g.points_per_hand


def test_the_stock_is_in_no_view() -> None:
    """No view of any seat, at any moment, carries a stock card that is not face up (the turned card, the bottom
    card shown) or in that seat's own hand."""
    g = game("turned-two")
    assert g.stock_size == 20
    for seed in range(20):
        st = g.new_hand(seed % 2, seed=seed)
        rng = random.Random(seed)
        while True:
            for seat in range(2):
                text = json.dumps(st.view(seat).to_dict())
                face_up = {st.turned, st.bottom_shown, st.turned_card}   # all shown to everyone
                for c in st.stock:
                    if c in face_up or st.hands[seat] >> c & 1 or any(c in t.cards for t in st.tricks) \
                            or c in st.trick_cards:
                        continue
                    assert f'"{g.codes[c]}"' not in text, (seed, seat, g.codes[c])
            if st.is_terminal:
                break
            st.apply(rng.choice(st.legal_actions()))
        out_of_play = g.size - 2 * g.cards_each
        assert out_of_play == 14


def test_take_in_round_one_completes_the_hands() -> None:
    g = game("turned-four")
    st = g.new_hand(3, seed=5)
    assert st.phase_name == "take_or_pass" and st.to_act == 0
    turned = st.turned
    assert st.view(2).turned == turned and all(st.hands[s].bit_count() == 5 for s in range(4))
    act(st, "0 pass", "1 take")
    assert st.bidder == 1 and st.trump == g.suit_of[turned] and st.phase_name == "play" and st.to_act == 0
    assert st.hands[1] >> turned & 1 and all(st.hands[s].bit_count() == 8 for s in range(4))
    assert st.view(0).turned is None            # picked up
    assert report(replay_of(st))["turned"] == g.codes[turned]


def replay_of(st: State) -> object:
    from engine.record import Replay
    return Replay(st.game, st, None)


def test_round_two_names_another_suit_and_all_pass_throws_in() -> None:
    g = game("turned-four")
    st = g.new_hand(3, seed=5)
    act(st, "0 pass", "1 pass", "2 pass", "3 pass")
    legal = {a.notation for a in st.legal_actions()}
    turned_suit = g.layout.suits[st.turned_suit]
    assert f"trump {turned_suit}" not in legal and "take" not in legal and "pass" in legal
    with pytest.raises(IllegalActionError, match="refused in the first round"):
        act(st, f"0 trump {turned_suit}")
    other = next(s for s in g.layout.suits if s != turned_suit)
    b = st.clone()
    act(b, f"0 trump {other}")
    assert b.bidder == 0 and b.trump_suit_code() == other and b.hands[0] >> st.turned & 1   # taker gets it anyway
    act(st, "0 pass", "1 pass", "2 pass", "3 pass")
    assert st.status == "annulled" and "passed twice" in st.annul_reason


def test_dealer_must_choose_twin() -> None:
    """Twin: with dealer_must_choose the dealer may not pass in round 2; without it the deal is thrown in."""
    base = game("turned-four")
    forced = twin("turned-four", {"schedule.3": {"take_or_pass": {"dealer_must_choose": True}}})
    for g, thrown in ((base, True), (forced, False)):
        st = g.new_hand(3, seed=5)
        act(st, *[f"{s} pass" for s in (0, 1, 2, 3, 0, 1, 2)])
        assert ("pass" in {a.notation for a in st.legal_actions()}) == thrown


def test_schmeiss_accept_and_refuse() -> None:
    g = game("turned-two")
    st = g.new_hand(1, seed=3)
    a = st.clone()
    act(a, "0 schmeiss")
    assert {x.notation for x in a.legal_actions()} == {"accept", "refuse"} and a.to_act == 1
    b = a.clone()
    act(a, "1 accept")
    assert a.status == "annulled" and a.annul_code == 5
    act(b, "1 refuse")
    assert b.bidder == 1 and b.trump == b.turned_suit
    c = st.clone()
    act(c, "0 pass", "1 pass", "0 schmeiss", "1 refuse")
    assert c.must_name and "pass" not in {x.notation for x in c.legal_actions()}
    other = next(s for s in g.layout.suits if g.layout.suits.index(s) != c.turned_suit)
    act(c, f"1 trump {other}")
    assert c.bidder == 1 and c.trump_suit_code() == other


def test_klaberjass_completion_bottom_card_and_exchange() -> None:
    g = game("turned-two")
    for seed in range(40):
        st = g.new_hand(1, seed=seed)
        turned = st.turned
        act(st, "0 take")
        assert all(st.hands[s].bit_count() == 9 for s in range(2)) and not st.hands[0] >> turned & 1
        assert st.bottom_shown == st.stock[-1] and st.view(1).stock_bottom == st.stock[-1]
        if st.phase_name != "exchange":
            continue
        seat = st.to_act
        low = g.layout.card_id(st.trump, len(g.layout.ranks) - 1)
        assert st.hands[seat] >> low & 1
        act(st, f"{seat} exchange")
        assert st.hands[seat] >> turned & 1 and not st.hands[seat] >> low & 1 and st.turned == low
        assert st.phase_name == "play" and st.to_act == 0
        return
    pytest.fail("no deal gave the holder of the seven of trumps the exchange")


def test_choose_and_push() -> None:
    g = game("choose-push")
    st = g.new_hand(3, seed=2)
    assert st.phase_name == "choose_trump" and st.to_act == 0
    assert "push" in {a.notation for a in st.legal_actions()}
    act(st, "0 push")
    assert st.to_act == 2 and "push" not in {a.notation for a in st.legal_actions()}
    with pytest.raises(IllegalActionError, match="pushed to you"):
        act(st, "2 push")
    act(st, "2 trump H")
    assert st.bidder == 2 and st.trump_suit_code() == "H" and st.to_act == 0   # the first hand leads
    no_push = twin("choose-push", {"schedule.3": {"choose_trump": {"may_push": False}}})
    st2 = no_push.new_hand(3, seed=2)
    assert "push" not in {a.notation for a in st2.legal_actions()}


def test_first_forehand_is_the_holder_of_the_card() -> None:
    g = game("choose-push")
    for seed in range(6):
        m = Match(g, seed=seed)
        st = m.new_hand()
        holder = next(s for s in range(4) if any(g.codes[c] == "7H" for c in st.dealt[s]))
        assert st.first == holder and st.to_act == holder
        rng = random.Random(seed)
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
        m.record_hand(st)
        assert m.new_hand().dealer == holder      # he deals the second deal


def test_coinche_closes_the_auction_and_no_raise_of_ones_own_bid() -> None:
    g = game("coinche-auction")
    st = g.new_hand(3, seed=1)
    act(st, "0 bid 80 H", "1 coinche")
    assert st.to_act == 2 and {a.notation for a in st.legal_actions()} == {"pass", "surcoinche"}
    act(st, "2 pass", "0 surcoinche")
    assert st.phase_name == "play" and st.multiplier == 4 and st.bidder == 0
    open_ = twin("coinche-auction", {"special.doubling.closes_auction": False,
                                     "auction.may_raise_own_bid": True})
    o = open_.new_hand(3, seed=1)
    act(o, "0 bid 80 H", "1 coinche")
    assert any(a.verb == "bid" for a in o.legal_actions())          # a higher bid may still come
    act(o, "2 pass", "3 pass")
    assert any(a.verb == "bid" for a in o.legal_actions()) and o.to_act == 0   # the bidder over his own bid
    own = twin("coinche-auction", {"special.doubling.closes_auction": False})
    c = own.new_hand(3, seed=1)
    act(c, "0 bid 80 H", "1 coinche", "2 pass", "3 pass")
    assert c.to_act == 0 and not any(a.verb == "bid" for a in c.legal_actions())


def test_new_verbs_parse_strictly_and_round_trip() -> None:
    for text in ("1 take", "0 push", "1 schmeiss", "0 exchange"):
        assert str(Action.parse(text)) == text
    for bad in ("1 take H", "0 push 2", "0 exchange 7H"):
        with pytest.raises(RecordError, match="takes no argument"):
            Action.parse(bad)


def test_a_record_of_a_stock_game_needs_its_stock() -> None:
    g = game("turned-two")
    st = play_random(g, 1)
    data = record_of(st, folder=DEAL).to_dict()
    assert len(data["stock"].split()) == 20
    del data["stock"]
    from engine.errors import UnreadableError
    with pytest.raises(UnreadableError, match="stock: missing"):
        replay(read_record_text(json.dumps(data), "<t>", DEAL), g)


def test_clone_copies_the_new_fields() -> None:
    g = game("turned-two")
    st = g.new_hand(1, seed=3)
    act(st, "0 schmeiss")
    c = st.clone()
    for f in ("turned", "turned_suit", "stock_used", "bottom_shown", "take_round", "take_spoke", "schmeiss_by",
              "must_name", "pushed", "stock"):
        assert getattr(c, f) == getattr(st, f), f
    act(c, "1 refuse")
    assert st.schmeiss_by == 0 and c.schmeiss_by == -1


def test_the_undealt_stock_changes_no_view_and_no_observation() -> None:
    """Two deals that differ only in the stock's cards nobody sees (all but the turned card and the bottom card)
    give every seat the same view and observation until cards come from the stock."""
    from engine.adapters.encoding import Observation

    g = game("turned-two")
    obs = Observation(g)
    dealt = g.shuffled_deal(7, 1)
    stock = g.shuffled_stock(7)
    other = [stock[0], *reversed(stock[1:-1]), stock[-1]]
    a = g.new_hand(1, hands=dealt, stock=stock)
    b = g.new_hand(1, hands=dealt, stock=other)
    for text in ("0 pass", "1 pass", "0 pass"):
        for seat in range(2):
            assert a.view(seat).to_dict() == b.view(seat).to_dict()
            assert obs.encode_state(a, seat) == obs.encode_state(b, seat) == obs.encode(a.view(seat))
        act(a, text)
        act(b, text)


def test_proposed_suit_then_the_first_hand_must_name() -> None:
    """turn_up {card: dealer_last} and if_all_pass: first_hand_names (Klaverjas-vrij): the dealer's last card is
    shown and kept; everyone passing, the first hand must name any suit; twin: a second round instead."""
    g = game("proposed-four")
    st = g.new_hand(3, seed=4)
    card = st.dealt[3][-1]
    assert st.turned == card and st.hands[3] >> card & 1 and st.view(1).turned == card
    act(st, "0 pass", "1 pass", "2 pass", "3 pass")
    assert st.to_act == 0 and {a.notation for a in st.legal_actions()} == {f"trump {s}" for s in g.layout.suits}
    with pytest.raises(IllegalActionError, match="first hand must name"):
        act(st, "0 pass")
    act(st, f"0 trump {g.codes[card][-1]}")
    assert st.bidder == 0 and st.phase_name == "play" and st.turned == -1 and st.turned_card == card
    assert report(replay_of(st))["turned"] == g.codes[card]
    second = twin("proposed-four", {"schedule.4": {"take_or_pass": {"if_all_pass": "second_round"}}})
    b = second.new_hand(3, seed=4)
    act(b, "0 pass", "1 pass", "2 pass", "3 pass")
    assert "pass" in {a.notation for a in b.legal_actions()}


def test_openspiel_deals_the_stock_as_chance_outcomes() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from engine.adapters.openspiel import register

    register()
    og = pyspiel.load_game("python_jacknine", {"ruleset": str(DEAL / "turned-two.yaml")})
    pyspiel.random_sim_test(og, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["turned-two", "turned-four", "proposed-four"])
def test_search_worlds_deal_a_stock_the_seat_cannot_tell(name: str) -> None:
    """The worlds of the OpenSpiel adapter, pimc's sampler and the determinizer put the turned card where the
    deal put it and deal their own stock: each world looks to the seat exactly as its hand does."""
    from engine.adapters.resample import WorldDrawer
    from engine.bots.determinize import WorldMaker
    from engine.bots.info import read_view
    from engine.bots.model import model_for
    from engine.bots.worlds import Sampler

    g = game(name)
    drawn = made = sampled = decisions = 0
    for seed in range(3):
        st = g.new_hand(seed % g.n, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal:
            seat = st.to_act
            v = st.view(seat)
            decisions += 1
            w = WorldDrawer(g, v, list(st.dealt[seat][:st.given[seat]])).draw(rng, 50)
            if w is not None:
                drawn += 1
                assert w.view(seat) == v
            if st.phase_name == "play":
                seen = read_view(g, v)
                m = WorldMaker(g, seen).make(rng)
                if m is not None:
                    made += 1
                    assert m.view(seat).hand == v.hand and m.to_act == seat
                if Sampler(g, seen, model_for(g)).sample(rng, 2, 4):
                    sampled += 1
            st.apply(rng.choice(st.legal_actions()))
    assert drawn == decisions and made > 0 and sampled > 0
