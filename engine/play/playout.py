"""Playing a hand out at random on card ids: what simulation and search use to finish hands quickly.

`random_playout` chooses uniformly among the legal actions exactly as a player choosing from `legal_actions()`
would (a double pack's two copies of a card are one choice), but in the play phase it works on the bitmask of
playable cards and never builds the list of card actions.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.play.base import PLAY
from engine.play.state import State
from engine.play.tricks import play_card, play_mask


def random_playout(state: State, rand: Callable[[], float]) -> None:
    """Finish the hand with uniformly random legal actions drawn with `rand` (a float in [0, 1))."""
    g = state.game
    first_copies = g.first_copy_mask
    double = g.layout.copies > 1
    while state.to_act >= 0:
        if state.phase != PLAY:
            legal = state.legal_actions()
            state.apply(legal[int(rand() * len(legal))])
            continue
        mask = play_mask(state)
        extras = state._extras
        others = len(extras)
        choices = ((mask | mask >> 1) & first_copies) if double else mask
        k = int(rand() * (choices.bit_count() + others))
        if k < others:
            state.apply(extras[k])
            continue
        k -= others
        while k:
            choices &= choices - 1
            k -= 1
        card = (choices & -choices).bit_length() - 1
        if not mask >> card & 1:  # only the second copy of this card is playable
            card += 1
        play_card(state, state.to_act, card)
