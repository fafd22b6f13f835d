"""Self-play: drive hands with bots, gather statistics as a stream, and measure speed."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.bots.base import Bot
from engine.play.game import Game
from engine.play.playout import random_playout
from engine.play.state import State


def play_out(state: State, bots: Sequence[Bot]) -> None:
    """Let the bots act until the hand is over; each sees only its own seat's view."""
    while state.to_act >= 0:
        bot = bots[state.to_act]
        legal = state.legal_actions()
        view = state.view(state.to_act) if bot.needs_view else None
        state.apply(bot.choose(view, legal))


def hand_seeds(seed: int) -> Callable[[], int]:
    """A stream of per-hand deal seeds derived from one seed."""
    rng = random.Random(seed)
    return lambda: rng.getrandbits(48)


@dataclass
class SimStats:
    """Aggregates over hands, in constant memory."""

    ruleset: str
    hands: int = 0
    status: Counter[str] = field(default_factory=Counter)
    annulled_because: Counter[str] = field(default_factory=Counter)
    contracts: Counter[int] = field(default_factory=Counter)
    made: Counter[int] = field(default_factory=Counter)
    specials: Counter[str] = field(default_factory=Counter)
    bidder_points: int = 0
    defender_points: int = 0
    scored_hands: int = 0
    exposed_in_trick: Counter[str] = field(default_factory=Counter)

    def add(self, s: State) -> None:
        self.hands += 1
        self.status[s.status] += 1
        if s.status == "annulled":
            self.annulled_because[_reason_kind(s.annul_reason)] += 1
            return
        if s.special is not None:
            self.specials[s.special.name] += 1
        else:
            self.contracts[s.bid] += 1
            if s.made:
                self.made[s.bid] += 1
        bt = s.hand_team_of[s.bidder]
        self.bidder_points += s.team_points[bt]
        self.defender_points += sum(p for i, p in enumerate(s.team_points) if i != bt)
        self.scored_hands += 1
        if s.trump < 0:
            key = "no trumps"
        elif not s.game.rules.trump.concealed:
            key = "open"
        elif s.exposed_trick:
            key = str(s.exposed_trick)
        else:
            key = "never"
        self.exposed_in_trick[key] += 1

    def to_dict(self) -> dict[str, Any]:
        n = max(self.scored_hands, 1)
        return {
            "ruleset": self.ruleset,
            "hands": self.hands,
            "complete": self.status["complete"],
            "annulled": self.status["annulled"],
            "annulled_because": dict(sorted(self.annulled_because.items())),
            "contracts_by_bid": {str(b): c for b, c in sorted(self.contracts.items())},
            "success_rate_by_bid": {str(b): round(self.made[b] / c, 4) for b, c in sorted(self.contracts.items())},
            "special_contracts": dict(sorted(self.specials.items())),
            "average_card_points": {"bidding_side": round(self.bidder_points / n, 3),
                                    "other_side": round(self.defender_points / n, 3)},
            "trump_exposed_in_trick": dict(sorted(self.exposed_in_trick.items(), key=_trick_order)),
        }


def _trick_order(kv: tuple[str, int]) -> tuple[int, str]:
    return (int(kv[0]), "") if kv[0].isdigit() else (99, kv[0])


def _reason_kind(reason: str) -> str:
    """'seat 2 holds every J' -> 'holds every J': counted by reason, whoever it happened to."""
    return reason.split(" ", 2)[-1] if reason.startswith("seat ") else reason


def simulate(game: Game, hands: int, seed: int, bots: Sequence[Bot],
             on_hand: Callable[[State, int], None] | None = None) -> SimStats:
    """Play `hands` hands (dealer rotating) and return the statistics; `on_hand` sees each finished hand."""
    stats = SimStats(game.rules.name)
    next_seed = hand_seeds(seed)
    for i in range(hands):
        deal_seed = next_seed()
        state = game.new_hand(i % game.n, seed=deal_seed)
        play_out(state, bots)
        stats.add(state)
        if on_hand is not None:
            on_hand(state, deal_seed)
    return stats


def bench(game: Game, hands: int, seed: int = 1) -> dict[str, Any]:
    """Whole random hands per second, in one process, two ways: finished by `random_playout` (the play phase on
    card bitmasks, as the search bots' rollouts play: `hands_per_second`), and driven from Python through the
    public `legal_actions()` / `apply()` loop (`api_hands_per_second`). Both deal every hand from a seed and play
    the whole rule file: auction, trump, raise, tricks and scoring."""
    n = game.n

    def timed(play: Callable[[State, Callable[[], float]], None]) -> float:
        rand = random.Random(seed).random
        next_seed = hand_seeds(seed)
        t0 = time.perf_counter()
        for i in range(hands):
            play(game.new_hand(i % n, seed=next_seed()), rand)
        return time.perf_counter() - t0

    playout = timed(random_playout)
    api = timed(_api_loop)
    return {"ruleset": game.rules.name, "hands": hands, "seconds": round(playout, 4),
            "hands_per_second": round(hands / playout, 1), "api_seconds": round(api, 4),
            "api_hands_per_second": round(hands / api, 1)}


def _api_loop(state: State, rand: Callable[[], float]) -> None:
    while state.to_act >= 0:
        legal = state.legal_actions()
        state.apply(legal[int(rand() * len(legal))])
