"""How well the heuristic's doubling chances (engine/bots/special.py) match what happens, and how much a doubling
decision could gain at all, on simulated hands of rule files with doubling steps.

    python3 benchmarks/doubling_calibration.py [--hands 4000] [--seed 101] [--rulesets a,b]

Every seat plays `heuristic:never` and the doubling steps are held back (a pass in a doubling window, a doubling step
left out of the auction's choices), so each hand is the plain one: the card play does not depend on the stake, so
every hand says what any doubling decision would have scored. At each decision where a step is legal the script
keeps what the seat knows, and after the hand whether the contract was made. For each file it prints:

- the other side's chance of the contract made (`SpecialRules.other_chances`, at the final bid, each seat's first
  turn) in bins against the share actually made, and the same for the bidder's own chance (`own_chances`);
- a probit fitted on the other side's decisions (features: bid above the lowest as a share of the pack, strength
  against the contract, extra trumps, a bid forced by the rules) - the fit the constants OTHER_KNOWN, OTHER_BLIND
  and OTHER_FORCED come from;
- had the contract been doubled, the bidder's answer by the shipped rule (`best_stake`: pass, the next step or a
  fixed stake) and what it gained over passing;
- the gain per hand, in game points, of the shipped doubles (the first opponent who doubles; no redouble) and of
  the best the fitted probit can do, judged by two-fold cross-validation (hands split by parity): the ceiling of what
  a double decided from the seat's cards and the bid can win on that file.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

import _installed  # noqa: F401

from engine.bots.model import model_for
from engine.bots.policy import Knowledge, policy_for, state_knowledge
from engine.bots.registry import make_bot
from engine.bots.special import ANSWER_EDGE, SpecialRules
from engine.play.actions import Action
from engine.play.base import AUCTION, DOUBLING, UNDECIDED
from engine.play.compile import load_game
from engine.play.game import NO_TRUMP, Game
from engine.sim import bot_seed, hand_seeds

FILES = ("double-redouble", "odisha", "gorakhpur", "kotah", "fifty-six-double", "fifty-six-4p", "fifty-six-8p")


@dataclass
class Point:
    hand: int
    seat: int
    features: list[float]   # 1, bid above the lowest (share), strength against the contract, extra trumps, forced
    other_made: float       # other_chances(...)[0]
    doubles: bool           # the shipped rule doubles here
    made: bool = False
    gain: float = 0.0       # what a double (no redouble) takes off the bidders here, in game points
    gain_made: float = 0.0  # ... had the contract been made
    gain_failed: float = 0.0   # ... had it failed (not below half the bid)
    margin: float = 0.0     # the double's expected gain as a share of what the bidders gain by it when made, less
    #                         the answer's part of the edge (the shipped rule doubles above DOUBLE_EDGE)
    answered: float = 0.0   # what the double takes off the bidders after the shipped answer (redouble, a stake)


def phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def pdf(x: float) -> float:
    return math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            return [0.0] * n
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def probit(xs: list[list[float]], ys: list[bool], rounds: int = 25) -> list[float]:
    """Maximum-likelihood probit by Fisher scoring."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(rounds):
        grad = [0.0] * k
        info = [[1e-9 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(xs, ys, strict=True):
            t = sum(wi * xi for wi, xi in zip(w, x, strict=True))
            p = min(max(phi(t), 1e-9), 1 - 1e-9)
            d = pdf(t)
            g = ((1.0 if y else 0.0) - p) * d / (p * (1 - p))
            h = d * d / (p * (1 - p))
            for i in range(k):
                grad[i] += g * x[i]
                for j in range(k):
                    info[i][j] += h * x[i] * x[j]
        step = solve(info, grad)
        w = [wi + si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def features(game: Game, k_trump: int, high_suit: int, held: int, bid: int, forced: bool) -> list[float]:
    m = model_for(game)
    sp = policy_for(m).special
    n = held.bit_count()
    b = (bid - game.rules.auction.bid_min) / m.total
    trump = k_trump if k_trump != UNDECIDED else high_suit
    if n and trump >= 0:
        mean, sd = m.spread(n)
        suit = game.suit_masks[trump]
        extra = (held & suit).bit_count() - n * suit.bit_count() / game.size
        return [1.0, b, (m.units(held, trump) - mean) / sd, extra, float(forced)]
    mean, sd = sp.side_spread(max(n, 1))
    return [1.0, b, (m.units(held, NO_TRUMP) - mean) / sd if n else 0.0, 0.0, float(forced)]


Answer = tuple[str, float, bool, float, bool]   # the bidder's answer to a double, its gain over passing in game
#                                               points, whether the shipped rule doubled that hand, the bidder's
#                                               own chance of the doubled contract, whether it was made


def collect(name: str, hands: int, seed: int) -> tuple[list[Point], list[tuple[float, bool]], int, list[Answer]]:
    game = load_game(name)
    sp = policy_for(model_for(game)).special
    names = set(game.doubling_names)
    nxt = hand_seeds(seed)
    points: list[Point] = []
    own: list[tuple[float, bool]] = []
    answers: list[Answer] = []
    scored = 0
    for h in range(hands):
        dealer = h % game.n
        cards = game.shuffled_deal(nxt(), dealer)
        bots = [make_bot("heuristic:never", game, bot_seed(seed, h, s)) for s in range(game.n)]
        state = game.new_hand(dealer, hands=cards)
        mine: list[tuple[Point, int, int]] = []
        bidder_chance: dict[tuple[int, int], float] = {}
        answer: dict[tuple[int, int], tuple[Knowledge, tuple[Action, ...], Action | None]] = {}
        seen: set[tuple[int, int, int]] = set()
        while state.to_act >= 0:
            seat = state.to_act
            legal = state.legal_actions()
            steps = [a for a in legal if a.verb in names]
            if steps:
                k = state_knowledge(state, seat)
                hb = state.high_bidder if state.phase == AUCTION else state.bidder
                bid = state.high if state.phase == AUCTION else state.bid
                if state.hand_team_of[seat] != state.hand_team_of[hb] and (seat, hb, bid) not in seen:
                    seen.add((seat, hb, bid))
                    doubles = any(sp.worth_doubling(k, a, bid) for a in steps)
                    p = Point(h, seat, features(game, k.trump, k.facts.high_suit, k.held, bid, k.facts.forced),
                              sp.other_chances(k, bid)[0], doubles, margin=double_margin(sp, k, steps[0], bid))
                    mine.append((p, hb, bid))
                    if (hb, bid) not in bidder_chance:   # the bidder's own view of the same contract
                        kb = state_knowledge(state, hb)
                        bidder_chance[(hb, bid)] = sp.own_chances(kb, bid, False)[0]
                        answer[(hb, bid)] = doubled_answer(game, kb, hb, bid)
            if state.phase == DOUBLING:
                a = next(x for x in legal if x.verb == "pass")
            else:
                bot = bots[state.controller]
                plain = tuple(x for x in legal if x.verb not in names) or legal
                a = bot.choose(state.view(seat) if bot.needs_view else None, plain)
            state.apply(a)
        if state.status != "complete" or state.bidder < 0:
            continue
        scored += 1
        gp = state.game_points[state.hand_team_of[state.bidder]]
        for p, hb, bid in mine:
            if hb == state.bidder and bid == state.bid:   # a step of an earlier bid is cancelled by the next
                p.made = bool(state.made)
                p.gain = gain_of_double(game, gp, bool(state.made))
                band = game.band_for(state.bid, state.contract_round or 1)
                if band is not None:
                    p.gain_made = gain_of_double(game, band.made, True)
                    p.gain_failed = gain_of_double(game, band.failed, False)
                points.append(p)
        c = bidder_chance.get((state.bidder, state.bid))
        if c is not None:
            own.append((c, bool(state.made)))
        ans = answer.get((state.bidder, state.bid))
        if ans is not None:
            kb, options, chosen = ans
            pts = state.team_points[state.hand_team_of[state.bidder]]
            won = bool(state.made)
            base = realised(sp, kb, state.bid, None, won, pts)
            after = realised(sp, kb, state.bid, chosen, won, pts)
            doubled = False
            for p, hb, bid in mine:
                if hb == state.bidder and bid == state.bid:
                    p.answered = gp - after
                    doubled = doubled or p.doubles
            answers.append((chosen.verb if chosen is not None else "pass", after - base, doubled,
                            sp.own_chances(kb, state.bid, True)[0], won))
    return points, own, scored, answers


def doubled_answer(game: Game, kb: Knowledge, seat: int, bid: int) -> tuple[Knowledge, tuple[Action, ...],
                                                                               Action | None]:
    """The bidder's knowledge had the other side said the first step, the answers it would then have, and the one
    the shipped rule picks (None: pass)."""
    d = game.rules.doubling
    assert d is not None
    first = d.steps[0]
    kb.facts.multiplier *= first.multiplier
    kb.facts.added += first.adds
    options: list[Action] = [game.action(seat, "pass")]
    if len(d.steps) > 1 and (not d.cap or kb.facts.multiplier * d.steps[1].multiplier <= d.cap):
        options.append(game.action(seat, d.steps[1].name))
    if d.fixed_stake is not None:
        options.append(game.action(seat, d.fixed_stake.name))
    sp = policy_for(model_for(game)).special
    known = kb.trump >= 0 or kb.facts.high_suit != UNDECIDED
    return kb, tuple(options), sp.best_stake(kb, tuple(options), bid) if known else None


def realised(sp: SpecialRules, kb: Knowledge, bid: int, a: Action | None, made: bool, pts: int) -> float:
    """What the doubled contract paid its bidders after answer `a` (None: pass), as it went."""
    mult, added, fixed = kb.facts.multiplier, kb.facts.added, 0
    step = sp.step_of(a) if a is not None else None
    if step is not None:
        mult, added, fixed = mult * step[0], added + step[1], step[2]
    won, lost, short = sp.stake_values(kb, bid, mult, added, fixed)
    return won if made else short if 2 * pts < bid else lost


def double_margin(sp: SpecialRules, k: Knowledge, a: Action, bid: int) -> float:
    """worth_doubling's test as a number: the double's expected gain over what it adds when made, less the answer's
    part of the edge (the rule doubles above DOUBLE_EDGE)."""
    step = sp.step_of(a)
    if step is None:
        return -1.0
    ch = sp.other_chances(k, bid)
    now, made_now = sp.stake_ev(k, ch, bid, k.facts.multiplier, k.facts.added, 0)
    mult, added = k.facts.multiplier * step[0], k.facts.added + step[1]
    then, made_then = sp.stake_ev(k, ch, bid, mult, added, 0)
    gained = max(made_then - made_now, 1e-9)
    answer = max(sp.answer_made(k, a, bid, mult, added) - made_then, 0.0)
    return ((now - then) / gained - ANSWER_EDGE * answer / gained)


def gain_of_double(game: Game, value: int, made: bool) -> float:
    """What the file's first doubling step takes off the bidders' score `value` of a hand (no redouble)."""
    d = game.rules.doubling
    assert d is not None
    st = d.steps[0]
    if value == 0:
        return 0.0
    doubled = value * st.multiplier + (st.adds if made else -st.adds)
    return float(value - doubled)


def bins(pairs: list[tuple[float, bool]]) -> str:
    out = []
    for lo, hi in ((0.0, 0.4), (0.4, 0.5), (0.5, 0.6), (0.6, 0.7), (0.7, 0.8), (0.8, 1.01)):
        sel = [m for p, m in pairs if lo <= p < hi]
        if sel:
            out.append(f"[{lo:.1f},{min(hi, 1):.1f}) {len(sel)}: {sum(sel) / len(sel):.2f}")
    return "; ".join(out)


def first_doubles(points: list[Point], chosen: list[bool]) -> tuple[int, float]:
    """Hands doubled and the total gain when the first opponent whose choice is True doubles."""
    done: set[int] = set()
    total = 0.0
    for p, c in zip(points, chosen, strict=True):
        if c and p.hand not in done:
            done.add(p.hand)
            total += p.gain
    return len(done), total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--rulesets", default=",".join(FILES))
    args = ap.parse_args()
    for name in [x for x in args.rulesets.split(",") if x]:
        points, own, scored, answers = collect(name, args.hands, args.seed)
        print(f"## {name}: {scored} scored hands, {len(points)} decisions of the other side at the final bid")
        print(f"  other side's chance made, predicted bin n: actual  {bins([(p.other_made, p.made) for p in points])}")
        print(f"  bidder's own chance made, predicted bin n: actual  {bins(own)}")
        for label, sel in (("had the contract been doubled", answers),
                           ("on the hands the shipped rule doubles", [x for x in answers if x[2]])):
            taken = [x[1] for x in sel if x[0] != "pass"]
            verbs = sorted({x[0] for x in sel if x[0] != "pass"})
            mean_p = sum(x[3] for x in sel) / max(len(sel), 1)
            made = sum(1 for x in sel if x[4]) / max(len(sel), 1)
            print(f"  {label} ({len(sel)} hands): the bidder answers "
                  + ", ".join(f"{v} {sum(1 for x in sel if x[0] == v)}" for v in verbs or ["nothing"])
                  + f"; gain over passing {sum(taken) / max(len(sel), 1):+.4f} per doubled hand"
                  + (f", {sum(taken) / len(taken):+.3f} per answer" if taken else "")
                  + f"; its chance {mean_p:.2f}, made {made:.2f}")
        xs = [p.features for p in points]
        ys = [p.made for p in points]
        w = probit(xs, ys)
        print("  probit of made on (1, bid share above lowest, strength against, extra trumps, forced bid):",
              ", ".join(f"{x:+.3f}" for x in w))
        n, g = first_doubles(points, [p.doubles for p in points])
        print(f"  shipped rule: {n} hands doubled, gain {g / max(scored, 1):+.4f} game points per hand (no redouble)")
        for edge in (0.0, 0.05, 0.1, 0.15, 0.2, 0.3):
            chosen = [p.margin > edge for p in points]
            n, g = first_doubles(points, chosen)
            done: set[int] = set()
            ga = 0.0
            for p, c in zip(points, chosen, strict=True):
                if c and p.hand not in done:
                    done.add(p.hand)
                    ga += p.answered
            print(f"    edge {edge:.2f}: {n} hands doubled, gain {g / max(scored, 1):+.4f} per hand with no answer, "
                  f"{ga / max(scored, 1):+.4f} after the shipped answer")
        cv: list[bool] = [False] * len(points)
        for parity in (0, 1):
            train = [i for i, p in enumerate(points) if p.hand % 2 != parity]
            wt = probit([xs[i] for i in train], [ys[i] for i in train]) if train else w
            for i, p in enumerate(points):
                if p.hand % 2 == parity:
                    q = phi(sum(a * b for a, b in zip(wt, p.features, strict=True)))
                    cv[i] = q * p.gain_made + (1 - q) * p.gain_failed > 0
        n, g = first_doubles(points, cv)
        print(f"  fitted probit (cross-validated): {n} hands doubled, gain {g / max(scored, 1):+.4f} per hand")
        n, g = first_doubles(points, [not p.made for p in points])
        print(f"  knowing the cards (every failing contract doubled): gain {g / max(scored, 1):+.4f} per hand")


if __name__ == "__main__":
    main()
