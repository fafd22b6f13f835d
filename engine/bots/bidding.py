"""The heuristic's auction: it bids what its hand is worth under the file's own bands and stakes, and competes while
the hand is worth more than letting the standing bid stand.

Every plain speech is weighed in game points, from the seat's cards and the public auction:
- a bid `b` is worth `p * made + (1 - p) * failed` of b's band (the file's `scoring.bands`, in the round of bidding
  under way), where p is the chance that the side takes the card points b needs (the bid itself, or, where the
  opponents count against a target, just more than what leaves them short of it). The side's card points are taken
  as normal about `total * (seats' share + edge + slope * z + curve * max(z, 0)^2)`, spread `sd * total`: z is the
  hand evaluation's strength of the seat's cards with its best trump, in standard deviations of random hands of
  that size (HandModel.z), and the four numbers per kind of auction were fitted on simulated hands (BID_FIT);
- what the other side's bid says of its bidder's hand (the least strength at which the bid is worth making) lowers
  the seat's estimate by AGAINST per standard deviation, and the seat's own hand lowers the other side's estimate
  the same way;
- passing is worth what the standing contract is worth to the seat's side: nothing with no bid yet; against the
  other side's bid, minus that bid's worth to the other side; beside its own side's bid, that bid's worth with the
  side's points at least PARTNER_SURE spreads above what it needs (the partner bid it);
- the seat bids the bid worth most (a higher band may pay for a jump) when that beats passing by BID_GAIN; else it
  passes (or, obliged to speak, bids the lowest worth most).

A redeal the auction offers (a hand without points) is asked for when the hand is weaker than REDEAL_Z standard
deviations: a new deal is worth nothing to either side, and a weak hand's auction is worth less than that (the
other side bids over it only when that pays them). A declaration offered as a bid is weighed as before (policy.py,
special.py). Plain typed Python, on masks.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from engine.play.actions import Action

if TYPE_CHECKING:
    from engine.bots.policy import ContractPolicy, Knowledge

# (edge, slope per z, curve per max(z, 0)^2, sd), shares of the pack's card points, per kind of auction: the seat
# holding part of its hand or all of it (its own face-down trump card counted), the trump open or laid face down.
# The side's card points lie about total * (seats' share + edge + slope * z + curve * max(z, 0)^2): strong hands
# take more than a straight line says (a trump suit headed by its top cards draws the rest). Fitted by
# benchmarks/bid_calibration.py (seed 404, 300 deals per shipped file, the bidder forced round the table, the rest
# played by heuristic:v1), pooled over the files of each kind (least squares; sd is the residuals').
BID_FIT = (
    (0.0860, 0.0570, 0.0049, 0.2038),   # part of the hand, trump open (297 hands)
    (0.0896, 0.0449, 0.0127, 0.2041),   # part of the hand, trump face down (7,910 hands)
    (0.0543, 0.0465, 0.0090, 0.1815),   # the full hand, trump open (1,200 hands)
    (0.0677, 0.0823, 0.0135, 0.2006),   # the full hand, trump face down (1,496 hands)
)
AGAINST = -0.0429      # the bidding side's share per standard deviation of an opponent's hand (same run: each
#                        opponent's z at its first speech against the forced bidder's side's share, 23,905 pairs)
PARTNER_SURE = 0.5     # a partner's standing bid: the side's points taken this many spreads above what it needs
#                        (set, not fitted: what a bid said freely promises; checked by the duplicate tournaments)
BID_GAIN = 0.0         # game points by which a bid must beat passing
REDEAL_Z = 0.0         # a redeal is asked for with a hand weaker than this (standard deviations)
Z_LOW, Z_HIGH = -3.0, 4.0   # the range searched for the strength a bid implies


def phi(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class AuctionRules:
    """The plain auction of one game's contract policy (bids, passes, a redeal offered in the auction)."""

    def __init__(self, policy: ContractPolicy) -> None:
        self.policy = policy
        self.model = policy.model
        self.game = policy.game

    def fit(self, held: int) -> tuple[float, float, float, float]:
        """BID_FIT's curve for a seat holding `held` cards."""
        g = self.game
        full = held >= g.cards_each
        return BID_FIT[(2 if full else 0) + (1 if g.rules.trump.concealed else 0)]

    def mean_at(self, seat: int, held: int, z: float) -> float:
        """Card points the side of `seat` takes as the bidding side, its hand of `held` cards at strength z."""
        m = self.model
        edge, slope, curve, _ = self.fit(held)
        zp = z if z > 0.0 else 0.0
        return m.total * (m.share[seat] + edge + slope * z + curve * zp * zp)

    def spread(self, held: int) -> float:
        return self.fit(held)[3] * self.model.total

    def implied_z(self, seat: int, held: int, need: float) -> float:
        """The strength at which a bidder's side expects what `need` asks (the least a bid says of its hand)."""
        lo, hi = Z_LOW, Z_HIGH
        if self.mean_at(seat, held, lo) >= need:
            return lo
        if self.mean_at(seat, held, hi) <= need:
            return hi
        for _ in range(30):
            mid = 0.5 * (lo + hi)
            if self.mean_at(seat, held, mid) >= need:
                hi = mid
            else:
                lo = mid
        return hi

    def needs(self, bid: int) -> float:
        """The card points the bidding side must take to make a contract at `bid`."""
        sc = self.game.rules.scoring
        if not sc.counted_by_opponents:
            return float(bid)
        target = sc.fixed_target if sc.fixed_target >= 0 else bid
        if sc.fixed_target >= 0 and sc.target_less_call:
            target -= bid
        return self.model.total - target + 1

    def round_now(self, k: Knowledge) -> int:
        """The round of bidding under way: 2 when the file has a second round and the seat holds its full hand."""
        g = self.game
        return 2 if g.rules.second_auction is not None and k.held.bit_count() >= g.cards_each else 1

    def band(self, bid: int, rnd: int) -> tuple[float, float] | None:
        """(made, failed) of a contract at `bid` in round `rnd` (the other round's band where this has none)."""
        b = self.game.band_for(bid, rnd) or self.game.band_for(bid, 3 - rnd)
        return (float(b.made), float(b.failed)) if b is not None else None

    def worth(self, bid: int, rnd: int, mean: float, sd: float) -> float:
        """Game points a contract at `bid` is worth to its side, its points normal about `mean`."""
        band = self.band(bid, rnd)
        if band is None:
            return -1e9
        p = phi((mean - self.needs(bid) + 0.5) / sd)
        return p * band[0] + (1.0 - p) * band[1]

    def opponents_z(self, k: Knowledge) -> float:
        """What the other side's standing bid says of its bidder's hand: nothing (0) for a bid the rules gave it
        (the first hand's standing 0) or none; else the strength at which its side expects what the bid needs."""
        hb = k.standing
        if hb < 0 or k.partners(hb, k.seat) or k.facts.high <= 0:
            return 0.0
        return max(0.0, self.implied_z(hb, k.held.bit_count(), self.needs(k.facts.high)))

    def pass_value(self, k: Knowledge, z: float, zo: float, mean: float, sd: float, rnd: int) -> float:
        """What the standing bid is worth to the seat's side if the seat passes (the seat's hand at z, the
        standing bidder's, when of the other side, at zo)."""
        hb = k.standing
        if hb < 0:
            return 0.0
        high = k.facts.high
        held = k.held.bit_count()
        if k.partners(hb, k.seat) and not self.game.rules.table.bidder_plays_alone:
            if hb == k.seat:
                return self.worth(high, rnd, mean, sd)
            side = max(mean, self.needs(high) + PARTNER_SURE * sd + mean - self.mean_at(k.seat, held, 0.0))
            return self.worth(high, rnd, side, sd)
        theirs = self.mean_at(hb, held, zo) + AGAINST * z * self.model.total
        return -self.worth(high, rnd, theirs, sd)

    def bid(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        """The plain speech: a redeal, a declaration taken as a bid, the bid worth most, or a pass."""
        m = self.model
        held = k.held
        for a in legal:
            if a.verb == "redeal" and m.z(held) < REDEAL_Z:
                return a
            if a.verb == "declare" and self.policy.declares_in_auction(k, a):
                return a
        code, _ = self.policy.bid_estimate(k)
        bids, passing = self.policy.bid_options(legal, code)
        if not bids:
            for a in legal:
                if a.verb == "pass":
                    return a
            return legal[0]
        z = m.z(held)
        n = held.bit_count()
        zo = self.opponents_z(k)
        mean = self.mean_at(k.seat, n, z) + AGAINST * zo * m.total
        sd = self.spread(n)
        rnd = self.round_now(k)
        best = bids[0]
        best_ev = -1e18
        for a in bids:
            ev = self.worth(m.value_of(a), rnd, mean, sd)
            if ev > best_ev:
                best, best_ev = a, ev
        if passing is None:
            return best
        if best_ev > self.pass_value(k, z, zo, mean, sd, rnd) + BID_GAIN:
            return best
        return passing
