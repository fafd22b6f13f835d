"""Saves are shared between people: resuming one may start no program, must agree with its own replay, and every
refusal leaves every file exactly as it was (one line, exit 1 or 2, no traceback)."""

from __future__ import annotations

import builtins
import copy
import os
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from rich.console import Console
from typer.testing import CliRunner

from engine.cli.app import app
from engine.play.compile import load_game
from engine.table.save import MatchSave, read_save, write_atomic
from engine.table.session import Session, TableConfig

WORKTREE = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path


class Spawns:
    """Every way Python starts a program, made to fail loudly and counted."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def refuse(self, name: str) -> Callable[..., Any]:
        def started(*args: object, **kwargs: object) -> Any:
            self.calls.append(f"{name}{args!r}")
            raise AssertionError(f"a program was started: {name}{args!r}")
        return started


@pytest.fixture
def no_programs(monkeypatch: pytest.MonkeyPatch) -> Iterator[Spawns]:
    spawns = Spawns()
    monkeypatch.setattr(subprocess.Popen, "__init__", spawns.refuse("Popen"))
    for name in ("system", "posix_spawn", "posix_spawnp", "fork", "forkpty", "execv", "execve", "execvp",
                 "execvpe", "popen", "spawnv", "spawnve", "spawnvp"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, spawns.refuse(name))
    yield spawns
    assert spawns.calls == []


def play(*args: str, input: str = "") -> tuple[int, str]:
    r = runner.invoke(app, ["play", *args], input=input)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r.exit_code, r.output


def files(folder: Path = Path()) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def in_progress(seed: int = 5, moves: int = 5) -> dict[str, Any]:
    """A real save of an unfinished match (m.yaml), as data."""
    assert play("-r", "twenty-eight", "--seed", str(seed), "--save", "m.yaml", input="1\n" * moves)[0] == 0
    data = yaml.safe_load(Path("m.yaml").read_text())
    assert data["status"] == "in_progress"
    return data  # type: ignore[no-any-return]


def finished(hands: int = 2) -> dict[str, Any]:
    assert play("-r", "twenty-eight", "--seed", "3", "--save", "m.yaml", "--max-hands", str(hands),
                input="1\n" * 400)[0] == 0
    data = yaml.safe_load(Path("m.yaml").read_text())
    assert data["status"] == "over" and len(data["hands"]) == hands
    return data  # type: ignore[no-any-return]


def write(data: dict[str, Any], name: str = "m.yaml") -> None:
    Path(name).write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def refused(*args: str, code: int) -> str:
    """Resume and expect a refusal: the exit code, one line, no traceback, not a byte changed anywhere."""
    before = files()
    got, out = play("--resume", "m.yaml", *args, input="1\n" * 50)
    assert got == code, out
    assert out.count("\n") == 1 and "Traceback" not in out, out
    assert files() == before
    return out


# --- 1. a save may only name built-in bots -----------------------------------------------------------------
@pytest.mark.parametrize("bots", ["cmd:sh -c 'touch pwned'", "heuristic,cmd:touch pwned,random",
                                  " cmd:touch pwned", "random, random ,cmd:touch pwned"])
def test_a_save_naming_an_outside_program_starts_nothing(no_programs: Spawns, bots: str) -> None:
    data = in_progress()
    data["bots"] = bots
    write(data)
    out = refused(code=2)
    assert "bots: this save starts an outside program" in out and "--bots " in out
    assert not Path("pwned").exists()


def test_a_different_bots_value_is_still_refused(no_programs: Spawns) -> None:
    data = in_progress()
    data["bots"] = "cmd:touch pwned"
    write(data)
    out = refused("--bots", "heuristic", code=2)
    assert out.startswith("--bots: m.yaml was saved with 'cmd:touch pwned'; a resumed match keeps it")
    refused("--bots", "cmd:touch pwned2", code=2)


def test_restating_the_saves_bots_is_how_a_program_is_allowed() -> None:
    data = in_progress()
    program = f"cmd:{sys.executable} -c \"import pathlib; pathlib.Path('ran').touch()\""
    data["bots"] = program
    write(data)
    refused(code=2)
    assert not Path("ran").exists()
    code, out = play("--resume", "m.yaml", "--bots", program, input="")
    assert code == 0 and "saved to m.yaml" in out, out
    assert Path("ran").exists()               # the user's word started it (it exits at once: random plays for it)
    assert read_save(Path("m.yaml")).bots == program


def test_a_new_match_may_name_a_program_on_the_command_line() -> None:
    program = f"cmd:{sys.executable} -c \"import pathlib; pathlib.Path('ran').touch()\""
    code, out = play("-r", "twenty-eight", "--seed", "1", "--save", "m.yaml", "--bots", program, input="q\n")
    assert code == 0 and "saved to m.yaml" in out and Path("ran").exists()


def test_the_session_itself_refuses_programs_it_was_not_allowed() -> None:
    config = TableConfig("twenty-eight", 0, 1, "random,cmd:touch pwned,random", 3)
    with pytest.raises(ValueError, match="starts an outside program"):
        Session(load_game("twenty-eight"), config, Path("m.yaml"), Console(), input)
    assert not Path("m.yaml").exists()


@pytest.mark.parametrize("bot", ["search", "pimc"])
def test_a_save_asking_for_an_unreasonable_search_needs_consent(no_programs: Spawns, bot: str) -> None:
    data = in_progress()
    data["bots"] = f"{bot}:100000000"
    write(data)
    out = refused(code=2)
    assert f"asks the {bot} bot for 100000000 worlds per decision (a save may ask for at most 256)" in out
    data["bots"] = f"heuristic,{bot}:999999,random"
    write(data)
    assert f"asks the {bot} bot for 999999 worlds" in refused(code=2)
    data["bots"] = f"{bot}:16"
    write(data)
    assert play("--resume", "m.yaml", input="")[0] == 0


@pytest.mark.parametrize("kind", ["save", "record", "rule file"])
def test_no_file_can_start_a_program_through_a_yaml_tag(no_programs: Spawns, kind: str) -> None:
    tag = "!!python/object/apply:os.system ['touch pwned']"
    if kind == "save":
        data = in_progress()
        Path("m.yaml").write_text(yaml.safe_dump(data, sort_keys=False).replace("bots: heuristic", f"bots: {tag}"))
        out = refused(code=2)
    else:
        text = (f"ruleset: twenty-eight\ndealer: 0\nseed: {tag}\n" if kind == "record" else
                f"schema_version: 1\nname: h\ndescription: {tag}\nextends: twenty-eight\n")
        Path("f.yaml").write_text(text)
        r = runner.invoke(app, ["replay" if kind == "record" else "validate", "f.yaml"])
        assert r.exit_code == 2
        out = r.output
    assert "unsupported YAML tag !!python/object/apply:os.system" in out and not Path("pwned").exists()


# --- 7 and 8. a save must agree with its own replay; a refusal changes nothing ----------------------------
Edit = Callable[[dict[str, Any]], None]


def _swap_cards(d: dict[str, Any]) -> None:
    cards = d["hands"][0]["hands"]
    a, b = cards[0].split(), cards[1].split()
    a[0], b[0] = b[0], a[0]
    cards[0], cards[1] = " ".join(a), " ".join(b)


def _drop_last_status(d: dict[str, Any]) -> None:
    del d["hands"][0]["status"], d["hands"][0]["score_change"]


PROGRESS_EDITS: list[tuple[str, Edit, int, str]] = [
    ("hands-empty-map", lambda d: d.update(hands={}), 2, "m.yaml:11: hands: must be a list of hand records"),
    ("hands-missing", lambda d: d.pop("hands"), 2, "m.yaml: hands: missing"),
    ("scores", lambda d: d.update(scores=[5, 0]), 1, "scores: the hands give [0, 0], the save says [5, 0]"),
    ("scores-short", lambda d: d.update(scores=[0]), 1, "scores: the hands give [0, 0], the save says [0]"),
    ("status-over", lambda d: d.update(status="over", winners=[0]), 1,
     "status: the hands leave the match in_progress, the save says over"),
    ("cards", _swap_cards, 1, "hands[0].hands: seat 0's cards are not the ones the match's seed deals it"),
    ("dealer", lambda d: d["hands"][0].update(dealer=1), 1,
     "hands[0].dealer: the rules make seat 0 the dealer of this hand, not seat 1"),
    ("seed", lambda d: d["hands"][0].update(seed=1), 2, "hands[0].seed: 1 does not follow from the match's seed"),
    ("hand-ruleset", lambda d: d["hands"][0].update(ruleset="twenty-nine"), 2,
     "hands[0].ruleset: 'twenty-nine' is not the save's ruleset 'twenty-eight'"),
    ("unknown-field", lambda d: d.update(note="hi"), 2, "unknown field 'note'"),
    ("unknown-hand-field", lambda d: d["hands"][0].update(sead=1), 2,
     "hands[0]: unknown field 'sead' (did you mean 'seed'?)"),
    ("status-on-unfinished", lambda d: d["hands"][0].update(status="complete", score_change=[0, 0]), 1,
     "hands[0].status: the save says complete, but its actions stop before the end of the hand"),
    ("illegal-action", lambda d: d["hands"][0]["actions"].append("0 bid 99"), 1, "hands[0].actions["),
    ("garbled-action", lambda d: d["hands"][0]["actions"].append("\x1b[2J"), 2,
     "'\\x1b[2J' is not an action"),
    ("seat", lambda d: d.update(seat=9), 2, "seat: 9 does not exist in twenty-eight (seats 0..3)"),
    ("max-hands", lambda d: d.update(max_hands=0), 2, "max_hands: must be a whole number from 1 to 2000"),
    ("format", lambda d: d.update(format="jacknine match 2"), 2, "not a jacknine match save"),
    ("bots-count", lambda d: d.update(bots="random,random"), 2, "m.yaml: bots: give one bot name"),
    ("bots-unknown", lambda d: d.update(bots="nobody\x1b[2J"), 2, "m.yaml: bots: unknown bot 'nobody\\x1b[2J'"),
    ("types", lambda d: d.update(seed="5"), 2, "seed: must be a whole number of at least 0, not '5'"),
    ("ruleset-pipe", lambda d: (os.mkfifo("pipe.yaml"), d.update(ruleset="./pipe.yaml")), 2,
     "pipe.yaml: is a named pipe, not a regular file"),
    ("ruleset-stdin", lambda d: d.update(ruleset="/dev/stdin"), 2, "/dev/stdin: is a device"),
    ("ruleset-long", lambda d: d.update(ruleset="x" * 5000), 2, "no such file, and no shipped rule file"),
]


@pytest.mark.parametrize(("edit", "code", "message"), [p[1:] for p in PROGRESS_EDITS],
                         ids=[p[0] for p in PROGRESS_EDITS])
def test_a_corrupt_unfinished_save_is_refused_untouched(no_programs: Spawns, edit: Edit, code: int,
                                                         message: str) -> None:
    data = in_progress()
    edit(data)
    write(data)
    out = refused(code=code)
    assert message in out


FINISHED_EDITS: list[tuple[str, Edit, int, str]] = [
    ("winners", lambda d: d.update(winners=[5]), 1, "winners: the hands give [0, 1], the save says [5]"),
    ("no-winners", lambda d: d.pop("winners"), 2, "winners: missing"),
    ("status", lambda d: (d.update(status="in_progress"), d.pop("winners")), 1,
     "status: the hands leave the match over, the save says in_progress"),
    ("score-change", lambda d: d["hands"][0].update(score_change=[9, 9]), 1,
     "hands[0].score_change: the replay gives"),
    ("hand-status", lambda d: d["hands"][0].update(status="annulled"), 1, "hands[0].status: the replay gives"),
    ("hand-status-gone", _drop_last_status, 2, "hands[0]: a finished hand needs its status and score_change"),
    ("extra-hand", lambda d: d["hands"].append(copy.deepcopy(d["hands"][-1])), 1,
     "hands[2]: the match was already over before this hand"),
    ("extra-action", lambda d: d["hands"][0]["actions"].append("0 pass"), 1, "hands[0].actions["),
]


@pytest.mark.parametrize(("edit", "code", "message"), [p[1:] for p in FINISHED_EDITS],
                         ids=[p[0] for p in FINISHED_EDITS])
def test_a_corrupt_finished_save_is_refused_untouched(no_programs: Spawns, edit: Edit, code: int,
                                                       message: str) -> None:
    data = finished()
    edit(data)
    write(data)
    out = refused(code=code)
    assert message in out


def test_a_save_in_another_folder_with_a_bad_target_changes_nothing(no_programs: Spawns) -> None:
    in_progress()
    Path("notes.txt").write_text("mine\n")
    before = files()
    code, out = play("--resume", "m.yaml", "--save", "notes.txt", input="1\n")
    assert code == 2 and "notes.txt: exists and is not a jacknine match save" in out and files() == before


def test_an_agreeing_save_is_not_rewritten_when_nothing_happens() -> None:
    in_progress()
    before, mtime = Path("m.yaml").read_bytes(), Path("m.yaml").stat().st_mtime_ns
    code, out = play("--resume", "m.yaml", input="")
    assert code == 0 and "saved to m.yaml" in out
    assert Path("m.yaml").read_bytes() == before and Path("m.yaml").stat().st_mtime_ns == mtime


def test_a_hand_saved_just_before_it_was_booked_is_booked_on_resume() -> None:
    data = finished(hands=1)
    hand = data["hands"][0]
    del hand["status"], hand["score_change"], data["winners"]
    data.update(status="in_progress", scores=[0, 0])
    write(data)
    code, out = play("--resume", "m.yaml", input="")
    assert code == 0 and "-- hand 1 over" in out and "match stopped at the hand limit after 1 hands" in out
    again = read_save(Path("m.yaml"))
    assert again.status == "over" and again.hands[0]["status"] in ("complete", "annulled")


# --- 4. standing input closed ------------------------------------------------------------------------
def test_closed_standard_input_saves_and_exits_0(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(WORKTREE), NO_COLOR="1")
    run = [sys.executable, "-c", "from engine.cli.app import main; main()", "play", "-r", "twenty-eight",
           "--seed", "4", "--save", "m.yaml"]
    r = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
                       preexec_fn=lambda: os.close(0))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and r.stderr == ""
    assert "saved to m.yaml; continue with: jacknine play --resume m.yaml" in r.stdout
    first = (tmp_path / "m.yaml").read_bytes()
    r = subprocess.run(run[:4] + ["--resume", "m.yaml"], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=120, preexec_fn=lambda: os.close(0))
    assert r.returncode == 0 and r.stderr == "" and (tmp_path / "m.yaml").read_bytes() == first


@pytest.mark.parametrize("error", [RuntimeError("input(): lost sys.stdin"), OSError(5, "Input/output error"),
                                   UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")])
def test_broken_input_is_the_end_of_input(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    def broken(prompt: str = "") -> str:
        raise error
    monkeypatch.setattr(builtins, "input", broken)
    code, out = play("-r", "twenty-eight", "--seed", "4", "--save", "m.yaml")
    assert code == 0 and "saved to m.yaml" in out
    assert play("--resume", "m.yaml")[0] == 0


# --- 3. the save's temporary file ------------------------------------------------------------------------
def test_a_link_planted_at_the_old_temporary_name_is_not_followed() -> None:
    Path("victim.txt").write_text("precious\n")
    os.symlink("victim.txt", f".m.yaml.{os.getpid()}.tmp")
    write_atomic(Path("m.yaml"), "format: jacknine match 1\n")
    assert Path("victim.txt").read_text() == "precious\n" and Path("m.yaml").read_text() == "format: jacknine match 1\n"


def test_the_temporary_file_is_created_exclusively(monkeypatch: pytest.MonkeyPatch) -> None:
    """Even a link planted at the very name the random generator picks is left alone: the creation fails
    (O_EXCL) and another name is drawn."""
    Path("victim.txt").write_text("precious\n")
    os.symlink("victim.txt", ".m.yaml.planted.tmp")
    names = iter(["planted", "planted", "fresh"])
    monkeypatch.setattr(tempfile, "_get_candidate_names", lambda: names)
    write_atomic(Path("m.yaml"), "new\n")
    assert Path("victim.txt").read_text() == "precious\n" and Path("m.yaml").read_text() == "new\n"
    assert os.path.islink(".m.yaml.planted.tmp") and not Path(".m.yaml.fresh.tmp").exists()


def test_a_save_keeps_its_permissions_and_a_new_one_follows_the_umask() -> None:
    write_atomic(Path("m.yaml"), "a\n")
    mask = os.umask(0o027)
    try:
        write_atomic(Path("n.yaml"), "a\n")
    finally:
        os.umask(mask)
    assert stat.S_IMODE(Path("n.yaml").stat().st_mode) == 0o640
    Path("m.yaml").chmod(0o600)
    write_atomic(Path("m.yaml"), "b\n")
    assert stat.S_IMODE(Path("m.yaml").stat().st_mode) == 0o600


def test_a_save_that_cannot_be_written_is_one_line() -> None:
    code, out = play("-r", "twenty-eight", "--seed", "1", "--save", "gone/m.yaml", input="q\n")
    assert code == 2 and out == "gone/m.yaml: cannot write the save (no such file)\n"


def test_a_dangling_link_at_the_save_name_is_not_replaced() -> None:
    os.symlink("elsewhere.yaml", "m.yaml")
    code, out = play("-r", "twenty-eight", "--seed", "1", "--save", "m.yaml", input="q\n")
    assert code == 2 and "exists and is not a jacknine match save" in out and os.path.islink("m.yaml")


# --- 5. a shared rule file's text cannot act on the terminal ---------------------------------------------
HOSTILE = ("schema_version: 1\nname: twenty-eight\nextends: twenty-eight\n"
           'description: "house\\e[2J\\e]0;pwned\\a rules \\u202eesrever\\u202c \\e[8mhidden\\e[0m\\x9b1m end"\n')


@pytest.mark.parametrize("auto", [False, True])
def test_a_rule_files_description_is_shown_without_its_control_codes(auto: bool) -> None:
    Path("twenty-eight.yaml").write_text(HOSTILE)       # a house file that reuses a shipped name
    args = ["--auto", "--max-hands", "1"] if auto else ["--seed", "2", "--save", "m.yaml"]
    code, out = play("-r", "./twenty-eight.yaml", *args, input="q\n")
    assert code == 0, out
    assert "twenty-eight: house rules esrever hidden end" in out
    assert not any(c in out for c in "\x1b\x07\x9b\u202e\u202c")


def test_typed_control_codes_are_said_back_escaped() -> None:
    code, out = play("-r", "twenty-eight", "--seed", "3", "--seat", "1", "--save", "m.yaml",
                     input="\x1b[2J\n\u202eq\n" + "9" * 5000 + "\nq\n")
    assert code == 0
    assert "'\\x1b[2J' is not understood" in out and "'\\u202eq' is not understood" in out
    assert "that line is 5000 characters long" in out
    assert "\x1b" not in out and "\u202e" not in out


def test_a_saved_path_with_control_codes_is_shown_escaped() -> None:
    data = in_progress()
    write(data, "m\x1b[2J.yaml")
    code, out = play("--resume", "m\x1b[2J.yaml", "--seed", "6")
    assert code == 2 and out == "--seed: m\\x1b[2J.yaml was saved with 5; a resumed match keeps it (leave the " \
        "option out, or repeat the same value)\n"


def test_session_snapshot_round_trips(tmp_path: Path) -> None:
    data = in_progress()
    back = read_save(Path("m.yaml"))
    assert isinstance(back, MatchSave) and back.to_yaml() == Path("m.yaml").read_text()
    assert back.hands[0]["actions"] == data["hands"][0]["actions"]
