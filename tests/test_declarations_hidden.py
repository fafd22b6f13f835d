"""What the new declarations of a hand let each seat see (Thunee's file): a folded trump card stays hidden from the
others until the trump is shown at the first lead, `trump last` is public but its suit is not, and a folded card
that a special contract sends back unseen stays hidden for the rest of the hand."""

from __future__ import annotations

from pathlib import Path

import yaml

from engine import load_game
from engine.play.actions import Action
from engine.play.state import State

MORE = Path(__file__).parent / "hands" / "more"


def _state(stem: str, upto: int | None = None) -> State:
    data = yaml.safe_load((MORE / f"{stem}.yaml").read_text(encoding="utf-8"))
    game = load_game("thunee")
    hands = [game.layout.parse_cards(data["hands"][s].split()) for s in range(game.n)]
    state = game.new_hand(dealer=data["dealer"], hands=hands)
    for text in data["actions"][:upto]:
        state.apply(Action.parse(text))
    return state


def _texts(state: State, seat: int) -> str:
    return str(state.view(seat).to_dict())


def test_the_folded_card_is_hidden_until_the_first_lead() -> None:
    before = _state("thunee-counting-exactly-105", 9)     # the window closed; seat 2 is about to lead
    for seat in (0, 2, 3):
        v = before.view(seat)
        assert v.trump is None and "1 trump 9S" not in _texts(before, seat)
        assert "9S" not in _texts(before, seat)
    assert before.view(1).trump is not None
    after = _state("thunee-counting-exactly-105", 10)     # trick 1 led: the trump is shown, 9S back in the hand
    assert not after.concealed and after.view(0).trump == after.trump
    assert after.hands[1] >> after.game.layout.parse_cards(["9S"])[0] & 1


def test_trump_last_is_public_but_its_suit_is_not() -> None:
    state = _state("thunee-trump-last")
    for seat in (0, 2, 3):
        assert "1 trump last" in _texts(state, seat)
        assert state.view(seat).trump is None
    assert state.view(1).trump == state.trump


def test_a_fold_sent_back_by_thunee_stays_hidden() -> None:
    state = _state("thunee-no-jodi-in-thunee")            # seat 1 folded KH, seat 3's Thunee sent it back
    assert state.trump >= 0 and not state.concealed
    for seat in (0, 2, 3):
        assert "1 trump KH" not in _texts(state, seat)
    assert "1 trump KH" in _texts(state, 1)
