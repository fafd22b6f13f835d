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

from engine.bots.heuristic import decide, settled_claims
from engine.bots.info import Seen, last_bidder, read_view
from engine.bots.model import PARTNER_MARGIN, RAISE_MARGIN
from engine.bots.pimc import apply_first
from engine.bots.policy import ContractPolicy
from engine.bots.registry import BotOptions
from engine.bots.rollout import Stream, rollout, utility
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
            if fallback.verb == "announce":
                return fallback      # melds score only when announced: not a choice to search
            if not self.policy.never:
                settled = settled_claims(game, view, legal)
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
        if view.phase in CONTRACT_PHASES:
            if not self.close_call(seen, legal):
                return fallback
            candidates = contract_candidates(game, self.policy, seen, legal, fallback)
            if len(candidates) == 1:
                return candidates[0]
            return self.search(seen, candidates, self.worlds or CONTRACT_WORLDS, fallback, CONFIDENCE)
        return fallback

    def close_call(self, seen: Seen, legal: Sequence[Action]) -> bool:
        """Whether a bid or raise is near enough the heuristic's threshold to be worth searching (other contract
        decisions always are)."""
        m = self.model
        v = seen.view
        close = CLOSE * m.total
        if v.phase == "auction":
            lowest = next((m.value_of(a) for a in legal if a.verb == "bid"), -1)
            if lowest < 0 or not any(a.verb == "pass" for a in legal):
                return True
            _, units = m.best_trump(seen.hand, m.no_trumps)
            est = m.expected(v.seat, seen.hand, units)
            partner = _partner_high(seen)
            return abs(est - (lowest + (PARTNER_MARGIN if partner else 0))) <= close
        if v.phase == "raise":
            lowest = next((m.value_of(a) for a in legal if a.verb == "raise"), -1)
            if lowest < 0:
                return True
            hand = seen.hand | (1 << seen.indicator if seen.indicator >= 0 else 0)
            if seen.trump is not None and seen.trump >= 0:
                units = m.units(hand, seen.trump)
            else:
                units = m.best_trump(hand, False)[1]
            est = m.expected(v.seat, hand, units)
            return abs(est - (lowest + RAISE_MARGIN)) <= close
        return True

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
        spent = 0
        scanned = 0
        used = 0
        bids = len(self.game.bid_values)
        per_speech = 1 + bids // SPEECH_WEIGHT_BIDS
        searched: list[tuple[State, int]] = []
        for world, weight in kept:
            if spent >= WORK_BUDGET or scanned >= SCAN_BUDGET:
                break    # the decision's work is spent: the worlds searched so far decide
            stream = rng.getrandbits(32)
            row = [0.0] * len(candidates)
            start = len(world.history)
            refused = False
            for i, a in enumerate(candidates):
                if used == 0 and (spent >= WORK_BUDGET or scanned >= SCAN_BUDGET):
                    # the first world alone outgrew the budget (a long auction tried for many candidates): a
                    # half-searched world compares nothing, so the heuristic's choice stands
                    return fallback
                s = world.clone()
                try:
                    apply_first(s, a)
                except IllegalActionError:
                    refused = True    # a world the view allows but the real hand does not: never played in
                    break
                rollout(s, Stream(stream).random, self.policy)
                spent += rollout_work(s.history, start, per_speech)
                scanned += rollout_speeches(s.history, start) * bids
                row[i] = utility(s, seat)
            if refused:
                continue
            for i, u in enumerate(row):
                totals[i] += weight * u
            per_world.append(row)
            searched.append((world, weight))
            used += 1
        if not used:
            return fallback
        kept = searched
        best = max(totals)
        top = [a for a, t in zip(candidates, totals, strict=True) if t >= best - 1e-9]
        choice = fallback if fallback in top else top[0]
        if confidence > 0 and choice is not fallback and fallback in candidates:
            i, f = candidates.index(choice), candidates.index(fallback)
            diffs = [(row[i] - row[f], w) for row, (_, w) in zip(per_world, kept, strict=True)]
            n = sum(w for _, w in diffs)
            mean = sum(d * w for d, w in diffs) / n
            var = sum(w * (d - mean) ** 2 for d, w in diffs) / max(n - 1, 1)
            if mean <= confidence * (var / n) ** 0.5:
                return fallback
        return choice


def _partner_high(seen: Seen) -> bool:
    v = seen.view
    high = last_bidder(v)
    return high >= 0 and high != v.seat and not seen.game.rules.table.bidder_plays_alone and seen.partners(high, v.seat)


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
        twin = False
        for k in kept:
            if k >= 0 and _equivalent(game, seen, strength, protected, c, k):
                twin = True
                break
        if not twin:
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


def contract_candidates(game: Game, policy: ContractPolicy, seen: Seen, legal: Sequence[Action],
                        fallback: Action) -> list[Action]:
    """The actions worth searching in an auction or contract step: pass, a redeal, the lowest bid (for each suit
    where bids name one), each suit's trump as the heuristic would lay it, the lowest raise; everything in the
    short lists (doubling, declarations); the heuristic's own choice always."""
    phase = seen.view.phase
    out: list[Action] = [fallback]
    if phase == "auction":
        codes: set[str] = set()
        for a in legal:
            if a.verb == "bid":
                code = policy.model.code_of(a)
                if code not in codes:
                    codes.add(code)
                    out.append(a)
            else:
                out.append(a)
    elif phase == "trump":
        as_card = game.rules.trump.as_card
        for a in legal:
            if not as_card or a.arg == "seventh" or a.arg == "NT":
                out.append(a)
        if as_card:
            hand = seen.hand
            for s in range(game.nsuits):
                options = tuple(a for a in legal if len(a.arg) == 2 and a.arg[-1] == game.layout.suits[s])
                if options and hand & game.suit_masks[s]:
                    out.append(policy.trump_choice(hand & game.suit_masks[s], options))
    elif phase == "raise":
        raises = [a for a in legal if a.verb == "raise"]
        out.extend(a for a in legal if a.verb != "raise")
        if raises:
            out.append(raises[0])
    else:
        out.extend(legal)
    return list(dict.fromkeys(out))
