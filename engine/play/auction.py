"""The auction: who may bid what, when it ends, and what an all-pass means.

Every round of bidding is this one mechanism: the auction on the first cards (round 1) and the round after the
full deal (round 2: the `second_auction` section, or the `raise` section, which is such a round spoken with the
verb `raise`). A round ends when every player other than the standing bidder has passed in a row since the last
bid or doubling step (a round of one turn each: when everyone has spoken). Speeches other than bids and passes:
`partner` (the partner speaks in the asker's place, or hands the speech back once), the doubling steps of a
doubling window inside the auction, and the `change` marker of a holder who lays a new trump card.
"""

from __future__ import annotations

from typing import Final

from engine.play.actions import Action
from engine.play.base import ANNUL_ALL_PASS, ANNUL_REDEAL, AUCTION, RAISE, UNDECIDED, StateData
from engine.play.rules import (
    ONE_SUIT_FIRST_HAND,
    ONE_SUIT_NOBODY,
    REFOLD_WHEN_BIDDING,
    REFOLD_WHEN_MARKED,
    ROLE_HOLDER,
    ROLE_PARTNERS,
    AuctionRules,
)
from engine.play.tables import BidTable
from engine.play.trump_modes import set_named_trump

NO_BID: Final = 1 << 30   # a minimum no bid reaches: the player may not bid


class AuctionPhase(StateData):
    @property
    def _round_rules(self) -> AuctionRules:
        return self.arules

    @property
    def _table(self) -> BidTable:
        return self.atable

    def _start_auction(self) -> None:
        g = self.game
        a = g.rules.auction
        self.round = self.contract_round = 1
        self.arules = a
        self.atable = g.rounds[0]
        self.phase = AUCTION
        if a.redeal_automatic:
            for i in range(a.redeal_seats):
                seat = (self.first + i) % self.n
                if self._weak_first_cards(seat):
                    self._annul(f"seat {seat}'s first cards carry {self._weak_words()}", ANNUL_REDEAL)
                    return
        if a.default_bidder:   # the first hand holds a standing bid of 0
            self.high_bidder = self.first
        self.to_act = self.first

    def _start_second_auction(self) -> None:
        """The round after the full deal: the contract holder holds the standing bid and speaks first."""
        g = self.game
        a = g.rules.second_auction
        assert a is not None
        self.round = 2
        self.arules = a
        self.atable = g.rounds[1]
        self.phase = RAISE if a.verb == "raise" else AUCTION
        self.high, self.high_bidder = self.bid, self.bidder
        self.passes = self.round_bids = self.passers = 0
        self.last_was_pass = False
        self.lapses = 0
        self.refold = False
        # (bids made, passes and speeches of round 1 count for nothing here: no later round reads them)
        if a.once:
            self.queue = self._speakers(a.speakers)
            self._ask_next_in_turn()
        else:
            self.to_act = self.bidder

    def _speakers(self, roles: tuple[int, ...]) -> list[int]:
        """The seats of a round of one turn each, in order: by role, each seat once, round the table from the
        holder (kept per holder: the same few orders recur)."""
        cache = self.atable.speakers_of
        key = self.bidder
        found = cache.get(key)
        if found is not None:
            return list(found)
        order = self._seats_from(self.bidder)
        team = self.hand_team_of[self.bidder]
        out: list[int] = []
        alone = self.game.rules.table.bidder_plays_alone
        for role in roles:
            for s in order:
                if s in out:
                    continue
                if role == ROLE_HOLDER:
                    wanted = s == self.bidder
                elif role == ROLE_PARTNERS:
                    wanted = s != self.bidder and self.hand_team_of[s] == team and not alone
                else:   # ROLE_OTHERS, ROLE_EVERYONE: everyone not listed yet
                    wanted = True
                if wanted:
                    out.append(s)
        cache[key] = tuple(out)
        return out

    # --- who may do what ------------------------------------------------------------------------
    def _weak_first_cards(self, seat: int) -> bool:
        """The seat's cards total no more than the redeal threshold (no points at all, by default)."""
        g = self.game
        limit = g.rules.auction.redeal_max_points
        held = self.hands[seat]
        if not limit:
            return not held & g.point_mask
        return self._points_of(held) <= limit

    def _points_of(self, cards: int) -> int:
        points = self.game.points
        total = 0
        while cards:
            low = cards & -cards
            total += points[low.bit_length() - 1]
            cards ^= low
        return total

    def _weak_words(self) -> str:
        limit = self.game.rules.auction.redeal_max_points
        return "no points" if not limit else f"at most {limit} points"

    def _dealer_forced(self, seat: int) -> bool:
        return (self.arules.dealer_must_bid and self.high_bidder < 0 and seat == self.dealer
                and self.passes >= self.n - 1)

    def _min_bid(self, seat: int) -> int:
        """The lowest value `seat` may bid now (NO_BID: none)."""
        g = self.game
        a = self.arules
        hb = self.high_bidder
        if hb < 0:
            lo = a.bid_min
        else:
            if (hb == seat and not a.raise_own) or (self.doubled and g.doubling_closes):
                return NO_BID   # not over his own standing bid; no bid after a double that closes the auction
            if a.only_opponents and self.hand_team_of[hb] == self.hand_team_of[seat]:
                return NO_BID
            if a.hold and (seat - self.first) % self.n < (hb - self.first) % self.n:
                lo = self.high  # an earlier speaker may hold (equal) a later bid
            else:
                lo = self.high + 1
        po = a.partner_overcall
        if (po is not None and hb >= 0 and hb != seat and g.team_of[hb] == g.team_of[seat]
                and (self.last_was_pass or not po.only_after_a_pass)):
            if po.forbidden:
                return NO_BID
            lo = max(lo, po.min)
        if a.second_bid_min >= 0 and self.bids_made[seat]:
            lo = max(lo, a.second_bid_min)
        if a.after_first_speech_min >= 0 and self.spoke[seat]:
            lo = max(lo, a.after_first_speech_min)
        return lo

    def _one_suit_barred(self, seat: int) -> bool:
        rule = self.game.rules.auction.one_suit_barred
        if rule == ONE_SUIT_NOBODY or self.round != 1 or (rule == ONE_SUIT_FIRST_HAND and seat != self.first):
            return False
        held = self.hands[seat]
        return sum(1 for m in self.game.suit_masks if held & m) == 1

    def _may_demand_redeal(self, seat: int) -> bool:
        a = self.game.rules.auction
        return (not self.spoke[seat] and self.round == 1 and not a.redeal_automatic and self.asker < 0
                and (seat - self.first) % self.n < a.redeal_seats and self._weak_first_cards(seat))

    def _bid_span(self, p: int) -> tuple[int, int]:
        """The indexes (in the round's bids) of the lowest and highest bid `p` may make (lo > hi: none)."""
        a = self.arules
        table = self.atable
        if self._dealer_forced(p):
            i = table.index_at_least(a.forced_bid)
            return i, i
        if table.simple:   # the next value above the standing bid
            count = table.count
            if self.high_bidder < 0:
                return 0, count - 1
            at_least = table.at_least
            v = self.high + 1
            lo = at_least[v] if v < len(at_least) else count
            return (lo, count - 1) if lo < count else (1, 0)
        lo_value = self._min_bid(p)
        if lo_value >= NO_BID or self._one_suit_barred(p):
            return 1, 0
        lo = table.index_at_least(lo_value)
        if lo >= table.count:
            return 1, 0
        return lo, (lo if a.exact_step else table.count - 1)

    def _auction_legal(self) -> tuple[Action, ...]:
        g = self.game
        a = self.arules
        table = self.atable
        p = self.to_act
        if table.simple and not a.dealer_must_bid:   # the common case, inlined: bids above the standing one
            count = table.count
            hi = count - 1
            if self.high_bidder < 0:
                lo = 0
            else:
                at_least = table.at_least
                v = self.high + 1
                lo = at_least[v] if v < len(at_least) else count
                if lo >= count:
                    lo, hi = 1, 0
        else:
            lo, hi = self._bid_span(p)
        if a.dealer_must_bid and self._dealer_forced(p):
            may_pass = False
        else:
            may_pass = not (a.first_hand_must_bid and p == self.first and not self.spoke[p] and lo <= hi)
        redeal = a.redeal_seats > 0 and self._may_demand_redeal(p)
        base = table.choices(p, redeal, may_pass, lo, hi)
        if not table.speeches:
            return base
        extra: list[Action] = []
        if a.partner_speech and self._may_ask_partner(p):
            extra.append(g.action(p, "partner"))
        if g.auction_doubling:
            step = self._auction_double(p)
            if step:
                extra.append(g.action(p, step))
        if self.round == 2 and a.holder_refolds == REFOLD_WHEN_MARKED and p == self.bidder:
            # the holder may say, at any of his speeches, that he will lay a new trump card if he stays holder
            if may_pass:
                extra.append(g.action(p, "pass", "change"))
            extra.extend(g.action(p, b.verb, b.arg + " change") for b in base if b.verb == a.verb)
        if g.declarations_in_auction:
            extra.extend(self._declarations_as_bids(p))
        return base + tuple(extra) if extra else base

    # --- hooks for special contracts offered as speeches (`declare NAME`), filled in by the declarations -------
    def _declarations_as_bids(self, seat: int) -> list[Action]:
        """The `declare NAME` speeches `seat` may make at this turn of the auction (Game.declarations_in_auction
        tells whether any can be). A declaration that stands is the standing bid: `high_bidder` is its declarer,
        `_min_bid` must then leave no number to bid over it, and `_end_round()` ends the round at once."""
        return []

    def _declare_in_auction(self, a: Action) -> None:
        """Apply a `declare NAME` speech of the auction (see `_declarations_as_bids`)."""
        raise NotImplementedError

    def _may_ask_partner(self, p: int) -> bool:
        """`partner`: at one's own turn, or once to hand the speech back."""
        if self.asker >= 0:
            return self.arules.hand_back and not self.handed_back and p != self.asker
        return self._partner_of(p) >= 0

    def _partner_of(self, seat: int) -> int:
        """The seat's one partner (-1: none, or more than one)."""
        if self.game.rules.table.bidder_plays_alone:
            return -1
        team = self.game.rules.table.teams[self.game.team_of[seat]]
        return team[1] if len(team) == 2 and team[0] == seat else team[0] if len(team) == 2 else -1

    def _auction_double(self, p: int) -> str:
        """The doubling step `p` may say now in the auction ('' for none): the next step of the standing bid, said
        by a player of its side at his turn."""
        d = self.game.rules.doubling
        assert d is not None
        hb = self.high_bidder
        if hb < 0 or not self.round_bids or self.dbl_step >= len(d.steps) or self.asker >= 0:
            return ""
        st = d.steps[self.dbl_step]
        if (self.hand_team_of[p] == self.hand_team_of[hb]) != st.by_bidding_team:
            return ""
        if d.cap and self.multiplier * st.multiplier > d.cap:
            return ""
        return st.name

    # --- applying ---------------------------------------------------------------------------------
    def _auction_apply(self, a: Action) -> None:
        p = a.seat
        verb = a.verb
        rules = self.arules
        if verb != "pass" and verb != rules.verb and self._other_speech(a):
            return
        owner = p   # whose turn this speech is
        if self.asker >= 0:
            # the speech of both: the partner's own next turn lapses (he spoke, or handed the speech back)
            owner = self.asker
            partner = self._partner_of(owner)
            self.lapses |= 1 << partner
            self.spoke[partner] = True
            self.spoke[owner] = True   # the first speech of both: no redeal, no first-speech bid after it
            self.asker = -1
            self.handed_back = False
        self.spoke[p] = True
        if verb == "pass":
            if a.arg:
                self.refold = True       # `pass change`
            if rules.pass_is_final:
                self.passed[owner] = True
            if owner != self.high_bidder and not self.passers >> owner & 1:
                self.passers |= 1 << owner   # each player counts once: a lapsed turn may bring him round again
                self.passes += 1
            self.last_was_pass = True
        elif verb == rules.verb:
            forced = rules.dealer_must_bid and self._dealer_forced(p)
            value, suit, change = self.game.bid_terms(a.arg)
            self.high = value
            self.high_suit = suit
            self.high_bidder = p
            if self.round == 2:
                self._second_round_bid(p, change)
            self.passes = self.passers = 0
            self.bids_made[p] = self.bids_made[p] + 1   # (not +=: see State._deal)
            self.round_bids += 1
            self.last_was_pass = False
            if self.game.auction_doubling:
                self.multiplier, self.added, self.dbl_step, self.doubled = 1, 0, 0, False  # a bid cancels
            if forced or (rules.ends_at_max_bid and self.high >= rules.top):
                self._end_round()
                return
        else:   # a doubling step of the standing bid
            self._apply_double_step()
            self.passes = self.passers = 0
            if self.game.doubling_closes:
                self._close_after_double(owner)
                return
        if verb == "pass" and self.doubled and self.game.doubling_closes:
            self._closed_pass()
            return
        self._next_speaker(owner)

    def _close_after_double(self, owner: int) -> None:
        """doubling.closes_auction: after a step nobody bids; the players entitled to the next step (if any is
        left) speak once each, in turn from `owner`; the auction ends with that step or their passes."""
        hb = self.high_bidder
        step = self._auction_double(hb) or self._auction_double((hb + 1) % self.n)
        d = self.game.rules.doubling
        assert d is not None
        if not step:
            self.queue = []
        else:
            by_bidders = d.steps[self.dbl_step].by_bidding_team
            team = self.hand_team_of[hb]
            self.queue = [s for s in self._seats_from((owner + 1) % self.n)
                          if (self.hand_team_of[s] == team) == by_bidders]
        if self.queue:
            self.to_act = self.queue[0]
        else:
            self._end_round()

    def _closed_pass(self) -> None:
        if self.queue:
            self.queue.pop(0)
        if self.queue:
            self.to_act = self.queue[0]
        else:
            self._end_round()

    def _other_speech(self, a: Action) -> bool:
        """`partner`, `redeal` and `declare NAME` (True: applied; the turn's speech is not over or the hand is);
        a doubling step is applied with the bids and passes."""
        p = a.seat
        verb = a.verb
        if verb == "partner":
            if self.asker < 0:
                self.asker = p
                self.to_act = self._partner_of(p)
            else:
                self.handed_back = True
                self.to_act = self.asker
            return True
        if verb == "redeal":
            self.spoke[p] = True
            limit = self.arules.redeal_max_points
            what = "a pointless hand" if not limit else f"at most {limit} points in the first cards"
            self._annul(f"seat {p} demanded a redeal with {what}", ANNUL_REDEAL)
            return True
        if verb == "declare":
            self._declare_in_auction(a)
            return True
        return False

    def _second_round_bid(self, p: int, marked: bool) -> None:
        """A bid of a later round: the contract's value moves at once; who will hold it, and whether the holder
        lays a new trump card."""
        rules = self.arules
        if marked or (p == self.bidder and rules.holder_refolds == REFOLD_WHEN_BIDDING):
            self.refold = True
        if rules.team_keeps_holder and self.hand_team_of[p] == self.hand_team_of[self.bidder]:
            self.high_bidder = self.bidder   # a raise by the holder's own side keeps the holder
        self._set_bid(self.high)

    def _apply_double_step(self) -> None:
        d = self.game.rules.doubling
        assert d is not None
        st = d.steps[self.dbl_step]
        self.multiplier *= st.multiplier
        self.added += st.adds
        self.doubled = True
        self.dbl_step += 1

    def _next_speaker(self, owner: int) -> None:
        """After `owner`'s turn: end the round, or give the turn to the next speaker."""
        rules = self.arules
        if rules.once:
            self.queue.pop(0)
            self._ask_next_in_turn()
            return
        n = self.n
        if (self.passes >= n - 1 or rules.pass_is_final) and self._round_over():
            return
        nxt = owner + 1
        if nxt == n:
            nxt = 0
        if not (self.lapses or rules.pass_is_final or rules.partner_speech):   # common: the next seat speaks
            self.to_act = nxt
            return
        final = rules.pass_is_final
        for _ in range(2 * n):
            if final and self.passed[nxt]:
                nxt = (nxt + 1) % n
                continue
            if self.lapses >> nxt & 1:   # he spoke for his partner: this turn lapses (neither a bid nor a pass)
                self.lapses ^= 1 << nxt
                nxt = (nxt + 1) % n
                continue
            if nxt == self.high_bidder and rules.partner_speech and not self.game.auction_doubling:
                nxt = (nxt + 1) % n   # a lapse brought the turn round to the holder: he is passed over
                continue
            break
        self.to_act = nxt

    def _ask_next_in_turn(self) -> None:
        """A round of one turn each: the next speaker in the queue (a lapsed turn is dropped)."""
        q = self.queue
        rules = self.arules
        while q and (self.lapses >> q[0] & 1 or (rules.ask_only_if_able and self._cannot_bid(q[0]))):
            self.lapses &= ~(1 << q[0])
            q.pop(0)
        if q:
            self.to_act = q[0]
        else:
            self._end_round()

    def _cannot_bid(self, seat: int) -> bool:
        lo, hi = self._bid_span(seat)
        return lo > hi

    def _round_over(self) -> bool:
        """End the round if everyone else has passed (or annul on an all-pass)."""
        if self.arules.pass_is_final:
            others_out = all(self.passed[s] for s in range(self.n) if s != self.high_bidder)
        else:
            others_out = self.passes >= (self.n - 1 if self.high_bidder >= 0 else self.n)
        if not others_out:
            return False
        if self.high_bidder >= 0:
            self._end_round()
        else:
            self._annul("every player passed", ANNUL_ALL_PASS)
        return True

    def _end_round(self) -> None:
        if self.round == 2:
            self._end_second_auction()
        else:
            self._end_auction()

    def _end_auction(self) -> None:
        g = self.game
        self.bidder = self.high_bidder
        self._set_bid(self.high)
        if g.rules.table.bidder_plays_alone:
            self._regroup_for_declarer(self.bidder)
            self.team_points = [0] * len(self.hand_teams)
        if g.rules.trump.in_bid:
            set_named_trump(self, self.high_suit)
            self.concealed = False
            self.exposed_trick = 1 if self.trump >= 0 else 0
        self._next_step()

    def _end_second_auction(self) -> None:
        if self.round_bids:
            self.contract_round = 2
        if self.high_bidder != self.bidder or self.refold:
            self._hand_over_contract(self.high_bidder)
        else:
            self._next_step()

    def _hand_over_contract(self, holder: int) -> None:
        """The holder of the top bid takes the trump step again: the trump card laid so far returns to its owner's
        hand and the holder lays one from his full hand."""
        if self.indicator >= 0 and self.concealed:
            self.hands[self.folder] |= 1 << self.indicator
        self.indicator = -1
        self.seventh = False
        self._set_trump(UNDECIDED)
        self.exposed_trick = 0
        self.bidder = holder
        if self.game.rules.table.bidder_plays_alone:
            self._regroup_for_declarer(holder)
        self.rechoosing = True
        self._start_trump()

    # Implemented by the contract steps; declared here so this module can be type-checked on its own.
    def _regroup_for_declarer(self, declarer: int) -> None:
        raise NotImplementedError

    def _start_trump(self) -> None:
        raise NotImplementedError
