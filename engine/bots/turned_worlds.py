"""A world's turned card and stock (engine/play/turned.py), for the worlds the search bots and the OpenSpiel adapter
draw (engine/bots/worlds.py, engine/adapters/resample.py): the face-up cards go to no hand, the turned card goes
where the deal put it, and each world deals a stock that completes every hand with the cards the world gives it.
The stock's other cards are the unseen cards left over, in a drawn order."""

from __future__ import annotations

import random

from engine.bots.determinize import HiddenSlots, shuffle
from engine.play.game import Game
from engine.play.rules import STEP_EXCHANGE, STEP_TURN_UP
from engine.play.view import View


class TurnedCard:
    """A world's turned card and stock, from what the view shows: the card turned up (`turned_up`), the card face
    up now (`turned`: after an exchange, the low trump given for it), the stock's bottom card once shown, and the
    history (who took the turned card, who exchanged). Each world puts the turned card where the deal put it and
    deals a stock that completes every hand with the cards the world gives it."""

    def __init__(self, game: Game, view: View, slots: HiddenSlots) -> None:
        d = game.rules.deal
        self.game = game
        self.view = view
        self.card = view.turned_up if view.turned_up is not None else -1
        self.exchanger = next((a.seat for a in view.history if a.verb == "exchange"), -1)
        self.low = view.turned if self.exchanger >= 0 and view.turned is not None else -1
        self.bottom = view.stock_bottom if view.stock_bottom is not None else -1
        self.completed = view.bidder is not None and game.completes and view.phase != "take_or_pass"
        # who holds the turned card now (-1: nobody, it lies on the table or went back to the stock's place)
        holder = -1
        if self.card >= 0:
            if d.turned_from_dealer:
                holder = view.dealer
            elif self.exchanger >= 0:
                holder = self.exchanger
            elif d.turned_to_taker and self.completed and view.turned is None and view.bidder is not None:
                holder = view.bidder
        self.holder = holder
        if holder >= 0 and holder != view.seat:
            slots.pin(holder, 1 << self.card)
        self._low_trump_holder(slots)
        face_up = (1 << self.bottom if self.bottom >= 0 else 0) | (1 << self.low if self.low >= 0 else 0)
        if view.turned is not None and not d.turned_from_dealer:
            face_up |= 1 << view.turned
        slots.set_aside(face_up)
        k = 0
        for code in game.rules.schedule:
            if code == STEP_TURN_UP:
                break
            if code > 0:
                k += code
        self.before = k   # cards each seat holds when the card is turned

    def _low_trump_holder(self, slots: HiddenSlots) -> None:
        """The exchange of the lowest trump (exchange_low_trump) is offered to its holder only: a seat that passed
        it holds that card; once the play began with nobody asked, it lies in the stock."""
        game, view = self.game, self.view
        if STEP_EXCHANGE not in game.rules.schedule or self.exchanger >= 0 or view.trump is None or view.trump < 0:
            return
        order = game.rules.deck.trump_order
        lowest = max(range(len(order)), key=order.__getitem__) if order else len(game.layout.ranks) - 1
        low = game.layout.card_id(view.trump, lowest, 0)
        history = view.history
        first_play = next((i for i, a in enumerate(history) if a.verb in ("play", "announce")), -1)
        if first_play < 0:
            return
        i = first_play - 1
        if i >= 1 and history[i].verb == "pass" and history[i - 1].verb != "pass":
            if history[i].seat != view.seat:
                slots.pin(history[i].seat, 1 << low)
            return
        for s in range(len(slots.allowed)):    # nobody was asked: no hand held it
            slots.allowed[s] &= ~(1 << low)

    def deal(self, rng: random.Random, dealt: list[list[int]], rest: list[int]) -> tuple[list[list[int]],
                                                                                          list[int] | None]:
        """The world's packets and stock from each seat's cards (`dealt`, in a drawn order) and the unseen cards
        left (`rest`); (dealt, None) where the cards cannot be put in such an order."""
        game = self.game
        d = game.rules.deal
        each = game.dealt_each
        cards = [h[:] for h in dealt]
        if self.exchanger >= 0 and self.low >= 0:   # he was dealt the low trump, not the turned card
            h = cards[self.exchanger]
            if self.card in h:
                h[h.index(self.card)] = self.low
        if d.turned_from_dealer:
            h = cards[self.view.dealer]
            if self.card not in h or len(h) < self.before:
                return dealt, None
            h.remove(self.card)
            h.insert(self.before - 1, self.card)
            return cards, None if game.stock_size else []
        taker = self.view.bidder if self.view.bidder is not None else -1
        gets = d.turned_to_taker and self.completed and taker >= 0
        if gets:
            h = cards[taker]
            if self.card not in h or len(h) <= each:
                return dealt, None
            h.remove(self.card)
            h.insert(each, self.card)
        first = game.first_hand(self.view.dealer)
        packets = [h[:each] for h in cards]
        stock = [self.card]
        for i in range(game.n):
            s = (first + i) % game.n
            extra = cards[s][each:]
            stock.extend(extra[1:] if gets and s == taker else extra)
        left = list(rest)
        shuffle(rng, left)
        stock.extend(left)
        if self.bottom >= 0:
            stock.append(self.bottom)
        if self.low >= 0 and self.low not in stock and all(self.low not in p for p in packets):
            return dealt, None
        if len(stock) != game.stock_size:
            return dealt, None
        return packets, stock
