"""`show`'s sentences for the melds of the European games (sections `combinations` and `trump_marriage`), in
the form of engine/rules/explain.py, which lists them as the section "Melds"."""

from __future__ import annotations

from collections.abc import Iterator

from engine.rules.explain_fields import said_lines
from engine.rules.model import Combinations, Ruleset, TrumpMarriage
from engine.rules.yamlpos import KeyPath

Line = tuple[str, tuple[KeyPath, ...]]
_KEYS = {"value": "the higher value", "cards": "more cards", "top": "the higher top card",
         "trump": "a sequence in trumps over a plain one", "earlier": "the player earlier in playing order from "
         "the first hand"}
_PLURAL = {"J": "Jacks", "9": "Nines", "A": "Aces", "T": "Tens", "K": "Kings", "Q": "Queens", "8": "Eights",
           "7": "Sevens", "6": "Sixes", "5": "Fives", "4": "Fours", "3": "Threes", "2": "Twos"}
_NAMES = {"J": "Jack", "9": "Nine", "A": "Ace", "T": "Ten", "K": "King", "Q": "Queen", "8": "Eight", "7": "Seven",
          "6": "Six", "5": "Five", "4": "Four", "3": "Three", "2": "Two"}


def _values(c: Combinations) -> str:
    parts: list[str] = []
    lengths = sorted(c.sequences)
    for i, n in enumerate(lengths):
        more = " or more" if i == len(lengths) - 1 else ""
        parts.append(f"{n}{more} in a row {c.sequences[n]}")
    seq = ("sequences of one suit in the order " + " ".join(c.order) + " (" + ", ".join(parts) + ")") if parts \
        else ""
    by_value: dict[int, list[str]] = {}
    for r, v in c.four_of_a_kind.items():
        if v:
            by_value.setdefault(v, []).append(_PLURAL[r])
    quads = "; ".join(f"four {' / '.join(rs)} {v}" for v, rs in sorted(by_value.items(), reverse=True))
    return "; ".join(p for p in (seq, quads) if p)


def _combinations(c: Combinations) -> Iterator[Line]:
    here = (("combinations",),)
    if c.counted == "in_trick":
        yield (f"Melds in tricks: {_values(c)}. The cards of each completed trick are counted, and what they hold "
               "goes to the side that wins the trick (a longer run counts instead of the shorter)."), here
        return
    yield (f"Melds: {_values(c)}. A card counts in one meld only. At his turn in trick 1, before his card, a "
           "player may announce his melds (`announce`): the engine takes his best arrangement and tells everyone "
           "each meld's kind and value; the cards are shown to all once trick 1 is complete. Unannounced melds "
           "count nothing."), here
    keys = ", then ".join(_KEYS[k] for k in c.ranking) or "nothing"
    if c.compared == "best_side_scores_all":
        tie = ("no side scores melds" if c.ties == "nobody_scores" else
               "the player earlier in playing order from the first hand wins")
        yield (f"Only the side holding the single best meld scores, and then all its announced melds. Best: "
               f"{keys}; two equal best melds in opposite sides: {tie}."), (
            ("combinations", "compared"), ("combinations", "ranking"), ("combinations", "ties"))
    else:
        yield "Each side scores its own announced melds (no comparison).", (("combinations", "compared"),)


def _marriage(t: TrumpMarriage) -> Iterator[Line]:
    cards = " and ".join(_NAMES[r] for r in t.ranks)
    if t.counted == "in_hand":
        how = (f"held together by one player: his side scores {t.value} when he plays the last of them, and the "
               f"engine announces it then ({t.name})")
    else:
        how = f"all in one trick: the side winning that trick scores {t.value} ({t.name})"
    modes = ("also in the all-trumps mode (every suit's)" if t.in_modes else
             "not in the all-trumps or no-trumps modes")
    yield (f"Trump marriage: the {cards} of trumps {how}; {modes}."), (
        ("trump_marriage",),)


def combination_lines(rs: Ruleset) -> Iterator[Line]:
    if rs.combinations is not None:
        yield from _combinations(rs.combinations)
        yield from said_lines(rs.combinations, ("combinations",))
    if rs.trump_marriage is not None:
        yield from _marriage(rs.trump_marriage)
        yield from said_lines(rs.trump_marriage, ("trump_marriage",))
