"""Play seeded random hands of a Jass file through the engine's public API and judge every turn with the referee:
the legal cards, each trick's winner and points, the announced melds and which side scores them, the trump
marriage, and the banked score of the deal (the replay report's `game_points`).

    python3 -m tests.oracle_jass.cross belote 40        # hands 0..39 of rulesets/belote.yaml
"""
from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import load_game
from engine.play.match import Match
from engine.record import record_of, replay, report

from . import choice as C
from . import melds as M
from .cards import Mode, Trick, no_trump_mode, suit_mode
from .games import SPECS, Spec
from .play import legal, winner_index
from .score import Deal

ROOT = Path(__file__).resolve().parents[2]


def rule_file(name: str) -> Path:
    """The shipped file of `name` (FileNotFoundError until it ships)."""
    p = ROOT / "rulesets" / f"{name}.yaml"
    if not p.exists():
        raise FileNotFoundError(p)
    return p


@dataclass
class Tally:
    hands: int = 0
    scored: int = 0
    turns: int = 0          # turns to play a card, judged
    calls: int = 0          # turns to speak before the first card, judged
    tricks: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)   # what the hands covered: modes, capots, doublings...


def _mode(spec: Spec, view: Any) -> Mode:
    if view.trump_mode:
        return no_trump_mode(view.trump_mode)
    code = view.trump_code()
    assert code and len(code) == 1, f"unexpected trump {code!r} / mode {view.trump_mode!r}"
    return suit_mode(code, spec.swiss)


def _choose(rng: random.Random, acts: list[Any]) -> Any:
    verbs = {a.verb for a in acts}
    if "announce" in verbs and rng.random() < 0.8:
        return next(a for a in acts if a.verb == "announce")
    if "pass" in verbs and len(verbs) > 1 and rng.random() < 0.5:
        return next(a for a in acts if a.verb == "pass")
    return rng.choice(acts)


def play_hand(name: str, game: Any, seed: int, tally: Tally, state: Any = None, where: str = "") -> Any:
    """Play one hand at random (a new hand of `seed`, or `state` given), judging every turn; the finished state."""
    spec = SPECS[name]
    n = spec.players
    rng = random.Random(seed * 7919 + 1)
    if state is None:
        state = game.new_hand(dealer=seed % n, seed=seed)
    where = where or f"{name} seed {seed}"
    mode: Mode | None = None
    hands: list[list[str]] = []
    start: list[list[str]] = []
    trick = Trick(-1)
    done: list[Trick] = []
    index = 0
    bad = tally.problems
    calls: list[tuple[int, str]] = []

    while not state.is_terminal:
        seat = state.current_seat
        acts = list(state.legal_actions())
        plays = [a for a in acts if a.verb == "play"]
        if plays:
            view = state.view(seat)
            if mode is None:
                mode = _mode(spec, view)
                hands = [[view.code(c) for c in state.view(s).hand_cards()] for s in range(n)]
                start = [list(h) for h in hands]
            if not trick.cards:
                trick = Trick(seat)
                if done and seat != done[-1].seats[winner_index(mode, done[-1].cards)]:
                    bad.append(f"{where} action {index}: trick {len(done)} led by {seat}, expected the winner")
            want = set(legal(spec.duty, mode, hands[seat], trick, seat, n))
            got = {a.arg for a in plays}
            tally.turns += 1
            if want != got:
                bad.append(f"{where} action {index} seat {seat} hand {' '.join(hands[seat])} trick "
                           f"{' '.join(trick.cards) or '-'} trump {mode.name}: legal expected "
                           f"{sorted(want)} got {sorted(got)}")
        elif spec.choice and mode is None:
            _check_call(spec, state, seat, acts, calls, where, index, tally)
        action = _choose(rng, acts)
        if action.verb not in ("play", "announce", "exchange") and mode is None:
            calls.append((seat, _call(action)))
        state.apply(action)
        index += 1
        if action.verb == "play":
            assert mode is not None
            hands[seat].remove(action.arg)
            trick.seats.append(seat)
            trick.cards.append(action.arg)
            if len(trick.cards) == n:
                done.append(trick)
                tally.tricks += 1
                _check_trick(spec, mode, state, done, where, index, bad)
                trick = Trick(-1)
    tally.hands += 1
    if mode is None or state.status != "complete" or len(done) * n != sum(len(h) for h in start):
        tally.skipped[f"status {state.status}"] += 1
        return state
    _check_score(name, spec, mode, state, start, done, where, tally)
    tally.scored += 1
    return state


# how each base game's match ends (the Jass group's rules): a target at the end of a deal, a number of deals, or a
# target reached mid-deal (Schieber)
MATCH_END = {"belote": ("target", 501), "coinche": ("target", 1000), "klaberjass": ("target", 500),
             "klaverjas": ("deals", 16), "klaverjas-rotterdam": ("deals", 16), "schieber": ("mid_deal", 1000),
             "schieber-2500": ("mid_deal", 2500)}


def play_match(name: str, seed: int, tally: Tally) -> None:
    """A whole match at random: each deal judged as above; the match scores add up the deals' banked points;
    the match ends as the game's rules say; Schieber's first forehand holds the heart Seven."""
    game = load_game(rule_file(name))
    m = Match(game, seed)
    how, goal = MATCH_END[name]
    scores = [0, 0]
    deals = hands = 0
    bad = tally.problems
    while not m.is_over and hands < 400:
        hands += 1
        state = m.new_hand()
        where = f"{name} match {seed} deal {deals}"
        if deals == 0 and how == "mid_deal":
            first = state.current_seat
            hand = [state.view(first).code(c) for c in state.view(first).hand_cards()]
            if "7H" not in hand:
                bad.append(f"{where}: the first forehand (seat {first}) does not hold the heart Seven")
        state = play_hand(name, game, seed * 1000 + hands, tally, state, where)
        m.record_hand(state)
        if state.status == "complete":
            deals += 1
            pts = list(state.game_points)
            for i, side in enumerate(state.hand_teams):
                scores[0 if 0 in side else 1] += pts[i]
        if list(m.scores) != scores:
            bad.append(f"{where}: match scores expected {scores} got {list(m.scores)}")
            return
        over = (deals >= goal) if how == "deals" else (max(scores) >= goal)
        if m.is_over != over:
            bad.append(f"{where}: match over {m.is_over}, expected {over} (scores {scores}, deals {deals})")
            return
    tally.seen["matches"] += 1
    if how == "mid_deal" and sum(1 for v in scores if v >= goal) != 1:
        bad.append(f"{name} match {seed}: ended mid-deal with scores {scores}: exactly one side reaches {goal}")


def _call(action: Any) -> str:
    return f"{action.verb} {action.arg}".strip()


def _check_call(spec: Spec, state: Any, seat: int, acts: list[Any], calls: list[tuple[int, str]], where: str,
                index: int, tally: Tally) -> None:
    got = {_call(a) for a in acts}
    view = state.view(seat)
    if "exchange" in got:     # the dix: only the holder of the trump Seven, for the upcard
        trump = view.trump_code()
        hand = {view.code(c) for c in view.hand_cards()}
        if got != {"exchange", "pass"} or f"7{trump}" not in hand:
            tally.problems.append(f"{where} action {index} seat {seat}: exchange offered with {sorted(got)}, "
                                  f"hand {sorted(hand)}, trump {trump}")
        tally.seen["exchange offered"] += 1
        return
    if spec.choice in ("take", "take_schmeiss"):
        turned = view.turned_up
        want = C.take_or_pass(calls, seat, state.view(seat).dealer, spec.players,
                              view.code(turned)[1] if turned is not None else "?", spec.choice == "take_schmeiss")
    elif spec.choice == "coinche":
        want = C.coinche(calls, seat)
    else:
        modes = ("obenabe", "undenufe") if spec.choice == "name_push" else ()
        want = C.name_trump(any(c == "push" for _, c in calls), modes, spec.choice == "name_push")
    tally.calls += 1
    if want != got:
        tally.problems.append(f"{where} action {index} seat {seat} after {calls}: calls expected "
                              f"{sorted(want - got)[:6]} more, {sorted(got - want)[:6]} fewer")


def _check_trick(spec: Spec, mode: Mode, state: Any, done: list[Trick], where: str, index: int,
                 bad: list[str]) -> None:
    t = done[-1]
    view = state.view(0)
    seen = view.tricks[len(done) - 1]
    win = t.seats[winner_index(mode, t.cards)]
    pts = sum(mode.points(c) for c in t.cards)
    if len(done) * spec.players == 8 * 4 // (4 if spec.players == 4 else 4) and False:
        pass
    if seen.winner != win:
        bad.append(f"{where} action {index - 1}: trick {' '.join(t.cards)} ({mode.name}) winner expected {win} "
                   f"got {seen.winner}")
    if seen.points is not None and seen.points not in (pts, pts + spec.last_trick):
        bad.append(f"{where} action {index - 1}: trick {' '.join(t.cards)} ({mode.name}) points expected {pts} "
                   f"got {seen.points}")


def _check_score(name: str, spec: Spec, mode: Mode, state: Any, start: list[list[str]], done: list[Trick],
                 where: str, tally: Tally) -> None:
    bad = tally.problems
    seen = tally.seen
    n = spec.players
    team = [s % 2 for s in range(n)]
    cards, tricks, melds = [0, 0], [0, 0], [0, 0]
    for i, t in enumerate(done):
        w = team[t.seats[winner_index(mode, t.cards)]]
        cards[w] += sum(mode.points(c) for c in t.cards) + (spec.last_trick if i == len(done) - 1 else 0)
        tricks[w] += 1
        if spec.roem:
            melds[w] += M.roem(mode, t.cards, stuk=spec.roem_stuk)
    rep = report(replay(record_of(state), state.game))
    order = [0 if 0 in t else 1 for t in rep["teams"]]      # report team index -> referee team
    history = list(state.history)
    announcers = [a.seat for a in history if a.verb == "announce"]
    scoring_team: int | None = None
    if spec.melds is not None:
        announced: list[M.Meld] = []
        for s in announcers:
            announced += M.best_arrangement(spec.melds, mode, s, start[s])
        forehand = done[0].leader
        scoring_team = M.compare(spec.melds, announced, team, forehand, n)
        end = state.view(0)
        got_ann = Counter((m.seat, m.kind, m.length, m.value) for m in end.announced)
        want_ann = Counter((m.seat, m.kind, len(m.cards), m.value) for m in announced)
        if got_ann != want_ann:
            bad.append(f"{where}: announced melds expected {sorted(want_ann.elements())} "
                       f"got {sorted(got_ann.elements())} (hands {start})")
        if scoring_team is not None:
            melds[scoring_team] = sum(m.value for m in announced if team[m.seat] == scoring_team)
        got_scoring = {team[m.seat] for m in end.announced if m.scores}
        want_scoring = {scoring_team} if scoring_team is not None else set()
        if got_scoring != want_scoring and want_ann == got_ann:
            bad.append(f"{where}: melds scoring side expected {want_scoring} got {got_scoring} "
                       f"(announced {sorted(want_ann.elements())}, forehand {forehand}, trump {mode.name})")
    marriage = [0, 0]
    if spec.marriage:
        holder = M.marriage_holder(mode, start)
        if holder is not None:
            marriage[team[holder]] = 20
    taker: int | None = None
    bid, mult, doubled = 0, 1, False
    if spec.scorer is not SPECS["schieber"].scorer:
        c = rep.get("contract") or {}
        taker = order[c["team"]] if "team" in c else None
        if taker is None:
            bad.append(f"{where}: no contract in the report")
            return
        bid = c.get("bid") or 0
        verbs = {a.verb for a in history}
        doubled = "coinche" in verbs
        mult = 4 if "surcoinche" in verbs else (2 if doubled else 1)
    elif spec.multipliers:
        mult = spec.multipliers[mode.name]
    deal = Deal(cards, tricks, melds, marriage, taker, bid, mult, doubled)
    want = spec.scorer(deal)
    seen[f"trump {mode.name}"] += 1
    seen.update(k for k, on in (("capot", max(tricks) == len(done)), ("doubled", doubled), ("x4", mult == 4),
                                ("melds scored", scoring_team is not None), ("marriage", any(marriage)),
                                ("takers failed", taker is not None and want[taker] <= marriage[taker]
                                 and want[1 - taker] > 0)) if on)
    got_pts = [0, 0]
    for i, v in enumerate(rep["game_points"]):
        got_pts[order[i]] = v
    if want != got_pts:
        bad.append(f"{where}: game points (team of seat 0 first) expected {want} got {got_pts} "
                   f"[cards {cards} tricks {tricks} melds {melds} marriage {marriage} taker {taker} bid {bid} "
                   f"x{mult} trump {mode.name}; actions {' / '.join(str(a) for a in history)}]")


def cross(name: str, hands: int, first: int = 0) -> Tally:
    game = load_game(rule_file(name))
    tally = Tally()
    for seed in range(first, first + hands):
        play_hand(name, game, seed, tally)
    return tally


if __name__ == "__main__":
    names = [sys.argv[1]] if len(sys.argv) > 1 and sys.argv[1] != "all" else list(SPECS)
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    for nm in names:
        tl = cross(nm, count)
        print(f"{nm}: {tl.hands} hands, {tl.scored} scored, {tl.turns} card turns, {tl.calls} calls, "
              f"{tl.tricks} tricks, "
              f"skipped {dict(tl.skipped)}, {len(tl.problems)} problems; seen {dict(sorted(tl.seen.items()))}")
        kinds = Counter(p.split(": ", 1)[1].split(" expected")[0][:60] if ": " in p else p for p in tl.problems)
        for p in tl.problems[:5]:
            print("  ", p)
        if len(tl.problems) > 5:
            print("   ...", dict(kinds.most_common(4)))
