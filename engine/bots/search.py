"""The search bot: determinized Monte Carlo search over worlds weighted by what the table has seen, for every
decision that has a choice - the card play, and the bid, the trump and the other contract steps too.

Each decision draws candidate worlds consistent with the seat's view and keeps a resample of them in proportion to
how likely the other seats' bids, passes, raises, visible trump and card plays were in each (see `worlds.py` and
`model.py`); a concealed trump is drawn as the bidder would have named it. Every candidate action is then tried in
each kept world and the hand finished by the rollout policy: the heuristic's rules for what is left of the auction
and contract steps, the greedy card policy for the play (`rollout.py`). Each world's rollouts share one random
stream, so candidates are compared on equal luck. The best total wins; ties (and a search that found no world)
go to the heuristic's choice. Budgets are counts of worlds and rollouts, never time: a seeded bot makes the same
choices on any machine and in any process. `search:N` fixes N worlds per decision.

The plain determinized search of 0.1 (uniform worlds, heuristic auction) is the `pimc` bot.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.endgame import play_candidates
from engine.bots.heuristic import decide, settled_claims
from engine.bots.info import Seen, last_bidder, read_view
from engine.bots.model import PARTNER_MARGIN, RAISE_MARGIN
from engine.bots.policy import ContractPolicy
from engine.bots.registry import BotOptions
from engine.bots.rollout import Stream, apply_first, rollout, utility
from engine.bots.viewbot import ViewBot
from engine.bots.worlds import Sampler
from engine.errors import IllegalActionError
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.state import State
from engine.play.view import View

PLAY_ROLLOUTS = 320            # rollouts per card decision: fewer legal actions buy more worlds
# At most 52 worlds per card decision: the sampler now draws only worlds that fit the history, so none is refused;
# 52 keeps the rollouts per decision of the old 64, of which about a tenth used to be refused
MIN_WORLDS, MAX_WORLDS = 16, 52
CONTRACT_WORLDS = 24           # worlds per auction or contract decision
CLOSE = 0.15                  # a bid or raise is searched when the heuristic's estimate is this near (share of points)
CONFIDENCE = 1.0              # standard errors by which a contract search must beat the heuristic's choice
DRAWS_PER_WORLD = 2            # candidate worlds drawn for each world kept
CONTRACT_PHASES = ("auction", "trump", "raise", "doubling", "declarations", "surrender")
# The work one decision may cost, in actions its rollouts apply, whatever the rule file: a file that validates may
# have hundreds of bids and players who raise by one, and each rollout then finishes a long auction. A shipped
# game's decision stays far below (320 rollouts of at most 48 cards), so its choices do not change.
WORK_BUDGET = 40_000
SPEECH_WEIGHT_BIDS = 16        # a speech in a rollout weighs 1 + (bids the file has) / this: the policy scans them
# The bids the rollouts' speeches may scan in one decision. The policy looks at every legal bid at each speech, so
# a file with hundreds of bids makes a speech cost hundreds of card plays, and an auction where every seat raises
# by one is as long again. A shipped game's decision scans at most about 100,000 (eight seats, 29 bids).
SCAN_BUDGET = 250_000


def rollout_work(history: Sequence[Action], start: int, per_speech: int) -> int:
    """The work of one rollout: the actions it applied after `start`, speeches weighted by `per_speech`."""
    work = 0
    for i in range(start, len(history)):
        work += 1 if history[i].verb == "play" else per_speech
    return work


def rollout_speeches(history: Sequence[Action], start: int) -> int:
    """The actions other than card plays that one rollout applied after `start`."""
    speeches = 0
    for i in range(start, len(history)):
        if history[i].verb != "play":
            speeches += 1
    return speeches


class SearchBot(ViewBot):
    name = "search"

    def __init__(self, game: Game, seed: int = 0, options: BotOptions | None = None) -> None:
        """`options.worlds`: a fixed number of sampled worlds per decision (default: by the rollout budget)."""
        super().__init__(game, seed, options)
        self.worlds = self.options.worlds

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        game = self.game
        view = self.check_view(view)
        seen = read_view(game, view)
        fallback = decide(game, seen, legal, self.policy)
        if view.phase == "play":
            return self._choose_play(seen, legal, fallback)
        if view.phase in CONTRACT_PHASES:
            if not self.close_call(seen, legal):
                return fallback
            candidates = contract_candidates(game, self.policy, seen, legal, fallback)
            if len(candidates) == 1:
                return candidates[0]
            return self.search(seen, candidates, self.worlds or CONTRACT_WORLDS, fallback, CONFIDENCE)
        return fallback

    def _choose_play(self, seen: Seen, legal: Sequence[Action], fallback: Action) -> Action:
        """A card (or an action of the play): the claims settled first, then a search over the cards that
        differ."""
        game = self.game
        if fallback.verb == "announce":
            return fallback      # melds score only when announced: not a choice to search
        if not self.policy.never:
            settled = settled_claims(game, seen.view, legal)
            if isinstance(settled, Action):
                return settled
            legal = settled
            if fallback not in legal:
                fallback = legal[0]
        candidates = play_candidates(game, seen, legal, fallback)
        if len(candidates) == 1:
            return candidates[0]
        worlds = self.worlds or min(MAX_WORLDS, max(MIN_WORLDS, PLAY_ROLLOUTS // len(candidates)))
        return self.search(seen, candidates, worlds, fallback)

    def close_call(self, seen: Seen, legal: Sequence[Action]) -> bool:
        """Whether a bid or raise is near enough the heuristic's threshold to be worth searching (other contract
        decisions always are)."""
        phase = seen.view.phase
        if phase == "auction":
            return self._close_bid(seen, legal)
        if phase == "raise":
            return self._close_raise(seen, legal)
        return True

    def _close_bid(self, seen: Seen, legal: Sequence[Action]) -> bool:
        """The estimate of this hand near the lowest bid (plus a margin over a partner's bid); always when passing
        is not allowed."""
        m = self.model
        lowest = next((m.value_of(a) for a in legal if a.verb == "bid"), -1)
        if lowest < 0 or not any(a.verb == "pass" for a in legal):
            return True
        _, units = m.best_trump(seen.hand, m.no_trumps)
        est = m.expected(seen.view.seat, seen.hand, units)
        partner = _partner_high(seen)
        return abs(est - (lowest + (PARTNER_MARGIN if partner else 0))) <= CLOSE * m.total

    def _close_raise(self, seen: Seen, legal: Sequence[Action]) -> bool:
        """The estimate of the hand (with the face-down trump card) near the lowest raise."""
        m = self.model
        lowest = next((m.value_of(a) for a in legal if a.verb == "raise"), -1)
        if lowest < 0:
            return True
        hand = seen.hand | (1 << seen.indicator if seen.indicator >= 0 else 0)
        if seen.trump is not None and seen.trump >= 0:
            units = m.units(hand, seen.trump)
        else:
            units = m.best_trump(hand, False)[1]
        est = m.expected(seen.view.seat, hand, units)
        return abs(est - (lowest + RAISE_MARGIN)) <= CLOSE * m.total

    def search(self, seen: Seen, candidates: list[Action], worlds: int, fallback: Action,
               confidence: float = 0.0) -> Action:
        """The candidate with the best total utility over the weighted worlds (the fallback among equals). With
        `confidence` > 0 another candidate replaces the fallback only if it beats it by that many standard errors
        of the paired per-world difference: a contract decision made on a few noisy worlds should not jump at an
        estimate that is mostly luck."""
        rng = self._rng
        seat = seen.view.seat
        kept = Sampler(self.game, seen, self.model).sample(rng, worlds, worlds * DRAWS_PER_WORLD)
        if not kept:
            return fallback
        totals = [0.0] * len(candidates)
        per_world: list[list[float]] = []
        weights: list[float] = []
        budget = _Budget(len(self.game.bid_values))
        for world, weight in kept:
            if budget.spent():
                break    # the decision's work is spent: the worlds searched so far decide
            stream = rng.getrandbits(32)
            try:
                row = self._world_row(world, candidates, stream, budget, seat, first=not per_world)
            except _FirstWorldUnfinished:
                return fallback
            if row is None:
                continue
            for i, u in enumerate(row):
                totals[i] += weight * u
            per_world.append(row)
            weights.append(weight)
        if not per_world:
            return fallback
        return _best(candidates, totals, fallback, per_world, weights, confidence)

    def _world_row(self, world: State, candidates: list[Action], stream: int, budget: _Budget, seat: int,
                   first: bool) -> list[float] | None:
        """Each candidate's utility for `seat` in one world, every rollout drawing from the same stream (None: a
        candidate the world refuses, a world the view allows but the real hand does not: never played in)."""
        row = [0.0] * len(candidates)
        start = len(world.history)
        for i, a in enumerate(candidates):
            if first and budget.spent():
                # the first world alone outgrew the budget (a long auction tried for many candidates): a
                # half-searched world compares nothing, so the heuristic's choice stands
                raise _FirstWorldUnfinished
            s = world.clone()
            try:
                apply_first(s, a)
            except IllegalActionError:
                return None
            rollout(s, Stream(stream).random, self.policy)
            budget.charge(s.history, start)
            row[i] = utility(s, seat)
        return row


class _FirstWorldUnfinished(Exception):
    """The first world searched outgrew the decision's work budget before every candidate was tried."""


class _Budget:
    """The rollout work a decision may spend: the actions played (a speech weighing more in a long auction) and
    the bids scanned."""

    def __init__(self, bids: int) -> None:
        self.bids = bids
        self.per_speech = 1 + bids // SPEECH_WEIGHT_BIDS
        self.work = 0
        self.scanned = 0

    def spent(self) -> bool:
        return self.work >= WORK_BUDGET or self.scanned >= SCAN_BUDGET

    def charge(self, history: list[Action], start: int) -> None:
        self.work += rollout_work(history, start, self.per_speech)
        self.scanned += rollout_speeches(history, start) * self.bids


def _best(candidates: list[Action], totals: list[float], fallback: Action, per_world: list[list[float]],
          weights: list[float], confidence: float) -> Action:
    """The candidate of the best total (the fallback among equals); with `confidence`, the fallback unless the
    best is clearly better."""
    best = max(totals)
    top = [a for a, t in zip(candidates, totals, strict=True) if t >= best - 1e-9]
    choice = fallback if fallback in top else top[0]
    if confidence > 0 and choice is not fallback and fallback in candidates and not _clearly_better(
            per_world, weights, candidates.index(choice), candidates.index(fallback), confidence):
        return fallback
    return choice


def _clearly_better(per_world: list[list[float]], weights: list[float], i: int, f: int, confidence: float) -> bool:
    """Whether candidate `i` beats the fallback `f` by `confidence` standard errors of the weighted paired
    per-world difference."""
    diffs = [(row[i] - row[f], w) for row, w in zip(per_world, weights, strict=True)]
    n = sum(w for _, w in diffs)
    mean = sum(d * w for d, w in diffs) / n
    var = sum(w * (d - mean) ** 2 for d, w in diffs) / max(n - 1, 1)
    bound: float = confidence * (var / n) ** 0.5
    return mean > bound


def _auction_candidates(policy: ContractPolicy, legal: Sequence[Action]) -> list[Action]:
    """Every speech but a bid, and the lowest bid naming each trump (where bids name one)."""
    out: list[Action] = []
    codes: set[str] = set()
    for a in legal:
        if a.verb != "bid":
            out.append(a)
            continue
        code = policy.model.code_of(a)
        if code not in codes:
            codes.add(code)
            out.append(a)
    return out


def _trump_candidates(game: Game, policy: ContractPolicy, seen: Seen, legal: Sequence[Action]) -> list[Action]:
    """Each trump choice; where the trump is a card laid face down, the seventh card, no-trumps, and for each suit
    held the card the heuristic would lay."""
    if not game.rules.trump.as_card:
        return list(legal)
    out = [a for a in legal if a.arg == "seventh" or a.arg == "NT"]
    hand = seen.hand
    for s in range(game.nsuits):
        options = tuple(a for a in legal if len(a.arg) == 2 and a.arg[-1] == game.layout.suits[s])
        if options and hand & game.suit_masks[s]:
            out.append(policy.trump_choice(hand & game.suit_masks[s], options))
    return out


def _partner_high(seen: Seen) -> bool:
    v = seen.view
    high = last_bidder(v)
    return high >= 0 and high != v.seat and not seen.game.rules.table.bidder_plays_alone and seen.partners(high, v.seat)


def contract_candidates(game: Game, policy: ContractPolicy, seen: Seen, legal: Sequence[Action],
                        fallback: Action) -> list[Action]:
    """The actions worth searching in an auction or contract step: pass, a redeal, the lowest bid (for each suit
    where bids name one), each suit's trump as the heuristic would lay it, the lowest raise; everything in the
    short lists (doubling, declarations); the heuristic's own choice always."""
    phase = seen.view.phase
    out: list[Action] = [fallback]
    if phase == "auction":
        out.extend(_auction_candidates(policy, legal))
    elif phase == "trump":
        out.extend(_trump_candidates(game, policy, seen, legal))
    elif phase == "raise":
        raises = [a for a in legal if a.verb == "raise"]
        out.extend(a for a in legal if a.verb != "raise")
        out.extend(raises[:1])
    else:
        out.extend(legal)
    return list(dict.fromkeys(out))
