"""The search bots' rollout: finish a sampled world's hand with a greedy policy, on card bitmasks.

A sampled world is a full `State`, so the policy may look at every hand. It chooses exactly as the 0.1 search bot's
policy did (the `pimc` golden choices depend on it): with a small share of random moves (EXPLORE) drawn from the same
generator calls in the same order, then win a trick cheaply with a card nobody after can beat, feed a partner who
will keep the trick, lead a master of a side suit, else throw the cheapest card. It never builds the list of legal
actions in the play phase: the playable cards are one mask and the other actions (call, show pair, surrender) a
short list, and a card is played by its id.

This module is plain typed Python that mypyc can compile (setup.py's COMPILED list); the pure-Python module is the
fallback and makes the same choices.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.bots.model import TRICK_WORTH
from engine.bots.policy import ContractPolicy
from engine.play.actions import Action
from engine.play.base import PLAY
from engine.play.game import NO_TRUMP, TRUMP_POWER, GameTables, card_power, winning_index
from engine.play.state import State
from engine.play.tricks import play_card, play_mask

EXPLORE = 0.05             # share of rollout moves made at random, so rollouts do not all agree
CARD_POINT_WEIGHT = 0.01   # breaks ties between actions that score the same game points
TABLES_KEPT = 64           # games whose policy tables a process keeps


class Tables:
    """What the policy looks up for one game and one strength order (a reversed no-trump hand has its own)."""

    def __init__(self, game: GameTables, strength: list[int]) -> None:
        self.game = game
        self.strength = strength
        top = 0
        for s in strength:
            if s > top:
                top = s
        self.top = top
        self.span = top + 2                      # strengths (0..top) fit below this in a packed sort key
        # stronger[suit][t + 1]: the suit's cards stronger than t, for t in -1..top
        self.stronger: list[list[int]] = []
        for su in range(game.nsuits):
            row: list[int] = []
            for t in range(-1, top + 1):
                m = 0
                for c in range(game.size):
                    if game.suit_of[c] == su and strength[c] > t:
                        m |= 1 << c
                row.append(m)
            self.stronger.append(row)
        self.first_copies = game.first_copy_mask
        self.copies = game.layout.copies

    def beats(self, suit: int, t: int) -> int:
        """The cards of `suit` stronger than `t` (t may lie outside the strengths)."""
        if t < 0:
            return self.stronger[suit][0]
        if t >= self.top:
            return 0
        return self.stronger[suit][t + 1]


class Stream:
    """A small seeded generator of floats in [0, 1) (xorshift64*): one per world, so every candidate action's
    rollout in that world meets the same luck. Cheaper to start than `random.Random`, and the same everywhere."""

    def __init__(self, seed: int) -> None:
        self.x = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF or 1

    def random(self) -> float:
        x = self.x
        x ^= x >> 12
        x ^= (x << 25) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 27
        self.x = x
        return ((x * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF) / 18446744073709551616.0


_TABLES: dict[int, list[Tables]] = {}


def tables_for(state: State) -> Tables:
    """The tables for this state's game and strength order, built once per process."""
    g = state.game
    key = id(g)
    kept = _TABLES.get(key)
    if kept is None or kept[0].game is not g:
        if len(_TABLES) >= TABLES_KEPT:
            _TABLES.clear()
        kept = [Tables(g, g.strength)]
        if g.reversed_strength is not g.strength:
            kept.append(Tables(g, g.reversed_strength))
        _TABLES[key] = kept
    for t in kept:
        if t.strength is state.strength:
            return t
    # a trump suit with its own order, or a trump mode (rules.trump.modes): one more table per such order, kept
    # (at most one per suit and mode); an order built elsewhere falls back to the plain one
    if state.strength in g.suit_strength or state.strength in g.mode_strength:
        t = Tables(g, state.strength)
        kept.append(t)
        return t
    return kept[0]


def distinct_cards(t: Tables, mask: int) -> int:
    """One bit per playable card code (the lowest id of the code): a double pack's copies are one choice."""
    if t.copies == 1:
        return mask
    out = 0
    for k in range(t.copies):
        out |= mask >> k
    return out & t.first_copies


def first_playable(t: Tables, mask: int, card: int) -> int:
    """The first copy of `card`'s code that `mask` holds (what applying the card's play action plays)."""
    if t.copies == 1:
        return card
    base = card - card % t.copies
    for c in range(base, base + t.copies):
        if mask >> c & 1:
            return c
    return card


def nth_card(mask: int, k: int) -> int:
    """The id of the k-th set bit of `mask` (0: the lowest)."""
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def rollout(state: State, rand: Callable[[], float], contract: ContractPolicy | None = None) -> None:
    """Finish the hand with the greedy policy and EXPLORE random moves drawn with `rand`. Outside the play phase
    `contract` decides, as the heuristic would; without it (the `pimc` bot) every such move is random."""
    t = tables_for(state)
    while state.to_act >= 0:
        if state.phase != PLAY:
            _contract_move(state, rand, contract)
            if t.strength is not state.strength:
                t = tables_for(state)
            continue
        p = state.to_act
        mask = play_mask(state)
        extras = state._extras
        n_extra = len(extras)
        distinct = distinct_cards(t, mask)
        count = distinct.bit_count() + n_extra
        if count == 1:
            if n_extra:
                state.apply(extras[0])
            else:
                play_card(state, p, first_playable(t, mask, nth_card(distinct, 0)))
            continue
        if rand() < EXPLORE:
            k = int(rand() * count)
            if k < n_extra:
                state.apply(extras[k])
            else:
                play_card(state, p, first_playable(t, mask, nth_card(distinct, k - n_extra)))
            continue
        k = _choice(state, t, p, mask, extras)
        if k < 0:
            state.apply(extras[-1 - k])
        else:
            play_card(state, p, first_playable(t, mask, k))


def _contract_move(state: State, rand: Callable[[], float], contract: ContractPolicy | None) -> None:
    """A move outside the play phase: the contract policy's, or (the `pimc` bot) a random one."""
    if contract is not None:
        state.apply(contract.action(state))
        return
    legal = state.legal_actions()
    if len(legal) == 1:
        state.apply(legal[0])
        return
    rand()   # the explore draw: outside the play phase every move is random
    state.apply(legal[int(rand() * len(legal))])


def _choice(state: State, t: Tables, p: int, mask: int, extras: list[Action]) -> int:
    """The greedy policy: a card id, or -1 - i for `extras[i]`. Show a pair at once; with no card to play, the
    first other action; on lead see `_lead`; feed a partner who keeps the trick; else win it with the cheapest card
    nobody after can beat, or call for the trump when the trick is worth two points; else the cheapest card."""
    shown = _show_at_once(extras)
    if shown < 0:
        return shown
    if not mask:
        return -1
    power = state.trump if not state.concealed else NO_TRUMP
    trick = state.trick_cards
    if not trick:
        return _lead(state, t, p, mask, power)
    g = state.game
    suit_of = g.suit_of
    strength = state.strength
    led = suit_of[trick[0]]
    best_i = winning_index(trick, suit_of, strength, power, state.power_from)
    w = trick[best_i]
    best_st = card_power(w, led, power if best_i >= state.power_from else NO_TRUMP, suit_of, strength)
    team = state.hand_team_of
    if team[state.trick_seats[best_i]] == team[p]:
        if not _later_can_beat(state, t, p, led, best_st, power):
            return _feed(state, t, mask, power)
        return _cheapest(state, t, mask, power)
    c = _safe_winner(state, t, p, mask, led, best_st, power)
    if c >= 0:
        return c
    call = _call_if_worth(state, extras)
    return call if call < 0 else _cheapest(state, t, mask, power)


def _call_if_worth(state: State, extras: list[Action]) -> int:
    """-1 - i for the call for the trump (`extras[i]`) when the trick is worth TRICK_WORTH points; else 0."""
    for i in range(len(extras)):
        if extras[i].verb == "call":
            pts = 0
            for x in state.trick_cards:
                pts += state.points_of[x]
            return -1 - i if pts >= TRICK_WORTH else 0
    return 0


def _show_at_once(extras: list[Action]) -> int:
    """-1 - i for the first `show` or `announce` among `extras` (a pair or melds score only when shown); else 0."""
    for i in range(len(extras)):
        if extras[i].verb == "show" or extras[i].verb == "announce":
            return -1 - i
    return 0


def _later_can_beat(state: State, t: Tables, p: int, led: int, best: int, power: int) -> bool:
    """Whether a seat still to play to this trick could beat a card counting `best`."""
    left = state.n - state.sitting_out.bit_count() - len(state.trick_cards) - 1
    q = p
    g = state.game
    led_mask = g.suit_masks[led]
    while left > 0:
        q = (q + 1) % state.n
        if state.sitting_out >> q & 1:
            continue
        left -= 1
        h = state.hands[q]
        follow = h & led_mask
        if follow:
            if best < TRUMP_POWER and follow & t.beats(led, best):
                return True
        elif power >= 0:
            if h & t.beats(power, best - TRUMP_POWER):
                return True
    return False


def _safe_winner(state: State, t: Tables, p: int, mask: int, led: int, best_st: int, power: int) -> int:
    """The cheapest card that beats the trick now and that nobody after can beat (keep trumps, then the lowest),
    or -1."""
    g = state.game
    suit_of = g.suit_of
    strength = state.strength
    span = t.span
    best_key = -1
    choice = -1
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        s = suit_of[c]
        pw = card_power(c, led, power, suit_of, strength)
        if pw < 0:
            continue
        if pw <= best_st or _later_can_beat(state, t, p, led, pw, power):
            continue
        key = (span if s == power else 0) + strength[c]
        if choice < 0 or key < best_key:
            best_key = key
            choice = c
    return choice


def _feed(state: State, t: Tables, mask: int, power: int) -> int:
    """Most points from a card that is not a trump (then the lowest card)."""
    g = state.game
    strength = state.strength
    span = t.span
    top = t.top
    best_key = 0
    choice = -1
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        pts = state.points_of[c] if g.suit_of[c] != power else -1
        key = pts * span + (top - strength[c])
        if choice < 0 or key > best_key:
            best_key = key
            choice = c
    return choice


def _cheapest(state: State, t: Tables, mask: int, power: int) -> int:
    """Fewest points, keep trumps, then the lowest card."""
    g = state.game
    strength = state.strength
    span = t.span
    best_key = 0
    choice = -1
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        key = (state.points_of[c] * 2 + (1 if g.suit_of[c] == power else 0)) * span + strength[c]
        if choice < 0 or key < best_key:
            best_key = key
            choice = c
    return choice


def _lead(state: State, t: Tables, p: int, mask: int, power: int) -> int:
    """A master (no card another seat holds beats it in its suit), side suits and points first; else the
    cheapest card."""
    g = state.game
    strength = state.strength
    others = _others_hands(state, p)
    span = t.span
    best_side = -1
    best_key = 0
    choice = -1
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        su = g.suit_of[c]
        if others & t.beats(su, strength[c]):
            continue
        side = 1 if su != power else 0
        key = state.points_of[c] * span + strength[c]
        if choice < 0 or side > best_side or (side == best_side and key > best_key):
            best_side = side
            best_key = key
            choice = c
    if choice >= 0:
        return choice
    return _cheapest(state, t, mask, power)


def _others_hands(state: State, p: int) -> int:
    """Every card the other seats hold (the rollout sees every hand)."""
    others = 0
    for s in range(state.n):
        if s != p:
            others |= state.hands[s]
    return others


def utility(state: State, seat: int) -> float:
    """Game points of the seat's side less the best other side's, plus a small card-point term."""
    gp = state.game_points
    team = state.hand_team_of[seat]
    other_gp = 0
    found = False
    for i in range(len(gp)):
        if i != team and (not found or gp[i] > other_gp):
            other_gp = gp[i]
            found = True
    cp = state.team_points
    other_cp = 0
    for i in range(len(cp)):
        if i != team and cp[i] > other_cp:
            other_cp = cp[i]
    return gp[team] - other_gp + CARD_POINT_WEIGHT * (cp[team] - other_cp)


def apply_first(state: State, action: Action) -> None:
    """`state.apply(action)`; a card is played by id, as `apply` would play it, without building the legal actions."""
    if action.verb == "play" and state.phase == PLAY and action.seat == state.to_act:
        mask = play_mask(state)
        for c in state.game.code_ids[action.arg]:
            if mask >> c & 1:
                play_card(state, action.seat, c)
                return
    state.apply(action)
