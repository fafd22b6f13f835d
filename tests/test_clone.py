"""`State.clone()` writes every field out by name: a clone is equal to its original field by field (so a field added
to the state and forgotten in `clone` fails here), and independent of it (play on either leaves the other as it
was)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import load_game

# reset in the clone on purpose: what the state worked out about its legal actions is worked out again
RECOMPUTED = {"_legal", "_legal_mask", "_extras", "_mask_ready"}
JASS = Path(__file__).parent / "rulefiles" / "jass"
FILES = ["twenty-eight", "twenty-nine", "three-hundred-and-four", "thunee", "fifty-six", "twenty-eight-kerala-3p",
         str(JASS / "melds-declared.yaml"), str(JASS / "melds-roem.yaml")]


def fields(state: object) -> dict[str, object]:
    return {k: v for k, v in vars(state).items() if k not in RECOMPUTED}


def snapshot(state: object) -> dict[str, object]:
    """The fields with their lists (and lists in lists) copied: what play could change in place."""
    return {k: [x[:] if isinstance(x, list) else x for x in v] if isinstance(v, list) else v
            for k, v in fields(state).items()}


@pytest.mark.parametrize("name", FILES)
def test_a_clone_is_equal_and_independent(name: str) -> None:
    game = load_game(name)
    rng = random.Random(7)
    checked = 0
    for seed in range(12):
        s = game.new_hand(seed % game.n, seed=seed)
        while s.to_act >= 0:
            if rng.random() < 0.3:
                c = s.clone()
                assert fields(c) == fields(s)
                assert set(vars(s)) == set(vars(c))
                before = snapshot(s)
                # the clone plays on to the end: the original does not move
                while c.to_act >= 0:
                    c.apply(rng.choice(c.legal_actions()))
                assert fields(s) == before
                # and the original plays on: a clone taken now is not moved by it
                c2 = s.clone()
                kept = snapshot(c2)
                s.apply(rng.choice(s.legal_actions()))
                assert fields(c2) == kept
                checked += 1
                continue
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 20


def test_a_clone_plays_as_its_original() -> None:
    game = load_game("twenty-eight")
    s = game.new_hand(0, seed=3)
    for _ in range(9):
        s.apply(s.legal_actions()[0])
    c = s.clone()
    for st in (s, c):
        while st.to_act >= 0:
            st.apply(st.legal_actions()[-1])
    assert s.result == c.result and s.history == c.history
