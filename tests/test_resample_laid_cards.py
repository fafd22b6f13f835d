"""Worlds drawn for a seat keep a card laid face up as a trump with the seat that laid it.

A second auction can move the contract away from the seat that laid the first trump; that card goes back to its
hand, and the seat that now holds the contract is no longer the one whose card it is. The world drawers once gave
the card to the current contract holder, so OpenSpiel's `resample_from_infostate` found no world at all for that
seat (a CI failure on twenty-eight-kerala-3p, when IS-MCTS's unseeded sampler happened to reach such a state).
"""

from __future__ import annotations

import random

from engine.adapters.resample import resample
from engine.bots.determinize import HiddenSlots
from engine.bots.info import read_view
from engine.record import read_record_text, replay

RECORD = """
ruleset: twenty-eight-kerala-3p
dealer: 0
hands:
  0: AS JC AC JH 9H JS QS 9C
  1: 9S TS KS AD KD QC QD KC
  2: AH 9D JD KH TD QH TH TC
actions: ['1 bid 18', '2 bid 20', '0 pass', '1 bid 21', '2 bid 25', '0 pass', '1 pass', '2 trump KH',
          '2 pass change', '0 bid 26', '1 pass', '2 pass', '0 trump 9H', '1 play KC', '2 play TC', '0 play AC',
          '0 play 9C', '1 play QC', '2 play TH', '0 play AS', '1 play 9S', '2 play 9D', '1 play TS', '2 play TD',
          '0 play QS', '1 play KD', '2 play JD', '0 call', '0 play 9H']
"""


def _state():  # type: ignore[no-untyped-def]
    rp = replay(read_record_text(RECORD))
    assert rp.error is None
    return rp.state


def test_a_moved_contract_leaves_the_first_trump_card_with_its_layer() -> None:
    state = _state()
    game = state.game
    kh = game.code_ids["KH"][0]
    view = state.view(0)
    assert any(a.verb == "trump" and a.arg == "KH" and a.seat == 2 for a in view.history)
    slots = HiddenSlots(game, read_view(game, view))
    assert slots.fixed[2] >> kh & 1 and not slots.fixed[0] >> kh & 1
    for seed in range(30):
        world = resample(state, 0, random.Random(seed))
        assert world is not None, seed
        assert world.hands[2] >> kh & 1
        assert world.view(0) == view

