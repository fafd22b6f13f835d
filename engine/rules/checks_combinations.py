"""Checks across fields for the melds of the European games (sections `combinations` and `trump_marriage`): the
runs fit a suit, the ranking names each key once, and nothing gives a concealed trump away (the natural order
being the deck's ranks once each, and every rank named being of the deck, is engine/rules/checks_ranks.py's).
The same form as engine/rules/checks.py, which runs these after its own."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.rules.messages import Finding
from engine.rules.model import Ruleset

Check = Callable[[Ruleset], Iterator[Finding]]

COMBOS = ("combinations",)
MARRIAGE = ("trump_marriage",)
RANKS = ("deck", "ranks")
COPIES = ("deck", "copies")
CONCEALED = ("trump", "concealed")
OLD_MELDS = ("special", "melds")


def runs_fit_a_suit(rs: Ruleset) -> Iterator[Finding]:
    c = rs.combinations
    if c is None:
        return
    size = len(rs.deck.ranks)
    for n in c.sequences:
        if n > size:
            yield Finding((*COMBOS, "sequences", n), f"a run of {n} cannot be held: a suit has {size} ranks",
                          "key", depends=(RANKS,), hint=f"; use lengths from 2 to {size}")
    if len(rs.deck.suits) * rs.deck.copies < 4 and any(c.four_of_a_kind.values()):
        yield Finding((*COMBOS, "four_of_a_kind"), "four of a kind needs four cards of a rank: the deck has "
                      f"{len(rs.deck.suits) * rs.deck.copies}", depends=(("deck", "suits"), COPIES))
    if not c.sequences and not any(c.four_of_a_kind.values()):
        yield Finding(COMBOS, "no meld is worth anything: give sequences or four_of_a_kind values",
                      hint="; or remove the section")


def ranking_keys_unique(rs: Ruleset) -> Iterator[Finding]:
    c = rs.combinations
    if c is None:
        return
    for i, k in enumerate(c.ranking):
        if k in c.ranking[:i]:
            yield Finding((*COMBOS, "ranking", i), f"{k} is listed twice", hint="; name each key once")
    if rs.special.melds is not None:
        yield Finding(COMBOS, "special.melds and combinations both count melds: a file has one or the other",
                      "key", depends=(OLD_MELDS,))
    if rs.trump.concealed and c.counted == "declared" and "trump" in c.ranking:
        yield Finding((*COMBOS, "ranking"), "comparing melds by trumps would give the concealed trump away",
                      depends=(CONCEALED,), hint="; remove trump from the ranking, or set trump.concealed: false")


def marriage_fits(rs: Ruleset) -> Iterator[Finding]:
    t = rs.trump_marriage
    if t is None:
        return
    if rs.trump.concealed:
        yield Finding(MARRIAGE, "crediting the trump marriage would give the concealed trump away", "key",
                      depends=(CONCEALED,), hint="; set trump.concealed: false, or remove trump_marriage")


COMBINATION_CHECKS: tuple[Check, ...] = (runs_fit_a_suit, ranking_keys_unique, marriage_fits)
