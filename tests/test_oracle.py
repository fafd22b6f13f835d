"""The referee's independent oracle (tests/oracle/crosscheck.py, written from BUILTINS.md and RULES.md, not from
engine code) agrees with the engine on every legal-action list, trick, target and score of random hands of every
shipped game. `python3 tests/oracle/crosscheck.py 400` runs it longer."""

from __future__ import annotations

import random

import pytest

from engine.rules.load import shipped_rulesets
from tests.oracle.crosscheck import one_hand

HANDS = 40


@pytest.mark.parametrize("name", sorted(shipped_rulesets()))
def test_engine_agrees_with_the_independent_oracle(name: str) -> None:
    rng = random.Random(2024)
    figures = {"hands": 0, "pre-play": 0, "play": 0}
    problems = {seed: one_hand(name, seed, rng, figures) for seed in range(HANDS)}
    assert not any(problems.values()), {s: p for s, p in problems.items() if p}
    assert figures["pre-play"] > HANDS and figures["hands"] > 0
