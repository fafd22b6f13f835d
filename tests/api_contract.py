"""The public API's contract on bad arguments and pickling, written once for both builds.

tests/test_api_contract.py runs every check on the sources; benchmarks/compiled_check.py runs the same checks in a
venv where jacknine is installed compiled (mypyc), so both builds must refuse the same arguments with the same
error and pickle the same objects. No pytest here: the compiled check's venv has none.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable

from engine import Action, ArgumentError, Game, Match, State, load_game
from engine.play.view import View


def _refuses(call: Callable[[], object], what: str) -> None:
    try:
        call()
    except ArgumentError:
        return
    except Exception as e:  # noqa: BLE001 - the contract is ArgumentError, not a build's own TypeError
        raise AssertionError(f"{what}: {type(e).__name__} ({e}) instead of ArgumentError") from None
    raise AssertionError(f"{what}: accepted")


def _hand(seed: int = 1) -> State:
    return load_game("twenty-eight").new_hand(0, seed=seed)


def check_apply_refuses_text() -> None:
    state = _hand()
    _refuses(lambda: state.apply("1 bid 16"), "apply(str)")
    _refuses(lambda: state.apply(None), "apply(None)")
    assert state.history == [], "a refused argument changed the hand"


def check_seats_are_not_bools() -> None:
    game = load_game("twenty-eight")
    state = game.new_hand(0, seed=1)
    _refuses(lambda: state.view(True), "view(True)")
    _refuses(lambda: state.view(-1), "view(-1)")
    _refuses(lambda: state.view(1.0), "view(1.0)")
    _refuses(lambda: game.new_hand(dealer=True, seed=1), "new_hand(dealer=True)")
    _refuses(lambda: game.new_hand(0, seed=True), "new_hand(seed=True)")
    _refuses(lambda: game.new_hand(0, seed=1, match_scores=[True, 0]), "new_hand(match_scores=[True, 0])")
    _refuses(lambda: Match(game, first_dealer=True), "Match(first_dealer=True)")
    played = _to_play(game)
    card = (played.card_mask() & -played.card_mask()).bit_length() - 1
    _refuses(lambda: played.play_card_id(True), "play_card_id(True)")
    _refuses(lambda: played.play_card_id(-1), "play_card_id(-1)")
    _refuses(lambda: played.play_card_id(str(card)), "play_card_id(str)")
    played.play_card_id(card)          # a real card id still plays


def _to_play(game: Game) -> State:
    rng = random.Random(4)
    for seed in range(100):
        state = game.new_hand(0, seed=seed)
        while not state.is_terminal and state.card_mask() == 0:
            state.apply(rng.choice(state.legal_actions()))
        if state.card_mask():
            return state
    raise AssertionError("no hand reached the play")


def check_hands_as_tuples() -> None:
    game = load_game("twenty-eight")
    dealt = game.new_hand(0, seed=2).dealt
    as_lists = game.new_hand(0, hands=[list(h) for h in dealt])
    as_tuple = game.new_hand(0, hands=tuple(list(h) for h in dealt))
    of_tuples = game.new_hand(0, hands=tuple(tuple(h) for h in dealt))
    assert as_lists.hands == as_tuple.hands == of_tuples.hands
    _refuses(lambda: game.new_hand(0, hands=tuple(dealt[:3])), "new_hand(hands=3 seats)")
    _refuses(lambda: game.new_hand(0, hands=[[True, *h[1:]] for h in dealt]), "new_hand(hands=bools)")
    _refuses(lambda: game.new_hand(0, hands="hands"), "new_hand(hands=str)")


def check_pickle() -> None:
    game = load_game("twenty-nine")
    state = game.new_hand(1, seed=3)
    for _ in range(9):
        state.apply(state.legal_actions()[-1])
    action = state.legal_actions()[0]
    assert pickle.loads(pickle.dumps(action)) == action
    again = pickle.loads(pickle.dumps(game))
    assert isinstance(again, Game) and again.rules == game.rules and again.ref == game.ref
    copy = pickle.loads(pickle.dumps(state))
    assert isinstance(copy, State)
    assert copy.history == state.history and copy.hands == state.hands and copy.to_act == state.to_act
    assert copy.legal_actions() == state.legal_actions()
    view = copy.view(copy.to_act)
    assert isinstance(view, View) and view == state.view(state.to_act)
    copy.apply(copy.legal_actions()[0])      # the copy plays on, on its own
    assert len(state.history) == 9
    match = Match(game, seed=5)
    first = match.new_hand()
    while not first.is_terminal:
        first.apply(first.legal_actions()[0])
    match.record_hand(first)
    restored = pickle.loads(pickle.dumps(match))
    assert isinstance(restored, Match) and restored.scores == match.scores and restored.dealer == match.dealer
    assert restored.new_hand().dealt == match.new_hand().dealt


def check_record_hand_refuses() -> None:
    game = load_game("twenty-eight")
    match = Match(game, seed=1)
    state = match.new_hand()
    _refuses(lambda: match.record_hand(state), "record_hand(hand in progress)")
    other = load_game("twenty-nine").new_hand(0, seed=1)
    while not other.is_terminal:
        other.apply(other.legal_actions()[0])
    _refuses(lambda: match.record_hand(other), "record_hand(hand of another game)")
    _refuses(lambda: match.record_hand("hand"), "record_hand(str)")
    assert match.hands == [] and match.scores == [game.rules.match.start] * 2
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert match.record_hand(state).status == state.status


def check_action_space_refuses_outside_ids() -> None:
    from engine.adapters.encoding import ActionSpace

    game = load_game("twenty-eight")
    space = ActionSpace(game)
    state = game.new_hand(0, seed=1)
    _refuses(lambda: space.apply(state, -1), "ActionSpace.apply(-1)")
    _refuses(lambda: space.apply(state, len(space)), "ActionSpace.apply(len)")
    _refuses(lambda: space.apply(state, True), "ActionSpace.apply(True)")
    assert state.history == []


CHECKS: dict[str, Callable[[], None]] = {
    name: fn for name, fn in sorted(globals().items()) if name.startswith("check_") and callable(fn)}


def failures() -> list[str]:
    """Every check that fails, as one line each (what compiled_check.py prints)."""
    out: list[str] = []
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as e:  # noqa: BLE001 - report every check
            out.append(f"{name}: {type(e).__name__}: {e}")
    return out


__all__ = ["CHECKS", "Action", "failures"]
