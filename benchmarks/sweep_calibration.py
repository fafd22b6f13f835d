"""How well the heuristic's sure-sweep estimate (engine/bots/special.py) matches what happens when the seat plays for
every trick, on seeded hands played by the heuristic.

    python3 benchmarks/sweep_calibration.py [--hands 2000] [--seed 101] [--rulesets a,b] [--json]

Every seat plays `heuristic`. At each seat's first offer in a hand of a played special contract (`declare NAME`
of the file's special contracts, in whatever phase the file offers it) and at each answer to a surrender (the
`refuse` there plays on for every trick), the script keeps the estimate the heuristic's decision reads - the raw
sweep chance (`SpecialRules.contract_sweep`, `surrender_sweep`) and the calibrated one (`calibrated_sweep`) -
then plays the counterfactual: a copy of the hand in which the seat declares (refuses), played out by the
heuristic bots, the declarer as the heuristic plays a declared contract. It notes whether the contract was made
(every trick won). The real hand goes on with the heuristic's own choice.

For each file it prints, per contract, the raw and the calibrated estimate in bins 0.1 wide against the share made,
with counts; `--fit` prints the calibration tables (special.py's SWEEP_CAL: per kind of contract, the share made
at a raw 0 and in bins 0.2 wide, made monotone). The shipped tables are fitted on seeds 101 and 202 (`--seeds
101,202 --fit`) and checked on 303; never on the tournaments' seed 11.

A counterfactual whose declaration was overridden (an opponent's stands only until the bidding side calls too) is
counted apart and left out of the bins.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

import _installed  # noqa: F401

from engine.bots.heuristic import view_knowledge
from engine.bots.info import read_view
from engine.bots.model import model_for
from engine.bots.policy import Knowledge, policy_for
from engine.bots.registry import make_bot
from engine.bots.special import SWEEP_CAL_POINTS, sweep_kind
from engine.play.actions import Action
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.sim import bot_seed, hand_seeds

FILES = ("thani", "thani-late", "single-hand", "single-hand-show", "cot", "cot-four", "three-hundred-and-four",
         "three-hundred-and-four-maharashtra", "thunee")
BINS = 10
SAME_OFFERS = ("single-hand-show",)   # its offers are single-hand's (same deals, same estimate): counted once in a fit


@dataclass
class Offer:
    ruleset: str
    name: str         # the contract, or "refuse" for the answer to a surrender
    side: str         # "bidding", "other" or "none" (no contract yet)
    raw: float        # the sweep estimate as computed
    cal: float        # the calibrated chance the decision reads
    kind: int         # special.sweep_kind of the contract
    taken: bool       # the heuristic took it in the real hand
    made: bool = False
    overridden: bool = False


def knowledge(game: Game, state: State, seat: int) -> Knowledge:
    return view_knowledge(read_view(game, state.view(seat)))


def play_out(game: Game, state: State, seed: int, hand: int) -> None:
    bots = [make_bot("heuristic", game, bot_seed(seed, hand, s)) for s in range(game.n)]
    while state.to_act >= 0:
        bot = bots[state.controller]
        legal = state.legal_actions()
        state.apply(bot.choose(state.view(state.to_act) if bot.needs_view else None, legal))


def side_of(state: State, seat: int) -> str:
    b = state.bidder if state.bidder >= 0 else state.high_bidder
    if b < 0:
        return "none"
    return "bidding" if state.hand_team_of[seat] == state.hand_team_of[b] else "other"


def counterfactual(game: Game, state: State, a: Action, seed: int, hand: int) -> tuple[bool, bool]:
    """(made, overridden) when the seat takes `a` now and the heuristic plays the rest."""
    st = state.clone()
    seat = a.seat
    st.apply(a)
    play_out(game, st, seed, hand)
    if a.verb == "refuse":
        team = st.hand_team_of[seat]
        return all(st.hand_team_of[t.winner] == team for t in st.tricks if t.winner is not None), False
    if st.special is None or st.special.name != a.arg or st.declarer != seat:
        return False, True
    return bool(st.made), False


def collect(name: str, hands: int, seed: int) -> list[Offer]:
    game = load_game(name)
    sp = policy_for(model_for(game)).special
    nxt = hand_seeds(seed)
    out: list[Offer] = []
    for h in range(hands):
        state = game.new_hand(h % game.n, seed=nxt())
        bots = [make_bot("heuristic", game, bot_seed(seed, h, s)) for s in range(game.n)]
        seen: set[tuple[int, str]] = set()
        while state.to_act >= 0:
            seat = state.to_act
            legal = state.legal_actions()
            bot = bots[state.controller]
            chosen = bot.choose(state.view(seat) if bot.needs_view else None, legal)
            for a in legal:
                c = game.contracts.get(a.arg) if a.verb == "declare" else None
                refuse = a.verb == "refuse" and game.rules.all_tricks is not None
                if not refuse and (c is None or not c.played):
                    continue
                key = (seat, "refuse" if refuse else a.arg)
                if key in seen:
                    continue
                seen.add(key)
                k = knowledge(game, state, seat)
                raw = sp.surrender_sweep(k) if refuse else sp.contract_sweep(k, c)  # type: ignore[arg-type]
                o = Offer(name, key[1], side_of(state, seat), raw, sp.calibrated_sweep(raw, c), sweep_kind(c),
                          chosen == a)
                o.made, o.overridden = counterfactual(game, state, a, seed, h)
                out.append(o)
            state.apply(chosen)
    return out


def bin_of(raw: float) -> int:
    """0 for a raw estimate of 0, then 1..5 for (0, 0.2], (0.2, 0.4] ... (0.8, 1.0]."""
    if raw <= 0.0:
        return 0
    return min(int((raw - 1e-12) / 0.2), 4) + 1


def monotone(means: list[float], weights: list[float]) -> list[float]:
    """Pool adjacent violators: the nearest non-decreasing sequence, weighted."""
    blocks: list[list[float]] = []
    for m, w in zip(means, weights, strict=True):
        blocks.append([m * w, w, 1.0])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            x = blocks.pop()
            y = blocks.pop()
            blocks.append([x[0] + y[0], x[1] + y[1], x[2] + y[2]])
    out: list[float] = []
    for total, w, n in blocks:
        out += [total / w] * int(n)
    return out


def fit_tables(offers: list[Offer]) -> dict[int, list[float]]:
    """SWEEP_CAL's tables: per kind, the share made at a raw 0 and in each bin, each bin with a prior of two offers
    made at the middle of the bin (a raw of 0: none), made non-decreasing."""
    prior = [0.0, *SWEEP_CAL_POINTS]
    out: dict[int, list[float]] = {}
    for kind in sorted({o.kind for o in offers}):
        n = [0] * 6
        made = [0] * 6
        for o in offers:
            if o.kind == kind and o.ruleset not in SAME_OFFERS:
                i = bin_of(o.raw)
                n[i] += 1
                made[i] += o.made
        out[kind] = monotone([(made[i] + 2 * prior[i]) / (n[i] + 2) for i in range(6)], [n[i] + 2.0 for i in range(6)])
    return out


def binned(pairs: list[tuple[float, bool]]) -> list[tuple[str, int, float, float]]:
    """(bin, count, mean estimate, share made) for each non-empty bin 0.1 wide."""
    rows = []
    for b in range(BINS):
        lo, hi = b / BINS, (b + 1) / BINS
        sel = [(p, m) for p, m in pairs if lo <= p < hi or (b == BINS - 1 and p >= 1.0)]
        if sel:
            rows.append((f"[{lo:.1f},{hi:.1f})", len(sel), sum(p for p, _ in sel) / len(sel),
                         sum(1 for _, m in sel if m) / len(sel)))
    return rows


def brier(pairs: list[tuple[float, bool]]) -> float:
    return sum((p - (1.0 if m else 0.0)) ** 2 for p, m in pairs) / max(len(pairs), 1)


def report(offers: list[Offer], label: str) -> None:
    groups: dict[tuple[str, str], list[Offer]] = {}
    for o in offers:
        groups.setdefault((o.ruleset, o.name), []).append(o)
    for (rs, name), sel in sorted(groups.items()):
        kept = [o for o in sel if not o.overridden]
        made = sum(1 for o in kept if o.made)
        taken = [o for o in kept if o.taken]
        print(f"## {rs} {name} ({label}): {len(sel)} offers, {len(sel) - len(kept)} overridden, made if declared "
              f"{made}/{len(kept)}; taken {len(taken)}, made {sum(1 for o in taken if o.made)}")
        for which in ("raw", "cal"):
            pairs = [(o.raw if which == "raw" else o.cal, o.made) for o in kept]
            print(f"  {which} estimate (Brier {brier(pairs):.4f}):  bin  n  mean-estimate  made")
            for b, n, mean, share in binned(pairs):
                print(f"    {b}  {n:5d}  {mean:.3f}  {share:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--seeds", default="", help="several seeds, comma-separated (overrides --seed)")
    ap.add_argument("--rulesets", default=",".join(FILES))
    ap.add_argument("--fit", action="store_true", help="fit SWEEP_CAL's tables on these offers, print them")
    ap.add_argument("--json", action="store_true", help="one JSON line per offer")
    args = ap.parse_args()
    seeds = [int(x) for x in args.seeds.split(",") if x] or [args.seed]
    offers: list[Offer] = []
    for name in [x for x in args.rulesets.split(",") if x]:
        for seed in seeds:
            got = collect(name, args.hands, seed)
            if args.json:
                for o in got:
                    print(json.dumps({"seed": seed, **o.__dict__}), flush=True)
            offers += got
    if args.json:
        return
    report(offers, f"seeds {','.join(map(str, seeds))}, {args.hands} hands each")
    kept = [o for o in offers if not o.overridden]
    if args.fit and kept:
        for kind, table in fit_tables(kept).items():
            print(f"SWEEP_CAL[{kind}] =", ", ".join(f"{x:.3f}" for x in table))


if __name__ == "__main__":
    main()
