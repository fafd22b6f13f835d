"""The match save file: atomic writes that never leave a broken file, and reading that rejects what is not a save."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.errors import UnreadableError
from engine.table.save import MatchSave, parse_save, read_save, write_atomic


def a_save() -> MatchSave:
    return MatchSave("twenty-eight", 0, 7, "random", 500,
                     [{"ruleset": "twenty-eight", "dealer": 0, "seed": 1, "actions": ["1 bid 14"]}], [0, 0])


def test_round_trip() -> None:
    s = a_save()
    back = parse_save(s.to_yaml(), "m.yaml")
    assert back == s and back.same_game(s)
    assert not back.same_game(MatchSave("twenty-eight", 0, 8, "random", 500))


def test_a_failed_write_leaves_the_previous_save_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "m.yaml"
    write_atomic(path, a_save().to_yaml())
    before = path.read_text()

    def crash(*args: object) -> None:
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", crash)
    longer = a_save()
    longer.hands.append({"ruleset": "twenty-eight", "dealer": 1, "seed": 2, "actions": []})
    with pytest.raises(OSError):
        write_atomic(path, longer.to_yaml())
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.yaml"]     # no temporary file left behind


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "m.yaml", a_save().to_yaml())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("text", "message"), [
    ("[1, 2", "not valid YAML"),
    ("ruleset: twenty-eight\ndealer: 0\n", "no 'format: jacknine match 1' line"),
    ("format: jacknine match 1\nruleset: twenty-eight\nseat: x\nseed: 1\nbots: random\nmax_hands: 5\n", "seat:"),
    ("format: jacknine match 1\nruleset: twenty-eight\nseat: 0\nseed: 1\nbots: random\nmax_hands: 5\n"
     "hands: [{dealer: 0}]\n", "hands[0]: a hand record needs dealer, seed and a list of actions"),
    ("format: jacknine match 1\nruleset: twenty-eight\nseat: 0\nseed: 1\nbots: random\nmax_hands: 5\n"
     "status: paused\n", "status: must be in_progress or over"),
])
def test_what_is_not_a_save_is_refused(text: str, message: str) -> None:
    with pytest.raises(UnreadableError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_save(text, "m.yaml")


def test_binary_files_are_not_saves(tmp_path: Path) -> None:
    p = tmp_path / "b.yaml"
    p.write_bytes(b"\0\1\2")
    with pytest.raises(UnreadableError, match="not a jacknine match save"):
        read_save(p)
