"""The heuristic's trump choices without an auction (engine/play/turned.py): take or pass on the turned card, name
a suit in the second round, name or push at choose_trump, answer a schmeiss, exchange the lowest trump.

Each suit is weighed as trumps from the seat's own cards: its length and the points of its cards (and the turned
card where taking brings it into the hand). A hand whose best suit falls short passes (or pushes to the partner
where it may); a choice that cannot be passed takes the best suit. Only legal actions are returned."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.play.actions import Action
from engine.play.game import Game
from engine.play.view import View

LENGTH_WEIGHT: Final = 10      # one more trump is worth about a ten's points
TAKE_PER_CARD: Final = 7       # take or name a suit when its weight reaches this much per card held
CHOOSE_PER_CARD: Final = 6     # at choose_trump: below this per card, push to the partner where one may


def suit_weight(game: Game, hand: int, suit: int, extra: int = -1) -> int:
    """How good `suit` is as trumps for these cards (plus `extra`, a card they would receive)."""
    mask = hand & game.suit_masks[suit]
    if extra >= 0 and game.suit_of[extra] == suit:
        mask |= 1 << extra
    count = mask.bit_count()
    pts = 0
    m = mask
    while m:
        low = m & -m
        pts += game.points[low.bit_length() - 1]
        m ^= low
    return count * LENGTH_WEIGHT + pts


def _best_named(game: Game, hand: int, legal: Sequence[Action]) -> tuple[Action | None, int]:
    best: Action | None = None
    weight = -1
    for a in legal:
        if a.verb == "trump" and a.arg in game.layout.suits:
            w = suit_weight(game, hand, game.layout.suits.index(a.arg))
            if w > weight:
                best, weight = a, w
    return best, weight


def _find(legal: Sequence[Action], verb: str) -> Action | None:
    return next((a for a in legal if a.verb == verb), None)


def choose(game: Game, view: View, legal: Sequence[Action]) -> Action:
    """The heuristic's choice in the phases take_or_pass, choose_trump and exchange."""
    hand = view.hand
    held = max(hand.bit_count(), 1)
    exchange = _find(legal, "exchange")
    if exchange is not None:
        return exchange          # the turned card is worth more than the lowest trump
    named, weight = _best_named(game, hand, legal)
    passing = _find(legal, "pass")
    if view.phase == "choose_trump":
        push = _find(legal, "push")
        if push is not None and weight < CHOOSE_PER_CARD * held:
            return push
        return named if named is not None else legal[0]
    accept, refuse = _find(legal, "accept"), _find(legal, "refuse")
    if accept is not None and refuse is not None:
        turned = view.turned if view.turned is not None else -1
        w = max(suit_weight(game, hand, s) for s in range(game.nsuits)) if turned < 0 else \
            suit_weight(game, hand, game.suit_of[turned])
        return refuse if w >= TAKE_PER_CARD * held else accept
    take = _find(legal, "take")
    if take is not None:
        turned = view.turned if view.turned is not None else -1
        if turned >= 0:
            gets = turned if game.rules.deal.turned_to_taker else -1
            if suit_weight(game, hand, game.suit_of[turned], gets) >= TAKE_PER_CARD * held:
                return take
        return passing if passing is not None else take
    if named is not None and (passing is None or weight >= TAKE_PER_CARD * held):
        return named
    if passing is not None:
        return passing
    return legal[0]
