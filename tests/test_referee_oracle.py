"""The referee's own oracle for issue 14 (tests/oracle/), tested on its own: it must play every new file to the
end on random deals, and its certainty tests must agree with brute force.

- Random self-play: every file of issue 14, 60 seeded hands each, ends complete, annulled, or at a position the
  oracle declares open (MORE-GAMES.md silent), never with an error or an empty choice.
- Caps: the sufficient test on lead never claims a sweep that exhaustive search over every consistent deal of the
  unseen cards refutes, and the exact search over the caller's information never proves one that fails in some
  world with everything seen.
- Single-hand-show: MORE-GAMES.md 6.8's derived sure-sweep test agrees with exhaustive search of the replies.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.oracle import prove
from tests.oracle.core import R8, Unsettled, deck_for
from tests.oracle.referee import NEW_FILES, choose, hand_class


@pytest.mark.parametrize("name", NEW_FILES)
def test_the_referee_plays_every_new_file_to_the_end(name: str) -> None:
    cls = hand_class(name)
    ends: Counter[str] = Counter()
    for seed in range(60):
        rng = random.Random(seed)
        cards = deck_for(cls)
        rng.shuffle(cards)
        each = len(cards) // cls.n
        hand = cls(name, seed % cls.n, [cards[i * each:(i + 1) * each] for i in range(cls.n)])
        try:
            for _ in range(500):
                if hand.status != "in_progress":
                    break
                legal = sorted(a for a in hand.legal() if a not in hand.uncertain)
                assert legal, f"seed {seed}: no choice for seat {hand.to} after {hand.history[-6:]}"
                hand.apply(f"{hand.to} {choose(rng, legal)}")
            assert hand.status != "in_progress", f"seed {seed}: the hand never ends"
            hand.report()
            ends[hand.status] += 1
        except Unsettled:
            ends["open"] += 1
    assert ends["complete"] >= 20, dict(ends)


def _deal(rng: random.Random, left: int) -> list[frozenset[str]]:
    cards = [r + s for s in "SHDC" for r in R8]
    rng.shuffle(cards)
    return [frozenset(cards[i * left:(i + 1) * left]) for i in range(4)]


def test_caps_tests_agree_with_brute_force() -> None:
    rng = random.Random(14)
    checked = {"sure on lead": 0, "exact": 0}
    # three cards left make 1,680 worlds per deal against two cards' 90: a few of them cover that case, the many
    # two-card deals the rest (the whole test once took minutes of the suite)
    for i in range(300):
        left = 3 if i % 10 == 0 else 2
        hands = _deal(rng, left)
        trump = rng.choice("SHDC")
        game = prove.OpenPlay(trump, bidder=0, side=0)
        caller = 0
        unseen = [c for s in (1, 2, 3) for c in hands[s]]
        sizes = {s: left for s in (1, 2, 3)}
        worlds = prove._worlds(unseen, sizes, {s: set() for s in (1, 2, 3)}, prove.WORLD_LIMIT)
        assert worlds is not None
        every_world = all(prove._perfect_sweep(game, tuple(hands[0] if s == 0 else w[s] for s in range(4)), (), caller,
                                               9 - left, False, False, caller, [10**6]) for w in worlds)
        exact = prove._and_or(game, caller, hands[0], worlds, (), caller, 9 - left, False, False)
        checked["exact"] += 1
        assert not exact or every_world    # a proof holds in every world
        if prove._sure_on_lead(hands[0], unseen, trump):
            checked["sure on lead"] += 1
            assert exact                   # the sufficient test is sound
    assert checked["sure on lead"] > 5 and checked["exact"] == 300


def test_sure_sweep_test_agrees_with_search() -> None:
    rng = random.Random(68)
    agreed = {True: 0, False: 0}
    for _ in range(200):
        hands = _deal(rng, 4)                 # four cards each: the holder leads every trick at no-trumps
        mine = sorted(hands[0])
        pool = sorted(hands[1] | hands[2] | hands[3])
        derived = prove.sure_sweep(mine)
        # against two opponents who could hold any four of the others' cards each (30 deals of them)
        swept = True
        for _k in range(30):
            rng.shuffle(pool)
            if not prove._no_trump_sweep_exact(frozenset(mine), (frozenset(pool[:4]), frozenset(pool[4:8])),
                                               tuple(R8)):
                swept = False
                break
        if derived:
            assert swept, mine
        agreed[derived] += 1
    assert agreed[True] > 0 and agreed[False] > 0
