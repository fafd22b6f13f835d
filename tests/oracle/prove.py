"""Certainty of a sweep, the referee's way: brute force.

`caps_proof(hand, turn)` answers whether, at a recorded turn of a 304 hand, the player to act could prove from
what he has seen that his side wins every remaining trick, for every lie of the unseen cards and every legal play
of the other three (his partner's forced plays count, his choices do not): True, False, or None when the referee
cannot tell.

- With the trump open and every played card known to him, the consistent worlds (the unseen cards dealt to the
  other seats in their hand sizes, no card of a suit a seat has shown void in) are enumerated; up to
  WORLD_LIMIT of them, an exact search over his information decides: he chooses his card knowing only his
  observations, every other seat's card is universal over the worlds in which it is legal.
- Otherwise, or with more worlds, a refutation is looked for: a world (the true one, then sampled ones) in which
  even a player who saw every card could not force the sweep. Found: False; not found: None.

`sure_sweep(cards, ranks)` is MORE-GAMES.md section 6.8's derived test for a hand that wins every trick at
no-trumps on lead (single-hand-show).

FIGURES counts what was decided and how, for the oracle's report.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from functools import cache
from typing import Any

from tests.oracle.core import R8

WORLD_LIMIT = 5000
SAMPLED_WORLDS = 40
SEARCH_BUDGET = 4000      # positions per perfect-information search (a refutation is usually found in a few)
NODE_LIMIT = 200_000
FIGURES: Counter[str] = Counter()

Play = tuple[int, str]


# ------------------------------------------------------------------------------------- open-trump play
class OpenPlay:
    """Trick play of an open 304 hand on known cards: follow suit, else any card; the trumper's trick-1 lead
    duty after opening and his exhausted-trumps duty; highest trump, else highest of the suit led, wins."""

    def __init__(self, trump: str, bidder: int, side: int, ranks: list[str] = R8) -> None:
        self.trump, self.bidder, self.side = trump, bidder, side
        self.rank = {r: i for i, r in enumerate(ranks)}

    def team(self, seat: int) -> int:
        return seat % 2

    def moves(self, hand: frozenset[str], cur: tuple[Play, ...], seat: int, trick: int, duty: bool,
              exhausted: bool) -> list[str]:
        if not cur:
            trumps = [c for c in hand if c[1] == self.trump]
            if seat == self.bidder and trumps and ((trick == 1 and duty) or exhausted):
                return sorted(trumps)
            return sorted(hand)
        led = cur[0][1][1]
        return sorted([c for c in hand if c[1] == led] or hand)

    def winner(self, cur: tuple[Play, ...]) -> int:
        led = cur[0][1][1]

        def key(p: Play) -> tuple[int, int]:
            c = p[1]
            return (2 if c[1] == self.trump else 1 if c[1] == led else 0, -self.rank[c[0]])
        return max(cur, key=key)[0]

    def after_trick(self, cur: tuple[Play, ...], exhausted: bool) -> bool:
        lead_seat, lead = cur[0]
        if lead_seat == self.bidder and lead[1] == self.trump and all(c[1] != self.trump for _, c in cur[1:]):
            return True
        return exhausted


def _perfect_sweep(game: OpenPlay, hands: tuple[frozenset[str], ...], cur: tuple[Play, ...], to: int, trick: int,
                   duty: bool, exhausted: bool, caller: int, budget: list[int]) -> bool | None:
    """Can the caller force the sweep when everyone sees every card (the others against him)? None: too big."""
    memo: dict[Any, bool] = {}

    def go(hands: tuple[frozenset[str], ...], cur: tuple[Play, ...], to: int, trick: int, exhausted: bool) -> bool:
        key = (hands, cur, to, trick, exhausted)
        if key in memo:
            return memo[key]
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooBig
        moves = game.moves(hands[to], cur, to, trick, duty, exhausted)
        results = []
        for m in moves:
            nh = tuple(h - {m} if i == to else h for i, h in enumerate(hands))
            ncur = (*cur, (to, m))
            if len(ncur) == 4:
                win = game.winner(ncur)
                if game.team(win) != game.side:
                    ok = False
                elif not any(nh):
                    ok = True
                else:
                    ok = go(nh, (), win, trick + 1, game.after_trick(ncur, exhausted))
            else:
                ok = go(nh, ncur, (to + 1) % 4, trick, exhausted)
            results.append(ok)
            if to == caller and ok:
                break
            if to != caller and not ok:
                break
        out = any(results) if to == caller else all(results)
        memo[key] = out
        return out

    try:
        return go(hands, cur, to, trick, exhausted)
    except _TooBig:
        return None


class _TooBig(Exception):
    pass


# ------------------------------------------------------------------------------------- worlds
World = dict[int, frozenset[str]]


def _worlds(unseen: list[str], sizes: dict[int, int], void: dict[int, set[str]], limit: int) -> list[World] | None:
    """Every deal of `unseen` to the seats in `sizes` respecting the voids; None when there are more than
    `limit`."""
    seats = sorted(sizes)
    out: list[dict[int, frozenset[str]]] = []
    cards = sorted(unseen)

    def place(i: int, hands: dict[int, list[str]]) -> bool:
        if len(out) > limit:
            return False
        if i == len(cards):
            out.append({s: frozenset(h) for s, h in hands.items()})
            return True
        c = cards[i]
        for s in seats:
            if len(hands[s]) < sizes[s] and c[1] not in void[s]:
                hands[s].append(c)
                place(i + 1, hands)
                hands[s].pop()
                if len(out) > limit:
                    return False
        return True

    place(0, {s: [] for s in seats})
    return None if len(out) > limit else out


def _and_or(game: OpenPlay, caller: int, own: frozenset[str], worlds: list[dict[int, frozenset[str]]],
            cur: tuple[Play, ...], to: int, trick: int, duty: bool, exhausted: bool) -> bool:
    """Exact: the caller, who sees only his cards and the plays, can force the sweep in every world."""
    memo: dict[Any, bool] = {}

    def go(own: frozenset[str], worlds: tuple[tuple[tuple[int, frozenset[str]], ...], ...], cur: tuple[Play, ...],
           to: int, trick: int, exhausted: bool) -> bool:
        key = (own, worlds, cur, to, trick, exhausted)
        if key in memo:
            return memo[key]
        if to == caller:
            result = False
            for m in game.moves(own, cur, to, trick, duty, exhausted):
                if step(own - {m}, worlds, cur, (to, m), trick, exhausted):
                    result = True
                    break
        else:
            by_move: dict[str, list[tuple[tuple[int, frozenset[str]], ...]]] = {}
            for w in worlds:
                hand = dict(w)[to]
                for m in game.moves(hand, cur, to, trick, duty, exhausted):
                    by_move.setdefault(m, []).append(tuple((s, h - {m}) if s == to else (s, h) for s, h in w))
            result = all(step(own, tuple(ws), cur, (to, m), trick, exhausted) for m, ws in sorted(by_move.items()))
        memo[key] = result
        return result

    def step(own: frozenset[str], worlds: tuple[tuple[tuple[int, frozenset[str]], ...], ...],
             cur: tuple[Play, ...], play: Play, trick: int, exhausted: bool) -> bool:
        ncur = (*cur, play)
        if len(ncur) < 4:
            return go(own, worlds, ncur, (play[0] + 1) % 4, trick, exhausted)
        win = game.winner(ncur)
        if game.team(win) != game.side:
            return False
        if not own and not any(h for w in worlds for _, h in w):
            return True
        return go(own, worlds, (), win, trick + 1, game.after_trick(ncur, exhausted))

    packed = tuple(sorted({tuple(sorted(w.items())) for w in worlds}))
    return go(own, packed, cur, to, trick, exhausted)


# ------------------------------------------------------------------------------------------- caps
def caps_proof(hand: Any, turn: dict[str, Any]) -> bool | None:
    """Whether the player of `turn` could prove his side's sweep at that turn (see the module's docstring)."""
    if "proof" in turn:
        return turn["proof"]  # type: ignore[no-any-return]
    turn["proof"] = result = _caps_proof(hand, turn)
    FIGURES["caps turns " + {True: "proved", False: "refuted", None: "undecided"}[result]] += 1
    return result


def _caps_proof(hand: Any, turn: dict[str, Any]) -> bool | None:
    snap, seat = turn["snapshot"], turn["seat"]
    side = hand.team_of(seat)
    if snap["closed"] or snap["folded"] is not None:
        return _refute_closed(hand, turn)
    game = OpenPlay(hand.trump, hand.bidder, side)
    held = [frozenset(h) for h in snap["held"]]
    cur = tuple((s, c) for s, c, _ in snap["cur"])
    trick, duty, exhausted = snap["trick_no"], snap["open_duty"], snap["exhausted"]
    others = [s for s in range(4) if s != seat]
    if not cur and snap["leader"] == seat and _sure_on_lead(held[seat], [c for s in others for c in held[s]],
                                                             hand.trump):
        FIGURES["proved by the sure-sweep test on lead"] += 1
        return True
    truth = _perfect_sweep(game, tuple(held), cur, seat, trick, duty, exhausted, seat, [SEARCH_BUDGET])
    if truth is False:
        FIGURES["refuted in the true world"] += 1
        return False
    knows_all_played = not snap["hidden"] or seat == hand.bidder
    void = _voids(snap, hand.n)
    # the folded card was shown when the trump opened: everyone knows the trumper holds it until he plays it
    known = {hand.shown_fold: hand.bidder} if (hand.shown_fold in held[hand.bidder] and seat != hand.bidder) else {}
    unseen = [c for s in others for c in held[s] if c not in known]
    sizes = {s: len(held[s]) - sum(1 for c in known if c in held[s]) for s in others}
    worlds = _worlds(unseen, sizes, void, WORLD_LIMIT) if knows_all_played else None
    if worlds is not None:
        for w in worlds:
            for c, s in known.items():
                w[s] = w[s] | {c}
        FIGURES["exact proofs over worlds"] += 1
        FIGURES["worlds enumerated"] += len(worlds)
        return _and_or(game, seat, held[seat], worlds, cur, seat, trick, duty, exhausted)
    rng = random.Random(len(snap["history"]) * 8 + seat)
    opponents = [s for s in others if game.team(s) != side]
    for k in range(SAMPLED_WORLDS):
        # first worlds in which an opponent holds an unseen card that beats one of the caller's, then any
        threat = _threats(held[seat], unseen, hand.trump, game.rank)
        place = (threat[k % len(threat)], rng.choice(opponents)) if threat and k < 2 * len(threat) else None
        world = _sample(unseen, sizes, void, rng, place)
        if world is None:
            continue
        for c, s in known.items():
            world[s] = world[s] | {c}
        hands = tuple(held[s] if s == seat else world[s] for s in range(4))
        if _perfect_sweep(game, hands, cur, seat, trick, duty, exhausted, seat, [SEARCH_BUDGET]) is False:
            FIGURES["refuted in a sampled world"] += 1
            return False
    return None


def _threats(own: frozenset[str], unseen: list[str], trump: str | None, rank: dict[str, int]) -> list[str]:
    """Unseen cards that outrank a card of the caller's in its suit, and unseen trumps."""
    out = [x for x in unseen if x[1] == trump or any(c[1] == x[1] and rank[x[0]] < rank[c[0]] for c in own)]
    return sorted(out)


def _voids(snap: dict[str, Any], n: int) -> dict[int, set[str]]:
    void: dict[int, set[str]] = {s: set() for s in range(n)}
    plays = [t["cards"] for t in snap["tricks"]]
    leaders = [t["leader"] for t in snap["tricks"]]
    for leader, cards in zip(leaders, plays, strict=True):
        led = cards[0][1]
        for k, c in enumerate(cards[1:], 1):
            if c[1] != led:
                void[(leader + k) % n].add(led)
    if snap["cur"]:
        led = snap["cur"][0][1][1]
        for s, c, _ in snap["cur"][1:]:
            if c[1] != led:
                void[s].add(led)
    return void


def _sample(unseen: list[str], sizes: dict[int, int], void: dict[int, set[str]], rng: random.Random,
            place: tuple[str, int] | None = None) -> dict[int, frozenset[str]] | None:
    """A random world consistent with the sizes and voids (with `place`'s card at its seat, if it can be)."""
    for _ in range(20):
        cards = list(unseen)
        rng.shuffle(cards)
        hands: dict[int, list[str]] = {s: [] for s in sizes}
        if place is not None and place[0] in cards and place[0][1] not in void[place[1]] and sizes[place[1]]:
            hands[place[1]].append(place[0])
            cards.remove(place[0])
        ok = True
        for c in sorted(cards, key=lambda c: sum(1 for s in sizes if c[1] in void[s]), reverse=True):
            choices = [s for s in sizes if len(hands[s]) < sizes[s] and c[1] not in void[s]]
            if not choices:
                ok = False
                break
            hands[rng.choice(choices)].append(c)
        if ok:
            return {s: frozenset(h) for s, h in hands.items()}
    return None


def _refute_closed(hand: Any, turn: dict[str, Any]) -> bool | None:
    """A closed trump: only the true world is searched, with the referee's own hand machinery."""
    start = type(hand)(hand.name, hand.dealer, hand.dealt)
    for text in turn["snapshot"]["history"]:
        start.apply(text)
    seat, side = turn["seat"], hand.team_of(turn["seat"])
    budget = [NODE_LIMIT // 4]

    def go(h: Any) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooBig
        if any(h.team_of(t["winner"]) != side for t in h.tricks):
            return False
        if h.status != "in_progress" or len(h.tricks) == 8:
            return True
        s = h.to
        moves = sorted(m for m in h.legal() if m.startswith("play"))
        for m in moves:
            nh = copy.deepcopy(h)
            nh.apply(f"{s} {m}")
            ok = go(nh)
            if s == seat and ok:
                return True
            if s != seat and not ok:
                return False
        return s != seat

    start.searching, start.turns, start.calls = True, [], []
    try:
        if go(start) is False:
            FIGURES["refuted in the true world (closed trump)"] += 1
            return False
    except _TooBig:
        pass
    return None


def _sure_on_lead(own: frozenset[str], unseen: list[str], trump: str | None, ranks: list[str] = R8) -> bool:
    """A sufficient test for a player on lead with the trump open: he holds at least as many trumps as are unseen,
    each of his trumps passes section 6.8's test against the unseen trumps, and each of his plain cards passes it
    against the unseen cards of its suit. Leading trumps from the top draws every unseen trump (everyone must
    follow), then each plain card led from the top of its suit is the best of its suit left, so neither an
    opponent nor his partner can take a trick from him."""
    order = {r: i for i, r in enumerate(ranks)}
    mine_t = [c for c in own if c[1] == trump]
    if len(mine_t) < sum(1 for c in unseen if c[1] == trump):
        return False
    for c in own:
        lacked = [x for x in unseen if x[1] == c[1]]
        above = sum(1 for x in own if x[1] == c[1] and order[x[0]] < order[c[0]])
        if not (all(order[x[0]] > order[c[0]] for x in lacked) or above >= len(lacked)):
            return False
    return True


# ----------------------------------------------------------------------------------------- sure sweep
def sure_sweep(cards: list[str], ranks: list[str] = R8) -> bool:
    """Section 6.8's test: every card either outranks all the cards of its suit its holder lacks, or has above
    it in its suit at least as many of his own cards as he lacks cards of that suit."""
    order = {r: i for i, r in enumerate(ranks)}
    for c in cards:
        suit = [x for x in cards if x[1] == c[1]]
        lacks = [r for r in ranks if r + c[1] not in suit]
        above = sum(1 for x in suit if order[x[0]] < order[c[0]])
        if not (all(order[r] > order[c[0]] for r in lacks) or above >= len(lacks)):
            return False
    return True


@cache
def _no_trump_sweep_exact(hand: frozenset[str], others: tuple[frozenset[str], ...], ranks: tuple[str, ...]) -> bool:
    """Perfect-information check used to test `sure_sweep` (the holder leads every trick at no-trumps)."""
    order = {r: i for i, r in enumerate(ranks)}
    if not hand:
        return True
    for lead in sorted(hand):
        ok = True
        for replies in _replies(lead, others):
            best = min([lead, *[r for r in replies if r[1] == lead[1]]], key=lambda c: order[c[0]])
            if best != lead:
                ok = False
                break
            rest = tuple(o - {r} for o, r in zip(others, replies, strict=True))
            if not _no_trump_sweep_exact(hand - {lead}, rest, ranks):
                ok = False
                break
        if ok:
            return True
    return False


def _replies(lead: str, others: tuple[frozenset[str], ...]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [()]
    for o in others:
        follow = [c for c in o if c[1] == lead[1]] or list(o)
        out = [(*p, c) for p in out for c in follow]
    return out
