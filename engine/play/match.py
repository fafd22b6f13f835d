"""A match: hands dealt in turn until the rule file's end condition; an annulled hand is dealt again."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.play.game import Game, check_seat, check_seed
from engine.play.state import State


@dataclass
class HandOutcome:
    dealer: int
    seed: int
    status: str
    game_points: list[int]        # per match team
    state: State


class Match:
    """Plays hands of one game; `scores` are per match team (`game.teams`)."""

    def __init__(self, game: Game, seed: int | None = None, first_dealer: int = 0, max_hands: int = 1000) -> None:
        check_seed(seed)
        check_seat(first_dealer, game.n, "first_dealer")
        self.game = game
        self.rng = random.Random(seed)
        self.dealer = first_dealer
        self.scores = [game.rules.match.start] * len(game.rules.table.teams)
        self.hands: list[HandOutcome] = []
        self.max_hands = max_hands
        self.current_seed = 0

    def new_hand(self) -> State:
        """Deal the next hand (seeded from the match's seed)."""
        self.current_seed = self.rng.getrandbits(32)
        return self.game.new_hand(self.dealer, seed=self.current_seed, match_scores=self.scores)

    def to_match_points(self, state: State) -> list[int]:
        """Turn a hand's points per hand team into points per match team."""
        out = [0] * len(self.game.rules.table.teams)
        for team, pts in zip(state.hand_teams, state.game_points, strict=True):
            for mt in sorted({self.game.team_of[s] for s in team}):
                out[mt] += pts
        return out

    def record_hand(self, state: State) -> HandOutcome:
        """Book a finished hand: scores move, the deal passes on (not after an annulled hand)."""
        pts = self.to_match_points(state) if state.status == "complete" else [0] * len(self.scores)
        outcome = HandOutcome(self.dealer, self.current_seed, state.status, pts, state)
        self.hands.append(outcome)
        self.scores = [a + b for a, b in zip(self.scores, pts, strict=True)]
        if state.status != "annulled":
            self.dealer = (self.dealer + 1) % self.game.n
        return outcome

    @property
    def decided(self) -> bool:
        """A team has reached the rule file's winning or losing score."""
        m = self.game.rules.match
        return any((m.win_at is not None and s >= m.win_at) or (m.lose_at is not None and s <= m.lose_at)
                   for s in self.scores)

    @property
    def is_over(self) -> bool:
        """Decided, or stopped at the hand limit."""
        return self.decided or len(self.hands) >= self.max_hands

    @property
    def winners(self) -> list[int]:
        """Match teams that won: those at the winning score, else those with the best score."""
        m = self.game.rules.match
        if m.win_at is not None:
            reached = [i for i, s in enumerate(self.scores) if s >= m.win_at]
            if reached:
                return reached
        best = max(self.scores)
        return [i for i, s in enumerate(self.scores) if s == best]
