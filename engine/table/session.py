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

from engine.bots.base import Bot, make_bot
from engine.bots.registry import bot_list, names_program, parse_bot_spec
from engine.errors import IllegalActionError, RecordError
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.match import HandOutcome, Match, annulled_dealer_words
from engine.play.state import State
from engine.play.view import View, build_view
from engine.record import record_of
from engine.table.cues import new_cards, stages, winning_seat
from engine.table.decisions import Decision, Picker, decision
from engine.table.events import events
from engine.table.hints import explain_cards, guarded
from engine.table.outcome import score_reason
from engine.table.prompt import EXPLAIN, HELP, QUIT, Parsed, parse_input, parse_suit, usage
from engine.table.render import Labels, hand_summary, menu, safe, score_line, screen, suit_mark
from engine.table.save import MatchSave, SaveLock, hand_yaml, remove_stale_temps, write_atomic
from engine.table.seats import table_direction
from engine.text import escaped, quoted, shell_word

# A save may choose the search bot's effort, within reason: more worlds per decision than this would let a shared
# save make resuming (which asks the bots again for the unfinished hand) take minutes.
SAVE_MAX_SEARCH_WORLDS = 256


def _numbers(values: Sequence[int]) -> str:
    """A list of numbers from a file, shown short (a save could hold a very long one)."""
    shown = ", ".join(str(v)[:20] for v in values[:12])
    return f"[{shown}{', ...' if len(values) > 12 else ''}]"


Refuse = Callable[[str, str, int], "ResumeError"]


INTERRUPTED = 130   # Ctrl-C at the table: saved, then this exit status (as the shell's own for SIGINT)


class StopPlay(Exception):
    """The player asked to stop (q); handled like the end of input: save and leave."""


class ResumeError(Exception):
    """A save that cannot be continued; `code` is the exit status (1 rules problem, 2 unreadable), `line` the
    save's line the message is about."""

    def __init__(self, message: str, code: int, line: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.line = line


@dataclass(frozen=True)
class TableConfig:
    ruleset: str          # as written in the save (a shipped name, or a path relative to the save's folder)
    seat: int
    seed: int
    bots: str
    max_hands: int


def bot_names(spec: str, players: int, seat: int) -> list[str]:
    """One bot name per seat (the player's own entry unused): one name for all, one per seat, or one per bot."""
    names = bot_list(spec)
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


def is_program(name: str) -> bool:
    """Whether a bot name starts an outside program (only ever on the user's own word, never a file's)."""
    return names_program(name)


def save_bot_concern(spec: str) -> str | None:
    """Why a save's bots need the user's consent (an outside program, an unreasonable search effort), or None.
    A name that is no bot at all is refused later, with its own message."""
    for name in bot_list(spec):
        if names_program(name):
            return f"starts an outside program ({quoted(name)})"
        try:
            bot = parse_bot_spec(name, bounded=False)
        except ValueError:
            continue
        worlds = bot.options.worlds
        if bot.kind is not None and worlds is not None and worlds > SAVE_MAX_SEARCH_WORLDS:
            return (f"asks the {bot.kind.name} bot for {worlds} worlds per decision (a save may ask for at most "
                    f"{SAVE_MAX_SEARCH_WORLDS})")
    return None


class Session:
    """One match at the table; `run()` returns the exit status."""

    def __init__(self, game: Game, config: TableConfig, save_path: Path, console: Console,
                 read_line: Callable[[str], str], prior: MatchSave | None = None, symbols: bool = True,
                 allow_programs: bool = False, written: str | None = None) -> None:
        """`allow_programs`: the user named outside-program bots themselves (a file never may); `written`: the
        text already in `save_path`, which is then not rewritten until the match moves on."""
        self.game = game
        self.config = config
        self.save_path = save_path
        self.lock = SaveLock()
        self.hand_texts: list[str] = []   # the YAML of each finished hand of `records`, written once
        self.console = console
        self.read_line = read_line
        self.labels = Labels(config.seat, symbols, game.n, game.rules.table.teams, table_direction(game))
        self.bots = bot_names(config.bots, game.n, config.seat)
        for name in sorted(set(self.bots) - {"-"}):
            if is_program(name) and not allow_programs:
                raise ValueError(f"{quoted(name)} starts an outside program, which only --bots may ask for")
            try:
                parse_bot_spec(name)  # an unknown name fails now, not in the middle of a hand; nothing is started
            except ValueError as e:
                raise ValueError(escaped(str(e), 300)) from None
        self.match = Match(game, seed=config.seed, max_hands=config.max_hands)
        self.records: list[dict[str, Any]] = []
        self.announced = 0     # history entries of the current hand already announced
        self.state: State | None = None
        self.hand_bots: list[Bot | None] = []
        self.failing: set[int] = set()   # seats whose outside bot failed its last decision (told once)
        self.written = written
        self.resumed = prior is not None
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
        snap = self.snapshot()
        for rec in self.records[len(self.hand_texts):]:
            self.hand_texts.append(hand_yaml(rec))
        text = snap.to_yaml(self.hand_texts)
        if text != self.written:
            write_atomic(self.save_path, text, self.lock)
            self.written = text

    def hold_save(self) -> None:
        """Lock the save for this table (SaveInUse if another table holds it) and remove the temporary files a
        killed table left beside it."""
        self.lock.acquire(self.save_path)
        remove_stale_temps(self.save_path)

    def release_save(self) -> None:
        remove_stale_temps(self.save_path)
        self.lock.release()

    def _restore(self, prior: MatchSave) -> None:
        """Replay the save's hands; refuse it (ResumeError) unless every field is what the replay gives, so that
        continuing never rewrites the save into something else. Exit 2: the save contradicts itself (its seeds);
        exit 1: the rules give another deal, outcome or score than the save says."""
        last = len(prior.hands) - 1

        def refuse(path: str, message: str, code: int) -> ResumeError:
            probe = path
            while probe and probe not in prior.lines:
                probe = probe.rpartition("." if probe.rfind(".") > probe.rfind("[") else "[")[0]
            return ResumeError(f"{path}: {message}", code, prior.lines.get(probe))

        for i, rec in enumerate(prior.hands):
            where = f"hands[{i}]"
            if self.match.is_over:
                raise refuse(where, "the match was already over before this hand", 1)
            state = self.match.new_hand()
            self._check_deal(rec, state, where, prior.ruleset, refuse)
            if i == last:
                self._new_bots(i)
            self._replay_actions(state, rec["actions"], i == last, where, refuse)
            self._settle(state, rec, i == last, where, refuse)
        self._check_standing(prior, refuse)

    def _replay_actions(self, state: State, actions: list[str], last: bool, where: str, refuse: Refuse) -> None:
        """A saved hand's actions, applied; in the last hand the bots are asked too (the answer is known; asking
        keeps each bot where it was)."""
        for j, text in enumerate(actions):
            try:
                action = Action.parse(text)
                if last and not state.is_terminal:
                    self._ask_bot(state)
                state.apply(action)
            except RecordError:
                raise refuse(f"{where}.actions[{j}]", f"{quoted(text)} is not an action "
                             "(write SEAT VERB [ARGUMENTS], e.g. '2 play JS')", 2) from None
            except IllegalActionError as e:
                raise refuse(f"{where}.actions[{j}]", f"{quoted(text)}: {escaped(e.reason, 300)}", 1) from None

    def _settle(self, state: State, rec: dict[str, Any], last: bool, where: str, refuse: Refuse) -> None:
        """A replayed hand: booked and checked against the save when finished; only the last may be unfinished."""
        booked = "status" in rec or not last
        if state.is_terminal and booked:
            outcome = self._book(state)
            self._check_outcome(rec, outcome.status, outcome.game_points, where, refuse)
        elif not last:
            raise refuse(where, "unfinished, yet more hands follow it", 1)
        elif booked:
            raise refuse(f"{where}.status", f"the save says {rec['status']}, but its actions stop before the "
                         "end of the hand", 1)
        else:
            # in progress, or just finished and saved before it was booked (run() books it and goes on)
            self.state = state

    def _check_deal(self, rec: dict[str, Any], state: State, where: str, ruleset: str, refuse: Refuse) -> None:
        if rec["ruleset"] != ruleset:
            raise refuse(f"{where}.ruleset", f"{quoted(rec['ruleset'])} is not the save's ruleset {quoted(ruleset)}",
                         2)
        if rec["seed"] != self.match.current_seed:
            raise refuse(f"{where}.seed", f"{str(rec['seed'])[:20]} does not follow from the match's seed (this "
                         f"hand's seed is {self.match.current_seed})", 2)
        if rec["dealer"] != state.dealer:
            raise refuse(f"{where}.dealer", f"the rules make seat {state.dealer} the dealer of this hand, not seat "
                         f"{str(rec['dealer'])[:20]}", 1)
        cards = rec.get("hands")
        if cards is not None:
            self._check_cards(cards, state, where, refuse)
        stock = rec.get("stock")
        if stock is not None and str(stock).split() != [self.game.codes[c] for c in state.stock]:
            raise refuse(f"{where}.stock", "the stock is not the one the match's seed leaves", 1)

    def _check_cards(self, cards: dict[Any, Any], state: State, where: str, refuse: Refuse) -> None:
        """The saved hands are the ones the match's seed deals (the first seat that differs is named)."""
        dealt = [[self.game.codes[c] for c in h[:self.game.dealt_each]] for h in state.dealt]
        written = [str(cards[seat]).split() for seat in sorted(cards)]
        if written == dealt:
            return
        seat = next((s for s in range(max(len(written), len(dealt)))
                     if s >= len(written) or s >= len(dealt) or written[s] != dealt[s]), 0)
        raise refuse(f"{where}.hands", f"seat {seat}'s cards are not the ones the match's seed deals it", 1)

    def _check_outcome(self, rec: dict[str, Any], status: str, points: Sequence[int], where: str,
                       refuse: Refuse) -> None:
        if "status" not in rec:
            raise refuse(where, "a finished hand needs its status and score_change", 2)
        if rec["status"] != status:
            raise refuse(f"{where}.status", f"the replay gives {status}, the save says {rec['status']}", 1)
        if rec["score_change"] != list(points):
            raise refuse(f"{where}.score_change", f"the replay gives {list(points)}, the save says "
                         f"{_numbers(rec['score_change'])}", 1)

    def _check_standing(self, prior: MatchSave, refuse: Refuse) -> None:
        """The save's scores, status and winners are what its hands give."""
        over = self.match.is_over and self.state is None
        if prior.scores != self.match.scores:
            raise refuse("scores", f"the hands give {self.match.scores}, the save says {_numbers(prior.scores)}", 1)
        status = "over" if over else "in_progress"
        if prior.status != status:
            raise refuse("status", f"the hands leave the match {status}, the save says {prior.status}", 1)
        winners = list(self.match.winners) if over else None
        if prior.winners != winners:
            shown = _numbers(prior.winners) if prior.winners is not None else "none"
            raise refuse("winners", f"the hands give {winners if winners is not None else 'none'}, the save says "
                         f"{shown}", 1)

    # --- the loop ---------------------------------------------------------------------------------------
    def out(self, text: str | Text = "") -> None:
        self.console.print(safe(text), soft_wrap=True, highlight=False, markup=False)

    def run(self) -> int:
        try:
            self.save()
            if self.resumed and self.state is None and self.match.hands and not self.match.is_over:
                self._pause()   # saved at the pause after a hand: the next deal still waits for the player
            while not self.match.is_over:
                if self.state is None:
                    self.state = self.match.new_hand()
                self._play_hand(self.state)
                self._finish_hand(self.state)
            self._finish_match()
        except BrokenPipeError:
            self.save()  # nobody reads the screen any more: keep the match, say nothing
            raise
        except (KeyboardInterrupt, EOFError, StopPlay) as stop:
            self.save()
            self.out()
            self.out(f"saved to {escaped(str(self.save_path))}; continue with: jacknine play --resume "
                     f"{shell_word(str(self.save_path))}")
            return INTERRUPTED if isinstance(stop, KeyboardInterrupt) else 0
        finally:
            self.close_bots()
            self.release_save()
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
        who = state.controller   # a dummy's cards are chosen by its declarer
        bot = self.hand_bots[who] if 0 <= who < len(self.hand_bots) else None
        if bot is None:
            return None
        view = build_view(state, state.to_act) if bot.needs_view else None
        incidents = getattr(bot, "incidents", None)
        before = len(incidents) if isinstance(incidents, list) else 0
        action = bot.choose(view, state.legal_actions())
        if isinstance(incidents, list) and len(incidents) > before:
            self._bot_failed(who, str(getattr(bot, "name", "the outside bot")), str(incidents[-1]))
        else:
            self.failing.discard(who)
        return action

    def _bot_failed(self, seat: int, name: str, incident: str) -> None:
        """An outside bot that failed a decision is replaced by the random bot for it: the player is told, once
        while it keeps failing (and again if it fails after answering well)."""
        if seat in self.failing:
            return
        self.failing.add(seat)
        reason = incident.removesuffix("; the random bot played")
        self.out(f"! seat {seat}: its bot {quoted(name)} failed ({escaped(reason, 300)}); the random bot plays "
                 "for it while it fails")

    def _play_hand(self, state: State) -> None:
        hand_index = len(self.match.hands)
        if not state.history:
            self._new_bots(hand_index)
        self.announced = 0 if not state.history else len(state.history)
        while not state.is_terminal:
            if state.controller == self.config.seat:
                self._player_turn(state, hand_index + 1)
                self.save()
                continue
            action = self._ask_bot(state)
            assert action is not None
            state.apply(action)

    def _announce(self, view: View) -> None:
        """Say what happened since the last announcement (calls, pairs, doubling, surrenders, ...)."""
        for line in events(view, self.labels, self.game.doubling_names, self.announced):
            self.out(Text("! ", style="bold").append_text(line))
        self.announced = len(view.history)

    def _player_turn(self, state: State, hand_no: int) -> None:
        seat = self.config.seat
        view = build_view(state, seat)
        self.labels.teams = [list(t) for t in view.teams]   # partners for this hand (a lone bidder changes them)
        self.out()
        self._announce(view)
        rules = self.game.rules
        asked = decision(view.phase, view.legal, self.game.doubling_names)
        for line in screen(view, self.labels, hand_no, rules.table.teams, not rules.trump.concealed, asked,
                           winning_seat(state, seat), new_cards(state, seat), stages(state)):
            self.out(line)
        legal = state.legal_actions()
        choices = menu(asked, legal) if asked is not None else list(legal)
        pickers = asked.pickers if asked is not None else []
        extra = self.game.doubling_names
        while True:
            # (a dummy's cards are its own seat's plays, chosen here by its declarer)
            p = parse_input(self.read_line("> "), state.to_act, choices, self.game.layout, extra, pickers)
            if p.needs_suit is not None:
                p = self._ask_suit(p)
            action = self._answer(p, state, choices, pickers, asked)
            if action is None:
                continue
            try:
                state.apply(action)
            except IllegalActionError as e:
                self.out(guarded(e.reason, state, view, action.notation))
                continue
            return

    def _answer(self, p: Parsed, state: State, choices: Sequence[Action], pickers: Sequence[Picker],
                asked: Decision | None) -> Action | None:
        """The action a line typed takes; None after a command, a problem or a risky choice not confirmed (the
        player types again)."""
        if p.command == EXPLAIN:
            for line in explain_cards(state, self.config.seat, self.labels):
                self.out(Text("  ").append_text(line))
            return None
        if p.command == QUIT:
            raise StopPlay
        if p.command == HELP or p.action is None:
            self.out(p.problem or usage(len(choices), pickers, choices))
            return None
        if _asks_confirmation(p.action, p.by_number, asked, choices) and not self._confirmed(p.action):
            return None
        return p.action

    def _confirmed(self, action: Action) -> bool:
        """A risky action chosen by its number (a claim, a call, a concession, a doubling step) is taken only
        when the player confirms it, once: 'y' or 'yes'; anything else goes back to the choices."""
        said = self.labels.action(action).plain
        answer = self.read_line(f"{said}: are you sure? type y to confirm, anything else to choose again > ")
        if answer.strip().lower() in ("y", "yes"):
            return True
        if answer.strip().lower() in ("q", "quit", "exit", "save"):
            raise StopPlay
        self.out(f"not taken: {said}")
        return False

    def _ask_suit(self, typed: Parsed) -> Parsed:
        """A bid's number was typed where bids name a suit: ask for the suit (a number from the list or the suit)."""
        assert typed.needs_suit is not None
        picker, value = typed.needs_suit
        suits = picker.suits.get(value, [])
        listed = "  ".join(f"{i}) {suit_mark(s, self.labels)}" for i, s in enumerate(suits, 1))
        self.out(f"{picker.verb} {value} in which suit? {listed}")
        return parse_suit(self.read_line(f"{picker.verb} {value} > "), self.config.seat, picker, value)

    def _finish_hand(self, state: State) -> None:
        outcome = self.match.record_hand(state)
        self.state = None
        self._book_record(state, outcome.status, outcome.game_points)
        lab = self.labels
        self.out()
        view = build_view(state, self.config.seat)
        self._announce(view)
        self.out(Text(f"-- hand {len(self.match.hands)} over (dealer {lab.who(state.dealer)}) --", style="bold"))
        rules = self.game.rules
        for line in hand_summary(view, lab, state.made, state.annul_reason, outcome.game_points, rules.table.teams,
                                 not rules.trump.concealed, annulled_dealer_words(self.game, state.annul_code),
                                 score_reason(state, lab)):
            self.out(line)
        for line in events(view, lab, self.game.doubling_names):
            self.out(Text("  ").append_text(line))
        self.out(score_line(self.game.rules.table.teams, self.match.scores, lab))
        self.save()
        if not self.match.is_over:
            self._pause()

    def _pause(self) -> None:
        """The summary stays on screen until the player asks for the next hand."""
        if self.read_line("press Enter for the next hand (q to save and stop) ").strip().lower() in (
                "q", "quit", "exit", "save"):
            raise StopPlay

    def _book(self, state: State) -> HandOutcome:
        outcome = self.match.record_hand(state)
        self._book_record(state, outcome.status, outcome.game_points)
        return outcome

    def _book_record(self, state: State, status: str, points: Sequence[int]) -> None:
        rec = self._record(state)
        rec["status"] = status
        rec["score_change"] = list(points)
        self.records.append(rec)

    def _finish_match(self) -> None:
        lab = self.labels
        teams = self.game.rules.table.teams
        won = " and ".join(lab.team(teams[i]) for i in self.match.winners)
        mine = any(self.config.seat in teams[i] for i in self.match.winners)
        scores = ", ".join(f"{s:+d}" for s in self.match.scores)
        self.out()
        if self.match.decided:
            self.out(Text(f"match over after {len(self.match.hands)} hands: {won} won ({scores}) - you "
                          f"{'won' if mine else 'lost'}", style="bold"))
        else:
            ahead = f"{won} ahead" if len(self.match.winners) < len(teams) else "all level"
            self.out(Text(f"match stopped at the hand limit after {len(self.match.hands)} hands, nobody at the "
                          f"winning score: {ahead} ({scores})", style="bold"))
        self.save()


def _asks_confirmation(action: Action, by_number: bool, asked: Decision | None, choices: Sequence[Action]) -> bool:
    """A risky action chosen by its number, among other choices, is confirmed before it is taken."""
    return by_number and asked is not None and action.notation in asked.risky and len(choices) > 1
