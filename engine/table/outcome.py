"""Why a finished hand scored what it did, in one line a player reads: the contract made or failed against its
target (whose card points, which target), the score band it fell in, and each bonus, penalty or multiplier that
moved the result (a special contract, a surrender, a concession, doubling, every trick, a claim and how it was
graded). Told from the rules and the finished hand, which is public once it is over; every name comes from the
rule file, never from a list of games."""

from __future__ import annotations

from engine.play.banked import banked_words, score_banked
from engine.play.base import SURRENDER_ACCEPTED, SURRENDER_REFUSED
from engine.play.claims import claim_score, claim_succeeded
from engine.play.rules import SUCCESS_NONE
from engine.play.scoring import contract_value, counting_team, score_hand
from engine.play.state import State
from engine.play.sweep_claims import claim_grades
from engine.table.render import Labels

_GRADES = {"on time": "called on time", "on time too late for a bonus": "called on time, too late for a bonus",
           "early": "called before it could be proved", "late": "called after the first moment it could be proved",
           "never made": "never called though it could be proved", "failed": "called, then a trick was lost"}


def side_name(state: State, team: int, lab: Labels) -> str:
    """A hand team as the table names it: "your side" or "seat 1 (right)'s side"."""
    seats = state.hand_teams[team]
    if lab.seat in seats:
        return "your side" if len(seats) > 1 else "you"
    return f"{lab.who(seats[0])}'s side" if len(seats) > 1 else lab.who(seats[0])


def target_words(state: State, lab: Labels) -> str:
    """Whose card points are counted and what they must reach: "you took 95 of the 160 you needed"."""
    bidders = state.hand_team_of[state.bidder]
    counted = counting_team(state)
    pts = state.team_points[counted]
    if counted == bidders:
        return f"{side_name(state, counted, lab)} took {pts} card points, target {state.target}"
    return f"{side_name(state, counted, lab)} took {pts} card points, {state.target} beating it"


def _contract(state: State, lab: Labels, made: bool, value: int) -> str:
    unusual = _unusual_contract(state, lab, made, value)
    if unusual:
        return unusual
    text = f"{lab.who(state.bidder)} {'made' if made else 'failed'} the contract ({target_words(state, lab)})"
    if state.fixed_stake:
        return f"{text}: the fixed stake, {value:+d}"
    band = state.game.band_for(state.bid, state.contract_round)
    if band is not None:
        span = f"bids {band.lo}-{band.hi}" if band.lo != band.hi else f"a bid of {band.lo}"
        text += f"; {span}: {band.made:+d} made, {band.failed:+d} failed"
    extras = [*_all_tricks_words(state, made), *_shortfall_words(state, made), *_doubling_words(state, made)]
    if extras:
        text += "; " + ", ".join(extras)
    return f"{text}: {value:+d}"


def _unusual_contract(state: State, lab: Labels, made: bool, value: int) -> str:
    """A special contract, an accepted surrender or a concession ('' for an ordinary contract)."""
    sp = state.special
    if sp is not None:
        how = "won every trick" if made else "lost a trick"
        return f"{lab.who(state.declarer)} declared {sp.name} and {how}: {value:+d}"
    if state.surrender == SURRENDER_ACCEPTED:
        return f"the surrender was accepted: the bidders score the single amount, {value:+d}"
    if state.conceded:
        return f"{lab.who(state.bidder)} conceded: the contract fails, {value:+d}"
    return ""


def _all_tricks_words(state: State, made: bool) -> list[str]:
    """all_tricks: the multiplier of a refused surrender lost, or of every trick taken."""
    at = state.game.rules.all_tricks
    if at is None:
        return []
    if state.surrender == SURRENDER_REFUSED and state.bidders_lost_trick:
        return [f"x{at.refused_loss_multiplier} for a refused surrender"]
    if made and not state.bidders_lost_trick and at.multiplier != 1:
        return [f"x{at.multiplier} for every trick"]
    return []


def _shortfall_words(state: State, made: bool) -> list[str]:
    """A failed contract's loss set by how short it fell: a fixed loss, or a multiple under half the bid."""
    if made or state.fixed_stake:
        return []
    pts = state.team_points[state.hand_team_of[state.bidder]]
    sc = state.game.rules.scoring
    if 0 <= sc.shortfall_at_least <= state.bid - pts:
        return [f"short by {state.bid - pts}: {-(sc.shortfall_loss or state.bid):+d} instead"]
    if 2 * pts < state.bid and sc.below_half_loss_multiplier != 1:
        return [f"x{sc.below_half_loss_multiplier} for under half the bid"]
    return []


def _doubling_words(state: State, made: bool) -> list[str]:
    words = []
    if state.multiplier != 1:
        words.append(f"x{state.multiplier} for the doubling")
    if state.added:
        words.append(f"{state.added if made else -state.added:+d} for the doubling")
    return words


def score_reason(state: State, lab: Labels) -> str | None:
    """One line saying why a complete hand scored what it did; None for an annulled hand or one without a
    contract."""
    r = state.game.rules
    if state.status == "complete" and r.scoring.banked is not None:
        return _banked_reason(state, lab)
    if state.status != "complete" or state.bidder < 0:
        return None
    made, value = contract_value(state)
    parts = [_contract(state, lab, made, value)]
    _, gp = score_hand(state)
    if state.claim >= 0:
        parts.append(_claim_words(state, lab))
        gp = claim_score(state, gp)
    if r.claims:
        parts.extend(_remaining_claim_words(state, lab, gp))
    parts.extend(f"{bonus.amount:+d} for {'the last trick' if bonus.all_of_rank < 0 else 'capturing a whole rank'}"
                 for bonus in r.captures if bonus.game_points)
    return "; ".join(parts)


def _banked_reason(state: State, lab: Labels) -> str:
    """A banked hand: each side's total (the takers marked) and what the contract came to."""
    b = state.game.rules.scoring.banked
    assert b is not None
    totals = score_banked(state).totals
    takers = state.hand_team_of[state.bidder] if state.bidder >= 0 and b.success != SUCCESS_NONE else -1
    said = " against ".join(f"{side_name(state, t, lab)}{' (the takers)' if t == takers else ''} {p}"
                            for t, p in enumerate(totals))
    return f"totals {said}: {banked_words(state)}"


def _claim_words(state: State, lab: Labels) -> str:
    """The claim made in play: made or failed, and what it paid on top or instead."""
    c = state.game.rules.claims[state.claim]
    ok = claim_succeeded(state)
    instead = "on top" if c.adds else "in place of the contract's result"
    paid = (c.made_by_counting_side if state.hand_team_of[state.claimer] == counting_team(state) else c.made)
    return (f"{lab.who(state.claimer)} claimed {c.name} and {'made it' if ok else 'failed'}: "
            f"{paid if ok else -c.failed:+d} {instead}")


def _remaining_claim_words(state: State, lab: Labels, gp: list[int]) -> list[str]:
    """The grade of each side's claim on the remaining tricks."""
    r = state.game.rules
    parts = []
    for team, kind, result in claim_grades(state, gp):
        name = next(c.name for c in r.claims if c.remaining)
        said = f"{name} by {side_name(state, team, lab)}: {_GRADES.get(kind, kind)}"
        parts.append(said if result is None else f"{said}, {result:+d} in place of the contract's result")
    return parts
