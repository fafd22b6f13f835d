"""What the table says of the melds of the European games (rule-file sections `combinations` and
`trump_marriage`): the melds announced in trick 1 by kind and value, their cards once shown, which side's melds
score, the trump marriage announced, and the meld and marriage points of each side. One wording for the terminal
and the web page, built from the seat's `View` only (never a meld's cards before they are shown)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.play.view import AnnouncedMeld, View, hand_order

Namer = Callable[[int], str]

_KINDS = {"sequence": "sequence of {n}", "four_of_a_kind": "four of a kind"}


def meld_words(m: AnnouncedMeld) -> str:
    """`sequence of 4 (50)`: a meld as announced (kind and value)."""
    return f"{_KINDS.get(m.kind, m.kind).format(n=m.length)} ({m.value})"


def announced_words(view: View, seat: int) -> str:
    """What `seat` announced, in words ('sequence of 3 (20), four of a kind (100)')."""
    return ", ".join(meld_words(m) for m in view.announced if m.seat == seat) or "nothing"


def natural_order(view: View, mask: int) -> list[int]:
    """A meld's card ids as a player reads it: by suit, then in the natural order (a run reads J T 9 8)."""
    g = view.game
    cr = g.rules.combinations
    ids = hand_order(g, mask)
    if cr is None:
        return ids
    return sorted(ids, key=lambda c: (g.suit_of[c], cr.natural[g.rank_of[c]]))


def meld_lines(view: View, who: Namer, team_name: Callable[[Sequence[int]], str]) -> list[str]:
    """The table's lines about melds; none for a file without them."""
    g = view.game
    out = [_announced_line(view, m, who) for m in view.announced]
    marriage = g.rules.marriage
    name = marriage.name if marriage is not None else "marriage"
    value = marriage.value if marriage is not None else 0
    out.extend(f"{who(seat)}: {name} ({value})" for seat in view.marriages)
    if view.meld_points and (any(view.meld_points) or any(view.marriage_points)):
        out.append(" · ".join(_side_melds(view, i, team_name(t), name) for i, t in enumerate(view.teams)))
    return out


def _announced_line(view: View, m: AnnouncedMeld, who: Namer) -> str:
    """An announced meld: its kind and value, and once shown its cards and whether it scores."""
    line = f"{who(m.seat)} announced {meld_words(m)}"
    if m.cards:
        line += ": " + " ".join(view.game.codes[c] for c in natural_order(view, m.cards))
        line += " - scores" if m.scores else " - does not score"
    return line


def _side_melds(view: View, i: int, team: str, marriage_name: str) -> str:
    """One side's meld points, and its marriage points where it has some."""
    part = f"{team} melds {view.meld_points[i]}"
    if view.marriage_points and view.marriage_points[i]:
        part += f" + {marriage_name} {view.marriage_points[i]}"
    return part
