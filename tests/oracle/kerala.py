"""Kerala Twenty-Eight for four and for three (MORE-GAMES.md section 5), as the referee reads it.

Readings where the text leaves a choice (each is in the referee's list of questions for the lead):
- `concede` is offered at the round-one winner's fold step (instead of folding), at the final declarer's fold
  step after round 2, and at each of his turns to play while his side's card points are below the bid. A
  round-one winner who stays declarer without a "change" has no step between round 2 and the first lead.
- Only the round-one winner's round-2 speeches may be marked `change`.
- A declarer void in the suit led (the trump suit included) may play any card, a trump-suit card so played having
  no power and exposing nothing, or `call` and then play the folded card.
"""

from __future__ import annotations

from typing import Any

from tests.oracle.core import PTS28, R6, R8, Hand


class Kerala(Hand):
    name = "twenty-eight-kerala"
    n = 4
    team_lists = [[0, 2], [1, 3]]
    ranks = R8
    points = PTS28
    round1_min, round2_min, honours_above = 14, 24, 20
    BANDS = {(1, False): (1, -1), (1, True): (2, -2), (2, False): (2, -3), (2, True): (2, -3)}

    def __init__(self, name: str, dealer: int, hands: list[list[str]]) -> None:
        super().__init__(name, dealer, hands)
        self.deal(4)
        self.phase, self.to = "round1", self.first
        self.high, self.high_by = 0, -1
        self.spoke: set[int] = set()
        self.passed: set[int] = set()
        self.b1 = -1
        self.bid1 = 0
        self.changed = False
        self.r2_bid = False
        self.folded: str | None = None
        self.fold_owner = -1
        self.concealed = True
        self.caller = -1
        self.conceded = False
        self.trick_no = 0

    # ----------------------------------------------------------------------------------------- teams
    def declarer_side(self) -> list[int]:
        return [s for s in range(self.n) if self.same_side(s, self.bidder)]

    # --------------------------------------------------------------------------------------- round 1
    def legal_round1(self) -> set[str]:
        s = self.to
        lo = max(self.round1_min, self.high + 1)
        out = {f"bid {v}" for v in range(lo, 29)}
        if not (s == self.first and s not in self.spoke):
            out.add("pass")
        return out

    def on_round1(self, seat: int, what: str) -> None:
        self.spoke.add(seat)
        if what == "pass":
            self.passed.add(seat)
        else:
            self.high, self.high_by, self.passed = int(what.split()[1]), seat, set()
        if self.high_by >= 0 and all(s in self.passed for s in range(self.n) if s != self.high_by):
            self.b1, self.bid1 = self.high_by, self.high
            self.bidder, self.bid, self.target, self.round = self.high_by, self.high, self.high, 1
            self.phase, self.to = "fold1", self.high_by
            return
        self.to = (seat + 1) % self.n

    def legal_fold1(self) -> set[str]:
        return {f"trump {c}" for c in self.held[self.to]} | {"concede"}

    def on_fold1(self, seat: int, what: str) -> None:
        if what == "concede":
            return self._concede()
        card = what.split()[1]
        self.folded, self.fold_owner, self.trump = card, seat, card[1]
        self.held[seat].remove(card)
        self.deal(4)
        self.phase, self.to, self.passed, self.r2_bid = "round2", self.b1, set(), False

    # --------------------------------------------------------------------------------------- round 2
    def legal_round2(self) -> set[str]:
        s = self.to
        lo = max(self.round2_min, self.high + 1)
        out = {f"bid {v}" for v in range(lo, 29)} | {"pass"}
        if s == self.b1:
            out |= {a + " change" for a in out}
        return out

    def on_round2(self, seat: int, what: str) -> None:
        words = what.split()
        if words[-1] == "change":
            self.changed = True
            words = words[:-1]
        if words[0] == "pass":
            self.passed.add(seat)
        else:
            self.high, self.high_by, self.passed, self.r2_bid = int(words[1]), seat, set(), True
        over = (all(s in self.passed for s in range(self.n) if s != self.high_by) if self.r2_bid
                else len(self.passed) == self.n)
        if not over:
            self.to = (seat + 1) % self.n
            return
        self.bidder, self.bid, self.target = self.high_by, self.high, self.high
        if self.r2_bid:
            self.round = 2
        if self.bidder != self.b1 or self.changed:
            assert self.folded is not None
            self.held[self.fold_owner].append(self.folded)
            self.folded, self.trump = None, "?"
            self.phase, self.to = "fold2", self.bidder
            return
        self._start_play()

    def legal_fold2(self) -> set[str]:
        return {f"trump {c}" for c in self.held[self.to]} | {"concede"}

    def on_fold2(self, seat: int, what: str) -> None:
        if what == "concede":
            return self._concede()
        card = what.split()[1]
        self.folded, self.fold_owner, self.trump = card, seat, card[1]
        self.held[seat].remove(card)
        self._start_play()

    def open_keys(self) -> list[str]:
        # between the end of round 2 and the new fold: no trump, or the old one? Not a rule.
        return ["trump"] if self.phase == "fold2" else []

    # ------------------------------------------------------------------------------------------ play
    def _start_play(self) -> None:
        self.phase, self.trick_no, self.leader, self.to, self.cur = "play", 1, self.first, self.first, []

    def _side_points(self) -> int:
        return sum(self.pts(t["cards"]) for t in self.tricks if self.same_side(t["winner"], self.bidder))

    def legal_play(self) -> set[str]:
        s = self.to
        out = {"play " + c for c in self._plays(s)}
        if self.concealed and self.cur and self.caller < 0 and not any(c[1] == self.cur[0][1][1]
                                                                       for c in self.held[s]):
            if s != self.bidder or self.folded is not None:
                out.add("call")
        if s == self.bidder and self.caller != s and self._side_points() < self.bid:
            out.add("concede")
        return out

    def _plays(self, s: int) -> list[str]:
        hand = self.held[s]
        if s == self.bidder and self.folded is not None:
            if self.caller == s or not hand:     # he exposed it to play it, or it is his last card
                return [self.folded]
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
        return list(hand)

    def on_play(self, seat: int, what: str) -> None:
        if what == "concede":
            return self._concede()
        if what == "call":
            self.caller = seat
            self._expose()
            return
        card = what.split()[1]
        if seat == self.bidder and card == self.folded:
            self.folded = None
            if self.concealed:
                self._expose(join=False)
        else:
            self.held[seat].remove(card)
        self.cur.append((seat, card, not self.concealed and card[1] == self.trump))
        if len(self.cur) < self.n:
            self.to = (seat + 1) % self.n
            return
        win = self.finish_trick()
        self.caller = -1
        if self.trick_no == 8:
            return self._score()
        self.trick_no += 1
        self.to = win

    def _expose(self, join: bool = True) -> None:
        self.concealed = False
        self.exposed = self.trick_no
        if join and self.folded is not None and self.caller != self.bidder:
            self.held[self.bidder].append(self.folded)
            self.folded = None

    # --------------------------------------------------------------------------------------- scoring
    def _concede(self) -> None:
        self.conceded, self.stopped, self.made = True, True, False
        self._pay(False)

    def _score(self) -> None:
        self.made = self.card_points[self.team_of(self.bidder)] >= self.bid
        self._pay(self.made)

    def value(self, made: bool) -> int:
        rnd = self.round or 1
        win, lose = self.BANDS[(rnd, rnd == 1 and self.bid > self.honours_above)]
        return win if made else lose

    def _pay(self, made: bool) -> None:
        self.status = "complete"
        self.exchange(self.team_of(self.bidder), self.value(made))

    def contract_report(self) -> dict[str, Any] | None:
        out = super().contract_report()
        if out is not None and self.phase == "round2" and self.r2_bid:
            # a round-2 bid stands: its bidder holds the contract at that bid while the round goes on
            out.update(bidder=self.high_by, team=self.team_of(self.high_by), bid=self.high, target=self.high)
        return out

    def report(self) -> dict[str, Any]:
        out = super().report()
        if out["contract"] is not None and self.status == "complete":
            out["contract"]["round"] = self.round
        if self.conceded and self.phase == "fold2":
            out["_unpin"] = ["trump"]     # conceded before the new fold: which trump a report shows is not a rule
        return out


class Kerala3(Kerala):
    """Three players, 24 cards, the declarer against a temporary alliance of the other two; stakes with each."""

    name = "twenty-eight-kerala-3p"
    n = 3
    team_lists = [[0], [1], [2]]
    ranks = R6
    round1_min, round2_min, honours_above = 12, 22, 18
    # per opponent: round 1 at 18 or less 1 each, Honours 2 each, round 2 2 each made or failed
    BANDS = {(1, False): (1, -1), (1, True): (2, -2), (2, False): (2, -2), (2, True): (2, -2)}

    def _set_teams(self) -> None:
        others = [s for s in range(3) if s != self.bidder]
        self.teams = sorted([[self.bidder], others], key=lambda t: t[0])
        self.card_points = [0, 0]
        self.game_points = [0, 0]

    def on_round1(self, seat: int, what: str) -> None:
        super().on_round1(seat, what)
        if self.bidder >= 0:
            self._set_teams()

    def on_round2(self, seat: int, what: str) -> None:
        before = self.bidder
        super().on_round2(seat, what)
        if self.bidder != before:
            self._set_teams()

    def partner(self, seat: int) -> int:
        raise AssertionError("no partners in the three-player game")

    def _pay(self, made: bool) -> None:
        self.status = "complete"
        each = self.value(made)
        d = self.team_of(self.bidder)
        for i in range(2):
            self.game_points[i] = 2 * each if i == d else -each
