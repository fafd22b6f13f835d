"""Build a golden hand record by search: find a complete hand of a rule file that ends as asked.

    python -m tests.golden_search twenty-eight --taker-team 0 --card-points 14,14 --out tests/hands/family/x

Given a rule file and a target (card points per side, the contract's side, bid, trump, whether it was made, melds,
a sweep, any field of the replay report or of the final state), it deals seeded hands and walks their actions
through the public API (load_game, State.legal_actions / apply / clone, engine.record.replay / report): the
steps before the tricks by a weighted random choice that favours the asked contract, the tricks by a depth-first
search whose card-point and sweep bounds cut the branches that cannot end as asked. The first hand that matches
is written as a hand record (docs/hand-record.md: ruleset, dealer, hands in the order received, actions) with a
comment header, beside its expected `replay --json` report, and the record is replayed from the written file to
check that it gives that report.

Exit status: 0 a hand was found and written, 1 none within the seeds and budgets, 2 bad arguments or an
unreadable rule file. Nothing here is a test (pytest collects test_*.py only); the records it writes are.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

if __package__ in (None, ""):   # run as a script: python3 tests/golden_search.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.errors import JacknineError  # noqa: E402
from engine.play.actions import Action  # noqa: E402
from engine.play.base import PLAY  # noqa: E402
from engine.play.compile import load_game  # noqa: E402
from engine.play.game import Game  # noqa: E402
from engine.play.state import State  # noqa: E402
from engine.record import HandRecord, deal_for, read_record, record_of, replay, report  # noqa: E402


class Budget(Exception):
    """The node budget of one search ran out."""


def _pair(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: whole numbers separated by commas, e.g. 14,14") from None


def _keyed(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r}: KEY=JSON, e.g. contract.made=false")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value   # a bare word: compared as text


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m tests.golden_search",
        description="Search seeded deals and legal plays for a complete hand that ends as asked, and write it as "
        "a golden hand record (NAME.yaml) with its expected replay report (NAME.json).")
    p.add_argument("ruleset", help="a shipped rule file's name or a path to one")
    p.add_argument("--dealer", type=int, default=0, help="the dealer's seat (default 0)")
    p.add_argument("--seeds", default="0:200", help="deal seeds to try, FIRST:END (default 0:200)")
    p.add_argument("--tries", type=int, default=60,
                   help="walks of the steps before the tricks per deal, each with a fresh search of the tricks (60)")
    p.add_argument("--budget", type=int, default=1500,
                   help="search nodes per walk for the tricks (1500): many short searches find more than a few "
                   "long ones")
    p.add_argument("--rng", type=int, default=1, help="seed of the search's own choices (1)")
    p.add_argument("--actions", action="append", default=[], metavar="ACTION",
                   help="an action to take first, in order (repeatable), e.g. '1 bid 20'")
    p.add_argument("--prefer", action="append", default=[], metavar="TEXT",
                   help="favour actions whose notation starts with TEXT, with or without the seat, e.g. 'announce' "
                   "or '1 announce'")
    p.add_argument("--avoid", action="append", default=[], metavar="TEXT",
                   help="never take actions whose notation starts with TEXT, with or without the seat")
    p.add_argument("--deal", metavar="RECORD",
                   help="a hand record whose deal (hands, and the stock where the game leaves one) is used instead "
                   "of seeded deals; its dealer too")
    t = p.add_argument_group("target (every one given must hold)")
    t.add_argument("--card-points", type=_pair, help="card points per hand team, in the report's team order")
    t.add_argument("--game-points", type=_pair, help="the report's game_points")
    t.add_argument("--taker-team", type=int, help="the contract's team (report contract.team)")
    t.add_argument("--taker", type=int, help="the contract's seat (report contract.bidder)")
    t.add_argument("--bid", type=int, help="the contract's bid")
    t.add_argument("--trump", help="the trump suit (S H D C), or 'none'")
    t.add_argument("--made", choices=["yes", "no"], help="whether the contract was made")
    t.add_argument("--sweep", type=int, metavar="TEAM", help="this hand team wins every trick")
    t.add_argument("--status", default="complete", help="the report's status (default complete)")
    t.add_argument("--melds", type=_pair, help="the final state's meld_points per hand team")
    t.add_argument("--marriage", type=_pair, help="the final state's marriage_points per hand team")
    t.add_argument("--report", action="append", type=_keyed, default=[], metavar="KEY=JSON",
                   help="a field of the report by dotted path, e.g. contract.made=false, tricks.0.winner=2")
    t.add_argument("--state", action="append", type=_keyed, default=[], metavar="FIELD=JSON",
                   help="a field of the final State, e.g. meld_points=[0,20]")
    t.add_argument("--early", action="append", type=_keyed, default=[], metavar="FIELD=JSON",
                   help="a field of the State that must hold from the end of trick 1 on, e.g. meld_points=[50,0] "
                   "where melds are compared after trick 1 (cuts the search early)")
    t.add_argument("--holds", action="append", default=[], metavar="TEAM:CARDS",
                   help="one player of this hand team holds all these cards when play starts, e.g. 0:KH,QH")
    t.add_argument("--trick", action="append", default=[], metavar="CARDS@TEAM",
                   help="some trick won by this hand team holds all these cards, e.g. QC,JC,TC@1")
    t.add_argument("--no-prune", action="store_true",
                   help="do not cut branches by card points (for rules where a trick's points can fall)")
    o = p.add_argument_group("output")
    o.add_argument("--out", help="write OUT.yaml and OUT.json (default: print the record and the report)")
    o.add_argument("--header", action="append", default=[], metavar="LINE",
                   help="a line of the record's comment header (repeatable; the first says what it pins)")
    args = p.parse_args(argv)
    first, sep, end = args.seeds.partition(":")
    try:
        args.seed_range = range(int(first), int(end) if sep else int(first) + 1)
    except ValueError:
        p.error(f"--seeds {args.seeds!r}: FIRST:END, e.g. 0:200")
    return args


# ------------------------------------------------------------------------------------------------ target
def _at(obj: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(obj, list):
            obj = obj[int(part)]
        elif isinstance(obj, dict):
            obj = obj[part]
        else:
            raise KeyError(path)
    return obj


class Target:
    """What the finished hand must show, and the bounds the search can test on the way."""

    def __init__(self, args: argparse.Namespace, game: Game) -> None:
        self.args = args
        self.game = game
        self.report_keys: list[tuple[str, Any]] = list(args.report)
        if args.card_points is not None:
            self.report_keys.append(("card_points", args.card_points))
        if args.game_points is not None:
            self.report_keys.append(("game_points", args.game_points))
        if args.taker_team is not None:
            self.report_keys.append(("contract.team", args.taker_team))
        if args.taker is not None:
            self.report_keys.append(("contract.bidder", args.taker))
        if args.bid is not None:
            self.report_keys.append(("contract.bid", args.bid))
        if args.made is not None:
            self.report_keys.append(("contract.made", args.made == "yes"))
        if args.trump is not None:
            self.report_keys.append(("trump.suit", None if args.trump.lower() == "none" else args.trump))
        self.report_keys.append(("status", args.status))
        self.state_keys: list[tuple[str, Any]] = list(args.state)
        if args.melds is not None:
            self.state_keys.append(("meld_points", args.melds))
        if args.marriage is not None:
            self.state_keys.append(("marriage_points", args.marriage))
        self.bonus = max(0, game.points_per_hand - sum(game.points))
        self.holds: list[tuple[int, int]] = []
        for text in args.holds:
            team, _, cards = text.partition(":")
            mask = 0
            for c in game.layout.parse_cards(cards.replace(",", " ").split()):
                mask |= 1 << c
            self.holds.append((int(team), mask))
        self.tricks: list[tuple[int, int]] = []
        for text in args.trick:
            cards, _, team = text.partition("@")
            mask = 0
            for c in game.layout.parse_cards(cards.replace(",", " ").split()):
                mask |= 1 << c
            self.tricks.append((mask, int(team)))
        self.rising = [(k, v) for k, v in self.state_keys if k in ("meld_points", "marriage_points")]

    # --- before the tricks: is the contract the asked one?
    def contract_fits(self, s: State) -> bool:
        a = self.args
        team = s.hand_team_of[s.bidder] if s.bidder >= 0 else None
        if a.taker_team is not None and team != a.taker_team:
            return False
        if a.taker is not None and s.bidder != a.taker:
            return False
        if a.bid is not None and s.bid != a.bid:
            return False
        for team, mask in self.holds:
            if not any(s.hand_team_of[p] == team and s.hands[p] & mask == mask for p in range(len(s.hands))):
                return False
        return True

    # --- during the tricks: can this branch still end as asked?
    def alive(self, s: State, tricks_before: int) -> bool:
        a = self.args
        if len(s.tricks) > tricks_before and a.sweep is not None and s.tricks:
            if s.hand_team_of[s.tricks[-1].winner] != a.sweep:
                return False
        for key, want in self.rising:     # melds and marriages only ever grow in a hand
            have = getattr(s, key, None)
            if have is not None and any(h > w for h, w in zip(have, want, strict=False)):
                return False
        if len(s.tricks) >= 1 and not s.is_terminal:
            for key, want in a.early:
                if getattr(s, key, None) != want:
                    return False
        if a.card_points is None or a.no_prune or s.is_terminal:
            return True
        pts = getattr(s, "points_of", None) or self.game.points
        left = sum(pts[c] for h in s.hands for c in _bits(h)) + self.bonus
        for have, want in zip(s.team_points, a.card_points, strict=False):
            if want > self.game.points_per_hand:
                continue    # a sweep's fixed figure: not reached trick by trick
            if have > want or have + left < want:
                return False
        return True

    # --- at the end
    def matches(self, s: State, rep: dict[str, Any]) -> bool:
        for key, want in self.report_keys:
            try:
                if _at(rep, key) != want:
                    return False
            except (KeyError, IndexError, ValueError, TypeError):
                return False
        for key, want in [*self.state_keys, *self.args.early]:
            if getattr(s, key, None) != want:
                return False
        for mask, team in self.tricks:
            if not any(s.hand_team_of[t.winner] == team and sum(1 << c for c in t.cards) & mask == mask
                       for t in s.tricks):
                return False
        if self.args.sweep is not None:
            if not s.tricks or any(s.hand_team_of[t.winner] != self.args.sweep for t in s.tricks):
                return False
        return True


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ------------------------------------------------------------------------------------------------ search
class Search:
    def __init__(self, args: argparse.Namespace, game: Game) -> None:
        self.args = args
        self.game = game
        self.target = Target(args, game)
        self.rand = random.Random(args.rng)
        self.nodes = 0

    def _weight(self, s: State, a: Action) -> float:
        args = self.args
        text = a.notation
        full = str(a)
        if any(text.startswith(x) or full.startswith(x) for x in args.avoid):
            return 0.0
        w = 1.0
        if any(text.startswith(x) or full.startswith(x) for x in args.prefer):
            w *= 20.0
        team = s.hand_team_of[a.seat] if 0 <= a.seat < len(s.hand_team_of) else None
        if s.phase != PLAY:
            taker_side = (args.taker_team is not None and team == args.taker_team) or \
                (args.taker is not None and a.seat == args.taker)
            wants_taker = args.taker_team is not None or args.taker is not None
            if wants_taker:
                if a.verb == "pass":
                    w *= 0.3 if taker_side else 6.0
                elif taker_side:
                    w *= 3.0
            if args.bid is not None and a.verb == "bid":
                w *= 12.0 if text.split()[1:2] == [str(args.bid)] else 0.7
            if args.trump is not None and args.trump.upper() in text.upper().split()[1:]:
                w *= 12.0
        return w

    def _choose(self, s: State, actions: Sequence[Action]) -> Action | None:
        weights = [self._weight(s, a) for a in actions]
        if not any(weights):
            return None
        return self.rand.choices(list(actions), weights)[0]

    def _ordered(self, s: State, actions: Sequence[Action]) -> list[Action]:
        """Preferred actions first, then the rest, each group in a random order (never an avoided one)."""
        scored = [(self._weight(s, a), self.rand.random(), a) for a in actions]
        return [a for w, _, a in sorted(scored, key=lambda x: (-x[0], x[1])) if w > 0]

    def before_tricks(self, s: State) -> bool:
        """Walk the steps before the first card; False when the walk ends elsewhere (thrown in, annulled, or
        not the asked contract)."""
        guard = 0
        while not s.is_terminal and s.phase != PLAY:
            guard += 1
            a = self._choose(s, s.legal_actions())
            if a is None or guard > 500:
                return False
            s.apply(a)
        return not s.is_terminal and self.target.contract_fits(s) or \
            (s.is_terminal and self.target.matches(s, self._report(s)))

    def _report(self, s: State) -> dict[str, Any]:
        rec = record_of(s)
        rec.ruleset = self.args.ruleset
        return report(replay(rec, self.game))

    def tricks(self, s: State) -> State | None:
        """Depth-first through the legal plays to a finished hand that matches."""
        if s.is_terminal:
            return s if self.target.matches(s, self._report(s)) else None
        self.nodes += 1
        if self.nodes > self.args.budget:
            raise Budget
        for a in self._ordered(s, s.legal_actions()):
            c = s.clone()
            before = len(c.tricks)
            c.apply(a)
            if not self.target.alive(c, before):
                continue
            found = self.tricks(c)
            if found is not None:
                return found
        return None

    def run(self) -> tuple[int, State] | None:
        args = self.args
        prefix = [Action.parse(t) for t in args.actions]
        fixed = _fixed_deal(args.deal, self.game) if args.deal else None
        for seed in (args.seed_range if fixed is None else [-1]):
            start = fixed.clone() if fixed is not None else self.game.new_hand(args.dealer, seed=seed)
            try:
                for a in prefix:
                    start.apply(a)
            except JacknineError:
                continue
            for _ in range(args.tries):
                s = start.clone()
                if not self.before_tricks(s):
                    continue
                if s.is_terminal:
                    return seed, s
                self.nodes = 0
                try:
                    found = self.tricks(s)
                except Budget:
                    found = None
                if found is not None:
                    return seed, found
        return None


def _fixed_deal(path: str, game: Game) -> State:
    """The deal of a hand record (its hands, and its stock where the record and the game have one)."""
    rec = read_record(path)
    stock = getattr(rec, "stock", None)
    if stock is None:
        stock = rec.extra.get("stock")
    if isinstance(stock, str):
        stock = stock.split()
    kwargs: dict[str, Any] = {}
    if stock:
        kwargs["stock"] = game.layout.parse_cards(list(stock))
    return game.new_hand(rec.dealer, hands=deal_for(game, rec), **kwargs)


# ------------------------------------------------------------------------------------------------ output
def record_text(rec: HandRecord) -> str:
    """The record in the layout of docs/hand-record.md (hands one line a seat, actions one a line)."""
    lines = [f"ruleset: {json.dumps(rec.ruleset) if ':' in rec.ruleset or ' ' in rec.ruleset else rec.ruleset}",
             f"dealer: {rec.dealer}", "hands:"]
    lines += [f"  {seat}: {' '.join(cards)}" for seat, cards in enumerate(rec.hands or [])]
    for key, value in rec.to_dict().items():   # fields the engine adds (a stock, say), as it writes them
        if key not in ("ruleset", "dealer", "hands", "actions", "seed"):
            lines.append(yaml.safe_dump({key: value}, sort_keys=False, width=120).rstrip("\n"))
    lines += ["actions:"] + [f"  - {a}" for a in rec.actions]
    return "\n".join(lines) + "\n"


def write(args: argparse.Namespace, game: Game, seed: int, s: State) -> int:
    rec = record_of(s)
    rec.ruleset = args.ruleset
    where = f"deal seed {seed}" if seed >= 0 else f"the deal of {args.deal}"
    header = args.header or [f"{args.ruleset}: a hand found by tests/golden_search.py ({where})."]
    text = "".join(f"# {line}\n" for line in header) + record_text(rec)
    rep = report(replay(rec, game))
    body = json.dumps(rep, indent=2) + "\n"
    if not args.out:
        sys.stdout.write(text + "\n" + body)
        return 0
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    yaml_path, json_path = out.with_suffix(".yaml"), out.with_suffix(".json")
    yaml_path.write_text(text, encoding="utf-8")
    again = report(replay(read_record(yaml_path)))   # the written file, read back as replay reads it
    if again != rep:
        print(f"{yaml_path}: the written record does not replay to the report found", file=sys.stderr)
        return 1
    json_path.write_text(body, encoding="utf-8")
    print(f"{yaml_path} and {json_path.name}: seed {seed}, card points {rep['card_points']}, "
          f"game points {rep['game_points']}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        game = load_game(args.ruleset)
    except JacknineError as e:
        print(f"{args.ruleset}: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    found = Search(args, game).run()
    if found is None:
        print(f"{args.ruleset}: no hand found for this target in seeds {args.seeds} "
              f"(more seeds, --tries or --budget may find one)", file=sys.stderr)
        return 1
    return write(args, game, *found)


if __name__ == "__main__":
    sys.exit(main())
