"""The golden-record constructor (tests/golden_search.py) finds a hand that ends as asked and writes a record that
replays to the report it writes beside it; an impossible target finds nothing and says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from tests import golden_search


def test_finds_a_half_and_half_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "half"
    code = golden_search.main(["twenty-eight", "--taker-team", "0", "--card-points", "14,14", "--seeds", "0:10",
                               "--header", "twenty-eight: the bidding team takes exactly half", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    text = out.with_suffix(".yaml").read_text()
    assert text.startswith("# twenty-eight: the bidding team takes exactly half\n")
    expected = json.loads(out.with_suffix(".json").read_text())
    assert expected["card_points"] == [14, 14] and expected["contract"]["team"] == 0
    result = CliRunner().invoke(app, ["replay", str(out.with_suffix(".yaml")), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout) == expected


def test_sweep_target_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    assert golden_search.main(["twenty-eight", "--sweep", "1", "--taker-team", "1", "--seeds", "0:5",
                               "--out", str(out)]) == 0
    rep = json.loads(out.with_suffix(".json").read_text())
    assert {t["winner"] % 2 for t in rep["tricks"]} == {1} and rep["card_points"] == [0, 28]


def test_impossible_target_finds_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert golden_search.main(["twenty-eight", "--card-points", "29,0", "--seeds", "0:2", "--tries", "1",
                               "--budget", "300"]) == 1
    assert "no hand found" in capsys.readouterr().err


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        golden_search.main(["twenty-eight", "--card-points", "a,b"])
    assert done.value.code == 2
    assert golden_search.main(["no-such-game"]) == 2
    assert "no-such-game" in capsys.readouterr().err
