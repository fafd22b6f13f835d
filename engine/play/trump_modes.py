"""Trump modes (rules.trump.modes): a hand played with no trump suit or with every suit as trumps, each mode
with its own order and card points in every suit and a multiplier of the hand's score; and the trump suit's own
order and points (deck.trump_ranks, deck.trump_points) and multiplier (trump.suit_multipliers).

The tables are built once by `Game` (suit_strength, suit_points, mode_strength, mode_points); fixing the trump
switches the state's `strength`, `points_of`, `trump_multiplier`, `trump_mode` and `all_trumps` to them."""

from __future__ import annotations

from engine.play.base import StateData
from engine.play.tables import NO_TRUMP


def set_mode(st: StateData, mode: int) -> None:
    """Play the hand in the named trump mode `mode` (index of rules.trump.modes): no trump suit, and the mode's
    order and points in every suit (all trumps: every suit plays as the trump, so nobody can trump)."""
    g = st.game
    st._set_trump(NO_TRUMP)
    md = g.rules.trump.modes[mode]
    st.trump_mode = mode
    st.all_trumps = md.all_trumps
    st.strength = g.mode_strength[mode]
    st.points_of = g.mode_points[mode]
    st.trump_multiplier = md.multiplier


def set_named_trump(st: StateData, arg: str) -> None:
    """Fix the trump a speech names (`trump ARG`, a bid's suit): a suit letter, NT, or a named mode."""
    g = st.game
    if arg == "NT":
        st._set_trump(NO_TRUMP)
        return
    mode = g.mode_index(arg)
    if mode >= 0:
        set_mode(st, mode)
    else:
        st._set_trump(g.layout.parse_suit(arg))


def mode_name(st: StateData) -> str | None:
    """The name of the trump mode the hand is played in (None: a suit, no-trumps, or not chosen yet)."""
    return st.game.mode_names[st.trump_mode] if st.trump_mode >= 0 else None
