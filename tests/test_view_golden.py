"""Outside bots receive byte for byte the JSON they were sent before the View became typed: 1,028 positions over
every shipped rule file and a house rule loaded from a folder of its own, recorded from the text View
(tests/view_golden/make_views.py says how), each rebuilt from its hand's actions and written again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.bots.external import _request
from engine.play.actions import Action
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.view import View

GOLDEN = Path(__file__).parent / "view_golden"
HOUSE = Path(__file__).parent / "search_golden" / "house-cot.yaml"
TIME_LIMIT = 2.0


def _hands() -> list[tuple[dict[str, Any], list[tuple[dict[str, Any], str]]]]:
    lines = (GOLDEN / "views.txt").read_text(encoding="utf-8").splitlines()
    out: list[tuple[dict[str, Any], list[tuple[dict[str, Any], str]]]] = []
    i = 0
    while i < len(lines):
        meta = json.loads(lines[i])
        if "hand" in meta:
            out.append((meta["hand"], []))
            i += 1
            continue
        out[-1][1].append((meta, lines[i + 1]))
        i += 2
    return out


HANDS = _hands()


def _game(ref: str, tmp: Path) -> Game:
    if ref.endswith(".yaml"):
        shutil.copy(HOUSE, tmp / ref)
        return load_game(tmp / ref)
    return load_game(ref)


@pytest.mark.parametrize("ruleset", sorted({h["ruleset"] for h, _ in HANDS}))
def test_views_are_written_as_recorded(ruleset: str, tmp_path: Path) -> None:
    game = _game(ruleset, tmp_path)
    checked = 0
    for hand, checks in HANDS:
        if hand["ruleset"] != ruleset:
            continue
        st = game.new_hand(hand["dealer"], seed=hand["seed"])
        done = 0
        for meta, text in checks:
            while done < meta["upto"]:
                st.apply(Action.parse(hand["actions"][done]))
                done += 1
            view = st.view(meta["seat"])
            assert isinstance(view, View)
            if meta["kind"] == "request":
                got = _request(view, st.legal_actions(), TIME_LIMIT).decode()
                text += "\n"
            else:
                got = json.dumps(view.to_dict())
            assert got == text, (ruleset, hand["seed"], meta)
            checked += 1
    assert checked >= 30


def test_the_recording_covers_every_phase() -> None:
    phases = {json.loads(text).get("view", json.loads(text))["phase"] for _, checks in HANDS for _, text in checks}
    assert {"auction", "trump", "raise", "doubling", "declarations", "play", "surrender", "done"} <= phases
