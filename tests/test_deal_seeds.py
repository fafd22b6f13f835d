"""How wide each hand's deal seed is: 32 bits from a small match seed (every record and save so far deals as it
always did), 128 bits from a match seed of 2**64 or more, as the web table's secret seeds are. With 32-bit deal
seeds a player who sees his own cards could try every deal seed, find his hand and read the others'."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from engine.cli.app import app as cli
from engine.play.compile import load_game
from engine.play.match import WIDE_MATCH_SEED, Match, deal_seed_bits, hand_seeds


def test_a_small_match_seed_deals_as_before() -> None:
    rng = random.Random(7)
    assert hand_seeds(7, 4) == [rng.getrandbits(32) for _ in range(4)]
    m = Match(load_game("twenty-eight"), seed=7)
    m.new_hand()
    assert m.current_seed == hand_seeds(7, 1)[0] < 1 << 32


def test_a_wide_match_seed_deals_from_wide_seeds_that_deal_replays() -> None:
    seed = WIDE_MATCH_SEED * 12345 + 678
    assert deal_seed_bits(seed) == 128 and deal_seed_bits(WIDE_MATCH_SEED - 1) == 32
    game = load_game("twenty-eight")
    m = Match(game, seed=seed)
    firsts = []
    for _ in range(3):
        state = m.new_hand()
        firsts.append(m.current_seed)
        res = CliRunner().invoke(cli, ["deal", "-r", "twenty-eight", "--seed", str(m.current_seed), "--dealer",
                                       str(m.dealer), "--record"])
        assert res.exit_code == 0, res.output
        dealt = yaml.safe_load(res.output)["hands"]
        assert dealt == {s: " ".join(game.codes[c] for c in state.dealt[s]) for s in range(game.n)}
        m.dealer = (m.dealer + 1) % game.n
    assert firsts == hand_seeds(seed, 3)
    assert max(firsts) >= 1 << 64          # 128 random bits: below 2**64 once in 2**64 draws


def test_the_web_table_draws_wide_match_seeds() -> None:
    pytest.importorskip("starlette")
    from engine.web.server import Settings
    seeds = [Settings(db=Path("unused")).new_seed() for _ in range(20)]
    assert all(deal_seed_bits(s) == 128 for s in seeds) and len(set(seeds)) == 20
