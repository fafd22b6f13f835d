"""Declarations of issue 14's house rules (MORE-GAMES.md sections 6.1, 6.2, 6.8, 6.9): the sure-sweep test, the
dummy played by its declarer, hands lying face up, and the bots taking each declaration on its merits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from engine import load_game
from engine.bots.base import make_bot
from engine.play.game import Game
from engine.play.state import State
from engine.play.sure_sweep import is_sure_sweep

MORE = Path(__file__).parent / "hands" / "more"


def _position(name: str, extra: int = 0) -> tuple[Game, State]:
    """The position after a record's actions (and `extra` more of them, if the record is longer)."""
    data = yaml.safe_load((MORE / f"{name}.yaml").read_text(encoding="utf-8"))
    game = load_game(data["ruleset"])
    cards = [game.layout.parse_cards(data["hands"][s].split()) for s in range(game.n)]
    state = game.new_hand(dealer=data["dealer"], hands=cards)
    for text in data["actions"][:len(data["actions"]) + extra]:
        state.apply(next(a for a in state.legal_actions() if str(a) == text))
    return game, state


def _mask(game: Game, codes: str) -> int:
    out = 0
    for c in game.layout.parse_cards(codes.split()):
        out |= 1 << c
    return out


@pytest.mark.parametrize(("cards", "sure"), [
    ("JS 9S AS TS JH 9H AH TH", True),     # every card tops what its holder lacks
    ("JS 9S AS 7S JH 9H AH TH", False),    # 7S: three spades above it, four lacking
    ("JS 9S AS TS KS QS 8S 7S", True),     # a whole suit
    ("JS 9S AS TS KS 7S JH 9H", True),     # 7S: five spades above it, two lacking (Q, 8)
    ("9S AS TS KS QS 8S 7S JH", False),    # the Jack of spades is out
])
def test_the_sure_sweep_test(cards: str, sure: bool) -> None:
    game = load_game("single-hand-show")
    assert is_sure_sweep(game, _mask(game, cards)) is sure


def test_four_cards_can_be_a_sure_sweep() -> None:
    game = load_game("cot-four")
    assert is_sure_sweep(game, _mask(game, "JS 9S JH 9H"))
    assert not is_sure_sweep(game, _mask(game, "JS 9S AH 9H"))


def test_the_declarer_plays_his_dummy() -> None:
    game, state = _position("cot-four-made", extra=-14)   # Cot declared, seat 0 led JS, seat 1 played TS
    assert state.to_act == 2 and state.controller == 0
    dummy = {game.codes[c] for c in range(game.size) if state.hands[2] >> c & 1}
    assert {a.notation for a in state.view(0).legal} == {f"play {c}" for c in dummy}
    assert state.view(2).legal == () and state.view(2).controller == 0
    for seat in (0, 1, 3):
        shown = state.view(seat).to_dict()["exposed"]
        assert [e["seat"] for e in shown] == [2] and set(shown[0]["cards"]) == dummy
    # nothing else hidden is shown: seat 1 sees neither seat 0's nor seat 3's cards
    text = json.dumps(state.view(1).to_dict())
    assert all(f'"{game.codes[c]}"' not in text for c in range(game.size) if state.hands[3] >> c & 1)
    assert all(f'"{game.codes[c]}"' not in text for c in range(game.size) if state.hands[0] >> c & 1)


def test_a_show_lays_the_hand_face_up() -> None:
    game, state = _position("single-hand-show-scores-3")
    assert state.is_terminal and state.game_points == [3, 0]
    assert {c for e in state.view(1).to_dict()["exposed"] for c in e["cards"]} == set(
        "JS 9S AS TS JH 9H AH TH".split())


def _choice(bot: str, name: str, extra: int = 0) -> str:
    game, state = _position(name, extra)
    b = make_bot(bot, game, seed=1)
    return b.choose(state.view(state.to_act), state.legal_actions()).notation


@pytest.mark.parametrize("bot", ["heuristic", "pimc", "search"])
def test_bots_show_a_sure_sweep(bot: str) -> None:
    assert _choice(bot, "single-hand-show-options") == "declare show"


@pytest.mark.parametrize("bot", ["heuristic", "pimc", "search"])
def test_bots_announce_thani_when_the_last_two_tricks_are_certain(bot: str) -> None:
    assert _choice(bot, "thani-late-options") == "declare thani"


@pytest.mark.parametrize("bot", ["heuristic", "pimc", "search"])
def test_bots_bid_cot_on_a_sure_sweep_of_four(bot: str) -> None:
    assert _choice(bot, "cot-four-options") == "declare cot"


def test_the_heuristic_keeps_a_number_without_a_sure_sweep() -> None:
    game, state = _position("cot-four-over-a-number", extra=-1)   # seat 1: AS TS AH TH, not a sure sweep
    b = make_bot("heuristic", game, seed=1)
    assert b.choose(state.view(1), state.legal_actions()).verb != "declare"


@pytest.mark.parametrize("ruleset", ["cot-four", "thani-late", "single-hand-show", "partner-exposed"])
def test_every_bot_finishes_hands_legally(ruleset: str) -> None:
    game = load_game(ruleset)
    for i in range(6):
        bots = [make_bot(["random", "heuristic", "pimc", "search"][(i + s) % 4], game, seed=s) for s in range(4)]
        state = game.new_hand(dealer=i % 4, seed=100 + i)
        while state.to_act >= 0:
            bot = bots[state.controller]
            state.apply(bot.choose(state.view(state.to_act), state.legal_actions()))
        assert state.status in ("complete", "annulled")


def test_a_player_at_the_table_bids_cot_and_plays_his_dummy(tmp_path: Path) -> None:
    from tests.test_table_session import by_number, play

    def cot_first(state: State, k: int) -> str:
        if any(a.notation == "declare cot" for a in state.legal_actions()):
            return "declare cot"
        return by_number(state, k)

    drv, session = play(tmp_path, "cot-four", 0, 7, cot_first, max_hands=6)
    out = drv.buf.getvalue()
    assert "(your dummy)" in out and "face up (" in out
    hands = [h["actions"] for h in session.snapshot().hands]
    cot = [h for h in hands if "0 declare cot" in h]
    assert cot and any(a.startswith("2 play") for h in cot for a in h)
