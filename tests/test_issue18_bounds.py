"""Memory and time that validation must bound (issue 18): replay of many spellings of one rule file, `extends`
chains as a whole, huge numbers, and search budgets on hostile files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import hand_cmds
from engine.cli.app import run

HOUSE = "schema_version: 1\nextends: twenty-eight\nname: h\ndescription: house\n"


def _record_line(folder: Path) -> dict[str, object]:
    assert run(["simulate", "-r", str(folder / "h.yaml"), "-n", "1", "--out", str(folder / "one.jsonl")]) == 0
    line = json.loads((folder / "one.jsonl").read_text().splitlines()[0])
    assert isinstance(line, dict)
    return line


def test_replay_compiles_one_game_for_every_spelling_of_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "h.yaml").write_text(HOUSE)
    (tmp_path / "sub").mkdir()
    line = _record_line(tmp_path)
    spellings = ["h.yaml", "./h.yaml", "././h.yaml", "sub/../h.yaml", "./sub/.././h.yaml", str(tmp_path / "h.yaml")]
    with (tmp_path / "many.jsonl").open("w") as f:
        for i in range(300):
            spelling = spellings[i % len(spellings)]
            line["ruleset"] = spelling if spelling.startswith("/") else "./" * i + spelling
            f.write(json.dumps(line) + "\n")
    compiled: list[str] = []
    real = hand_cmds.game_for

    def counting(rec: hand_cmds.HandRecord) -> hand_cmds.Game:
        compiled.append(rec.ruleset)
        return real(rec)

    monkeypatch.setattr(hand_cmds, "game_for", counting)
    capsys.readouterr()
    assert run(["replay", "--json", str(tmp_path / "many.jsonl")]) == 0
    reports = capsys.readouterr().out.splitlines()
    assert len(reports) == 300 and len({r for r in reports}) == 1
    assert len(compiled) == 1


def test_replay_keeps_a_bounded_number_of_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "h.yaml").write_text(HOUSE)
    line = _record_line(tmp_path)
    names = []
    for i in range(3 * hand_cmds.GameCache.SIZE):       # as many different files (same rules, other names)
        (tmp_path / f"h{i}.yaml").write_text(HOUSE)
        names.append(f"h{i}.yaml")
    with (tmp_path / "many.jsonl").open("w") as f:
        for name in names:
            line["ruleset"] = name
            f.write(json.dumps(line) + "\n")
    sizes: list[int] = []
    real = hand_cmds.GameCache.get

    def watching(self: hand_cmds.GameCache, rec: hand_cmds.HandRecord) -> hand_cmds.Game:
        game = real(self, rec)
        sizes.append(len(self.games))
        return game

    monkeypatch.setattr(hand_cmds.GameCache, "get", watching)
    assert run(["replay", "--json", str(tmp_path / "many.jsonl")]) == 0
    assert max(sizes) == hand_cmds.GameCache.SIZE


def test_an_edited_rule_file_is_compiled_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "h.yaml").write_text(HOUSE)
    line = _record_line(tmp_path)
    cache = hand_cmds.GameCache()
    from engine.record import read_record

    (tmp_path / "r.json").write_text(json.dumps(line))
    first = cache.get(read_record(tmp_path / "r.json"))
    (tmp_path / "h.yaml").write_text(HOUSE.replace("house", "house, edited"))
    second = cache.get(read_record(tmp_path / "r.json"))
    assert first is not second and second.rules.description == "house, edited"
