"""The `pimc` bot: plain determinized Monte Carlo (perfect-information Monte Carlo), the search bot of 0.1.

For each of `worlds` sampled deals consistent with the view (see `determinize.py`), every legal action is tried
and the hand is finished by the greedy rollout policy (`rollout.py`); the action with the best total wins, ties
going to the heuristic's choice. The budget is a number of worlds, not a time, so a seeded bot makes the same
choices on any machine and in any process. Auction and contract decisions are the heuristic's (its contract
policy, policy.py).

With the `never` option (`pimc:never`, 0.1's contract policy) its choices are frozen (tests/search_golden/): it
chooses exactly what 0.1's search bot chose, only faster. That
includes 0.1's blind spot: while the trump is concealed, a seat that did not see it could replay its history on
no sampled world, so it plays as the heuristic until the trump is exposed (see `determinize.Replay`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.determinize import WorldMaker
from engine.bots.heuristic import decide, settled_claims
from engine.bots.info import read_view
from engine.bots.registry import BotOptions
from engine.bots.rollout import apply_first, rollout, utility
from engine.bots.viewbot import ViewBot
from engine.errors import IllegalActionError
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.view import View

ROLLOUTS = 240             # rollouts per decision: fewer legal actions buy more sampled worlds
MIN_WORLDS, MAX_WORLDS = 16, 48


class PimcBot(ViewBot):
    name = "pimc"

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
        if view.phase != "play":
            return decide(game, seen, legal, self.policy)
        for a in legal:
            if a.verb == "announce":
                return a     # melds score only when announced: not a choice to search
        if not self.policy.never:
            settled = settled_claims(game, view, legal)
            if isinstance(settled, Action):
                return settled
            legal = settled
            if len(legal) == 1:
                return legal[0]
        rng = self._rng
        maker = WorldMaker(game, seen)
        totals = [0.0] * len(legal)
        tried = 0
        # outside the card play a rollout follows the contract policy (0.1's rollouts, kept by `never`, drew at random)
        contract = None if self.policy.never else self.policy
        worlds = self.worlds or min(MAX_WORLDS, max(MIN_WORLDS, ROLLOUTS // len(legal)))
        for _ in range(worlds):
            world = maker.make(rng)
            if world is None:
                continue
            results: list[float] = []
            for a in legal:
                s = world.clone()
                try:
                    apply_first(s, a)
                except IllegalActionError:
                    break     # a world the view allows but the real hand does not: drawn again, never played in
                rollout(s, rng.random, contract)
                results.append(utility(s, view.seat))
            if len(results) < len(legal):
                continue
            tried += 1
            for i in range(len(legal)):
                totals[i] += results[i]
        if not tried:
            return decide(game, seen, legal, self.policy)
        best = max(totals)
        top = [a for a, t in zip(legal, totals, strict=True) if t >= best - 1e-9]
        if len(top) == 1:
            return top[0]
        # among equally good actions, the heuristic's choice (then the first) keeps play natural
        fallback = decide(game, seen, legal, self.policy)
        return fallback if fallback in top else top[0]
