"""Fixed-size encodings of a game for learning code: one action index space per rule file, legal-action masks,
observation tensors built from a seat's `View`, and the deal as a sequence of chance outcomes. Pure Python; the
OpenSpiel adapter (`openspiel.py`) is a thin layer over this."""

from __future__ import annotations

from engine.play.actions import Action, bid_terms
from engine.play.base import PHASE_NAMES
from engine.play.game import NO_TRUMP, Game
from engine.play.rules import REFOLD_WHEN_MARKED
from engine.play.state import State
from engine.play.view import View

FIXED_VERBS = ("pass", "redeal", "call", "show pair", "surrender", "accept", "refuse")


class ActionSpace:
    """Every action notation the rule file can produce, each with a fixed index (the seat is not part of it)."""

    def __init__(self, game: Game) -> None:
        g = game
        names: list[str] = list(FIXED_VERBS)
        names += g.doubling_names
        names += [f"declare {c}" for c in g.contracts]
        names += [a.notation for a in g.bid_actions(0)]
        names += [f"trump {code}" for code in dict.fromkeys(g.codes)]
        names += [f"trump {s}" for s in g.layout.suits] + ["trump seventh"]
        names += [f"raise {v}" for v in g.bid_values]
        names += [f"play {code}" for code in dict.fromkeys(g.codes)]
        names += _auction_names(g)
        self.names = list(dict.fromkeys(names))
        self.index = {n: i for i, n in enumerate(self.names)}
        self.game = game

    def __len__(self) -> int:
        return len(self.names)

    def of(self, action: Action) -> int:
        return self.index[action.notation]

    def action(self, seat: int, index: int) -> Action:
        return Action.parse(f"{seat} {self.names[index]}")

    def legal(self, state: State) -> list[int]:
        """Sorted indices of the legal actions (OpenSpiel's convention)."""
        return sorted({self.index[a.notation] for a in state.legal_actions()})

    def mask(self, state: State) -> list[int]:
        m = [0] * len(self.names)
        for i in self.legal(state):
            m[i] = 1
        return m


def _auction_names(g: Game) -> list[str]:
    """The speeches a rule file adds to the auction (appended, so the indexes of other files stay as they were):
    `partner`, the second auction's bids and their `change` marks, `concede`."""
    r = g.rules
    out: list[str] = []
    rounds = [r.auction] + ([r.second_auction] if r.second_auction is not None else [])
    if any(a.partner_speech for a in rounds):
        out.append("partner")
    if len(g.rounds) > 1 and g.rounds[1].verb == "bid":
        out += [a.notation for a in g.rounds[1].bid_actions(0)]
        if r.second_auction is not None and r.second_auction.holder_refolds == REFOLD_WHEN_MARKED:
            out += ["pass change"] + [f"{a.notation} change" for a in g.rounds[1].bid_actions(0)]
    if r.concede is not None:
        out.append("concede")
    return out


class Observation:
    """A flat float vector of what one seat sees, positions relative to that seat (0 = itself)."""

    def __init__(self, game: Game) -> None:
        g = game
        self.game = game
        n, size = g.n, g.size
        self.parts = [("hand", size), ("played", size), ("trick", n * size), ("indicator", size),
                      ("trump", g.nsuits + 2), ("phase", len(PHASE_NAMES)), ("bidder", n + 1), ("to_act", n + 1),
                      ("contract", 4), ("card_points", 2), ("bids", n)]
        self.offsets: dict[str, int] = {}
        k = 0
        for name, width in self.parts:
            self.offsets[name] = k
            k += width
        self.size = k

    def encode(self, view: View) -> list[float]:
        g = self.game
        out = [0.0] * self.size
        off = self.offsets
        n = g.n
        me = view.seat

        def rel(seat: int) -> int:
            return (seat - me) % n

        def put_cards(base: int, cards: list[int]) -> None:
            for card in cards:   # a double pack's copies fill each part of the tensor from its first copy
                for c in g.code_ids[g.codes[card]]:
                    if out[base + c] == 0.0:
                        out[base + c] = 1.0
                        break

        put_cards(off["hand"], view.hand_cards())
        put_cards(off["played"], [c for t in view.tricks for c in t.cards])
        for seat, c in zip(view.trick.seats, view.trick.cards, strict=True):
            put_cards(off["trick"] + rel(seat) * g.size, [c])
        if view.indicator is not None:
            put_cards(off["indicator"], [view.indicator])
        if view.trump is None:
            out[off["trump"] + g.nsuits + 1] = 1.0
        elif view.trump == NO_TRUMP:
            out[off["trump"] + g.nsuits] = 1.0
        else:
            out[off["trump"] + view.trump] = 1.0
        out[off["phase"] + PHASE_NAMES.index(view.phase)] = 1.0
        out[off["bidder"] + (rel(view.bidder) if view.bidder is not None else n)] = 1.0
        out[off["to_act"] + (rel(view.to_act) if view.to_act >= 0 else n)] = 1.0
        top = float(g.rules.auction.bid_max or 1)
        c = off["contract"]
        out[c] = (view.bid or 0) / top
        out[c + 1] = (view.target or 0) / top
        out[c + 2] = view.multiplier / 8.0
        out[c + 3] = 1.0 if view.trump_concealed else 0.0
        total = float(g.points_per_hand)
        mine = next((i for i, t in enumerate(view.teams) if me in t), 0)
        pts = view.card_points
        out[off["card_points"]] = pts[mine] / total if pts else 0.0
        out[off["card_points"] + 1] = max((p for i, p in enumerate(pts) if i != mine), default=0) / total
        for a in view.history:
            if a.verb == "bid":
                out[off["bids"] + rel(a.seat)] = bid_terms(a.arg)[0] / top
        return out


def deal_length(game: Game) -> int:
    """How many chance outcomes make one deal (one per card dealt)."""
    return game.n * game.cards_each


def hands_from_order(game: Game, order: list[int], dealer: int) -> list[list[int]]:
    """The cards each seat receives when the pack, in `order`, is dealt by the schedule from the first hand."""
    return game.deal_in_order(order, dealer)


def utility_bound(game: Game) -> float:
    """A bound on the game points one hand can score, for OpenSpiel's min/max utility."""
    r = game.rules
    values = [abs(v) for b in game.rules.scoring.bands for v in (b.made, b.failed)]
    values += [abs(v) for c in r.contracts for v in (c.made, c.failed)]
    mult = 1.0
    d = r.doubling
    if d is not None:
        for s in d.steps:
            mult *= s.multiplier
        mult *= d.auto_multiplier
        if d.fixed_stake is not None:
            values.append(abs(d.fixed_stake.value))
    at = r.all_tricks
    if at is not None:
        mult *= max(at.multiplier, at.refused_loss_multiplier)
    mult *= r.scoring.below_half_loss_multiplier
    return float(max(values, default=1)) * mult


def max_actions(game: Game) -> int:
    """A bound on the players' actions in one hand (auction, contract steps, tricks with calls and shows)."""
    n = game.n
    turns = 0
    for t in game.rounds:
        if t.verb != "bid":
            continue   # the raise: at most one turn each, within the allowance below
        speeches = (len(t.values) + 2) * n * (2 if t.rules.partner_speech else 1)   # a partner may speak first
        turns += speeches + (2 * len(t.values) if game.auction_doubling else 0)    # a double and a redouble a bid
    return turns + 6 * n + game.cards_each * n + game.cards_each + 2 * n + 8
