"""A match: hands dealt in turn until the rule file's end condition; who deals next, by how a hand ended; scores
kept in sets where the rule file says so; a winning score an event of a hand may move."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.errors import ArgumentError
from engine.play.banked import deal_winner
from engine.play.base import ANNUL_ALL_PASS, ANNUL_HELD_ALL_TRUMPS, ANNUL_REDEAL
from engine.play.game import Game, GameTables, check_seat, check_seed
from engine.play.rules import SCORE_BANKED
from engine.play.state import State


@dataclass
class HandOutcome:
    dealer: int
    seed: int
    status: str
    game_points: list[int]        # per match team
    state: State


def annulled_deal_passes(game: GameTables, annul_code: int) -> bool:
    """Whether the next player deals after a hand annulled for this reason (else the same dealer deals again)."""
    m = game.rules.match
    if annul_code == ANNUL_ALL_PASS:
        return m.next_after_all_pass
    if annul_code == ANNUL_HELD_ALL_TRUMPS:
        return m.next_after_void
    if annul_code == ANNUL_REDEAL:
        return m.next_after_redeal
    return m.next_after_annul


def annulled_dealer_words(game: GameTables, annul_code: int) -> str:
    return "the deal passes on" if annulled_deal_passes(game, annul_code) else "the same dealer deals again"


NARROW_DEAL_SEED_BITS = 32       # each hand's deal seed, drawn from a match seed below WIDE_MATCH_SEED
WIDE_DEAL_SEED_BITS = 128        # ... and from a match seed at or above it
WIDE_MATCH_SEED = 1 << 64


def deal_seed_bits(match_seed: int | None) -> int:
    """How wide each hand's deal seed is. A small match seed (one a person types: every record and save so far)
    draws 32-bit deal seeds, as it always has. A match seed of 2**64 or more draws 128-bit ones: a player who
    knows his own cards could otherwise try all 2**32 deal seeds, find the one that deals them and read every
    other hand (the web table draws its secret match seeds this wide for that reason)."""
    return WIDE_DEAL_SEED_BITS if match_seed is not None and match_seed >= WIDE_MATCH_SEED else NARROW_DEAL_SEED_BITS


def hand_seeds(match_seed: int, hands: int) -> list[int]:
    """The deal seed of each of the first `hands` hands of a match with this seed, in order (what `Match` deals;
    `jacknine deal --seed S` re-deals one)."""
    rng = random.Random(match_seed)
    bits = deal_seed_bits(match_seed)
    return [rng.getrandbits(bits) for _ in range(hands)]


class Match:
    """Plays hands of one game; `scores` are per match team (`game.teams`). With `match.sets`, `sets[t]` is team
    t's open sets, {"red": R, "black": B}. `win_at` is the winning score now (a hand may move it for the rest of
    the match). With banked scoring, `held` is what tied deals hold for the next deal's winner (still held when
    the match ends: nobody's); with match.deals the match is that many scored deals."""

    def __init__(self, game: Game, seed: int | None = None, first_dealer: int = 0, max_hands: int = 1000) -> None:
        check_seed(seed)
        check_seat(first_dealer, game.n, "first_dealer")
        self.game = game
        self.rng = random.Random(seed)
        self.seed_bits = deal_seed_bits(seed)
        self.dealer = first_dealer
        m = game.rules.match
        teams = len(game.rules.table.teams)
        self.scores = [m.start] * teams
        self.sets = [{"red": 0, "black": 0} for _ in range(teams)]
        self.win_at = m.win_at
        self.held = 0             # banked points held over from tied deals, for the winner of the next (litige)
        self.deals = 0            # scored deals (match.deals)
        self.hands: list[HandOutcome] = []
        self.max_hands = max_hands
        self.current_seed = 0

    def new_hand(self) -> State:
        """Deal the next hand (seeded from the match's seed)."""
        self.current_seed = self.rng.getrandbits(self.seed_bits)
        g = self.game
        card = g.rules.table.first_forehand
        if card and not self.hands:
            # table.first_forehand: in the first deal the holder of the card is the first hand, so the seat before
            # him is the dealer (the cards stay where the seed dealt them); the deal passes on from there
            dealt = g.shuffled_deal(self.current_seed, self.dealer)
            ids = g.code_ids.get(card, [])
            holder = next((s for s in range(g.n) if any(c in dealt[s] for c in ids)), -1)
            if holder >= 0:
                self.dealer = (holder - 1) % g.n
                return g.new_hand(self.dealer, hands=dealt, stock=g.shuffled_stock(self.current_seed) or None,
                                  match_scores=self.scores, match_target=self.win_at)
        return g.new_hand(self.dealer, seed=self.current_seed, match_scores=self.scores,
                          match_target=self.win_at)

    def to_match_points(self, state: State) -> list[int]:
        """Turn a hand's points per hand team into points per match team."""
        out = [0] * len(self.game.rules.table.teams)
        for team, pts in zip(state.hand_teams, state.game_points, strict=True):
            for mt in sorted({self.game.team_of[s] for s in team}):
                out[mt] += pts
        return out

    def record_hand(self, state: object) -> HandOutcome:
        """Book a finished hand: scores move (and open sets), the winning score moves if the hand says so, and the
        deal passes as the rule file says. ArgumentError for a hand still in progress or of another game."""
        state = self._bookable(state)
        pts = self.to_match_points(state) if state.status == "complete" else [0] * len(self.scores)
        if state.status == "complete":
            self.deals += 1
            if self.game.rules.scoring.method == SCORE_BANKED:
                self._carry(state, pts)
        outcome = HandOutcome(self.dealer, self.current_seed, state.status, pts, state)
        self.hands.append(outcome)
        self.scores = [a + b for a, b in zip(self.scores, pts, strict=True)]
        if self.game.rules.match.sets_at:
            self._open_sets()
        if state.status == "complete" and state.new_match_target >= 0:
            self.win_at = state.new_match_target
        if self._passes_deal(state):
            self.dealer = (self.dealer + 1) % self.game.n
        return outcome

    def _bookable(self, state: object) -> State:
        """`state` as a finished hand of this match's game (ArgumentError otherwise)."""
        if not isinstance(state, State):
            raise ArgumentError(f"record_hand() takes a State, not {type(state).__name__}")
        if state.game is not self.game and state.game.rules != self.game.rules:
            raise ArgumentError("record_hand(): the hand is of another game than the match's")
        if not state.is_terminal:
            raise ArgumentError("record_hand(): the hand is still in progress; book it once it is over")
        return state

    def _carry(self, state: State, pts: list[int]) -> None:
        """Points held over from tied deals go to the winner of this deal (with the hand's points: `pts`, per
        match team); this deal's own tie adds to them."""
        if self.held and state.held_over == 0:
            winner = deal_winner(state)
            if winner >= 0:
                for mt in sorted({self.game.team_of[s] for s in state.hand_teams[winner]}):
                    pts[mt] += self.held
                self.held = 0
        self.held += state.held_over

    def _passes_deal(self, state: State) -> bool:
        m = self.game.rules.match
        if state.status == "annulled":
            return annulled_deal_passes(self.game, state.annul_code)
        if m.dealer_stays_while_behind:   # the dealer deals again while his team is behind another
            mine = self.game.team_of[self.dealer]
            return not any(s > self.scores[mine] for t, s in enumerate(self.scores) if t != mine)
        return True

    def _open_sets(self) -> None:
        """A score of +at opens a red set, -at a black one, and returns to 0; sets of one colour open on every
        team cancel one for one."""
        at = self.game.rules.match.sets_at
        for t, s in enumerate(self.scores):
            if s >= at or s <= -at:
                self.sets[t]["red" if s > 0 else "black"] += 1
                self.scores[t] = 0
        for colour in ("red", "black"):
            common = min(st[colour] for st in self.sets)
            for st in self.sets:
                st[colour] -= common

    @property
    def decided(self) -> bool:
        """A team has reached the winning or losing score (or holds the red sets that win)."""
        m = self.game.rules.match
        if m.deals:
            return self.deals >= m.deals
        if m.sets_at and any(st["red"] >= m.win_sets for st in self.sets):
            return True
        return any((self.win_at is not None and s >= self.win_at) or (m.lose_at is not None and s <= m.lose_at)
                   for s in self.scores)

    @property
    def is_over(self) -> bool:
        """Decided, or stopped at the hand limit."""
        return self.decided or len(self.hands) >= self.max_hands

    @property
    def winners(self) -> list[int]:
        """Match teams that won: those holding the winning red sets, or at the winning score; else those with the
        best score (most red sets, then score, where sets are kept)."""
        if self.game.rules.match.sets_at:
            return self._set_winners()
        reached = self._at_target()
        if reached:
            return reached
        best = max(self.scores)
        return [i for i, s in enumerate(self.scores) if s == best]

    def _at_target(self) -> list[int]:
        """The teams at the winning score (banked: of several, the highest)."""
        if self.win_at is None:
            return []
        reached = [i for i, s in enumerate(self.scores) if s >= self.win_at]
        if reached and self.game.rules.scoring.method == SCORE_BANKED:
            top = max(self.scores[i] for i in reached)
            return [i for i in reached if self.scores[i] == top]
        return reached

    def _set_winners(self) -> list[int]:
        """Where sets are kept: the teams holding the winning red sets, else the most red sets net, then score."""
        win_sets = self.game.rules.match.win_sets
        reached = [i for i, st in enumerate(self.sets) if st["red"] >= win_sets]
        if reached:
            return reached
        best_sets = max((st["red"] - st["black"], self.scores[i]) for i, st in enumerate(self.sets))
        return [i for i, st in enumerate(self.sets) if (st["red"] - st["black"], self.scores[i]) == best_sets]
