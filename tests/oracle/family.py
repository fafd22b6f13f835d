"""The shipped games the issue-14 house rules extend (twenty-eight, twenty-eight-flat, twenty-nine, single-hand,
fifty-six, as BUILTINS.md fixes them) and the house rules and new Fifty-Six files of MORE-GAMES.md sections 4
and 6, as the referee reads them.

Readings where the text leaves a choice (each is in the referee's list of questions for the lead):
- Fifty-Six doubling: the holder of the standing bid, reached by the turn order after a double, may redouble or
  pass; whether he may overbid himself is open (those bids are not judged).
- cot-four: `declare cot` is a speech of the first auction open to every player at his turn, the first hand's
  compulsory first turn included; the dummy's cards are played with the dummy's seat.
- thani-late: `declare thani`, by the player who won tricks 1-6 himself, before he leads trick 7; a loss at trick
  7 (whether play then stops) is open.
- single-hand-show: `declare show`, at the single-hand window, only by a holder of a sure sweep, who may not
  declare single hand; the hand then ends, scored +3 to his team.
"""

from __future__ import annotations

from typing import Any

from tests.oracle.core import PTS28, R6, R8, SUITS, Hand, Unsettled
from tests.oracle.prove import sure_sweep

BANDS28 = [(14, 19, 1, -2), (20, 24, 2, -3), (25, 28, 3, -4)]
TABLES56 = [(28, 39, 1, -2), (40, 47, 2, -3), (48, 55, 3, -4), (56, 56, 4, -5)]


def band(bands: list[tuple[int, int, int, int]], bid: int) -> tuple[int, int]:
    lo, hi, win, lose = next(b for b in bands if b[0] <= bid <= b[1])
    return win, lose


# =============================================================================================== Fifty-Six
class FiftySix(Hand):
    """Fifty-Six: bids name the trump (or NT), open from the first lead; tables exchanged. With `doubling`, the
    double and redouble of MORE-GAMES.md section 4 inside the auction."""

    name = "fifty-six"
    n = 6
    team_lists = [[0, 2, 4], [1, 3, 5]]
    ranks = R6
    copies = 2
    points = PTS28
    packets = [4, 4]
    doubling = False

    def __init__(self, name: str, dealer: int, hands: list[list[str]]) -> None:
        super().__init__(name, dealer, hands)
        for k in self.packets:
            self.deal(k)
        self.phase, self.to = "auction", self.first
        self.high, self.high_by, self.high_suit = 0, -1, ""
        self.passed: set[int] = set()
        self.doubled = self.redoubled = False
        self.trick_no = 0

    def winner_index(self, plays: list[tuple[int, str, bool]]) -> int:
        return super().winner_index(plays)   # equal cards: the first played wins (strict comparison)

    def legal_auction(self) -> set[str]:
        s = self.to
        suits = [*SUITS, "NT"]
        out = {f"bid {v} {x}" for v in range(max(28, self.high + 1), 57) for x in suits} | {"pass"}
        if self.doubling and self.high_by >= 0:
            if not self.same_side(s, self.high_by) and not self.doubled:
                out.add("double")
            if self.same_side(s, self.high_by) and self.doubled and not self.redoubled:
                out.add("redouble")
            if s == self.high_by:   # may the holder overbid himself? not said
                self.uncertain |= {a for a in out if a.startswith("bid")}
        return out

    def on_auction(self, seat: int, what: str) -> None:
        verb = what.split()[0]
        if verb == "bid":
            _, v, suit = what.split()
            self.high, self.high_by, self.high_suit = int(v), seat, suit
            self.passed, self.doubled, self.redoubled = set(), False, False
        elif verb == "double":
            self.doubled, self.passed = True, set()
        elif verb == "redouble":
            self.redoubled, self.passed = True, set()
        elif seat != self.high_by:
            self.passed.add(seat)
        others = [s for s in range(self.n) if s != self.high_by]
        if all(s in self.passed for s in others):
            if self.high_by < 0:
                self.status = "annulled"      # every player passed: the same dealer deals again
                return
            self.bidder, self.bid, self.target = self.high_by, self.high, self.high
            self.trump = None if self.high_suit == "NT" else self.high_suit
            self.exposed = 1 if self.trump else None
            self.phase, self.trick_no, self.leader, self.to, self.cur = "play", 1, self.first, self.first, []
            return
        self.to = (seat + 1) % self.n

    def legal_play(self) -> set[str]:
        hand = self.held[self.to]
        if not self.cur:
            return {"play " + c for c in hand}
        led = self.cur[0][1][1]
        return {"play " + c for c in ([c for c in hand if c[1] == led] or hand)}

    def on_play(self, seat: int, what: str) -> None:
        card = what.split()[1]
        self.held[seat].remove(card)
        self.cur.append((seat, card, card[1] == self.trump))
        if len(self.cur) < self.n:
            self.to = (seat + 1) % self.n
            return
        win = self.finish_trick()
        if not any(self.held):
            return self._score()
        self.trick_no += 1
        self.to = win

    def _score(self) -> None:
        self.status = "complete"
        team = self.team_of(self.bidder)
        self.made = self.card_points[team] >= self.bid
        win, lose = band(TABLES56, self.bid)
        extra = 2 if self.redoubled else 1 if self.doubled else 0
        self.exchange(team, win + extra if self.made else lose - extra)


class FiftySixDouble(FiftySix):
    name = "fifty-six-double"
    doubling = True


class FiftySix8(FiftySix):
    name = "fifty-six-8p"
    n = 8
    team_lists = [[0, 2, 4, 6], [1, 3, 5, 7]]
    ranks = R8
    doubling = True


class FiftySix4(FiftySix):
    name = "fifty-six-4p"
    n = 4
    team_lists = [[0, 2], [1, 3]]
    packets = [4, 4, 4]
    doubling = True


# ============================================================================================ Twenty-Eight
class TwentyEight(Hand):
    """BUILTINS.md's twenty-eight: compulsory opening of 14, the partner-overcall 20 after a pass, pointless
    redeal, an indicator card, raise by bidder then partner to 24+, pagat's concealed-trump rules, the four-Jacks
    and all-trumps annulments, bands 1/-2, 2/-3, 3/-4 to the bidding team."""

    name = "twenty-eight"
    ranks = R8
    points = PTS28
    bands = BANDS28

    def __init__(self, name: str, dealer: int, hands: list[list[str]]) -> None:
        super().__init__(name, dealer, hands)
        self.deal(4)
        self.phase, self.to = "auction", self.first
        self.high, self.high_by = 0, -1
        self.spoke: set[int] = set()
        self.passes = 0
        self.last_pass = False
        self.indicator: str | None = None
        self.concealed = True
        self.caller = -1
        self.raised = False
        self.raise_queue: list[int] = []
        self.trick_no = 0
        self.declarer = -1        # a special contract's declarer

    # ---------------------------------------------------------------------------------------- auction
    def auction_bids(self, s: int) -> set[str]:
        lo = max(14, self.high + 1)
        if self.high_by >= 0 and self.high_by == self.partner(s) and self.last_pass:
            lo = max(lo, 20)
        return {f"bid {v}" for v in range(lo, 29)}

    def legal_auction(self) -> set[str]:
        s = self.to
        out = self.auction_bids(s)
        first_turn = s == self.first and s not in self.spoke
        if not first_turn:
            out.add("pass")
        if first_turn and self.pts(self.held[s]) == 0:
            out.add("redeal")
        return out

    def on_auction(self, seat: int, what: str) -> None:
        self.spoke.add(seat)
        if what == "redeal":
            self.status = "annulled"
            return
        if what == "pass":
            self.passes, self.last_pass = self.passes + 1, True
        else:
            self.high, self.high_by, self.passes, self.last_pass = int(what.split()[1]), seat, 0, False
        if self.high_by >= 0 and self.passes == self.n - 1:
            return self.end_auction()
        self.to = (seat + 1) % self.n

    def end_auction(self) -> None:
        self.bidder, self.bid, self.target = self.high_by, self.high, self.high
        self.phase, self.to = "trump", self.high_by

    def legal_trump(self) -> set[str]:
        return {f"trump {c}" for c in self.held[self.to]}

    def on_trump(self, seat: int, what: str) -> None:
        card = what.split()[1]
        self.indicator, self.trump = card, card[1]
        self.held[seat].remove(card)
        self.deal(4)
        if self.four_jacks():
            self.status = "annulled"
            return
        self.after_full_deal()

    def four_jacks(self) -> bool:
        return any(sum(c[0] == "J" for c in self.dealt[s]) == 4 for s in range(self.n))

    def after_full_deal(self) -> None:
        if self.bid < 28:
            self.phase, self.to, self.raise_queue = "raise", self.bidder, [self.partner(self.bidder)]
        else:
            self.after_raise()

    def legal_raise(self) -> set[str]:
        return {"pass"} | {f"raise {v}" for v in range(max(24, self.bid + 1), 29)}

    def on_raise(self, seat: int, what: str) -> None:
        if what != "pass":
            self.bid = self.target = int(what.split()[1])
            self.raised = True
        if self.raise_queue and self.bid < 28:
            self.to = self.raise_queue.pop(0)
            return
        self.after_raise()

    def after_raise(self) -> None:
        self.start_play(self.first)

    def start_play(self, leader: int) -> None:
        self.phase, self.trick_no, self.leader, self.to, self.cur = "play", 1, leader, leader, []

    # ------------------------------------------------------------------------------------------- play
    def in_hand(self, s: int) -> list[str]:
        return self.held[s]

    def legal_play(self) -> set[str]:
        s = self.to
        hand = self.held[s]
        out = {"play " + c for c in self.plays(s, hand)}
        if self.concealed and self.trump and self.cur and self.caller < 0 and self.indicator is not None:
            led = self.cur[0][1][1]
            void = not any(c[1] == led for c in hand)
            if void and not (s == self.bidder and led == self.trump):
                out.add("call")
        return out | self.extra_play_actions(s)

    def extra_play_actions(self, s: int) -> set[str]:
        return set()

    def plays(self, s: int, hand: list[str]) -> list[str]:
        if s == self.bidder and self.indicator is not None and (not hand or self.caller == s):
            return [self.indicator]     # he called to play it, or it is his last card
        ind = self.indicator if self.concealed else None
        if s == self.bidder and ind is not None:
            if not self.cur:
                return [c for c in hand if c[1] != self.trump] or list(hand)
        if not self.cur:
            return list(hand)
        led = self.cur[0][1][1]
        follow = [c for c in hand if c[1] == led]
        if follow:
            return follow
        if self.caller == s:
            trumps = [c for c in hand if c[1] == self.trump]
            return trumps or list(hand)
        if s == self.bidder and ind is not None:
            if led == self.trump:
                return list(hand)
            return [c for c in hand if c[1] != self.trump]   # none: he must call
        return list(hand)

    def on_play(self, seat: int, what: str) -> None:
        if what == "call":
            self.caller = seat
            self.concealed = False
            self.exposed = self.trick_no
            if seat != self.bidder and self.indicator is not None:
                self.held[self.bidder].append(self.indicator)
                self.indicator = None
            return
        if not self.on_extra_action(seat, what):
            self.play_card(seat, what.split()[1])

    def on_extra_action(self, seat: int, what: str) -> bool:
        return False

    def play_card(self, seat: int, card: str) -> None:
        if seat == self.bidder and card == self.indicator:
            self.indicator = None
            if self.concealed:
                self.concealed = False
                self.exposed = self.trick_no
        else:
            self.held[seat].remove(card)
        self.cur.append((seat, card, not self.concealed and card[1] == self.trump))
        if len(self.cur) < self.trick_size():
            self.to = self.next_seat(seat)
            return
        win = self.finish_trick()
        self.caller = -1
        if self.trick_over(win):
            return
        if not any(self.held) and self.indicator is None:
            return self.score()
        self.trick_no += 1
        self.to = win

    def trick_size(self) -> int:
        return self.n

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.n

    def trick_over(self, win: int) -> bool:
        """After a trick: True if a rule ended the hand."""
        return False

    # ---------------------------------------------------------------------------------------- scoring
    def bidding_team_held_all_trumps(self) -> bool:
        team = [s for s in range(self.n) if self.same_side(s, self.bidder)]
        return all(c[1] != self.trump for s in range(self.n) if s not in team for c in self.dealt[s])

    def score(self) -> None:
        self.status = "complete"
        if self.trump and self.bidding_team_held_all_trumps():
            self.status = "annulled"
            return
        team = self.team_of(self.bidder)
        self.made = self.card_points[team] >= self.target
        self.game_points = [0, 0]
        self.game_points[team] = self.contract_value(self.made)
        self.after_score()

    def contract_value(self, made: bool) -> int:
        win, lose = band(self.bands, self.bid)
        return win if made else lose

    def after_score(self) -> None:
        pass


class TwentyEightFlat(TwentyEight):
    name = "twenty-eight-flat"
    bands = [(14, 28, 1, -1)]


class Bhangi(TwentyEightFlat):
    """bhangi: a bidding team short of the bid by 14 or more loses the whole bid."""

    name = "bhangi"

    def contract_value(self, made: bool) -> int:
        team = self.team_of(self.bidder)
        if not made and self.bid - self.card_points[team] >= 14:
            return -self.bid
        return super().contract_value(made)


class FourJacksHonour(TwentyEight):
    """four-jacks-honour: a team whose tricks hold all four Jacks scores +1 game point."""

    name = "four-jacks-honour"

    def after_score(self) -> None:
        for team in range(2):
            jacks = sum(1 for t in self.tricks if self.team_of(t["winner"]) == team for c in t["cards"] if c[0] == "J")
            if jacks == 4:
                self.game_points[team] += 1


class RoundScoring(TwentyEight):
    """round-scoring: a first-auction contract +-1 at 20 or less, +-2 above; a raised one +2 / -3."""

    name = "round-scoring"

    def contract_value(self, made: bool) -> int:
        if self.raised:
            return 2 if made else -3
        if self.bid <= 20:
            return 1 if made else -1
        return 2 if made else -2

    def report(self) -> dict[str, Any]:
        out = super().report()
        if out["contract"] is not None and self.status == "complete":
            out["contract"]["round"] = 2 if self.raised else 1
            out["_unpin"] = ["contract.round"]   # whether the raise's files report a round is the engine's choice
        return out


class Kotah(TwentyEight):
    """kotah: after the raise and before the first lead an opponent may double (x2), then the bidding team may
    redouble (x4 in all), in double-redouble's order."""

    name = "kotah"

    def after_raise(self) -> None:
        self.phase, self.to, self.dbl_queue = "kotah", (self.bidder + 1) % 4, [(self.bidder + 3) % 4]
        self.stage = "double"

    dbl_queue: list[int]
    stage: str

    def legal_kotah(self) -> set[str]:
        return {"pass", self.stage}

    def on_kotah(self, seat: int, what: str) -> None:
        if what == "double":
            self.multiplier, self.stage = 2, "redouble"
            self.dbl_queue = [self.bidder, self.partner(self.bidder)]
            self.to = self.dbl_queue.pop(0)
            return
        if what == "redouble":
            self.multiplier = 4
            return self.start_play(self.first)
        if self.dbl_queue:
            self.to = self.dbl_queue.pop(0)
            return
        self.start_play(self.first)

    def contract_value(self, made: bool) -> int:
        return super().contract_value(made) * self.multiplier


class ThaniLate(TwentyEight):
    """thani-late: a player who has himself won tricks 1-6 may announce Thani before leading trick 7; he must win
    tricks 7 and 8 himself; the trump stands; +4 / -5 to his team in place of the hand's score."""

    name = "thani-late"

    def extra_play_actions(self, s: int) -> set[str]:
        if (self.trick_no == 7 and not self.cur and self.special is None
                and len(self.tricks) == 6 and all(t["winner"] == s for t in self.tricks)):
            return {"declare thani"}
        return set()

    def on_extra_action(self, seat: int, what: str) -> bool:
        if what == "declare thani":
            self.special, self.declarer = "thani", seat
            return True
        return False

    def trick_over(self, win: int) -> bool:
        if self.special == "thani" and self.trick_no == 7 and win != self.declarer:
            raise Unsettled("thani-late: does play stop when the announcer loses trick 7?")
        return False

    def score(self) -> None:
        if self.special != "thani":
            return super().score()
        self.status = "complete"
        if self.trump and self.bidding_team_held_all_trumps():
            self.status = "annulled"
            return
        self.bidder = self.declarer
        self.made = all(t["winner"] == self.declarer for t in self.tricks[6:])
        self.game_points = [0, 0]
        self.game_points[self.team_of(self.declarer)] = 4 if self.made else -5


class CotFour(TwentyEight):
    """cot-four: Cot bid on four cards (outranks every number, ends the auction); no more cards, no trumps; the
    partner's four lie face up and the bidder plays them; the bidder leads and must win all four tricks (play
    stops at the first lost); +4 / -5."""

    name = "cot-four"

    def legal_auction(self) -> set[str]:
        return super().legal_auction() | {"declare cot"}

    def on_auction(self, seat: int, what: str) -> None:
        if what != "declare cot":
            return super().on_auction(seat, what)
        self.spoke.add(seat)
        self.bidder, self.special, self.trump, self.exposed = seat, "cot", None, None
        self.bid = self.target = self.high
        self.concealed = False
        self.start_play(seat)

    def trick_over(self, win: int) -> bool:
        if self.special != "cot":
            return False
        if not self.same_side(win, self.bidder) or len(self.tricks) == 4:
            if len(self.tricks) < 4:
                self.stopped = True
            self.status = "complete"
            self.made = len(self.tricks) == 4 and all(self.same_side(t["winner"], self.bidder) for t in self.tricks)
            self.game_points = [0, 0]
            self.game_points[self.team_of(self.bidder)] = 4 if self.made else -5
            return True
        return False


# ============================================================================================ Twenty-Nine
class TwentyNine(TwentyEight):
    """BUILTINS.md's twenty-nine: bids 16-28, the dealer forced to 16 after three passes, pointless redeal, a
    suit named secretly, the first void player must call, retroactive exposure, the pair, last trick 1, the
    four-Jacks and never-exposed annulments, +-1 to the bidding team."""

    name = "twenty-nine"
    bands = [(16, 28, 1, -1)]

    def auction_bids(self, s: int) -> set[str]:
        if self.high_by < 0 and s == self.dealer and self.passes == self.n - 1:
            return {"bid 16"}
        return {f"bid {v}" for v in range(max(16, self.high + 1), 29)}

    def legal_auction(self) -> set[str]:
        s = self.to
        out = self.auction_bids(s)
        forced = self.high_by < 0 and s == self.dealer and self.passes == self.n - 1
        if not forced:
            out.add("pass")
        if s == self.first and s not in self.spoke and self.pts(self.held[s]) == 0:
            out.add("redeal")
        return out

    def on_auction(self, seat: int, what: str) -> None:
        forced = self.high_by < 0 and seat == self.dealer and self.passes == self.n - 1
        super().on_auction(seat, what)
        if forced and self.status == "in_progress" and self.phase == "auction":
            self.end_auction()

    def legal_trump(self) -> set[str]:
        return {f"trump {x}" for x in SUITS}

    def on_trump(self, seat: int, what: str) -> None:
        self.trump = what.split()[1]
        self.deal(4)
        if self.four_jacks():
            self.status = "annulled"
            return
        self.after_full_deal()

    def after_full_deal(self) -> None:
        self.start_play(self.first)

    def legal_play(self) -> set[str]:
        s = self.to
        hand = self.held[s]
        if self.concealed and self.cur and not any(c[1] == self.cur[0][1][1] for c in hand):
            return {"call"}
        out = {"play " + c for c in self.plays(s, hand)}
        if self.pair_allowed(s):
            out.add("show pair")
        return out | self.extra_play_actions(s)

    def plays(self, s: int, hand: list[str]) -> list[str]:
        if not self.cur:
            if self.concealed and s == self.bidder:
                return [c for c in hand if c[1] != self.trump] or list(hand)
            return list(hand)
        led = self.cur[0][1][1]
        return [c for c in hand if c[1] == led] or list(hand)

    pair_shown = False

    def pair_allowed(self, s: int) -> bool:
        if self.pair_shown or self.concealed or self.special or self.trump is None:
            return False
        hand = self.held[s]
        if "K" + self.trump not in hand or "Q" + self.trump not in hand:
            return False
        return any(self.same_side(t["winner"], s) for t in self.tricks)

    def on_play(self, seat: int, what: str) -> None:
        if what == "call":
            self.caller, self.concealed, self.exposed = seat, False, self.trick_no
            self.cur = [(s, c, c[1] == self.trump) for s, c, _ in self.cur]   # retroactive
            return
        if what == "show pair":
            self.pair_shown = True
            change = -4 if self.same_side(seat, self.bidder) else 4
            self.target = min(28, max(16, self.target + change))
            return
        if not self.on_extra_action(seat, what):
            self.play_card(seat, what.split()[1])

    def finish_trick(self, bonus: int = 0) -> int:
        last = not any(self.held)
        return super().finish_trick(1 if last else 0)

    def score(self) -> None:
        self.status = "complete"
        if self.special is None and self.exposed is None:
            self.status = "annulled"      # the trump was never exposed
            return
        team = self.team_of(self.bidder)
        self.made = self.card_points[team] >= self.target
        self.game_points = [0, 0]
        self.game_points[team] = self.contract_value(self.made)


class Sets(TwentyNine):
    name = "sets"          # a match-level house rule: each hand is twenty-nine's


class PartnerExposed(TwentyNine):
    name = "partner-exposed"   # the partner's hand lies face up: only the views change


class SingleHand(TwentyNine):
    """single-hand: after the full deal any player, asked in turn from the first hand, may play alone for all
    eight tricks without trumps, leading, his partner's cards laid aside: +3 / -3."""

    name = "single-hand"
    show = False

    def after_full_deal(self) -> None:
        self.phase, self.to = "single", self.first
        self.asked = 0

    asked: int

    def legal_single(self) -> set[str]:
        s = self.to
        if self.show and sure_sweep(self.held[s]):
            return {"declare show", "pass"}
        return {"declare single-hand", "pass"}

    def on_single(self, seat: int, what: str) -> None:
        if what == "declare single-hand":
            self.special, self.declarer, self.bidder = "single-hand", seat, seat
            self.trump, self.exposed, self.concealed = None, None, False
            return self.start_play(seat)
        if what == "declare show":
            self.special, self.declarer, self.bidder = "show", seat, seat
            self.status, self.made = "complete", True
            self.game_points = [0, 0]
            self.game_points[self.team_of(seat)] = 3
            return
        self.asked += 1
        if self.asked == self.n:
            return self.start_play(self.first)
        self.to = (seat + 1) % self.n

    def trick_size(self) -> int:
        return 3 if self.special == "single-hand" else 4

    def next_seat(self, seat: int) -> int:
        nxt = (seat + 1) % 4
        if self.special == "single-hand" and nxt == self.partner(self.declarer):
            nxt = (nxt + 1) % 4
        return nxt

    def finish_trick(self, bonus: int = 0) -> int:
        if self.special == "single-hand":
            return Hand.finish_trick(self, 1 if len(self.tricks) == 7 else 0)
        return super().finish_trick(bonus)

    def score(self) -> None:
        if self.special != "single-hand":
            return super().score()
        self.status = "complete"
        self.made = all(t["winner"] == self.declarer for t in self.tricks)
        self.game_points = [0, 0]
        self.game_points[self.team_of(self.declarer)] = 3 if self.made else -3

    def play_card(self, seat: int, card: str) -> None:
        super().play_card(seat, card)
        if self.special == "single-hand" and self.status == "in_progress" and len(self.tricks) == 8:
            self.score()


class SingleHandShow(SingleHand):
    name = "single-hand-show"
    show = True



