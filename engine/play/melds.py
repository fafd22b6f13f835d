"""Melds in any suit (special.melds), shown by the engine itself at the holder's turn to play.

At each turn to play, every meld the seat holds is shown once its conditions hold (his side has won a trick, the
trump is known to all): both cards still in his hand, each suit once per hand, never in a special contract. A
meld of the bidding side lowers the target by its value, one of the opponents raises it, within the bounds."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.play.base import StateData


def show_melds(st: StateData, p: int) -> None:
    g = st.game
    md = g.rules.melds
    if md is None or st.special is not None or p < 0 or st.trump < 0:
        return
    if md.needs_trump_exposed and st.concealed:
        return
    team = st.hand_team_of[p]
    if md.needs_won_trick and not any(st.hand_team_of[t.winner] == team for t in st.tricks):
        return
    h = st.hands[p]
    for su in range(g.nsuits):
        if st.meld_suits >> su & 1:
            continue
        cards = 0
        for r in md.ranks:
            have = h & g.suit_masks[su] & g.rank_masks[r]
            if not have:
                cards = -1
                break
            cards |= have & -have
        if cards <= 0:
            continue
        value = md.trump_value if su == st.trump else md.plain_value
        change = -value if team == st.hand_team_of[st.bidder] else value
        st.target = min(md.target_hi, max(md.target_lo, st.target + change))
        st.meld_suits |= 1 << su
        st.shown[p] |= cards
        st.melded[p] |= cards
