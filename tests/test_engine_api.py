"""The engine's public API: seeded deals, action notation, clones, explicit deals and refusals."""

from __future__ import annotations

import dataclasses
import inspect
import random
import re
from pathlib import Path

import pytest

from engine import Action, IllegalActionError, Match, load_game
from engine.errors import ArgumentError
from engine.play.state import State


def test_same_seed_same_deal_and_different_seeds_differ() -> None:
    g = load_game("twenty-eight")
    assert g.new_hand(1, seed=99).dealt == g.new_hand(1, seed=99).dealt
    assert g.new_hand(1, seed=99).dealt != g.new_hand(1, seed=100).dealt


def test_deal_from_seed_is_pinned() -> None:
    """The seeded deal is part of the record contract (`seed: N`): changing the shuffle breaks saved records."""
    g = load_game("twenty-eight")
    s = g.new_hand(0, seed=42)
    assert [" ".join(g.codes[c] for c in h) for h in s.dealt] == PINNED_SEED_42


PINNED_SEED_42 = ["TD 9D QC AC 8S JH JS KD", "QD KC 8H QH 9H TH TS 8D", "QS KH JC TC 9C KS 8C AH",
                  "9S 7H 7S JD AS 7D AD 7C"]  # seats 0..3, each in the order received


@pytest.mark.parametrize("text", ["2 play JS", "0 bid 30 NT", "1 bid 16", "3 trump seventh", "2 show pair",
                                  "1 declare thani", "0 pass", "3 call", "2 raise 24", "1 C"])
def test_action_notation_round_trips(text: str) -> None:
    assert str(Action.parse(text)) == text


def test_action_parse_normalises_cards() -> None:
    assert str(Action.parse("2 play 10s")) == "2 play TS"
    assert str(Action.parse("0 trump 10h")) == "0 trump TH"


def test_clone_copies_every_field() -> None:
    """Every attribute State.__init__ sets is written by clone() (or is a constructor argument)."""
    source = inspect.getsource(State.__init__)
    fields = set(re.findall(r"self\.(\w+)(?:: [^=]+)? = ", source))
    constructor = {"game", "dealer", "n", "first", "dealt", "match_scores", "match_target"}
    copied = set(re.findall(r"\bc\.(\w+) = ", inspect.getsource(State.clone)))
    assert fields - constructor - copied == set()


@pytest.mark.parametrize("name", ["twenty-eight", "twenty-nine", "fifty-six", "cot", "single-hand"])
def test_clone_is_independent(name: str) -> None:
    g = load_game(name)
    rng = random.Random(4)
    for i in range(30):
        s = g.new_hand(i % g.n, seed=i)
        while not s.is_terminal:
            twin = s.clone()
            before = [str(a) for a in twin.history], list(twin.hands)
            action = rng.choice(s.legal_actions())
            s.apply(action)
            assert ([str(a) for a in twin.history], list(twin.hands)) == before  # the clone did not move
            twin.apply(action)
            assert twin.history == s.history and twin.hands == s.hands and twin.team_points == s.team_points


def test_illegal_action_reason_and_state_unchanged() -> None:
    g = load_game("twenty-eight")
    s = g.new_hand(3, hands=[g.layout.parse_cards(h.split()) for h in (
        "JS 9S AH TH KD QD 8C 7C", "9H 8H 7H AS KC QC JD TD", "JH AD 9D 8D 7D TS KS QS", "JC 9C AC TC KH QH 8S 7S")])
    with pytest.raises(IllegalActionError) as e:
        s.apply(Action.parse("0 pass"))
    assert e.value.reason == "the first hand must open the bidding"
    with pytest.raises(IllegalActionError) as e:
        s.apply(Action.parse("1 bid 20"))
    assert e.value.reason == "it is seat 0's turn, not seat 1's"
    assert s.history == [] and s.current_seat == 0


def test_result_and_terminal() -> None:
    g = load_game("twenty-nine")
    s = g.new_hand(0, seed=5)
    rng = random.Random(1)
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    r = s.result
    assert r.status in ("complete", "annulled") and s.legal_actions() == () and s.current_seat == -1
    if r.status == "complete":
        assert sum(r.card_points) == 29 and len(r.tricks) == 8


# --- arguments from callers are checked (issue: hostile API arguments) ------------------------------------------
def test_view_of_a_seat_not_at_the_table_is_refused() -> None:
    state = load_game("twenty-eight").new_hand(0, seed=1)
    for seat in (-1, 4, 1.0, True, "1"):
        with pytest.raises(ArgumentError, match="is not at the table"):
            state.view(seat)  # type: ignore[arg-type]


def test_apply_takes_an_action_not_text() -> None:
    state = load_game("twenty-eight").new_hand(0, seed=1)
    with pytest.raises(ArgumentError, match=r"apply\(\) takes an Action"):
        state.apply("1 bid 16")  # type: ignore[arg-type]
    assert state.history == []


def test_what_a_caller_holds_cannot_change_the_state() -> None:
    game = load_game("twenty-eight")
    state = game.new_hand(0, seed=1)
    legal = state.legal_actions()
    with pytest.raises(AttributeError):
        legal.append(Action(state.to_act, "bid", "99"))  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError):
        state.apply(Action(state.to_act, "bid", "99"))
    assert Action(state.to_act, "bid", "99") not in state.legal_actions()
    rng = random.Random(2)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    result = state.result
    with pytest.raises(AttributeError):
        result.tricks.append(result.tricks[0])  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.tricks[0].winner = 9  # type: ignore[misc]
    result.card_points[0] += 100
    assert state.result.card_points != result.card_points


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"dealer": 4}, "dealer 4 is not at the table"),
    ({"dealer": -1}, "dealer -1 is not at the table"),
    ({"seed": -1}, "seed -1"),
    ({"seed": True}, "seed True"),
    ({"seed": "7"}, "seed '7'"),
    ({"hands": [[0] * 8] * 4}, "is not a card id of the pack"),
    ({"hands": [list(range(8))] * 3}, "one list of card ids per seat"),
    ({"hands": [list(range(i * 8, i * 8 + 7)) for i in range(4)]}, "must receive 8 cards"),
    ({"hands": [[c + 100 for c in range(i * 8, i * 8 + 8)] for i in range(4)]}, "is not a card id"),
    ({"seed": 1, "match_scores": [0]}, "one whole number per team"),
])
def test_new_hand_checks_its_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ArgumentError, match=re.escape(message)):
        load_game("twenty-eight").new_hand(**kwargs)  # type: ignore[arg-type]


def test_negative_seeds_are_refused_everywhere() -> None:
    game = load_game("twenty-eight")
    with pytest.raises(ArgumentError):
        Match(game, seed=-1)
    assert game.new_hand(0, seed=1).dealt != game.new_hand(0, seed=2).dealt


def test_big_decks_build_in_bounded_memory(tmp_path: Path) -> None:
    """A double pack of 13 ranks (26 cards a suit): nothing is tabled per possible holding of a suit (2^26), only
    per holding that occurs."""
    (tmp_path / "big.yaml").write_text(
        "schema_version: 1\nname: big\nextends: fifty-six\ndescription: a double pack of thirteen ranks\n"
        "table: {players: 4, teams: [[0, 2], [1, 3]]}\n"
        "deck:\n  ranks: [J, '9', A, T, K, Q, '8', '7', '6', '5', '4', '3', '2']\n"
        "schedule: [{deal: 13}, {deal: 13}, auction]\n")
    game = load_game(tmp_path / "big.yaml")
    assert game.size == 104
    assert sum(len(t) for seat in game._play_table for t in seat) == 0
    rng = random.Random(4)
    for i in range(5):
        state = game.new_hand(i % 4, seed=i)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
    assert sum(len(t) for seat in game._play_table for t in seat) < 2000


@pytest.mark.parametrize("ruleset", ["twenty-eight", "fifty-six", "twenty-nine", "cot", "seventh-card", "forty"])
def test_card_ids_agree_with_legal_actions(ruleset: str) -> None:
    """card_mask/other_actions/play_card_id describe exactly what legal_actions/apply do, at every turn."""
    game = load_game(ruleset)
    rng = random.Random(7)
    for i in range(40):
        state = game.new_hand(i % game.n, seed=i)
        while not state.is_terminal:
            legal = state.legal_actions()
            mask = state.card_mask()
            plays = {a for a in legal if a.verb == "play"}
            assert {game.play_action[state.to_act][c] for c in range(game.size) if mask >> c & 1} == plays
            assert state.other_actions() == [a for a in legal if a.verb != "play"] or state.phase_name != "play"
            twin = state.clone()
            action = rng.choice(legal)
            state.apply(action)
            if action.verb == "play":
                twin.play_card_id(next(c for c in game.code_ids[action.arg] if mask >> c & 1))
            else:
                twin.apply(action)
            assert twin.history == state.history and twin.hands == state.hands
    with pytest.raises(ArgumentError):
        game.new_hand(0, seed=1).play_card_id(0)


def test_random_playout_finishes_hands_by_the_rules() -> None:
    from engine.play.playout import random_playout

    for ruleset in ("twenty-eight", "fifty-six", "cot", "single-hand"):
        game = load_game(ruleset)
        rng = random.Random(3)
        for i in range(30):
            state = game.new_hand(i % game.n, seed=i)
            random_playout(state, rng.random)
            assert state.is_terminal
            replayed = game.new_hand(i % game.n, seed=i)
            for action in state.history:
                replayed.apply(action)
            assert replayed.status == state.status and replayed.game_points == state.game_points
