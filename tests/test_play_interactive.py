"""`jacknine play` at the table, driven through standard input: whole matches, saves, resume and refusals."""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from engine.cli.app import app

runner = CliRunner()
ONES = "1\n" * 800          # always the first choice: deterministic, and more than a match needs


@pytest.fixture(autouse=True)
def no_disk_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves happen after every move; flushing each to disk only slows these tests (test_table_save checks it)."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return tmp_path


def play(*args: str, input: str = ONES, env: dict[str, str] | None = None) -> tuple[int, str]:
    r = runner.invoke(app, ["play", *args], input=input, env=env)
    if r.exception and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r.exit_code, r.output


def saved(path: str) -> dict[str, object]:
    data = yaml.safe_load(Path(path).read_text())
    assert isinstance(data, dict)
    return data


def test_help_describes_the_table() -> None:
    code, out = play("--help")
    assert code == 0
    for option in ("--ruleset", "--seat", "--bots", "--seed", "--save", "--resume", "--auto", "--max-hands"):
        assert option in out
    assert "Exit status" in out


def test_auto_still_plays_a_whole_match_between_bots() -> None:
    code, out = play("--ruleset", "twenty-eight", "--auto", input="")
    assert code == 0 and "match over after" in out
    assert not list(Path().iterdir())              # watching bots writes no save


def test_auto_refuses_table_options() -> None:
    code, out = play("--auto", "--save", "m.yaml", input="")
    assert code == 2 and "leave out --auto" in out


def test_a_whole_match_through_standard_input() -> None:
    code, out = play("-r", "twenty-eight", "--seed", "3", "--save", "m.yaml")
    assert code == 0, out
    assert "match over after" in out and ("you won" in out or "you lost" in out)
    data = saved("m.yaml")
    assert data["format"] == "jacknine match 1" and data["status"] == "over"
    assert data["ruleset"] == "twenty-eight" and data["seat"] == 0 and data["seed"] == 3 and data["bots"] == "heuristic"
    hands = data["hands"]
    assert isinstance(hands, list) and len(hands) == out.count("over (dealer")
    assert all({"ruleset", "dealer", "seed", "hands", "actions", "status", "score_change"} <= set(h) for h in hands)


def test_six_player_match_at_another_seat() -> None:
    code, out = play("-r", "fifty-six", "--seat", "4", "--seed", "8", "--save", "m.yaml", "--max-hands", "3")
    assert code == 0 and "you are seat 4" in out and "match stopped at the hand limit after 3 hands" in out


def test_end_of_input_saves_and_resume_reaches_the_same_end() -> None:
    code, whole_out = play("-r", "twenty-eight", "--seed", "9", "--save", "whole.yaml")
    assert code == 0
    whole = saved("whole.yaml")
    code, out = play("-r", "twenty-eight", "--seed", "9", "--save", "m.yaml", input="1\n" * 12)
    assert code == 0 and "saved to m.yaml; continue with: jacknine play --resume m.yaml" in out
    assert saved("m.yaml")["status"] == "in_progress"
    code, out = play("--resume", "m.yaml")
    assert code == 0 and "resumed m.yaml" in out and "match over after" in out
    again = saved("m.yaml")
    assert again["hands"] == whole["hands"] and again["scores"] == whole["scores"]
    assert whole_out.splitlines()[-1] == out.splitlines()[-1]      # the same result line


def test_ctrl_c_saves(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"n": 0, "pauses": 0}

    def fake_input(prompt: str = "") -> str:
        calls["n"] += 1
        if calls["n"] > 20:
            raise KeyboardInterrupt
        calls["pauses"] += prompt.startswith("press Enter")   # the pause after a hand's summary is no move
        return "1"
    monkeypatch.setattr(builtins, "input", fake_input)
    code, out = play("-r", "twenty-nine", "--seed", "4", "--save", "m.yaml", input="")
    assert code == 130 and "saved to m.yaml" in out   # Ctrl-C: saved, then the shell's status for SIGINT
    data = saved("m.yaml")
    actions = [a for h in data["hands"] for a in h["actions"]]  # type: ignore[attr-defined]
    moves = 20 - calls["pauses"]
    assert calls["pauses"] >= 1 and sum(1 for a in actions if a.startswith("0 ")) == moves   # every move kept


def test_invalid_lines_get_one_line_reasons() -> None:
    code, out = play("-r", "twenty-eight", "--seed", "3", "--seat", "1", "--save", "m.yaml",
                     input="hello\n0\nplay\n?\nbid 99\nq\n")
    assert code == 0
    assert "'hello' is not understood" in out
    assert "there is no choice 0" in out
    assert "bids go up to 28" in out
    assert "no card is played during the auction; you may now: bid" in out
    assert out.count("\n== ") == 1         # the screen once; refusals only bring back the prompt


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    _, plain = play("-r", "twenty-eight", "--seed", "3", "--save", "a.yaml", input="q\n")
    assert "\x1b[" not in plain and "your hand:" in plain
    _, coloured = play("-r", "twenty-eight", "--seed", "3", "--save", "b.yaml", input="q\n",
                       env={"FORCE_COLOR": "1", "TERM": "xterm-256color"})
    assert "\x1b[1;31m" in coloured                  # hearts and diamonds in red
    _, no_color = play("-r", "twenty-eight", "--seed", "3", "--save", "c.yaml", input="q\n",
                       env={"FORCE_COLOR": "1", "TERM": "xterm-256color", "NO_COLOR": "1"})
    assert "\x1b[" not in no_color


# --- saves that must not be overwritten, and resumes that cannot continue ----------------------------------
def test_save_never_overwrites_a_file_that_is_not_a_save() -> None:
    Path("notes.txt").write_text("my notes\n")
    code, out = play("-r", "twenty-eight", "--save", "notes.txt")
    assert code == 2 and "is not a jacknine match save; nothing was overwritten" in out
    assert Path("notes.txt").read_text() == "my notes\n"


def test_save_never_overwrites_another_match() -> None:
    play("-r", "twenty-eight", "--seed", "1", "--save", "m.yaml", input="q\n")
    before = Path("m.yaml").read_text()
    code, out = play("-r", "twenty-eight", "--seed", "2", "--save", "m.yaml")
    assert code == 2 and "holds a different match" in out and Path("m.yaml").read_text() == before
    code, out = play("-r", "twenty-eight", "--seed", "1", "--save", "m.yaml")
    assert code == 2 and "unfinished save of this match; continue it with --resume m.yaml" in out
    assert Path("m.yaml").read_text() == before


def test_a_finished_save_of_the_same_match_may_be_replaced() -> None:
    assert play("-r", "twenty-eight", "--seed", "3", "--save", "m.yaml", "--max-hands", "1")[0] == 0
    assert saved("m.yaml")["status"] == "over"
    assert play("-r", "twenty-eight", "--seed", "3", "--save", "m.yaml", "--max-hands", "1")[0] == 0


def test_the_default_save_takes_a_free_name() -> None:
    Path("jacknine-match.yaml").write_text("something else\n")
    code, out = play("-r", "twenty-eight", "--seed", "3", input="q\n")
    assert code == 0 and "saving to jacknine-match-2.yaml" in out
    assert Path("jacknine-match.yaml").read_text() == "something else\n"
    assert saved("jacknine-match-2.yaml")["seed"] == 3


def test_resume_into_another_file_and_back_into_a_finished_one() -> None:
    play("-r", "twenty-eight", "--seed", "5", "--save", "m.yaml", input="1\n" * 5)
    code, out = play("--resume", "m.yaml", "--save", "n.yaml")
    assert code == 0 and saved("n.yaml")["status"] == "over" and saved("m.yaml")["status"] == "in_progress"
    code, out = play("--resume", "n.yaml", input="")
    assert code == 0 and "match over after" in out


Edit = Callable[[dict[str, object]], None]


def _set_action(d: dict[str, object]) -> None:
    d["hands"][0]["actions"][0] = "1 bid 99"  # type: ignore[index]


def _set_seed(d: dict[str, object]) -> None:
    d["hands"][0]["seed"] = 1  # type: ignore[index]


def _garble_action(d: dict[str, object]) -> None:
    d["hands"][0]["actions"][0] = "one bid"  # type: ignore[index]


@pytest.mark.parametrize(("edit", "code", "message"), [
    (_set_action, 1, "hands[0].actions[0]: '1 bid 99': bids go up to 28"),
    (_set_seed, 2, "hands[0].seed: 1 does not follow from the match's seed"),
    (_garble_action, 2, "is not an action"),
])
def test_resume_refuses_a_save_it_cannot_continue(edit: Edit, code: int, message: str) -> None:
    play("-r", "twenty-eight", "--seed", "5", "--save", "m.yaml", input="1\n" * 5)
    data = saved("m.yaml")
    edit(data)
    Path("m.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    got, out = play("--resume", "m.yaml")
    assert got == code and message in out


def test_resume_of_something_unreadable_or_contradicted() -> None:
    assert play("--resume", "missing.yaml")[0] == 2
    Path("x.yaml").write_text("ruleset: twenty-eight\n")
    code, out = play("--resume", "x.yaml")
    assert code == 2 and "not a jacknine match save" in out
    play("-r", "twenty-eight", "--seed", "5", "--save", "m.yaml", input="q\n")
    code, out = play("--resume", "m.yaml", "--seed", "6")
    assert code == 2 and "--seed: m.yaml was saved with 5" in out


@pytest.mark.parametrize(("args", "code", "message"), [
    (["--seat", "4"], 2, "--seat: twenty-eight has seats 0..3, not 4"),
    (["--bots", "nobody"], 2, "--bots: unknown bot 'nobody'"),
    (["--bots", "random,random"], 2, "--bots: give one bot name"),
    (["-r", "no-such-game"], 2, "no-such-game"),
])
def test_usage_problems_exit_2(args: list[str], code: int, message: str) -> None:
    got, out = play(*args)
    assert got == code and message in out
    assert not [p for p in os.listdir(".") if p.endswith(".yaml")]   # nothing written


def test_a_match_cut_short_by_the_hand_limit_says_so() -> None:
    code, out = play("--ruleset", "twenty-nine", "--auto", "--max-hands", "1", input="")
    assert code == 0 and "match stopped at the hand limit after 1 hands, nobody at the winning score" in out
    code, out = play("--ruleset", "twenty-nine", "--auto", input="")
    assert code == 0 and "match over after" in out and " won (" in out
