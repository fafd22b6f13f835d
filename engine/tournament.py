"""Duplicate tournaments between two bots.

Every deal is played once per seating in `seatings(game)`: for each team, that team's seats go to one bot and
the other seats to the other, and then the reverse. Each seat is held by each bot equally often over a deal, so
the luck of the cards cancels and what is left is the difference in play. Seeds for the deal and for every bot are
derived from (tournament seed, deal number), so the result is the same however the deals are shared among
worker processes, cluster machines or shards (`start`: deals start..start+deals-1); only the timings differ.
The work goes through engine.executor: the compiled rules travel with it, so workers need no rule file."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from engine.bots.base import Bot, check_bot_spec, make_bot, parse_bot_spec
from engine.executor import Executor, InlineExecutor, chunks, make_executor
from engine.play.game import Game
from engine.play.rules import Rules
from engine.sim import forced_unseen

Z95 = 1.959964


@dataclass
class DealResult:
    """One deal, all its seatings, per bot (index 0 and 1 as given)."""

    index: int
    score: list[float]                 # game points per hand, averaged over seatings and the bot's seats
    contracts: list[int]
    made: list[int]
    annulled: int
    decisions: list[int]
    seconds: list[float]
    max_seconds: list[float]
    incidents: list[list[str]] = field(default_factory=lambda: [[], []])


def seatings(game: Game) -> list[tuple[int, ...]]:
    """Which bot (0 or 1) holds each seat, for every seating of a deal."""
    out: list[tuple[int, ...]] = []
    for team in game.rules.table.teams:
        arr = tuple(0 if s in team else 1 for s in range(game.n))
        for a in (arr, tuple(1 - x for x in arr)):
            if a not in out:
                out.append(a)
    return out


def deal_seed(seed: int, index: int) -> int:
    return random.Random(f"deal/{seed}/{index}").getrandbits(48)


def bot_seed(seed: int, index: int, seating: int, seat: int) -> int:
    return random.Random(f"bot/{seed}/{index}/{seating}/{seat}").getrandbits(48)


_EXTERNAL: dict[tuple[str, int], Bot] = {}   # outside programs stay running across deals within one process


def _bot(spec: str, seed: int, seat: int, game: Game, time_limit: float | None) -> Bot:
    if parse_bot_spec(spec).is_program:
        from engine.bots.external import ExternalBot

        bot = _EXTERNAL.get((spec, seat))
        if not isinstance(bot, ExternalBot):
            bot = _EXTERNAL[(spec, seat)] = make_bot(spec, game, seed)
            assert isinstance(bot, ExternalBot)
        bot.reset(seed)
        if time_limit is not None:
            bot.time_limit = time_limit
        return bot
    return make_bot(spec, game, seed)


class BotPool:
    """The bots of one run (a chunk of hands or deals in one process): each bot name at each seat built once and
    reseeded for every hand (`reseed(seed)` leaves a bot exactly as a new one built with that seed), not rebuilt
    through the registry hand after hand; a bot without `reseed` is built afresh each time, and outside programs
    stay running (`_bot`)."""

    def __init__(self, game: Game, time_limit: float | None = None) -> None:
        self.game = game
        self.time_limit = time_limit
        self._bots: dict[tuple[str, int], Bot] = {}
        self._programs: dict[str, bool] = {}

    def get(self, spec: str, seed: int, seat: int) -> Bot:
        program = self._programs.get(spec)
        if program is None:
            program = self._programs[spec] = parse_bot_spec(spec).is_program
        if program:
            return _bot(spec, seed, seat, self.game, self.time_limit)
        bot = self._bots.get((spec, seat))
        if bot is not None:
            reseed = getattr(bot, "reseed", None)
            if reseed is not None:
                reseed(seed)
                return bot
        bot = self._bots[(spec, seat)] = make_bot(spec, self.game, seed)
        return bot


def close_external_bots() -> None:
    for bot in _EXTERNAL.values():
        close = getattr(bot, "close", None)
        if callable(close):
            close()
    _EXTERNAL.clear()


def play_deal(game: Game, specs: Sequence[str], seed: int, index: int,
              time_limit: float | None = None, pool: BotPool | None = None) -> DealResult:
    """Play deal number `index` in every seating (`pool`: the run's bots, reseeded; else built for the deal)."""
    if pool is None:
        pool = BotPool(game, time_limit)
    res = DealResult(index, [0.0, 0.0], [0, 0], [0, 0], 0, [0, 0], [0.0, 0.0], [0.0, 0.0])
    arrangements = seatings(game)
    dealer = index % game.n
    cards = game.shuffled_deal(deal_seed(seed, index), dealer)
    stock = game.shuffled_stock(deal_seed(seed, index))
    for k, arr in enumerate(arrangements):
        bots = [pool.get(specs[arr[s]], bot_seed(seed, index, k, s), s) for s in range(game.n)]
        unseen = forced_unseen(bots)
        state = game.new_hand(dealer, hands=cards, stock=stock)
        while state.to_act >= 0:
            seat = state.to_act
            who = state.controller   # a dummy's cards are chosen by its declarer's bot, from the dummy's seat
            bot = bots[who]
            legal = state.legal_actions()
            b = arr[who]
            if len(legal) == 1 and unseen[who]:
                # one legal action, a bot that plays it unseen (engine.sim.forced_unseen): no view is built; the
                # decision is counted as before, in no time
                res.decisions[b] += 1
                state.apply(legal[0])
                continue
            view = state.view(seat) if bot.needs_view else None
            t0 = time.perf_counter()
            action = bot.choose(view, legal)
            dt = time.perf_counter() - t0
            res.decisions[b] += 1
            res.seconds[b] += dt
            res.max_seconds[b] = max(res.max_seconds[b], dt)
            state.apply(action)
        for seat, bot in enumerate(bots):
            incidents = getattr(bot, "incidents", None)
            if incidents:
                res.incidents[arr[seat]].extend(f"deal {index}: {x}" for x in incidents)
                incidents.clear()
        gp = state.game_points
        for b in (0, 1):
            seats = [s for s in range(game.n) if arr[s] == b]
            res.score[b] += sum(gp[state.hand_team_of[s]] for s in seats) / len(seats) / len(arrangements)
        if state.status == "annulled":
            res.annulled += 1
        elif state.bidder >= 0:
            b = arr[state.bidder]
            res.contracts[b] += 1
            res.made[b] += bool(state.made)
    return res


# ... and the wall-clock time (time.time()) after which no further deal is started, or None
Chunk = tuple[Rules, str | None, tuple[str, ...], int, list[int], float | None, float | None]
_WORKER_GAMES: dict[tuple[Rules, str | None], Game] = {}


def _worker_game(rules: Rules, ref: str | None) -> Game:
    """The game a worker process plays, rebuilt once from the rules it was sent (never loaded by name)."""
    game = _WORKER_GAMES.get((rules, ref))
    if game is None:
        game = _WORKER_GAMES[(rules, ref)] = Game(rules, ref)
    return game


def _play_chunk(args: Chunk, game: Game | None = None) -> list[DealResult]:
    rules, ref, specs, seed, indices, time_limit, deadline = args
    game = game or _worker_game(rules, ref)
    pool = BotPool(game, time_limit)
    try:
        out = []
        for i in indices:
            if deadline is not None and time.time() >= deadline:
                break   # the overall time bound: the deals begun are finished, no other is started
            out.append(play_deal(game, specs, seed, i, time_limit, pool))
        return out
    finally:
        close_external_bots()


def run(game: Game, specs: Sequence[str], deals: int, seed: int, workers: int = 1,
        time_limit: float | None = None, on_progress: Callable[[int], None] | None = None,
        cluster: str | None = None, start: int = 0, on_deal: Callable[[DealResult], None] | None = None,
        executor: Executor | None = None, max_seconds: float | None = None) -> dict[str, Any]:
    """Play `deals` duplicate deals of `game` (numbers `start` on) and return the report (see `summarise`).
    The work runs in this process, in `workers` processes, or on `cluster` (engine.executor), or on `executor`
    when given (left open); `on_deal` sees each deal's result in deal order. With `max_seconds` no deal is
    started after that many seconds; the report then says how many of the deals asked for were played."""
    if len(specs) != 2:
        raise ValueError(f"a duplicate tournament takes exactly two bots, not {len(specs)}")
    for spec in specs:   # fail early on a bad name, before any process starts
        check_bot_spec(spec)
    results: list[DealResult] = []
    deadline = None if max_seconds is None else time.time() + max_seconds
    if executor is not None:
        _run_on(executor, game, specs, deals, seed, time_limit, on_progress, start, on_deal, results, deadline)
    else:
        with make_executor(workers, cluster) as ex:
            _run_on(ex, game, specs, deals, seed, time_limit, on_progress, start, on_deal, results, deadline)
    results.sort(key=lambda r: r.index)
    report = summarise(game, specs, seed, results)
    if max_seconds is not None:
        report["max_seconds"] = max_seconds
        report["deals_asked"] = deals
        report["stopped_by_max_seconds"] = len(results) < deals
    return report


def _run_on(ex: Executor, game: Game, specs: Sequence[str], deals: int, seed: int, time_limit: float | None,
            on_progress: Callable[[int], None] | None, start: int, on_deal: Callable[[DealResult], None] | None,
            results: list[DealResult], deadline: float | None = None) -> None:
    jobs: list[Chunk] = [(game.rules, game.ref, tuple(specs), seed, list(part), time_limit, deadline)
                         for part in chunks(range(start, start + deals), ex.workers)]
    # in this process the game at hand is played; elsewhere each worker rebuilds it once from the rules sent
    fn = partial(_play_chunk, game=game) if isinstance(ex, InlineExecutor) else _play_chunk
    for part in ex.map(fn, jobs):
        for r in part:
            results.append(r)
            if on_deal is not None:
                on_deal(r)
        if on_progress:
            on_progress(len(results))


def mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean and a normal-approximation 95% confidence interval."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = math.fsum(xs) / n
    if n == 1:
        return m, m, m
    sd = math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1))
    h = Z95 * sd / math.sqrt(n)
    return m, m - h, m + h


def summarise(game: Game, specs: Sequence[str], seed: int, results: Iterable[DealResult]) -> dict[str, Any]:
    return summarise_results(game.rules.name, len(seatings(game)), specs, seed, results)


def summarise_results(ruleset: str, seatings_per_deal: int, specs: Sequence[str], seed: int,
                      results: Iterable[DealResult]) -> dict[str, Any]:
    """The report of the deals `results` (in any order: they are taken in deal order)."""
    rs = sorted(results, key=lambda r: r.index)
    hands = len(rs) * seatings_per_deal
    bots = []
    for b, spec in enumerate(specs):
        m, lo, hi = mean_ci([r.score[b] for r in rs])
        contracts = sum(r.contracts[b] for r in rs)
        made = sum(r.made[b] for r in rs)
        decisions = sum(r.decisions[b] for r in rs)
        seconds = math.fsum(r.seconds[b] for r in rs)
        incidents = [x for r in rs for x in r.incidents[b]]
        bots.append({
            "bot": spec, "game_points_per_hand": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "contracts": contracts, "made": made, "success_rate": round(made / contracts, 4) if contracts else None,
            "decisions": decisions,
            "ms_per_decision": round(1000 * seconds / decisions, 3) if decisions else 0.0,
            "max_ms_per_decision": round(1000 * max((r.max_seconds[b] for r in rs), default=0.0), 3),
            "incidents": len(incidents), "incident_examples": incidents[:5],
        })
    d, dlo, dhi = mean_ci([r.score[0] - r.score[1] for r in rs])
    return {
        "ruleset": ruleset, "deals": len(rs), "seatings_per_deal": seatings_per_deal, "hands": hands,
        "seed": seed, "bots": bots, "annulled_hands": sum(r.annulled for r in rs),
        "difference": {"bots": f"{specs[0]} - {specs[1]}", "game_points_per_hand": round(d, 4),
                       "ci95": [round(dlo, 4), round(dhi, 4)]},
    }


TIMING_KEYS = ("ms_per_decision", "max_ms_per_decision")


def without_timings(report: dict[str, Any]) -> dict[str, Any]:
    """The report less its timings: what must not depend on the number of workers."""
    out = dict(report)
    out["bots"] = [{k: v for k, v in b.items() if k not in TIMING_KEYS} for b in report["bots"]]
    return out
