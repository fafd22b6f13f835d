"""Shared by the web tests: what a seat must not see at a moment of a hand, and a scan of a message's raw bytes for
it (cards held by other seats, a concealed trump), plus a simple policy that answers a seat's decision."""

from __future__ import annotations

import json
import re
from typing import Any

from engine.cards import SUIT_NAMES, SUIT_SYMBOLS, bits
from engine.play.actions import Action
from engine.play.state import State
from engine.web.table import Table

CARD_WORDS = {"J": "Jack", "9": "Nine", "A": "Ace", "T": "Ten", "K": "King", "Q": "Queen", "8": "Eight",
              "7": "Seven"}


def card_words(code: str) -> str:
    return f"{CARD_WORDS.get(code[:-1], code[:-1])} of {SUIT_NAMES[code[-1]]}"


def state_at(table: Table, hand: int, step: int) -> State:
    """Hand `hand` (1-based) of the table after its first `step` actions, rebuilt from its deal and history."""
    if hand <= len(table.finished):
        done = table.finished[hand - 1].state
        dealt, dealer, history, stock = done.dealt, done.dealer, done.history, done.stock
    else:
        assert table.state is not None
        st = table.state
        dealt, dealer, history, stock = st.dealt, st.dealer, st.history, st.stock
    # a deal completed from the stock (take or pass) lists the stock's cards after the first packets: the hand
    # is rebuilt from those packets and the stock
    from_stock = set(stock)
    state = table.game.new_hand(dealer, hands=[[c for c in h if c not in from_stock] for h in dealt],
                                stock=list(stock) if stock else None)
    for a in history[:step]:
        state.apply(a)
    return state


def hidden_cards(state: State, seat: int) -> set[str]:
    """Codes of the cards other seats hold, the stock's undealt cards (and a concealed indicator `seat` does not
    own), less the seat's own copies in a double pack, cards already on the table and a card lying face up."""
    g = state.game
    own = {g.codes[c] for c in bits(state.hands[seat])} if seat >= 0 else set()
    if seat >= 0 and state.concealed and state.indicator >= 0 and seat == state.folder:
        own.add(g.codes[state.indicator])
    hidden: set[str] = set()
    for s in range(g.n):
        if s != seat:
            hidden |= {g.codes[c] for c in bits(state.hands[s])}
    if state.indicator >= 0:
        if state.concealed and seat != state.folder:
            hidden.add(g.codes[state.indicator])
        elif not state.concealed:
            hidden.discard(g.codes[state.indicator])  # exposed: shown face up to everyone, then taken back
    hidden |= {g.codes[c] for c in state.stock[state.stock_used:]}     # never dealt (or not yet): nobody's
    for c in (state.turned, state.turned_card):                        # lying face up, or seen taken from there
        if c >= 0:
            hidden.discard(g.codes[c])
    if state.bottom_shown >= 0:
        hidden.discard(g.codes[state.bottom_shown])                    # shown to everyone
    for s in range(g.n):    # cards of melds shown to everyone (special.melds, combinations) are public
        if s != seat:
            hidden -= {g.codes[c] for c in bits(state.melded[s] & state.hands[s])}
    if g.layout.copies > 1:
        for t in state.tricks:
            hidden -= {g.codes[c] for c in t.cards}
        hidden -= {g.codes[c] for c in state.trick_cards}
    return hidden - own


def concealed_suit(state: State, seat: int) -> str | None:
    if state.concealed and state.trump >= 0 and seat != state.folder:
        return state.game.layout.suits[state.trump]
    return None


def leaks(raw: str, state: State, seat: int) -> list[str]:
    """Every hidden card (as a code, a code with a symbol, or in words) and a concealed trump found in `raw`."""
    found = []
    for code in hidden_cards(state, seat):
        for form in (code, code[:-1] + SUIT_SYMBOLS[code[-1]], card_words(code)):
            if re.search(rf"(?<![A-Za-z0-9_-]){re.escape(form)}(?![A-Za-z0-9_-])", raw):
                found.append(form)
    suit = concealed_suit(state, seat)
    if suit is not None:
        names = f"{SUIT_NAMES[suit]}|{SUIT_SYMBOLS[suit]}"
        if re.search(rf"trump[^,\]}}]{{0,40}}?({names})", raw, re.IGNORECASE):
            found.append(f"trump {suit}")
        if re.search(rf'"trump":"{suit}"', raw):
            found.append(f'"trump":"{suit}"')
    return found


def check_message(raw: str, table: Table, seat: int) -> dict[str, Any]:
    """Parse one message a seat received and assert it shows nothing the seat may not know at that moment."""
    msg: dict[str, Any] = json.loads(raw)
    if msg.get("type") != "state" or msg.get("hand") is None:
        return msg
    step = len(msg["hand"]["view"]["history"])
    state = state_at(table, msg["table"]["hand"], step)
    found = leaks(raw, state, seat)
    assert not found, (seat, found, raw[:300])
    if concealed_suit(state, seat) is not None:
        assert msg["hand"]["view"]["trump"] is None
    return msg


def choose(msg: dict[str, Any], k: int) -> str | None:
    """An action for the seat's decision in this state (None: not its turn): the k-th legal action, passing in
    most auctions so hands are quick but some contracts are bid up."""
    hand = msg.get("hand")
    if not hand or not hand["view"]["legal"]:
        return None
    legal: list[str] = hand["view"]["legal"]
    if hand["view"]["phase"] == "auction" and "pass" in legal and k % 4:
        return "pass"
    return legal[k % len(legal)]


def seat_of(action: str) -> int:
    return Action.parse(action).seat
