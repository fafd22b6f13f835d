"""The heuristic's auction and doubling where hands are scored banked (scoring.method: banked): each side keeps
its card points, melds and trump marriage; a failed contract gives the defenders what the file says; the bid may be
added when made; a doubling step multiplies. There are no bands: a contract is weighed by the points it banks.

The seat estimates the total its side would take with each trump a bid may name (a suit or a named mode): its card
points `total * (seats' share + edge + slope * z + curve * max(z, 0)^2)`, z the hand evaluation's strength with
that trump (HandModel.units_named) in standard deviations of random hands, plus its melds and trump marriage
`m0 + m1 * own melds + m2 * own marriage` (the melds its own cards arrange into, combinations.game_melds; the
marriage when it holds both cards), spread TOTAL_SD. The constants were fitted on simulated hands
(benchmarks/banked_calibration.py). The other seats' speeches move the estimate as in the plain auction
(bidding.py: a bid tells of its bidder's strength, a pass of its weakness, AGAINST per standard deviation).

A bid is worth the expected difference between what the two sides bank (scoring's own `bank`, the side's total
read at BANKED_POINTS points of its normal spread): the seat names the trump whose best bid is worth most, and bids
when that beats passing (nothing with no bid yet - all passing redeals - or, over an opponent's bid, what that
contract is worth to the opponents counted against the seat). A doubling step is said when it moves the expected
difference by more than DOUBLE_EDGE of the doubled stake: by the other side from the takers' total as their bids
and its own cards say, by the takers from their own estimate less what the double says. Plain typed Python.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.bots.bidding import AuctionRules, phi
from engine.play.actions import Action
from engine.play.banked import bank
from engine.play.combinations import game_melds
from engine.play.game import NO_TRUMP, Game
from engine.play.rules import BankedRules

if TYPE_CHECKING:
    from engine.bots.policy import ContractPolicy, Knowledge

# Fitted by benchmarks/banked_calibration.py (seed 404, 2,000 deals of coinche, the bidder forced round the table
# naming its best trump, the rest played by the heuristic): the side's card points as a share of the named trump's
# pack less the seats' share (least squares) ...
BANKED_FIT = (0.1159, 0.0826, 0.0017)   # edge, slope per z, curve per max(z, 0)^2
MELD_FIT = (6.00, 0.973, 1.078)  # ... the side's melds + marriage: m0 + m1 * own melds + m2 * own marriage ...
TOTAL_SD = 35.1                  # ... the residual spread of the side's whole total about both (card points) ...
OTHER_MELDS = 13.3               # ... the other side's melds + marriage, on average ...
OWN_MELDS_MEAN = 6.8             # ... and a bidder's own melds and marriage on average (for a seat whose cards
OWN_MARRIAGE_MEAN = 1.7          #     are unseen)
BANKED_POINTS = (-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0)   # the spread's points weighed (normal weights)
DOUBLE_EDGE = 0.0                # a doubling step must move the expected difference by this share of the stake:
#                                  none (at 0.1, 1 coinche in 299 coinche hands; at 0, 16, 10 of them won, and 5
#                                  surcoinches, all won: simulate --hands 300, seed 0)
DOUBLED_SIGNAL = 0.5             # a double against the takers lowers their estimate by this many spreads


def code_total(game: Game, code: str) -> int:
    """Every card point of a hand with the trump a bid names (a suit, NT or a named mode), the last trick's
    bonus included."""
    mode = game.mode_index(code)
    suit = game.layout.suits.index(code) if code in game.layout.suits else NO_TRUMP
    return sum(game.points_for(suit, mode)) + game.rules.deck.bonus_points


def own_melds(game: Game, seat: int, hand: int) -> int:
    """What the melds `hand` arranges into are worth (combinations.game_melds; 0 where the file has none)."""
    if game.rules.combinations is None:
        return 0
    return sum(c.value for c in game_melds(game, seat, hand))


def marriage_held(game: Game, hand: int, code: str) -> int:
    """The trump marriage's value when `hand` holds all its cards in the suit `code` names (0 otherwise, and in a
    mode unless the marriage counts in modes: then in any suit)."""
    mr = game.rules.marriage
    if mr is None or not mr.ranks:
        return 0
    if code in game.layout.suits:
        suits = [game.layout.suits.index(code)]
    elif mr.in_modes and game.mode_index(code) >= 0:
        suits = list(range(game.nsuits))
    else:
        return 0
    for s in suits:
        if all(hand & game.suit_masks[s] & game.rank_masks[r] for r in mr.ranks):
            return mr.value
    return 0


def code_multiplier(game: Game, code: str) -> int:
    """The multiplier of the trump a bid or a choice names (trump.suit_multipliers, a mode's multiplier)."""
    if code in game.layout.suits:
        return game.suit_multiplier[game.layout.suits.index(code)]
    mode = game.mode_index(code)
    return game.rules.trump.modes[mode].multiplier if mode >= 0 else 1


_W = [math.exp(-0.5 * x * x) for x in BANKED_POINTS]
WEIGHTS = [x / sum(_W) for x in _W]


def banked_difference(rules: BankedRules, bid: int, mean: float, sd: float, multiplier: int, total: int,
                      melds: float, trump_multiplier: int = 1, other_melds: float = -1.0) -> float:
    """The expected difference between what the takers and the defenders bank (scoring's `bank`), the takers'
    total (card points + melds + marriage) normal about `mean` with spread `sd`, read at BANKED_POINTS; `total`:
    the card points in play with this trump; `melds`: the part of the takers' total that is melds;
    `other_melds`: the defenders' melds and marriage (negative: OTHER_MELDS)."""
    own = max(0, round(melds))
    other = round(OTHER_MELDS if other_melds < 0 else other_melds)
    out = 0.0
    for x, w in zip(BANKED_POINTS, WEIGHTS, strict=True):
        cards = min(max(round(mean + sd * x) - own, 0), total)
        sweep = 0 if cards >= total else -1
        s = bank(rules, 0, [cards, total - cards], [own, other], [0, 0], sweep, bid=bid, multiplier=multiplier,
                 trump_multiplier=trump_multiplier)
        out += w * (s.points[0] - s.points[1])
    return out


class BankedAuction(AuctionRules):
    """The plain auction (bidding.py) with a contract's worth read from the banked score."""

    def __init__(self, policy: ContractPolicy) -> None:
        super().__init__(policy)
        g = self.game
        b = g.rules.scoring.banked
        assert b is not None
        self.rules = b
        self.codes = list(dict.fromkeys(g.bid_suits)) if g.rules.trump.in_bid else [""]
        self.totals = {c: code_total(g, c) for c in self.codes if c}
        self.pack = float(g.points_per_hand)
        self._total = self.pack       # the card points of the trump weighed now
        self._melds = OWN_MELDS_MEAN + OWN_MARRIAGE_MEAN   # the takers' melds + marriage weighed now
        self._worth: dict[tuple[int, int, int, int, int], float] = {}

    # --- the estimate -----------------------------------------------------------------------------------------
    def implied_z(self, seat: int, held: int, bid: int, rnd: int) -> float:
        # not kept as the plain auction keeps it: mean_at reads the trump and melds weighed now
        return self._implied_z(seat, held, bid, rnd)

    def mean_at(self, seat: int, held: int, z: float) -> float:
        edge, slope, curve = BANKED_FIT
        zp = z if z > 0.0 else 0.0
        m0, m1, m2 = MELD_FIT
        cards = self._total * (self.model.share[seat] + edge + slope * z + curve * zp * zp)
        return cards + m0 + m1 * OWN_MELDS_MEAN + m2 * OWN_MARRIAGE_MEAN

    def spread(self, held: int) -> float:
        return TOTAL_SD

    def own_extra(self, held: int, seat: int, code: str) -> float:
        """What the seat's own melds and marriage add to its side's estimate beyond a hand's average."""
        _, m1, m2 = MELD_FIT
        melds = own_melds(self.game, seat, held)
        return m1 * (melds - OWN_MELDS_MEAN) + m2 * (marriage_held(self.game, held, code) - OWN_MARRIAGE_MEAN)

    def code_z(self, held: int, code: str) -> float:
        m = self.model
        mean, sd = m.spread(held.bit_count())
        return (m.units_named(held, code) - mean) / sd

    def needs(self, bid: int) -> float:
        return float(bid)

    def band(self, bid: int, rnd: int) -> tuple[float, float] | None:
        return (1.0, -1.0)

    # --- the worth of a contract ------------------------------------------------------------------------------
    def worth(self, bid: int, rnd: int, mean: float, sd: float) -> float:
        return self.banked_worth(bid, mean, sd, 1)

    def banked_worth(self, bid: int, mean: float, sd: float, multiplier: int) -> float:
        """The expected difference between what the takers and the defenders bank, the takers' total normal about
        `mean` (card points + melds + marriage) with spread `sd`."""
        key = (bid, round(mean), round(sd), multiplier, round(self._total))
        v = self._worth.get(key)
        if v is None:
            if len(self._worth) > 4096:
                self._worth.clear()
            v = self._worth[key] = banked_difference(self.rules, bid, mean, sd, multiplier, int(self._total),
                                                     self._melds)
        return v

    def worth_next(self, k: Knowledge, est: float, a: Action) -> bool:
        return False     # no floor under the weighing: the banked worth weighs every bid

    def band_edges(self, bids: Sequence[Action]) -> list[int]:
        return list(range(len(bids)))

    # --- the speech -------------------------------------------------------------------------------------------
    def bid(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        passing: Action | None = None
        by_code: dict[str, list[Action]] = {}
        for a in legal:
            if a.verb == "bid":
                by_code.setdefault(self.model.code_of(a), []).append(a)
            elif a.verb == "pass" and passing is None:
                passing = a
        if not by_code:
            return passing if passing is not None else legal[0]
        held = k.held
        rnd = self.round_now(k)
        zs = self.standing_z(k, rnd)
        sd = self.spread(held.bit_count())
        best: Action | None = None
        best_ev = -1e18
        for code, bids in by_code.items():
            self._total = float(self.totals.get(code, self.pack))
            z = self.code_z(held, code)
            strengths = self.strengths(k, z, zs, rnd)
            extra = self.own_extra(held, k.seat, code)
            mean = self.side_points(k, k.seat, strengths) + extra
            self._melds = OWN_MELDS_MEAN + OWN_MARRIAGE_MEAN + max(extra, 0.0)
            for a in bids:
                ev = self.banked_worth(self.model.value_of(a), mean, sd, 1)
                if ev > best_ev:
                    best, best_ev = a, ev
        self._total = self.pack
        self._melds = OWN_MELDS_MEAN + OWN_MARRIAGE_MEAN
        assert best is not None
        if passing is None:
            return best
        z0 = self.model.z(held)
        if best_ev > self.pass_value(k, self.strengths(k, z0, zs, rnd), sd, rnd):
            return best
        return passing

    # --- doubling ---------------------------------------------------------------------------------------------
    def takers_mean(self, k: Knowledge, doubled: bool) -> float:
        """The standing contract's takers' total as the seat reads it: from its own cards with the bid's trump
        when it is one of them (less what a double against them says), else from their bids against its cards."""
        held = k.held
        rnd = self.round_now(k)
        hb = k.standing if k.standing >= 0 else k.bidder
        code = self.standing_code(k)
        self._total = float(self.totals.get(code, self.pack))
        z = self.code_z(held, code) if code else self.model.z(held)
        if k.partners(k.seat, hb):
            zs = 0.0 if hb == k.seat else self.standing_z(k, rnd)
            mean = self.side_points(k, k.seat, self.strengths(k, z, zs, rnd)) + self.own_extra(held, k.seat, code)
            return mean - (DOUBLED_SIGNAL * TOTAL_SD if doubled else 0.0)
        zs = self.standing_z(k, rnd)
        return self.side_points(k, hb, self.strengths(k, z, zs, rnd))

    def standing_code(self, k: Knowledge) -> str:
        """What the standing bid names (the contract's trump once the auction is over; '' unknown)."""
        if k.facts.high_code:
            return k.facts.high_code
        g = self.game
        t = k.trump
        return g.layout.suits[t] if 0 <= t < g.nsuits else ""

    def step_worth(self, k: Knowledge, a: Action, mult: int, step: int) -> bool | None:
        """Whether the step `a` (multiplying the stake by `step`, from `mult`) is worth saying for the seat."""
        bid = k.facts.high if k.facts.high > 0 else k.bid
        mine = k.partners(k.seat, k.standing if k.standing >= 0 else k.bidder)
        mean = self.takers_mean(k, mine and mult > 1)
        now = self.banked_worth(bid, mean, TOTAL_SD, mult)
        then = self.banked_worth(bid, mean, TOTAL_SD, mult * step)
        self._total = self.pack
        stake = (self.rules.failed_fixed + bid) * mult * step
        gain = then - now if mine else now - then
        return gain > DOUBLE_EDGE * stake


def chance_made(mean: float, need: float, sd: float) -> float:
    """The chance that a total normal about `mean` reaches `need`."""
    return phi((mean - need + 0.5) / sd)
