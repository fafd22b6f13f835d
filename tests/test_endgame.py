"""The heuristic's endgame (engine/bots/endgame.py): the last cards weighed over sampled worlds, where
`heuristic:v1` keeps the rules of thumb."""

from __future__ import annotations

from engine.bots.base import make_bot
from engine.play.compile import load_game
from engine.play.state import State

# twenty-eight, deal seed 7080, dealer 0, played by heuristic:v1 to the seventh trick: every club (the trump) is
# out, seat 2 leads from 9D KD and the one diamond still out is the Ten (seat 1's). Seat 3 has shown void in
# diamonds, so the rules of thumb fear a ruff that can no longer come and lead the King, which the Ten takes; the
# Nine is the master and takes the trick, and with it the hand for seat 2's side.
HISTORY = ["1 bid 14", "2 pass", "3 pass", "0 bid 15", "1 bid 16", "2 pass", "3 pass", "0 pass", "1 trump 9C",
           "1 pass", "3 pass", "1 play JD", "2 play 7D", "3 play 9S", "0 call", "0 play 7C", "0 play JS",
           "1 play 9C", "2 play KS", "3 play TS", "1 play JC", "2 play QC", "3 play 8C", "0 play TC", "1 play 8D",
           "2 play AD", "3 play KC", "0 play AC", "0 play JH", "1 play 8H", "2 play TH", "3 play 7H", "0 play 7S",
           "1 play QD", "2 play AS", "3 play 8S"]


def _position() -> State:
    game = load_game("twenty-eight")
    st = game.new_hand(0, seed=7080)
    for text in HISTORY:
        seat, verb, *arg = text.split()
        st.apply(game.action(int(seat), verb, arg[0] if arg else ""))
    return st


def _finish(st: State, spec: str) -> int:
    """Seat 2's side's game points less the other side's after `spec` plays every seat to the end."""
    bots = [make_bot(spec, st.game, s) for s in range(st.n)]
    while st.to_act >= 0:
        legal = st.legal_actions()
        st.apply(legal[0] if len(legal) == 1 else bots[st.to_act].choose(st.view(st.to_act), legal))
    gp = st.game_points
    return gp[st.hand_team_of[2]] - gp[1 - st.hand_team_of[2]]


def test_the_endgame_leads_the_master_the_rules_of_thumb_hold_back() -> None:
    st = _position()
    assert st.to_act == 2 and st.hands[2].bit_count() == 2
    legal = st.legal_actions()
    view = st.view(2)
    new = make_bot("heuristic", st.game, 5).choose(view, legal)
    old = make_bot("heuristic:v1", st.game, 5).choose(view, legal)
    assert (new.arg, old.arg) == ("9D", "KD")
    made, lost = st.clone(), st.clone()
    made.apply(new)
    lost.apply(old)
    assert _finish(made, "heuristic:v1") > 0 > _finish(lost, "heuristic:v1")
