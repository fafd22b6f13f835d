"""Scores banked in points (scoring.method: banked): each side's total is its card points (the last trick
included), the melds that score for it and its trump marriage; the contract's success rule decides what each side
banks (own totals, or everything to the defenders), with the all-tricks rule, doubling, the trump multiplier and
rounding; and the match's winning score tested after each credit of a deal (match.ends_mid_deal).

The arithmetic is `bank()`, over plain numbers, so that a worked deal can be checked without playing it;
`score_banked()` reads those numbers from a finished hand. Banked scoring is for two sides (validate says so).
"""

from __future__ import annotations

from typing import Final

from engine.play.base import StateData
from engine.play.rules import (
    FAILED_ALL_MELDS,
    FAILED_BOTH_TOTALS,
    FAILED_FIXED_AND_BID,
    SUCCESS_NONE,
    SUCCESS_REACHES_BID,
    TIES_HELD_OVER,
    TIES_MAKER_SCORES_NOTHING,
    BankedRules,
)
from engine.play.tables import GameTables

# what the melds and the trump marriage of one side may add in a hand, at most (a bound for the learning
# environments' utilities; no deal of the family's files comes near it)
MELD_ALLOWANCE: Final = 1000

# how a banked hand came out (BankedScore.outcome): the words the tables use
MADE: Final = "made"
FAILED: Final = "failed"
TIE_HELD: Final = "held_over"
TIE_NOTHING: Final = "tie"
NO_CONTRACT: Final = "no_contract"

# the credits of a deal in the order the target is tested (match.ends_mid_deal): 0 while nothing stopped the deal
STOP_NONE: Final = 0
STOP_MARRIAGE: Final = 1
STOP_MELDS: Final = 2
STOP_TRICKS: Final = 3


class BankedScore:
    """What each side banks for one deal, and why. Never changed once made. (A plain class, not a frozen
    dataclass: compiled, a frozen dataclass is built by interpreted code, a large share of a hand's scoring.)"""

    def __init__(self, made: bool, points: list[int], held: int, winner: int, outcome: str, totals: list[int],
                 card_total: int) -> None:
        self.made = made
        self.points = points            # per side, after the multipliers and rounding
        self.held = held                # the takers' points held for the winner of the next deal (ties: held_over)
        self.winner = winner            # the side that won the deal (-1: none, a tie)
        self.outcome = outcome          # MADE, FAILED, TIE_HELD, TIE_NOTHING, NO_CONTRACT
        self.totals = totals            # each side's total before the success test (card points + melds + ...)
        self.card_total = card_total    # every card point of the deal (a sweep's fixed card points where set)


def round_to_ten(points: int) -> int:
    """The nearest ten: units 0-4 down, 5-9 up."""
    return (points + 5) // 10 * 10


def bank(b: BankedRules, takers: int, cards: list[int], melds: list[int], marriage: list[int], sweep: int,
         bid: int = 0, multiplier: int = 1, added: int = 0, trump_multiplier: int = 1) -> BankedScore:
    """The banked score of a deal between two sides. `cards`: each side's card points (last trick included);
    `melds`: the melds that score for it; `marriage`: its trump marriage; `sweep`: the side that won every trick
    (-1: none); `takers`: the side whose contract is played; `bid`: its bid; `multiplier` and `added`: what the
    doubling steps made of the hand; `trump_multiplier`: the trump suit's or mode's."""
    sides = len(cards)
    cards, bonus = _after_sweep(b, cards, sweep)
    totals = [cards[t] + bonus[t] + melds[t] + marriage[t] for t in range(sides)]
    if b.success == SUCCESS_NONE:
        best = max(totals)
        winner = totals.index(best) if totals.count(best) == 1 else -1
        return _finish(b, BankedScore(True, totals, 0, winner, NO_CONTRACT, totals, sum(cards)), multiplier, added,
                       trump_multiplier)
    made, tie = _contract_made(b, takers, totals, sweep, bid)
    if multiplier > 1 and b.doubled_fixed_and_bid:
        score = _doubled(b, takers if made else 1 - takers, made, marriage, totals, sum(cards), bid, multiplier)
        return _finish(b, score, 1, added, trump_multiplier)
    if made:
        pts = list(totals)
        if b.add_bid:
            pts[takers] += bid
        score = BankedScore(True, pts, 0, takers, MADE, totals, sum(cards))
    elif tie and b.ties in (TIES_HELD_OVER, TIES_MAKER_SCORES_NOTHING):
        score = _tied(b, takers, totals, sum(cards))
    else:
        pts = _failed_points(b, takers, cards, bonus, melds, marriage, totals, bid)
        score = BankedScore(False, pts, 0, 1 - takers, FAILED, totals, sum(cards))
    return _finish(b, score, multiplier, added, trump_multiplier)


def _after_sweep(b: BankedRules, cards: list[int], sweep: int) -> tuple[list[int], list[int]]:
    """(each side's card points, its bonus) once a sweep (all tricks, -1: none) is counted: the sweep's fixed
    card points where the file gives them, and its bonus."""
    sides = len(cards)
    cards = list(cards)
    bonus = [0] * sides
    if sweep >= 0:
        if b.sweep_card_points >= 0:
            cards = [0] * sides
            cards[sweep] = b.sweep_card_points
        bonus[sweep] = b.sweep_bonus
    return cards, bonus


def _doubled(b: BankedRules, winner: int, made: bool, marriage: list[int], totals: list[int], card_total: int,
             bid: int, multiplier: int) -> BankedScore:
    """Doubled (coinche): the deal's winner banks (fixed + bid) x the multiplier and its marriage; the other its
    marriage."""
    pts = [0] * len(totals)
    pts[winner] = (b.failed_fixed + bid) * multiplier + marriage[winner]
    pts[1 - winner] = marriage[1 - winner]
    return BankedScore(made, pts, 0, winner, MADE if made else FAILED, totals, card_total)


def _contract_made(b: BankedRules, takers: int, totals: list[int], sweep: int, bid: int) -> tuple[bool, bool]:
    """Whether the takers made their contract, and whether the deal is a tie (the success rule's terms)."""
    defenders = 1 - takers
    mine, theirs = totals[takers], totals[defenders]
    sweeping_bid = 0 <= b.sweep_bid_from <= bid
    if sweeping_bid:
        made = sweep == takers
    else:
        made = mine > theirs and (b.success != SUCCESS_REACHES_BID or mine >= bid)
        if b.sweep_card_points >= 0 or b.sweep_bonus:
            made = made and sweep != defenders    # a sweep by the defenders makes the contract fail
    tie = not made and not sweeping_bid and mine == theirs and sweep < 0 and (
        b.success != SUCCESS_REACHES_BID or mine >= bid)
    return made, tie


def _tied(b: BankedRules, takers: int, totals: list[int], card_total: int) -> BankedScore:
    """A tie the rule keeps apart: the defenders bank their total; the takers' waits (litige) or is lost."""
    defenders = 1 - takers
    pts = [0] * len(totals)
    pts[defenders] = totals[defenders]
    if b.ties == TIES_HELD_OVER:    # litige: the takers' total waits for the next deal's winner
        return BankedScore(False, pts, totals[takers], -1, TIE_HELD, totals, card_total)
    return BankedScore(False, pts, 0, -1, TIE_NOTHING, totals, card_total)


def _failed_points(b: BankedRules, takers: int, cards: list[int], bonus: list[int], melds: list[int],
                   marriage: list[int], totals: list[int], bid: int) -> list[int]:
    """What each side banks when the contract fails (failed_defenders)."""
    defenders = 1 - takers
    pts = [0] * len(cards)
    fd = b.failed_defenders
    pts[takers] = marriage[takers]   # the marriage is never lost ...
    if fd == FAILED_FIXED_AND_BID:
        pts[defenders] = b.failed_fixed + bid + melds[defenders] + marriage[defenders]
    elif fd == FAILED_BOTH_TOTALS:   # ... except where the defenders take both totals, the marriage inside
        pts[defenders] = totals[takers] + totals[defenders]
        pts[takers] = 0
    elif fd == FAILED_ALL_MELDS:
        pts[defenders] = sum(cards) + sum(bonus) + sum(melds) + marriage[defenders]
    else:   # every card point, their own melds and marriage
        pts[defenders] = sum(cards) + bonus[defenders] + melds[defenders] + marriage[defenders]
    return pts


def _finish(b: BankedRules, s: BankedScore, multiplier: int, added: int, trump_multiplier: int) -> BankedScore:
    """The doubling's multiplier (and what its steps add, to the deal's winner), the trump's multiplier, rounding."""
    factor = multiplier * trump_multiplier
    out = [p * factor for p in s.points]
    held = s.held * factor
    if added and s.winner >= 0:
        out[s.winner] += added
    if b.round_to_ten:
        out = [round_to_ten(p) for p in out]
        held = round_to_ten(held)
    return BankedScore(s.made, out, held, s.winner, s.outcome, s.totals, s.card_total)


def sweeping_side(state: StateData) -> int:
    """The hand team that won every trick of a fully played hand (-1: none)."""
    tricks = state.tricks
    if not tricks or len(tricks) != state.hand_tricks:
        return -1
    team = state.hand_team_of[tricks[0].winner]
    for t in tricks:
        if state.hand_team_of[t.winner] != team:
            return -1
    return team


def score_banked(state: StateData) -> BankedScore:
    """The banked score of a finished hand (the takers: the bidder's side; a deal the match's target stopped
    banks the credits counted up to it)."""
    r = state.game.rules
    b = r.scoring.banked
    assert b is not None   # compiled with the method
    stop = state.banked_stop
    if stop != STOP_NONE:
        return _stopped(state, b, stop)
    takers = state.hand_team_of[state.bidder] if state.bidder >= 0 else 0
    melds, marriage = state.meld_points, state.marriage_points
    mr = r.marriage
    if mr is not None and mr.in_trick:
        # counted in the trick, the marriage is one more meld of the trick (roem), not a bonus the takers keep
        melds = [m + k for m, k in zip(melds, marriage, strict=True)]
        marriage = [0] * len(marriage)
    return bank(b, takers, state.team_points, melds, marriage, sweeping_side(state),
                bid=state.bid, multiplier=state.multiplier, added=state.added,
                trump_multiplier=state.trump_multiplier)


def _credits(state: StateData, team: int, stage: int) -> int:
    """A side's points credited so far when the credits of the trick just finished are counted up to `stage`
    (its marriage, then the melds, then the trick's points): the earlier tricks' points always count."""
    pts = state.marriage_points[team] + state.team_points[team]
    if stage >= STOP_MELDS:
        pts += state.meld_points[team]
    last = state.tricks[-1] if state.tricks else None
    if stage < STOP_TRICKS and last is not None and state.hand_team_of[last.winner] == team:
        pts -= last.points
    return pts * state.trump_multiplier


def _stopped(state: StateData, b: BankedRules, stop: int) -> BankedScore:
    if stop == STOP_TRICKS and len(state.tricks) == state.hand_tricks:   # the last trick: the whole deal's score
        return bank(b, 0, state.team_points, state.meld_points, state.marriage_points, sweeping_side(state),
                    trump_multiplier=state.trump_multiplier)
    sides = len(state.hand_teams)
    pts = [_credits(state, t, stop) for t in range(sides)]
    if b.round_to_ten:
        pts = [round_to_ten(p) for p in pts]
    best = max(pts)
    return BankedScore(True, pts, 0, pts.index(best) if pts.count(best) == 1 else -1, NO_CONTRACT, list(pts),
                       sum(state.team_points))


def _match_team(state: StateData, team: int) -> int:
    return state.game.team_of[state.hand_teams[team][0]]


def target_reached(state: StateData) -> bool:
    """match.ends_mid_deal: whether a side has now reached the match's winning score, the credits of the trick
    just finished counted in the order marriage, melds, trick points; if so, `banked_stop` keeps the credit that
    reached it (the deal then stops). Called after each trick."""
    target = state.match_target
    if target is None:
        return False
    sides = len(state.hand_teams)
    # every credit is a count of points (never negative), so a side's credits only grow from stage to stage: when
    # no side reaches the target with all of them, none does at an earlier stage (the common case, checked cheaply)
    scores, mult, team_of = state.match_scores, state.trump_multiplier, state.game.team_of
    marriage, tricks, melds = state.marriage_points, state.team_points, state.meld_points
    near = False
    for t, seats in enumerate(state.hand_teams):
        if scores[team_of[seats[0]]] + (marriage[t] + tricks[t] + melds[t]) * mult >= target:
            near = True
            break
    if not near:
        return False
    for stage in (STOP_MARRIAGE, STOP_MELDS, STOP_TRICKS):
        for t in range(sides):
            if state.match_scores[_match_team(state, t)] + _credits(state, t, stage) >= target:
                state.banked_stop = stage
                return True
    return False


def banked_words(state: StateData) -> str:
    """The banked result of a finished hand in a player's words (the tables' hand summary): how it came out,
    and the multipliers that moved it."""
    b = state.game.rules.scoring.banked
    if b is None or state.status != "complete":
        return ""
    words = _outcome_words(state, b)
    if state.multiplier > 1 and not b.doubled_fixed_and_bid and state.banked_stop == STOP_NONE:
        words += f"; x{state.multiplier} for the doubling"
    if state.trump_multiplier != 1:
        words += f"; x{state.trump_multiplier} for the trump"
    if b.round_to_ten:
        words += "; rounded to tens"
    return words


def _outcome_words(state: StateData, b: BankedRules) -> str:
    if state.banked_stop != STOP_NONE:
        what = ("trump marriage", "melds", "tricks")[state.banked_stop - 1]
        return f"the match's winning score was reached by the {what}: the deal stops, each side banks what it has"
    s = score_banked(state)
    if s.outcome == NO_CONTRACT:
        return "each side banks its own points"
    if s.outcome == TIE_HELD:
        return (f"equal totals: the defenders bank theirs, the takers' {s.held} go to the winner of the next deal")
    if s.outcome == TIE_NOTHING:
        return "equal totals: the takers bank nothing, the defenders their own points"
    if state.multiplier > 1 and b.doubled_fixed_and_bid:
        who = "the takers" if s.made else "the defenders"
        return (f"{'made' if s.made else 'failed'}, doubled: {who} take ({b.failed_fixed} + the bid) x "
                f"{state.multiplier} and their marriage")
    if s.made:
        return "made: each side banks its own points" + (", the takers also the bid" if b.add_bid else "")
    return _failed_words(b, s.card_total)


def _failed_words(b: BankedRules, card_total: int) -> str:
    """A failed contract: what the defenders take (failed_defenders)."""
    fd = b.failed_defenders
    if fd == FAILED_BOTH_TOTALS:
        return "failed: the defenders take both sides' points"
    if fd == FAILED_FIXED_AND_BID:
        told = f"{b.failed_fixed} + the bid + their melds"
    elif fd == FAILED_ALL_MELDS:
        told = f"{card_total} + the melds of both sides"
    else:
        told = f"{card_total} + their melds"
    return f"failed: the takers keep only their marriage, the defenders take {told}"


def deal_winner(state: StateData) -> int:
    """The hand team that won a finished banked deal (-1: none, a tie): it takes the points held over."""
    return score_banked(state).winner


def banked_bound(game: GameTables) -> int:
    """A bound on what one side banks in a hand, before any multiplier: every card point (or a sweep's fixed
    card points), a sweep's bonus, the fixed points with the top bid, and MELD_ALLOWANCE for melds and marriage."""
    r = game.rules
    b = r.scoring.banked
    if b is None:
        return 0
    cards = max(game.points_per_hand, b.sweep_card_points)
    top = r.auction.top + (r.second_auction.top if r.second_auction is not None else 0)
    return cards + b.sweep_bonus + b.failed_fixed + top + MELD_ALLOWANCE
