"""The overlays the costly per-file tests skip (tests/rulefile_sets.py SAME_PLAY_AS) play every hand exactly as
their base file: the same deal and the same moves give the same legal actions, the same view for every seat at
every step (less the file's name) and the same tricks' points at the end. An overlay that starts to change play
fails here, and then belongs in the costly tests again."""
from __future__ import annotations

import random

import pytest

from engine.play.compile import load_game
from engine.rules.load import shipped_rulesets
from tests.rulefile_sets import ALL, PLAYED, SAME_PLAY_AS

HANDS = 20


def test_the_sets_name_shipped_files() -> None:
    assert set(SAME_PLAY_AS) | set(SAME_PLAY_AS.values()) <= set(shipped_rulesets())
    assert set(PLAYED) | set(SAME_PLAY_AS) == set(ALL) and set(SAME_PLAY_AS.values()) <= set(PLAYED)


@pytest.mark.parametrize("overlay", sorted(SAME_PLAY_AS))
def test_a_skipped_overlay_plays_every_hand_as_its_base(overlay: str) -> None:
    over, base = load_game(overlay), load_game(SAME_PLAY_AS[overlay])
    assert over.rules.name != base.rules.name
    rng = random.Random(overlay)
    steps = 0
    for h in range(HANDS):
        so, sb = over.new_hand(h % over.n, seed=h), base.new_hand(h % base.n, seed=h)
        while True:
            legal = sb.legal_actions()
            assert [str(a) for a in so.legal_actions()] == [str(a) for a in legal], (overlay, h, sb.history)
            for seat in range(base.n):
                vo, vb = so.view(seat).to_dict(), sb.view(seat).to_dict()
                assert vo.pop("ruleset") == overlay and vb.pop("ruleset") == base.rules.name
                assert vo == vb, (overlay, h, seat, sb.history)
            if sb.is_terminal:
                break
            a = legal[rng.randrange(len(legal))]
            so.apply(a)
            sb.apply(a)
            steps += 1
        assert so.is_terminal and so.status == sb.status
        assert list(so.team_points) == list(sb.team_points)
        assert [t.cards for t in so.tricks] == [t.cards for t in sb.tricks]
    assert steps > HANDS * 8
