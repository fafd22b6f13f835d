"""What `show` says of play.obligations, in a player's words: the duties in following to a trick (the rest of the
play section is engine/rules/explain.py's)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.rules.explain_fields import said_lines
from engine.rules.model import Obligations, Ruleset
from engine.rules.yamlpos import KeyPath

Line = tuple[str, tuple[KeyPath, ...]]
OB = ("play", "obligations")


def _p(field: str) -> KeyPath:
    return (*OB, field)


def obligation_lines(rs: Ruleset) -> Iterator[Line]:
    ob = rs.play.obligations
    if ob is None:
        return
    partners = not rs.table.bidder_plays_alone and any(len(t) > 1 for t in rs.table.teams)
    yield _following(ob)
    if rs.trump.concealed:
        yield ("The duties below apply once the trump is exposed; until then the rules of the concealed trump "
               "apply."), (OB, ("trump", "concealed"))
    yield from _trumping(ob, partners)
    yield from _over_and_under(ob)
    yield from said_lines(ob, OB)


def _following(ob: Obligations) -> Line:
    if ob.trump_while_following:
        return ("Follow suit if you can, or play a trump instead: a trump may always be played. Unable to follow, "
                "play any card unless a duty below says otherwise."), (_p("trump_while_following"),)
    return "Follow suit if you can; otherwise play any card unless a duty below says otherwise.", (
        _p("trump_while_following"),)


def _trumping(ob: Obligations, partners: bool) -> Iterator[Line]:
    """The duty on a trump lead, and the duty to trump when void."""
    head = {"any_trump": "any trump",
            "head_trick": "a trump that beats every trump already in the trick if you can" + (
                ", even over your partner" if partners else "") + "; otherwise any trump",
            "head_trick_unless_partner_winning": "a trump that beats every trump already in the trick if you can, "
            "unless your partner holds the trick; otherwise any trump"}[ob.trump_led]
    yield f"When a trump is led and you hold one, play {head}.", (_p("trump_led"),)
    void = {"free": "may play any card, a trump or not",
            "must_trump": "must play a trump if you hold one" + (", even when your partner holds the trick"
                                                                  if partners else ""),
            "must_trump_unless_partner_winning": "must play a trump if you hold one, unless your partner holds "
            "the trick (then any card)"}[ob.void]
    yield f"When a plain suit is led and you cannot follow, you {void}.", (_p("void"),)


def _over_and_under(ob: Obligations) -> Iterator[Line]:
    """Overtrumping, and what a player bound to trump does when he cannot; the undertrump ban."""
    if ob.overtrump == "required":
        unable = {"allowed": "you may play any card",
                  "forced": "you must still play a lower trump",
                  "forbidden_unless_only_trumps": "you play another suit, and a lower trump only when you hold "
                  "nothing but trumps",
                  "forbidden_unless_nothing_else": "you play another suit, and a lower trump only when you hold "
                  "nothing but trumps"}[ob.undertrump]
        yield (f"If you must trump and the trick already holds a trump, play a higher trump if you can; if you "
               f"cannot, {unable}."), (_p("overtrump"), _p("undertrump"))
    if ob.undertrump in ("forbidden_unless_only_trumps", "forbidden_unless_nothing_else"):
        follow = (", and never while he can follow suit" if ob.trump_while_following else "")
        unless = ("he holds nothing but trumps" if ob.undertrump == "forbidden_unless_only_trumps"
                  else "every card he holds is such a lower trump")
        yield (f"No undertrumping: to a plain suit led, nobody plays a trump lower than one already in the trick "
               f"unless {unless}{follow}."), (_p("undertrump"),)
    elif ob.overtrump == "free" and ob.void != "free":
        yield "A trump played when you must trump need not beat the trumps already in the trick.", (
            _p("overtrump"),)
