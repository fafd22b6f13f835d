"""A world's turned card and stock (engine/play/turned.py), for the worlds the search bots and the OpenSpiel adapter
draw (engine/bots/worlds.py, engine/adapters/resample.py): the face-up cards go to no hand, the turned card goes
where the deal put it, and each world deals a stock that completes every hand with the cards the world gives it.
The stock's other cards are the unseen cards left over, in a drawn order."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots.determinize import HiddenSlots, shuffle
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.rules import STEP_EXCHANGE, STEP_TURN_UP
from engine.play.view import View


class TurnedCard:
    """A world's turned card and stock, from what the view shows: the card turned up (`turned_up`), the card face
    up now (`turned`: after an exchange, the low trump given for it), the stock's bottom card once shown, and the
    history (who took the turned card, who exchanged). Each world puts the turned card where the deal put it and
    deals a stock that completes every hand with the cards the world gives it."""

    def __init__(self, game: Game, view: View, slots: HiddenSlots) -> None:
        self.game = game
        self.view = view
        self.card = view.turned_up if view.turned_up is not None else -1
        self.exchanger = _exchanger(view)
        self.low = view.turned if self.exchanger >= 0 and view.turned is not None else -1
        self.bottom = view.stock_bottom if view.stock_bottom is not None else -1
        self.completed = view.bidder is not None and game.completes and view.phase != "take_or_pass"
        self.holder = self._holder() if self.card >= 0 else -1
        if self.holder >= 0 and self.holder != view.seat:
            slots.pin(self.holder, 1 << self.card)
        self._low_trump_holder(slots)
        slots.set_aside(self._face_up())
        self.before = _cards_before_turn(game.rules.schedule)   # cards each seat holds when the card is turned

    def _face_up(self) -> int:
        """The cards lying face up, in no hand: the stock's bottom card shown, the low trump exchanged, and the
        turned card unless the dealer keeps it."""
        face_up = (1 << self.bottom if self.bottom >= 0 else 0) | (1 << self.low if self.low >= 0 else 0)
        if self.view.turned is not None and not self.game.rules.deal.turned_from_dealer:
            face_up |= 1 << self.view.turned
        return face_up

    def _holder(self) -> int:
        """Who holds the turned card now (-1: nobody, it lies on the table or went back to the stock's place)."""
        d = self.game.rules.deal
        view = self.view
        if d.turned_from_dealer:
            return view.dealer
        if self.exchanger >= 0:
            return self.exchanger
        if d.turned_to_taker and self.completed and view.turned is None and view.bidder is not None:
            return view.bidder
        return -1

    def _low_trump_holder(self, slots: HiddenSlots) -> None:
        """The exchange of the lowest trump (exchange_low_trump) is offered to its holder only: a seat that passed
        it holds that card; once the play began with nobody asked, it lies in the stock."""
        game, view = self.game, self.view
        if STEP_EXCHANGE not in game.rules.schedule or self.exchanger >= 0 or view.trump is None or view.trump < 0:
            return
        low = _lowest_trump(game, view.trump)
        passed = _passed_exchange(view.history)
        if passed == NOBODY:
            return
        if passed >= 0:
            if passed != view.seat:
                slots.pin(passed, 1 << low)
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
        cards = self._as_dealt(dealt)
        if d.turned_from_dealer:
            return self._dealer_keeps(dealt, cards)
        taker = self.view.bidder if self.view.bidder is not None else -1
        gets = d.turned_to_taker and self.completed and taker >= 0
        if gets and not self._to_taker(cards[taker]):
            return dealt, None
        packets = [h[:each] for h in cards]
        stock = self._stock(rng, cards, rest, taker if gets else -1)
        if not self._complete(packets, stock):
            return dealt, None
        return packets, stock

    def _complete(self, packets: list[list[int]], stock: list[int]) -> bool:
        """The world deals the exchanged low trump somewhere, and a stock of the game's size."""
        if self.low >= 0 and self.low not in stock and all(self.low not in p for p in packets):
            return False
        return len(stock) == self.game.stock_size

    def _to_taker(self, h: list[int]) -> bool:
        """The taker's cards in an order that gives him the turned card first past the deal (False: they cannot be)."""
        each = self.game.dealt_each
        if self.card not in h or len(h) <= each:
            return False
        h.remove(self.card)
        h.insert(each, self.card)
        return True

    def _as_dealt(self, dealt: list[list[int]]) -> list[list[int]]:
        """A copy of the world's cards as dealt: the exchanger was dealt the low trump, not the turned card."""
        cards = [h[:] for h in dealt]
        if self.exchanger >= 0 and self.low >= 0:
            h = cards[self.exchanger]
            if self.card in h:
                h[h.index(self.card)] = self.low
        return cards

    def _dealer_keeps(self, dealt: list[list[int]], cards: list[list[int]]) -> tuple[list[list[int]],
                                                                                        list[int] | None]:
        """turned_from_dealer: the turned card is the dealer's last card of the packets before it is turned."""
        h = cards[self.view.dealer]
        if self.card not in h or len(h) < self.before:
            return dealt, None
        h.remove(self.card)
        h.insert(self.before - 1, self.card)
        return cards, None if self.game.stock_size else []

    def _stock(self, rng: random.Random, cards: list[list[int]], rest: list[int], taker: int) -> list[int]:
        """The turned card, then each seat's cards past the deal in turn from the first hand (the taker's less the
        turned card he receives), then the unseen cards left in a drawn order, and the bottom card once shown."""
        game = self.game
        each = game.dealt_each
        first = game.first_hand(self.view.dealer)
        stock = [self.card]
        for i in range(game.n):
            s = (first + i) % game.n
            extra = cards[s][each:]
            stock.extend(extra[1:] if s == taker else extra)
        left = list(rest)
        shuffle(rng, left)
        stock.extend(left)
        if self.bottom >= 0:
            stock.append(self.bottom)
        return stock


def _cards_before_turn(schedule: Sequence[int]) -> int:
    """The cards each seat holds when the card is turned: the deal steps before turn_up."""
    k = 0
    for code in schedule:
        if code == STEP_TURN_UP:
            break
        if code > 0:
            k += code
    return k


def _lowest_trump(game: Game, trump: int) -> int:
    """The first copy of the lowest rank of the trump order in suit `trump`."""
    order = game.rules.deck.trump_order
    lowest = max(range(len(order)), key=order.__getitem__) if order else len(game.layout.ranks) - 1
    return game.layout.card_id(trump, lowest, 0)


def _exchanger(view: View) -> int:
    return next((a.seat for a in view.history if a.verb == "exchange"), -1)


NOBODY = -2   # _passed_exchange: the play has not begun


def _passed_exchange(history: Sequence[Action]) -> int:
    """The seat that passed the exchange of the low trump just before the play began (-1: nobody was asked;
    NOBODY: the play has not begun)."""
    first_play = next((i for i, a in enumerate(history) if a.verb in ("play", "announce")), -1)
    if first_play < 0:
        return NOBODY
    i = first_play - 1
    if i >= 1 and history[i].verb == "pass" and history[i - 1].verb != "pass":
        return history[i].seat
    return -1
