"""The referee's own hand machinery for the games of issue 14, written from MORE-GAMES.md (and, for the shipped
games its house rules extend, BUILTINS.md), never from engine code.

A `Hand` is built from a deal written as in a hand record (each seat's cards in the order received) and is
driven by actions in record notation; it answers `to_act`, `legal()` (notation without the seat) and, when the
hand is over or stopped, `report()` in the replay report's shape. Where MORE-GAMES.md leaves a position open the
hand raises `Unsettled` with the question, and the referee does not judge that position or anything after it.
"""

from __future__ import annotations

from typing import Any

UNDECIDED = "?"          # no trump chosen yet (None is no-trumps)
PTS28 = {"J": 3, "9": 2, "A": 1, "T": 1}
PTS304 = {"J": 30, "9": 20, "A": 11, "T": 10, "K": 3, "Q": 2}
R8 = ["J", "9", "A", "T", "K", "Q", "8", "7"]
R6 = R8[:6]
SUITS = "SHDC"


def deck_for(cls: type[Hand]) -> list[str]:
    """Every card of a game's pack (a double pack repeats each code)."""
    return [r + s for s in cls.suits for r in cls.ranks for _ in range(cls.copies)]


class Illegal(Exception):
    """The action is not allowed (the record's index and action are reported)."""


class Unsettled(Exception):
    """MORE-GAMES.md does not decide this position; the message names the open question."""


class Hand:
    """What every game of the family shares: seats, teams, the deal, tricks, and the report."""

    name = ""
    n = 4
    team_lists: list[list[int]] = [[0, 2], [1, 3]]
    ranks: list[str] = R8
    points: dict[str, int] = PTS28
    packets: list[int] = [4, 4]
    suits = SUITS
    copies = 1

    def __init__(self, name: str, dealer: int, hands: list[list[str]]) -> None:
        self.name, self.dealer = name, dealer
        assert len(hands) == self.n, f"{name}: {self.n} hands expected"
        self.dealt = [list(h) for h in hands]
        self.first = (dealer + 1) % self.n
        self.held: list[list[str]] = [[] for _ in range(self.n)]
        self.given = 0
        self.history: list[str] = []
        self.tricks: list[dict[str, Any]] = []
        self.status = "in_progress"
        self.phase = ""
        self.to = -1
        self.teams = [list(t) for t in self.team_lists]
        self.bidder = -1
        self.bid = 0
        self.target = 0
        self.made: bool | None = None
        self.special: str | None = None
        self.multiplier = 1
        self.round: int | None = None
        self.trump: str | None = UNDECIDED
        self.exposed: int | None = None
        self.game_points = [0] * len(self.teams)
        self.card_points = [0] * len(self.teams)
        self.cur: list[tuple[int, str, bool]] = []   # (seat, card, counts as a trump)
        self.leader = -1
        self.stopped = False   # play ended early by a rule

    # ------------------------------------------------------------------------------------- helpers
    def team_of(self, seat: int) -> int:
        return next(i for i, t in enumerate(self.teams) if seat in t)

    def partner(self, seat: int) -> int:
        return (seat + self.n // 2) % self.n

    def same_side(self, a: int, b: int) -> bool:
        return self.team_of(a) == self.team_of(b)

    def deal(self, k: int) -> None:
        for i in range(self.n):
            seat = (self.first + i) % self.n
            self.held[seat] += self.dealt[seat][self.given:self.given + k]
        self.given += k

    def order(self, card: str) -> int:
        return self.ranks.index(card[0])

    def pts(self, cards: list[str]) -> int:
        return sum(self.points.get(c[0], 0) for c in cards)

    # -------------------------------------------------------------------------------------- driving
    def legal(self) -> set[str]:
        """Every legal action of the seat to act; those in `self.uncertain` are ones whose legality MORE-GAMES.md
        leaves open (the referee neither counts them as legal nor as illegal)."""
        self.uncertain: set[str] = set()
        if self.status != "in_progress":
            return set()
        return getattr(self, "legal_" + self.phase)()  # type: ignore[no-any-return]

    def apply(self, text: str) -> None:
        seat_text, *words = text.split()
        seat, notation = int(seat_text), " ".join(words)
        if self.status != "in_progress":
            raise Illegal("the hand is over")
        if seat != self.to:
            raise Illegal(f"it is seat {self.to}'s turn")
        legal = self.legal()
        if notation in self.uncertain:
            raise Unsettled(f"{self.name}: whether '{notation}' is allowed here")
        if notation not in legal:
            raise Illegal(f"{notation} is not allowed now")
        self.history.append(text)
        getattr(self, "on_" + self.phase)(seat, notation)

    # --------------------------------------------------------------------------------------- tricks
    def winner_index(self, plays: list[tuple[int, str, bool]]) -> int:
        """The highest card counting as a trump, else the highest of the suit led; the first of equals."""
        led = plays[0][1][1]
        best, win = None, 0
        for i, (_, card, power) in enumerate(plays):
            if not power and card[1] != led:
                continue
            key = (1 if power else 0, -self.order(card))
            if best is None or key > best:
                best, win = key, i
        return win

    def finish_trick(self, bonus: int = 0) -> int:
        """Book the current trick; returns its winner."""
        win = self.cur[self.winner_index(self.cur)][0]
        cards = [c for _, c, _ in self.cur]
        self.tricks.append({"leader": self.cur[0][0], "cards": cards, "winner": win,
                            "points": self.pts(cards) + bonus})
        self.card_points[self.team_of(win)] += self.pts(cards) + bonus
        self.cur = []
        self.leader = win
        return win

    def tricks_won_by_team(self, team: int) -> int:
        return sum(1 for t in self.tricks if self.team_of(t["winner"]) == team)

    # --------------------------------------------------------------------------------------- report
    def contract_report(self) -> dict[str, Any] | None:
        if self.bidder < 0:
            return None
        out: dict[str, Any] = {"bidder": self.bidder, "team": self.team_of(self.bidder), "bid": self.bid,
                               "target": self.target, "made": self.made if self.status == "complete" else None}
        if self.special is not None:
            out["special"] = self.special
        if self.multiplier != 1:
            out["multiplier"] = self.multiplier
        if self.round is not None and self.status == "complete":
            out["round"] = self.round
        return out

    def report(self) -> dict[str, Any]:
        trump = None
        if self.trump != UNDECIDED:
            trump = {"suit": self.trump, "exposed_in_trick": self.exposed}
        out = {
            "ruleset": self.name,
            "status": self.status,
            "error": None,
            "teams": [list(t) for t in self.teams],
            "contract": self.contract_report(),
            "trump": trump,
            "tricks": [dict(t) for t in self.tricks],
            "card_points": list(self.card_points),
            "game_points": list(self.game_points) if self.status == "complete" else [0] * len(self.teams),
            "next": None,
        }
        if self.status in ("in_progress", "annulled") and self.open_keys():
            out["_unpin"] = self.open_keys()
        return out

    def open_keys(self) -> list[str]:
        """Report keys whose value at this position the rules do not fix (not pinned in a record)."""
        return []

    def exchange(self, team: int, value: int) -> None:
        """`team` gains `value` and every other team loses it (stones, tables, stakes between two teams)."""
        for i in range(len(self.teams)):
            self.game_points[i] = value if i == team else -value
