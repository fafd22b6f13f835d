"""Determinization: deal the cards a seat cannot see so that they agree with everything its view shows, and
rebuild a full `State` by replaying the public history on that deal.

Hard constraints (hand sizes, cards played, voids shown, a caller who could not trump, an exposed indicator)
are met by construction; everything else the rules imply (the bidder's trump-lead restriction, compulsory calls,
protected discards, the indicator coming from the first cards) is checked by replaying the history through the
engine, which rejects a deal that would have made a past action illegal."""

from __future__ import annotations

import random
from functools import lru_cache

from engine.bots.info import Seen
from engine.cards import card_ids
from engine.errors import JacknineError
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.state import State

ATTEMPTS = 6


@lru_cache(maxsize=4096)
def parse_action(text: str) -> Action:
    return Action.parse(text)



def _indicator_code(seen: Seen) -> tuple[int, str]:
    """(seat, card code) of an indicator card the history shows, or (-1, '')."""
    for text in seen.view.history:
        parts = text.split()
        if len(parts) == 3 and parts[1] == "trump" and len(parts[2]) == 2:
            return int(parts[0]), parts[2]
    return -1, ""


def _shown_indicator(game: Game, seen: Seen) -> int:
    """The bidder's indicator card once the history shows it (after exposure) and it is still held, else -1."""
    seat, code = _indicator_code(seen)
    if seat < 0 or seat == seen.view.seat:
        return -1
    ids = [c for c in game.code_ids[code] if seen.unknown >> c & 1]
    return ids[0] if ids else -1


def _hidden_trump_kind(game: Game, seen: Seen) -> str:
    """'' when nothing about the trump is hidden from this seat, else 'card', 'seventh' or 'suit'."""
    v = seen.view
    if v.trump is not None or v.bidder is None or not v.trump_concealed:
        return ""
    if any(t.split()[1:] == ["trump", "seventh"] for t in v.history):
        return "seventh"
    return "card" if game.rules.trump.as_card else "suit"


def deal_hidden(game: Game, seen: Seen, rng: random.Random) -> list[int] | None:
    """Hidden cards per seat (masks; this seat's entry is its own hand), or None if no deal fits."""
    v = seen.view
    n = game.n
    fixed = [0] * n
    shown = _shown_indicator(game, seen)
    if shown >= 0:
        fixed[v.bidder or 0] |= 1 << shown
    pool = seen.unknown & ~(1 << shown if shown >= 0 else 0)
    need = [max(0, v.hand_sizes[s] - fixed[s].bit_count()) for s in range(n)]
    need[v.seat] = 0
    allowed = [pool & ~sum(game.suit_masks[x] for x in range(game.nsuits) if seen.voids[s] >> x & 1)
               for s in range(n)]
    for attempt in range(ATTEMPTS):
        relax = attempt == ATTEMPTS - 1          # last resort: ignore voids rather than fail
        left = pool
        out = list(fixed)
        order = sorted((s for s in range(n) if need[s]),
                       key=lambda s: ((allowed[s] & left).bit_count() - need[s], rng.random()))
        ok = True
        for s in order:
            cand = card_ids(left if relax else allowed[s] & left)
            if len(cand) < need[s]:
                ok = False
                break
            for c in rng.sample(cand, need[s]):
                out[s] |= 1 << c
                left ^= 1 << c
        if ok:
            out[v.seat] = seen.hand
            return out
    return None


def _trump_weights(game: Game, hand: int) -> list[float]:
    """How likely a bidder holding `hand` named each suit: long suits with the top cards."""
    out = []
    for s in range(game.nsuits):
        m = hand & game.suit_masks[s]
        top = sum(1 for c in card_ids(m) if game.rank_of[c] <= 1)
        out.append(float(m.bit_count() ** 2 + 2 * top) if m else 0.0)
    return out


def build_world(game: Game, seen: Seen, rng: random.Random) -> State | None:
    """One full state consistent with the seat's view, or None when the sampled deal failed to replay."""
    v = seen.view
    hidden = deal_hidden(game, seen, rng)
    if hidden is None:
        return None
    kind = _hidden_trump_kind(game, seen)
    bidder = v.bidder if v.bidder is not None else -1
    first_of: dict[int, int] = {}      # a card that must come first in a seat's deal order
    seventh_of: dict[int, int] = {}
    blank = ""
    shown_by, code = _indicator_code(seen)
    if shown_by >= 0:   # an indicator laid from the first cards dealt: it goes first in that seat's deal
        mine = seen.played_by[shown_by] | hidden[shown_by]
        first_of[shown_by] = next((c for c in game.code_ids[code] if mine >> c & 1), game.code_ids[code][0])
    if seen.indicator >= 0:
        first_of[v.seat] = seen.indicator
        if any(t.split()[1:] == ["trump", "seventh"] for t in v.history):
            seventh_of[v.seat] = first_of.pop(v.seat)
    if kind:
        held = hidden[bidder]
        weights = _trump_weights(game, held)
        if kind == "suit":
            suit = rng.choices(range(game.nsuits), weights=[w + 0.5 for w in weights])[0]
            blank = game.layout.suits[suit]
        elif held:
            suit = rng.choices(range(game.nsuits), weights=weights)[0]
            ind = max(card_ids(held & game.suit_masks[suit]), key=lambda c: game.rank_of[c])
            if kind == "card":
                first_of[bidder] = ind
                blank = game.codes[ind]
            else:
                seventh_of[bidder] = ind
    dealt = []
    for s in range(game.n):
        cards = card_ids(seen.played_by[s] | hidden[s] | (1 << seen.indicator if s == v.seat and seen.indicator >= 0
                                                       else 0))
        rng.shuffle(cards)
        if s in first_of:
            cards.remove(first_of[s])
            cards.insert(0, first_of[s])
        if s in seventh_of and len(cards) >= 7:
            cards.remove(seventh_of[s])
            cards.insert(6, seventh_of[s])
        dealt.append(cards)
    return replay_on(game, v.dealer, dealt, v.history, v.match_scores, blank, v.seat)


def replay_on(game: Game, dealer: int, dealt: list[list[int]], history: list[str], match_scores: list[int],
              blank: str, seat: int) -> State | None:
    try:
        state = game.new_hand(dealer, hands=dealt, match_scores=match_scores)
        for text in history:
            a = parse_action(text)
            if a.verb == "trump" and not a.arg:
                if not blank:
                    return None
                a = game.action(a.seat, "trump", blank)
            if state.to_act != a.seat:
                return None
            state.apply(a)
    except JacknineError:
        return None
    return state if state.to_act == seat else None
