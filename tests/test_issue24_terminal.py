"""Issue 24, the terminal: risky actions are never choice 1 and are confirmed once; every score change is
explained; the stages of the auction are named; help and suggestions offer only what is legal. The last test plays
a hand of 304 in a real terminal (tmux), pressing 1 at every prompt."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from engine import load_game
from engine.cli.app import app
from engine.play.actions import Action
from engine.table.decisions import decision, is_risky
from engine.table.prompt import parse_input, usage
from engine.table.render import menu

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    return tmp_path


def _play(*args: str, input: str) -> str:
    r = runner.invoke(app, ["play", *args], input=input, env={"NO_COLOR": "1"})
    if r.exception and not isinstance(r.exception, SystemExit):
        raise r.exception
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.parametrize("legal", [
    ["0 declare caps", "0 play 9H", "0 play AH"],          # a claim before the card
    ["0 call", "0 play AD", "0 play KC"],                  # a call for the concealed trump
    ["0 concede", "0 play 9S"],
    ["0 double", "0 pass"],
    ["0 surrender", "0 play TH"],
])
def test_a_risky_action_is_never_choice_one(legal: list[str]) -> None:
    actions = [Action.parse(a) for a in legal]
    asked = decision("play", actions)
    assert asked is not None
    shown = menu(asked, actions)
    assert not is_risky(shown[0]) and is_risky(shown[-1])
    assert sorted(a.notation for a in shown) == sorted(a.notation for a in actions)


def test_a_doubling_step_named_by_the_rule_file_is_risky() -> None:
    assert is_risky(Action.parse("0 C"), doubling=["C"]) and not is_risky(Action.parse("0 C"))


def test_a_risky_choice_number_asks_once_and_anything_but_y_keeps_it_untaken() -> None:
    # seed 5 of 304: the first speech passes, the second (the eight-card round) offers `declare pcc` as choice 4,
    # and at trick 1 `declare caps` is choice 4
    out = _play("-r", "three-hundred-and-four", "--seed", "5", "--max-hands", "1", "--save", "m.yaml",
                input="1\n4\nn\n1\n4\n1\n" + "1\n" * 40)
    assert "4) declare pcc [asks to confirm]" in out and "4) declare caps [asks to confirm]" in out
    assert out.count("are you sure?") == 2 and out.count("not taken: declare") == 2
    actions = yaml.safe_load(Path("m.yaml").read_text())["hands"][0]["actions"]
    assert not [a for a in actions if a.startswith("0 declare")]


def test_a_confirmed_claim_is_taken_and_its_failure_explained() -> None:
    out = _play("-r", "three-hundred-and-four", "--seed", "5", "--max-hands", "1", "--save", "m.yaml",
                input="1\n1\n4\ny\n" + "1\n" * 40)
    actions = yaml.safe_load(Path("m.yaml").read_text())["hands"][0]["actions"]
    assert "0 declare caps" in actions
    why = next(line for line in out.splitlines() if line.startswith("why: "))
    assert "bids 160-199: +1 made, -2 failed" in why
    assert "caps by your side: called, then a trick was lost, -5 in place of the contract's result" in why
    assert "score change: team 0+2 (you) -5 · team 1+3 +5" in out


def test_every_score_change_is_explained_and_a_target_counted_by_the_opponents_says_whose() -> None:
    out = _play("-r", "thunee", "--seed", "58", "--max-hands", "2", input="1\n" * 200)   # the partner bot calls 10
    assert out.count("why: ") == out.count("score change:") - out.count("annulled:")
    assert "bid 10: team 1+3 needs 95 card points to beat it" in out
    out = _play("-r", "thunee", "--seed", "2", "--max-hands", "2", input="1\n" * 300)
    assert out.count("why: ") == out.count("score change:") - out.count("annulled:")
    assert "seat 1 (right) failed the contract (your side took 171 card points, 105 beating it)" in out
    out = _play("-r", "twenty-nine", "--seed", "3", "--max-hands", "3", input="1\n" * 300)
    assert ("why: seat 2 (partner) failed the contract (your side took 14 card points, target 21); bids 16-28: +1 "
            "made, -1 failed: -1") in out


def test_the_raise_round_and_the_second_auction_are_named() -> None:
    out = _play("-r", "twenty-eight", "--seed", "3", "--max-hands", "1", input="1\n" * 60)
    assert "· raise round: seat 2 (partner): pass · you: pass" in out
    out = _play("-r", "three-hundred-and-four", "--seed", "5", "--max-hands", "1", input="1\n" * 60)
    assert "trump: seat 3 (left): trump chosen face down · second auction: seat 3 (left): pass" in out


def test_suggestions_offer_only_legal_actions() -> None:
    layout = load_game("twenty-eight").layout
    legal = [Action.parse(a) for a in ("0 trump 9H", "0 trump 7H", "0 trump JS")]
    said = parse_input("trump hearts", 0, legal, layout).problem or ""
    assert "did you mean 'trump 9H'?" in said and "'trump H'" not in said
    said = parse_input("trump clubs", 0, legal, layout).problem or ""
    assert "did you mean" not in said and said.endswith("you may: trump 9H, trump 7H, trump JS")
    text = usage(3, (), [Action.parse(a) for a in ("0 play 9H", "0 play AH", "0 declare caps")])
    assert "a card such as 9H" in text and "'declare caps'" in text and "bid" not in text and "'pass'" not in text


def test_304_never_suggests_a_call_it_does_not_have() -> None:
    out = _play("-r", "three-hundred-and-four", "--seed", "5", "--max-hands", "1", input="1\n1\ncall\n?\nq\n")
    assert "there is no call for the trump in this game" in out
    assert "calling" not in out and "call and play" not in out


# ------------------------------------------------------------------------------------------- a real terminal
def _tmux_missing() -> str | None:
    return None if shutil.which("tmux") else "tmux is not installed (apt-get install tmux)"


def test_a_hand_of_304_pressing_1_at_every_prompt_in_a_real_terminal(tmp_path: Path) -> None:
    """tmux runs `jacknine play` in a pseudo-terminal; 1 and Enter are pressed at every prompt (the
    confirmation of a risky action included) until the hand is over. The risky actions were offered, none was
    taken, and the hand ended with its score explained."""
    missing = _tmux_missing()
    if missing:
        if os.environ.get("JACKNINE_REQUIRE_TMUX"):
            pytest.fail(f"the terminal test must run here: {missing}")
        pytest.skip(missing)
    socket = f"jacknine-test-{os.getpid()}"
    tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
    done = tmp_path / "exit-status"
    log = tmp_path / "screen.txt"
    cmd = (f"cd {tmp_path} && PYTHONPATH={ROOT} {sys.executable} -c 'from engine.cli.app import main; main()' "
           f"play -r three-hundred-and-four --seed 5 --max-hands 1 --save m.yaml | tee {log}; "
           f"echo ${{PIPESTATUS[0]}} > {done}")
    env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "NO_COLOR")}
    subprocess.run([*tmux, "new-session", "-d", "-x", "160", "-y", "50", "bash", "-c", cmd], check=True, env=env)
    presses = 0
    try:
        deadline = time.monotonic() + 60
        last = ""
        while not done.exists():
            assert time.monotonic() < deadline, "the hand did not end within 60 s"
            pane = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, text=True).stdout
            lines = [line for line in pane.splitlines() if line.strip()]
            prompt = lines[-1].rstrip() if lines else ""
            if (prompt.endswith(">") or prompt.endswith("stop)")) and pane != last:
                subprocess.run([*tmux, "send-keys", "1", "Enter"], check=True)
                presses += 1
                last = pane
            time.sleep(0.05)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
    assert done.read_text().strip() == "0"
    screen = log.read_text(encoding="utf-8")
    assert presses >= 8 and "[asks to confirm]" in screen       # a risky action was offered
    assert "why: " in screen and "score change:" in screen
    actions = yaml.safe_load((tmp_path / "m.yaml").read_text())["hands"][0]["actions"]
    game = load_game("three-hundred-and-four")
    mine = [Action.parse(a) for a in actions if a.startswith("0 ")]
    assert mine and not [a for a in mine if is_risky(a, game.doubling_names)]


# ------------------------------------------------------------------------------------------ the first hour
def test_the_catalog_lists_every_shipped_file_once_and_its_aliases_load() -> None:
    from engine.rules.load import aliases, catalog, shipped_rulesets

    files = [e.file for e in catalog()]
    assert sorted(files) == sorted(shipped_rulesets()) and len(set(files)) == len(files)
    assert {a: aliases()[a] for a in ("28", "29", "56", "304", "40")} == {
        "28": "twenty-eight", "29": "twenty-nine", "56": "fifty-six", "304": "three-hundred-and-four", "40": "forty"}
    assert load_game("304").rules.name == "three-hundred-and-four" and load_game("304").ref == "three-hundred-and-four"


def test_rulesets_are_grouped_by_family_base_games_first() -> None:
    out = runner.invoke(app, ["rulesets"]).output
    lines = out.splitlines()
    assert lines[0].startswith("Twenty-Eight") and lines[1].split()[0] == "twenty-eight"
    heads = [i for i, line in enumerate(lines) if line and not line.startswith(" ")]
    assert [lines[i + 1].split()[0] for i in heads if i + 1 < len(lines) and lines[i + 1].startswith("  ")][:6] == [
        "twenty-eight", "twenty-nine", "three-hundred-and-four", "thunee", "fifty-six", "forty"]
    assert "Kerala players, this one" in next(line for line in lines if line.split()[:1] == ["twenty-eight-kerala"])
    assert "(also -r 28)" in lines[1]


def test_an_alias_plays_and_is_saved_by_the_file_name() -> None:
    _play("-r", "28", "--seed", "1", "--max-hands", "1", "--save", "m.yaml", input="1\n" * 40)
    assert yaml.safe_load(Path("m.yaml").read_text())["ruleset"] == "twenty-eight"


def test_an_inherited_pair_bound_that_no_longer_covers_changed_bids_is_refused_where_the_bids_changed() -> None:
    Path("h.yaml").write_text("""schema_version: 1
name: h
extends: twenty-nine
description: twenty-nine from 17
auction:
  bids: {min: 17, max: 29}
scoring:
  bands:
    - {bids: [17, 29], made: 1, failed: -1}
special:
  pair:
    bidding_team:
      - {bids: [17, 29], adjust: -4}
""")
    r = runner.invoke(app, ["validate", "h.yaml"])
    assert r.exit_code == 1
    assert ("h.yaml:6:15: auction.bids.min: the target bounds 16-28 do not cover the bids 17-29: a pair would move a "
            "target past its bid; special.pair.target_bounds is inherited from shipped twenty-nine.yaml:64: also set "
            "special.pair.target_bounds for these bids ([17, 29], or null for the bid range)") in r.stderr
    Path("h.yaml").write_text(Path("h.yaml").read_text() + "    target_bounds: [17, 29]\n")
    assert runner.invoke(app, ["validate", "h.yaml"]).exit_code == 0
    assert "The target stays within 17-29." in runner.invoke(app, ["show", "h.yaml"]).stdout


def test_simulate_plays_the_heuristic_by_default_and_says_which_bots_played() -> None:
    out = runner.invoke(app, ["simulate", "-r", "29", "--hands", "3"]).output
    assert ("played by bots: heuristic at every seat (--bots to change; the figures are these bots' play, not the "
            "rule's alone)") in out
    out = runner.invoke(app, ["simulate", "-r", "29", "--hands", "3", "--bots", "random"]).output
    assert "played by bots: random at every seat" in out


def test_the_repository_root_holds_only_what_a_newcomer_should_see() -> None:
    """No stray outputs (run logs, saves, evidence folders) committed at the top: 13 match saves once were."""
    r = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout:
        pytest.skip("not a git checkout")
    top = {path.split("/")[0] for path in r.stdout.splitlines()}
    assert top <= {".ci", ".gitignore", "README.md", "pyproject.toml", "setup.py", "engine", "rulesets", "schemas",
                   "docs", "benchmarks", "examples", "tests"}, sorted(top)


def test_the_screenshots_of_the_table_are_committed_and_linked() -> None:
    """The browser acceptance test's screenshots (JACKNINE_DOC_SHOTS=1 rewrites them): both sizes at the auction,
    mid-trick and the hand's end, and every one docs/playing.md links to."""
    import re

    shots = ROOT / "docs" / "screenshots"
    for size in ("phone", "desktop"):
        for moment in ("auction", "mid-trick", "hand-end"):
            assert (shots / f"{size}-{moment}.png").stat().st_size > 10_000
    playing = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")
    linked = re.findall(r"\]\((screenshots/[^)]+)\)", playing)
    assert linked and all((ROOT / "docs" / target).exists() for target in linked), linked
