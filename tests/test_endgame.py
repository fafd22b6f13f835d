"""The heuristic's endgame (engine/bots/endgame.py): the last cards weighed over sampled worlds, where
`heuristic:v1` keeps the rules of thumb."""

from __future__ import annotations

from typing import Any

import pytest

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


# Hands played by `heuristic:v1` at every seat (dealer 1, bots seeded by seat) with the tree before the endgame:
# v1 is the heuristic of then, auction and card play, and must replay them action for action.
V1_HANDS = [
    ("twenty-eight", 23, (
        "2:bid:14 3:pass: 0:pass: 1:pass: 2:trump:7H 2:pass: 0:pass: 2:play:JS 3:play:KS 0:play:TS 1:play:QS "
        "2:play:JC 3:play:KC 0:play:9C 1:play:7C 2:play:9S 3:call: 3:play:AH 0:play:8S 1:play:AS 3:play:7D "
        "0:play:JD 1:play:TD 2:play:9D 0:play:8D 1:play:JH 2:play:7S 3:play:QD 1:play:AC 2:play:7H 3:play:TC "
        "0:play:KD 2:play:8H 3:play:9H 0:play:QH 1:play:8C 3:play:AD 0:play:TH 1:play:QC 2:play:KH"
    )),
    ("fifty-six", 23, (
        "2:pass: 3:bid:28 S 4:bid:29 D 5:pass: 0:pass: 1:bid:30 C 2:pass: 3:pass: 4:bid:31 D 5:pass: 0:pass: "
        "1:pass: 2:pass: 3:pass: 2:play:KH 3:play:QD 4:play:9H 5:play:KH 0:play:QH 1:play:QH 3:play:JS "
        "4:play:9S 5:play:TS 0:play:QS 1:play:9S 2:play:AS 3:play:JC 4:play:QC 5:play:AH 0:play:AC 1:play:AC "
        "2:play:TC 3:play:QS 4:play:JS 5:play:KS 0:play:AS 1:play:TD 2:play:QD 1:play:JC 2:play:9C 3:play:TC "
        "4:play:KD 5:play:TD 0:play:AD 0:play:TH 1:play:QC 2:play:TH 3:play:KS 4:play:JH 5:play:AH 4:play:JD "
        "5:play:AD 0:play:9D 1:play:KC 2:play:KD 3:play:KC 4:play:9D 5:play:JD 0:play:JH 1:play:9C 2:play:9H "
        "3:play:TS"
    )),
]


def test_v1_plays_every_action_as_before_the_endgame() -> None:
    for ruleset, seed, record in V1_HANDS:
        game = load_game(ruleset)
        st = game.new_hand(1, seed=seed)
        bots = [make_bot("heuristic:v1", game, s) for s in range(game.n)]
        while st.to_act >= 0:
            legal = st.legal_actions()
            st.apply(legal[0] if len(legal) == 1 else bots[st.to_act].choose(st.view(st.to_act), legal))
        assert " ".join(f"{a.seat}:{a.verb}:{a.arg}" for a in st.history) == record


def test_the_endgames_rollouts_grade_no_claims(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three-hundred-and-four grades claims at a hand's end with the sweep prover. The endgame's rollouts leave
    the grading out (each graded world cost up to the hand's whole grading budget: one decision of deal 440,
    tournament seed 1, took 7 s compiled): only the two real hands of the deal are graded. (That the endgame
    weighs cards only, a claim's worth being its grading, tests/test_claims_provable.py's claims on time show.)"""
    import engine.play.schedule as schedule
    from engine.tournament import BotPool, play_deal

    game = load_game("three-hundred-and-four")
    graded: list[int] = []
    real = schedule.grade_claims

    def counted(st: Any, gp: list[int]) -> list[int]:
        graded.append(len(st.history))
        return real(st, gp)

    monkeypatch.setattr(schedule, "grade_claims", counted)
    play_deal(game, ["heuristic", "heuristic:v1"], 1, 440, pool=BotPool(game))
    assert len(graded) == 2     # the two seatings' hands, nothing inside a decision
