"""Tricks: following suit, the concealed trump and its exposure, pairs, surrender, and who wins a trick.

This is the hot path: hands are int bitmasks, the legal cards are one mask, and play actions come from
per-suit lookup tables precomputed in `Game`.
"""

from __future__ import annotations

from engine.play.actions import Action
from engine.play.banked import target_reached
from engine.play.base import (
    ANSWER,
    ANY_TRUMP,
    FREE,
    INDICATOR,
    NO_SURRENDER,
    PLAY,
    SURRENDER_ACCEPTED,
    SURRENDER_OFFERED,
    SURRENDER_REFUSED,
    TRUMP_IF_ABLE,
    TrickRecord,
)
from engine.play.claims import apply_claim, claim_actions
from engine.play.combinations import after_trick, announce, announcing, marriage_on_play, may_announce
from engine.play.contract import ContractPhases
from engine.play.game import winning_index
from engine.play.melds import open_meld_window, show_melds
from engine.play.obligations import playable
from engine.play.rules import (
    LED_FOLLOW_OR_DISCARD,
    LED_MAY_CALL_AND_PLAY_INDICATOR,
    LED_MUST_CALL,
    VOID_DISCARD_ANY_OR_ANY_TRUMP,
    VOID_DISCARD_PLAIN_OR_INDICATOR,
)
from engine.play.sweep_claims import SEAT_FACTOR, cards_played, remaining_claim_actions


class TrickPhase(ContractPhases):
    resume_to: int
    _extras: list[Action]    # with _legal_mask: the other actions of the seat to play (call, show pair, ...)
    _mask_ready: bool        # _legal_mask and _extras are those of the current position
    after: list[int]        # the seat that plays after each seat (sitting-out partners skipped)
    trick_size: int
    plain_play: bool        # no pair or surrender to offer: the inlined legal-card path applies
    duty_play: bool         # the same, with play.obligations: once the trump is open, obligations.playable
    led: int                # the suit led to the current trick

    def _start_play(self) -> None:
        g = self.game
        if self.special is not None:
            leader = self.declarer
        elif g.rules.table.bidder_leads_first and self.bidder >= 0:
            leader = self.bidder
        elif g.rules.table.after_bidder_leads_first and self.bidder >= 0:
            leader = (self.bidder + 1) % self.n
        else:
            leader = self.first
        while self.sitting_out >> leader & 1:
            leader = (leader + 1) % self.n
        self.phase = PLAY
        self.leader = self.to_act = leader
        self.trick_cards = []
        self.trick_seats = []
        if self.sitting_out:
            self.after = [self._next_seat(s) for s in range(self.n)]
        self.trick_size = self.n - self.sitting_out.bit_count()
        others = (g.has_pair or g.has_surrender or g.concede_in_play or bool(g.play_declarations) or g.has_claims
                  or g.lead_duties)
        duties = g.rules.play.obligations is not None
        self.plain_play = not others and not duties
        self.duty_play = not others and duties
        if announcing(self):    # trick 1 offers `announce` besides the cards: the inlined paths resume after it
            self.resume_plain = self.plain_play
            self.resume_duty = self.duty_play
            self.plain_play = self.duty_play = False
        if g.rules.melds is not None and g.rules.melds.compulsory:
            self._show_melds(self.to_act)
        sp = self.special
        self.at_first_lead = ((self.concealed and g.rules.trump.shown_at_first_lead)
                              or (sp is not None and sp.first_card_trumps))

    def _next_seat(self, s: int) -> int:
        s = (s + 1) % self.n
        while self.sitting_out >> s & 1:
            s = (s + 1) % self.n
        return s

    # --- legal cards --------------------------------------------------------------------------------
    def _discards(self, m: int) -> int:
        """Cards a void player may play: all of `m`, less protected ranks of suits not yet led and, where the
        rules say so, trumps lower than one already in the trick (unless nothing else is left)."""
        g = self.game
        if not g.void_filters or not m:
            return m
        if g.rules.play.no_discard_ranks:
            seen = self.played_suits if g.rules.play.suit_seen_when_played else self.led_suits
            barred = 0
            for s in range(g.nsuits):
                if not seen >> s & 1 and not (s == self.trump and not self.concealed):
                    barred |= g.protected_masks[s]
            m = (m & ~barred) or m
        if g.rules.play.must_not_undertrump and not self.concealed and self.trump >= 0:
            best = max((self.strength[c] for i, c in enumerate(self.trick_cards)
                        if g.suit_of[c] == self.trump and i >= self.power_from), default=-1)
            if best >= 0:
                under = 0
                for c in range(g.size):
                    if m >> c & 1 and g.suit_of[c] == self.trump and self.strength[c] < best:
                        under |= 1 << c
                m = (m & ~under) or m
        return m

    def _play_options(self, p: int) -> tuple[int, list[Action]]:
        """(mask of playable cards, other actions) for the seat to play."""
        extras = self._play_extras(p)
        return self._playable_cards(p, extras), extras

    def _play_extras(self, p: int) -> list[Action]:
        """The actions other than a card that seat `p`, to play, may take: show a pair, surrender, claim, concede,
        declare (a new list: the call for a concealed trump may still join it)."""
        g = self.game
        extras: list[Action] = []
        if not self.tricks and g.rules.combinations is not None and announcing(self) and may_announce(self, p):
            extras.append(g.announce_action[p])
        if g.has_pair and self._pair_allowed(p):
            extras.append(g.action(p, "show", "pair"))
        if self._surrender_allowed(p):
            extras.append(g.action(p, "surrender"))
        if g.rules.claims:
            extras.extend(claim_actions(self, p))
        if g.concede_in_play and p == self.bidder and self.special is None and self.caller != p and \
                self.team_points[self.hand_team_of[p]] < self.target:   # (not once he called: his play is due)
            extras.append(g.action(p, "concede"))
        if g.has_claims and self.special is None:
            extras.extend(remaining_claim_actions(self, p))
        if g.play_declarations and not self.trick_cards and self.special is None:
            for dc in g.play_declarations:   # before leading trick N
                if dc.trick == len(self.tricks) + 1 and self._may_declare(dc, p):
                    extras.append(g.action(p, "declare", dc.name))
        return extras

    def _playable_cards(self, p: int, extras: list[Action]) -> int:
        """The mask of cards seat `p`, to play, may play (a call for the concealed trump may join `extras`)."""
        g = self.game
        h = self.hands[p]
        trick = self.trick_cards
        led = g.suit_of[trick[0]] if trick else -1
        if self.caller == p:
            return self._caller_cards(h, led)
        concealed = self.concealed
        owner = concealed and p == self.indicator_owner
        if not trick:
            return self._lead_cards(p, h, owner)
        pl = g.rules.play
        if not concealed and pl.obligations is not None:
            return playable(self, p)
        follow = h & g.suit_masks[led]
        if follow:
            return follow
        if not concealed:
            return self._discards(h)
        if pl.blind_cut:
            return self._blind_options(p, h, led, owner)
        return self._concealed_void(p, h, led, owner, extras)

    def _caller_cards(self, h: int, led: int) -> int:
        """The cards of the player who has just called for the trump, as his call binds him."""
        g = self.game
        c = self.constraint
        if c == INDICATOR:
            return 1 << self.indicator
        follow = h & g.suit_masks[led] if led >= 0 else 0
        if follow:  # the exposed indicator joined the caller's hand and follows suit
            return follow
        if c == TRUMP_IF_ABLE or c == ANY_TRUMP:
            t = self._discards(h & self.trump_mask)
            return t or (self._discards(h) if c == TRUMP_IF_ABLE else h)
        return self._discards(h)

    def _lead_cards(self, p: int, h: int, owner: bool) -> int:
        """The cards seat `p` may lead: a lead duty's trumps, the concealed trump's owner's limits, else any."""
        pl = self.game.rules.play
        if p == self.bidder and (self.exhausted or (self.open_duty and not self.tricks)):
            trumps = h & self.trump_mask    # a lead duty: trumps while he holds any
            if trumps:
                return trumps
        if owner:
            if not h and self.indicator >= 0:
                return 1 << self.indicator
            if not pl.bidder_leads_trump_freely or (pl.no_trump_lead_to_first_trick and not self.tricks):
                plain = h & ~self.trump_mask
                if plain:
                    return plain
        return h

    def _concealed_void(self, p: int, h: int, led: int, owner: bool, extras: list[Action]) -> int:
        """A player unable to follow while the trump is concealed: his cards, and the call for the trump joins
        `extras` (this turn's own new list) where he may call."""
        g = self.game
        pl = g.rules.play
        call = g.call_action[p]
        if not owner:
            extras.append(call)
            return 0 if pl.compulsory_call else self._discards(h)
        if led == self.trump:
            rule = pl.when_trump_suit_led
            may_call = rule != LED_FOLLOW_OR_DISCARD
            must_call = rule == LED_MUST_CALL   # (must implies may)
            discards = self._discards(h)
        else:
            may_call = True
            must_call = pl.compulsory_call
            plain_only = pl.void_in_plain_suit == VOID_DISCARD_PLAIN_OR_INDICATOR
            discards = self._discards(h & ~self.trump_mask if plain_only else h)
        if may_call:
            extras.append(call)
        if not h and self.indicator >= 0:
            # the last trick: the face-down indicator is the bidder's only card
            if must_call and not pl.last_trick_forces_exposure:
                return 0
            return 1 << self.indicator
        return 0 if must_call else discards

    def _play_mask(self) -> int:
        """The card ids the seat to play may play now (`_legal_mask`), and its other actions (`_extras`)."""
        p = self.to_act
        h = self.hands[p]
        mask = -1
        if self.plain_play and self.caller != p:
            # the common cases, inlined: following suit, or a free choice
            if self.trick_cards:
                g = self.game
                follow = h & g.suit_masks[self.led]
                if follow:
                    mask = follow
                elif not self.concealed and not g.void_filters:
                    mask = h
            elif not self.concealed or p != self.folder:
                mask = h
        elif self.duty_play and not self.concealed and self.caller != p:
            if self.trick_cards:
                g = self.game
                follow = h & g.suit_masks[self.led]
                # following a plain suit led is all the duties ask, where no trump may be played instead (or he
                # holds none)
                if follow and self.led != self.trump and not self.all_trumps and (
                        g.follow_suffices or not h & self.trump_mask):
                    mask = follow
                else:
                    mask = playable(self, p)
            else:
                mask = h    # (the duties bind following players only)
        if mask < 0:
            mask, self._extras = self._play_options(p)
        elif self._extras:
            self._extras = []
        self._legal_mask = mask
        self._mask_ready = True
        return mask

    def _play_legal(self) -> tuple[Action, ...]:
        g = self.game
        p = self.to_act
        if self.caller != p and self.trick_cards and (self.plain_play or (
                self.duty_play and self.led != self.trump and not self.concealed and not self.all_trumps
                and (g.follow_suffices or not self.hands[p] & self.trump_mask))):
            follow = self.hands[p] & g.suit_masks[self.led]
            if follow:  # the commonest case, inlined: one table lookup (with duties: a plain suit followed)
                self._legal_mask = follow
                if self._extras:    # (a new empty list only when there were extras: no allocation per card)
                    self._extras = []
                self._mask_ready = True
                led = self.led
                bits = follow >> (led * g.block)
                rows = g._play_rows
                if rows:    # Game.suit_plays' table read here, with no call, once the holding has occurred
                    seen = rows[p * g.nsuits + led][bits]
                    if seen is not None:
                        return seen
                return g.suit_plays(p, led, bits)
        mask = self._play_mask()
        # the other actions, then each suit's cached tuple: joined only where two parts are not empty, so a hand
        # down to one playable suit builds nothing
        out: tuple[Action, ...] = tuple(self._extras) if self._extras else ()
        block = g.block
        bm = (1 << block) - 1
        for s in range(g.nsuits):
            v = mask >> (s * block) & bm
            if v:
                plays = g.suit_plays(p, s, v)
                out = out + plays if out else plays
        return out

    def _blind_options(self, p: int, h: int, led: int, owner: bool) -> int:
        """play.blind_cut: a void player plays any card face down; the bidder as bidder_while_concealed says, the
        folded card played face down in place of a call."""
        if not owner:
            return self._discards(h)
        pl = self.game.rules.play
        fold = 1 << self.indicator if self.indicator >= 0 else 0
        if not h:
            return fold             # his last card
        if led == self.trump:
            return h | (fold if pl.when_trump_suit_led != LED_FOLLOW_OR_DISCARD else 0)
        m = h & ~self.trump_mask if pl.void_in_plain_suit == VOID_DISCARD_PLAIN_OR_INDICATOR else h
        return (m | fold) or h

    # --- optional actions at one's turn to play -----------------------------------------------------
    def _pair_allowed(self, p: int) -> bool:
        g = self.game
        pr = g.rules.pair
        if pr is None or self.special is not None or self.trump < 0:
            return False
        # while the trump is concealed only the bidder knows it, so only the bidder may show a pair (exposing it)
        if self.concealed and (pr.needs_trump_exposed or p != self.indicator_owner):
            return False
        team = self.hand_team_of[p]
        if any(self.hand_team_of[s] == team for s in self.pair_shown_by):
            return False
        h = self.hands[p]
        trumps = self.trump_mask
        for r in pr.ranks:
            if not h & trumps & g.rank_masks[r]:
                return False
        if pr.needs_won_trick and not any(self.hand_team_of[t.winner] == team for t in self.tricks):
            return False
        if pr.right_after_winning and not (self.tricks and self.hand_team_of[self.tricks[-1].winner] == team):
            return False
        if team == self.hand_team_of[self.bidder]:
            return pr.bidding_team_adjust(self.bid) is not None
        return True

    def _is_remaining_claim(self, name: str) -> bool:
        for c in self.game.rules.claims:
            if c.name == name:
                return c.remaining
        return False

    def _claim(self, a: Action) -> None:
        """A claim of the remaining tricks: kept for the grading when the hand is scored; play goes on."""
        self.claims.append(a.seat * SEAT_FACTOR + cards_played(self, self.trick_size))
        for c in self.game.rules.claims:
            if c.name == a.arg and c.stops_play:
                self._finish()

    def _show_melds(self, p: int) -> None:
        show_melds(self, p)

    def _surrender_allowed(self, p: int) -> bool:
        return (self.game.has_surrender and self.surrender == NO_SURRENDER and self.special is None
                and self.hand_team_of[p] != self.hand_team_of[self.bidder] and not self.bidders_lost_trick)

    # --- applying -----------------------------------------------------------------------------------
    def _play_apply(self, a: Action) -> None:
        verb = a.verb
        if verb == "call":
            self._expose_by_call(a.seat)
        elif verb == "show":
            self._show_pair(a.seat)
        elif verb == "concede":
            self._concede()
        elif verb == "announce":
            announce(self, a.seat)
        elif verb == "declare":
            if a.arg in self.game.contracts:
                self._take_contract(self.game.contracts[a.arg], a.seat)
            else:
                if self._is_remaining_claim(a.arg):
                    self._claim(a)
                else:
                    apply_claim(self, a)
        elif verb == "surrender":
            self.surrender = SURRENDER_OFFERED
            self.resume_to = a.seat
            self.phase = ANSWER
            self.to_act = self.bidder

    def _answer_legal(self) -> list[Action]:
        g = self.game
        return [g.action(self.bidder, "accept"), g.action(self.bidder, "refuse")]

    def _answer_apply(self, a: Action) -> None:
        if a.verb == "accept":
            self.surrender = SURRENDER_ACCEPTED
            self._finish()
            return
        self.surrender = SURRENDER_REFUSED
        self.phase = PLAY
        self.to_act = self.resume_to

    def _show_pair(self, p: int) -> None:
        pr = self.game.rules.pair
        assert pr is not None
        if self.hand_team_of[p] == self.hand_team_of[self.bidder]:
            adj = pr.bidding_team_adjust(self.bid) or 0
        else:
            adj = pr.opponents
        self.target = min(pr.target_hi, max(pr.target_lo, self.target + adj))
        self.pair_shown_by.append(p)
        if self.concealed:  # the bidder showed King and Queen of the concealed trump: that exposes it
            self._expose()
            if self.indicator >= 0:
                self.hands[p] |= 1 << self.indicator

    def _expose(self) -> None:
        self.concealed = False
        self.exposed_trick = len(self.tricks) + 1
        self.power_from = 0 if self.game.rules.play.retroactive else len(self.trick_cards)

    def _expose_by_call(self, p: int) -> None:
        g = self.game
        self._expose()
        owner = self.indicator_owner
        if self.indicator >= 0:
            self.hands[owner] |= 1 << self.indicator
        self.caller = p
        pl = g.rules.play
        if p == owner:
            led = g.suit_of[self.trick_cards[0]] if self.trick_cards else -1
            if led == self.trump:
                if self.indicator >= 0 and pl.when_trump_suit_led == LED_MAY_CALL_AND_PLAY_INDICATOR:
                    self.constraint = INDICATOR
                    return
            elif not pl.compulsory_call:
                if pl.void_in_plain_suit == VOID_DISCARD_ANY_OR_ANY_TRUMP:
                    self.constraint = ANY_TRUMP
                    return
                if self.indicator >= 0:
                    self.constraint = INDICATOR
                    return
        self.constraint = TRUMP_IF_ABLE if pl.caller_must_trump else FREE

    def _play_card_id(self, p: int, card: int) -> None:
        """Seat `p` plays card id `card`, already known to be legal: recorded, and the trick goes on."""
        g = self.game
        self.history.append(g.play_action[p][card])
        self._legal = None
        self._mask_ready = False
        if self.at_first_lead:
            self.at_first_lead = False
            if self._first_lead(card):
                return
        blind = self.concealed and g.rules.play.blind_cut
        if card == self.indicator and self.concealed:
            if blind and self.hands[p]:
                self.face_down |= 1 << card     # the folded card, face down to cut
                self.indicator = -1
            # the indicator is the bidder's last card: exposed as it is played, or played face up as a plain
            # card with the trump still concealed, as the rule file says
            elif blind or g.rules.play.last_trick_forces_exposure:
                self._expose()
                self.indicator = -1
                if blind:
                    self.power_from = 0     # every trump of the trick counts (face-down trumps turn up)
            else:
                self.indicator = -1
        else:
            self.hands[p] = self.hands[p] ^ (1 << card)   # (not ^=: see State._deal)
            if blind and self.trick_cards and g.suit_of[card] != self.led:
                self.face_down |= 1 << card
        self.caller = -1
        if g.marriage_play_mask >> card & 1:   # (trump_marriage counted in_hand: a card of its ranks)
            marriage_on_play(self, p, card)
        trick = self.trick_cards
        suit = g.suit_of[card]
        if not trick:
            self.led = suit
            self.led_suits |= 1 << suit
        self.played_suits |= 1 << suit
        trick.append(card)
        self.trick_seats.append(p)
        if len(trick) == self.trick_size:
            self._resolve_trick()
        else:
            self.to_act = self.after[p]
            if g.rules.melds is not None:
                self._show_melds(self.to_act)

    def _first_lead(self, card: int) -> bool:
        """As the first card of trick 1 is led: a concealed trump is shown (trump.shown_at_first_lead), or the
        card's suit becomes trumps (a special contract's first_card_led), and the void deal is checked then.
        True when that annulled the hand."""
        g = self.game
        sp = self.special
        if sp is not None and sp.first_card_trumps:
            self._set_trump(g.suit_of[card])
            if sp.reversed_ranking:
                self.strength = g.reversed_strength
            self.exposed_trick = 1
            an = g.rules.annul
            if an.bidding_team_held_all_trumps and an.held_all_trumps_before_play and self._held_all_trumps():
                return True
            return False
        self._expose()
        if self.indicator >= 0:
            self.hands[self.folder] |= 1 << self.indicator
            self.indicator = -1
        return False

    def _resolve_trick(self) -> None:
        g = self.game
        cards = self.trick_cards
        if self.face_down:
            self._turn_face_down()
        win = winning_index(cards, g.suit_of, self.strength, self.trump if not self.concealed else -1,
                            self.power_from)
        pts = 0
        points = self.points_of
        for c in cards:
            pts += points[c]
        winner = self.trick_seats[win]
        team = self.hand_team_of[winner]
        if len(self.tricks) + 1 == self.hand_tricks:
            pts += self._last_trick_bonus(team)
        self.tricks.append(TrickRecord(self.leader, self.trick_seats, cards, winner, pts))
        self.team_points[team] = self.team_points[team] + pts   # (not +=: see State._deal)
        self.tricks_won_by[winner] = self.tricks_won_by[winner] + 1
        if g.rules.combinations is not None or g.rules.marriage is not None:
            self._combinations_after_trick(cards, winner)
        self._close_trick(cards, winner)

    def _turn_face_down(self) -> None:
        """The blind cut at the end of a trick: face-down trumps are turned up and open the trump; plain ones stay
        down for good."""
        if self.concealed and self.face_down & self.trump_mask:
            self._open_trump()
            self.power_from = 0
        self.hidden |= self.face_down & ~self.trump_mask
        self.face_down = 0

    def _last_trick_bonus(self, team: int) -> int:
        """What the last trick adds to its winner `team`'s points: deck.last_trick_bonus, and the amount the last
        trick's losers give it (deck.last_trick_transfer, taken from their points here)."""
        d = self.game.rules.deck
        bonus = d.last_trick_bonus
        if d.last_trick_transfer:
            bonus += d.last_trick_transfer
            for t in range(len(self.team_points)):
                if t != team:
                    self.team_points[t] -= d.last_trick_transfer
        return bonus

    def _combinations_after_trick(self, cards: list[int], winner: int) -> None:
        """Melds and the trump marriage at the end of a trick (engine/play/combinations.py); after trick 1, which
        offered `announce`, play goes back to its usual paths."""
        after_trick(self, cards, winner)
        if len(self.tricks) == 1 and announcing(self):
            self.plain_play = self.resume_plain
            self.duty_play = self.resume_duty

    def _close_trick(self, cards: list[int], winner: int) -> None:
        """After a trick is taken: whether the bidders lost it, the winner leads, the duties a trick sets, and the
        hand ends (the last trick, a special contract lost, the match won mid-deal) or goes on (melds to show)."""
        g = self.game
        special = self.special
        if self.hand_team_of[winner] != self.hand_team_of[self.bidder] or (
                special is not None and not special.side_wins and winner != self.declarer):
            self.bidders_lost_trick = True
        self.trick_cards = []
        self.trick_seats = []
        self.power_from = 0
        self.leader = self.to_act = winner
        if g.lead_duties or g.rules.trump.open_after_trick:
            self._after_trick_duties(cards)
        if g.rules.match.ends_mid_deal and target_reached(self):   # the match is won: the deal stops here
            self._finish()
            return
        if len(self.tricks) == self.hand_tricks or (
                special is not None and special.stops_at_first_loss and self.bidders_lost_trick):
            self._finish()
        elif g.rules.melds is not None:
            if g.rules.melds.compulsory:
                self._show_melds(winner)
            else:
                open_meld_window(self, winner)

    def _after_trick_duties(self, cards: list[int]) -> None:
        """At the end of a trick: a high contract still concealed opens (trump.opening.after_trick), and a bidder
        whose trump lead nobody followed must go on leading trumps (play.exhausted_trumps)."""
        g = self.game
        t = g.rules.trump
        if (t.open_after_trick == len(self.tricks) and self.concealed and self.special is None
                and self.bid >= t.open_from_bid):
            self._open_trump()
            self.exposed_trick = len(self.tricks)
        if (g.rules.play.exhausted_trumps and self.special is None and not self.exhausted and self.trump >= 0
                and self.tricks[-1].leader == self.bidder and g.suit_of[cards[0]] == self.trump):
            followed = False
            for c in cards[1:]:
                if g.suit_of[c] == self.trump:
                    followed = True
            self.exhausted = not followed
