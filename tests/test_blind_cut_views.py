"""The blind cut (play.blind_cut) and claims in the seats' views and in validate: a card played face down is seen
by the seat that played it and, once the trick is over, by the trumper who looked at it - by nobody else, in the
trick, the history or the points; and the combinations of the new fields that cannot be played are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from engine import load_game
from engine.cli.app import app

MORE = Path(__file__).parent / "hands" / "more"
CAPS = {"name": "caps", "who": "unbeaten_side", "claims": "remaining_tricks_by_side", "certainty": "provable",
        "first_moment": True, "rewards": {"on_time": 1, "on_time_score": "adds", "failed": -5}}


def _state(stem: str):  # type: ignore[no-untyped-def]
    data = yaml.safe_load((MORE / f"{stem}.yaml").read_text(encoding="utf-8"))
    game = load_game(data["ruleset"])
    hands = [game.layout.parse_cards(data["hands"][s].split()) for s in range(game.n)]
    state = game.new_hand(dealer=data["dealer"], hands=hands)
    for text in data["actions"]:
        state.apply(next(a for a in state.legal_actions() if str(a) == text))
    return state


def test_a_plain_card_face_down_stays_hidden_from_all_but_its_player_and_the_trumper() -> None:
    # trick 3 of the record: seat 2, void in hearts, plays TC face down; no trump among the face-down cards
    state = _state("304-blind-cut-plain-stays-down")
    for seat in range(4):
        seen = json.dumps(state.view(seat).to_dict())
        if seat in (0, 2):      # the trumper (seat 0) looked at it; seat 2 played it
            assert '"TC"' in seen
        else:
            assert '"TC"' not in seen, f"seat {seat} sees the face-down TC"
    view = state.view(1)
    assert view.card_points[0] == state.team_points[0] - 10   # its 10 points are not seat 1's to count


def test_a_face_down_trump_is_turned_up_for_all() -> None:
    state = _state("304-closed-folded-card-cut-opens")
    for seat in range(4):
        assert '"KS"' in json.dumps(state.view(seat).to_dict())


@pytest.mark.parametrize(("change", "words"), [
    ({"trump": {"concealed": False}}, "the blind cut is played while a trump card lies face down"),
    ({"play": {"reveal": {"call": "compulsory_first_void"}}}, "nobody calls for the trump"),
    ({"trump": {"opening": {"after_trick": 8}}}, "opening at the end of the last one"),
    ({"special": {"claims": [CAPS | {"name": "pcc"}]}}, "already the name"),
    ({"special": {"claims": [CAPS | {"certainty": "none"}]}}, "it needs certainty: provable"),
    ({"second_auction": None, "schedule": [{"deal": 4}, "auction", "trump", {"deal": 4}]}, "no second_auction"),
    ({"special": {"melds": {"name": "marriage", "compulsory": True, "trump_value": 40, "plain_value": 20,
                            "when": ["side_won_a_trick"]}}}, "would give a concealed trump away"),
])
def test_validate_refuses_what_cannot_be_played(tmp_path: Path, change: dict, words: str) -> None:  # type: ignore[type-arg]
    path = tmp_path / "house.yaml"
    path.write_text(yaml.safe_dump({"schema_version": 1, "name": "house", "extends": "three-hundred-and-four",
                                    "description": "x", **change}, sort_keys=False))
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert words in result.output
    assert "house.yaml:" in result.output
