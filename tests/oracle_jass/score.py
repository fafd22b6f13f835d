"""The banked score of one deal, game by game (the Jass group's contract and score sections)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Deal:
    """What a deal came to, per team (index 0: seats 0 and 2, or seat 0 in a two-player game)."""

    cards: list[int]          # card points, the last trick's bonus included (before any capot replacement)
    tricks: list[int]         # tricks won
    melds: list[int]          # declared melds that scored, or roem counted in the tricks
    marriage: list[int]       # the trump marriage held in one hand
    taker: int | None         # the team whose choice or bid is played (None: no contract)
    bid: int = 0
    multiplier: int = 1       # coinche x2 / surcoinche x4, or the Swiss mode's multiplier
    doubled: bool = False     # coinche: a coinche was said


def _capot(d: Deal, total_tricks: int) -> int | None:
    for t in (0, 1):
        if d.tricks[t] == total_tricks:
            return t
    return None


def nearest_ten(points: int) -> int:
    """Rounded to tens: units 0-4 down, 5-9 up."""
    return (points + 5) // 10 * 10


def rounded(scorer: Callable[[Deal], list[int]]) -> Callable[[Deal], list[int]]:
    """The `-rounding` overlays: each side's score of the deal to the nearest ten, after the contract test."""
    return lambda d: [nearest_ten(p) for p in scorer(d)]


def belote(d: Deal, all_cards: int = 162, capot_points: int = 250, tricks: int = 8, litige: bool = False) -> list[int]:
    cards = list(d.cards)
    cap = _capot(d, tricks)
    if cap is not None:
        cards[cap], cards[1 - cap] = capot_points, 0
    total = [cards[t] + d.melds[t] + d.marriage[t] for t in (0, 1)]
    t = d.taker
    assert t is not None
    if total[t] > total[1 - t]:
        return total
    out = [0, 0]
    if litige and total[t] == total[1 - t] and cap is None:   # held over: the defenders score theirs now
        out[1 - t] = total[1 - t]
        return out
    out[t] = d.marriage[t]
    fixed = capot_points if cap == 1 - t else all_cards
    out[1 - t] = fixed + d.melds[0] + d.melds[1] + d.marriage[1 - t]
    return out


def coinche(d: Deal, tricks: int = 8) -> list[int]:
    cards = list(d.cards)
    cap = _capot(d, tricks)
    if cap is not None:
        cards[cap], cards[1 - cap] = 250, 0
    total = [cards[t] + d.melds[t] + d.marriage[t] for t in (0, 1)]
    t = d.taker
    assert t is not None
    if d.bid == 250:
        made = cap == t
    else:
        made = total[t] >= d.bid and total[t] > total[1 - t]
    out = [0, 0]
    if d.doubled:
        win = t if made else 1 - t
        out[win] = (160 + d.bid) * d.multiplier + d.marriage[win]
        out[1 - win] = d.marriage[1 - win]
        return out
    if made:
        out[t] = d.bid + total[t]
        out[1 - t] = total[1 - t]
    else:
        out[t] = d.marriage[t]
        out[1 - t] = 160 + d.bid + d.melds[1 - t] + d.marriage[1 - t]
    return out


def klaverjas(d: Deal, tricks: int = 8) -> list[int]:
    roem = list(d.melds)
    cap = _capot(d, tricks)
    if cap is not None:
        roem[cap] += 100
    total = [d.cards[t] + roem[t] + d.marriage[t] for t in (0, 1)]
    t = d.taker
    assert t is not None
    if total[t] > total[1 - t]:
        return total
    out = [0, 0]
    out[t] = d.marriage[t]        # a stuk held in one hand (the in-hand overlay) is never lost
    out[1 - t] = 162 + roem[0] + roem[1] + d.marriage[1 - t]
    return out


def schieber(d: Deal, tricks: int = 9) -> list[int]:
    cap = _capot(d, tricks)
    out = []
    for t in (0, 1):
        own = d.cards[t] + d.melds[t] + d.marriage[t] + (100 if cap == t else 0)
        out.append(own * d.multiplier)
    return out


def klaberjass(d: Deal) -> list[int]:
    total = [d.cards[t] + d.melds[t] + d.marriage[t] for t in (0, 1)]
    t = d.taker
    assert t is not None
    out = [0, 0]
    if total[t] > total[1 - t]:
        return total
    if total[t] < total[1 - t]:
        out[1 - t] = total[0] + total[1]
    else:
        out[1 - t] = total[1 - t]
    return out
