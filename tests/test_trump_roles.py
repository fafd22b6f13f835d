"""deck.trump_ranks / deck.trump_points (the trump suit's own order and points), trump.modes (named modes: no
trumps, all trumps, top-down, bottom-up, each with its order, points and multiplier) and trump.suit_multipliers.

The rule files are tests/rulefiles/trump_roles: `trump-roles` (32 cards, every bid names the trump, Belote's
trump and plain tables), its twin `trump-roles-plain` without the trump tables, and `trump-modes` (four modes and
doubled black suits). One deal, worked by hand: the first trick is AH 9H JH TH (seats 0..3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Action, load_game
from engine.errors import IllegalActionError
from engine.play.game import Game
from engine.play.state import State

HERE = Path(__file__).parent / "rulefiles" / "trump_roles"
HANDS = [["AH", "AS", "TS", "KS", "QS", "JS", "9S", "8S"],
         ["9H", "7S", "AD", "TD", "KD", "QD", "JD", "9D"],
         ["JH", "8D", "7D", "AC", "TC", "KC", "QC", "JC"],
         ["TH", "KH", "QH", "8H", "7H", "9C", "8C", "7C"]]
FIRST_TRICK = ["AH", "9H", "JH", "TH"]


def _game(name: str) -> Game:
    return load_game(HERE / f"{name}.yaml")


def _hand(game: Game, bid: str) -> State:
    """The deal, dealer 3 (seat 0 speaks and leads first): seat 0 bids `bid`, the others pass."""
    st = game.new_hand(3, hands=[[game.code_ids[c][0] for c in h] for h in HANDS])
    for text in (f"0 bid {bid}", "1 pass", "2 pass", "3 pass"):
        st.apply(game.intern(Action.parse(text)))
    return st


def _first_trick(game: Game, bid: str) -> tuple[State, int, int]:
    st = _hand(game, bid)
    for seat, card in enumerate(FIRST_TRICK):
        st.apply(game.action(seat, "play", card))
    t = st.tricks[0]
    return st, t.winner, t.points


def _play_out(st: State) -> State:
    while st.status == "in_progress":
        st.apply(st.legal_actions()[0])
    return st


@pytest.mark.parametrize(("name", "bid", "winner", "points"), [
    ("trump-roles", "80 H", 2, 20 + 14 + 11 + 10),      # hearts trump: J 9 A T, counting 20 14 11 10
    ("trump-roles", "80 S", 0, 11 + 0 + 2 + 10),        # hearts plain: A T K Q J 9, counting 11 10 4 3 2 0
    ("trump-roles-plain", "80 H", 0, 11 + 0 + 2 + 10),  # the twin: trumps rank and count as plain suits
    ("trump-modes", "80 obenabe", 0, 11 + 0 + 2 + 10),  # A K Q J T 9 8 7
    ("trump-modes", "80 undenufe", 1, 0 + 0 + 2 + 10),  # 7 8 9 T J Q K A: the Nine is highest of the four
    ("trump-modes", "80 sans-atout", 0, 19 + 0 + 2 + 10),
    ("trump-modes", "80 tout-atout", 2, 20 + 14 + 11 + 10),
])
def test_the_first_trick_by_the_trump_choice(name: str, bid: str, winner: int, points: int) -> None:
    _, w, p = _first_trick(_game(name), bid)
    assert (w, p) == (winner, points)


@pytest.mark.parametrize(("name", "bid", "total", "multiplier"), [
    ("trump-roles", "80 H", 162, 1), ("trump-roles", "80 S", 162, 1), ("trump-roles-plain", "80 H", 130, 1),
    ("trump-modes", "80 S", 162, 2), ("trump-modes", "80 D", 162, 1), ("trump-modes", "80 obenabe", 162, 3),
    ("trump-modes", "80 undenufe", 162, 3), ("trump-modes", "80 sans-atout", 162, 1),
    ("trump-modes", "80 tout-atout", 258, 1),
])
def test_card_points_sum_to_the_choice_total_and_the_score_is_multiplied(name: str, bid: str, total: int,
                                                                        multiplier: int) -> None:
    game = _game(name)
    st = _play_out(_hand(game, bid))
    assert sum(st.team_points) == total
    assert sum(t.points for t in st.tricks) == total
    assert st.trump_multiplier == multiplier
    band = 1 if st.made else -1
    assert st.game_points[0] == band * multiplier
    assert game.points_per_hand == max(total for n, _, total, _ in _TOTALS if n == name)


_TOTALS = [("trump-roles", "", 162, 0), ("trump-roles-plain", "", 130, 0), ("trump-modes", "", 258, 0)]


def test_modes_are_bids_after_the_suits_and_their_state() -> None:
    game = _game("trump-modes")
    assert game.bid_suits == ["S", "H", "D", "C", "obenabe", "undenufe", "sans-atout", "tout-atout"]
    st = _hand(game, "80 tout-atout")
    assert (st.trump, st.all_trumps, st.trump_mode) == (-1, True, 3)
    assert st.clone().trump_mode == 3 and st.clone().all_trumps
    st = _hand(game, "80 obenabe")
    assert (st.all_trumps, st.trump_multiplier) == (False, 3)
    with pytest.raises(IllegalActionError):   # a mode the file does not name
        game.new_hand(3, seed=1).apply(game.intern(Action.parse("0 bid 80 misere")))


def test_nobody_can_trump_in_all_trumps() -> None:
    """Tout-atout: a heart played to a diamond lead by a seat void in diamonds does not win the trick."""
    game = _game("trump-modes")
    st = _hand(game, "80 tout-atout")
    for seat, card in enumerate(FIRST_TRICK):   # seat 2 wins with JH and leads
        st.apply(game.action(seat, "play", card))
    st.apply(game.action(2, "play", "8D"))
    st.apply(game.action(3, "play", "KH"))      # void in diamonds
    st.apply(game.action(0, "play", "AS"))
    st.apply(game.action(1, "play", "9D"))      # the Nine is second in every suit
    t = st.tricks[1]
    assert (t.winner, t.points) == (1, 0 + 4 + 11 + 14)


@pytest.mark.parametrize("bot", ["heuristic", "search:2", "pimc:2", "random"])
def test_bots_play_the_modes_legally_and_bid_them(bot: str) -> None:
    """Every bot plays whole hands of trump-modes (apply() refuses an illegal choice), and the card points of each
    hand sum to its trump choice's total."""
    from engine.bots.base import make_bot

    game = _game("trump-modes")
    bots = [make_bot(bot, game, s) for s in range(game.n)]
    named: set[str] = set()
    for i in range(40 if bot in ("heuristic", "random") else 3):
        st = game.new_hand(i % game.n, seed=500 + i)
        while st.to_act >= 0:
            st.apply(bots[st.to_act].choose(st.view(st.to_act), st.legal_actions()))
        if st.status == "complete":
            named.add(st.high_suit)
            want = game.mode_points[st.trump_mode] if st.trump_mode >= 0 else game.points_for(st.trump)
            assert sum(t.points for t in st.tricks) == sum(want) + 10
    assert named


@pytest.mark.parametrize(("cards", "code"), [
    ("AS KS AH KH AD KD AC KC", "obenabe"), ("7S 8S 7H 8H 7D 8D 7C 8C", "undenufe"),
    ("JS 9S JH 9H JD 9D JC 9C", "tout-atout"), ("JS 9S AS TS KS 7H 8D 7C", "S"),
])
def test_the_heuristic_names_the_mode_its_hand_suits(cards: str, code: str) -> None:
    from engine.bots.model import model_for

    game = _game("trump-modes")
    hand = sum(1 << game.code_ids[c][0] for c in cards.split())
    assert model_for(game).best_choice(hand)[0] == code


def test_the_heuristic_values_cards_by_the_hands_table() -> None:
    """With hearts trump in trump-roles the Nine of trumps (14 points, second) is no cheap discard: the heuristic
    valuing by the plain table (Nine 0) would throw it where the hand's table says it is worth 14."""
    from engine.bots.info import read_view

    game = _game("trump-roles")
    st = _hand(game, "80 H")
    seen = read_view(game, st.view(1))
    nine = game.code_ids["9H"][0]
    assert (seen.points[nine], seen.strength[nine]) == (14, 7)
    assert game.points[nine] == 0


def test_a_mode_record_replays_and_round_trips() -> None:
    """`bid 80 undenufe` reads, replays to the hand-worked first trick (the Nine wins, 12 points), and the report's
    trump says the mode (suit null) and its multiplier."""
    from engine.record import read_record, replay, report

    rec = read_record(HERE / "undenufe-hand.yaml")
    rp = replay(rec)
    rep = report(rp)
    assert rep["trump"] == {"suit": None, "exposed_in_trick": None, "mode": "undenufe", "multiplier": 3}
    assert rep["tricks"][0] == {"leader": 0, "cards": FIRST_TRICK, "winner": 1, "points": 12}
    assert [str(a) for a in rp.state.history][:1] == ["0 bid 80 undenufe"]
    assert Action.parse(str(rp.state.history[0])) == rp.state.history[0]


def test_a_suit_in_a_file_with_modes_reports_mode_null() -> None:
    game = _game("trump-modes")
    st = _play_out(_hand(game, "80 H"))
    from engine.record import Replay, report

    rep = report(Replay(game=game, state=st, error=None))
    assert rep["trump"] == {"suit": "H", "exposed_in_trick": 1, "mode": None}
    bad = game.new_hand(3, seed=1)
    with pytest.raises(IllegalActionError, match="a trump suit, no-trumps or a trump mode"):
        bad.apply(Action.parse("0 bid 80 misere"))


@pytest.mark.parametrize("name", ["trump-modes", "trump-roles"])
def test_encodings_carry_the_mode_and_agree(name: str) -> None:
    """The observation of a file with modes has the mode part; the state's encoding is the view's, and the fast
    legal indices (a mode bid among them) are the legal actions, on random hands."""
    from engine.adapters.encoding import Observation
    from tests.test_encoding import test_fast_legal_indices_and_apply_agree_with_the_actions as legal_agree
    from tests.test_encoding import test_state_encoding_is_the_view_encoding as encodings_agree

    path = str(HERE / f"{name}.yaml")
    encodings_agree(path)
    legal_agree(path)
    obs = Observation(_game(name))
    assert ("trump_mode" in obs.offsets) == (name == "trump-modes")
    if name == "trump-modes":
        st = _hand(_game(name), "80 undenufe")
        enc = obs.encode_state(st, 2)
        m0 = obs.offsets["trump_mode"]
        assert enc[m0:m0 + 5] == [0.0, 1.0, 0.0, 0.0, 3 / 8]


def test_the_rl_environments_follow_the_modes() -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from tests.test_rl_fast import test_rows_equal_the_whole_encoding
    from tests.test_rl_vector import test_every_step_is_the_whole_encoding

    path = str(HERE / "trump-modes.yaml")
    test_rows_equal_the_whole_encoding(path)
    test_every_step_is_the_whole_encoding(path)


def test_openspiel_plays_the_modes() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from engine.adapters.openspiel import register
    from tests.test_openspiel import test_every_legal_action_has_an_index_that_maps_back

    path = str(HERE / "trump-modes.yaml")
    test_every_legal_action_has_an_index_that_maps_back(path)
    register()
    game = pyspiel.load_game("python_jacknine", {"ruleset": path})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
