"""The search bot: determinized Monte Carlo (perfect-information Monte Carlo, PIMC) over its seat's view.

For each of `worlds` sampled deals consistent with the view (see `determinize.py`), every legal card play is
tried and the hand is finished by a fast greedy rollout policy; the action with the best total wins. The budget
is a number of worlds, not a time, so a seeded bot makes the same choices on any machine and in any process.
The auction and contract decisions come from the heuristic bot."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.bots.base import register
from engine.bots.determinize import build_world
from engine.bots.heuristic import decide
from engine.bots.info import read_view
from engine.bots.viewbot import ViewBot
from engine.cards import card_ids
from engine.play.actions import Action
from engine.play.base import PLAY
from engine.play.game import NO_TRUMP, TRUMP_POWER, Game, card_power, winning_index
from engine.play.state import State
from engine.play.view import View

ROLLOUTS = 240             # rollouts per decision: fewer legal actions buy more sampled worlds
MIN_WORLDS, MAX_WORLDS = 16, 48
EXPLORE = 0.05             # share of rollout moves made at random, so rollouts do not all agree
CARD_POINT_WEIGHT = 0.01   # breaks ties between actions that score the same game points


class SearchBot(ViewBot):
    name = "search"

    def __init__(self, game: Game, seed: int = 0, worlds: int | None = None) -> None:
        """`worlds`: a fixed number of sampled worlds per decision (default: by the rollout budget)."""
        super().__init__(game, seed)
        self.worlds = worlds

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        game = self.game
        view = self.check_view(view)
        seen = read_view(game, view)
        fallback = decide(game, seen, legal)
        if view.phase != "play":
            return fallback
        totals = [0.0] * len(legal)
        tried = 0
        worlds = self.worlds or min(MAX_WORLDS, max(MIN_WORLDS, ROLLOUTS // len(legal)))
        for _ in range(worlds):
            world = build_world(game, seen, self._rng)
            if world is None:
                continue
            tried += 1
            for i, a in enumerate(legal):
                s = world.clone()
                s.apply(a)
                rollout(s, self._rng.random)
                totals[i] += utility(s, view.seat)
        if not tried:
            return fallback
        best = max(totals)
        # among equally good actions, the heuristic's choice (then the first) keeps play natural
        top = [a for a, t in zip(legal, totals, strict=True) if t >= best - 1e-9]
        return fallback if fallback in top else top[0]


def utility(state: State, seat: int) -> float:
    """Game points of the seat's side less the best other side's, plus a small card-point term."""
    gp = state.game_points
    team = state.hand_team_of[seat]
    others = [g for i, g in enumerate(gp) if i != team]
    cp = state.team_points
    other_cp = max((p for i, p in enumerate(cp) if i != team), default=0)
    return gp[team] - (max(others) if others else 0) + CARD_POINT_WEIGHT * (cp[team] - other_cp)


def rollout(state: State, rand: Callable[[], float]) -> None:
    """Finish the hand with the greedy policy (it may look at every hand: the world is already sampled)."""
    while state.to_act >= 0:
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
        elif rand() < EXPLORE or state.phase != PLAY:
            state.apply(legal[int(rand() * len(legal))])
        else:
            state.apply(greedy(state, legal))


def greedy(state: State, legal: Sequence[Action]) -> Action:
    g = state.game
    p = state.to_act
    mask = state._legal_mask
    for a in legal:
        if a.verb == "show":
            return a
    cards = card_ids(mask)
    if not cards:
        return legal[0]
    trick = state.trick_cards
    power = state.trump if not state.concealed else NO_TRUMP
    strength, points, suit_of = state.strength, g.points, g.suit_of
    team = state.hand_team_of
    if not trick:
        return g.play_action[p][_lead(state, cards, power)]
    led = suit_of[trick[0]]
    best_i = winning_index(trick, suit_of, strength, power, state.power_from)
    best_st = _power(state, trick[best_i], led, power if best_i >= state.power_from else NO_TRUMP)
    later = _later_seats(state)
    partner_wins = team[state.trick_seats[best_i]] == team[p]
    if partner_wins and not any(_can_beat(state, q, led, best_st, power) for q in later):
        # feed the partner points from a card that is not a trump
        c = max(cards, key=lambda x: (points[x] if suit_of[x] != power else -1, -strength[x]))
        return g.play_action[p][c]
    if not partner_wins:
        winners = [c for c in cards if _power(state, c, led, power) > best_st]
        safe = [c for c in winners if not any(_can_beat(state, q, led, _power(state, c, led, power), power)
                                              for q in later)]
        if safe:
            c = min(safe, key=lambda x: (suit_of[x] == power, strength[x]))
            return g.play_action[p][c]
        if any(a.verb == "call" for a in legal) and sum(points[c] for c in trick) >= 2:
            return next(a for a in legal if a.verb == "call")
    c = min(cards, key=lambda x: (points[x], suit_of[x] == power, strength[x]))
    return g.play_action[p][c]


def _lead(state: State, cards: list[int], power: int) -> int:
    g = state.game
    strength = state.strength
    p = state.to_act
    others = 0
    for s in range(state.n):
        if s != p:
            others |= state.hands[s]
    masters = []
    for c in cards:
        su = g.suit_of[c]
        higher = [x for x in card_ids(others & g.suit_masks[su]) if strength[x] > strength[c]]
        if not higher:
            masters.append(c)
    if masters:
        return max(masters, key=lambda x: (g.suit_of[x] != power, g.points[x], strength[x]))
    return min(cards, key=lambda x: (g.points[x], g.suit_of[x] == power, strength[x]))


def _power(state: State, card: int, led: int, trump: int) -> int:
    return card_power(card, led, trump, state.game.suit_of, state.strength)


def _later_seats(state: State) -> list[int]:
    active = state.n - state.sitting_out.bit_count()
    left = active - len(state.trick_cards) - 1
    out: list[int] = []
    s = state.to_act
    while len(out) < left:
        s = (s + 1) % state.n
        if not state.sitting_out >> s & 1:
            out.append(s)
    return out


def _can_beat(state: State, seat: int, led: int, best: int, power: int) -> bool:
    g = state.game
    strength = state.strength
    h = state.hands[seat]
    follow = h & g.suit_masks[led]
    if follow:
        return best < TRUMP_POWER and max(strength[c] for c in card_ids(follow)) > best
    if power >= 0:
        trumps = h & g.suit_masks[power]
        return bool(trumps) and max(strength[c] for c in card_ids(trumps)) + TRUMP_POWER > best
    return False


register("search", SearchBot)
