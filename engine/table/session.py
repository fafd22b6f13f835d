"""The table loop: deal, let bots and the player act in turn, book each hand, save after every move.

Each hand gets fresh bots seeded from (match seed, hand number, seat). Resuming replays the unfinished hand's
stored actions through those bots too (each bot is asked again at each of its turns, and the stored action is
applied), so bots that keep state or draw random numbers continue exactly as they would have without the
interruption.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from engine.bots.base import Bot, check_bot_spec, make_bot
from engine.errors import IllegalActionError, RecordError
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.match import Match
from engine.play.state import State
from engine.play.view import build_view
from engine.record import record_of
from engine.table.hints import explain_cards, guarded
from engine.table.prompt import EXPLAIN, HELP, QUIT, parse_input, usage
from engine.table.render import Labels, hand_summary, score_line, screen
from engine.table.save import MatchSave, write_atomic


class StopPlay(Exception):
    """The player asked to stop (q); handled like the end of input: save and leave."""


class ResumeError(Exception):
    """A save that cannot be continued; `code` is the exit status (1 rules problem, 2 unreadable)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class TableConfig:
    ruleset: str          # as written in the save (a shipped name, or a path relative to the save's folder)
    seat: int
    seed: int
    bots: str
    max_hands: int


def bot_names(spec: str, players: int, seat: int) -> list[str]:
    """One bot name per seat (the player's own entry unused): one name for all, one per seat, or one per bot."""
    names = [x.strip() for x in spec.split(",") if x.strip()]
    if len(names) == 1:
        return names * players
    if len(names) == players - 1:
        return names[:seat] + ["-"] + names[seat:]
    if len(names) == players:
        return names
    raise ValueError(f"give one bot name, or one per seat ({players}), or one per bot ({players - 1}); "
                     f"got {len(names)}")


def bot_seed(seed: int, hand_index: int, seat: int) -> int:
    digest = hashlib.sha256(f"{seed}:{hand_index}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Session:
    """One match at the table; `run()` returns the exit status."""

    def __init__(self, game: Game, config: TableConfig, save_path: Path, console: Console,
                 read_line: Callable[[str], str], prior: MatchSave | None = None, symbols: bool = True) -> None:
        self.game = game
        self.config = config
        self.save_path = save_path
        self.console = console
        self.read_line = read_line
        self.labels = Labels(config.seat, symbols)
        self.bots = bot_names(config.bots, game.n, config.seat)
        for name in set(self.bots) - {"-"}:
            check_bot_spec(name)  # an unknown name fails now (ValueError), not in the middle of a hand
        self.match = Match(game, seed=config.seed, max_hands=config.max_hands)
        self.records: list[dict[str, Any]] = []
        self.state: State | None = None
        self.hand_bots: list[Bot | None] = []
        if prior is not None:
            self._restore(prior)

    # --- saving and resuming --------------------------------------------------------------------------
    def _record(self, state: State) -> dict[str, Any]:
        rec = record_of(state, seed=self.match.current_seed).to_dict()
        rec["ruleset"] = self.config.ruleset
        return rec

    def snapshot(self) -> MatchSave:
        records = list(self.records)
        if self.state is not None:
            records.append(self._record(self.state))
        over = self.match.is_over and self.state is None
        c = self.config
        return MatchSave(c.ruleset, c.seat, c.seed, c.bots, c.max_hands, records, list(self.match.scores),
                         "over" if over else "in_progress", list(self.match.winners) if over else None)

    def save(self) -> None:
        write_atomic(self.save_path, self.snapshot().to_yaml())

    def _restore(self, prior: MatchSave) -> None:
        last = len(prior.hands) - 1
        for i, rec in enumerate(prior.hands):
            if self.match.is_over:
                raise ResumeError(f"hands[{i}]: the match was already over before this hand", 1)
            state = self.match.new_hand()
            if rec.get("seed") != self.match.current_seed or rec.get("dealer") != state.dealer:
                raise ResumeError(f"hands[{i}]: dealer and seed do not follow from the match's seed", 2)
            if i == last:
                self._new_bots(i)
            for j, text in enumerate(rec.get("actions") or []):
                try:
                    action = Action.parse(str(text))
                    if i == last and not state.is_terminal:
                        self._ask_bot(state)  # the answer is known; asking keeps the bot where it was
                    state.apply(action)
                except RecordError as e:
                    raise ResumeError(f"hands[{i}], action {j + 1}: {e}", 2) from None
                except IllegalActionError as e:
                    raise ResumeError(f"hands[{i}], action {j + 1} '{text}': {e.reason}", 1) from None
            if state.is_terminal:
                self._book(state)
            elif i != last:
                raise ResumeError(f"hands[{i}]: unfinished, yet more hands follow it", 2)
            else:
                self.state = state
        if self.state is None and prior.hands and prior.scores and prior.scores != self.match.scores:
            raise ResumeError("scores: they do not follow from the hands under this rule file", 1)

    # --- the loop ---------------------------------------------------------------------------------------
    def out(self, text: str | Text = "") -> None:
        self.console.print(text, soft_wrap=True, highlight=False, markup=False)

    def run(self) -> int:
        try:
            self.save()
            while not self.match.is_over:
                if self.state is None:
                    self.state = self.match.new_hand()
                self._play_hand(self.state)
                self._finish_hand(self.state)
            self._finish_match()
        except (KeyboardInterrupt, EOFError, StopPlay):
            self.save()
            self.out()
            self.out(f"saved to {self.save_path}; continue with: jacknine play --resume {self.save_path}")
        finally:
            self.close_bots()
        return 0

    def _new_bots(self, hand_index: int) -> None:
        self.close_bots()
        seed = self.config.seed
        self.hand_bots = [None if s == self.config.seat else make_bot(name, self.game, bot_seed(seed, hand_index, s))
                          for s, name in enumerate(self.bots)]

    def close_bots(self) -> None:
        """Let bots that hold resources (an outside program) release them."""
        for bot in self.hand_bots:
            close = getattr(bot, "close", None)
            if callable(close):
                close()
        self.hand_bots = []

    def _ask_bot(self, state: State) -> Action | None:
        bot = self.hand_bots[state.to_act] if 0 <= state.to_act < len(self.hand_bots) else None
        if bot is None:
            return None
        view = build_view(state, state.to_act) if bot.needs_view else None
        return bot.choose(view, state.legal_actions())

    def _play_hand(self, state: State) -> None:
        hand_index = len(self.match.hands)
        if not state.history:
            self._new_bots(hand_index)
        while not state.is_terminal:
            if state.to_act == self.config.seat:
                self._player_turn(state, hand_index + 1)
                self.save()
                continue
            action = self._ask_bot(state)
            assert action is not None
            state.apply(action)

    def _player_turn(self, state: State, hand_no: int) -> None:
        seat = self.config.seat
        view = build_view(state, seat)
        self.out()
        for line in screen(view, self.labels, hand_no, self.game.teams, not self.game.rules.trump.concealed):
            self.out(line)
        legal = state.legal_actions()
        extra = self.game.doubling_names
        while True:
            p = parse_input(self.read_line("> "), seat, legal, self.game.layout, extra)
            if p.command == EXPLAIN:
                for line in explain_cards(state, seat, self.labels):
                    self.out(Text("  ").append_text(line))
                continue
            if p.command == QUIT:
                raise StopPlay
            if p.command == HELP or p.action is None:
                self.out(p.problem or usage(len(legal)))
                continue
            try:
                state.apply(p.action)
            except IllegalActionError as e:
                self.out(guarded(e.reason, state, view, p.action.notation))
                continue
            return

    def _finish_hand(self, state: State) -> None:
        outcome = self.match.record_hand(state)
        self.state = None
        self._book_record(state, outcome.status, outcome.game_points)
        lab = self.labels
        self.out()
        self.out(Text(f"-- hand {len(self.match.hands)} over (dealer {lab.who(state.dealer)}) --", style="bold"))
        view = build_view(state, self.config.seat)
        for line in hand_summary(view, lab, state.made, state.annul_reason, outcome.game_points, self.game.teams,
                                 not self.game.rules.trump.concealed):
            self.out(line)
        self.out(score_line(self.game.teams, self.match.scores, lab))
        self.save()

    def _book(self, state: State) -> None:
        outcome = self.match.record_hand(state)
        self._book_record(state, outcome.status, outcome.game_points)

    def _book_record(self, state: State, status: str, points: Sequence[int]) -> None:
        rec = self._record(state)
        rec["status"] = status
        rec["score_change"] = list(points)
        self.records.append(rec)

    def _finish_match(self) -> None:
        lab = self.labels
        teams = self.game.teams
        won = " and ".join(lab.team(teams[i]) for i in self.match.winners)
        mine = any(self.config.seat in teams[i] for i in self.match.winners)
        self.out()
        self.out(Text(f"match over after {len(self.match.hands)} hands: {won} won"
                      f" ({', '.join(f'{s:+d}' for s in self.match.scores)}) - you {'won' if mine else 'lost'}",
                      style="bold"))
        self.save()
