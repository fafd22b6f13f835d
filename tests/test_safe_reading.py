"""The shared readers for files someone else wrote: only regular files are opened (never a pipe, a device or a link
loop), YAML is plain and bounded, and text shown on the terminal cannot act on it."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from engine.errors import UnreadableError
from engine.rules.load import check_ruleset, locate
from engine.safefile import not_regular, read_regular
from engine.safeyaml import compose, load
from engine.text import escaped, one_line, printable, quoted, shell_word

runner = CliRunner()
HOUSE = "schema_version: 1\nname: house\ndescription: a house rule\nextends: twenty-eight\n"


# --- text shown on a terminal -------------------------------------------------------------------------
@pytest.mark.parametrize(("raw", "shown"), [
    ("plain words", "plain words"),
    ("clear\x1b[2Jscreen", "clearscreen"),
    ("hidden \x1b[8mtext\x1b[0m", "hidden text"),
    ("title\x1b]0;pwned\x07bar", "titlebar"),
    ("c1\x9b31mred", "c1red"),
    ("reset\x1bc", "reset"),
    ("bidi \u202eevil\u202c and \u2066iso\u2069", "bidi evil and iso"),
    ("zero\u200bwidth soft\u00adhyphen bom\ufeff", "zerowidth softhyphen bom"),
    ("bell\x07 back\x08space del\x7f", "bell backspace del"),
    ("line\nbreak\ttab\u2028sep", "line break tab sep"),
    ("règles ♠ 😀", "règles ♠ 😀"),
])
def test_printable_takes_out_everything_a_terminal_acts_on(raw: str, shown: str) -> None:
    assert printable(raw) == shown
    assert all(ch.isprintable() for ch in printable(raw))


def test_printable_can_keep_lines_and_one_line_folds_them() -> None:
    assert printable("a\r\nb\x1b[1A\nc", keep_newlines=True) == "a\nb\nc"
    assert one_line("  folded\n   description \x1b[31m text\n") == "folded description text"


def test_escaped_and_quoted_show_every_character() -> None:
    assert escaped("ok") == "ok"
    assert escaped("a\x1b[2Jb\u202ec\n") == "a\\x1b[2Jb\\u202ec\\n"
    assert quoted("x" * 100) == "'" + "x" * 60 + "...'"
    assert shell_word("my save.yaml") == "'my save.yaml'" and shell_word("m.yaml") == "m.yaml"
    assert shell_word("a\x1bb") == "a\\x1bb"


# --- regular files only -----------------------------------------------------------------------------
def test_a_named_pipe_is_never_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert not_regular(fifo, "rule file") == "is a named pipe, not a regular file; only regular files are read"
    with pytest.raises(UnreadableError, match="is a named pipe"):
        read_regular(fifo, "pipe.yaml", "rule file", 100, "100 bytes")  # would block forever if opened


def test_a_pipe_swapped_in_after_the_check_does_not_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check before opening passes on a regular file; the file is then replaced by a pipe: the non-blocking
    open and the check on the open descriptor still refuse it."""
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    import engine.safefile as sf
    monkeypatch.setattr(sf, "not_regular", lambda path, what: None)
    done: list[BaseException] = []

    def read() -> None:
        try:
            read_regular(fifo, "pipe.yaml", "rule file", 100, "100 bytes")
        except UnreadableError as e:
            done.append(e)
    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive() and done and "is a named pipe" in str(done[0])


@pytest.mark.parametrize("device", ["/dev/stdin", "/dev/zero", "/dev/null", "/proc/self"])
def test_devices_and_folders_are_refused(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"{device} does not exist here")
    r = runner.invoke(app, ["validate", device])
    assert r.exit_code == 2 and r.output.count("\n") == 1
    assert "not a regular file" in r.output or "is a directory" in r.output


def test_link_loops_and_long_names_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    os.symlink("b.yaml", "a.yaml")
    os.symlink("a.yaml", "b.yaml")
    r = runner.invoke(app, ["validate", "a.yaml"])
    assert (r.exit_code, r.output) == (2, "a.yaml: cannot read the file (a loop of symbolic links, or too many "
                                          "of them)\n")
    long_name = "y" * 5000 + ".yaml"
    r = runner.invoke(app, ["validate", long_name])
    assert r.exit_code == 2 and r.output.endswith("...: cannot read the file (the file name is too long)\n")
    assert len(r.output) < 400
    assert locate("z" * 5000) is None and locate("~nosuchuser/x.yaml") is not None


@pytest.mark.parametrize(("parent", "message"), [
    ("./a.yaml", "extends: parent file a.yaml: cannot read the file (a loop of symbolic links"),
    ("x" * 5000, "extends: no shipped rule file named '" + "x" * 60 + "...'"),
    ("./" + "x" * 5000 + ".yaml", "extends: parent file x"),
    ("./pipe.yaml", "extends: parent file pipe.yaml: is a named pipe, not a regular file"),
    ("/dev/stdin", "extends: parent file /dev/stdin: is a device"),
])
def test_extends_that_cannot_be_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parent: str,
                                     message: str) -> None:
    monkeypatch.chdir(tmp_path)
    os.symlink("b.yaml", "a.yaml")
    os.symlink("a.yaml", "b.yaml")
    os.mkfifo("pipe.yaml")
    Path("h.yaml").write_text(HOUSE.replace("twenty-eight", parent))
    report = check_ruleset("h.yaml")
    assert not report.ok and len(report.problems) == 1
    line = str(report.problems[0])
    assert line.startswith("h.yaml:4:10: " + message) and "\n" not in line and len(line) < 400


def test_a_house_file_reusing_a_shipped_name_is_read_from_its_folder(tmp_path: Path) -> None:
    (tmp_path / "twenty-eight.yaml").write_text(HOUSE)
    report = check_ruleset(tmp_path / "twenty-eight.yaml")
    assert report.ok, report.problems


# --- plain, bounded YAML ---------------------------------------------------------------------------
@pytest.mark.parametrize("what", ["rule file", "hand record", "match save"])
@pytest.mark.parametrize("fast", [False, True])
def test_the_same_limits_for_every_kind_of_file(what: str, fast: bool) -> None:
    with pytest.raises(UnreadableError, match=f"aliases \\(\\*name\\) are not allowed in {what}s"):
        compose("a: &x [1]\nb: *x\n", "f.yaml", what, fast)
    with pytest.raises(UnreadableError, match=f"f.yaml:1:44: nested too deeply to be a {what}"):
        compose("x: " + "[" * 100_000, "f.yaml", what, fast)
    with pytest.raises(UnreadableError, match=f"nested too deeply to be a {what}"):
        compose("x: " + "{a: " * 2000 + "1" + "}" * 2000, "f.yaml", what, fast)
    with pytest.raises(UnreadableError, match=f"unsupported YAML tag !!python/name:os.system; {what}s use plain"):
        load("x: !!python/name:os.system ''\n", "f.yaml", what, fast)
    with pytest.raises(UnreadableError, match="unsupported YAML tag !!binary"):
        load("x: !!binary aGVsbG8=\n", "f.yaml", what, fast)
    with pytest.raises(UnreadableError, match="unsupported YAML tag !!set"):
        load("x: !!set {a, b}\n", "f.yaml", what, fast)
    with pytest.raises(UnreadableError, match="duplicate key 'x'"):
        load("x: 1\nx: 2\n", "f.yaml", what, fast)
    with pytest.raises(UnreadableError, match="cannot read the number"):
        load("x: " + "9" * 5000 + "\n", "f.yaml", what, fast)
    assert load("a: [1, 2.5, true, null, text, 2024-01-01]\n", "f.yaml", what, fast)[0] == \
        {"a": [1, 2.5, True, None, "text", "2024-01-01"]}
    assert compose("", "f.yaml", what, fast) is None
    assert load("a: [yes, no, on, off, True, FALSE]\n", "f.yaml", what, fast)[0] == \
        {"a": ["yes", "no", "on", "off", True, False]}              # YAML 1.2 booleans, as rule files read them


def test_forty_levels_are_read_and_forty_one_are_not() -> None:
    ok = "x: " + "[" * 40 + "]" * 40
    assert load(ok, "f.yaml", "match save")[0] is not None
    with pytest.raises(UnreadableError, match="nested too deeply"):
        load("x: " + "[" * 41 + "1" + "]" * 41, "f.yaml", "match save")
