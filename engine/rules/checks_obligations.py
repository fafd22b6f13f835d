"""Checks across fields for the card-play obligations (play.obligations): duties that bind nobody, a partner's
exemption at a table without partners, and the play rules the obligations replace. The same form as
engine/rules/checks.py, which runs these after its own."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.rules.messages import Finding
from engine.rules.model import Ruleset

Check = Callable[[Ruleset], Iterator[Finding]]

OB = ("play", "obligations")
TEAMS, ALONE = ("table", "teams"), ("table", "bidder_plays_alone")


def _no_partners(rs: Ruleset) -> bool:
    return rs.table.bidder_plays_alone or all(len(t) == 1 for t in rs.table.teams)


def obligations_bind(rs: Ruleset) -> Iterator[Finding]:
    """Every duty stated binds somebody: overtrumping needs a player bound to trump, a forced undertrump needs the
    overtrump duty it is the fallback of. (The ranks never forced, each once and of the deck: checks_ranks.py.)"""
    ob = rs.play.obligations
    if ob is None:
        return
    if ob.overtrump == "required" and ob.void == "free":
        yield Finding((*OB, "overtrump"), "nobody is bound to trump when void here (void: free), so nobody has to "
                      "overtrump (heading a trump lead is trump_led's duty)", depends=((*OB, "void"),),
                      hint="; set void: must_trump (or must_trump_unless_partner_winning), or overtrump: free")
    if ob.undertrump == "forced" and ob.overtrump == "free":
        yield Finding((*OB, "undertrump"), "forced says what a player bound to trump does when he cannot overtrump: "
                      "without overtrump: required any trump already does", depends=((*OB, "overtrump"),),
                      hint="; set overtrump: required, or undertrump: allowed")


def partner_exemptions_fit(rs: Ruleset) -> Iterator[Finding]:
    """The exemptions while the partner holds the trick need partners."""
    ob = rs.play.obligations
    if ob is None or not _no_partners(rs):
        return
    if ob.trump_led == "head_trick_unless_partner_winning":
        yield Finding((*OB, "trump_led"), "nobody has a partner here, so nobody's partner can hold the trick",
                      depends=(TEAMS, ALONE), hint="; set trump_led: head_trick")
    if ob.void == "must_trump_unless_partner_winning":
        yield Finding((*OB, "void"), "nobody has a partner here, so nobody's partner can hold the trick",
                      depends=(TEAMS, ALONE), hint="; set void: must_trump")


def obligations_replace_older_rules(rs: Ruleset) -> Iterator[Finding]:
    """With obligations, the older single rules of a void player's discard are not combined (the obligations say
    it), and the claim prover, which knows only following suit, cannot prove claims."""
    pl = rs.play
    if pl.obligations is None:
        return
    if pl.must_not_undertrump:
        yield Finding(("play", "must_not_undertrump"), "with play.obligations the undertrump is obligations."
                      "undertrump's to say", depends=(OB,),
                      hint="; remove must_not_undertrump and set obligations.undertrump: forbidden_unless_only_trumps")
    if pl.no_discard_before_suit_led:
        yield Finding(("play", "no_discard_before_suit_led"), "jacknine does not combine these protected discards "
                      "with play.obligations", depends=(OB,), hint="; remove one of the two")
    for i, c in enumerate(rs.special.claims):
        if c.certainty == "provable":
            yield Finding(("special", "claims", i, "certainty"), "the claim prover knows following suit only, not "
                          "play.obligations: it cannot prove claims under them", depends=(OB,),
                          hint="; set certainty: none")


OBLIGATION_CHECKS: tuple[Check, ...] = (obligations_bind, partner_exemptions_fit, obligations_replace_older_rules)
