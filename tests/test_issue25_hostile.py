"""Issue 25, hostile inputs round three: rule files that validate must never make a bot play an illegal action or
crash the simulation, and the RL environments refuse misuse with one clear error."""

from __future__ import annotations

import time
from pathlib import Path

from engine import load_game
from engine.sim import play_hands

HOSTILE = Path(__file__).parent / "rulefiles" / "hostile25"


def test_pimc_plays_legal_cards_after_trump_last() -> None:
    # hand 18 of seed 0: the bidder said `trump last`; pimc's worlds dealt his cards in any order, so the suit of
    # the world's last card (its trump) was not the real one and a legal lead was illegal there
    game = load_game(str(HOSTILE / "trump-last.yaml"))
    start = time.perf_counter()
    for _, _, state in play_hands(game, ["pimc"] * 4, 0, 18, 1):
        assert state.status != "in_progress"
    assert time.perf_counter() - start < 30


def test_doubling_in_a_three_player_auction_is_simulated() -> None:
    # the side that doubled was noted with its team index of the auction (three single-seat teams); once the
    # teams regrouped round the declarer there were two, and the statistics indexed past them (IndexError)
    from engine.sim import simulate

    game = load_game(str(HOSTILE / "doubling-3p.yaml"))
    stats = simulate(game, 8, 0, ["random"] * 3)
    assert stats.hands == 8 and stats.mechanisms()["double"]
