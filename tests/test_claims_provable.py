"""Claims by the bots from the caller's own knowledge: the view lists the legal claims the seat can prove now
(`View.provable`), a fact that does not change when the cards of the seats it cannot see are exchanged; the
heuristic calls a claim exactly when its view says it is provable (so at the first moment, graded on time), and
`heuristic:never` keeps 0.1's play."""

from __future__ import annotations

import random

import pytest

from engine.bots.base import make_bot
from engine.play import sweep_proof
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.play.sweep_claims import SEAT_FACTOR, _provable_at, _turn_proofs

CLAIM_FILES = ["three-hundred-and-four", "thunee"]


def play(game: Game, seed: int, bots: str = "heuristic") -> tuple[State, list[State]]:
    """A hand played by `bots`; the states (copies) at which a claim was legal."""
    s = game.new_hand(seed % game.n, seed=seed)
    players = [make_bot(bots, game, seed * 7 + i) for i in range(game.n)]
    at: list[State] = []
    while s.to_act >= 0:
        legal = s.legal_actions()
        if any(a.verb == "declare" and a.arg in {c.name for c in game.rules.claims} for a in legal):
            at.append(s.clone())
        bot = players[s.controller]
        s.apply(bot.choose(s.view(s.to_act), legal))
    return s, at


def unplayed_swapped(s: State, a: int, b: int, rng: random.Random) -> list[list[int]]:
    """The deal with some of the cards seats a and b still hold exchanged between them."""
    out = [list(h) for h in s.dealt]
    ia = [i for i, c in enumerate(out[a]) if s.hands[a] >> c & 1]
    ib = [i for i, c in enumerate(out[b]) if s.hands[b] >> c & 1]
    k = min(len(ia), len(ib))
    for j in rng.sample(range(k), rng.randint(1, k)) if k else []:
        out[a][ia[j]], out[b][ib[j]] = out[b][ib[j]], out[a][ia[j]]
    return out


@pytest.mark.parametrize("name", CLAIM_FILES)
def test_provable_claims_are_legal_and_blind_to_hidden_cards(name: str) -> None:
    game = load_game(name)
    rng = random.Random(15)
    checked = proved = 0
    for seed in range(150):
        _, states = play(game, seed)
        for i, s in enumerate(states):
            seat = s.to_act
            v = s.view(seat)
            assert set(v.provable) <= set(v.legal)
            assert ("provable" in v.to_dict()) == bool(v.provable)
            if not v.provable and i % 4:
                continue
            proved += bool(v.provable)
            # the same position with other seats' cards exchanged (a replay of the same actions on another deal)
            a, b = rng.sample([x for x in range(game.n) if x != seat], 2)
            s2 = game.new_hand(s.dealer, hands=unplayed_swapped(s, a, b, rng))
            ok = True
            for act in s.history:
                if act not in s2.legal_actions():
                    ok = False
                    break
                s2.apply(act)
            if ok and s2.to_act == seat and s2.phase == s.phase:
                assert s2.view(seat).provable == v.provable, f"{name}: the claim depends on seats {a}/{b}'s cards"
                checked += 1
    assert checked > 20 and proved > 0


def test_caps_is_called_on_time_by_the_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hands played by the heuristic until two claims: each is graded provable at its turn and not provable at any
    earlier turn of the side. The prover's bound is lowered for the bot and the grading alike (a search past it
    proves nothing, for both), so no hand spends seconds refuting one turn; the hands played are the same (their
    claims are proved in a few hundred positions, and a longer search of theirs proved nothing)."""
    monkeypatch.setattr(sweep_proof, "NODE_BUDGET", 20_000)
    game = load_game("three-hundred-and-four")
    called = 0
    for seed in range(200):
        s, _ = play(game, seed)
        for claim in s.claims:
            called += 1
            seat, at = claim // SEAT_FACTOR, claim % SEAT_FACTOR
            assert _provable_at(s, claim), f"hand {seed}: seat {seat} claimed what it could not prove"
            earlier = _turn_proofs(s, s.hand_team_of[seat], at - 1) if at > 0 else []
            assert not any(ok for played, ok in earlier if played < at), f"hand {seed}: the claim came late"
        if called >= 2:
            break
    assert called >= 2


def test_last_trick_claims_only_when_certain() -> None:
    game = load_game("thunee")
    called = 0
    for seed in range(200):
        s, _ = play(game, seed)
        if s.claim >= 0 and s.status == "complete":
            called += 1
            assert s.tricks[-1].winner == s.claimer
    assert called > 0


def test_never_keeps_the_old_claims() -> None:
    """`heuristic:never` does not read the fact: its hands are what they were (its claims only by its old rule)."""
    game = load_game("thunee")
    for seed in range(30):
        s, states = play(game, seed, "heuristic:never")
        for st in states:
            bot = make_bot("heuristic:never", game, 0)
            v = st.view(st.to_act)
            stripped = type(v)(**{**{f: getattr(v, f) for f in v.__dataclass_fields__}, "provable": ()})
            assert bot.choose(v, st.legal_actions()) == bot.choose(stripped, st.legal_actions())
