"""The sweep prover's shortcuts change its speed, never its answer: the refutation when an opponent may hold a trump
above all of the caller's, and the order in which the others' plays are tried, checked against the plain search
(both switched off) at every turn to play of randomly played hands."""

from __future__ import annotations

import random

import pytest

import engine.play.sweep_proof as sweep_proof
from engine.play.compile import load_game

BUDGET = 20_000          # for both searches; a position where either runs out of it is left out


def _answers(name: str, hands: int) -> list[int | None]:
    """The prover's card (or -1) at every turn to play of `hands` random hands, None where its budget ran out."""
    game = load_game(name)
    out: list[int | None] = []
    for seed in range(hands):
        rng = random.Random(seed)
        s = game.new_hand(seed % game.n, seed=seed)
        while s.to_act >= 0:
            legal = s.legal_actions()
            if s.phase_name == "play" and any(a.verb == "play" for a in legal):
                out.append(sweep_proof.searched_sweep(s, s.to_act))
            s.apply(rng.choice(legal))
    return out


@pytest.mark.parametrize("name", ["three-hundred-and-four", "thunee"])
def test_the_shortcuts_give_the_plain_searchs_answers(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweep_proof, "NODE_BUDGET", BUDGET)
    fast = _answers(name, 80)
    monkeypatch.setattr(sweep_proof._Search, "top_trump_outside", lambda self, *a: False)
    monkeypatch.setattr(sweep_proof._Search, "refuting_first", lambda self, options, *a: options)
    plain = _answers(name, 80)
    assert len(fast) == len(plain) > 400
    both = [(f, p) for f, p in zip(fast, plain, strict=True) if f is not None and p is not None]
    assert len(both) > 0.9 * len(fast)
    assert [f for f, _ in both] == [p for _, p in both]
    assert sum(f >= 0 for f, _ in both) >= 5             # sweeps are proved too, not only refuted


def test_the_top_trump_refutation_is_taken() -> None:
    """The shortcut is not dead code: it settles some trick starts of random 304 hands."""
    taken = 0
    real = sweep_proof._Search.top_trump_outside

    def counting(self: sweep_proof._Search, *args: object) -> bool:
        nonlocal taken
        found = real(self, *args)  # type: ignore[arg-type]
        taken += found
        return found

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sweep_proof._Search, "top_trump_outside", counting)
        _answers("three-hundred-and-four", 20)
    assert taken > 0


def test_the_bounded_search_gives_the_same_answers() -> None:
    """`bounded_sweep` (what the claims' grading calls, within what is left of the hand's GRADING_BUDGET) answers
    as the search with its own budget wherever its bound was not reached, and counts the positions it searched."""
    game = load_game("three-hundred-and-four")
    compared = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = game.new_hand(seed % game.n, seed=seed)
        while s.to_act >= 0:
            legal = s.legal_actions()
            if s.phase_name == "play" and any(a.verb == "play" for a in legal):
                plain = sweep_proof.searched_sweep(s, s.to_act)
                found, used = sweep_proof.bounded_sweep(s, s.to_act, True, 5_000)
                assert 0 <= used <= 5_000
                if found is not None:
                    assert found == plain
                    compared += 1
                tight, _ = sweep_proof.bounded_sweep(s, s.to_act, True, max(used - 1, 0))
                assert tight is None or used <= 1 or tight == plain
            s.apply(rng.choice(legal))
    assert compared > 150


def test_grading_within_its_bound_is_unchanged() -> None:
    """The grading of one hand spends one budget over all its searches (sweep_claims._Budget): its answers are the
    unbounded ones as long as the positions spent stay within the bound; past it, turns count as not proved, so
    the cost of grading one hand is bounded."""
    import engine.play.sweep_claims as sweep_claims

    game = load_game("three-hundred-and-four")
    bound = 3_000
    within = beyond = 0
    for seed in range(40):
        rng = random.Random(seed)
        wide, narrow = sweep_claims._Budget(), sweep_claims._Budget()
        wide.left, narrow.left = 10**9, bound
        s = game.new_hand(seed % game.n, seed=seed)
        while s.to_act >= 0:
            legal = s.legal_actions()
            if s.phase_name == "play" and any(a.verb == "play" for a in legal):
                a, b = wide.proved(s, s.to_act), narrow.proved(s, s.to_act)
                assert narrow.left >= 0
                if 10**9 - wide.left <= bound:
                    assert a == b
                    within += 1
                else:
                    assert not b or a
                    beyond += 1
            s.apply(rng.choice(legal))
    assert within > 100 and beyond > 0
