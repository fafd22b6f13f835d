"""Checks across fields for the trump suit's own order and points (deck.trump_ranks, deck.trump_points), the
named trump modes (trump.modes) and the multipliers by trump (trump.suit_multipliers). The same form as
engine/rules/checks.py, which runs these after its own."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.cards import canonical_card, canonical_suit
from engine.rules.messages import Finding
from engine.rules.model import Ruleset

Check = Callable[[Ruleset], Iterator[Finding]]

TRUMP_RANKS, TRUMP_POINTS = ("deck", "trump_ranks"), ("deck", "trump_points")
MODES = ("trump", "modes")
CHOSEN, DECLARED, CONCEALED = ("trump", "chosen"), ("trump", "declared_as"), ("trump", "concealed")
# words a trump speech or a bid already reads otherwise: a mode may not be named so
RESERVED = ("nt", "seventh", "last", "change", "spade", "spades", "heart", "hearts", "diamond", "diamonds", "club",
            "clubs")


def trump_tables_fit(rs: Ruleset) -> Iterator[Finding]:
    """Tied ranks and a trump suit ordered apart are not combined. (The trump suit's order being the deck's ranks
    and its points naming ranks of the deck: the model's types say it, engine/rules/checks_ranks.py checks it.)"""
    d = rs.deck
    if d.rank_ties and (d.trump_ranks is not None or rs.trump.modes):
        yield Finding(("deck", "rank_ties"), "tied ranks are not supported together with the trump suit's own "
                      "order (deck.trump_ranks) or trump modes (trump.modes)", depends=(TRUMP_RANKS, MODES))


def trump_roles_need_open_trump(rs: Ruleset) -> Iterator[Finding]:
    """A concealed trump suit that ranked or counted apart would show itself in the tricks."""
    t = rs.trump
    if t.chosen != "after_auction" or not t.concealed:
        return
    for path, value in ((TRUMP_RANKS, rs.deck.trump_ranks), (TRUMP_POINTS, rs.deck.trump_points)):
        if value is not None:
            yield Finding(path, "the trump suit ranks or counts apart only where the trump is public: here it is "
                          "concealed (trump.concealed), and its cards would show it", depends=(CONCEALED, CHOSEN),
                          hint="; set trump.concealed: false, or remove this", fix="also set trump.concealed: false")
    if t.modes:
        yield Finding(MODES, "a trump mode is named in public: here the trump is concealed (trump.concealed)",
                      depends=(CONCEALED, CHOSEN), hint="; set trump.concealed: false",
                      fix="also set trump.concealed: false")


def modes_fit(rs: Ruleset) -> Iterator[Finding]:
    """Mode names are unique and read as nothing else; a mode is named where a suit is named."""
    t = rs.trump
    for i, md in enumerate(t.modes):
        path = (*MODES, i, "name")
        if any(m.name == md.name for m in t.modes[:i]):
            yield Finding(path, f"the mode {md.name} is named twice")
        elif md.name in RESERVED or canonical_suit(md.name) is not None or canonical_card(md.name) is not None:
            yield Finding(path, f"{md.name} already means something in a trump choice or a bid (a suit, a card, "
                          "NT, seventh, last or change)", hint="; give the mode another name")
    if t.modes and t.chosen == "after_auction" and t.declared_as == "card":
        yield Finding(MODES, "a mode is named like a suit, and here the trump is laid as a card "
                      "(trump.declared_as: card)", depends=(CHOSEN, DECLARED),
                      hint="; set trump.declared_as: suit", fix="also set trump.declared_as: suit")


def suit_multipliers_fit(rs: Ruleset) -> Iterator[Finding]:
    for su in rs.trump.suit_multipliers:
        if su not in rs.deck.suits:
            yield Finding(("trump", "suit_multipliers", su), f"suit {su} is not in the deck "
                          f"(deck.suits is {' '.join(rs.deck.suits)})", "key", depends=(("deck", "suits"),))


TRUMP_MODE_CHECKS: tuple[Check, ...] = (trump_tables_fit, trump_roles_need_open_trump, modes_fit, suit_multipliers_fit)
