"""`show`'s sentences for banked scoring (scoring.method: banked) and the match forms that go with it
(match.deals, match.ends_mid_deal); engine/rules/explain.py calls these in its Scoring and Match sections."""

from __future__ import annotations

from collections.abc import Iterator

from engine.rules.checks import total_points
from engine.rules.model import Banked, Ruleset
from engine.rules.yamlpos import KeyPath

Line = tuple[str, tuple[KeyPath, ...]]
B = ("scoring", "banked")


def _p(*parts: str) -> KeyPath:
    return (*B, *parts)


def banked_lines(rs: Ruleset) -> Iterator[Line]:
    """What each side banks, in a player's words."""
    b = rs.scoring.banked or Banked()
    alone = rs.table.bidder_plays_alone
    takers, others = ("the bidder", "the others") if alone else ("the bidding side", "the opponents")
    yield ("Each side banks the points it took: its card points (the last trick included), the melds that score "
           "for it and its trump marriage make its total."), (("scoring", "method"),)
    if b.success == "none":
        yield "There is no contract: each side banks its own total.", (_p("success"),)
    else:
        need = "reaches the bid and is higher than" if b.success == "reaches_bid_and_beats_opponents" else \
            "is higher than"
        yield f"The contract is made when {takers}'s total {need} {others}'.", (_p("success"),)
        yield from _outcomes(rs, b, takers, others)
    yield from _all_tricks(b, takers, others)
    if rs.special.doubling is not None and b.doubled == "multiplies_all":
        yield "After a doubling step, what each side banks is multiplied.", (_p("doubled"), ("special", "doubling"))
    if b.rounding == "nearest_ten":
        yield ("Each side's score for the deal is rounded to the nearest ten (units 0-4 down, 5-9 up), after the "
               "contract is judged."), (_p("rounding"),)


def _outcomes(rs: Ruleset, b: Banked, takers: str, others: str) -> Iterator[Line]:
    ties = {"failed": "Equal totals: the contract fails.",
            "held_over": (f"Equal totals: {others} bank theirs, and {takers}'s total is held for the side that "
                          "wins the next deal."),
            "maker_scores_nothing": f"Equal totals: {takers} banks nothing, {others} their own total."}
    yield ties[b.ties], (_p("ties"),)
    made = f"Made: each side banks its own total{f', and {takers} also the bid' if b.add_bid else ''}."
    yield made, (_p("made"), _p("add_bid"))
    every = f"every card point of the deal ({total_points(rs)})"
    failed = {
        "all_points_and_their_melds": f"{others} bank {every}, their melds and their trump marriage",
        "all_points_and_all_melds": f"{others} bank {every}, the melds of both sides and their trump marriage",
        "fixed_and_bid": f"{others} bank {b.failed_fixed} plus the bid, their melds and their trump marriage",
        "both_totals": f"{others} bank both sides' totals"}
    keeps = f"{takers} banks nothing" if b.failed_defenders == "both_totals" else \
        f"{takers} banks only its trump marriage"
    yield f"Failed: {keeps}; {failed[b.failed_defenders]}.", (_p("failed_defenders"), _p("failed_fixed"))
    if b.doubled == "fixed_and_bid_times_multiplier":
        yield (f"Doubled: the side that wins the deal banks ({b.failed_fixed} + the bid) times the multiplier and "
               "its trump marriage; the other side only its trump marriage."), (_p("doubled"), _p("failed_fixed"))


def _all_tricks(b: Banked, takers: str, others: str) -> Iterator[Line]:
    at = b.all_tricks
    if at is None:
        return
    path = (_p("all_tricks"),)
    if at.card_points is not None:
        yield (f"A side that wins every trick counts {at.card_points} card points (the other side none)"
               + (f"; a sweep by {others} makes the contract fail." if b.success != "none" else "."), path)
    if at.bonus is not None:
        yield f"A side that wins every trick adds {at.bonus} to its total.", path
    if at.bid_from is not None:
        yield (f"A bid of {at.bid_from} or more is a bid to win every trick: made only when {takers} wins them "
               "all, and counted at its value."), path


def match_lines(rs: Ruleset, unit: str) -> Iterator[Line]:
    """The match's forms for banked points: a number of deals, the target reached mid-deal."""
    m = rs.match
    if m.deals is not None:
        yield (f"The match is {m.deals} deals (hands that are scored); the {unit} with the highest total wins, "
               "equal totals draw."), (("match", "deals"),)
    if m.ends_mid_deal:
        yield (f"The match ends the moment a {unit} reaches {m.win_at}, even in the middle of a deal (which stops "
               "there): points are credited as they come - the trump marriage, the melds, each trick's points - "
               "and in that order when several come together."), (("match", "ends_mid_deal"), ("match", "win_at"))
