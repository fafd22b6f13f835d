"""The terminal table reads like a card table: bids typed as a number then a suit (not 141 numbered choices), a
heading for every kind of decision, partner/left/right, who is winning the trick, the cards just dealt marked,
and a pause after each hand's summary."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from engine.play.compile import load_game
from engine.play.state import State
from engine.table.cues import new_cards, winning_seat
from engine.table.decisions import decision
from engine.table.seats import relation, seat_label

runner = CliRunner()


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


def play(*args: str, input: str) -> str:
    r = runner.invoke(app, ["play", *args], input=input)
    assert r.exit_code == 0, r.output
    return r.output


def test_the_fifty_six_auction_is_a_number_then_a_suit() -> None:
    out = play("-r", "fifty-six", "--seed", "5", "--save", "m.yaml", input="30\n2\nq\n")
    first = out.split("\n== ")[1]
    choose = next(line for line in first.splitlines() if line.startswith("choose:"))
    assert choose == "choose: 1) pass  2) bid 29 S   or type a bid: 29 to 56, then a suit (♠ ♥ ♦ ♣ NT), e.g. 29 ♠"
    assert "bid 30 in which suit? 1) ♠  2) ♥  3) ♦  4) ♣  5) NT" in out
    assert "you: bid 30 H" in out                      # 30, then the second suit
    assert len(first.splitlines()) < 15                # one screen, not 141 choices over 20 lines


@pytest.mark.parametrize("typed", ["bid 30 S", "30 S", "30 ♠"])
def test_a_whole_bid_is_still_typed_at_once(typed: str) -> None:
    out = play("-r", "fifty-six", "--seed", "5", "--save", "m.yaml", input=f"{typed}\nq\n")
    assert "in which suit?" not in out and "you: bid 30 S" in out


def test_a_typed_number_is_the_bid_not_a_choice_number() -> None:
    # twenty-eight, seat 1 opens: before, '16' chose the 16th item of the list (bid 28)
    out = play("-r", "twenty-eight", "--seed", "3", "--seat", "1", "--save", "m.yaml", input="16\nq\n")
    assert "you: bid 16" in out


def test_each_hand_ends_with_a_pause_before_the_next() -> None:
    out = play("-r", "twenty-eight", "--seed", "3", "--save", "m.yaml", "--max-hands", "2", input="1\n" * 60)
    first, _, rest = out.partition("-- hand 1 over")
    summary, _, after = rest.partition("press Enter for the next hand")
    assert "score change:" in summary and "== " not in summary   # nothing of hand 2 before the pause
    assert "== twenty-eight · hand 2" in after


def test_seats_are_named_from_the_players_chair() -> None:
    teams = [[0, 2], [1, 3]]
    assert [relation(0, s, 4, teams) for s in range(4)] == ["you", "right", "partner", "left"]
    assert [relation(0, s, 4, teams, "clockwise") for s in range(4)] == ["you", "left", "partner", "right"]
    six = [[0, 2, 4], [1, 3, 5]]
    assert [relation(1, s, 6, six) for s in range(6)] == ["left", "you", "right", "partner", "opposite",
                                                          "partner"]
    assert seat_label(3, 1, 4, teams) == "seat 1 (partner)"
    assert seat_label(3, 1, 4, teams, names=["", "Asha"]) == "Asha (partner)"
    alone = [[0], [1, 2]]    # a lone bidder's opponents are partners for the hand
    assert relation(1, 2, 3, alone) == "partner, right"
    assert [relation(0, s, 2, [[0], [1]]) for s in range(2)] == ["you", "opposite"]     # two face to face
    out = play("-r", "twenty-eight", "--seed", "3", "--save", "m.yaml", input="q\n")
    assert "at the table: seat 1 (right) · seat 2 (partner) · seat 3 (left)" in out


def _until(state: State, done: object) -> State:
    while not done(state):  # type: ignore[operator]
        state.apply(state.legal_actions()[0])
    return state


def test_the_card_winning_the_trick_so_far_is_marked() -> None:
    game = load_game("twenty-eight")
    state = _until(game.new_hand(0, seed=5), lambda s: s.phase_name == "play" and len(s.trick_cards) == 2)
    g = game
    led, second = state.trick_cards
    expect = state.trick_seats[1] if g.suit_of[second] == g.suit_of[led] and \
        g.strength[second] > g.strength[led] else state.trick_seats[0]
    assert all(winning_seat(state, s) == expect for s in range(4))
    out = play("-r", "twenty-eight", "--seed", "5", "--save", "m.yaml", input="pass\n" + "1\n" * 4 + "q\n")
    assert "winning" in out.split("trick 1:", 1)[1].splitlines()[0]


def test_the_cards_of_the_second_deal_are_marked() -> None:
    game = load_game("twenty-eight")
    state = game.new_hand(0, seed=5)
    assert new_cards(state, 0) == set()                  # the first deal: nothing is new
    state = _until(state, lambda s: s.phase_name == "play")
    for seat in range(4):
        fresh = new_cards(state, seat)
        view = state.view(seat)
        assert len(fresh) == 4 and fresh <= {view.code(c) for c in view.hand_cards()}
        assert fresh == {game.codes[c] for c in state.dealt[seat][4:8]}
    out = play("-r", "twenty-eight", "--seed", "5", "--save", "m.yaml", input="pass\n" * 3 + "q\n")
    assert "(* just dealt)" in out


def _find(ruleset: str, want: object, hands: int = 300) -> State:
    game = load_game(ruleset)
    for seed in range(hands):
        state = game.new_hand(seed % game.n, seed=seed)
        while not state.is_terminal:
            if want(state):  # type: ignore[operator]
                return state
            legal = state.legal_actions()
            pick = (seed + len(state.history)) % len(legal) if state.phase_name != "auction" else \
                (0 if seed % 3 else -1)   # most auctions all pass (the dealer's forced bid), some go high
            state.apply(legal[pick])
    raise AssertionError(f"no {ruleset} hand reached the position")


@pytest.mark.parametrize(("ruleset", "want", "heading"), [
    ("twenty-nine", lambda s: s.phase_name == "auction" and not any(a.verb == "pass" for a in s.legal_actions()),
     "your bid: you must bid now (passing is not allowed)"),
    ("twenty-nine", lambda s: [a.verb for a in s.legal_actions()] == ["call"],
     "you cannot follow suit: you must call for the trump"),
    ("twenty-eight", lambda s: s.phase_name == "raise", "raise the contract? (pass keeps it as it is)"),
    ("twenty-eight", lambda s: s.phase_name == "trump", "choose the trump: lay a card of the trump suit face down"),
    ("double-redouble", lambda s: s.phase_name == "doubling", "double? (pass to let the contract stand)"),
])
def test_every_kind_of_decision_has_a_heading(ruleset: str, want: object, heading: str) -> None:
    state = _find(ruleset, want)
    view = state.view(state.to_act)
    asked = decision(view.phase, view.legal, state.game.doubling_names)
    assert asked is not None and asked.heading == heading


def test_a_verb_the_table_does_not_know_is_still_offered() -> None:
    from engine.play.actions import Action
    asked = decision("play", [Action(0, "play", "JS"), Action(0, "claim", "rest"), Action(0, "concede")])
    assert asked is not None and asked.cards == ["JS"] and asked.others == ["claim rest", "concede"]
