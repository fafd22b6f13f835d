"""Scoring a finished hand: bands (by the round that fixed the contract), special contracts, all-tricks, doubling,
capture bonuses, and who is credited."""

from __future__ import annotations

from engine.play.banked import score_banked
from engine.play.base import SURRENDER_ACCEPTED, SURRENDER_REFUSED, StateData
from engine.play.rules import SCORE_BANKED, SCORE_BIDDING_TEAM, SCORE_OPPONENTS_CREDITED, CaptureRules


def counting_team(state: StateData) -> int:
    """The hand team whose card points are counted against the target: the bidders', or (scoring.counted_by:
    opponents) the other side's."""
    bidders = state.hand_team_of[state.bidder]
    if not state.game.rules.scoring.counted_by_opponents:
        return bidders
    return 1 - bidders   # checks.py: a counting opposing side needs two sides in a hand


def _with_doubling(state: StateData, made: bool, value: int) -> int:
    """The score after the doubling steps: multiplied, and the paid side receives what steps added on top."""
    value *= state.multiplier
    added = state.added
    if added:
        value += added if made else -added
    return value


def contract_value(state: StateData) -> tuple[bool, int]:
    """Whether the contract was made and its value to the bidding team (negative when lost)."""
    sp = state.special
    if sp is not None:
        made = not state.bidders_lost_trick
        if made:
            return True, sp.made
        team = state.hand_team_of[state.declarer]
        for t in state.tricks:   # graded by who won the first trick the declarer lost
            if t.winner != state.declarer:
                return False, sp.failed_to_partner if state.hand_team_of[t.winner] == team else sp.failed
        return False, sp.failed
    made, value = _band_value(state)
    return made, value * state.trump_multiplier   # the trump suit's or mode's multiplier (1 by default)


def _band_value(state: StateData) -> tuple[bool, int]:
    """Whether the contract was made and its band's value to the bidding team, doubled as the steps say."""
    g = state.game
    r = g.rules
    band = g.band_for(state.bid, state.contract_round)
    made_v, failed_v = (band.made, band.failed) if band is not None else (0, 0)
    if state.surrender == SURRENDER_ACCEPTED:  # the opponents' surrender was accepted: the single amount
        return True, made_v * state.multiplier
    if state.conceded:
        return False, _with_doubling(state, False, failed_v)
    bidders = state.hand_team_of[state.bidder]
    at = r.all_tricks
    if at is not None and state.surrender == SURRENDER_REFUSED and state.bidders_lost_trick:
        return False, failed_v * at.refused_loss_multiplier * state.multiplier
    if r.scoring.counted_by_opponents:
        made = state.team_points[counting_team(state)] < state.target
    else:
        made = state.team_points[bidders] >= state.target
    if state.fixed_stake:
        return made, state.fixed_stake if made else -state.fixed_stake
    if made:
        value = made_v * (at.multiplier if at is not None and not state.bidders_lost_trick else 1)
    else:
        value = _failed_value(state, failed_v, state.team_points[bidders])
    return made, _with_doubling(state, made, value)


def _failed_value(state: StateData, failed_v: int, pts: int) -> int:
    """A failed band's value, by how short the bidders fell (`pts`: their card points): a multiple under half the
    bid, or a fixed loss from a shortfall on."""
    sc = state.game.rules.scoring
    value = failed_v
    if 2 * pts < state.bid:
        value *= sc.below_half_loss_multiplier
    if 0 <= sc.shortfall_at_least <= state.bid - pts:
        value = -(sc.shortfall_loss or state.bid)
    return value


def _capturing_team(state: StateData, c: CaptureRules) -> int:
    """The hand team that earned a capture bonus (-1: none)."""
    if c.all_of_rank < 0:
        return state.hand_team_of[state.tricks[-1].winner] if state.tricks else -1
    every = state.game.rank_masks[c.all_of_rank]
    for t in range(len(state.hand_teams)):
        taken = 0
        for trick in state.tricks:
            if state.hand_team_of[trick.winner] == t:
                for card in trick.cards:
                    taken |= 1 << card
        if taken & every == every:
            return t
    return -1


def _give(points: list[int], team: int, c: CaptureRules) -> None:
    points[team] += c.amount
    if c.transfer:
        for t in range(len(points)):
            if t != team:
                points[t] -= c.amount


def add_card_point_captures(state: StateData) -> None:
    """Capture bonuses in card points that are counted at the end (every card of a rank), before the contract is
    judged: they count toward it."""
    for c in state.game.rules.captures:
        if not c.game_points:
            team = _capturing_team(state, c)
            if team >= 0:
                _give(state.team_points, team, c)


def score_hand(state: StateData) -> tuple[bool, list[int]]:
    """(made, game points per hand team) for a finished hand."""
    if state.game.rules.scoring.method == SCORE_BANKED:   # each side banks its points (engine/play/banked.py)
        banked = score_banked(state)
        state.held_over = banked.held
        return banked.made, banked.points
    made, value = contract_value(state)
    gp = _contract_points(state, value)
    for c in state.game.rules.captures:
        if c.game_points:
            team = _capturing_team(state, c)
            if team >= 0:
                _give(gp, team, c)
    return made, gp


def _contract_points(state: StateData, value: int) -> list[int]:
    """The contract's value per hand team, as the scoring method credits it: to the bidders, to the opponents
    (a loss), or exchanged with each opposing match unit (team, or player)."""
    teams = len(state.hand_teams)
    gp = [0] * teams
    bidders = state.hand_team_of[state.bidder]
    method = state.game.rules.scoring.method
    if method == SCORE_BIDDING_TEAM or (method == SCORE_OPPONENTS_CREDITED and value >= 0):
        gp[bidders] = value
        return gp
    for t in range(teams):
        if t != bidders:
            gp[t] = -value
    if method != SCORE_OPPONENTS_CREDITED:   # exchange
        team_of = state.game.team_of
        gp[bidders] = value * sum(len({team_of[s] for s in state.hand_teams[t]}) for t in range(teams)
                                  if t != bidders)
    return gp
