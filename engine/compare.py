"""What a house rule changes: the same deals played under two rule files by the same bots, side by side.

Hand number i is dealt from a seed derived from (seed, i) and played at every seat by the bots named, each seeded
from (seed, i, seat), under rule file A and under rule file B. Where both files deal the same pack to the same
table (players, cards each, the same cards) the very same deal is played under both ("duplicate"), so the
differences B - A are measured hand by hand and their confidence intervals are those of paired differences;
otherwise each file deals its own hand from the same seed and the two samples are independent.

Per file the report gives contracts by bid (share of hands and success rate), the success rate, card points and
game points per hand of the bidding side and of the other side, hand length (actions and tricks), and for every
mechanism that was open to some seat in the hands played (every verb of the legal actions but bid, pass, play
and naming the trump: calls, shows, doubles, declarations, surrenders, redeals, raises, the seventh card, and
whatever verbs the rule language gains, read from the actions themselves) how often it was open and used
(shares of hands), how often a hand ended with it, and the mean game points of the side that used it then.
Every mean and share comes with a 95% interval (means: normal approximation, B - A paired where the deals are
the same; shares: Wilson's score interval). The work goes through engine.executor, so `--workers` and
`--cluster` share it out.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from engine.bots.base import Bot, check_bot_spec
from engine.executor import Executor, InlineExecutor, chunks, make_executor
from engine.play.actions import Action
from engine.play.base import PLAY
from engine.play.game import Game, GameTables
from engine.play.rules import Rules
from engine.play.state import State
from engine.tournament import Z95, mean_ci

PLAIN_VERBS = ("bid", "pass", "play", "trump")   # every hand's contract and play: not a mechanism


def mechanism(game: GameTables, action: Action) -> str:
    """The mechanism an action uses: its verb, with its argument where that is a word (`declare NAME`, `show
    pair`, `trump seventh`) rather than a number, a card or a suit; '' for the plain verbs."""
    arg = action.arg
    word = bool(arg) and not (arg.split()[0].isdigit() or arg in game.code_ids or arg in game.layout.suits
                              or arg == "NT")
    key = f"{action.verb} {arg}" if word else action.verb
    return "" if key in PLAIN_VERBS else key


def fits(a: Game, b: Game) -> bool:
    """Whether one deal is a deal of both games: the same table size, cards each and cards by id."""
    return a.n == b.n and a.cards_each == b.cards_each and a.codes == b.codes


def deal_seed(seed: int, index: int) -> int:
    return random.Random(f"compare/{seed}/{index}").getrandbits(48)


def bot_seed(seed: int, index: int, seat: int) -> int:
    return random.Random(f"compare-bot/{seed}/{index}/{seat}").getrandbits(48)


@dataclass
class HandFacts:
    """What one hand under one rule file came to."""

    status: str
    contract: str | None            # the bid (as text) or the special contract's name; None without a contract
    made: bool | None
    card_points: tuple[int, int]    # bidding side, other side
    game_points: tuple[int, int]
    actions: int
    tricks: int
    used: dict[str, int] = field(default_factory=dict)    # mechanism -> game points of the side that used it first
    ended_by: str = ""
    offered: tuple[str, ...] = ()      # the mechanisms some seat could have used in this hand


def play(state: State, bots: Sequence[Bot]) -> set[str]:
    """Let the bots finish the hand (as engine.sim.play_out does); the mechanisms that were legal at some point."""
    g = state.game
    offered: set[str] = set()
    while state.to_act >= 0:
        bot = bots[state.controller]   # a dummy's cards are chosen by its declarer's bot
        legal = state.legal_actions()
        for x in (state.other_actions() if state.phase == PLAY else legal):   # in the play: all but the cards
            key = mechanism(g, x)
            if key:
                offered.add(key)
        view = state.view(state.to_act) if bot.needs_view else None
        state.apply(bot.choose(view, legal))
    return offered


def facts(state: State, offered: set[str] | None = None) -> HandFacts:
    g = state.game
    complete = state.status == "complete"
    if state.bidder >= 0 and complete:
        bt = state.hand_team_of[state.bidder]
        cp, gp = _bidders_and_others(state.team_points, bt), _bidders_and_others(state.game_points, bt)
    else:
        cp, gp = (0, 0), (0, 0)
    last = mechanism(g, state.history[-1]) if state.history else ""
    return HandFacts(state.status, _contract_name(state), state.made if complete else None, cp, gp,
                     len(state.history), len(state.tricks), _mechanisms_used(state), last,
                     tuple(sorted(offered or ())))


def _bidders_and_others(points: list[int], bt: int) -> tuple[int, int]:
    """(the bidding side's points, every other side's together)."""
    return points[bt], sum(p for i, p in enumerate(points) if i != bt)


def _contract_name(state: State) -> str | None:
    """The special contract's name, or the bid (None: no contract)."""
    if state.bidder < 0:
        return None
    return state.special.name if state.special is not None else str(state.bid)


def _mechanisms_used(state: State) -> dict[str, int]:
    """Each mechanism the hand used, first use first, with the game points of the side that first used it."""
    used: dict[str, int] = {}
    gp_list = state.game_points
    for a in state.history:
        key = mechanism(state.game, a)
        if key and key not in used:
            used[key] = gp_list[state.hand_team_of[a.seat]] if state.status == "complete" else 0
    return used


Job = tuple[Rules, str | None, Rules, str | None, tuple[str, ...], int, list[int], bool]
_GAMES: dict[tuple[Rules, str | None], Game] = {}


def _game(rules: Rules, ref: str | None) -> Game:
    g = _GAMES.get((rules, ref))
    if g is None:
        g = _GAMES[(rules, ref)] = Game(rules, ref)
    return g


def _play(job: Job, games: tuple[Game, Game] | None = None) -> list[tuple[HandFacts, HandFacts]]:
    from engine.tournament import _bot, close_external_bots

    ra, fa, rb, fb, specs, seed, indices, duplicate = job
    a, b = games if games is not None else (_game(ra, fa), _game(rb, fb))
    out = []
    try:
        for i in indices:
            pair = []
            base = a.shuffled_deal(deal_seed(seed, i), i % a.n)
            for g in (a, b):
                dealer = i % g.n
                cards = base if duplicate else g.shuffled_deal(deal_seed(seed, i), dealer)
                state = g.new_hand(dealer, hands=cards, stock=g.shuffled_stock(deal_seed(seed, i)) or None)
                offered = play(state, [_bot(spec, bot_seed(seed, i, s), s, g, None) for s, spec in enumerate(specs)])
                pair.append(facts(state, offered))
            out.append((pair[0], pair[1]))
    finally:
        close_external_bots()
    return out


def compare(a: Game, b: Game, bots: Sequence[str], hands: int, seed: int, workers: int = 1,
            cluster: str | None = None, on_progress: Callable[[int], None] | None = None,
            executor: Executor | None = None) -> dict[str, Any]:
    """Play `hands` hands under both games and return the report (see the module's documentation). `bots`: one
    name per seat (the same at each seat under both files)."""
    if len(bots) != a.n or len(bots) != b.n:
        raise ValueError(f"one bot per seat: {a.n} seats in {a.rules.name}, {b.n} in {b.rules.name}, "
                         f"{len(bots)} bots given")
    for spec in bots:
        check_bot_spec(spec)
    duplicate = fits(a, b)
    rows: list[tuple[HandFacts, HandFacts]] = []

    def go(ex: Executor) -> None:
        jobs: list[Job] = [(a.rules, a.ref, b.rules, b.ref, tuple(bots), seed, list(part), duplicate)
                           for part in chunks(range(hands), ex.workers, most=100)]
        fn = partial(_play, games=(a, b)) if isinstance(ex, InlineExecutor) else _play
        for part in ex.map(fn, jobs):
            rows.extend(part)
            if on_progress is not None:
                on_progress(len(rows))

    if executor is not None:
        go(executor)
    else:
        with make_executor(workers, cluster) as ex:
            go(ex)
    return report(a, b, list(bots), seed, duplicate, rows)


# --------------------------------------------------------------------------------------------- the report
def share_ci(k: int, n: int) -> dict[str, Any]:
    """A share k/n with its 95% interval (Wilson's score interval: sound for shares near 0 or 1 and few hands,
    where the normal approximation collapses to a point)."""
    if n == 0:
        return {"count": k, "of": 0, "share": None, "ci95": None}
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    h = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return {"count": k, "of": n, "share": round(p, 4),
            "ci95": [round(max(0.0, centre - h), 4), round(min(1.0, centre + h), 4)]}


def mean_entry(xs: Sequence[float]) -> dict[str, Any]:
    m, lo, hi = mean_ci(xs)
    return {"mean": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)], "n": len(xs)}


def difference(xa: Sequence[float], xb: Sequence[float], paired: bool) -> dict[str, Any]:
    """B - A with its 95% interval: of the hand-by-hand differences when paired, else of two independent means."""
    if paired and len(xa) == len(xb):
        e = mean_entry([y - x for x, y in zip(xa, xb, strict=True)])
        return {"mean": e["mean"], "ci95": e["ci95"], "paired": True}
    ma, lo_a, _ = mean_ci(xa)
    mb, lo_b, _ = mean_ci(xb)
    ha, hb = ma - lo_a, mb - lo_b
    d, h = mb - ma, math.sqrt(ha * ha + hb * hb)
    return {"mean": round(d, 4), "ci95": [round(d - h, 4), round(d + h, 4)], "paired": False}


def _by_contract(hs: list[HandFacts], n: int) -> dict[str, Any]:
    """Per contract (bids in numeric order, then the special contracts by name): its share of the hands and
    how often it was made."""
    bids: dict[str, list[HandFacts]] = {}
    for h in hs:
        bids.setdefault(h.contract or "", []).append(h)
    order = sorted(bids, key=lambda c: (0, int(c), "") if c.isdigit() else (1, 0, c))
    return {c: {"hands": share_ci(len(bids[c]), n), "made": share_ci(sum(bool(h.made) for h in bids[c]), len(bids[c]))}
            for c in order}


def _mechanisms(hs: list[HandFacts]) -> dict[str, Any]:
    """Each mechanism offered or used in any hand, by name."""
    return {key: _mechanism(hs, key) for key in sorted({k for h in hs for k in (*h.offered, *h.used)})}


def _mechanism(hs: list[HandFacts], key: str) -> dict[str, Any]:
    """How often a mechanism was offered, used and ended the hand, and its users' game points."""
    n = len(hs)
    users = [h for h in hs if key in h.used]
    return {"offered": share_ci(sum(1 for h in hs if key in h.offered), n),
            "used": share_ci(len(users), n),
            "ended_hand": sum(1 for h in hs if h.ended_by == key),
            "user_game_points": mean_entry([float(h.used[key]) for h in users]) if users else None}


def _side(g: Game, hs: list[HandFacts]) -> dict[str, Any]:
    n = len(hs)
    with_contract = [h for h in hs if h.contract is not None and h.status == "complete"]
    return {
        "ruleset": g.rules.name, "hands": n,
        "complete": sum(h.status == "complete" for h in hs), "annulled": sum(h.status == "annulled" for h in hs),
        "contracts_by_bid": _by_contract(with_contract, n),
        "success_rate": share_ci(sum(bool(h.made) for h in with_contract), len(with_contract)),
        "card_points": _per_side([h.card_points for h in with_contract]),
        "game_points": _per_side([h.game_points for h in hs]),
        "hand_length": {"actions": _mean(hs, lambda h: h.actions), "tricks": _mean(hs, lambda h: h.tricks)},
        "mechanisms": _mechanisms(hs),
    }


def _per_side(points: list[tuple[int, int]]) -> dict[str, Any]:
    """The mean points of the bidding side and of the others."""
    return {"bidding_side": mean_entry([float(p[0]) for p in points]),
            "other_side": mean_entry([float(p[1]) for p in points])}


def _mean(hs: list[HandFacts], get: Callable[[HandFacts], int]) -> dict[str, Any]:
    return mean_entry([float(get(h)) for h in hs])


def _made(hs: list[HandFacts]) -> list[float]:
    """1 for each contract made, 0 for each failed (hands without one left out)."""
    return [1.0 if h.made else 0.0 for h in hs if h.contract is not None and h.status == "complete"]


def report(a: Game, b: Game, bots: list[str], seed: int, duplicate: bool,
           rows: list[tuple[HandFacts, HandFacts]]) -> dict[str, Any]:
    ha = [x for x, _ in rows]
    hb = [y for _, y in rows]

    def diff(get: Callable[[HandFacts], float]) -> dict[str, Any]:
        return difference([get(h) for h in ha], [get(h) for h in hb], duplicate)

    return {
        "a": _side(a, ha), "b": _side(b, hb), "hands": len(rows), "seed": seed, "bots": bots,
        "duplicate": duplicate,
        "difference": {
            "success_rate": difference(_made(ha), _made(hb), False),
            "bidding_side_game_points": diff(lambda h: float(h.game_points[0])),
            "other_side_game_points": diff(lambda h: float(h.game_points[1])),
            "bidding_side_card_points": diff(lambda h: float(h.card_points[0])),
            "other_side_card_points": diff(lambda h: float(h.card_points[1])),
            "actions": diff(lambda h: float(h.actions)),
            "tricks": diff(lambda h: float(h.tricks)),
            "annulled": diff(lambda h: 1.0 if h.status == "annulled" else 0.0),
        },
    }
