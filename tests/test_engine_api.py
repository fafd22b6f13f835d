"""The engine's public API: seeded deals, action notation, clones, explicit deals and refusals."""

from __future__ import annotations

import inspect
import random
import re

import pytest

from engine import Action, IllegalActionError, load_game
from engine.play import state as state_module
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
    """Every attribute State.__init__ sets is copied by clone() (or is a constructor argument)."""
    source = inspect.getsource(State.__init__)
    fields = set(re.findall(r"self\.(\w+)(?:: [^=]+)? = ", source))
    constructor = {"game", "dealer", "n", "first", "dealt", "match_scores", "_legal", "hand_teams"}
    copied = set(state_module._COPIED_VALUES) | set(state_module._COPIED_LISTS)
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
    assert r.status in ("complete", "annulled") and s.legal_actions() == [] and s.current_seat == -1
    if r.status == "complete":
        assert sum(r.card_points) == 29 and len(r.tricks) == 8
