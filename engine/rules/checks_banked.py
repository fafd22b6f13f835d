"""Checks across fields for banked scoring (scoring.method: banked, scoring.banked) and the match's forms that go
with it (match.deals, match.ends_mid_deal). The same form as engine/rules/checks.py, which runs these after its
own."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.rules.messages import Finding
from engine.rules.model import Banked, BankedAllTricks, Ruleset

Check = Callable[[Ruleset], Iterator[Finding]]

METHOD = ("scoring", "method")
BANKED = ("scoring", "banked")
BANDS = ("scoring", "bands")
SUCCESS = ("scoring", "banked", "success")
WIN_AT = ("match", "win_at")
DEALS = ("match", "deals")


def bands_fit_the_method(rs: Ruleset) -> Iterator[Finding]:
    """Bands score every method but banked, which needs none."""
    sc = rs.scoring
    if sc.method != "banked" and not sc.bands:
        yield Finding(BANDS, f"scoring method {sc.method} needs at least one band (only method banked scores "
                      "without bands)", depends=(METHOD,), hint="; add bands, or set method: banked")
    if sc.method == "banked" and sc.bands:
        yield Finding(BANDS, "banked scoring uses no bands: each side banks the points it took", depends=(METHOD,),
                      hint="; write bands: [] (or remove them)")
    if sc.method != "banked" and sc.banked is not None:
        yield Finding(BANKED, f"this says how a banked hand is scored, and the method is {sc.method}",
                      depends=(METHOD,), hint="; remove it, or set method: banked")


_BANDED: tuple[tuple[str, Any], ...] = (
    ("below_half_loss_multiplier", 1), ("shortfall_loss", None), ("counted_by", "bidders"), ("target", None),
    ("target_adjustments", []))


def banked_fits(rs: Ruleset) -> Iterator[Finding]:
    """Banked scoring: two sides, no band options, each option one that changes play."""
    sc = rs.scoring
    if sc.method != "banked":
        return
    if not (rs.table.bidder_plays_alone or len(rs.table.teams) == 2):
        yield Finding(METHOD, "banked scoring compares two sides' points: it needs two teams (or a lone bidder)",
                      depends=(("table", "teams"),))
    for name, default in _BANDED:
        if getattr(sc, name) != default:
            yield Finding(("scoring", name), "this applies to bands of game points; banked scoring has none",
                          depends=(METHOD,), hint="; remove it")
    if rs.special.all_tricks is not None:
        yield Finding(("special", "all_tricks"), "with banked scoring a sweep is scored by "
                      "scoring.banked.all_tricks", depends=(METHOD,), hint="; move it there ({card_points: N} or "
                      "{bonus: N})")
    yield from _banked_options(rs, sc.banked or Banked())


def _banked_options(rs: Ruleset, b: Banked) -> Iterator[Finding]:
    yield from _fixed_points(rs, b)
    if b.success == "none":
        yield from _no_contract_options(b)
    if b.all_tricks is not None:
        yield from _sweep_fits(rs, b, b.all_tricks)


def _fixed_points(rs: Ruleset, b: Banked) -> Iterator[Finding]:
    """failed_fixed exactly where a rule reads it; the doubled rule's doubling steps."""
    fixed_needed = b.failed_defenders == "fixed_and_bid" or (
        b.doubled == "fixed_and_bid_times_multiplier" and b.success != "none")
    if fixed_needed and b.failed_fixed is None:
        yield Finding((*BANKED, "failed_fixed"), "fixed_and_bid needs the fixed points the defenders take",
                      depends=((*BANKED, "failed_defenders"), (*BANKED, "doubled")),
                      hint="; write failed_fixed: 160 under scoring.banked")
    if not fixed_needed and b.failed_fixed is not None:
        yield Finding((*BANKED, "failed_fixed"), "only failed_defenders: fixed_and_bid or doubled: "
                      "fixed_and_bid_times_multiplier use it", depends=((*BANKED, "failed_defenders"),),
                      hint="; remove it")
    if b.doubled == "fixed_and_bid_times_multiplier" and rs.special.doubling is None:
        yield Finding((*BANKED, "doubled"), "there are no doubling steps (special.doubling)",
                      depends=(("special", "doubling"),), hint="; remove it")


def _no_contract_options(b: Banked) -> Iterator[Finding]:
    """With success: none, the options of a contract are left out."""
    unused = [("ties", b.ties != "failed"), ("add_bid", b.add_bid),
              ("failed_defenders", b.failed_defenders != "all_points_and_their_melds"),
              ("doubled", b.doubled != "multiplies_all")]
    for name, stated in unused:
        if stated:
            yield Finding((*BANKED, name), "with success: none there is no contract to make or fail",
                          depends=(SUCCESS,), hint="; remove it")


def _sweep_fits(rs: Ruleset, b: Banked, at: BankedAllTricks) -> Iterator[Finding]:
    """A sweep is worth card points or a bonus (one of them); a sweep bid is a bid that exists."""
    if at.card_points is None and at.bonus is None and at.bid_from is None:
        yield Finding((*BANKED, "all_tricks"), "say what a sweep is worth: card_points (capot) or bonus (pit)")
    if at.card_points is not None and at.bonus is not None:
        yield Finding((*BANKED, "all_tricks", "bonus"), "a sweep counts either fixed card_points or a bonus, "
                      "not both", depends=((*BANKED, "all_tricks", "card_points"),))
    if at.bid_from is not None:
        yield from _sweep_bid_fits(rs, b, at.bid_from)


def _sweep_bid_fits(rs: Ruleset, b: Banked, bid_from: int) -> Iterator[Finding]:
    from engine.rules.checks import auction_values

    if b.success == "none":
        yield Finding((*BANKED, "all_tricks", "bid_from"), "with success: none there are no bids",
                      depends=(SUCCESS,))
    elif not any(v >= bid_from for v in auction_values(rs)):
        yield Finding((*BANKED, "all_tricks", "bid_from"), f"no bid reaches {bid_from}",
                      depends=(("auction", "bids"),), hint="; add it to auction.bids.extra")


def match_form_fits(rs: Ruleset) -> Iterator[Finding]:
    """A match of a number of deals has no winning score; one that ends mid-deal needs one, and banked scoring
    with no contract."""
    m = rs.match
    if m.deals is not None:
        yield from _deals_match(rs)
    if rs.scoring.method == "banked":
        yield from _banked_match(rs)
    if m.ends_mid_deal:
        yield from _mid_deal_match(rs)


def _deals_match(rs: Ruleset) -> Iterator[Finding]:
    """A match of a number of deals: no winning or losing score, no sets."""
    m = rs.match
    stated = m.model_fields_set
    for name in ("win_at", "lose_at"):
        if name in stated and getattr(m, name) is not None:
            yield Finding(("match", name), "the match is a number of deals (match.deals): the highest total "
                          "wins", depends=(DEALS,), hint=f"; remove {name}, or deals")
    if m.sets is not None:
        yield Finding(("match", "sets"), "the match is a number of deals (match.deals): it is not won by sets",
                      depends=(DEALS,), hint="; remove sets, or deals")


def _banked_match(rs: Ruleset) -> Iterator[Finding]:
    """Banked points: a winning score in points or a number of deals, and no losing score."""
    m = rs.match
    stated = m.model_fields_set
    if m.deals is None and "win_at" not in stated:
        yield Finding(METHOD, "banked points need a winning score in points (match.win_at) or a number of "
                      "deals (match.deals); the default win_at of 6 is for game points",
                      hint="; write match: {win_at: 501, lose_at: null}, or match: {deals: 16}")
    if m.lose_at is not None and "lose_at" in stated and m.deals is None:
        yield Finding(("match", "lose_at"), "banked scores never go down, so nobody can lose by a score",
                      depends=(METHOD,), hint="; write lose_at: null")


def _mid_deal_match(rs: Ruleset) -> Iterator[Finding]:
    """Ending mid-deal: a winning score, banked scoring with no contract."""
    m = rs.match
    if m.deals is not None or m.win_at is None:
        yield Finding(("match", "ends_mid_deal"), "ending mid-deal needs a winning score (match.win_at)",
                      depends=(WIN_AT, DEALS))
    sc = rs.scoring
    if sc.method != "banked" or (sc.banked or Banked()).success != "none":
        yield Finding(("match", "ends_mid_deal"), "ending mid-deal needs banked scoring with no contract "
                      "(scoring.method: banked, banked.success: none)", depends=(METHOD, SUCCESS))


BANKED_CHECKS: tuple[Check, ...] = (bands_fit_the_method, banked_fits, match_form_fits)
