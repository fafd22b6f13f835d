"""Scoring a finished hand: bands, special contracts, all-tricks, doubling, and who is credited."""

from __future__ import annotations

from engine.play.base import SURRENDER_ACCEPTED, SURRENDER_REFUSED, StateData
from engine.play.rules import SCORE_BIDDING_TEAM, SCORE_OPPONENTS_CREDITED


def contract_value(state: StateData) -> tuple[bool, int]:
    """Whether the contract was made and its value to the bidding team (negative when lost)."""
    g = state.game
    r = g.rules
    if state.special is not None:
        made = not state.bidders_lost_trick
        return made, state.special.made if made else state.special.failed
    band = g.band_for(state.bid)
    made_v, failed_v = (band.made, band.failed) if band is not None else (0, 0)
    if state.surrender == SURRENDER_ACCEPTED:  # the opponents' surrender was accepted: the single amount
        return True, made_v * state.multiplier
    bidders = state.hand_team_of[state.bidder]
    pts = state.team_points[bidders]
    at = r.all_tricks
    if at is not None and state.surrender == SURRENDER_REFUSED and state.bidders_lost_trick:
        return False, failed_v * at.refused_loss_multiplier * state.multiplier
    made = pts >= state.target
    if state.fixed_stake:
        return made, state.fixed_stake if made else -state.fixed_stake
    if made:
        value = made_v
        if at is not None and not state.bidders_lost_trick:
            value *= at.multiplier
    else:
        value = failed_v
        if 2 * pts < state.bid:
            value *= r.scoring.below_half_loss_multiplier
    return made, value * state.multiplier


def score_hand(state: StateData) -> tuple[bool, list[int]]:
    """(made, game points per hand team) for a finished hand."""
    made, value = contract_value(state)
    teams = len(state.hand_teams)
    gp = [0] * teams
    bidders = state.hand_team_of[state.bidder]
    method = state.game.rules.scoring.method
    if method == SCORE_BIDDING_TEAM or (method == SCORE_OPPONENTS_CREDITED and value >= 0):
        gp[bidders] = value
    elif method == SCORE_OPPONENTS_CREDITED:
        for t in range(teams):
            if t != bidders:
                gp[t] = -value
    else:  # exchange: the losing side pays the winning side
        gp[bidders] = value
        for t in range(teams):
            if t != bidders:
                gp[t] = -value
    return made, gp
