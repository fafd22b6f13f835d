"""304 (MORE-GAMES.md section 1) and Maharashtrian 304 (section 2), as the referee reads them.

Readings where the text leaves a choice (each is in the referee's list of questions for the lead):
- The "partner" exchange is the first speech of both players: a bid made in the asker's place may be under 200
  only when neither of the two has spoken before. A pass made in the asker's place is the asker's pass; the
  partner's skipped turn is neither a bid nor a pass, so he is asked again in turn (MORE-GAMES.md 9.1).
- PCC is a speech of the eight-card round only (`declare pcc`); its declarer becomes the trumper and folds from
  his eight, and the folded card returns to his hand at once (the trump is open).
- After the final fold of a closed contract the trumper is asked `open` or `pass` (the choice before trick 1).
- Caps (`declare caps`) is offered at each turn to play of a player whose side has lost no trick and has not yet
  called, from the first card of trick 1.
"""

from __future__ import annotations

from typing import Any

from tests.oracle.core import PTS304, R8, Hand, Unsettled

BANDS = [(160, 199, 1, -2), (200, 249, 2, -3), (250, 300, 3, -4)]
PCC_MADE, PCC_FAILED = 4, -5


class ThreeOhFour(Hand):
    name = "three-hundred-and-four"
    ranks = R8
    points = PTS304
    last_bonus = 0
    marriages = False
    target_bounds = (0, 304)

    def __init__(self, name: str, dealer: int, hands: list[list[str]]) -> None:
        super().__init__(name, dealer, hands)
        self.deal(4)
        self.phase, self.to = "auction1", self.first
        self.high, self.high_by = 0, -1
        self.spoke = [False] * 4
        self.passed: set[int] = set()        # the seats that have passed since the last bid
        self.skip = [0] * 4
        self.stage = ""                      # "", "answer" (partner speaks for the asker), "back" (handed back)
        self.asker = -1
        self.handed_back = False
        self.folded: str | None = None
        self.fold_owner = -1
        self.closed = True
        self.pcc = False
        self.r2_order: list[int] = []
        self.r2_pos = 0
        self.r2_lapsed: set[int] = set()
        self.r2_bid = False
        self.open_duty = False
        self.exhausted = False
        self.trick_no = 0
        self.calls: list[dict[str, Any]] = []     # caps calls: side, seat, trick, turn
        self.turns: list[dict[str, Any]] = []     # every turn to play: seat, trick, snapshot for the prover
        self.facedown_hidden = False              # a face-down plain card stayed face down for good
        self.shown_marriages: set[str] = set()
        self.meld_log: list[tuple[int, str, int]] = []
        self._facedown: set[int] = set()
        self.shown_fold: str | None = None        # the folded card, shown when the trump opened
        self.searching = False                    # inside the referee's own search: no caps judgement

    # ----------------------------------------------------------------------------------- auction 1
    def _bids(self, lo: int, top: int = 300) -> set[str]:
        start = max(lo, self.high + 10)
        return {f"bid {v}" for v in range(start, top + 1, 10)}

    def legal_auction1(self) -> set[str]:
        s = self.to
        if self.stage == "answer":
            a, p = self.asker, s
            if self.spoke[a] and not self.spoke[p]:
                raise Unsettled("304: the minimum of a bid made in the place of an asker who has spoken before, "
                                "by a partner who has not")
            lo = 160 if not (self.spoke[a] or self.spoke[p]) else 200
            out = self._bids(lo) | {"pass"}
            if not self.handed_back:
                out.add("partner")
            return out
        if self.stage == "back":
            return self._bids(160 if not self.spoke[s] else 200) | {"pass"}
        lo = 160 if not self.spoke[s] else 200
        if self.high_by >= 0 and self.same_side(self.high_by, s):
            lo = 200
        out = self._bids(lo) | {"pass"}
        out.add("partner")
        if self.high_by == self.partner(s):   # may he ask the partner who holds the top bid to speak for him?
            self.uncertain.add("partner")
        if s == self.first and not self.spoke[s] and self.pts(self.held[s]) < 15:
            out.add("redeal")
        return out

    def on_auction1(self, seat: int, what: str) -> None:
        if what == "redeal":
            self.status = "annulled"
            return
        if self.stage == "":
            if what == "partner":
                self.asker, self.stage, self.handed_back = seat, "answer", False
                self.to = self.partner(seat)
                return
            self.spoke[seat] = True
            self._speech(seat, seat, what)
            return
        a, p = self.asker, self.partner(self.asker)
        if self.stage == "answer" and what == "partner":
            self.handed_back, self.stage, self.to = True, "back", a
            return
        actor = p if self.stage == "answer" else a
        self.stage = ""
        self.spoke[a] = self.spoke[p] = True
        self.skip[p] += 1
        self._speech(a, actor, what)

    def _speech(self, turn: int, actor: int, what: str) -> None:
        if what.startswith("bid"):
            self.high, self.high_by, self.passed = int(what.split()[1]), actor, set()
        else:
            self.passed.add(turn)   # a pass in the asker's place is the asker's pass, not his partner's
        if self._auction1_over():
            return
        nxt = (turn + 1) % 4
        for _ in range(8):
            if nxt == self.high_by:
                nxt = (nxt + 1) % 4
            elif self.skip[nxt]:
                self.skip[nxt] -= 1   # a lapsed turn is neither a bid nor a pass (MORE-GAMES.md 9.1)
                nxt = (nxt + 1) % 4
            else:
                break
        self.to = nxt

    def _auction1_over(self) -> bool:
        if not all(s in self.passed for s in range(4) if s != self.high_by):
            return False
        if self.high_by < 0:
            self.status = "annulled"     # all four passed: no hand, the deal passes on
        else:
            self.bidder, self.bid, self.target, self.round = self.high_by, self.high, self.high, 1
            self.phase, self.to = "fold1", self.high_by
        return True

    # ----------------------------------------------------------------------------------------- folds
    def legal_fold1(self) -> set[str]:
        return {f"trump {c}" for c in self.held[self.to]}

    def on_fold1(self, seat: int, what: str) -> None:
        self._fold(seat, what.split()[1])
        self.deal(4)
        w = self.bidder
        self.r2_order = [(w + k) % 4 for k in range(4)]
        self.r2_pos, self.phase, self.to, self.stage = 0, "auction2", w, ""

    def _fold(self, seat: int, card: str) -> None:
        self.folded, self.fold_owner, self.trump = card, seat, card[1]
        self.held[seat].remove(card)

    # ----------------------------------------------------------------------------------- auction 2
    def legal_auction2(self) -> set[str]:
        if self.pcc:
            raise Unsettled("304: what may the players after a PCC speak in the eight-card round?")
        s = self.to
        out = self._bids(250) | {"pass", "declare pcc"}
        if self.stage == "answer":
            if not self.handed_back:
                out.add("partner")
        elif self.stage == "":
            p = self.partner(s)
            out.add("partner")
            if self.r2_order.index(p) < self.r2_pos:   # his partner has already spoken in this round
                self.uncertain.add("partner")
        return out

    def on_auction2(self, seat: int, what: str) -> None:
        if self.stage == "" and what == "partner":
            self.asker, self.stage, self.handed_back = seat, "answer", False
            self.to = self.partner(seat)
            return
        if self.stage == "answer" and what == "partner":
            self.handed_back, self.stage, self.to = True, "back", self.asker
            return
        actor = seat
        if self.stage:
            self.r2_lapsed.add(self.partner(self.asker))
            self.stage = ""
        if what.startswith("bid"):
            self.high, self.high_by, self.r2_bid = int(what.split()[1]), actor, True
        elif what == "declare pcc":
            self.pcc, self.high_by, self.r2_bid = True, actor, True
        self.r2_pos += 1
        while self.r2_pos < 4 and self.r2_order[self.r2_pos] in self.r2_lapsed:
            self.r2_pos += 1
        if self.r2_pos < 4:
            self.to = self.r2_order[self.r2_pos]
            return
        if self.r2_bid:
            assert self.folded is not None
            self.held[self.fold_owner].append(self.folded)
            self.folded = None
            self.bidder, self.bid, self.target, self.round = self.high_by, self.high, self.high, 2
            if self.pcc:
                self.special = "pcc"
            self.phase, self.to = "fold2", self.high_by
        else:
            self.phase, self.to = "open", self.bidder

    def open_keys(self) -> list[str]:
        # between the end of the eight-card round and the new fold the old fold is back in its owner's hand:
        # whether a report then shows no trump or the old suit is not a rule
        return ["trump"] if self.phase == "fold2" else []

    def legal_fold2(self) -> set[str]:
        return {f"trump {c}" for c in self.held[self.to]}

    def on_fold2(self, seat: int, what: str) -> None:
        self._fold(seat, what.split()[1])
        if self.pcc:
            self._open_now(1)
            self.open_duty = True
            self._start_play(self.bidder)
        else:
            self.phase = "open"

    def legal_open(self) -> set[str]:
        return {"open", "pass"}

    def on_open(self, seat: int, what: str) -> None:
        if what == "open":
            self._open_now(1)
            self.open_duty = True
        self._start_play(self.first)

    def _open_now(self, trick: int) -> None:
        self.closed = False
        self.exposed = trick
        self.shown_fold = self.folded
        if self.folded is not None:
            self.held[self.bidder].append(self.folded)
            self.folded = None

    # ------------------------------------------------------------------------------------------- play
    def _start_play(self, leader: int) -> None:
        self.phase, self.trick_no, self.leader, self.cur = "play", 1, leader, []
        self._arrive(leader)

    def seats_in_play(self) -> list[int]:
        return [s for s in range(4) if not (self.pcc and s == self.partner(self.bidder))]

    def _next_seat(self, seat: int) -> int:
        nxt = (seat + 1) % 4
        while nxt not in self.seats_in_play():
            nxt = (nxt + 1) % 4
        return nxt

    def side_unbeaten(self, seat: int) -> bool:
        return all(self.same_side(t["winner"], seat) for t in self.tricks)

    def _arrive(self, seat: int) -> None:
        """A turn to play begins: compulsory melds are shown, and the turn is kept for the caps judgement."""
        self.to = seat
        if self.marriages and not self.pcc and not self.closed and any(
                self.same_side(t["winner"], seat) for t in self.tricks):
            for suit in "SHDC":
                hand = self.held[seat]
                if suit not in self.shown_marriages and "K" + suit in hand and "Q" + suit in hand:
                    value = 40 if suit == self.trump else 20
                    self.shown_marriages.add(suit)
                    self.meld_log.append((seat, suit, value))
                    # MORE-GAMES.md 9.3: the bid moved by the sum of the marriages, bounded once
                    moved = self.bid + sum(-v if self.same_side(s, self.bidder) else v for s, _, v in self.meld_log)
                    lo, hi = self.target_bounds
                    self.target = min(hi, max(lo, moved))
        if not self.pcc and not self.searching and self.side_unbeaten(seat):
            self.turns.append({"seat": seat, "trick": self.trick_no, "index": len(self.history),
                               "snapshot": self._snapshot()})

    def _snapshot(self) -> dict[str, Any]:
        return {"held": [list(h) for h in self.held], "cur": list(self.cur), "tricks": [dict(t) for t in self.tricks],
                "closed": self.closed, "folded": self.folded, "exhausted": self.exhausted,
                "trick_no": self.trick_no, "leader": self.leader, "open_duty": self.open_duty,
                "hidden": self.facedown_hidden, "history": list(self.history)}

    def legal_play(self) -> set[str]:
        s = self.to
        out = {"play " + c for c in self.plays(s)}
        side = self.team_of(s)
        if not self.pcc and self.side_unbeaten(s) and not any(c["side"] == side for c in self.calls):
            out.add("declare caps")
        return out

    def plays(self, s: int) -> list[str]:
        hand = self.held[s]
        trump = self.trump
        if self.closed and s == self.bidder:
            return self._trumper_closed(hand)
        if not self.cur:
            if self.trick_no == 1 and s == self.bidder and self.open_duty:
                return [c for c in hand if c[1] == trump] or hand
            if s == self.bidder and self.exhausted and any(c[1] == trump for c in hand):
                return [c for c in hand if c[1] == trump]
            return list(hand)
        led = self.cur[0][1][1]
        return [c for c in hand if c[1] == led] or list(hand)

    def _trumper_closed(self, hand: list[str]) -> list[str]:
        trump, folded = self.trump, self.folded
        assert folded is not None
        if not hand:
            return [folded]
        if not self.cur:
            if self.trick_no == 1:
                plain = [c for c in hand if c[1] != trump]
                if not plain:
                    raise Unsettled("304: a closed trumper holding only trumps in hand on lead to trick 1")
                return plain
            if self.exhausted and any(c[1] == trump for c in hand):
                return [c for c in hand if c[1] == trump]
            return list(hand)
        led = self.cur[0][1][1]
        follow = [c for c in hand if c[1] == led]
        if follow:
            return follow
        plain = [c for c in hand if c[1] != trump]
        if led != trump:
            return [folded, *plain]
        return plain

    def on_play(self, seat: int, what: str) -> None:
        if what == "declare caps":
            self.calls.append({"side": self.team_of(seat), "seat": seat, "trick": self.trick_no,
                               "turn": len(self.turns) - 1})
            return
        card = what.split()[1]
        facedown = False
        if self.closed:
            if seat == self.bidder and card == self.folded:
                self.folded = None
                if not self.held[seat]:          # his last card at trick 8: exposed as it is played
                    self.closed, self.exposed = False, self.trick_no
                    self.cur.append((seat, card, True))
                    self._after_card(seat)
                    return
                facedown = True
            else:
                self.held[seat].remove(card)
                facedown = bool(self.cur) and card[1] != self.cur[0][1][1]
        else:
            self.held[seat].remove(card)
        power = not self.closed and card[1] == self.trump
        self.cur.append((seat, card, power))
        if facedown:
            self._facedown.add(len(self.cur) - 1)
        self._after_card(seat)

    def _after_card(self, seat: int) -> None:
        if len(self.cur) < len(self.seats_in_play()):
            self._arrive(self._next_seat(seat))
            return
        self._end_trick()

    def _end_trick(self) -> None:
        down = self._facedown
        trumps_down = [i for i in down if self.cur[i][1][1] == self.trump]
        if trumps_down:
            self._open_now(self.trick_no)
        elif down:
            self.facedown_hidden = True
        # once the trump is open (before or during this trick) every trump-suit card in the trick is a trump;
        # while it stays closed none has trump power and the highest card of the suit led wins
        self.cur = [(s, c, not self.closed and c[1] == self.trump) for s, c, _ in self.cur]
        self._facedown = set()
        led_card = self.cur[0]
        nobody_followed = all(c[1] != led_card[1][1] for _, c, _ in self.cur[1:])
        bonus = self.last_bonus if self.trick_no == 8 else 0
        win = self.finish_trick(bonus)
        if not self.pcc and led_card[0] == self.bidder and led_card[1][1] == self.trump and nobody_followed:
            self.exhausted = True
        if self.closed and self.trick_no == 1 and self.bid >= 250:
            self._open_now(1)
        if self.pcc and win != self.bidder:
            self.stopped = True
            self._score()
            return
        if self.trick_no == 8:
            self._score()
            return
        self.trick_no += 1
        self._arrive(win)

    # ---------------------------------------------------------------------------------------- scoring
    def _score(self) -> None:
        self.status = "complete"
        trump = self.trump
        them = [s for s in range(4) if not self.same_side(s, self.bidder)]
        if not any(c[1] == trump for s in them for c in self.dealt[s]):
            if self.pcc:
                raise Unsettled("304: spoilt trumps under PCC")
            self.status = "annulled"
            return
        team = self.team_of(self.bidder)
        if self.pcc:
            self.made = len(self.tricks) == 8 and all(t["winner"] == self.bidder for t in self.tricks)
            self.exchange(team, PCC_MADE if self.made else PCC_FAILED)
            return
        self.made = self.card_points[team] >= self.target
        _, _, win, lose = next(b for b in BANDS if b[0] <= self.bid <= b[1])
        self.exchange(team, win if self.made else lose)
        if not self.searching:
            self._caps(team, win, lose)

    def _caps(self, team: int, win: int, lose: int) -> None:
        from tests.oracle.prove import caps_proof

        if len({c["side"] for c in self.calls}) > 1:
            raise Unsettled("304: both sides called caps")
        sweeper = next((x for x in (0, 1) if all(self.team_of(t["winner"]) == x for t in self.tricks)), None)
        call = self.calls[0] if self.calls else None
        side = call["side"] if call else sweeper
        if side is None:
            return
        turns = [t for t in self.turns if self.team_of(t["seat"]) == side]
        if call is None:
            # a side that won all eight without calling: wrong if a moment to prove it existed
            for t in turns:
                proof = caps_proof(self, t)
                if proof is None:
                    raise Unsettled("304: the referee cannot decide whether the sweep was provable at a turn")
                if proof:
                    self._wrong(side, swept=True)
                    return
            return
        at = self.turns[call["turn"]]
        proof = caps_proof(self, at)
        swept = sweeper == side
        if sweeper is not None and not swept:
            # the caller's side lost a trick (-5); the other side swept without calling: if a moment was due it
            # is at fault too, and the two results add (MORE-GAMES.md 9.4)
            self._wrong(side, False)
            for t in self.turns:
                if self.team_of(t["seat"]) != sweeper:
                    continue
                later = caps_proof(self, t)
                if later is None:
                    raise Unsettled("304: the referee cannot decide whether the sweep was provable at a turn")
                if later:
                    self._wrong(sweeper, True, add=True)
                    return
            return
        if proof is False:
            self._wrong(side, swept)
            return
        earlier = [t for t in turns if t["index"] < at["index"]]
        decided = []
        for t in earlier:
            p = caps_proof(self, t)
            if p:
                self._wrong(side, swept)   # late: the side's first moment was earlier
                return
            decided.append(p)
        if proof is None or None in decided:
            raise Unsettled("304: the referee cannot decide whether a caps call came at the side's first moment")
        if not swept:
            raise Unsettled("304: a correct caps call after which the side still lost a trick")
        if call["trick"] <= 6:
            bonus_value = (win + 1) if side == team else (-lose + 1)
            self.exchange(side, bonus_value)
        # from trick 7 on: no bonus, the card-point result stands

    def _wrong(self, side: int, swept: bool, add: bool = False) -> None:
        before = list(self.game_points)
        self.exchange(side, -2 if swept else -5)
        if add:
            self.game_points = [a + b for a, b in zip(before, self.game_points, strict=True)]
        self.caps_scored = True

    caps_scored = False

    def report(self) -> dict[str, Any]:
        out = super().report()
        if self.caps_scored:
            out["_score_replaced"] = True   # the card-point result no longer decides: `made` is not pinned
        return out


class Maharashtra(ThreeOhFour):
    name = "three-hundred-and-four-maharashtra"
    last_bonus = 10
    marriages = True
    target_bounds = (0, 314)
