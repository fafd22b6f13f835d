"""The sure sweep: cards certain to win every trick at no-trumps with their holder leading, whatever the others
hold and play. A static test on one holding (no search), used to bar a declaration or to allow a hand to be shown
instead of played (special.contracts[].sure_sweep)."""

from __future__ import annotations

from engine.play.tables import NO_TRUMP, GameTables


def is_sure_sweep(game: GameTables, holding: int) -> bool:
    """Every card held either outranks every card of its suit the holder lacks, or has above it in that suit at
    least as many of his own cards as he lacks cards of that suit: led from the top, his higher cards draw all the
    others first, even if one opponent holds them all. A whole suit always passes."""
    strength = game.strength_for(NO_TRUMP)
    for s in range(game.nsuits):
        suit = game.suit_masks[s]
        mine = holding & suit
        if not mine:
            continue
        lack = suit & ~holding
        lacking = lack.bit_count()
        best_lacked = -1
        m = lack
        while m:
            low = m & -m
            st = strength[low.bit_length() - 1]
            if st > best_lacked:
                best_lacked = st
            m ^= low
        m = mine
        while m:
            low = m & -m
            card = low.bit_length() - 1
            m ^= low
            st = strength[card]
            if st > best_lacked:
                continue
            above = 0
            o = mine
            while o:
                lo2 = o & -o
                if strength[lo2.bit_length() - 1] > st:
                    above += 1
                o ^= lo2
            if above < lacking:
                return False
    return True
