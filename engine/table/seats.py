"""Who sits where, as a player says it: "partner", "right", "left", "opposite" - for the terminal and the web.

Seats are numbered in playing order. With play going counter-clockwise (the family's usual way, and the rule
file's `table.direction` default) the player after you sits on your right; clockwise, on your left. Partners are
the seat's team for this hand (a lone bidder's opponents are partners for the hand)."""

from __future__ import annotations

from collections.abc import Sequence

CLOCKWISE = "clockwise"


def relation(me: int, seat: int, players: int, teams: Sequence[Sequence[int]], direction: str = "") -> str:
    """'you', or the other seat's place at the table from `me`'s chair: 'partner', 'right', 'left', 'opposite',
    combined where two apply ('partner, right'); '' for a seat with none of these (six at a table); the other of
    two players sits 'opposite'."""
    if seat == me:
        return "you"
    if not 0 <= me < players:
        return ""   # a spectator has no chair
    partner = any(me in t and seat in t for t in teams)
    place = _place((seat - me) % players, players, direction, partner)
    return ", ".join([w for w in ("partner" if partner else "", place) if w])


def _place(offset: int, players: int, direction: str, partner: bool) -> str:
    """Where the seat `offset` places on sits: right, left or opposite ('' for none; a partner across the table
    is just the partner)."""
    after, before = ("left", "right") if direction == CLOCKWISE else ("right", "left")
    if players == 2:
        return "opposite"      # two at a table sit face to face: neither right nor left
    if offset == 1:
        return after
    if offset == players - 1:
        return before
    if 2 * offset == players and not partner:
        return "opposite"
    return ""


def seat_label(me: int, seat: int, players: int, teams: Sequence[Sequence[int]], direction: str = "",
               names: Sequence[str] = ()) -> str:
    """'you', or 'seat 2 (partner)' - a person's name in place of 'seat 2' where one is given."""
    if seat == me:
        return "you"
    what = relation(me, seat, players, teams, direction)
    base = names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"
    return f"{base} ({what})" if what else base


def table_direction(game: object) -> str:
    """The rule file's `table.direction` (display only, so not among the compiled rules): read from the rule file
    the game was loaded from; '' (the default way) when it cannot be read again."""
    from engine.errors import JacknineError
    from engine.rules.load import load_ruleset

    ref = getattr(game, "ref", None)
    if not ref:
        return ""
    try:
        return str(load_ruleset(ref).table.direction)
    except (JacknineError, OSError):
        return ""
