"""The referee's independent oracles agree with the engine on random hands (fixed seeds):

- tests/oracle/crosscheck.py, written from BUILTINS.md and RULES.md, for the games shipped before issue 14: every
  legal-action list, trick, target and score;
- tests/oracle/referee.py, written from MORE-GAMES.md, for the games and house rules of issue 14: every legal-action
  list before and during play (the few actions whose legality MORE-GAMES.md leaves open are left out on both sides)
  and the report of every finished hand. A file is skipped only while it is not shipped.

`python3 tests/oracle/crosscheck.py 400` and `python3 tests/oracle/referee.py cross 400` run them longer.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.rules.load import shipped_rulesets
from tests.oracle.crosscheck import one_hand
from tests.oracle.referee import BASE_CLASSES, NEW_FILES, cross_hand
from tests.oracle_jass.games import SPECS as JASS_FILES

HANDS = 40
SHIPPED = set(shipped_rulesets())


# the European (Jass) files have a referee of their own (tests/oracle_jass, tests/test_oracle_jass.py)
@pytest.mark.parametrize("name", sorted(SHIPPED - set(NEW_FILES) - set(JASS_FILES)))
def test_engine_agrees_with_the_independent_oracle(name: str) -> None:
    rng = random.Random(2024)
    figures = {"hands": 0, "pre-play": 0, "play": 0}
    problems = {seed: one_hand(name, seed, rng, figures) for seed in range(HANDS)}
    assert not any(problems.values()), {s: p for s, p in problems.items() if p}
    assert figures["pre-play"] > HANDS and figures["hands"] > 0


@pytest.mark.parametrize("name", NEW_FILES)
def test_engine_agrees_with_the_referee_on_the_new_files(name: str) -> None:
    if name not in SHIPPED:
        pytest.skip(f"ruleset {name} is not shipped yet")
    rng = random.Random(2024)
    figures: Counter[str] = Counter()
    problems = {seed: cross_hand(name, seed, rng, figures) for seed in range(HANDS)}
    assert not any(problems.values()), {s: p for s, p in problems.items() if p}
    assert figures["decisions compared"] > HANDS and figures["hands compared"] > HANDS // 4, dict(figures)


@pytest.mark.parametrize("name", sorted(BASE_CLASSES))
def test_the_referees_base_games_agree_with_the_engine(name: str) -> None:
    """The referee's own twenty-eight, twenty-nine, single-hand and fifty-six, on which its house rules stand,
    agree with the engine on random hands - which also keeps the comparison driver itself honest before the new
    files ship."""
    rng = random.Random(7)
    figures: Counter[str] = Counter()
    problems = {seed: cross_hand(name, seed, rng, figures) for seed in range(20)}
    assert not any(problems.values()), {s: p for s, p in problems.items() if p}
    assert figures["hands compared"] == 20 and figures["decisions compared"] > 400
