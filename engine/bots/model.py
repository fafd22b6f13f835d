"""A model of how a player makes the auction and contract decisions: the heuristic bot's rules (engine/bots/
heuristic.py, evaluate.py), read off a full `State` from the acting seat's own cards only.

The search bot uses it twice: as the policy that finishes the auction and contract steps inside a sampled world,
and softened into a likelihood - how probable each bid, pass and visible trump choice of another seat was, given
the cards a sampled world gives that seat (worlds.py) - so that worlds agreeing with what the table has seen count
more.
It is plain typed Python that mypyc can compile (setup.py's COMPILED list).
"""

from __future__ import annotations

import math

from engine.bots.evaluate import SIDE_SECOND, SIDE_SECOND_GUARDED, SIDE_THIRD, SIDE_TOP, TRUMP_UNITS, Z_WEIGHT
from engine.bots.evaluate import _units_spread as units_spread
from engine.play.actions import Action
from engine.play.base import ANSWER, AUCTION, DECLARE, DOUBLING, POINTLESS, RAISE, TRUMP, UNDECIDED
from engine.play.game import NO_TRUMP, Game
from engine.play.state import State

SOFT_BID = 0.07        # softness of a bid or pass: a share of the pack's card points (about two points)
SOFT_SUIT = 0.8        # softness of a trump choice, in hand-evaluation units
FLOOR = 1e-3           # no observed action is ever taken as impossible: the model is only a model
# The heuristic's thresholds (heuristic.py reads them from here, so the bot and its model agree)
RAISE_MARGIN = 1       # raise with this many points to spare
PARTNER_MARGIN = 4     # overcall a partner's standing bid only with this many points to spare
RAISE_Z = 2.0          # without knowing the trump, only a hand this unusual raises
DOUBLE_MARGIN = 4      # the bidding side doubles with this many points over its bid
DOUBLE_TOPS = 3        # the other side doubles holding this many cards of the top rank ...
DOUBLE_ABOVE_MIN = 4   # ... against a bid at least this far above the lowest bid
TRICK_WORTH = 2        # card points that make a trick worth winning or calling for the trump
MODELS_KEPT = 64


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def log_floor(p: float) -> float:
    return math.log(max(p, FLOOR))


class HandModel:
    """Hand evaluation (evaluate.py's numbers, on masks) and the heuristic's contract decisions for one game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        top = max(game.strength)
        self.rank_pos = [top - game.strength[c] for c in range(game.size)]
        self.top_mask = [0] * game.nsuits          # per suit: cards of the top rank
        for c in range(game.size):
            if self.rank_pos[c] == 0:
                self.top_mask[game.suit_of[c]] |= 1 << c
        self.total = float(game.points_per_hand)
        self.no_trumps = game.rules.trump.no_trumps
        if game.rules.table.bidder_plays_alone:
            self.share = [1.0 / game.n] * game.n
        else:
            self.share = [len(game.rules.table.teams[game.team_of[s]]) / game.n for s in range(game.n)]
        self._spread: dict[int, tuple[float, float]] = {}
        self.bid_value: dict[Action, int] = {}
        self.bid_code: dict[Action, str] = {}

    # --- hand evaluation ------------------------------------------------------------------------------------
    def units(self, hand: int, trump: int) -> float:
        """evaluate.suit_units: the strength of `hand` with `trump` as trumps (-1: no-trumps)."""
        g = self.game
        units = 0.0
        m = hand
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            s = g.suit_of[c]
            r = self.rank_pos[c]
            if s == trump:
                units += TRUMP_UNITS[min(r, len(TRUMP_UNITS) - 1)]
            elif r == 0:
                units += SIDE_TOP * (1.3 if trump < 0 else 1.0)
            elif r == 1:
                units += SIDE_SECOND_GUARDED if hand & self.top_mask[s] else SIDE_SECOND
            elif r == 2:
                units += SIDE_THIRD
        return units

    def best_trump(self, hand: int, allow_nt: bool) -> tuple[int, float]:
        """evaluate.best_trump: (suit, units) of the best trump, ties to the longer suit (then the higher index)."""
        g = self.game
        best_u = -1.0
        best_len = -1
        best_s = 0
        for s in range(g.nsuits):
            u = self.units(hand, s)
            n = (hand & g.suit_masks[s]).bit_count()
            if s == 0 or u > best_u or (u == best_u and (n > best_len or (n == best_len and s > best_s))):
                best_u, best_len, best_s = u, n, s
        if allow_nt:
            u = self.units(hand, NO_TRUMP) - 1.0
            if u > best_u or (u == best_u and 0 > best_len):
                best_u, best_s = u, NO_TRUMP
        return best_s, best_u

    def spread(self, k: int) -> tuple[float, float]:
        out = self._spread.get(k)
        if out is None:
            out = self._spread[k] = units_spread(self.game, k, self.no_trumps)
        return out

    def expected(self, seat: int, hand: int, units: float) -> float:
        """evaluate.expected_points: card points the seat's side may expect when the seat names the trump."""
        k = hand.bit_count()
        if k == 0:
            return 0.0
        mean, sd = self.spread(k)
        return self.total * (self.share[seat] + Z_WEIGHT * (units - mean) / sd)

    def z(self, hand: int) -> float:
        """evaluate.hand_z."""
        k = hand.bit_count()
        if k == 0:
            return 0.0
        mean, sd = self.spread(k)
        return (self.best_trump(hand, self.no_trumps)[1] - mean) / sd

    # --- reading actions -----------------------------------------------------------------------------------
    def value_of(self, a: Action) -> int:
        """The number a bid or raise names."""
        v = self.bid_value.get(a)
        if v is None:
            v = self.bid_value[a] = int(a.arg.split()[0])
        return v

    def code_of(self, a: Action) -> str:
        """The suit (or NT) a bid names, '' for none."""
        v = self.bid_code.get(a)
        if v is None:
            parts = a.arg.split()
            v = self.bid_code[a] = parts[1] if len(parts) > 1 else ""
        return v

    def known_trump(self, state: State, seat: int) -> int:
        """The trump as `seat` knows it: a suit, NO_TRUMP, or UNDECIDED when not chosen or hidden from it."""
        if state.trump == UNDECIDED or (state.concealed and seat != state.folder):
            return UNDECIDED
        return state.trump

    def held(self, state: State, seat: int) -> int:
        """The seat's cards, its own face-down indicator included."""
        h = state.hands[seat]
        if state.concealed and state.indicator >= 0 and seat == state.folder:
            h |= 1 << state.indicator
        return h

    def partner_holds_bid(self, state: State, seat: int) -> bool:
        hb = state.high_bidder
        return hb >= 0 and hb != seat and not self.game.rules.table.bidder_plays_alone and state.hand_team_of[hb] == \
            state.hand_team_of[seat]

    # --- the heuristic's contract decisions -----------------------------------------------------------------
    def action(self, state: State) -> Action:
        """What the heuristic would do now in any phase but play (the first legal action where it has no rule)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ph = state.phase
        if ph == AUCTION:
            return self._bid(state, legal)
        if ph == TRUMP:
            return self._trump(state, legal)
        if ph == RAISE:
            return self._raise(state, legal)
        if ph == DOUBLING:
            return self._double(state, legal)
        if ph == DECLARE:
            return self._declare(state, legal)
        if ph == POINTLESS or ph == ANSWER:
            return first_of(legal, ("redeal", "accept", "pass"))
        return legal[0]

    def bid_options(self, state: State, legal: tuple[Action, ...], code: str) -> tuple[list[Action], Action | None]:
        """The bids the heuristic looks at (those naming `code` where bids name a suit) and the pass, if legal."""
        bids: list[Action] = []
        passing: Action | None = None
        for a in legal:
            if a.verb == "bid":
                if not self.game.rules.trump.in_bid or self.code_of(a) == code:
                    bids.append(a)
            elif a.verb == "pass" and passing is None:
                passing = a
        return bids, passing

    def _bid(self, state: State, legal: tuple[Action, ...]) -> Action:
        for a in legal:
            if a.verb == "redeal":
                return a
        p = state.to_act
        hand = state.hands[p]
        suit, units = self.best_trump(hand, self.no_trumps)
        est = self.expected(p, hand, units)
        code = "NT" if suit < 0 else self.game.layout.suits[suit]
        bids, passing = self.bid_options(state, legal, code)
        if not bids:
            return passing if passing is not None else legal[0]
        margin = PARTNER_MARGIN if self.partner_holds_bid(state, p) else 0
        if passing is None or est >= self.value_of(bids[0]) + margin:
            return bids[0]
        return passing

    def trump_choice(self, hand: int, legal: tuple[Action, ...]) -> Action:
        """The heuristic's trump: its best suit; laid as a card, the least useful card of that suit."""
        g = self.game
        suit, _ = self.best_trump(hand, False)
        code = g.layout.suits[max(suit, 0)]
        if not g.rules.trump.as_card:
            for a in legal:
                if a.arg == code:
                    return a
        best: Action | None = None
        best_rank = -1
        for a in legal:
            if a.verb == "trump" and len(a.arg) > 1 and a.arg[-1] == code and a.arg != "seventh":
                r = g.rank_of[g.code_ids[a.arg][0]]
                if best is None or r > best_rank or (r == best_rank and a.arg > best.arg):
                    best, best_rank = a, r
        return best if best is not None else legal[0]

    def _trump(self, state: State, legal: tuple[Action, ...]) -> Action:
        return self.trump_choice(state.hands[state.to_act], legal)

    def raise_estimate(self, state: State, seat: int) -> float:
        """The card points the heuristic expects when asked to raise (-1000: it would not raise at all)."""
        hand = self.held(state, seat)
        trump = self.known_trump(state, seat)
        if trump >= 0:
            units = self.units(hand, trump)
        else:
            if self.z(hand) < RAISE_Z:
                return -1000.0
            units = self.best_trump(hand, False)[1]
        return self.expected(seat, hand, units)

    def _raise(self, state: State, legal: tuple[Action, ...]) -> Action:
        raises = [a for a in legal if a.verb == "raise"]
        if not raises:
            return legal[0]
        est = self.raise_estimate(state, state.to_act)
        return raises[0] if est >= self.value_of(raises[0]) + RAISE_MARGIN else first_of(legal, ("pass",))

    def _double(self, state: State, legal: tuple[Action, ...]) -> Action:
        g = self.game
        d = g.rules.doubling
        stake = d.fixed_stake.name if d is not None and d.fixed_stake is not None else ""
        steps = [a for a in legal if a.verb != "pass" and a.verb != stake]
        if not steps or state.bidder < 0:
            return first_of(legal, ("pass",))
        p = state.to_act
        hand = self.held(state, p)
        if state.hand_team_of[p] == state.hand_team_of[state.bidder]:
            trump = self.known_trump(state, p)
            if trump < 0:
                return first_of(legal, ("pass",))
            est = self.expected(p, hand, self.units(hand, trump))
            return steps[0] if est >= state.bid + DOUBLE_MARGIN else first_of(legal, ("pass",))
        top = max(state.strength)
        tops = 0
        m = hand
        while m:
            low = m & -m
            if state.strength[low.bit_length() - 1] == top:
                tops += 1
            m ^= low
        if tops >= DOUBLE_TOPS and state.bid >= g.rules.auction.bid_min + DOUBLE_ABOVE_MIN:
            return steps[0]
        return first_of(legal, ("pass",))

    def _declare(self, state: State, legal: tuple[Action, ...]) -> Action:
        for a in legal:
            if a.verb == "declare":
                c = self.game.contracts.get(a.arg)
                if c is not None and self._sure_sweep(state, state.to_act, not c.no_trumps):
                    return a
        return first_of(legal, ("pass",))

    def _sure_sweep(self, state: State, seat: int, keeps_trump: bool) -> bool:
        own_indicator = 1 << state.indicator if state.indicator >= 0 and seat == state.folder else 0
        return sure_sweep(self.game, state.hands[seat], state.strength, self.known_trump(state, seat),
                          own_indicator, keeps_trump)

    # --- likelihood of a trump choice --------------------------------------------------------------------------
    def suit_log_likelihood(self, hand: int, chosen: int, as_card: bool) -> float:
        """log of the chance that the heuristic, holding `hand`, names suit `chosen` (NO_TRUMP: no-trumps): a
        softmax of the hand's strength with each suit as trumps (named by a card: only suits held)."""
        g = self.game
        scores: list[float] = []
        mine = -1e9
        for s in range(-1 if chosen == NO_TRUMP else 0, g.nsuits):
            if as_card and s >= 0 and not hand & g.suit_masks[s]:
                continue
            u = self.units(hand, s) - (1.0 if s < 0 else 0.0)
            scores.append(u / SOFT_SUIT)
            if s == chosen:
                mine = u / SOFT_SUIT
        if not scores or mine < -1e8:
            return math.log(FLOOR)
        top = max(scores)
        total = 0.0
        for x in scores:
            total += math.exp(x - top)
        return max(mine - top - math.log(total), math.log(FLOOR))

    def suit_weights(self, hand: int, must_hold: bool) -> list[float]:
        """The model's chances (unnormalised) of the heuristic naming each suit as trump with `hand`."""
        g = self.game
        scores = [-1e9] * g.nsuits
        for s in range(g.nsuits):
            if must_hold and not hand & g.suit_masks[s]:
                continue
            scores[s] = self.units(hand, s) / SOFT_SUIT
        top = max(scores)
        return [math.exp(x - top) if x > -1e8 else 0.0 for x in scores]


def first_of(legal: tuple[Action, ...], verbs: tuple[str, ...]) -> Action:
    for v in verbs:
        for a in legal:
            if a.verb == v:
                return a
    return legal[0]


def sure_sweep(game: Game, hand: int, strength: list[int], trump: int, own_indicator: int,
               keeps_trump: bool) -> bool:
    """Every card in `hand` is one of the top cards of its suit (so leading them wins every trick), and with
    trumps kept (`trump` >= 0 known) nobody else holds a trump to ruff with; `own_indicator`: the seat's own
    face-down indicator (a mask), which no one else can ruff with. The heuristic's rule and its model's."""
    for s in range(game.nsuits):
        mine = hand & game.suit_masks[s]
        if not mine:
            continue
        others = game.suit_masks[s] & ~hand
        if others and _max_strength(strength, others) >= _min_strength(strength, mine):
            return False
    if keeps_trump and trump >= 0:
        return not game.suit_masks[trump] & ~hand & ~own_indicator
    return True


def _max_strength(strength: list[int], m: int) -> int:
    best = -1
    while m:
        low = m & -m
        s = strength[low.bit_length() - 1]
        if s > best:
            best = s
        m ^= low
    return best


def _min_strength(strength: list[int], m: int) -> int:
    best = 1 << 30
    while m:
        low = m & -m
        s = strength[low.bit_length() - 1]
        if s < best:
            best = s
        m ^= low
    return best


_MODELS: dict[int, HandModel] = {}


def model_for(game: Game) -> HandModel:
    """The model of this game, built once per process."""
    m = _MODELS.get(id(game))
    if m is None or m.game is not game:
        if len(_MODELS) >= MODELS_KEPT:
            _MODELS.clear()
        m = _MODELS[id(game)] = HandModel(game)
    return m
