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


HEAD = "format: jacknine match 1\nruleset: twenty-eight\nseat: 0\nseed: 1\nbots: random\nmax_hands: 5\n"
TAIL = "status: in_progress\nscores: [0, 0]\nhands: []\n"


@pytest.mark.parametrize(("text", "message"), [
    ("[1, 2", "m.yaml:2:1: YAML syntax error: did not find expected ',' or ']'"),
    ("ruleset: twenty-eight\ndealer: 0\n", "m.yaml: not a jacknine match save (no 'format: jacknine match 1' line)"),
    (HEAD.replace("seat: 0", "seat: x") + TAIL, "m.yaml:3: seat: must be a whole number of at least 0, not 'x'"),
    (HEAD.replace("seat: 0", "seat: -1") + TAIL, "m.yaml:3: seat: must be a whole number of at least 0, not '-1'"),
    (HEAD.replace("seed: 1", "seed: true") + TAIL,
     "m.yaml:4: seed: must be a whole number of at least 0, not true (true/false)"),
    (HEAD.replace("seed: 1", "seed: -3") + TAIL, "m.yaml:4: seed: must be a whole number of at least 0, not '-3'"),
    (HEAD.replace("max_hands: 5", "max_hands: 0") + TAIL, "m.yaml:6: max_hands: must be a whole number from 1 to 2000"),
    (HEAD.replace("bots: random", "bots: ''") + TAIL, "m.yaml:5: bots: must be text, not ''"),
    (HEAD + TAIL.replace("hands: []", "hands: [{dealer: 0}]"), "m.yaml:9: hands[0]: ruleset: missing"),
    (HEAD + TAIL.replace("hands: []", "hands: {}"), "m.yaml:9: hands: must be a list of hand records"),
    (HEAD + TAIL.replace("hands: []", "hands: [{ruleset: twenty-eight, dealer: 0, seed: 1, actions: [], x: 1}]"),
     "m.yaml:9: hands[0]: unknown field 'x'"),
    (HEAD + TAIL.replace("hands: []", "hands: [{ruleset: twenty-eight, dealer: 0, seed: 1, actions: [3]}]"),
     "m.yaml:9: hands[0].actions: must be a list of actions such as '2 play JS'"),
    (HEAD + TAIL.replace("hands: []", "hands: [{ruleset: twenty-eight, dealer: 0, seed: 1, actions: [], "
                                      "status: complete}]"),
     "m.yaml:9: hands[0]: status and score_change go together"),
    (HEAD + TAIL.replace("hands: []", "hands: [{ruleset: twenty-eight, dealer: 0, seed: 1, actions: [], "
                                      "hands: {0: JS, 2: 9S}}]"),
     "m.yaml:9: hands[0].hands: seats must be numbered 0, 1, 2, ... with none missing"),
    (HEAD + TAIL.replace("status: in_progress", "status: paused"), "m.yaml:7: status: must be in_progress or over"),
    (HEAD + TAIL.replace("status: in_progress", "status: over"), "m.yaml:1: winners: missing"),
    (HEAD + TAIL + "winners: [0]\n", "m.yaml:10: winners: only a finished match (status: over) has winners"),
    (HEAD + TAIL + "sead: 1\n", "m.yaml:10: unknown field 'sead' (did you mean 'seed'?)"),
    (HEAD + TAIL.replace("scores: [0, 0]", "scores: [0, 1.5]"), "m.yaml:8: scores: must be a list of whole numbers"),
    (HEAD.replace("seed: 1", "seed: 1\nseed: 2") + TAIL, "m.yaml:5:1: duplicate key 'seed' (first written at line 4)"),
    (HEAD + TAIL + "---\n" + HEAD, "m.yaml:10:1: YAML syntax error: but found another document"),
    (HEAD.replace("bots: random", "bots: !!python/object/apply:os.system [ls]") + TAIL,
     "m.yaml:5:7: unsupported YAML tag !!python/object/apply:os.system; match saves use plain YAML only"),
])
def test_what_is_not_a_save_is_refused(text: str, message: str) -> None:
    with pytest.raises(UnreadableError) as e:
        parse_save(text, "m.yaml")
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_binary_files_are_not_saves(tmp_path: Path) -> None:
    p = tmp_path / "b.yaml"
    p.write_bytes(b"\0\1\2")
    with pytest.raises(UnreadableError, match="binary file"):
        read_save(p)
