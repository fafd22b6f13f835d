"""The auction: who may bid what, when it ends, and what an all-pass means."""

from __future__ import annotations

from engine.play.actions import Action
from engine.play.base import StateData
from engine.play.game import NO_TRUMP
from engine.play.rules import ONE_SUIT_FIRST_HAND, ONE_SUIT_NOBODY


class AuctionPhase(StateData):
    def _start_auction(self) -> None:
        g = self.game
        a = g.rules.auction
        if a.redeal_automatic:
            for i in range(a.redeal_seats):
                seat = (self.first + i) % self.n
                if not self.hands[seat] & g.point_mask:
                    self._annul(f"seat {seat}'s first cards carry no points")
                    return
        self.to_act = self.first

    # --- who may do what ------------------------------------------------------------------------
    def _dealer_forced(self, seat: int) -> bool:
        return (self.game.rules.auction.dealer_must_bid and self.high_bidder < 0
                and seat == self.dealer and self.passes >= self.n - 1)

    def _min_bid(self, seat: int) -> int:
        g = self.game
        a = g.rules.auction
        if self.high_bidder < 0:
            lo = a.bid_min
        elif a.hold and (seat - self.first) % self.n < (self.high_bidder - self.first) % self.n:
            lo = self.high  # an earlier speaker may hold (equal) a later bid
        else:
            lo = self.high + a.bid_step
        po = a.partner_overcall
        if (po is not None and self.high_bidder >= 0 and self.high_bidder != seat
                and g.team_of[self.high_bidder] == g.team_of[seat]
                and (self.last_was_pass or not po.only_after_a_pass)):
            if po.forbidden:
                return a.bid_max + a.bid_step
            lo = max(lo, po.min)
        if a.second_bid_min >= 0 and self.bids_made[seat]:
            lo = max(lo, a.second_bid_min)
        return lo

    def _one_suit_barred(self, seat: int) -> bool:
        rule = self.game.rules.auction.one_suit_barred
        if rule == ONE_SUIT_NOBODY or (rule == ONE_SUIT_FIRST_HAND and seat != self.first):
            return False
        held = self.hands[seat]
        return sum(1 for m in self.game.suit_masks if held & m) == 1

    def _may_demand_redeal(self, seat: int) -> bool:
        a = self.game.rules.auction
        return (not a.redeal_automatic and not self.spoke[seat]
                and (seat - self.first) % self.n < a.redeal_seats and not self.hands[seat] & self.game.point_mask)

    def _auction_legal(self) -> tuple[Action, ...]:
        g = self.game
        a = g.rules.auction
        p = self.to_act
        redeal = self._may_demand_redeal(p)
        if self._dealer_forced(p):
            lo = hi = a.forced_bid
            may_pass = False
        else:
            lo = self._min_bid(p)
            lo += (-(lo - a.bid_min)) % a.bid_step
            hi = a.bid_max
            if self._one_suit_barred(p) or lo > hi:
                lo, hi = 0, -1
            must_open = a.first_hand_must_bid and p == self.first and not self.spoke[p]
            may_pass = not (must_open and lo <= hi)
        return g.auction_choices(p, redeal, may_pass, lo, hi)

    # --- applying ---------------------------------------------------------------------------------
    def _auction_apply(self, a: Action) -> None:
        p = a.seat
        g = self.game
        self.spoke[p] = True
        if a.verb == "redeal":
            self._annul(f"seat {p} demanded a redeal with a pointless hand")
            return
        if a.verb == "pass":
            self.passed[p] = True
            self.passes += 1
            self.last_was_pass = True
            if self._auction_finished():
                return
        else:
            forced = self._dealer_forced(p)
            arg = a.arg
            space = arg.find(" ")     # "16" or "30 NT"
            self.high = int(arg if space < 0 else arg[:space])
            self.high_suit = "" if space < 0 else arg[space + 1:]
            self.high_bidder = p
            self.passes = 0
            self.bids_made[p] += 1
            self.last_was_pass = False
            if forced or (self.high >= g.rules.auction.bid_max and g.rules.auction.ends_at_max_bid):
                self._end_auction()
                return
        nxt = (p + 1) % self.n
        if g.rules.auction.pass_is_final:
            while self.passed[nxt]:
                nxt = (nxt + 1) % self.n
        self.to_act = nxt

    def _auction_finished(self) -> bool:
        """After a pass: end the auction if everyone else has passed (or annul on an all-pass)."""
        if self.game.rules.auction.pass_is_final:
            others_out = True
            for s in range(self.n):
                if s != self.high_bidder and not self.passed[s]:
                    others_out = False
                    break
        else:
            others_out = self.passes >= (self.n - 1 if self.high_bidder >= 0 else self.n)
        if not others_out:
            return False
        if self.high_bidder >= 0:
            self._end_auction()
        else:
            self._annul("every player passed")
        return True

    def _end_auction(self) -> None:
        g = self.game
        self.bidder = self.high_bidder
        self.bid = self.target = self.high
        if g.rules.table.bidder_plays_alone:
            others = [s for s in range(self.n) if s != self.bidder]
            self.hand_teams = sorted([[self.bidder], others], key=lambda t: t[0])
            self.hand_team_of = [self.hand_teams.index([self.bidder]) if s == self.bidder
                                 else self.hand_teams.index(others) for s in range(self.n)]
            self.team_points = [0] * len(self.hand_teams)
        if g.rules.trump.in_bid:
            self._set_trump(NO_TRUMP if self.high_suit == "NT" else g.layout.parse_suit(self.high_suit))
            self.concealed = False
            self.exposed_trick = 1 if self.trump >= 0 else 0
        self._next_step()
