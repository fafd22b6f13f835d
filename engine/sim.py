"""Self-play: drive hands with bots, gather statistics as a stream, and measure speed.

Hand number i of a run with seed S is dealt from the i-th seed of S's stream and played by bots seeded from
(S, i, seat), so any range of hands can be played alone (`start`), in worker processes or on a cluster
(engine.executor) and the statistics add up to those of one run; `merge_records` rebuilds them from the hand
records such runs write."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from engine.bots.base import Bot, check_bot_spec
from engine.errors import RecordError, UnreadableError
from engine.executor import Executor, InlineExecutor, chunks, make_executor
from engine.play.actions import Action
from engine.play.base import PLAY
from engine.play.game import Game
from engine.play.playout import random_playout
from engine.play.rules import Rules
from engine.play.state import State


def play_out(state: State, bots: Sequence[Bot]) -> None:
    """Let the bots act until the hand is over; each sees only its own seat's view (none is built for a bot that
    plays a forced action unseen, see `forced_unseen`)."""
    unseen = forced_unseen(bots)
    while state.to_act >= 0:
        seat = state.controller    # a dummy's cards are chosen by its declarer's bot, from the dummy's seat
        bot = bots[seat]
        legal = state.legal_actions()
        if len(legal) == 1 and unseen[seat]:
            state.apply(legal[0])
            continue
        view = state.view(state.to_act) if bot.needs_view else None
        state.apply(bot.choose(view, legal))


def forced_unseen(bots: Sequence[Bot]) -> list[bool]:
    """Per seat: whether its bot, offered one legal action, plays it without reading its view (a bot class says
    so with `plays_forced_unseen = True`): the view is not built then, which changes nothing it chooses."""
    return [bool(getattr(b, "plays_forced_unseen", False)) for b in bots]


NO_SIDE = "before any bid"
SIDES = ("bidding", "other", NO_SIDE)


class MechanismWatch:
    """Which special mechanisms (anything but plain bids, passes, trumps and cards: `declare NAME`, `double`,
    `surrender`, `accept`, `trump seventh`, `C`, `change`, `concede`, ...) were offered to (legal for) and taken
    by each side in one hand: the side is the bidding side (the standing bid's side in the auction) or the other,
    as the hand stood when the action was legal."""

    def __init__(self, game: Game) -> None:
        from engine.adapters.encoding import ActionSpace
        from engine.compare import mechanism

        self.game = game
        # the mechanism of each action index (the rule file's action space: seat-independent), and the index of
        # each of the game's interned actions by identity (what legal actions and bots' choices are): no Action is
        # hashed on the way
        space = self._space = ActionSpace(game)
        self.mechanisms = [mechanism(game, space.actions[0][i]) if not name.endswith("change") else "change"
                           for i, name in enumerate(space.names)]
        self._index = {id(a): i for row in space.actions for i, a in enumerate(row)}
        self.keys: dict[str, str] = {}     # notation -> mechanism, for an action outside the space (never, so far)
        self.offered: set[tuple[str, str]] = set()
        self.taken: dict[tuple[str, str], int] = {}   # -> the seat that took it first

    def key(self, a: Action) -> str:
        i = self._index.get(id(a))
        if i is not None and self._space.actions[a.seat][i] is a:
            return self.mechanisms[i]
        k = self.keys.get(a.notation)
        if k is None:
            from engine.compare import mechanism

            k = self.keys[a.notation] = "change" if a.arg.endswith("change") else mechanism(self.game, a)
        return k

    def side(self, state: State, seat: int) -> str:
        b = state.bidder if state.bidder >= 0 else state.high_bidder
        if b < 0:
            return NO_SIDE
        return "bidding" if state.hand_team_of[seat] == state.hand_team_of[b] else "other"

    def play_out(self, state: State, bots: Sequence[Bot]) -> None:
        """play_out, noting the mechanisms offered and taken."""
        self.offered = set()
        self.taken = {}
        unseen = forced_unseen(bots)
        while state.to_act >= 0:
            seat = state.to_act
            bot = bots[seat]
            legal = state.legal_actions()
            side = self._note_offered(state, legal)
            if len(legal) == 1 and unseen[seat]:
                a = legal[0]
            else:
                view = state.view(seat) if bot.needs_view else None
                a = bot.choose(view, legal)
            self._note_taken(state, a, side)
            state.apply(a)

    def follow(self, state: State, actions: Iterable[Action]) -> None:
        """Apply a hand's actions (legal ones: a replayed record's), noting the mechanisms as play_out does."""
        self.offered = set()
        self.taken = {}
        for a in actions:
            side = self._note_offered(state, state.legal_actions())
            self._note_taken(state, a, side)
            state.apply(a)

    def _note_offered(self, state: State, legal: Sequence[Action]) -> str:
        side = ""
        for x in (state.other_actions() if state.phase == PLAY else legal):
            k = self.key(x)
            if k:
                side = side or self.side(state, state.to_act)
                self.offered.add((k, side))
        return side

    def _note_taken(self, state: State, a: Action, side: str) -> None:
        if a.verb == "play":
            return          # a card is no mechanism
        k = self.key(a)
        if k:
            taken = (k, side or self.side(state, a.seat))
            if taken not in self.taken:
                self.taken[taken] = a.seat   # (his team is read at the end: teams may regroup round a declarer)


def hand_seeds(seed: int, start: int = 0) -> Callable[[], int]:
    """A stream of per-hand deal seeds derived from one seed, from hand number `start` on."""
    rng = random.Random(seed)
    for _ in range(start):
        rng.getrandbits(48)
    return lambda: rng.getrandbits(48)


def bot_seed(seed: int, hand: int, seat: int) -> int:
    """The seed of the bot at `seat` in hand number `hand` of a run with `seed`."""
    return random.Random(f"sim/{seed}/{hand}/{seat}").getrandbits(48)


@dataclass
class SimStats:
    """Aggregates over hands, in constant memory."""

    ruleset: str
    hands: int = 0
    status: Counter[str] = field(default_factory=Counter)
    annulled_because: Counter[str] = field(default_factory=Counter)
    contracts: Counter[int] = field(default_factory=Counter)
    made: Counter[int] = field(default_factory=Counter)
    specials: Counter[str] = field(default_factory=Counter)
    bidder_points: int = 0
    defender_points: int = 0
    scored_hands: int = 0
    exposed_in_trick: Counter[str] = field(default_factory=Counter)
    # per "mechanism|side": hands in which it was offered (legal), taken, and won by the side that took it
    mech_offered: Counter[str] = field(default_factory=Counter)
    mech_taken: Counter[str] = field(default_factory=Counter)
    mech_won: Counter[str] = field(default_factory=Counter)

    def add_mechanisms(self, s: State, watch: MechanismWatch) -> None:
        """A hand's mechanisms: `won` when the side that took it ended the hand with more game points than every
        other side."""
        for k, side in watch.offered:
            self.mech_offered[f"{k}|{side}"] += 1
        gp = s.game_points if s.status == "complete" else []
        for (k, side), seat in watch.taken.items():
            key = f"{k}|{side}"
            self.mech_taken[key] += 1
            team = s.hand_team_of[seat]
            if gp and all(gp[team] > p for i, p in enumerate(gp) if i != team):
                self.mech_won[key] += 1

    def mechanisms(self) -> dict[str, dict[str, dict[str, int]]]:
        out: dict[str, dict[str, dict[str, int]]] = {}
        for key in sorted(set(self.mech_offered) | set(self.mech_taken)):
            k, _, side = key.rpartition("|")
            out.setdefault(k, {})[side] = {"offered": self.mech_offered[key], "taken": self.mech_taken[key],
                                           "won": self.mech_won[key]}
        return out

    def add(self, s: State) -> None:
        self.hands += 1
        self.status[s.status] += 1
        if s.status == "annulled":
            self.annulled_because[_reason_kind(s.annul_reason)] += 1
            return
        if s.special is not None:
            self.specials[s.special.name] += 1
        else:
            self.contracts[s.bid] += 1
            if s.made:
                self.made[s.bid] += 1
        bt = s.hand_team_of[s.bidder]
        self.bidder_points += s.team_points[bt]
        self.defender_points += sum(p for i, p in enumerate(s.team_points) if i != bt)
        self.scored_hands += 1
        if s.trump < 0:
            key = "no trumps"
        elif not s.game.rules.trump.concealed:
            key = "open"
        elif s.exposed_trick:
            key = str(s.exposed_trick)
        else:
            key = "never"
        self.exposed_in_trick[key] += 1

    def merge(self, other: SimStats) -> None:
        """Add another run's statistics (of the same game) to these."""
        self.hands += other.hands
        for name in ("status", "annulled_because", "contracts", "made", "specials", "exposed_in_trick",
                     "mech_offered", "mech_taken", "mech_won"):
            getattr(self, name).update(getattr(other, name))
        self.bidder_points += other.bidder_points
        self.defender_points += other.defender_points
        self.scored_hands += other.scored_hands

    def to_dict(self) -> dict[str, Any]:
        n = max(self.scored_hands, 1)
        return {
            "ruleset": self.ruleset,
            "hands": self.hands,
            "complete": self.status["complete"],
            "annulled": self.status["annulled"],
            "annulled_because": dict(sorted(self.annulled_because.items())),
            "contracts_by_bid": {str(b): c for b, c in sorted(self.contracts.items())},
            "success_rate_by_bid": {str(b): round(self.made[b] / c, 4) for b, c in sorted(self.contracts.items())},
            "special_contracts": dict(sorted(self.specials.items())),
            "average_card_points": {"bidding_side": round(self.bidder_points / n, 3),
                                    "other_side": round(self.defender_points / n, 3)},
            "trump_exposed_in_trick": dict(sorted(self.exposed_in_trick.items(), key=_trick_order)),
            "mechanisms": self.mechanisms(),
        }


def _trick_order(kv: tuple[str, int]) -> tuple[int, str]:
    return (int(kv[0]), "") if kv[0].isdigit() else (99, kv[0])


def _reason_kind(reason: str) -> str:
    """'seat 2 holds every J' -> 'holds every J': counted by reason, whoever it happened to."""
    return reason.split(" ", 2)[-1] if reason.startswith("seat ") else reason


def play_hands(game: Game, specs: Sequence[str], seed: int, start: int, count: int,
               watch: MechanismWatch | None = None) -> Iterator[tuple[int, int, State]]:
    """(hand number, deal seed, finished state) of hands `start`..`start+count-1`, the dealer rotating; with
    `watch`, each hand's mechanisms are noted in it (read it before the next hand)."""
    from engine.tournament import BotPool, close_external_bots

    next_seed = hand_seeds(seed, start)
    pool = BotPool(game)     # each seat's bot built once, reseeded for every hand
    try:
        for i in range(start, start + count):
            deal_seed = next_seed()
            bots = [pool.get(spec, bot_seed(seed, i, s), s) for s, spec in enumerate(specs)]
            state = game.new_hand(i % game.n, seed=deal_seed)
            if watch is not None:
                watch.play_out(state, bots)
            else:
                play_out(state, bots)
            yield i, deal_seed, state
    finally:
        close_external_bots()


SimChunk = tuple[Rules, str | None, tuple[str, ...], int, int, int, str | None]
_WORKER_GAMES: dict[tuple[Rules, str | None], Game] = {}


def _sim_chunk(args: SimChunk, game: Game | None = None) -> tuple[SimStats, list[dict[str, Any]]]:
    """Play a chunk of hands; their statistics, and their hand records when `record_ref` (how the records name
    the rule file) is given."""
    from engine.record import outcome_of, record_of

    rules, ref, specs, seed, start, count, record_ref = args
    if game is None:
        game = _WORKER_GAMES.get((rules, ref))
        if game is None:
            game = _WORKER_GAMES[(rules, ref)] = Game(rules, ref)
    stats = SimStats(game.rules.name)
    records: list[dict[str, Any]] = []
    watch = MechanismWatch(game)
    for i, deal_seed, state in play_hands(game, specs, seed, start, count, watch):
        stats.add(state)
        stats.add_mechanisms(state, watch)
        if record_ref is not None:
            rec = record_of(state)
            rec.ruleset = record_ref
            rec.extra["seed"] = deal_seed
            rec.extra["hand"] = i
            rec.extra.update(outcome_of(state))
            records.append(rec.to_dict())
    return stats, records


def simulate(game: Game, hands: int, seed: int, bots: Sequence[str], start: int = 0, workers: int = 1,
             cluster: str | None = None, record_ref: str | None = None,
             on_records: Callable[[list[dict[str, Any]]], None] | None = None,
             on_progress: Callable[[int], None] | None = None) -> SimStats:
    """Play hands `start`..`start+hands-1` (one bot name per seat) and return the statistics, in this process,
    in `workers` processes or on `cluster`. With `record_ref`, `on_records` gets every hand's record (naming the
    rule file so), in hand order."""
    if len(bots) != game.n:
        raise ValueError(f"one bot per seat ({game.n}), not {len(bots)}")
    for spec in bots:
        check_bot_spec(spec)
    stats = SimStats(game.rules.name)
    with make_executor(workers, cluster) as ex:
        _simulate_on(ex, game, hands, seed, tuple(bots), start, record_ref, on_records, on_progress, stats)
    return stats


def _simulate_on(ex: Executor, game: Game, hands: int, seed: int, bots: tuple[str, ...], start: int,
                 record_ref: str | None, on_records: Callable[[list[dict[str, Any]]], None] | None,
                 on_progress: Callable[[int], None] | None, stats: SimStats) -> None:
    jobs: list[SimChunk] = [(game.rules, game.ref, bots, seed, part.start, len(part), record_ref)
                            for part in chunks(range(start, start + hands), ex.workers, most=200)]
    fn = partial(_sim_chunk, game=game) if isinstance(ex, InlineExecutor) else _sim_chunk
    for part, records in ex.map(fn, jobs):
        stats.merge(part)
        if on_records is not None and records:
            on_records(records)
        if on_progress is not None:
            on_progress(stats.hands)


def merge_records(paths: Iterable[Path]) -> SimStats:
    """The statistics of the hands in files of hand records that `simulate --out` wrote (each replayed), exactly
    as one run over those hands gives them. A hand number in two records, records of different rules, or a record
    that does not replay is refused (UnreadableError); a record that stops before its hand is over too
    (RecordError: the record is whole but its hand is not)."""
    from engine.record import game_for, iter_records, new_hand_for, replay
    from engine.text import escaped

    stats: SimStats | None = None
    games: dict[tuple[str, Path | None], Game] = {}
    watches: dict[tuple[str, Path | None], MechanismWatch] = {}
    rules: Rules | None = None
    seen: set[int] = set()
    for path in paths:
        for rec in iter_records(path):
            where = rec.source
            hand = rec.extra.get("hand")
            if isinstance(hand, bool) or not isinstance(hand, int) or hand < 0:
                raise UnreadableError(where, "no hand number: merge reads the records `simulate --out` writes "
                                      "(each has `hand: N`)")
            if hand in seen:
                raise UnreadableError(where, f"hand {hand} is in another record too")
            seen.add(hand)
            key = (rec.ruleset, rec.base_dir)
            game = games.get(key) or games.setdefault(key, game_for(rec))
            if rules is None:
                rules = game.rules
                stats = SimStats(game.rules.name)
            elif game.rules != rules:
                raise UnreadableError(where, f"the rule file {escaped(rec.ruleset)} is not the one of the first "
                                      "record: only hands of one game merge")
            rp = replay(rec, game)
            if rp.error is not None:
                raise UnreadableError(where, f"action {rp.error['index']} does not replay: {rp.error['message']}")
            if rp.state.to_act >= 0:
                raise RecordError(f"{where}: the record stops before the hand is over (after {len(rec.actions)} "
                                  "actions): merge counts whole hands only, as `simulate --out` writes them")
            assert stats is not None
            stats.add(rp.state)
            watch = watches.get(key) or watches.setdefault(key, MechanismWatch(game))
            again = new_hand_for(game, rec)
            watch.follow(again, [Action.parse(t) for t in rec.actions])
            stats.add_mechanisms(again, watch)
    if stats is None:
        raise UnreadableError("merge", "no hand record in the files given")
    return stats


def bench(game: Game, hands: int, seed: int = 1) -> dict[str, Any]:
    """Whole random hands per second, in one process, two ways: finished by `random_playout` (the play phase on
    card bitmasks, as the search bots' rollouts play: `hands_per_second`), and driven from Python through the
    public `legal_actions()` / `apply()` loop (`api_hands_per_second`). Both deal every hand from a seed and play
    the whole rule file: auction, trump, raise, tricks and scoring."""
    n = game.n

    def timed(play: Callable[[State, Callable[[], float]], None]) -> float:
        rand = random.Random(seed).random
        next_seed = hand_seeds(seed)
        t0 = time.perf_counter()
        for i in range(hands):
            play(game.new_hand(i % n, seed=next_seed()), rand)
        return time.perf_counter() - t0

    playout = timed(random_playout)
    api = timed(_api_loop)
    return {"ruleset": game.rules.name, "hands": hands, "seconds": round(playout, 4),
            "hands_per_second": round(hands / playout, 1), "api_seconds": round(api, 4),
            "api_hands_per_second": round(hands / api, 1)}


def _api_loop(state: State, rand: Callable[[], float]) -> None:
    while state.to_act >= 0:
        legal = state.legal_actions()
        state.apply(legal[int(rand() * len(legal))])
