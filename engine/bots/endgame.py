"""The heuristic's endgame: with few cards left, each card worth weighing is played out in a few sampled worlds
and the heuristic's own choice is kept unless another card does better over them.

When the seat holds at most ENDGAME_CARDS cards and knows the trump, one world consistent with its view is built
by replaying the history (determinize.py); the other WORLDS - 1 deal the cards it cannot see afresh over that
world's hands (the same constraints: hand sizes, voids shown, cards shown or laid), which costs a clone instead of
a replay. In each world every candidate card (the legal cards less equivalent ones, `play_candidates`) is played and
the hand finished by the search bots' greedy rollout policy, which sees every hand of the world and makes no random
move here; what is left of a contract step follows the contract policy. The utility is the rollout's (game points
of the seat's side less the others', card points breaking ties). The card of the best total wins; among equals, the
heuristic's choice. Only cards are weighed: a claim or another action open beside the cards is left to the rules
of thumb, and the rollouts grade no claims at the hand's end (a claim's worth is its grading, which the sweep
prover makes at up to a hand's whole budget: far too dear for every world of every decision). The seat reads only
its view: the worlds are drawn from it, never from the hidden hands.

Plain typed Python that mypyc can compile (setup.py's BOT_PATH)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots.determinize import Replay, WorldMaker, ids_of, unseen_plays
from engine.bots.info import Seen
from engine.bots.policy import ContractPolicy
from engine.bots.rollout import apply_first, rollout, utility
from engine.errors import JacknineError
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.state import State

# The endgame starts when the seat holds this many cards or fewer; WORLDS sampled worlds per decision (one
# replayed, the others dealt afresh over it); a decision where every card came to the same in each of the first
# EARLY_WORLDS is left to the heuristic. Fitted on seeds 404 and 505 (never 1), duplicate against the play of before
# (same auction) or heuristic:v1, pure build, `jacknine tournament --ruleset twenty-eight ...` through the
# tournament's run with these constants set:
#   pimc's own choice from 2 cards on +0.036 [+0.008, +0.064], from 3 on +0.070 [+0.032, +0.108] (seed 404, 400 deals,
#   against the heuristic: what the few worlds here aim at);
#   2 cards, 8 worlds, 3 early: +0.040 [+0.013, +0.067] (404, 400 deals); against v1, 600 deals, seed 505:
#   twenty-eight +0.030 [-0.002, +0.062], fifty-six +0.082 [+0.021, +0.142];
#   3 cards, 6 worlds, 2 early: twenty-eight +0.065 [+0.026, +0.104], fifty-six +0.122 [+0.044, +0.199] (505, 600);
#   3 cards, 4 worlds, 2 early (kept): twenty-eight +0.058 [+0.020, +0.095] (505, 600).
# The cost, `jacknine simulate --ruleset twenty-eight --bots heuristic --hands 100 --seed 3` less one hand, in
# instructions (callgrind) against the heuristic before it: 2 cards / 8 worlds 1.49x compiled, 1.80x pure; 3 / 6
# 2.06x, 2.80x; 3 / 4 (kept) 1.83x compiled (872M instructions against 476M), 2.48x pure (3,758M, 1,513M).
ENDGAME_CARDS = 3
WORLDS = 4
EARLY_WORLDS = 2
REPLAY_TRIES = 3           # replays tried for the first world before the heuristic's choice is kept


def endgame_play(game: Game, seen: Seen, legal: Sequence[Action], fallback: Action, rng: random.Random,
                 policy: ContractPolicy) -> Action:
    """The card to play in the endgame (see the module's docstring); `fallback`, the heuristic's choice, outside
    it, when no world fits the view, or when no candidate beats it."""
    v = seen.view
    if v.hand_sizes[v.seat] > ENDGAME_CARDS or seen.trump is None or fallback.verb != "play" or v.special is not None:
        return fallback     # a special contract (every trick, none...) is not what the rollouts play for
    # cards only: a claim's worth is its grading, which the rollouts leave out (the rules of thumb claim when the
    # claim is provable)
    candidates = [a for a in play_candidates(game, seen, legal, fallback) if a.verb == "play"]
    if len(candidates) < 2:
        return fallback
    maker = WorldMaker(game, seen, Replay(game, seen, fill_blank=True))
    base = _first_world(maker, rng)
    if base is None:
        return fallback
    totals = _totals(game, seen, maker, base, candidates, rng, policy)
    if totals is None:
        return fallback     # every card came to the same in the first worlds: the rest would not change it
    best = fallback
    best_total = totals[candidates.index(fallback)] if fallback in candidates else -1e18
    for i in range(len(candidates)):
        if totals[i] > best_total + 1e-9:
            best_total = totals[i]
            best = candidates[i]
    return best


def _first_world(maker: WorldMaker, rng: random.Random) -> State | None:
    """A world replayed from the history on a deal of the unseen cards (None: no deal fit in REPLAY_TRIES)."""
    for _ in range(REPLAY_TRIES):
        world = maker.make(rng)
        if world is not None:
            return world
    return None


def _totals(game: Game, seen: Seen, maker: WorldMaker, base: State, candidates: list[Action], rng: random.Random,
            policy: ContractPolicy) -> list[float] | None:
    """Each candidate's utility summed over the worlds; None when every card came to the same in each of the first
    EARLY_WORLDS worlds."""
    v = seen.view
    # each world is replayed where cards played face down unseen are dealt with the hidden ones, or cards stay out
    # of the hands (a stock): a fresh deal over the first world's hands would not account for them
    redeal = not any(unseen_plays(v)) and game.n * game.cards_each == game.size and maker.turn is None
    totals = [0.0] * len(candidates)
    differ = False
    for w in range(WORLDS):
        if w == EARLY_WORLDS and not differ:
            return None
        world: State | None = base
        if w > 0:
            world = _redealt(base, maker, rng, v.seat) if redeal else maker.make(rng)
        if world is None:
            continue
        row = _row(world, candidates, v.seat, policy)
        if row is None:
            continue
        for i in range(len(row)):
            totals[i] += row[i]
            if row[i] != row[0]:
                differ = True
    return totals


def _redealt(base: State, maker: WorldMaker, rng: random.Random, seat: int) -> State | None:
    """`base` with the cards the seat cannot see dealt afresh to the other seats (None: no deal fits). The deal the
    state keeps (what claims are graded on, replaying the hand from it) gets the new cards where the old unplayed
    ones were."""
    hidden = maker.deal(rng)
    if hidden is None:
        return None
    world = base.clone()
    dealt = [row[:] for row in base.dealt]
    for s in range(len(hidden)):
        old = base.hands[s]
        new = hidden[s]
        if s == seat or old == new:
            continue
        if old.bit_count() != new.bit_count():
            return None
        incoming = ids_of(new & ~old)
        gone = old & ~new
        k = 0
        row = dealt[s]
        for i in range(len(row)):
            if gone >> row[i] & 1:
                row[i] = incoming[k]
                k += 1
        if k != len(incoming):
            return None
        world.hands[s] = new
        world.received[s] = world.received[s] & ~gone | new
    world.dealt = dealt
    return world


def _never() -> float:
    """The rollout's random draw made to always exceed its share of random moves: every move greedy."""
    return 1.0


def _row(world: State, candidates: list[Action], seat: int, policy: ContractPolicy) -> list[float] | None:
    """Each candidate's utility for `seat` in one world (None: a candidate the world refuses)."""
    row: list[float] = []
    for a in candidates:
        s = world.clone()
        # no grading of claims at the rollout's end: in a file whose claims are graded by the sweep prover, each
        # graded world cost up to the whole hand's grading budget (seconds a decision on three-hundred-and-four)
        s.grading = True
        try:
            apply_first(s, a)
            rollout(s, _never, policy)
        except JacknineError:
            return None     # a world the engine refuses somewhere on the way: not counted
        row.append(utility(s, seat))
    return row


def play_candidates(game: Game, seen: Seen, legal: Sequence[Action], fallback: Action) -> list[Action]:
    """The legal actions less cards that are equivalent to one kept: same suit, same points, same standing under a
    discard rule, and no card another seat may hold between them. Of each such run of cards, the heuristic's
    choice is kept, else the lowest."""
    out: list[Action] = []
    kept: list[int] = []             # card id of each kept play, -1 for other actions
    protected = game.rules.play.no_discard_ranks
    strength = seen.strength
    hand = seen.hand | (1 << seen.indicator if seen.indicator >= 0 else 0)
    order = sorted(legal, key=lambda a: (a is not fallback, game.code_ids[a.arg][0] if a.verb == "play" else -1))
    for a in order:
        if a.verb != "play":
            out.append(a)
            kept.append(-1)
            continue
        c = next((x for x in game.code_ids[a.arg] if hand >> x & 1), game.code_ids[a.arg][0])
        if not any(k >= 0 and _equivalent(game, seen, strength, protected, c, k) for k in kept):
            out.append(a)
            kept.append(c)
    return sorted(out, key=lambda a: legal.index(a))


def _equivalent(game: Game, seen: Seen, strength: list[int], protected: frozenset[int], a: int, b: int) -> bool:
    if game.suit_of[a] != game.suit_of[b] or seen.points[a] != seen.points[b]:
        return False
    if (game.rank_of[a] in protected) != (game.rank_of[b] in protected):
        return False
    lo, hi = min(strength[a], strength[b]), max(strength[a], strength[b])
    between = seen.outstanding(game.suit_of[a])   # every card not its own or played, face-up ones too
    while between:
        low = between & -between
        c = low.bit_length() - 1
        if lo < strength[c] < hi:
            return False
        between ^= low
    return True


