"""Melds of the European games (rule-file sections `combinations` and `trump_marriage`): functions over the state.

combinations, counted declared: at his turn in trick 1, before his card, a player may `announce`; the engine then
takes the best arrangement of the melds his hand holds (runs of one suit in the natural order, four cards of one
rank; one card in one meld). What each meld is (its kind and value) is public at once, its cards only once trick 1
is complete: then every announced meld is shown and compared, and the side holding the single best meld scores
all its melds (or each side its own). counted in_trick: each completed trick's cards are counted for the side that
wins it (a run of the trick's cards, four of a kind).

trump_marriage: the King and Queen of trumps (the ranks listed), counted for the side of the player who held them
both, as he plays the last of them (in_hand), or for the side that wins a trick holding them all (in_trick).
Both write the shared per-team fields `meld_points` and `marriage_points`; what they are worth in the score is the
scoring's business.
"""

from __future__ import annotations

from typing import Any, Final

from engine.play.base import Combo, StateData
from engine.play.rules import (
    COMBOS_DECLARED,
    KEY_CARDS,
    KEY_EARLIER,
    KEY_TOP,
    KEY_TRUMP,
    KEY_VALUE,
    CombinationRules,
)
from engine.play.tables import GameTables

SEQUENCE: Final = 0
FOUR_OF_A_KIND: Final = 1
KIND_NAMES: Final = ("sequence", "four_of_a_kind")
NOT_COMPARED: Final = -2   # state.combo_winner before trick 1 is complete
NOBODY: Final = -1         # equal best melds in opposite sides: no side scores
EVERY_SIDE: Final = -3     # compared: each_side_own
MARRIAGE_SLOT: Final = 16  # state.marriages packs seat * MARRIAGE_SLOT + suit


# --- declared melds --------------------------------------------------------------------------------------------
def announcing(state: StateData) -> bool:
    """Whether the rules let players announce melds in trick 1 of this hand."""
    c = state.game.rules.combinations
    return c is not None and c.counted == COMBOS_DECLARED


def may_announce(state: StateData, p: int) -> bool:
    """`p` may announce now: trick 1, before his card, not yet announced, holding at least one meld."""
    return (not state.tricks and not state.announced >> p & 1 and p not in state.trick_seats
            and holds_meld(state, state.hands[p]))


def holds_meld(state: StateData, cards: int) -> bool:
    """Whether `cards` hold any meld that counts (bit arithmetic only: the arrangement is worked out on
    announcing)."""
    g = state.game
    cr = g.rules.combinations
    assert cr is not None
    positions = g.quad_positions
    if positions >= 0:     # four suits, one copy: a rank held in every suit (Game's table)
        b = g.block
        if cards & (cards >> b) & (cards >> (2 * b)) & (cards >> (3 * b)) & positions:
            return True
    else:
        quads = cr.quads
        for r in range(len(quads)):
            if quads[r]:
                m = cards & g.rank_masks[r]     # at least four bits: three cleared leave one (no bit_count, a
                m &= m - 1                      # method call when compiled)
                m &= m - 1
                if m & (m - 1):
                    return True
    if cr.shortest > len(cr.natural):
        return False
    table = g.run_holdings
    if table:   # one lookup per suit (GameTables's table of the holdings with a run)
        block = g.block
        whole = (1 << block) - 1
        for suit in range(g.nsuits):
            if table[cards >> (suit * block) & whole]:
                return True
        return False
    for suit in range(g.nsuits):
        held = cards & g.suit_masks[suit]
        if held.bit_count() < cr.shortest:
            continue
        places = 0
        while held:
            low = held & -held
            places |= 1 << cr.natural[g.rank_of[low.bit_length() - 1]]
            held ^= low
        run = places
        for _ in range(cr.shortest - 1):
            run &= run >> 1
        if run:
            return True
    return False


def _runs(cr: CombinationRules, places: int) -> list[tuple[int, int]]:
    """(top place, length) of each run of consecutive natural-order places in `places` that counts."""
    out: list[tuple[int, int]] = []
    while places:
        top = (places & -places).bit_length() - 1
        length = 0
        while places >> (top + length) & 1:
            length += 1
        places &= ~(((1 << length) - 1) << top)
        if length >= cr.shortest:
            out.append((top, length))
    return out


def _sequences(g: GameTables, seat: int, cards: int) -> list[Combo]:
    cr = g.rules.combinations
    assert cr is not None
    out: list[Combo] = []
    table = g.run_holdings
    whole = (1 << g.block) - 1
    for suit in range(g.nsuits):
        if table and not table[cards >> (suit * g.block) & whole]:
            continue    # no run in this suit (Game's table)
        held = cards & g.suit_masks[suit]
        places = 0
        m = held
        while m:
            low = m & -m
            places |= 1 << cr.natural[g.rank_of[low.bit_length() - 1]]
            m ^= low
        for top, length in _runs(cr, places):
            ids = 0
            for place in range(top, top + length):
                one = held & g.rank_masks[cr.by_place[place]]
                ids |= one & -one
            value = cr.sequence_value[min(length, len(cr.sequence_value) - 1)]
            out.append(Combo(seat, SEQUENCE, length, value, ids, top, suit))
    return out


def _quads(g: GameTables, seat: int, cards: int) -> list[Combo]:
    cr = g.rules.combinations
    assert cr is not None
    out: list[Combo] = []
    for r, value in enumerate(cr.quads):
        if not value:
            continue
        m = cards & g.rank_masks[r]     # fewer than four of the rank: none of each suit either
        m &= m - 1
        m &= m - 1
        if not m & (m - 1):
            continue
        ids = 0
        for suit in range(g.nsuits):    # one card of each suit (of a double pack's copies, the first)
            one = cards & g.rank_masks[r] & g.suit_masks[suit]
            ids |= one & -one
        if ids.bit_count() >= 4:
            out.append(Combo(seat, FOUR_OF_A_KIND, ids.bit_count(), value, ids, cr.natural[r], -1))
    return out


def hand_melds(state: StateData, seat: int, cards: int) -> list[Combo]:
    """The best arrangement of the melds in `cards`: the sets of four taken or left (a card in one meld only),
    the runs of the rest, the arrangement worth most (then the one with the best single meld)."""
    return game_melds(state.game, seat, cards)


def game_melds(g: GameTables, seat: int, cards: int) -> list[Combo]:
    """`hand_melds` read from the game alone (the bots weigh the melds of cards they imagine)."""
    quads = _quads(g, seat, cards)
    if not quads:   # one arrangement: the runs
        return _sequences(g, seat, cards)
    best: list[Combo] = []
    best_key = (-1, -1, -1)
    for pick in range(1 << len(quads)):
        chosen = [q for i, q in enumerate(quads) if pick >> i & 1]
        used = 0
        for q in chosen:
            used |= q.cards
        melds = chosen + _sequences(g, seat, cards & ~used)
        top = max(((m.value, m.length) for m in melds), default=(0, 0))
        key = (sum(m.value for m in melds), top[0], top[1])
        if key > best_key:
            best, best_key = melds, key
    return best


def announce(state: StateData, p: int) -> None:
    """`p` announces his melds: each one's kind and value is public now, its cards once trick 1 is complete."""
    state.announced |= 1 << p
    state.combos.extend(hand_melds(state, p, state.hands[p]))


def _is_trump(state: StateData, m: Combo) -> bool:
    return m.kind == SEQUENCE and (state.all_trumps or m.suit == state.trump)


def _key(state: StateData, cr: CombinationRules, m: Combo) -> tuple[int, ...]:
    out: list[int] = []
    for k in cr.ranking:
        if k == KEY_VALUE:
            out.append(m.value)
        elif k == KEY_CARDS:
            out.append(m.length)
        elif k == KEY_TOP:
            out.append(-m.top)
        elif k == KEY_TRUMP:
            out.append(1 if _is_trump(state, m) else 0)
        elif k == KEY_EARLIER:
            out.append(-((m.seat - state.first) % state.n))
    return tuple(out)


def best_team(state: StateData) -> int:
    """The hand team whose melds score (NOBODY when equal best melds lie in opposite sides), from the announced
    melds by the ranking's keys."""
    cr = state.game.rules.combinations
    assert cr is not None
    if not state.combos:
        return NOBODY
    keys = [_key(state, cr, m) for m in state.combos]
    top = max(keys)
    holders = [m for m, k in zip(state.combos, keys, strict=True) if k == top]
    teams = {state.hand_team_of[m.seat] for m in holders}
    if len(teams) == 1:
        return state.hand_team_of[holders[0].seat]
    if not cr.ties_earlier:
        return NOBODY
    first = min(holders, key=lambda m: (m.seat - state.first) % state.n)
    return state.hand_team_of[first.seat]


def compare_announced(state: StateData) -> None:
    """Trick 1 is complete: every announced meld is shown (its cards public while held), and the melds that
    score are credited to their sides."""
    g = state.game
    cr = g.rules.combinations
    assert cr is not None
    for m in state.combos:
        state.melded[m.seat] |= m.cards
        state.shown[m.seat] |= m.cards
        state.meld_suits |= (1 << m.suit) if m.suit >= 0 else (1 << g.nsuits) - 1
    if not cr.best_side_only:
        state.combo_winner = EVERY_SIDE
        for m in state.combos:
            team = state.hand_team_of[m.seat]
            state.meld_points[team] = state.meld_points[team] + m.value
        return
    team = best_team(state)
    state.combo_winner = team
    if team < 0:
        return
    for m in state.combos:
        if state.hand_team_of[m.seat] == team:
            state.meld_points[team] = state.meld_points[team] + m.value


def scoring_combos(state: StateData) -> list[Combo]:
    """The announced melds that score (none before trick 1 is complete)."""
    w = state.combo_winner
    if w == NOT_COMPARED or w == NOBODY:
        return []
    return [m for m in state.combos if w == EVERY_SIDE or state.hand_team_of[m.seat] == w]


# --- melds counted in tricks (roem) ----------------------------------------------------------------------------
def trick_meld_points(state: StateData, cards: list[int]) -> int:
    """What a trick's cards hold in melds: each run of one suit in the natural order (a longer run replaces the
    shorter), and four of a kind."""
    g = state.game
    cr = g.rules.combinations
    assert cr is not None
    total = 0
    for suit in range(g.nsuits):
        places = 0
        for c in cards:
            if g.suit_of[c] == suit:
                places |= 1 << cr.natural[g.rank_of[c]]
        for _top, length in _runs(cr, places):
            total += cr.sequence_value[min(length, len(cr.sequence_value) - 1)]
    for r, value in enumerate(cr.quads):
        if value:
            count = 0
            for c in cards:
                if g.rank_of[c] == r:
                    count += 1
            if count >= 4:
                total += value
    return total


# --- the trump marriage ----------------------------------------------------------------------------------------
def marriage_suits(state: StateData) -> int:
    """Suit bits in which the marriage counts in this hand: the trump suit; every suit in the all-trumps mode
    where the rules count it there; none without trumps."""
    mr = state.game.rules.marriage
    if mr is None or state.trump < 0 or state.concealed:
        return 0
    if state.all_trumps:
        return (1 << state.game.nsuits) - 1 if mr.in_modes else 0
    return 1 << state.trump


def _credit_marriage(state: StateData, seat: int, suit: int, team: int) -> None:
    mr = state.game.rules.marriage
    assert mr is not None
    state.marriage_points[team] = state.marriage_points[team] + mr.value
    state.marriages.append(seat * MARRIAGE_SLOT + suit)


def marriage_on_play(state: StateData, p: int, card: int) -> None:
    """trump_marriage counted in_hand: `p` plays `card`; if it completes a marriage he held (he played its other
    cards before), his side is credited and the marriage announced."""
    g = state.game
    mr = g.rules.marriage
    assert mr is not None
    suit = g.suit_of[card]
    rank = g.rank_of[card]
    if mr.in_trick or rank not in mr.ranks or not marriage_suits(state) >> suit & 1:
        return
    held = 0
    for h in state.hands:
        held |= h
    for r in mr.ranks:   # a card of the marriage still in some hand (each copy): he has not played it
        if r != rank and not g.rank_masks[r] & g.suit_masks[suit] & ~held:
            return
    mine = _played_by(state, p)
    for r in mr.ranks:
        if r != rank and not mine & g.rank_masks[r] & g.suit_masks[suit]:
            return
    _credit_marriage(state, p, suit, state.hand_team_of[p])


def _played_by(state: StateData, p: int) -> int:
    """The cards `p` has played this hand, the current trick included."""
    mine = 0
    for t in state.tricks:
        for i, s in enumerate(t.seats):
            if s == p:
                mine |= 1 << t.cards[i]
    for i, s in enumerate(state.trick_seats):
        if s == p:
            mine |= 1 << state.trick_cards[i]
    return mine


def after_trick(state: StateData, cards: list[int], winner: int) -> None:
    """A trick is complete: melds counted in it go to its winner's side; after trick 1 the announced melds are
    shown and compared."""
    g = state.game
    cr = g.rules.combinations
    mr = g.rules.marriage
    if (cr is None or (cr.counted == COMBOS_DECLARED and len(state.tricks) != 1)) and (mr is None or not mr.in_trick):
        return      # nothing counted in this trick
    team = state.hand_team_of[winner]
    if cr is not None:
        _count_combinations(state, cr.counted, cards, team)
    if mr is not None and mr.in_trick:
        suits = marriage_suits(state)
        for suit in range(g.nsuits):
            if suits >> suit & 1 and _marriage_in(state, mr.ranks, suit, cards):
                _credit_marriage(state, winner, suit, team)


def _count_combinations(state: StateData, counted: int, cards: list[int], team: int) -> None:
    """Declared melds are compared after trick 1; melds counted in the trick (roem) go to its winner's side."""
    if counted == COMBOS_DECLARED:
        if len(state.tricks) == 1:
            compare_announced(state)
        return
    pts = trick_meld_points(state, cards)
    if pts:
        state.meld_points[team] = state.meld_points[team] + pts


def _marriage_in(state: StateData, ranks: tuple[int, ...], suit: int, cards: list[int]) -> bool:
    """Every rank of the marriage is among `cards` in `suit`."""
    g = state.game
    for r in ranks:
        found = False
        for c in cards:
            if g.rank_of[c] == r and g.suit_of[c] == suit:
                found = True
        if not found:
            return False
    return True


def melds_report(state: StateData) -> list[dict[str, Any]]:
    """The replay report's `melds`: per hand team, the melds that scored for it (announced melds once compared),
    its meld points (with the melds counted in tricks) and its trump-marriage points."""
    g = state.game
    scoring = scoring_combos(state)
    out: list[dict[str, Any]] = []
    for team in range(len(state.hand_teams)):
        scored = [{"seat": m.seat, "kind": KIND_NAMES[m.kind], "length": m.length, "value": m.value,
                   "cards": [g.codes[c] for c in range(g.size) if m.cards >> c & 1]}
                  for m in scoring if state.hand_team_of[m.seat] == team]
        out.append({"team": team, "scored": scored, "meld_points": state.meld_points[team],
                    "marriage_points": state.marriage_points[team],
                    "marriages": [x // MARRIAGE_SLOT for x in state.marriages if state.hand_team_of[
                        x // MARRIAGE_SLOT] == team]})
    return out
