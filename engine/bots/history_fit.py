"""What the public history says about the cards a seat cannot see and about a concealed trump, read once per
decision from the seat's view, so that sampled worlds are drawn consistent with it (see worlds.py) rather than
refused when the history is replayed on them.

Read from the plays the trumper made while his trump was concealed, under the rule file's play fields:
- a lead of a suit when the rules bar him from leading the concealed trump suit while he holds another suit
  (`bidder_leads_trump_freely`, `no_trump_lead_to_first_trick`): that suit is the trump only if every card he
  held then was of it, so it is ruled out when he later played another suit, and otherwise allowed only with a
  hand of that suit alone (`only`);
- a card of another suit, played without a call when he could not follow: under `compulsory_call` the led suit
  must be the trump; with `when_trump_suit_led: must call` it cannot be; where a void trumper may discard only
  plain cards (`void_in_plain_suit: discard plain or indicator`) the suit he discarded is not the trump.
Where the trump is known now, what those plays imply about his cards still applies (`only` of that suit).

With the blind cut (`play.blind_cut`), a card seen played face down in a trick that ended with the trump still
concealed is not of the trump: a face-down trump would have been turned up.

Also (`must_hold`): a shown pair (the trump's cards of `pair.ranks`) is in the shower's hand until he plays it,
and so are the cards of shown melds the view lists as still held.

Everything here comes from the seat's view: public plays and the trump only as far as the seat knows it. A play
whose concealment cannot be told from the view (the trick in which the trump was exposed other than by a call) is
not read: a rule not applied costs a refused world, a wrong one would cost the true world."""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.info import Seen
from engine.play.actions import Action, meld_terms
from engine.play.game import Game
from engine.play.rules import LED_MUST_CALL, VOID_DISCARD_PLAIN_OR_INDICATOR
from engine.play.view import TrickView


class HistoryFit:
    """Per suit as a concealed trump: `ruled_out`, and `only`, the cards the trumper may hold now were it the
    trump (every card when nothing limits them); per seat, `must_hold`: cards it is known to hold now."""

    def __init__(self, game: Game, seen: Seen) -> None:
        self.game = game
        n = game.n
        full = (1 << game.size) - 1
        self.ruled_out = [False] * game.nsuits
        self.only = [full] * game.nsuits
        self.must_hold = [0] * n
        self.down_plain = [0] * n       # per seat: cards it played face down, unseen, that were not trumps
        self.owner = trumper(seen)
        self._read_shown(seen)
        if self.owner >= 0 and game.rules.trump.concealed:
            self._read_concealed_plays(seen)
            if game.rules.play.blind_cut:
                self._read_face_down(seen)

    def allows(self, suit: int, held: int) -> bool:
        """Whether `suit` may be the concealed trump when the trumper holds `held` now."""
        return not self.ruled_out[suit] and not held & ~self.only[suit]

    def allows_deal(self, suit: int, held: list[int]) -> bool:
        """Whether `suit` may be the concealed trump with these hidden cards per seat (the face-down plays
        included): the trumper's, and each seat's face-down plain cards."""
        if self.owner >= 0 and not self.allows(suit, held[self.owner]):
            return False
        return self.downs_fit(suit, held)

    def downs_fit(self, suit: int, held: list[int]) -> bool:
        """Whether each seat's hidden cards hold a plain card (not of `suit`) for each of its unseen face-down
        plays that stayed down."""
        plain = ~self.game.suit_masks[suit]
        for s in range(len(held)):
            if self.down_plain[s] and (held[s] & plain).bit_count() < self.down_plain[s]:
                return False
        return True

    def _read_shown(self, seen: Seen) -> None:
        g = self.game
        v = seen.view
        for seat, cards in enumerate(v.melds):     # melds the engine showed, still held: the view lists them
            if seat != v.seat:
                self.must_hold[seat] |= cards & seen.unknown
        for a in v.history:
            if a.verb != "show" or a.seat == v.seat:
                continue
            suit, ranks = self._shown_cards(a.arg, v.trump)
            for r in ranks:
                self._hold_one(seen, a.seat, g.suit_masks[suit] & g.rank_masks[r])

    def _shown_cards(self, arg: str, trump: int | None) -> tuple[int, tuple[int, ...]]:
        """(suit, ranks) of what `show ARG` showed: the pair of the trump, or a meld of the file (no ranks: none
        known)."""
        g = self.game
        pr = g.rules.pair
        md = g.rules.melds
        if arg == "pair" and pr is not None and trump is not None and trump >= 0:
            return trump, pr.ranks
        suit = -1
        ranks: tuple[int, ...] = ()
        if md is not None:
            name, letter = meld_terms(arg)
            for k in md.kinds:
                if k.name == name and letter in g.layout.suits:
                    suit, ranks = g.layout.suits.index(letter), k.ranks
        return suit, ranks

    def _hold_one(self, seen: Seen, seat: int, copies: int) -> None:
        """`seat` showed a card among `copies`: unless he has played one since, he holds one still."""
        if seen.played_by[seat] & copies or self.must_hold[seat] & copies:
            return
        free = copies & seen.unknown
        for s in range(len(self.must_hold)):
            free &= ~self.must_hold[s]
        if free:
            self.must_hold[seat] |= free & -free

    def _read_concealed_plays(self, seen: Seen) -> None:
        """What the concealed trump's owner's plays before its exposure say about it: his leads and his discards
        under the duties the file sets him while the trump is face down."""
        v = seen.view
        b = self.owner
        if b == v.seat:
            return      # his own plays say nothing he does not know
        tricks = [*v.tricks, v.trick]
        exposed = v.exposed_in_trick
        call_at = _call_positions(tricks, v.history)
        played_from = _played_from(tricks, b)
        last_card = v.hand_sizes[b] == 0
        for k, t in enumerate(tricks):
            for j in range(len(t.cards)):
                c = t.cards[j]
                if t.seats[j] != b or c < 0 or not _concealed_at(exposed, call_at[k], k, j):
                    continue
                if j == 0:
                    self._read_concealed_lead(c, k, played_from[k])
                elif not (last_card and not played_from[k + 1]):   # his last card may be the face-down trump
                    self._read_concealed_discard(t.cards[0], c, call_at[k] == j)

    def _read_concealed_lead(self, c: int, k: int, played_from: int) -> None:
        """A lead while the trump is concealed, where its owner may not lead it freely: with other suits played
        later, its suit is not the trump; else the trump is among the suit's cards."""
        g = self.game
        pl = g.rules.play
        if pl.bidder_leads_trump_freely and not (pl.no_trump_lead_to_first_trick and k == 0):
            return
        suit = g.suit_of[c]
        if played_from & ~g.suit_masks[suit]:
            self.ruled_out[suit] = True
        else:
            self.only[suit] &= g.suit_masks[suit]

    def _read_concealed_discard(self, lead: int, c: int, after_call: bool) -> None:
        """A card off the suit led, not after a call: the suits the duties would have made him call or play."""
        g = self.game
        pl = g.rules.play
        if lead < 0 or g.suit_of[c] == g.suit_of[lead] or pl.blind_cut or after_call:
            return
        led = g.suit_of[lead]
        if pl.when_trump_suit_led == LED_MUST_CALL:
            self.ruled_out[led] = True     # the trump led: he would have had to call
        for x in range(g.nsuits):
            if x != led and (pl.compulsory_call or (pl.void_in_plain_suit == VOID_DISCARD_PLAIN_OR_INDICATOR
                                                    and x == g.suit_of[c])):
                self.ruled_out[x] = True

    def _read_face_down(self, seen: Seen) -> None:
        """With the blind cut a card played face down is not of the trump when the trick ended with the trump still
        concealed (a face-down trump is turned up): the suit of one the seat saw is ruled out, and a seat's unseen
        ones are plain cards among its hidden ones."""
        g = self.game
        v = seen.view
        exposed = v.exposed_in_trick
        for k, t in enumerate(v.tricks):
            if not (exposed is None or k + 1 < exposed) or not t.cards or t.cards[0] < 0:
                continue
            led = g.suit_of[t.cards[0]]
            for j in range(1, len(t.cards)):
                c = t.cards[j]
                if c < 0:
                    self.down_plain[t.seats[j]] += 1
                elif g.suit_of[c] != led:
                    self.ruled_out[g.suit_of[c]] = True


def _call_positions(tricks: list[TrickView], history: Sequence[Action]) -> list[int]:
    """The position in each trick of the play that followed a call (-1: none)."""
    call_at = [-1] * len(tricks)
    slots = [(k, j) for k, t in enumerate(tricks) for j in range(len(t.cards))]
    nxt = 0
    pending_call = False
    for a in history:
        if a.verb == "call":
            pending_call = True
        elif a.verb == "play" and nxt < len(slots):
            k, j = slots[nxt]
            nxt += 1
            if pending_call and call_at[k] < 0:
                call_at[k] = j
            pending_call = False
    return call_at


def _played_from(tricks: list[TrickView], seat: int) -> list[int]:
    """The cards `seat` played from each trick on (one more entry: none after the last)."""
    played_from = [0] * (len(tricks) + 1)
    for k in range(len(tricks) - 1, -1, -1):
        played_from[k] = played_from[k + 1]
        t = tricks[k]
        for j in range(len(t.cards)):
            if t.seats[j] == seat and t.cards[j] >= 0:
                played_from[k] |= 1 << t.cards[j]
    return played_from


def _concealed_at(exposed: int | None, call_at: int, k: int, j: int) -> bool:
    """The `j`-th card of trick `k` (from 0) was played while the trump was concealed."""
    return exposed is None or k + 1 < exposed or (k + 1 == exposed and 0 <= call_at and j < call_at)


def trumper(seen: Seen) -> int:
    """The seat whose trump choice stands: the last to choose one in the history, else the bidder (-1: none)."""
    for a in reversed(seen.view.history):
        if a.verb == "trump":
            return a.seat
    b = seen.view.bidder
    return b if b is not None else -1
