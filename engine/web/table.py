"""One table of the web server, as plain logic (no network, no database): who sits where, the match, the hand in
play, and every change as an entry of an append-only log from which the table is rebuilt by replay.

The seat of every action is given by the caller, who took it from the connection's token; nothing here reads a
seat from a message. The match is the terminal's: `Match` from the match seed, so a downloaded save continues
in `jacknine play --resume`, and every deal follows from the seed the table commits to at its start."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import IllegalActionError, RecordError
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.match import Match
from engine.play.state import State
from engine.play.view import build_view
from engine.record import record_of
from engine.table.hints import guarded
from engine.table.save import MatchSave

PERSON, BOT = "person", "bot"
DEFAULT_STAND_IN = "heuristic"   # the bot that plays for a person who is away, unless the seat names another
WAITING, PLAYING, OVER, STOPPED = "waiting", "playing", "over", "stopped"


class Refused(Exception):
    """An action or request the table does not take; `reason` is what the person is told (the engine's own
    reason for an illegal move). Nothing was changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class SeatSpec:
    kind: str                 # PERSON or BOT
    bot: str = DEFAULT_STAND_IN   # the bot at a bot seat; the stand-in for a person who is away
    name: str = ""            # a person's name as they gave it (shown escaped by the page)

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "bot": self.bot, "name": self.name}


@dataclass(frozen=True)
class Entry:
    """One log entry: `kind` is start, act, deal, chat, seat, spectators or stop."""

    kind: str
    seat: int = -1
    body: str = ""


def commitment(seed: int) -> str:
    """The SHA-256 of the seed's decimal digits (what `printf %s SEED | sha256sum` prints)."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def bot_seed(seed: int, hand_index: int, seat: int, step: int) -> int:
    """A bot's seed for one decision: fixed by the match, the hand, the seat and the number of actions before."""
    digest = hashlib.sha256(f"{seed}:{hand_index}:{seat}:{step}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass
class Finished:
    """What everyone may see of a finished hand: every seat's cards as dealt, its outcome and the score change."""

    number: int
    state: State
    status: str
    score_change: list[int]
    record: dict[str, Any]


@dataclass
class Table:
    """A table: settings, seats, the match and where it stands. `log` receives every entry as it happens."""

    table_id: str
    game: Game
    ruleset: str                         # as saves and records name it: a shipped name or an uploaded file's name
    seed: int
    seats: list[SeatSpec]
    max_hands: int
    spectators: bool = False
    log: Callable[[Entry], None] = field(default=lambda e: None, repr=False)
    status: str = WAITING
    match: Match = field(init=False)
    state: State | None = None
    finished: list[Finished] = field(default_factory=list)
    summary_open: bool = False           # the last hand's summary is showing; the next hand waits for the people
    ready: set[int] = field(default_factory=set)
    chat: list[tuple[int, str]] = field(default_factory=list)
    version: int = 0                     # every change counts one: the number of the messages it causes
    seat_changes: list[int] = field(default_factory=list)   # per seat: how often the host changed it (its link's
    #                                                         generation: each change makes the old link useless)

    def __post_init__(self) -> None:
        self.match = Match(self.game, seed=self.seed, max_hands=self.max_hands)
        self.seat_changes = [0] * len(self.seats)

    @property
    def ended(self) -> bool:
        return self.status in (OVER, STOPPED)

    # --- entries: each is applied here and logged, or replayed from the log ----------------------------
    def apply(self, entry: Entry, replaying: bool = False) -> None:
        """Apply one entry (Refused when it is not allowed, nothing changed), then log it unless replaying."""
        effects: dict[str, Callable[[Entry], None]] = {
            "start": self._start, "act": lambda e: self._act(e.seat, e.body), "deal": self._next_deal,
            "chat": self._chat, "seat": lambda e: self._seat(e.seat, e.body), "spectators": self._spectators,
            "stop": self._stop}
        effect = effects.get(entry.kind)
        if effect is None:
            raise Refused(f"unknown entry {entry.kind!r}")
        effect(entry)
        self.version += 1
        if not replaying:
            self.log(entry)

    def _start(self, entry: Entry) -> None:
        if self.status != WAITING:
            raise Refused("the match has already started")
        self.status = PLAYING
        self._deal()

    def _next_deal(self, entry: Entry) -> None:
        if not self.summary_open or self.status != PLAYING:
            raise Refused("no hand is waiting to be dealt")
        self._deal()

    def _chat(self, entry: Entry) -> None:
        self.chat.append((entry.seat, entry.body))
        del self.chat[:-200]

    def _spectators(self, entry: Entry) -> None:
        self.spectators = entry.body == "1"

    def _stop(self, entry: Entry) -> None:
        if self.status in (OVER, STOPPED):
            raise Refused("the match has already ended")
        self.status = STOPPED

    def _deal(self) -> None:
        self.summary_open = False
        self.ready.clear()
        self.state = self.match.new_hand()

    def _act(self, seat: int, notation: str) -> None:
        state = self.state
        if self.status != PLAYING or state is None or self.summary_open:
            raise Refused("no hand is being played")
        try:   # a declarer plays his dummy's cards: the action is the dummy's
            action = Action.parse(f"{state.to_act if state.controller == seat else seat} {notation}")
        except RecordError as e:
            raise Refused(str(e)) from None
        if state.controller != seat:
            raise Refused(f"it is not your turn (seat {state.to_act} is to play)")
        try:
            state.apply(action)
        except IllegalActionError as e:
            raise Refused(guarded(e.reason, state, build_view(state, seat), action.notation)) from None
        if state.is_terminal:
            self._book(state)

    def _book(self, state: State) -> None:
        outcome = self.match.record_hand(state)
        rec = record_of(state, seed=outcome.seed).to_dict()
        rec["ruleset"] = self.ruleset
        rec["status"] = outcome.status
        rec["score_change"] = list(outcome.game_points)
        self.finished.append(Finished(len(self.finished) + 1, state, outcome.status, list(outcome.game_points), rec))
        self.state = None
        if self.match.is_over:
            self.status = OVER
        else:
            self.summary_open = True

    def _seat(self, seat: int, body: str) -> None:
        if not 0 <= seat < len(self.seats):
            raise Refused(f"there is no seat {seat}")
        kind, _, bot = body.partition(" ")
        if kind not in (PERSON, BOT):
            raise Refused(f"a seat is a {PERSON} or a {BOT}")
        spec = self.seats[seat]
        self.seats[seat] = SeatSpec(kind, bot or spec.bot, spec.name)
        self.seat_changes[seat] += 1

    # --- questions ------------------------------------------------------------------------------------
    @property
    def hand_number(self) -> int:
        return len(self.finished) + (1 if self.state is not None else 0)

    @property
    def seed_revealed(self) -> bool:
        return self.status in (OVER, STOPPED)

    def to_act(self) -> int | None:
        """The seat whose turn it is, or None (no hand in play)."""
        if self.status != PLAYING or self.state is None or self.state.is_terminal:
            return None
        return self.state.controller   # a dummy's turn is its declarer's

    def people(self) -> list[int]:
        return [s for s, spec in enumerate(self.seats) if spec.kind == PERSON]

    def save_for(self, seat: int) -> MatchSave:
        """The match save for `seat` (the terminal table's format): finished hands and the hand in play. Only once
        the seed is revealed (the match over or stopped): a save holds the seed, and with it every deal."""
        if not self.seed_revealed:
            raise Refused("the match save is ready when the match is over or the host stops it (it holds the seed)")
        hands = [f.record for f in self.finished]
        if self.state is not None:
            rec = record_of(self.state, seed=self.match.current_seed).to_dict()
            rec["ruleset"] = self.ruleset
            hands.append(rec)
        bots = ",".join(spec.bot if spec.kind == BOT else (spec.bot or DEFAULT_STAND_IN) for spec in self.seats)
        over = self.match.is_over and self.state is None
        return MatchSave(self.ruleset, seat, self.seed, bots, self.max_hands, hands, list(self.match.scores),
                         "over" if over else "in_progress", list(self.match.winners) if over else None)

    def records(self) -> list[dict[str, Any]]:
        """The finished hands' records; before the seed is revealed, without their deal seeds (from enough of
        them the generator that draws the next hands' seeds could be rebuilt), with every seat's cards instead."""
        out = []
        for f in self.finished:
            rec = dict(f.record)
            if not self.seed_revealed:
                rec.pop("seed", None)
            out.append(rec)
        return out
