"""The referee's independent oracle (tests/oracle/crosscheck.py, written from BUILTINS.md and RULES.md, not from
engine code) agrees with the engine on every legal-action list, trick, target and score of random hands of every
shipped game. `python3 tests/oracle/crosscheck.py 400` runs it longer."""

from __future__ import annotations

import random

import pytest

from engine.rules.load import shipped_rulesets
from tests.oracle.crosscheck import one_hand

HANDS = 40
# The games and house rules of issue 14: this oracle was written before them (the referee's oracle for them is
# tests/oracle/referee.py where it has landed).
NEW_FILES = {"fifty-six-8p", "fifty-six-4p", "fifty-six-double", "twenty-eight-kerala", "twenty-eight-kerala-3p",
             "bhangi", "four-jacks-honour", "round-scoring", "sets", "kotah", "three-hundred-and-four",
             "three-hundred-and-four-maharashtra", "thunee", "cot-four", "thani-late", "single-hand-show",
             "partner-exposed"}


@pytest.mark.parametrize("name", sorted(set(shipped_rulesets()) - NEW_FILES))
def test_engine_agrees_with_the_independent_oracle(name: str) -> None:
    rng = random.Random(2024)
    figures = {"hands": 0, "pre-play": 0, "play": 0}
    problems = {seed: one_hand(name, seed, rng, figures) for seed in range(HANDS)}
    assert not any(problems.values()), {s: p for s, p in problems.items() if p}
    assert figures["pre-play"] > HANDS and figures["hands"] > 0
