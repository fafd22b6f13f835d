"""Steps between the auction and the first lead: trump choice, doubling, redeal and special contracts (the
declarations of every window: after the full deal, in the first auction, before a trick). (The raise
and the second auction are rounds of the auction: engine/play/auction.py.)"""

from __future__ import annotations

from engine.play.actions import Action
from engine.play.auction import end_round, points_in
from engine.play.base import ANNUL_REDEAL, DECLARE, DOUBLING, POINTLESS, TRUMP, UNDECIDED, StateData
from engine.play.rules import (
    DECLARE_AFTER_DEAL,
    DECLARE_IN_AUCTION,
    DECLARE_IN_SECOND_AUCTION,
    SEVENTH_CARD,
    SEVENTH_CARD_INDEX,
    SWEEP_ANY,
    SWEEP_REQUIRED,
    WINDOW_AFTER_TRUMP,
    ContractRules,
)
from engine.play.sure_sweep import is_sure_sweep
from engine.play.tables import NO_TRUMP
from engine.play.trump_modes import set_named_trump


class ContractPhases(StateData):
    # --- trump --------------------------------------------------------------------------------------
    def _start_trump(self) -> None:
        self.phase = TRUMP
        self.to_act = self.bidder

    def _may_redeal_at_trump(self) -> bool:
        """trump.may_redeal: the bidder whose cards total little may ask for a new deal instead (not when the trump
        is chosen again after a later round of bidding)."""
        limit = self.game.rules.trump.redeal_max_points
        return limit >= 0 and not self.rechoosing and points_in(self, self.hands[self.bidder]) <= limit

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
            out.extend(g.action(p, "trump", name) for name in g.mode_names)
        if t.seventh_card:
            out.append(g.action(p, "trump", "seventh"))
        if t.last_card and not self.rechoosing and self._may_take_last_card(p):
            out.append(g.action(p, "trump", "last"))
        if t.redeal_max_points >= 0 and self._may_redeal_at_trump():
            out.append(g.action(p, "redeal"))
        c = g.rules.concede
        if c is not None and (c.after_second_auction if self.rechoosing else c.after_first_auction):
            out.append(g.action(p, "concede"))
        return out

    def _trump_apply(self, a: Action) -> None:
        g = self.game
        t = g.rules.trump
        p = self.bidder
        if a.verb == "redeal":
            self._annul(f"seat {p} asked for a new deal with at most {t.redeal_max_points} points instead of "
                        "choosing the trump", ANNUL_REDEAL)
            return
        if a.verb == "concede":
            self._concede()
            return
        self.folder = p
        self.concealed = t.concealed
        if a.arg == "seventh":
            self.seventh = True
        elif a.arg == "last":
            self.last_card = True
            self._take_last_card()
        elif a.arg == "NT":
            self._set_trump(NO_TRUMP)
        elif len(a.arg) == 1:
            self._set_trump(g.layout.parse_suit(a.arg))
        elif a.arg in g.mode_names:
            set_named_trump(self, a.arg)
        else:
            card = -1
            for c in g.code_ids[a.arg]:     # the copy the bidder holds (a loop: no generator on the hot path)
                if self.hands[p] >> c & 1:
                    card = c
                    break
            assert card >= 0, "a legal trump card is one the bidder holds"
            self._set_trump(g.suit_of[card])
            if t.concealed:
                self.indicator = card
                self.hands[p] ^= 1 << card
        if not t.concealed and not self.seventh and not self.last_card and self.trump >= 0:
            self.exposed_trick = 1
        if self.special is not None and self.special.open_trump and self.concealed:
            self._open_trump()          # a contract played open from the start: the fold returns at once
            self.open_duty = True
        d = g.rules.doubling
        if not (d is not None and d.window == WINDOW_AFTER_TRUMP and not self.rechoosing and self._start_doubling()):
            self._next_step()

    def _take_seventh_card(self) -> None:
        """The seventh card dealt to the bidder becomes the indicator as soon as it is dealt."""
        p = self.bidder
        if (self.seventh and self.indicator < 0 and len(self.dealt[p]) >= SEVENTH_CARD
                and self.given[p] >= SEVENTH_CARD):
            card = self.dealt[p][SEVENTH_CARD_INDEX]
            self.indicator = card
            self._set_trump(self.game.suit_of[card])
            if self.concealed:
                self.hands[p] ^= 1 << card
            else:
                self.indicator = -1
                self.exposed_trick = 1

    def _may_take_last_card(self, p: int) -> bool:
        """trump.last_card: offered, where the rule says so, only when the cards held are of different suits."""
        if not self.game.rules.trump.last_card_needs_distinct_suits:
            return True
        h = self.hands[p]
        return sum(1 for m in self.game.suit_masks if h & m) == h.bit_count()

    def _take_last_card(self) -> None:
        """`trump last`: once the folder has been dealt all his cards, the suit of the last one is trumps (the card
        stays in his hand)."""
        p = self.folder
        cards = self.dealt[p]
        if self.given[p] >= len(cards) and self.trump == UNDECIDED:
            self._set_trump(self.game.suit_of[cards[-1]])
            if not self.concealed:
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

    def _start_doubling(self) -> bool:
        """Open the doubling window; False when no step can be said (the caller goes on)."""
        d = self.game.rules.doubling
        assert d is not None
        if 0 <= d.auto_from_bid <= self.bid:
            self.multiplier = d.auto_multiplier
        self.dbl_step = 0
        if not self._step_fits(0):
            return False
        self.queue = self._doubling_side(d.steps[0].by_bidding_team)
        self.phase = DOUBLING
        self.to_act = self.queue[0]
        return True

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
            step = d.steps[self.dbl_step]
            self.multiplier *= step.multiplier
            self.added += step.adds
            self.doubled = True
            self.dbl_step += 1
            if self._step_fits(self.dbl_step):
                self.queue = self._doubling_side(d.steps[self.dbl_step].by_bidding_team)
                self.to_act = self.queue[0]
                return
        self._next_step()

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
            self._annul(f"seat {a.seat} showed a pointless hand", ANNUL_REDEAL)
            return
        self.queue.pop(0)
        if self.queue:
            self.to_act = self.queue[0]
        else:
            self._next_step()

    # --- declarations (special contracts): one shape, three windows ------------------------------------
    def _holding(self, seat: int) -> int:
        """The cards `seat` holds, a trump card it laid face down included."""
        h = self.hands[seat]
        if seat == self.folder and self.concealed and self.indicator >= 0:
            h |= 1 << self.indicator
        return h

    def _may_declare(self, c: ContractRules, seat: int) -> bool:
        """Who may declare `c` (its window is checked by the caller) and whether his cards meet its sure-sweep
        rule."""
        if c.sole_winner:
            if self.tricks_won_by[seat] != len(self.tricks):
                return False
        elif not c.anyone and seat != self.bidder:
            return False
        if c.sure_sweep != SWEEP_ANY:
            return is_sure_sweep(self.game, self._holding(seat)) == (c.sure_sweep == SWEEP_REQUIRED)
        return True

    def _eligible_contracts(self, seat: int) -> list[str]:
        return [c.name for c in self.game.rules.contracts
                if c.window == DECLARE_AFTER_DEAL and self._may_declare(c, seat)]

    def _one_suit_hand(self, seat: int) -> bool:
        held = self._dealt_mask(seat)
        return sum(1 for m in self.game.suit_masks if held & m) == 1

    def _start_declarations(self) -> bool:
        if self.special is not None:   # a declaration of the auction already holds the hand
            return False
        d = self.game.rules.declarations
        first = self.bidder if d.from_bidder and self.bidder >= 0 else self.first
        self.queue = [s for s in self._seats_from(first) if self._eligible_contracts(s)]
        if not self.queue:
            return False
        self.phase = DECLARE
        self.to_act = self.queue[0]
        return True

    def _declare_legal(self) -> list[Action]:
        g = self.game
        p = self.to_act
        if self.opening:
            return [g.action(p, "open"), g.action(p, "pass")]
        one_suit = self._one_suit_hand(p)
        return [g.action(p, "pass")] + [g.action(p, "declare", c.name) for c in g.rules.contracts
                                         if c.window == DECLARE_AFTER_DEAL and self._may_declare(c, p)
                                         and not (c.barred_with_one_suit and one_suit)]

    def _declare_apply(self, a: Action) -> None:
        g = self.game
        if self.opening:
            self._opening_apply(a)
            return
        if a.verb == "declare":
            p = a.seat
            if not g.rules.declarations.bidding_side_priority:
                if self._take_contract(g.contracts[a.arg], p):
                    self._next_step()
                return
            # a declaration by the bidder's side closes the window; an opponent's stands unless a later player
            # of the bidder's side declares too, so only those are still asked
            self.pending = [c.name for c in g.rules.contracts].index(a.arg)
            self.pending_by = p
            bidders = self.hand_team_of[self.bidder]
            later = [s for s in self.queue[1:] if self.hand_team_of[s] == bidders]
            self.queue = [p] + (later if self.hand_team_of[p] != bidders else [])
        self.queue.pop(0)
        if self.queue:
            self.to_act = self.queue[0]
        elif self.pending >= 0:
            if self._take_contract(g.rules.contracts[self.pending], self.pending_by):
                self._next_step()
        else:
            self._next_step()

    def _declarations_as_bids(self, seat: int) -> list[Action]:
        if self.special is not None:
            return []
        window = DECLARE_IN_AUCTION if self.round == 1 else DECLARE_IN_SECOND_AUCTION
        g = self.game
        return [g.action(seat, "declare", c.name) for c in g.rules.contracts
                if c.window == window and self._may_declare(c, seat)]

    def _declare_in_auction(self, a: Action) -> None:
        if self.round == 2:
            self._declare_in_second_auction(a)
            return
        self._declare_in_first_auction(a)

    def _declare_in_second_auction(self, a: Action) -> None:
        """A declaration of the second auction outranks every number: its declarer is the new holder, lays the
        trump card anew, and the round ends at once."""
        p = a.seat
        if self.asker >= 0:     # said in the asker's place: the speech of both
            self.spoke[self.asker] = True
            self.asker = -1
            self.handed_back = False
        self.spoke[p] = True
        self.round_bids += 1
        self.high_bidder = p
        self.refold = True
        self._take_contract(self.game.contracts[a.arg], p)
        end_round(self)

    def _declare_in_first_auction(self, a: Action) -> None:
        """A declaration outranks every number and ends the auction: its declarer holds the contract, and the
        schedule goes on without the trump step and later rounds of bidding (and, if it stops the deal, without
        dealing)."""
        p = a.seat
        c = self.game.contracts[a.arg]
        self.spoke[p] = True
        self.high_bidder = p
        if self.game.rules.table.bidder_plays_alone:
            self._regroup_for_declarer(p)
            self.team_points = [0] * len(self.hand_teams)
        self.bidder = p
        if c.stops_deal:
            self.hand_tricks = self.given[p]
        if self._take_contract(c, p):
            self._next_step()

    def _take_contract(self, c: ContractRules, p: int) -> bool:
        """Seat `p` declares `c`: he holds the contract; False when that ends the hand (a hand shown instead of
        played)."""
        g = self.game
        self.special = c
        self.declarer = p
        if g.rules.table.bidder_plays_alone or p != self.bidder:
            self._regroup_for_declarer(p)
        self.bidder = p
        team = self.hand_teams[self.hand_team_of[p]]
        if c.partner_sits_out or c.dummy:
            for s in team:
                if s != p:
                    if c.partner_sits_out:
                        self.sitting_out |= 1 << s
                    else:
                        self.dummies |= 1 << s
                        self.exposed |= 1 << s
        if c.no_trumps or c.first_card_trumps:
            if self.indicator >= 0 and self.concealed:
                self.hands[self.indicator_owner] |= 1 << self.indicator
                self.fold_secret = True   # it goes back unseen
            self._set_trump(NO_TRUMP if c.no_trumps else UNDECIDED)
            self.indicator = -1
            self.concealed = False
            self.last_card = False
            self.exposed_trick = 0
        if c.reversed_ranking:
            self.strength = g.reversed_strength
        self.bidders_lost_trick = False   # the undertaking runs from the declaration on
        if not c.played:
            self.exposed |= 1 << p
            self._finish()
            return False
        return True

    # --- the holder's choice to open the trump before trick 1 (trump.opening.by_choice) -----------------
    def _start_opening(self) -> bool:
        """Ask the holder of a concealed trump card `open` or `pass` (the DECLARE phase, flagged `opening`)."""
        if not (self.game.rules.trump.open_by_choice and self.concealed and self.indicator >= 0
                and self.special is None):
            return False
        self.opening = True
        self.phase = DECLARE
        self.to_act = self.folder
        return True

    def _opening_apply(self, a: Action) -> None:
        self.opening = False
        if a.verb == "open":
            self._open_trump()
            self.open_duty = self.game.rules.trump.open_lead_trump
        self._next_step()

    def _open_trump(self) -> None:
        """The concealed trump becomes known to all: the folded card, shown, rejoins its owner's hand."""
        self.concealed = False
        self.exposed_trick = len(self.tricks) + 1
        if self.indicator >= 0:
            self.hands[self.folder] |= 1 << self.indicator
            self.shown[self.folder] |= 1 << self.indicator
            self.indicator = -1

    def _expose_partners(self) -> None:
        """play.exposed_after_deal: once every card is dealt and the bidder is known, his partners' cards lie face
        up to the end of the hand."""
        if self.game.rules.play.bidders_partner_exposed and self.bidder >= 0 and \
                self.given[self.bidder] >= len(self.dealt[self.bidder]):
            for s in self.hand_teams[self.hand_team_of[self.bidder]]:
                if s != self.bidder:
                    self.exposed |= 1 << s

    def _regroup_for_declarer(self, declarer: int) -> None:
        """A declarer from another team (or at a lone-bidder table) plays with their own team."""
        g = self.game
        if g.rules.table.bidder_plays_alone:
            others = [s for s in range(self.n) if s != declarer]
            self.hand_teams = sorted([[declarer], others], key=lambda t: t[0])
            self.hand_team_of = [self.hand_teams.index([declarer]) if s == declarer
                                 else self.hand_teams.index(others) for s in range(self.n)]
