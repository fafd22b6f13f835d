"""The referee's independent oracle: random legal hands of every shipped game, checked against rules written
from BUILTINS.md and RULES.md (not from engine code).

Three checks, each printing figures per rule file:
  pre-play  every legal-action list before the first card (auction, trump, doubling, asks, raise)
  play      every legal-action list from the first card on (follow suit, calls, pairs, surrender, jacks)
  report    each finished hand replayed from its record: trick winners and points, exposure trick, card
            points, target and game points

    python3 tests/oracle/crosscheck.py [HANDS] [RULESET ...]      (tests/test_oracle.py runs it at CI size)

The random choices favour passing in auctions so that hands get played; the seeds are fixed, so a run is
repeatable. A mismatch prints the position and the engine's and the referee's answers.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import load_game  # noqa: E402
from engine.record import read_record_text, replay, report  # noqa: E402

PTS = {"J": 3, "9": 2, "A": 1, "T": 1, "3": 3}
R8 = ["J", "9", "A", "T", "K", "Q", "8", "7"]
R6 = R8[:6]
R9 = [*R8, "6"]
R40 = ["J", "3", "9", "A", "T", "K", "Q", "8", "7"]
B28 = {"twenty-eight", "twenty-eight-flat", "thani", "cot", "no-jack-discard", "pointless-redeal", "open-trump"}
B29 = {"twenty-nine", "seventh-card", "double-redouble", "gorakhpur", "odisha", "west-bengal-pair", "single-hand",
       "twenty-nine-bangladesh", "twenty-nine-fifteen"}
STYLE28 = B28 - {"open-trump"} | {"twenty-eight-3p", "twenty-eight-6p", "forty"}
OPEN = {"open-trump", "fifty-six"}
DOUBLING = {"double-redouble", "gorakhpur", "odisha"}
# ranks high to low, equal ranks, trick size, tricks per hand, last-trick bonus
DECK = {"twenty-eight-3p": (R6, (), 3, 8, 0), "twenty-eight-6p": (R9, (), 6, 6, 0),
        "forty": (R40, ("J", "3"), 6, 6, 0), "fifty-six": (R6, (), 6, 8, 0)}
BANDS28 = [(14, 19, 1, -2), (20, 24, 2, -3), (25, 28, 3, -4)]
BANDS_LOW = [(12, 19, 1, -2), (20, 24, 2, -3), (25, 28, 3, -4)]
BANDS = {"twenty-eight-flat": [(14, 28, 1, -1)], "twenty-eight-3p": BANDS_LOW, "twenty-eight-6p": BANDS_LOW,
         "forty": [(20, 29, 1, -2), (30, 33, 2, -3), (34, 40, 3, -4)],
         "fifty-six": [(28, 39, 1, -2), (40, 47, 2, -3), (48, 55, 3, -4), (56, 56, 4, -5)],
         "twenty-nine-fifteen": [(15, 28, 1, -1)]}


def deck_of(name: str) -> tuple[list[str], tuple[str, ...], int, int, int]:
    return DECK.get(name, (R8, (), 4, 8, 1 if name in B29 else 0))


def bands_of(name: str) -> list[tuple[int, int, int, int]]:
    return BANDS.get(name, [(16, 28, 1, -1)] if name in B29 else BANDS28)


def choose(rng: random.Random, legal: Any) -> Any:
    by_verb: dict[str, list[Any]] = {}
    for a in legal:
        by_verb.setdefault(a.verb, []).append(a)
    if "bid" in by_verb and "pass" in by_verb and rng.random() < 0.55:
        return by_verb["pass"][0]
    return rng.choice(by_verb[rng.choice(sorted(by_verb))])


# ------------------------------------------------------------------------------------------------ pre-play
class Auction:
    """Everything before the first card, as BUILTINS.md describes it for each file."""

    def __init__(self, name: str, dealer: int, hands: list[list[str]]) -> None:
        self.name, self.hands, self.n, self.dealer = name, hands, len(hands), dealer
        self.first = (dealer + 1) % self.n
        self.packet, self.lo, self.hi = {"twenty-eight-6p": 6, "forty": 3, "fifty-six": 8}.get(name, 4), 14, 28
        if name in ("twenty-eight-3p", "twenty-eight-6p"):
            self.lo = 12
        elif name in B29:
            self.lo = 15 if name == "twenty-nine-fifteen" else 16
        elif name == "forty":
            self.lo, self.hi = 20, 40
        elif name == "fifty-six":
            self.lo, self.hi = 28, 56
        self.compulsory = name in B28 or name in ("twenty-eight-3p", "twenty-eight-6p")
        self.phase, self.to, self.status = "auction", self.first, ""
        self.high, self.high_by, self.passes, self.last_passed = 0, -1, 0, False
        self.spoke: set[int] = set()
        self.bidders: set[int] = set()
        self.queue: list[int] = []
        self.mult, self.bid, self.bidder = 1, 0, -1
        if name == "twenty-nine-bangladesh" and any(self.pointless(hands[(self.first + k) % self.n][:4])
                                                    for k in range(2)):
            self.status = "annulled"
        elif name == "twenty-eight-6p" and self.four_jacks():
            self.status = "annulled"

    @staticmethod
    def pointless(cards: list[str]) -> bool:
        return not any(c[0] in PTS for c in cards)

    def four_jacks(self) -> bool:
        return self.name != "fifty-six" and any(sum(c[0] == "J" for c in h) == 4 for h in self.hands)

    def partner(self, s: int) -> int:
        return (s + self.n // 2) % self.n

    def legal(self) -> set[str]:
        s = self.to
        if self.phase == "auction":
            return self.auction_choices(s)
        if self.phase == "trump":
            if self.name in B29 or self.name == "open-trump":
                return {f"trump {x}" for x in "SHDC"} | ({"trump seventh"} if self.name == "seventh-card" else set())
            return {f"trump {c}" for c in self.hands[s][:self.packet]}
        if self.phase == "redouble":
            return {"redouble", "pass"} | ({"C"} if self.name == "odisha" and s == self.bidder else set())
        if self.phase == "raise":
            return {"pass"} | {f"raise {v}" for v in range(max(24, self.high + 1), 29)}
        return {"double": {"double", "pass"}, "pointless": {"redeal", "pass"}, "thani": {"declare thani", "pass"},
                "single": {"declare single-hand", "pass"}}[self.phase]

    def auction_choices(self, s: int) -> set[str]:
        first_turn = s == self.first and s not in self.spoke
        if self.name in B29 and not self.high and s == self.dealer and len(self.spoke) == self.n - 1:
            return {f"bid {self.lo}"}
        lo = self.high + 1 if self.high else self.lo
        if self.name in B28 and self.high_by == self.partner(s) and self.last_passed:
            lo = max(lo, 20)
        if self.name == "forty" and s in self.bidders:
            lo = max(lo, 30)
        out: set[str] = set()
        one_suit = self.name == "forty" and s == self.first and len({c[1] for c in self.hands[s][:3]}) == 1
        if not one_suit:
            for v in range(lo, self.hi + 1):
                suits = ("S", "H", "D", "C", "NT") if self.name == "fifty-six" else ("",)
                out.update(f"bid {v} {x}".strip() for x in suits)
        if not (self.compulsory and first_turn):
            out.add("pass")
        no_redeal = ("forty", "fifty-six", "twenty-nine-bangladesh")
        if first_turn and self.name not in no_redeal and self.pointless(self.hands[s][:self.packet]):
            out.add("redeal")
        return out

    def apply(self, text: str) -> None:
        seat, verb, *args = text.split()
        assert int(seat) == self.to
        getattr(self, "on_" + self.phase)(int(seat), verb, args)

    def on_auction(self, s: int, verb: str, args: list[str]) -> None:
        if verb == "redeal":
            self.status = "annulled"
            return
        forced = self.name in B29 and not self.high and len(self.spoke) == self.n - 1
        self.spoke.add(s)
        if verb == "bid":
            self.high, self.high_by, self.passes, self.last_passed = int(args[0]), s, 0, False
            self.bidders.add(s)
        else:
            self.passes, self.last_passed = self.passes + 1, True
        if (forced and verb == "bid") or (self.high and self.passes == self.n - 1):
            self.bidder, self.bid = self.high_by, self.high
            self.phase, self.to = ("play", s) if self.name == "fifty-six" else ("trump", self.bidder)
        elif not self.high and self.passes == self.n:
            self.status = "annulled"
        else:
            self.to = (s + 1) % self.n

    def on_trump(self, s: int, verb: str, args: list[str]) -> None:
        if self.name in DOUBLING:
            self.mult = 2 if self.name == "gorakhpur" and self.bid >= 21 else 1
            self.phase, self.to, self.queue = "double", (self.bidder + 1) % 4, [(self.bidder + 3) % 4]
        else:
            self.full_deal()

    def on_double(self, s: int, verb: str, args: list[str]) -> None:
        if verb == "double":
            self.mult *= 2
            self.queue = [self.bidder, self.partner(self.bidder)] if self.mult < 4 else []
            if self.queue:
                self.phase, self.to = "redouble", self.queue.pop(0)
                return
        elif self.queue:
            self.to = self.queue.pop(0)
            return
        self.full_deal()

    def on_redouble(self, s: int, verb: str, args: list[str]) -> None:
        if verb == "pass" and self.queue:
            self.to = self.queue.pop(0)
        else:
            self.full_deal()

    def full_deal(self) -> None:
        if self.four_jacks():
            self.status = "annulled"
            return
        if self.name == "pointless-redeal":
            seats = [(self.first + k) % 4 for k in range(4)]
            self.queue = [s for s in seats if self.pointless(self.hands[s])]
            if self.queue:
                self.phase, self.to = "pointless", self.queue.pop(0)
                return
        self.before_raise()

    def on_pointless(self, s: int, verb: str, args: list[str]) -> None:
        if verb == "redeal":
            self.status = "annulled"
        elif self.queue:
            self.to = self.queue.pop(0)
        else:
            self.before_raise()

    def before_raise(self) -> None:
        if self.name in B28 and self.bid < 28:
            self.phase, self.high, self.to, self.queue = "raise", self.bid, self.bidder, [self.partner(self.bidder)]
        else:
            self.after_raise()

    def on_raise(self, s: int, verb: str, args: list[str]) -> None:
        if verb == "raise":
            self.high = int(args[0])
        if self.queue and self.high < 28:
            self.to = self.queue.pop(0)
        else:
            self.after_raise()

    def after_raise(self) -> None:
        if self.name == "thani":
            self.phase, self.to = "thani", self.bidder
        elif self.name == "single-hand":
            order = [(self.first + k) % 4 for k in range(4)]
            self.phase, self.to, self.queue = "single", order[0], order[1:]
        else:
            self.phase = "play"

    def on_thani(self, s: int, verb: str, args: list[str]) -> None:
        self.phase = "play"

    def on_single(self, s: int, verb: str, args: list[str]) -> None:
        if verb == "pass" and self.queue:
            self.to = self.queue.pop(0)
        else:
            self.phase = "play"


# ------------------------------------------------------------------------------------------------ play
class Play:
    """Who may play what from the first card on."""

    def __init__(self, name: str, state: Any, game: Any, history: list[str]) -> None:
        self.name, self.size = name, state.trick_size
        self.hands = {i: [game.codes[c] for c in h] for i, h in enumerate(state.dealt)}
        self.bidder, self.trump, self.bid = state.bidder, state.trump_suit_code(), state.bid
        self.team = list(state.hand_team_of)
        self.special = state.special.name if state.special is not None else None
        self.ind = indicator_of(name, history, self.hands)
        self.concealed = name not in OPEN and self.special != "single-hand"
        if self.special == "single-hand":
            self.trump = None
        self.cur: list[tuple[int, str]] = []
        self.led: set[str] = set()
        self.won: set[int] = set()
        self.caller, self.tricks = -1, 0
        self.pair_shown = self.offered = self.answering = self.bidders_lost = False

    def in_hand(self, seat: int) -> list[str]:
        h = self.hands[seat]
        return [c for c in h if c != self.ind] if self.concealed and seat == self.bidder and self.ind else list(h)

    def legal(self, seat: int) -> set[str]:
        if self.answering:
            return {"accept", "refuse"}
        hand = self.in_hand(seat)
        out = {"play " + c for c in self.plays(seat, hand)}
        if self.concealed and self.cur and self.caller < 0 and self.void(hand):
            if self.name in B29:
                out = {"call"}
            elif not (seat == self.bidder and self.cur[0][1][1] == self.trump):
                out.add("call")
        if self.pair_ok(seat):
            out.add("show pair")
        if self.name == "cot" and not (self.offered or self.bidders_lost) and self.team[seat] != self.team[self.bidder]:
            out.add("surrender")
        return out

    def void(self, hand: list[str]) -> bool:
        return not any(c[1] == self.cur[0][1][1] for c in hand)

    def pair_ok(self, seat: int) -> bool:
        if self.name not in B29 or self.special or self.pair_shown or self.concealed or self.trump is None:
            return False
        h, t = self.hands[seat], self.trump
        if "K" + t not in h or "Q" + t not in h or self.team[seat] not in self.won:
            return False
        return not (self.name == "west-bengal-pair" and self.team[seat] == self.team[self.bidder] and self.bid <= 18)

    def plays(self, seat: int, hand: list[str]) -> list[str]:
        if not hand:
            return [self.ind]  # the last trick: the concealed indicator is the bidder's last card
        if not self.cur:
            if self.concealed and seat == self.bidder and self.trump:
                return [c for c in hand if c[1] != self.trump] or hand
            return hand
        led = self.cur[0][1][1]
        follow = [c for c in hand if c[1] == led]
        if follow:
            return follow
        if self.caller == seat and self.name in STYLE28:
            if seat == self.bidder:
                return [self.ind]
            trumps = [c for c in hand if c[1] == self.trump]
            return self.jacks(trumps or hand, trumping=bool(trumps))
        if self.concealed and self.name in STYLE28 and seat == self.bidder:
            if led == self.trump:
                return self.jacks(hand)
            plain = [c for c in hand if c[1] != self.trump]
            return self.jacks(plain) if plain else []
        return self.jacks(hand)

    def jacks(self, cards: list[str], trumping: bool = False) -> list[str]:
        if self.name != "no-jack-discard":
            return cards

        def barred(c: str) -> bool:
            trump_jack = c[1] == self.trump and (not self.concealed or trumping)
            return c[0] == "J" and c[1] not in self.led and not trump_jack
        return [c for c in cards if not barred(c)] or cards

    def apply(self, text: str, winner: int | None) -> None:
        seat_text, verb, *args = text.split()
        seat = int(seat_text)
        if verb == "surrender":
            self.offered = self.answering = True
        elif verb in ("accept", "refuse"):
            self.answering = False
        elif verb == "show":
            self.pair_shown = True
        elif verb == "call":
            self.caller, self.concealed = seat, False
        elif verb == "play":
            card = args[0]
            if self.concealed and seat == self.bidder and card == self.ind:
                self.concealed = False
            self.hands[seat].remove(card)
            if not self.cur:
                self.led.add(card[1])
            self.cur.append((seat, card))
            if len(self.cur) == self.size:
                self.cur, self.caller, self.tricks = [], -1, self.tricks + 1
        if winner is not None:
            self.won.add(self.team[winner])
            self.bidders_lost |= self.team[winner] != self.team[self.bidder]


def indicator_of(name: str, history: list[str], hands: dict[int, list[str]]) -> str | None:
    for text in history:
        seat, verb, *args = text.split()
        if verb == "trump" and args[0] == "seventh":
            return hands[int(seat)][6]
        if verb == "trump" and len(args[0]) == 2 and name not in OPEN:
            return args[0]
    return None


# ------------------------------------------------------------------------------------------------ report
def tricks_of(name: str, rep: dict[str, Any], history: list[str], hands: dict[int, list[str]]) -> list[dict[str, Any]]:
    """Trick winners and points from the cards played, the calls and the rule file's exposure rule."""
    ranks, ties, size, count, bonus = deck_of(name)
    order = {r: i for i, r in enumerate(ranks)}
    for r in ties:
        order[r] = min(order[t] for t in ties)
    c = rep["contract"]
    single = c.get("special") == "single-hand"
    trump = None if single else rep["trump"]["suit"]
    ind = None if single else indicator_of(name, history, hands)
    exposed = name in OPEN or single
    retro = name in B29
    out: list[dict[str, Any]] = []
    cur: list[list[Any]] = []
    for text in history:
        seat, verb, *args = text.split()
        if verb == "call":
            exposed = True
            if retro:
                cur = [[s, card, card[1] == trump] for s, card, _ in cur]
        if verb != "play":
            continue
        if not exposed and ind and int(seat) == c["bidder"] and args[0] == ind:
            exposed = True
        cur.append([int(seat), args[0], exposed and args[0][1] == trump])
        if len(cur) == size - (1 if single else 0):
            led = cur[0][1][1]
            best = max(((1 if p else 0, -order[card[0]], -i) for i, (_, card, p) in enumerate(cur)
                        if p or card[1] == led))
            points = sum(PTS.get(card[0], 0) for _, card, _ in cur) + (bonus if len(out) == count - 1 else 0)
            out.append({"leader": cur[0][0], "cards": [card for _, card, _ in cur], "winner": cur[-best[2]][0],
                        "points": points})
            cur = []
    return out


def game_points(name: str, rep: dict[str, Any], history: list[str], points: list[int]) -> tuple[list[int], int]:
    """Target and game points as BUILTINS.md scores each file."""
    c, teams, tricks = rep["contract"], rep["teams"], rep["tricks"]
    team, bid, gp = c["team"], c["bid"], [0] * len(rep["teams"])
    verbs = [t.split()[1:] for t in history]
    if c.get("special") in ("thani", "single-hand"):
        won_all = all(t["winner"] == c["bidder"] for t in tricks)
        gp[team] = {"thani": (4, -5), "single-hand": (3, -3)}[c["special"]][0 if won_all else 1]
        return gp, c["target"]
    target = pair_target(name, rep, history)
    made = points[team] >= target
    lo, hi, win, lose = next(b for b in bands_of(name) if b[0] <= bid <= b[1])
    if name == "cot":
        lost = any(t["winner"] not in teams[team] for t in tricks)
        if ["accept"] in verbs:
            gp[team] = win  # a surrender accepted: the contract once
        elif not lost:
            gp[team] = 2 * win  # every trick
        elif ["refuse"] in verbs:
            gp[team] = 2 * lose  # a refused surrender, then a trick lost
        else:
            gp[team] = win if made else lose
        return gp, target
    if name == "forty":
        gp[team if made else 1 - team] = win if made else -lose
        return gp, target
    if name == "fifty-six":
        gp[team], gp[1 - team] = (win, -win) if made else (lose, -lose)
        return gp, target
    mult = 2 if name == "gorakhpur" and bid >= 21 else 1
    mult *= 2 ** sum(v[0] in ("double", "redouble") for v in verbs)
    if ["C"] in verbs or ["declare", "C"] in verbs:
        gp[team] = 6 if made else -6
        return gp, target
    value = win if made else lose
    if name == "odisha" and not made and 2 * points[team] < bid:
        value *= 2
    gp[team] = value * mult
    return gp, target


def pair_target(name: str, rep: dict[str, Any], history: list[str]) -> int:
    c = rep["contract"]
    target, low = c["bid"], 15 if name == "twenty-nine-fifteen" else 16
    for text in history:
        seat, *rest = text.split()
        if rest[:2] != ["show", "pair"]:
            continue
        if int(seat) in rep["teams"][c["team"]]:
            target = max(low, target + (-3 if name == "west-bengal-pair" and c["bid"] == 19 else -4))
        else:
            target = min(28, target + 4)
    return target


def check_report(name: str, game: Any, state: Any) -> list[str]:
    history = [str(a) for a in state.history]
    hands = {i: [game.codes[c] for c in h] for i, h in enumerate(state.dealt)}
    text = f"ruleset: {name}\ndealer: {state.dealer}\nhands:\n"
    text += "".join(f"  {i}: {' '.join(h)}\n" for i, h in hands.items())
    text += "actions:\n" + "".join(f"  - {a}\n" for a in history) if history else "actions: []\n"
    rep = report(replay(read_record_text(text)))
    if rep["status"] != "complete":
        return []
    problems = []
    mine = tricks_of(name, rep, history, hands)
    if mine != rep["tricks"]:
        first = next(i for i, (x, y) in enumerate(zip(mine, rep["tricks"], strict=False)) if x != y)
        problems.append(f"trick {first + 1}: referee {mine[first]} engine {rep['tricks'][first]}")
    points = [sum(t["points"] for t in mine if t["winner"] in team) for team in rep["teams"]]
    if points != rep["card_points"]:
        problems.append(f"card points: referee {points} engine {rep['card_points']}")
    gp, target = game_points(name, rep, history, points)
    if gp != rep["game_points"] or target != rep["contract"]["target"]:
        problems.append(f"score: referee target {target} {gp}, engine {rep['contract']} {rep['game_points']}")
    return problems


# ------------------------------------------------------------------------------------------------ driver
def one_hand(name: str, seed: int, rng: random.Random, figures: dict[str, int]) -> list[str]:
    game = load_game(name)
    state = game.new_hand(dealer=seed % game.n, seed=seed)
    before = Auction(name, state.dealer, [[game.codes[c] for c in h] for h in state.dealt])
    during: Play | None = None
    while not state.is_terminal:
        legal = state.legal_actions()
        engine_says = {a.notation for a in legal}
        if state.phase_name in ("play", "surrender"):
            if during is None:
                during = Play(name, state, game, [str(a) for a in state.history])
                if before.phase != "play":
                    return [f"engine starts play, referee expects {before.phase}"]
            referee_says, figures["play"] = during.legal(state.to_act), figures["play"] + 1
        else:
            if before.status or before.to != state.to_act:
                return [f"{state.phase_name}: engine seat {state.to_act}, referee {before.status or before.to}"]
            referee_says, figures["pre-play"] = before.legal(), figures["pre-play"] + 1
        if referee_says != engine_says:
            return [f"{state.phase_name} seat {state.to_act} after {[str(a) for a in state.history][-8:]}: "
                    f"engine only {sorted(engine_says - referee_says)}, referee only "
                    f"{sorted(referee_says - engine_says)}"]
        action, done = choose(rng, legal), len(state.tricks)
        state.apply(action)
        if during is None:
            before.apply(str(action))
        else:
            during.apply(str(action), state.tricks[-1].winner if len(state.tricks) > done else None)
    if during is None and (before.status or "play") != state.status:
        return [f"hand ended {state.status}, referee expects {before.status or before.phase}"]
    figures["hands"] += 1
    return check_report(name, game, state)


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    names = sys.argv[2:] or sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "rulesets").glob("*.yaml"))
    for name in names:
        rng, figures, bad = random.Random(2024), {"hands": 0, "pre-play": 0, "play": 0}, 0
        for seed in range(hands):
            problems = one_hand(name, seed, rng, figures)
            bad += bool(problems)
            for p in problems[:1] if bad <= 3 else []:
                print(f"  {name} seed {seed}: {p}")
        print(f"{name}: {figures['hands']} hands finished, {figures['pre-play']} pre-play and {figures['play']} play "
              f"decisions compared, {bad} hands disagree")


if __name__ == "__main__":
    main()
