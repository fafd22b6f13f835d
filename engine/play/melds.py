"""Melds in any suit (special.melds): right after the side that won one of the listed tricks, its players - the
trick's winner first, then his partners in playing order - may show the melds they hold before the next lead,
several each, every kind of meld once per suit a hand. A meld's value depends on whether its suit is trumps and
on a further card of the suit held with it; scoring.target_adjustments: melds makes it move the counting side's
target (its own melds down, the other side's up, within the bounds)."""

from __future__ import annotations

from typing import Final

from engine.play.actions import Action, meld_terms
from engine.play.base import MELDS, PLAY, StateData
from engine.play.rules import MeldKindRules, MeldRules
from engine.play.scoring import counting_team

SUIT_SLOT: Final = 16    # melds_shown packs kind * KIND_SLOT + suit * SUIT_SLOT + seat
KIND_SLOT: Final = 64 * SUIT_SLOT


def melds_allowed(state: StateData) -> bool:
    """Whether melds may be shown in this hand at all (not in a contract that switches them off)."""
    sp = state.special
    return state.game.rules.melds is not None and (sp is None or not sp.no_melds)


def open_meld_window(state: StateData, winner: int) -> bool:
    """After a trick: open the window if the rules give one after this trick (True: opened)."""
    md = state.game.rules.melds
    if md is None or not melds_allowed(state) or len(state.tricks) not in md.after_tricks:
        return False
    team = state.hand_team_of[winner]
    state.queue = [s for s in state._seats_from(winner) if state.hand_team_of[s] == team
                   and not state.sitting_out >> s & 1]
    state.phase = MELDS
    state.to_act = winner
    return True


def _shown(state: StateData, kind: int, suit: int) -> bool:
    for m in state.melds_shown:
        if m // KIND_SLOT == kind and m // SUIT_SLOT % 64 == suit:
            return True
    return False


def _holds(state: StateData, seat: int, k: MeldKindRules, suit: int) -> bool:
    g = state.game
    cards = state.hands[seat] & g.suit_masks[suit]
    for r in k.ranks:
        if not cards & g.rank_masks[r]:
            return False
    return True


def meld_value(state: StateData, seat: int, kind: int, suit: int) -> int:
    """What the meld is worth now: by trump or plain suit, more with the extra card also held."""
    g = state.game
    md = g.rules.melds
    assert md is not None
    k = md.kinds[kind]
    trump = suit == state.trump
    if k.extra_rank >= 0 and state.hands[seat] & g.suit_masks[suit] & g.rank_masks[k.extra_rank]:
        return k.extra_trump if trump else k.extra_plain
    return k.trump if trump else k.plain


def meld_legal(state: StateData) -> list[Action]:
    g = state.game
    md = g.rules.melds
    p = state.to_act
    out = [g.action(p, "pass")]
    if md is None:
        return out
    for i, k in enumerate(md.kinds):
        for suit in range(g.nsuits):
            if not _shown(state, i, suit) and _holds(state, p, k, suit):
                out.append(g.action(p, "show", f"{k.name} {g.layout.suits[suit]}"))
    return out


def meld_apply(state: StateData, a: Action) -> None:
    g = state.game
    if a.verb == "pass":
        state.queue.pop(0)
        if state.queue:
            state.to_act = state.queue[0]
        else:
            state.phase = PLAY
            state.to_act = state.leader
        return
    md = g.rules.melds
    assert md is not None
    name, letter = meld_terms(a.arg)
    kind = next(i for i, k in enumerate(md.kinds) if k.name == name)
    suit = g.layout.parse_suit(letter)
    p = a.seat
    value = meld_value(state, p, kind, suit)
    state.melds_shown.append(kind * KIND_SLOT + suit * SUIT_SLOT + p)
    team = state.hand_team_of[p]
    state.meld_points[team] += value
    if g.rules.scoring.target_moved_by_melds and state.bidder >= 0:
        _move_target(state, -value if team == counting_team(state) else value)


def _move_target(state: StateData, by: int) -> None:
    """The melds move the target by their sum, and the bounds apply once to the result (so the order in which
    they are shown never matters): the bid's target moved by every meld so far, then bounded."""
    md = state.game.rules.melds
    assert md is not None
    state.meld_shift += by
    state.target = min(md.target_hi, max(md.target_lo, state.meld_base + state.meld_shift))


def side_showed_meld(state: StateData, seat: int) -> bool:
    team = state.hand_team_of[seat]
    for m in state.melds_shown:
        if state.hand_team_of[m % SUIT_SLOT] == team:
            return True
    return False


def show_melds(state: StateData, p: int) -> None:
    """special.melds with compulsory: at `p`'s turn to play the engine shows every meld he holds once its
    conditions hold (his side has won a trick, the trump is known to all), both cards still in his hand; each
    kind once per suit a hand; none in a contract that switches melds off."""
    g = state.game
    md = g.rules.melds
    if md is None or not _compulsory_now(state, md, p):
        return
    for kind, k in enumerate(md.kinds):
        for suit in range(g.nsuits):
            if not _shown(state, kind, suit) and _holds(state, p, k, suit):
                _show_meld(state, p, kind, k, suit)


def _compulsory_now(state: StateData, md: MeldRules, p: int) -> bool:
    """Compulsory melds are shown at `p`'s turn: melds allowed, a trump known to all, no special contract, and
    his side has won a trick where the file says so."""
    if not md.compulsory or not melds_allowed(state) or p < 0 or state.trump < 0 or state.special is not None:
        return False
    if md.needs_trump_exposed and state.concealed:
        return False
    team = state.hand_team_of[p]
    return not md.needs_won_trick or any(state.hand_team_of[t.winner] == team for t in state.tricks)


def _show_meld(state: StateData, p: int, kind: int, k: MeldKindRules, suit: int) -> None:
    """`p` shows meld `k` of `suit`: its value to his side (moving the target where the file says so), one copy
    of each of its cards shown."""
    g = state.game
    team = state.hand_team_of[p]
    value = meld_value(state, p, kind, suit)
    state.melds_shown.append(kind * KIND_SLOT + suit * SUIT_SLOT + p)
    state.meld_points[team] += value
    if g.rules.scoring.target_moved_by_melds and state.bidder >= 0:
        _move_target(state, -value if team == counting_team(state) else value)
    cards = 0
    for r in k.ranks:
        have = state.hands[p] & g.suit_masks[suit] & g.rank_masks[r]
        cards |= have & -have
    state.meld_suits |= 1 << suit
    state.shown[p] |= cards
    state.melded[p] |= cards
