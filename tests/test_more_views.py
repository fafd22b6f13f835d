"""What the players see in issue 14's files (MORE-GAMES.md section 6.9): with partner-exposed, once the deal is
complete the bidder's partner's cards lie face up to the end - every seat's view shows the ones he still holds;
in twenty-nine the same position shows them to nobody but him. Skipped only while the file is not shipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from engine import load_game
from engine.rules.load import shipped_rulesets

MORE = Path(__file__).parent / "hands" / "more"


def _state_at_first_lead(ruleset: str, plays: int = 0):  # type: ignore[no-untyped-def]
    data = yaml.safe_load((MORE / "partner-exposed-made.yaml").read_text(encoding="utf-8"))
    game = load_game(ruleset)
    cards = [game.layout.parse_cards(data["hands"][s].split()) for s in range(4)]
    state = game.new_hand(dealer=data["dealer"], hands=cards)
    first = next(i for i, a in enumerate(data["actions"]) if " play " in a)
    for text in data["actions"][:first + plays]:
        state.apply(next(a for a in state.legal_actions() if str(a) == text))
    return game, state


@pytest.mark.parametrize("plays", [0, 4])
def test_the_partners_cards_lie_face_up(plays: int) -> None:
    if "partner-exposed" not in shipped_rulesets():
        pytest.skip("ruleset partner-exposed is not shipped yet")
    game, state = _state_at_first_lead("partner-exposed", plays)
    partner = (state.bidder + 2) % 4
    held = [game.codes[c] for c in range(game.size) if state.hands[partner] >> c & 1]
    assert len(held) == 8 - plays // 4
    for seat in range(4):
        seen = json.dumps(state.view(seat).to_dict())
        assert all(f'"{c}"' in seen for c in held), f"seat {seat} does not see the partner's {held}"


def test_twenty_nine_hides_the_partners_cards() -> None:
    game, state = _state_at_first_lead("twenty-nine")
    partner = (state.bidder + 2) % 4
    held = [game.codes[c] for c in range(game.size) if state.hands[partner] >> c & 1]
    for seat in (s for s in range(4) if s != partner):
        seen = json.dumps(state.view(seat).to_dict())
        assert not any(f'"{c}"' in seen for c in held)
