"""The heuristic's auction: it bids what its hand is worth under the file's own bands and stakes, and competes while
the hand is worth more than letting the standing bid stand.

Every plain speech is weighed in game points, from the seat's cards and the public auction:
- a bid `b` is worth `p * made + (1 - p) * failed` of b's band (the file's `scoring.bands`, the round of bidding it
  falls in), where p is the chance that the side takes the card points b needs (the bid itself, or where the
  opponents count against a target, just more than what leaves them short of it). The side's card points are taken
  as normal about `total * (seats' share + BID_EDGE + BID_Z * z)` with spread `BID_SD * total`: z is the hand
  evaluation's strength of the seat's cards with its best trump, in standard deviations of random hands of that
  size (HandModel.z), and the three constants per kind of auction were fitted on simulated hands
  (benchmarks/bid_calibration.py, see BID_FIT);
- passing is worth what the standing contract is worth to the seat's side: nothing with no bid yet; against the
  other side's bid, minus that contract's expected score at its chance of being made as the seat sees it
  (`SpecialRules.other_chances`, fitted on simulated hands for doubling); beside its own side's bid, that bid's
  worth with the side's points taken at least PARTNER_SURE spreads above what the bid needs (the bidder said so);
- the seat bids the bid worth most (a higher band may pay for a jump) when that beats passing by BID_GAIN;
  otherwise it passes (or, obliged to bid, bids the lowest).

A redeal the auction offers (a pointless hand) is asked for when the hand is weaker than average (z below
REDEAL_Z): a new deal is worth nothing to either side, and a weak hand's auction is worth less than nothing (the
other side bids over it only when that pays them). A declaration offered as a bid is weighed as before (policy.py,
special.py). Plain typed Python, on masks.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from engine.play.actions import Action

if TYPE_CHECKING:
    from engine.bots.policy import ContractPolicy, Knowledge

# (edge, slope per z, spread), shares of the pack's card points, per kind of auction: the seat holding part of its
# hand or all of it, the trump open or laid face down. Fitted by benchmarks/bid_calibration.py (seed 404, 300 deals
# per shipped file, the bidder forced round the table, the rest played by heuristic:v1), pooled over the files of
# each kind: the least-squares line of the side's share of the card points (less its seats' share) on z.
BID_FIT = (
    (0.06, 0.07, 0.13),    # part of the hand, trump open
    (0.06, 0.07, 0.13),    # part of the hand, trump face down
    (0.09, 0.084, 0.13),   # the full hand, trump open
    (0.09, 0.084, 0.13),   # the full hand, trump face down
)
PARTNER_SURE = 0.5     # a partner's standing bid: the side's points taken this many spreads above what it needs
BID_GAIN = 0.0         # game points by which a bid must beat passing
REDEAL_Z = 0.0         # a redeal is asked for with a hand weaker than this (standard deviations)


def phi(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class AuctionRules:
    """The plain auction of one game's contract policy (bids, passes, a redeal offered in the auction)."""

    def __init__(self, policy: ContractPolicy) -> None:
        self.policy = policy
        self.model = policy.model
        self.game = policy.game

    def fit(self, held: int) -> tuple[float, float, float]:
        """BID_FIT's line for a seat holding `held` cards."""
        g = self.game
        full = held >= g.cards_each
        return BID_FIT[(2 if full else 0) + (1 if g.rules.trump.concealed else 0)]

    def side_mean(self, k: Knowledge, z: float) -> tuple[float, float]:
        """(mean, spread) of the card points the seat's side takes as the bidding side, the seat's hand at z."""
        m = self.model
        edge, slope, sd = self.fit(k.held.bit_count())
        return m.total * (m.share[k.seat] + edge + slope * z), sd * m.total

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

    def worth(self, bid: int, rnd: int, mean: float, sd: float) -> float:
        """Game points a contract at `bid` is worth to its side, its points normal about `mean`."""
        band = self.game.band_for(bid, rnd)
        if band is None:
            band = self.game.band_for(bid, 3 - rnd)
        if band is None:
            return -1e9
        p = phi((mean - self.needs(bid) + 0.5) / sd)
        return p * band.made + (1.0 - p) * band.failed

    def pass_value(self, k: Knowledge, mean: float, sd: float, rnd: int) -> float:
        """What the standing bid is worth to the seat's side if the seat passes."""
        hb = k.standing
        if hb < 0:
            return 0.0
        high = k.facts.high
        band = self.game.band_for(high, rnd) or self.game.band_for(high, 3 - rnd)
        if band is None:
            return 0.0
        if k.partners(hb, k.seat) and not self.game.rules.table.bidder_plays_alone:
            avg = self.side_mean(k, 0.0)[0]
            side = max(mean, self.needs(high) + PARTNER_SURE * sd + mean - avg)
            return self.worth(high, rnd, side, sd)
        q = self.policy.special.other_chances(k, high)[0]
        return -(q * band.made + (1.0 - q) * band.failed)

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
        mean, sd = self.side_mean(k, z)
        rnd = self.round_now(k)
        best = bids[0]
        best_ev = -1e18
        for a in bids:
            ev = self.worth(m.value_of(a), rnd, mean, sd)
            if ev > best_ev:
                best, best_ev = a, ev
        if passing is None:
            return best
        if best_ev > self.pass_value(k, mean, sd, rnd) + BID_GAIN:
            return best
        return passing
