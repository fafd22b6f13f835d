"""Steps between the auction and the first lead: trump choice, doubling, raise, redeal and special contracts."""

from __future__ import annotations

from engine.play.actions import Action
from engine.play.auction import AuctionPhase
from engine.play.base import DECLARE, DOUBLING, POINTLESS, RAISE, TRUMP, UNDECIDED
from engine.play.game import NO_TRUMP


class ContractPhases(AuctionPhase):
    # --- trump --------------------------------------------------------------------------------------
    def _start_trump(self) -> None:
        self.phase = TRUMP
        self.to_act = self.bidder

    def _trump_legal(self) -> list[Action]:
        g = self.game
        p = self.bidder
        t = g.rules.trump
        out: list[Action] = []
        if t.as_card:
            row = g.trump_card_action[p]
            last: Action | None = None
            h = self.hands[p]
            while h:
                low = h & -h
                a = row[low.bit_length() - 1]
                if a is not last:  # a double pack's two copies are one choice (copies are adjacent ids)
                    out.append(a)
                    last = a
                h ^= low
        else:
            out.extend(g.action(p, "trump", s) for s in g.layout.suits)
            if t.no_trumps:
                out.append(g.action(p, "trump", "NT"))
        if t.seventh_card:
            out.append(g.action(p, "trump", "seventh"))
        return out

    def _trump_apply(self, a: Action) -> None:
        g = self.game
        t = g.rules.trump
        p = self.bidder
        self.concealed = t.concealed
        if a.arg == "seventh":
            self.seventh = True
        elif a.arg == "NT":
            self._set_trump(NO_TRUMP)
        elif len(a.arg) == 1:
            self._set_trump(g.layout.parse_suit(a.arg))
        else:
            card = next(c for c in g.code_ids[a.arg] if self.hands[p] >> c & 1)
            self._set_trump(g.suit_of[card])
            if t.concealed:
                self.indicator = card
                self.hands[p] ^= 1 << card
        if not t.concealed and not self.seventh and self.trump >= 0:
            self.exposed_trick = 1
        if g.rules.doubling is not None and not self.rechoosing:
            self._start_doubling()
        else:
            self._next_step()

    def _take_seventh_card(self) -> None:
        """The seventh card dealt to the bidder becomes the indicator as soon as it is dealt."""
        p = self.bidder
        if self.seventh and self.indicator < 0 and len(self.dealt[p]) >= 7 and self.given[p] >= 7:
            card = self.dealt[p][6]
            self.indicator = card
            self._set_trump(self.game.suit_of[card])
            if self.concealed:
                self.hands[p] ^= 1 << card
            else:
                self.indicator = -1
                self.exposed_trick = 1

    # --- doubling -----------------------------------------------------------------------------------
    def _doubling_side(self, by_bidding_team: bool) -> list[int]:
        bt = self.hand_team_of[self.bidder]
        seats = self._seats_from(self.bidder)
        if by_bidding_team:
            return [s for s in seats if self.hand_team_of[s] == bt]
        return [s for s in seats if self.hand_team_of[s] != bt]

    def _step_fits(self, idx: int) -> bool:
        d = self.game.rules.doubling
        assert d is not None
        if idx >= len(d.steps):
            return False
        return not d.cap or self.multiplier * d.steps[idx].multiplier <= d.cap

    def _start_doubling(self) -> None:
        d = self.game.rules.doubling
        assert d is not None
        if 0 <= d.auto_from_bid <= self.bid:
            self.multiplier = d.auto_multiplier
        self.dbl_step = 0
        if not self._step_fits(0):
            self._next_step()
            return
        self.queue = self._doubling_side(d.steps[0].by_bidding_team)
        self.phase = DOUBLING
        self.to_act = self.queue[0]

    def _doubling_legal(self) -> list[Action]:
        g = self.game
        d = g.rules.doubling
        assert d is not None
        p = self.to_act
        out = [g.action(p, "pass"), g.action(p, d.steps[self.dbl_step].name)]
        fs = d.fixed_stake
        # 'C' is the bidder's call (pagat's 29: "the bidder may raise to 6"), not the partner's.
        if (fs is not None and self.doubled and p == self.bidder and d.steps[self.dbl_step].by_bidding_team
                and (not fs.needs_no_score_showing or all(s == g.rules.match.start for s in self.match_scores))):
            out.append(g.action(p, fs.name))
        return out

    def _doubling_apply(self, a: Action) -> None:
        d = self.game.rules.doubling
        assert d is not None
        if a.verb == "pass":
            self.queue.pop(0)
            if self.queue:
                self.to_act = self.queue[0]
                return
        elif d.fixed_stake is not None and a.verb == d.fixed_stake.name:
            self.fixed_stake = d.fixed_stake.value
        else:
            self.multiplier *= d.steps[self.dbl_step].multiplier
            self.doubled = True
            self.dbl_step += 1
            if self._step_fits(self.dbl_step):
                self.queue = self._doubling_side(d.steps[self.dbl_step].by_bidding_team)
                self.to_act = self.queue[0]
                return
        self._next_step()

    # --- raise ---------------------------------------------------------------------------------------
    def _raise_values(self) -> list[int]:
        """Every value a raise may name now (none: nobody can raise any more)."""
        lo = self._raise_lo()
        return [v for v in self.game.bid_values if v >= lo]

    def _raise_lo(self) -> int:
        """The lowest raise allowed now, on the bid step (above the top bid: no raise is possible)."""
        g = self.game
        r = g.rules.raise_
        assert r is not None
        lo = max(r.min, self.bid + g.bid_step)
        return lo + (-(lo - g.bid_min)) % g.bid_step

    def _start_raise(self) -> None:
        r = self.game.rules.raise_
        assert r is not None
        seats: list[int] = []
        for who in r.by:
            if who == "bidder":
                seats.append(self.bidder)
            elif not self.game.bidder_alone:
                team = self.hand_teams[self.hand_team_of[self.bidder]]
                seats.extend(s for s in self._seats_from(self.bidder) if s in team and s != self.bidder)
        if r.others_may_raise:
            seats.extend(s for s in self._seats_from(self.bidder) if s not in seats)
        self.queue = seats
        self.phase = RAISE
        self._ask_next_raise()

    def _ask_next_raise(self) -> None:
        top = self.game.bid_max
        while self.queue and self._raise_lo() > top:
            self.queue.pop(0)
        if self.queue:
            self.to_act = self.queue[0]
        elif self.high_bidder != self.bidder:
            self._hand_over_contract()
        else:
            self._next_step()

    def _hand_over_contract(self) -> None:
        """A player of another team raised highest: they become the bidder and choose a new trump."""
        old = self.bidder
        if self.indicator >= 0 and self.concealed:
            self.hands[old] |= 1 << self.indicator
        self.indicator = -1
        self.seventh = False
        self._set_trump(UNDECIDED)
        self.exposed_trick = 0
        self.bidder = self.high_bidder
        if self.game.bidder_alone:
            self._regroup_for_declarer(self.bidder)
        self.rechoosing = True
        self._start_trump()

    def _raise_legal(self) -> tuple[Action, ...]:
        return self.game.raise_choices(self.to_act, self._raise_lo())

    def _raise_apply(self, a: Action) -> None:
        if a.verb == "raise":
            self.bid = self.target = int(a.arg)
            if self.hand_team_of[a.seat] != self.hand_team_of[self.bidder]:
                self.high_bidder = a.seat  # the contract passes to this player's team when the round ends
            elif self.high_bidder != self.bidder:
                self.high_bidder = self.bidder
        self.queue.pop(0)
        self._ask_next_raise()

    # --- after the full deal: pointless-hand redeal, special contracts --------------------------------
    def _dealt_mask(self, seat: int) -> int:
        return self.received[seat]

    def _start_pointless(self) -> bool:
        """Ask each player with a pointless hand whether to annul; False when nobody is asked."""
        pm = self.game.point_mask
        self.queue = [s for s in self._seats_from(self.first) if not self._dealt_mask(s) & pm]
        if not self.queue:
            return False
        self.phase = POINTLESS
        self.to_act = self.queue[0]
        return True

    def _pointless_apply(self, a: Action) -> None:
        if a.verb == "redeal":
            self._annul(f"seat {a.seat} showed a pointless hand")
            return
        self.queue.pop(0)
        if self.queue:
            self.to_act = self.queue[0]
        else:
            self._next_step()

    def _eligible_contracts(self, seat: int) -> list[str]:
        return [c.name for c in self.game.rules.contracts if c.anyone or seat == self.bidder]

    def _start_declarations(self) -> bool:
        self.queue = [s for s in self._seats_from(self.first) if self._eligible_contracts(s)]
        if not self.queue:
            return False
        self.phase = DECLARE
        self.to_act = self.queue[0]
        return True

    def _declare_legal(self) -> list[Action]:
        g = self.game
        p = self.to_act
        return [g.action(p, "pass")] + [g.action(p, "declare", n) for n in self._eligible_contracts(p)]

    def _declare_apply(self, a: Action) -> None:
        if a.verb == "pass":
            self.queue.pop(0)
            if self.queue:
                self.to_act = self.queue[0]
            else:
                self._next_step()
            return
        g = self.game
        c = g.contracts[a.arg]
        p = a.seat
        self.special = c
        self.declarer = p
        if g.bidder_alone or p != self.bidder:
            self._regroup_for_declarer(p)
        self.bidder = p
        if c.partner_sits_out:
            team = self.hand_teams[self.hand_team_of[p]]
            for s in team:
                if s != p:
                    self.sitting_out |= 1 << s
        if c.no_trumps:
            if self.indicator >= 0 and self.concealed:
                self.hands[self.indicator_owner] |= 1 << self.indicator
            self._set_trump(NO_TRUMP)
            self.indicator = -1
            self.concealed = False
            self.exposed_trick = 0
        self._next_step()

    def _regroup_for_declarer(self, declarer: int) -> None:
        """A declarer from another team (or at a lone-bidder table) plays with their own team."""
        g = self.game
        if g.bidder_alone:
            others = [s for s in range(self.n) if s != declarer]
            self.hand_teams = sorted([[declarer], others], key=lambda t: t[0])
            self.hand_team_of = [self.hand_teams.index([declarer]) if s == declarer
                                 else self.hand_teams.index(others) for s in range(self.n)]
