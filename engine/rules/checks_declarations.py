"""Checks across fields for the declarations of a hand: special contracts and their window, melds in any suit,
claims of the last trick, and the trump options they lean on (`trump last`, the trump shown at the first lead).
The same form as engine/rules/checks.py, which runs these after its own."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.rules.messages import Finding
from engine.rules.model import Claim, Declarations, Meld, Ruleset, SpecialContract
from engine.rules.yamlpos import KeyPath

Check = Callable[[Ruleset], Iterator[Finding]]

CONTRACTS = ("special", "contracts")
MELDS = ("special", "melds")
CLAIMS = ("special", "claims")
ADJUST = ("scoring", "target_adjustments")
CONCEALED, CHOSEN = ("trump", "concealed"), ("trump", "chosen")


def _tricks(rs: Ruleset) -> int:
    cards = len(rs.deck.suits) * len(rs.deck.ranks) * rs.deck.copies
    return cards // rs.table.players if rs.table.players else 0


def trump_visibility_fits(rs: Ruleset) -> Iterator[Finding]:
    t = rs.trump
    if t.shown_at_first_lead and not t.concealed:
        yield Finding(("trump", "shown_at_first_lead"), "the trump is never concealed here (trump.concealed), so "
                      "there is nothing to show", depends=(CONCEALED,), hint="; remove it, or set concealed: true")
    if t.last_card is not None and t.chosen != "after_auction":
        yield Finding(("trump", "last_card"), "`trump last` is said at the trump step, and with trump.chosen: in_bid "
                      "there is none", depends=(CHOSEN,))


def declarations_fit(rs: Ruleset) -> Iterator[Finding]:
    sp = rs.special
    if sp.declarations != Declarations() and not any(c.who == "anyone" for c in sp.contracts):
        yield Finding(("special", "declarations"), "this orders the window in which any player may declare a "
                      "special contract, and no contract here is for any player", depends=(CONTRACTS,),
                      hint="; remove it, or give a contract who: anyone")
    for i, c in enumerate(sp.contracts):
        path = (*CONTRACTS, i)
        if c.failed_to_partner is not None:
            yield from _failed_to_partner(rs, c, path, c.failed_to_partner)
        yield from _switches_off(rs, c, path)


def _failed_to_partner(rs: Ruleset, c: SpecialContract, path: KeyPath, failed: int) -> Iterator[Finding]:
    """The score of a trick lost to the partner: the declarer has a playing partner, and it is a loss."""
    if rs.table.bidder_plays_alone or c.partner == "sits_out":
        yield Finding((*path, "failed_to_partner"), "the declarer's partners win no tricks here (they sit "
                      "out, or the declarer has none)", depends=((*path, "partner"), ("table",
                                                                                      "bidder_plays_alone")))
    elif failed > 0:
        yield Finding((*path, "failed_to_partner"), "a failure is what the declarers lose (0 or less)")


def _switches_off(rs: Ruleset, c: SpecialContract, path: KeyPath) -> Iterator[Finding]:
    """Each rule switched off once, and one the file has."""
    sp = rs.special
    for j, off in enumerate(c.switches_off):
        if off in c.switches_off[:j]:
            yield Finding((*path, "switches_off", j), f"{off} is listed twice")
        elif off == "melds" and sp.melds is None:
            yield Finding((*path, "switches_off", j), "there are no melds here (special.melds) to switch off",
                          depends=(MELDS,))
        elif off == "claims" and not sp.claims:
            yield Finding((*path, "switches_off", j), "there are no claims here (special.claims) to switch off",
                          depends=(CLAIMS,))


def melds_fit(rs: Ruleset) -> Iterator[Finding]:
    md = rs.special.melds
    adjusts = "melds" in rs.scoring.target_adjustments
    if md is None:
        if adjusts:
            yield Finding(ADJUST, "melds move the target, and there are none (special.melds)", depends=(MELDS,))
        return
    if not adjusts:
        yield Finding(MELDS, "a meld shown here would count for nothing", depends=(ADJUST,),
                      hint="; add melds to scoring.target_adjustments", fix="also add melds to "
                      "scoring.target_adjustments")
    path = MELDS
    if md.extra is not None and md.extra.rank in md.ranks and md.extra.rank in rs.deck.ranks:
        yield Finding((*path, "extra", "rank"), f"{md.extra.rank} is already one of the meld's ranks")
    yield from _meld_windows(rs, md)
    if md.target_bounds is not None and md.target_bounds[0] > md.target_bounds[1]:
        yield Finding((*MELDS, "target_bounds"), "the lower bound is above the upper one")


def _meld_windows(rs: Ruleset, md: Meld) -> Iterator[Finding]:
    """The tricks after which melds are shown: each once, and followed by a lead."""
    tricks = _tricks(rs)
    for i, t in enumerate(md.after_tricks):
        if t >= tricks:
            yield Finding((*MELDS, "after_tricks", i), f"a hand has {tricks} tricks, and after trick {t} none is "
                          "led: nobody could use a meld", depends=(("schedule",), ("table", "players")))
        elif t in md.after_tricks[:i]:
            yield Finding((*MELDS, "after_tricks", i), f"{t} is listed twice")


def claims_fit(rs: Ruleset) -> Iterator[Finding]:
    sp = rs.special
    taken = {c.name for c in sp.contracts}
    for i, c in enumerate(sp.claims):
        path = (*CLAIMS, i)
        if c.name in taken:
            yield Finding((*path, "name"), f"{c.name} is already the name of a contract or claim (`declare "
                          f"{c.name}` would be ambiguous)", depends=(CONTRACTS,))
        taken.add(c.name)
        r = c.rewards
        if r.on_time < 0 or r.failed > 0 or (r.on_time_by_counting_side is not None and r.on_time_by_counting_side < 0):
            yield Finding((*path, "rewards"), "on_time is what the caller's side wins (0 or more), failed what it "
                          "loses (0 or less)")
        yield from _claim_needs(rs, c, path)


def _claim_needs(rs: Ruleset, c: Claim, path: KeyPath) -> Iterator[Finding]:
    """What a claim's conditions read is in the file: melds to show or count, a winning score to be short of."""
    sp = rs.special
    if c.who == "side_showed_meld" and sp.melds is None:
        yield Finding((*path, "who"), "no meld can be shown here (special.melds)", depends=(MELDS,))
    if c.melds_beat_opponents_by is not None and sp.melds is None:
        yield Finding((*path, "melds_beat_opponents_by"), "there are no melds here (special.melds) to count",
                      depends=(MELDS,))
    if c.barred_within is not None and rs.match.win_at is None:
        yield Finding((*path, "barred_within"), "the match has no winning score (match.win_at) to be short of",
                      depends=(("match", "win_at"),))


DECLARATION_CHECKS: tuple[Check, ...] = (trump_visibility_fits, declarations_fit, melds_fit, claims_fit)
