"""The terminal table driven through its session object: whole seeded matches with scripted input, checking at
every prompt that nothing of another seat's hand or of a concealed trump the player may not know is on screen."""

from __future__ import annotations

import io
import os
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from engine.cards import SUIT_NAMES, SUIT_SYMBOLS, bits
from engine.play.compile import load_game
from engine.play.state import State
from engine.table.save import MatchSave, read_save
from engine.table.session import Session, TableConfig

Policy = Callable[[State, int], str]


@pytest.fixture(autouse=True)
def no_disk_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves happen after every move; flushing each to disk only slows these tests (test_table_save checks it)."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def hidden_codes(state: State, seat: int) -> set[str]:
    """Card codes the seat must not see: other seats' unplayed cards and a concealed indicator it does not own."""
    g = state.game
    own = {g.codes[c] for c in bits(state.hands[seat])}
    if state.concealed and state.indicator >= 0 and seat == state.high_bidder:
        own.add(g.codes[state.indicator])
    hidden: set[str] = set()
    for s in range(g.n):
        if s != seat and not state.exposed >> s & 1:   # a hand lying face up (a dummy, ...) is everyone's to see
            hidden |= {g.codes[c] for c in bits(state.hands[s])}
    if state.indicator >= 0:
        if state.concealed and seat != state.high_bidder:
            hidden.add(g.codes[state.indicator])
        elif not state.concealed:
            hidden.discard(g.codes[state.indicator])  # exposed: shown face up to everyone, then taken back
    if g.layout.copies > 1:  # a double pack: another copy of the same card may be on the table or in hand
        for t in state.tricks:
            hidden -= {g.codes[c] for c in t.cards}
        hidden -= {g.codes[c] for c in state.trick_cards}
    return hidden - own


def leaks(screen: str, state: State, seat: int) -> list[str]:
    found = []
    for code in hidden_codes(state, seat):
        for form in (code, code[:-1] + SUIT_SYMBOLS[code[-1]]):
            if re.search(rf"(?<![\w]){re.escape(form)}(?!\w)", screen):
                found.append(form)
    if state.concealed and state.trump >= 0 and seat != state.high_bidder:
        letter = state.game.layout.suits[state.trump]
        for line in screen.splitlines():
            bare = re.sub(r"\b[JQKAT0-9]+[♠♥♦♣SHDC]\b|\b[JQKAT0-9]+[♠♥♦♣]", "", line)  # cards name no trump
            if "trump" in line and (SUIT_NAMES[letter] in bare.lower() or SUIT_SYMBOLS[letter] in bare
                                    or re.search(rf"trump:? {letter}\b", bare)):
                found.append(line)
    return found


class Driver:
    """Feeds a policy's answers to a session and checks each screen; can stop (EOF, Ctrl-C, q) after N prompts."""

    def __init__(self, policy: Policy, stop_after: int | None = None,
                 stop_with: type[BaseException] | str = EOFError) -> None:
        self.buf = io.StringIO()
        self.console = Console(file=self.buf, force_terminal=False, width=100)
        self.policy = policy
        self.stop_after = stop_after
        self.stop_with = stop_with
        self.pos = 0
        self.screen = ""
        self.prompts = 0
        self.concealed_unknown = 0   # prompts at which a concealed trump was hidden from the player
        self.pauses = 0              # pauses after a hand's summary
        self.session: Session | None = None

    def read_line(self, prompt: str) -> str:
        assert self.session is not None
        if prompt.startswith("press Enter"):   # the pause after a hand's summary (the hand is booked)
            assert self.session.state is None and "score change:" in self.buf.getvalue()[self.pos:]
            self.pauses += 1
            return ""
        assert self.session.state is not None
        state, seat = self.session.state, self.session.config.seat
        text = self.buf.getvalue()
        seg, self.pos = text[self.pos:], len(text)
        self.screen = seg[seg.rindex("== "):] if "== " in seg else self.screen + seg
        assert not leaks(self.screen, state, seat), (leaks(self.screen, state, seat), self.screen)
        if state.concealed and state.trump >= 0 and seat != state.high_bidder:
            assert "trump: concealed" in self.screen
            self.concealed_unknown += 1
        self.prompts += 1
        if self.stop_after is not None and self.prompts > self.stop_after:
            if isinstance(self.stop_with, str):
                return self.stop_with
            raise self.stop_with
        return self.policy(state, self.prompts)


def play(tmp_path: Path, ruleset: str, seat: int, seed: int, policy: Policy, stop_after: int | None = None,
         stop_with: type[BaseException] | str = EOFError, resume: bool = False, max_hands: int = 40,
         symbols: bool = True) -> tuple[Driver, Session]:
    game = load_game(ruleset)
    drv = Driver(policy, stop_after, stop_with)
    path = tmp_path / "match.yaml"
    prior = read_save(path) if resume else None
    config = TableConfig(ruleset, seat, seed, "random", max_hands)
    session = Session(game, config, path, drv.console, drv.read_line, prior, symbols)
    drv.session = session
    assert session.run() == (130 if drv.stop_with is KeyboardInterrupt and stop_after is not None else 0)
    return drv, session


def by_number(state: State, k: int) -> str:
    """A choice number drawn from the state alone, so an interrupted and a resumed run answer alike."""
    legal = state.legal_actions()
    choice = legal[random.Random(" ".join(map(str, state.history)) + str(state.dealer)).randrange(len(legal))]
    return choice.notation   # typed: the numbered menu lists bids as one choice plus their numbers


def passive(state: State, k: int) -> str:
    """Pass whenever passing is allowed (so bots win the auction), else a numbered choice; sometimes '?'."""
    if k % 7 == 0:
        return "?"
    if any(a.verb == "pass" for a in state.legal_actions()) and state.phase_name == "auction":
        return "pass"
    return by_number(state, k)


def final(session: Session) -> tuple[list[int], list[list[str]]]:
    snap = session.snapshot()
    return snap.scores, [h["actions"] for h in snap.hands]


@pytest.mark.parametrize(("ruleset", "seat", "seed"), [
    ("twenty-eight", 0, 11), ("twenty-eight", 2, 12), ("twenty-nine", 1, 13), ("fifty-six", 3, 14), ("thunee", 2, 16),
])
def test_whole_match_never_shows_hidden_cards(tmp_path: Path, ruleset: str, seat: int, seed: int) -> None:
    drv, session = play(tmp_path, ruleset, seat, seed, passive)
    assert session.match.is_over
    out = drv.buf.getvalue()
    assert "match over after" in out and "you won" in out or "you lost" in out
    saved = read_save(tmp_path / "match.yaml")
    assert saved.status == "over" and saved.scores == session.match.scores
    assert len(saved.hands) == len(session.match.hands) and drv.prompts > 10
    assert out.count("-- hand ") == len(saved.hands)        # a summary after every hand
    assert "card points:" in out and "score change:" in out


def test_concealed_trump_chosen_by_a_bot_stays_hidden_until_exposed(tmp_path: Path) -> None:
    drv, session = play(tmp_path, "twenty-eight", 0, 21, passive, symbols=False)
    # the checks ran at every prompt; make sure the dangerous situation really occurred, many times
    assert drv.concealed_unknown >= 10
    assert "trump chosen face down" in drv.buf.getvalue()


def test_twenty_nine_secret_suit_stays_hidden(tmp_path: Path) -> None:
    drv, _ = play(tmp_path, "twenty-nine", 2, 5, passive)
    assert drv.concealed_unknown >= 5


def test_the_bidder_sees_their_own_concealed_trump(tmp_path: Path) -> None:
    def eager(state: State, k: int) -> str:
        legal = state.legal_actions()
        if state.phase_name == "auction":
            return "bid 28" if any(a.notation == "bid 28" for a in legal) else "pass"
        return by_number(state, k)
    drv, _ = play(tmp_path, "twenty-eight", 1, 3, eager, max_hands=2)
    assert "trump: concealed (only you know it:" in drv.buf.getvalue()
    assert "face down: " in drv.buf.getvalue()


@pytest.mark.parametrize(("where", "stop_with"), [(0.05, EOFError), (0.5, KeyboardInterrupt), (0.95, "q")])
def test_interrupted_and_resumed_match_ends_as_an_uninterrupted_one(
        tmp_path: Path, where: float, stop_with: type[BaseException] | str) -> None:
    whole_dir = tmp_path / "whole"
    whole_dir.mkdir()
    whole_drv, whole = play(whole_dir, "twenty-eight", 0, 34, passive)
    stop_after = max(1, int(whole_drv.prompts * where))
    drv, cut = play(tmp_path, "twenty-eight", 0, 34, passive, stop_after, stop_with)
    assert "saved to" in drv.buf.getvalue() and "--resume" in drv.buf.getvalue()
    saved = read_save(tmp_path / "match.yaml")
    assert saved.status == "in_progress" and not cut.match.is_over
    assert saved.hands[-1].get("status") is None          # the hand in progress is kept, unfinished
    drv2, resumed = play(tmp_path, "twenty-eight", 0, 34, passive, resume=True)
    assert resumed.match.is_over
    assert final(resumed) == final(whole)
    assert drv.prompts - 1 + drv2.prompts == whole_drv.prompts   # nothing asked twice, nothing skipped
    assert drv.pauses + drv2.pauses == whole_drv.pauses == len(whole.match.hands) - 1   # a pause between hands


def test_invalid_input_gets_a_reason_and_the_prompt_again(tmp_path: Path) -> None:
    answers = iter(["", "xyzzy", "99", "bid 15 S", "QQ", "pass", "bid 14"])
    prompts: list[str] = []

    def scripted(state: State, k: int) -> str:
        prompts.append(state.phase_name)
        return next(answers, "1")
    # seat 1 is the first hand after dealer 0: it must open, so 'pass' is refused by the rules
    drv, _ = play(tmp_path, "twenty-eight", 1, 41, scripted, stop_after=7)
    out = drv.buf.getvalue()
    assert "nothing typed: type a choice number" in out
    assert "'xyzzy' is not understood" in out
    assert "bids go up to 28" in out                 # 99 is typed as a bid: the rules say why not
    assert "a bid is just a number here" in out
    assert "'QQ': unknown suit 'Q'" in out
    assert "the first hand must open the bidding" in out
    assert prompts[:7] == ["auction"] * 7          # every refused line asked again, in the same state
    assert "you: bid 14" in out


def test_question_mark_explains_every_card(tmp_path: Path) -> None:
    seen: list[str] = []

    def asker(state: State, k: int) -> str:
        if state.phase_name == "play" and state.trick_cards and not seen:
            seen.append("asked")
            return "?"
        return by_number(state, k)
    drv, _ = play(tmp_path, "twenty-eight", 0, 51, asker, stop_after=60)
    first_hand = drv.buf.getvalue().split("-- hand 1 over")[0]
    lines = [ln.strip() for ln in first_hand.splitlines() if ln.startswith("  ")]
    assert seen and lines
    assert all(re.fullmatch(r"[JQKAT987][♠♥♦♣]: (playable|not playable: .+)|you may also: .+", ln) for ln in lines)
    assert any(ln.endswith(": playable") for ln in lines)
    assert any("not playable: you must follow" in ln for ln in lines), lines


def test_plain_letters_when_symbols_cannot_be_shown(tmp_path: Path) -> None:
    drv, _ = play(tmp_path, "twenty-eight", 0, 61, by_number, stop_after=5, symbols=False)
    out = drv.buf.getvalue()
    assert not any(s in out for s in SUIT_SYMBOLS.values())
    assert re.search(r"your hand: [JT9AKQ87][SHDC]", out)
    assert "\x1b[" not in out                      # not a terminal: no colour codes


def test_saved_hands_are_hand_records_that_replay(tmp_path: Path) -> None:
    import yaml

    from engine.record import read_record_text, replay
    play(tmp_path, "twenty-eight", 0, 71, by_number)
    saved: MatchSave = read_save(tmp_path / "match.yaml")
    for rec in saved.hands:
        rp = replay(read_record_text(yaml.safe_dump(rec)))
        assert rp.error is None and rp.state.status == rec["status"]


def test_a_reason_naming_an_unknown_trump_is_made_neutral() -> None:
    from engine.play.actions import Action
    from engine.play.view import build_view
    from engine.table.hints import guarded

    game = load_game("twenty-eight")
    state = game.new_hand(0, seed=3)
    for _ in range(200):          # bots until the trump is laid face down
        if state.trump >= 0 or state.is_terminal:
            break
        state.apply(state.legal_actions()[-1] if state.phase_name != "auction" else state.legal_actions()[0])
    assert state.concealed and state.trump >= 0
    other = (state.high_bidder + 1) % game.n
    suit = SUIT_NAMES[state.game.layout.suits[state.trump]]
    view = build_view(state, other)
    assert guarded(f"you must play a trump ({suit})", state, view, "play 7S") == "you may not play 7S now"
    assert guarded("you must follow spades", state, view, "play 7S") == "you must follow spades"
    owner = build_view(state, state.high_bidder)
    assert guarded(f"you must play a trump ({suit})", state, owner, "play 7S") == f"you must play a trump ({suit})"
    assert Action(other, "play", "7S").notation == "play 7S"
