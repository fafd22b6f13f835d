"""The referee's oracle for the games and house rules of issue 14: replay a record, play random hands, and compare
with the engine.

    python3 tests/oracle/referee.py report RECORD.yaml        # the referee's report of a record (JSON)
    python3 tests/oracle/referee.py write RECORD.yaml ...     # write RECORD.json from it (pinned fields only)
    python3 tests/oracle/referee.py cross [HANDS] [NAME ...]  # random hands against the engine, where shipped

The rules are written from MORE-GAMES.md (and BUILTINS.md for the games its house rules extend), never from
engine code. Positions MORE-GAMES.md leaves open raise Unsettled: they are counted, never judged.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.oracle.core import Hand, Illegal, Unsettled, deck_for  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


# Which class of the referee plays each file.
CLASSES = {
    "three-hundred-and-four": "games304:ThreeOhFour",
    "three-hundred-and-four-maharashtra": "games304:Maharashtra",
    "thunee": "thunee:Thunee",
    "twenty-eight-kerala": "kerala:Kerala",
    "twenty-eight-kerala-3p": "kerala:Kerala3",
    "fifty-six-8p": "family:FiftySix8",
    "fifty-six-4p": "family:FiftySix4",
    "fifty-six-double": "family:FiftySixDouble",
    "cot-four": "family:CotFour",
    "thani-late": "family:ThaniLate",
    "bhangi": "family:Bhangi",
    "four-jacks-honour": "family:FourJacksHonour",
    "round-scoring": "family:RoundScoring",
    "kotah": "family:Kotah",
    "sets": "family:Sets",
    "single-hand-show": "family:SingleHandShow",
    "partner-exposed": "family:PartnerExposed",
}


# The shipped games the house rules extend, played by the referee's own classes: checked against the shipped
# goldens (tests/test_more_hands.py), so the house rules stand on base games known to agree with them.
BASE_CLASSES = {
    "twenty-eight": "family:TwentyEight",
    "twenty-eight-flat": "family:TwentyEightFlat",
    "twenty-nine": "family:TwentyNine",
    "single-hand": "family:SingleHand",
    "fifty-six": "family:FiftySix",
}


def registry() -> dict[str, type[Hand]]:
    import importlib

    out: dict[str, type[Hand]] = {}
    for name, where in CLASSES.items():
        module, cls = where.split(":")
        out[name] = getattr(importlib.import_module(f"tests.oracle.{module}"), cls)
    return out


def hand_class(name: str) -> type[Hand]:
    import importlib

    module, cls = {**BASE_CLASSES, **CLASSES}[name].split(":")
    return getattr(importlib.import_module(f"tests.oracle.{module}"), cls)  # type: ignore[no-any-return]


NEW_FILES = ("three-hundred-and-four", "three-hundred-and-four-maharashtra", "thunee", "fifty-six-8p", "fifty-six-4p",
             "twenty-eight-kerala", "twenty-eight-kerala-3p", "cot-four", "thani-late", "bhangi",
             "four-jacks-honour", "round-scoring", "sets", "single-hand-show", "partner-exposed", "fifty-six-double",
             "kotah")


def new_hand(name: str, dealer: int, hands: list[list[str]]) -> Hand:
    return hand_class(name)(name, dealer, hands)


def hands_of(record: dict[str, Any]) -> list[list[str]]:
    raw = record["hands"]
    items = sorted(raw.items()) if isinstance(raw, dict) else list(enumerate(raw))
    return [h.split() if isinstance(h, str) else [str(c) for c in h] for _, h in items]


def referee_report(record: dict[str, Any]) -> dict[str, Any]:
    """What the referee makes of a record, in the replay report's shape (the error without a message)."""
    hand = new_hand(record["ruleset"], record["dealer"], hands_of(record))
    error = None
    for i, text in enumerate(record.get("actions") or []):
        try:
            hand.apply(str(text))
        except Illegal:
            error = {"index": i, "action": str(text)}
            break
    rep = hand.report()
    if error is not None:
        rep["status"], rep["error"] = "illegal", error
        rep["game_points"] = [0] * len(rep["teams"])
    elif rep["status"] == "in_progress":
        rep["next"] = {"seat": hand.to, "legal": sorted(hand.legal())}
    return rep


# --------------------------------------------------------------------------------------- comparison
def agrees(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where `actual` differs from `expected` on what `expected` pins: every key it gives (a key it leaves out
    is not pinned), lists element by element; an error without a message accepts any message."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or 'report'}: expected an object, got {actual!r}"]
        out = []
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{path}.{k}: missing")
            else:
                out += agrees(v, actual[k], f"{path}.{k}")
        if path == ".error" and "message" not in expected and not (isinstance(actual.get("message"), str)
                                                                   and actual["message"]):
            out.append(".error.message: a refusal must say why")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        return [d for i, (e, a) in enumerate(zip(expected, actual, strict=True)) for d in agrees(e, a, f"{path}[{i}]")]
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


# ------------------------------------------------------------------------------------- random hands
RARE = {"partner": 0.1, "declare": 0.08, "redeal": 0.3, "open": 0.5, "concede": 0.05, "double": 0.3,
        "redouble": 0.5, "call": 0.5, "show": 0.7, "surrender": 0.2}


def choose(rng: random.Random, legal: list[str]) -> str:
    """A random legal action, leaning to passing in auctions (so hands get played) and taking the rarer actions
    (claims, the partner speech, concessions) now and then."""
    by_verb: dict[str, list[str]] = {}
    for a in legal:
        by_verb.setdefault(a.split()[0], []).append(a)
    if "pass" in by_verb and len(by_verb) > 1 and rng.random() < 0.55:
        return by_verb["pass"][0]
    verbs = sorted(by_verb)
    weights = [RARE.get(v, 1.0) for v in verbs]
    return rng.choice(by_verb[rng.choices(verbs, weights)[0]])


def self_play(name: str, seed: int) -> tuple[Hand, str]:
    """A random hand the referee plays against itself (a smoke test of the oracle): the hand and how it ended."""
    rng = random.Random(seed)
    cls = hand_class(name)
    cards = deck_for(cls)
    rng.shuffle(cards)
    each = len(cards) // cls.n
    hands = [cards[i * each:(i + 1) * each] for i in range(cls.n)]
    hand = cls(name, seed % cls.n, hands)
    try:
        for _ in range(400):
            if hand.status != "in_progress":
                break
            hand.apply(f"{hand.to} {choose(rng, sorted(hand.legal()))}")
    except Unsettled as e:
        return hand, f"unsettled: {e}"
    return hand, hand.status


# ------------------------------------------------------------------------------------ against the engine
def cross_hand(name: str, seed: int, rng: random.Random, figures: Counter[str]) -> list[str]:
    """One random hand dealt by the engine: every legal-action list and the final report compared with the
    referee's. Returns the disagreements."""
    from engine import load_game
    from engine.record import read_record_text, replay, report

    game = load_game(name)
    state = game.new_hand(dealer=seed % game.n, seed=seed)
    dealt = [[game.codes[c] for c in h] for h in state.dealt]
    mine = new_hand(name, state.dealer, dealt)
    try:
        while not state.is_terminal:
            if mine.to != state.to_act:
                return [f"seat to act: engine {state.to_act}, referee {mine.to} after {mine.history[-6:]}"]
            referee_says = sorted(mine.legal())
            open_here = mine.uncertain
            engine_says = sorted(a.notation for a in state.legal_actions() if a.notation not in open_here)
            referee_says = [a for a in referee_says if a not in open_here]
            figures["decisions compared"] += 1
            if engine_says != referee_says:
                return [f"seat {state.to_act} after {mine.history[-6:]}: engine only "
                        f"{sorted(set(engine_says) - set(referee_says))}, referee only "
                        f"{sorted(set(referee_says) - set(engine_says))}"]
            action = choose(rng, engine_says)
            state.apply(_find(state, action))
            mine.apply(f"{state.history[-1].seat} {action}")
    except Unsettled as e:
        figures["hands left unjudged (MORE-GAMES.md open)"] += 1
        figures[f"open: {e}"] += 1
        return []
    text = f"ruleset: {name}\ndealer: {state.dealer}\nhands:\n"
    text += "".join(f"  {i}: {' '.join(h)}\n" for i, h in enumerate(dealt))
    text += "actions:\n" + "".join(f"  - {a}\n" for a in mine.history) if mine.history else "actions: []\n"
    engine_report = report(replay(read_record_text(text)))
    try:
        referee = mine.report()
    except Unsettled as e:
        figures[f"open: {e}"] += 1
        return []
    figures["hands compared"] += 1
    return agrees(pinned(name, referee), engine_report)


def _find(state: Any, notation: str) -> Any:
    for a in state.legal_actions():
        if a.notation == notation:
            return a
    raise AssertionError(notation)


def pinned(name: str, rep: dict[str, Any]) -> dict[str, Any]:
    """The part of the referee's report that MORE-GAMES.md decides (see tests/test_more_hands.py)."""
    out = json.loads(json.dumps(rep))
    out.pop("annulled_because", None)
    if out.pop("_score_replaced", False) and out.get("contract"):
        out["contract"].pop("made", None)
    for key in out.pop("_unpin", []):
        parts = key.split(".")
        node = out
        for p in parts[:-1]:
            node = node.get(p) or {}
        if isinstance(node, dict):
            node.pop(parts[-1], None)
    if out.get("error"):
        out["error"].pop("message", None)
    for key in unpinned(name, out):
        parts = key.split(".")
        node = out
        for p in parts[:-1]:
            node = node.get(p) or {}
        if isinstance(node, dict):
            node.pop(parts[-1], None)
    return out


def unpinned(name: str, rep: dict[str, Any]) -> list[str]:
    """Report keys whose value MORE-GAMES.md does not fix for this hand (left out of the expected report)."""
    out: list[str] = []
    c = rep.get("contract") or {}
    special = c.get("special")
    if special in ("pcc", "cot", "thunee", "royals"):
        out += ["contract.bid", "contract.target"]     # a contract that outranks every number has no number
    if special == "show":
        out += ["trump"]
    if c.get("claim") is not None:
        out += ["contract.made", "contract.target", "contract.claim"]
    out += [k for k in ("contract.claim",) if k not in out]
    return out


def shipped() -> set[str]:
    from engine.rules.load import shipped_rulesets

    return set(shipped_rulesets())


# ---------------------------------------------------------------------------------------------- main
def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    if argv[0] == "report":
        record = yaml.safe_load(Path(argv[1]).read_text())
        print(json.dumps(referee_report(record), indent=2))
        return 0
    if argv[0] == "write":
        for path in argv[1:]:
            record = yaml.safe_load(Path(path).read_text())
            rep = pinned(record["ruleset"], referee_report(record))
            Path(path).with_suffix(".json").write_text(json.dumps(rep, indent=2) + "\n")
            print(f"{path}: {rep['status']} {rep['game_points']}")
        return 0
    if argv[0] == "cross":
        hands = int(argv[1]) if len(argv) > 1 else 100
        names = argv[2:] or sorted(n for n in NEW_FILES if n in shipped())
        for name in names:
            rng, figures, bad = random.Random(2024), Counter[str](), 0
            for seed in range(hands):
                problems = cross_hand(name, seed, rng, figures)
                bad += bool(problems)
                for p in problems[:1] if bad <= 3 else []:
                    print(f"  {name} seed {seed}: {p}")
            print(f"{name}: {dict(figures)}, {bad} hands disagree")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
