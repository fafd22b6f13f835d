"""Claims of the remaining tricks (special.claims with claims: remaining_tricks_by_side): who may claim now, and
how a finished hand's claims are graded.

A claim is `declare NAME` at one's turn to play, before one's card, by a player of a side that has won every
trick so far, once per side; play goes on (or stops, where the claim says so). When the hand is scored the claim
is graded for the side:
- failed: the side lost a trick after claiming;
- with `certainty: provable` and `first_moment`, for a side that won every trick: early when the caller could
  not prove the sweep at his call (engine.play.sweep), late when either player of the side could prove it at an
  earlier turn to play, on time otherwise; a side that won every trick without claiming, though one of its
  players could prove it at a turn, is graded as never made;
- on time: the reward adds to (or replaces) the side's result of the hand, unless the claim came once the trick
  `on_time_before_trick` had begun; early, late, never made: `wrong_but_won` replaces it; failed: `failed`;
- both sides at fault (one side's claim failed, the other swept with a wrong or missing claim): each side's
  result is exchanged as above and the two are added.

The turns before the claim are looked at again by replaying the hand's actions on a fresh state: grading costs
nothing during play, and only hands with a claim or a sweep are replayed.
"""

from __future__ import annotations

from engine.play.actions import Action
from engine.play.base import StateData
from engine.play.claims import last_trick_certain
from engine.play.rules import SCORE_EXCHANGE, ClaimRules
from engine.play.sweep_proof import bounded_sweep, sweep_card, sweep_provable

SEAT_FACTOR = 1000   # a claim is kept as seat * SEAT_FACTOR + the number of cards played before it
# What grading one hand's claims may cost: positions of the sweep prover over all the searches the grading runs
# (each search keeps its own bound, NODE_BUDGET, too). Past it, a turn is taken as not proved, as a search past its
# own bound is; within it, every answer is the unbounded grading's (tests/test_sweep_prover.py). A bound of 10,000
# kept the slowest of the random-hands benchmark's 304 hands at 0.09 s (47 s without it) but changed what the
# first-moment rule decides: on the behaviour test's hands where one seat holds a whole suit, the earlier turns'
# proofs ran past it, so `first_moment` changed no hand in 600 (100,000 still did). Correct answers come first:
# the bound stays this high. With the prover compiled the random hands no longer come near it: the slowest hand of
# `benchmarks/random_hands.py three-hundred-and-four 20000 --slowest 8` took 0.04 s to 0.26 s in two runs on a
# loaded machine (the slowest ones take under 1 ms timed alone: the rest is the machine). Hands played by bots
# can still spend one search's NODE_BUDGET on a turn that is never proved (the heuristic's hand 163 of
# tests/test_claims_provable.py: 200,000 positions, 25 s compiled under load 20).
GRADING_BUDGET = 10_000_000


def remaining_claim_actions(st: StateData, p: int) -> list[Action]:
    """The claims of the remaining tricks `p` may make at this turn to play."""
    team = st.hand_team_of[p]
    for t in st.tricks:
        if st.hand_team_of[t.winner] != team:
            return []
    for c in st.claims:
        if st.hand_team_of[c // SEAT_FACTOR] == team:
            return []
    g = st.game
    return [g.action(p, "declare", c.name) for c in g.rules.claims if c.remaining]


def provable_claims(st: StateData, seat: int, legal: tuple[Action, ...]) -> tuple[Action, ...]:
    """The claims among `legal` (the actions of `seat`, to act) that `seat` can prove from its own knowledge
    now: every remaining trick for its side (engine.play.sweep_proof), or the last trick by itself. It reads only
    what the seat may know (its cards, the public play), so it is a fact of the seat's view."""
    claims = st.game.rules.claims
    if not claims:
        return ()
    out: list[Action] = []
    swept: bool | None = None
    for a in legal:
        if a.verb != "declare" or a.seat != seat:
            continue
        for c in claims:
            if c.name != a.arg:
                continue
            if c.remaining:
                if swept is None:
                    swept = sweep_provable(st, seat)
                ok = swept
            else:
                ok = last_trick_certain(st, seat, c)
            if ok:
                out.append(a)
    return tuple(out)


def claimed_line(st: StateData, seat: int) -> int:
    """For a seat that has claimed every remaining trick, at its turn to play: a card that keeps the sweep proved
    (his claim was proved, so one always is, within the prover's budget); -1 otherwise."""
    if not any(c // SEAT_FACTOR == seat for c in st.claims) or not st.hands[seat]:
        return -1
    return sweep_card(st, seat)


def cards_played(st: StateData, trick_size: int) -> int:
    return len(st.tricks) * trick_size + len(st.trick_cards)


def _sweeper(st: StateData) -> int:
    """The hand team that won every trick of a complete hand (-1: none)."""
    if len(st.tricks) != st.hand_tricks:
        return -1
    team = st.hand_team_of[st.tricks[0].winner]
    for t in st.tricks:
        if st.hand_team_of[t.winner] != team:
            return -1
    return team


def _replay(st: StateData) -> StateData:
    replay = st._restart()
    replay.grading = True
    return replay


class _Budget:
    """What is left of GRADING_BUDGET for the hand being graded."""

    def __init__(self, left: int | None = None) -> None:
        self.left = GRADING_BUDGET if left is None else left

    def proved(self, st: StateData, seat: int) -> bool:
        """`sweep_provable` within what is left (False once nothing is)."""
        if self.left <= 0:
            return False
        found, used = bounded_sweep(st, seat, False, self.left)
        self.left -= used
        return found is not None and found >= 0


def _turn_proofs(st: StateData, team: int, upto: int, budget: _Budget | None = None) -> list[tuple[int, bool]]:
    """(cards played before the turn, provable) for each turn to play of `team`'s players before card number
    `upto` (counted from 0) is played, replayed from the deal; the first proof found ends the list."""
    if budget is None:
        budget = _Budget()
    replay = _replay(st)
    total = st.hand_tricks * st.trick_size
    out: list[tuple[int, bool]] = []
    played = 0
    for a in st.history:
        if a.verb == "play":
            if played > upto:
                break
            if st.hand_team_of[a.seat] == team:
                ok = budget.proved(replay, a.seat)
                out.append((played, ok))
                if ok:
                    return out
            played += 1
            if played == total:
                break        # the last card: the replay would score itself
        replay.apply(a)
    return out


def grade_claims(st: StateData, gp: list[int]) -> list[int]:
    """The hand's game points after its claims (`gp`: as the contract scored them). When both sides are at fault
    (one claimed and lost a trick, the other swept without a due claim) each answers for its own fault and the
    two results add."""
    results = [_exchange(st, gp, team, value) for team, _, value in claim_grades(st, gp) if value is not None]
    if not results:
        return gp
    return [sum(scores) for scores in zip(*results, strict=True)]


# grades of a sweeping side that claimed wrongly (or not at all): its fault, answered for beside the other side's
_AT_FAULT = ("early", "late", "never made")


def claim_grades(st: StateData, gp: list[int], budget: _Budget | None = None) -> list[tuple[int, str, int | None]]:
    """How a finished hand's claims of the remaining tricks were graded: (hand team, grade, its result for the
    side, or None where the hand scores as usual) for each side graded; empty when no claim is graded. Grades:
    "on time", "on time too late for a bonus" (None), "early", "late", "never made" (a due claim not made),
    "failed" (the side lost a trick after claiming). `gp` is the hand's score before the claims (the result when
    the reward adds). `budget`: what the grading may spend (a fresh GRADING_BUDGET when None; what is left of it
    can be read after, as benchmarks/claim_grading.py does)."""
    found = [c for c in st.game.rules.claims if c.remaining]
    if not found or st.special is not None:
        return []
    rules: ClaimRules = found[0]
    sweeper = _sweeper(st)
    by_team = {st.hand_team_of[c // SEAT_FACTOR]: c for c in st.claims}
    usual: list[tuple[int, str, int | None]] = []
    if sweeper >= 0 and (sweeper in by_team or rules.first_moment and rules.provable):
        graded = _graded(st, rules, sweeper, by_team.get(sweeper), gp, budget if budget is not None else _Budget())
        if graded is not None:
            grade, value = graded
            if value is not None:
                return _with_others(rules, sweeper, grade, value, by_team)
            usual = [(sweeper, grade, None)]
    for team in by_team:
        if team != sweeper:
            return [(team, "failed", rules.failed)]
    return usual


def _with_others(rules: ClaimRules, sweeper: int, grade: str, value: int,
                 by_team: dict[int, int]) -> list[tuple[int, str, int | None]]:
    """The sweeping side's grade and result; where it is at fault, the other sides that claimed failed too."""
    out: list[tuple[int, str, int | None]] = [(sweeper, grade, value)]
    if grade in _AT_FAULT:
        out += [(team, "failed", rules.failed) for team in by_team if team != sweeper]
    return out


def _graded(st: StateData, rules: ClaimRules, team: int, claim: int | None,
            gp: list[int], budget: _Budget) -> tuple[str, int | None] | None:
    """(grade, the side's result, None: the hand scores as usual) for a sweep with its claim; None when a sweep
    without a claim owed none."""
    if claim is None:
        proofs = _turn_proofs(st, team, st.hand_tricks * st.trick_size, budget)
        return ("never made", rules.wrong_but_won) if any(ok for _, ok in proofs) else None
    at = claim % SEAT_FACTOR
    if rules.provable:
        if not _provable_at(st, claim, budget):
            return "early", rules.wrong_but_won
        if rules.first_moment:
            earlier = _turn_proofs(st, team, at - 1, budget) if at > 0 else []
            if any(ok for played, ok in earlier if played < at):
                return "late", rules.wrong_but_won
    trick = at // st.trick_size + 1
    if rules.on_time_before_trick and trick >= rules.on_time_before_trick:
        return "on time too late for a bonus", None
    return "on time", rules.made if not rules.adds else gp[team] + rules.made


def _provable_at(st: StateData, claim: int, budget: _Budget | None = None) -> bool:
    seat, at = claim // SEAT_FACTOR, claim % SEAT_FACTOR
    replay = _replay(st)
    played = 0
    for a in st.history:
        if a.verb == "play":
            if played == at:
                break
            played += 1
        replay.apply(a)
    return (budget or _Budget()).proved(replay, seat)


def _exchange(st: StateData, gp: list[int], team: int, value: int) -> list[int]:
    out = list(gp)
    exchange = st.game.rules.scoring.method == SCORE_EXCHANGE
    for t in range(len(out)):
        out[t] = value if t == team else (-value if exchange else 0)
    return out
