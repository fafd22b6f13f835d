"""The table announces calls, pairs, doubling, surrenders and declarations as they happen, with who did them, and
lists them again in the hand summary; it reads the suit symbols it prints; Ctrl-C and a closed screen keep the
match."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from engine.cli.app import app
from engine.play.actions import Action
from engine.play.compile import load_game
from engine.table.events import events
from engine.table.prompt import parse_input
from engine.table.render import Labels

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _view_after(ruleset: str, actions: list[str], seat: int, seed: int = 11, dealer: int = 0):  # type: ignore[no-untyped-def]
    game = load_game(ruleset)
    state = game.new_hand(dealer, seed=seed)
    for text in actions:
        state.apply(Action.parse(text))
    return game, state, state.view(seat)


def test_each_notable_action_is_one_line_naming_who_did_it() -> None:
    game = load_game("odisha")
    lab = Labels(0, symbols=False)
    view = load_game("twenty-eight").new_hand(0, seed=1).view(0)
    history = ["1 call", "2 show pair", "3 double", "0 redouble", "0 C", "1 surrender", "2 refuse", "3 accept",
               "0 declare thani", "1 redeal", "2 bid 16", "3 pass", "0 play JS", "1 trump 9H"]
    view = dataclasses.replace(view, history=tuple(Action.parse(h) for h in history))
    lines = [t.plain for t in events(view, lab, game.doubling_names)]
    assert lines == ["seat 1 called for the trump", "seat 2 showed the pair (King and Queen of trumps)",
                     "seat 3 said double", "you said redouble", "you said C", "seat 1 offered to surrender",
                     "seat 2 refused the surrender", "seat 3 accepted the surrender", "you declared thani",
                     "seat 1 asked for a new deal"]


def test_a_call_names_the_trump_once_it_is_exposed_and_never_before() -> None:
    lab = Labels(0, symbols=False)
    game = load_game("twenty-nine")
    state = game.new_hand(0, seed=3)
    while not any(a.verb == "call" for a in state.history):
        legal = state.legal_actions()
        state.apply(next((a for a in legal if a.verb == "call"), legal[0]))
    exposed = [t.plain for t in events(state.view(0), lab, [])]
    assert len(exposed) == 1 and "called for the trump: " in exposed[0]
    suit = state.trump_suit_code()
    assert suit is not None and lab.suit(suit) in exposed[0]


def test_the_table_announces_calls_as_they_happen_and_in_the_summary(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """twenty-nine: the first player unable to follow must call, so every hand has a call to announce."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    res = runner.invoke(app, ["play", "-r", "twenty-nine", "--seed", "8", "--max-hands", "1", "--save", "m.yaml"],
                        input="1\n" * 60)
    assert res.exit_code == 0, res.output
    played, summary = res.output.split("-- hand 1 over", 1)
    assert "! " in played and "called for the trump" in played        # announced as it happened
    assert "called for the trump" in summary                          # and listed with the hand


@pytest.mark.parametrize("typed", ["Q\u2665", "q\u2661", "play Q\u2665", "QH"])
def test_the_table_reads_the_suit_symbols_it_prints(typed: str) -> None:
    game = load_game("twenty-eight")
    parsed = parse_input(typed, 2, (), game.layout, game.doubling_names)
    assert parsed.action == Action(2, "play", "QH")
    parsed = parse_input("trump \u2660", 2, (), game.layout, game.doubling_names)
    assert parsed.action == Action(2, "trump", "S")


def test_a_closed_screen_keeps_the_match_and_ends_quietly(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", "from engine.cli.app import main; main()", "play", "-r", "twenty-eight", "--seed",
         "3", "--save", str(tmp_path / "m.yaml")],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdin is not None and proc.stderr is not None
    proc.stdout.close()
    proc.stdin.write(b"1\n" * 200)
    proc.stdin.close()
    assert proc.wait(timeout=120) == 141
    assert proc.stderr.read() == b""
    save = yaml.safe_load((tmp_path / "m.yaml").read_text())
    assert save["format"] == "jacknine match 1" and save["ruleset"] == "twenty-eight"


def test_a_verb_the_table_does_not_know_is_announced_from_its_notation() -> None:
    """Verbs a rule file may bring later (claims, melds, concessions) are announced without code of their own."""
    view = load_game("twenty-eight").new_hand(0, seed=1).view(0)
    view = dataclasses.replace(view, history=tuple(Action.parse(h) for h in ["2 claim", "3 meld", "1 bid 16"]))
    lab = Labels(0, symbols=False, players=4, teams=[[0, 2], [1, 3]])
    assert [t.plain for t in events(view, lab, [])] == ["seat 2 (partner): claim", "seat 3 (left): meld"]


def test_the_new_auction_speeches_are_announced_with_who_and_headed() -> None:
    """partner (and its hand-back), change and concede each get a line naming who; a speech made for one's partner
    and a second-auction speech are headed on the screen."""
    from engine.table.render import screen

    axes = ROOT / "tests" / "rulefiles" / "axes" / "partner-speech.yaml"
    eight = {0: "JS 9S AS TS KS QS 8S 7S", 1: "JH 9H AH TH KH QH 8H 7H", 2: "JD 9D AD TD KD QD 8D 7D",
             3: "JC 9C AC TC KC QC 8C 7C"}
    game = load_game(axes)
    state = game.new_hand(3, hands=[game.layout.parse_cards(eight[s].split()) for s in range(4)])
    for text in ["0 partner", "2 partner"]:
        state.apply(Action.parse(text))
    lab = Labels(0, symbols=False)
    view = state.view(0)
    assert [t.plain for t in events(view, lab, game.doubling_names)] == [
        "you asked seat 2 to speak for them", "seat 2 handed the speech back to you"]
    lines = [t.plain for t in screen(view, lab, 1, game.rules.table.teams)]
    assert "your partner handed the speech back: bid or pass" in lines
    # seat 0 bids 160 himself; seat 2's own turn lapses (he handed the speech back): a lapse is not a pass, so the
    # turn comes round to 1 again and then to 2, whose pass ends the auction (the rules' clarification 9.1)
    for text in ["0 bid 160", "1 pass", "3 pass", "1 pass", "2 pass", "0 trump JS"]:
        state.apply(Action.parse(text))
    assert state.round == 2 and state.to_act == 0
    heading = [t.plain for t in screen(state.view(0), lab, 1, game.rules.table.teams)]
    assert "second auction" in heading
    kerala = load_game("twenty-eight-kerala")
    k = kerala.new_hand(3, hands=[kerala.layout.parse_cards(eight[s].split()) for s in range(4)])
    for text in ["0 bid 14", "1 pass", "2 pass", "3 pass", "0 trump JS", "0 pass change", "1 bid 24", "2 pass",
                 "3 pass", "0 pass", "1 concede"]:
        k.apply(Action.parse(text))
    assert [t.plain for t in events(k.view(2), Labels(2, symbols=False), [])] == [
        "seat 0 passed and said change: a new trump card if still holder", "seat 1 conceded: the contract fails"]
