"""The deal's stock, the turned card and the trump choices made without an auction (schedule steps `turn_up`,
`take_or_pass`, `complete`, `choose_trump`, `stock`, `exchange_low_trump`).

- The stock: the cards no deal step gives, in order (`State.stock`, shared by clones, never changed). It is in no
  view, observation or message; only the turned card and, where the file says so, its bottom card are shown.
- `turn_up`: the stock's next card is turned face up (`State.turned`, public).
- `take_or_pass`: round 1 from the first hand: `take` (the turned suit is trumps; the taker holds the contract)
  or `pass`; round 2: `trump SUIT` naming another suit, or `pass`. Everyone passing twice throws the cards in
  (match.next_dealer.after_all_pass). With `schmeiss`, a player may offer to throw in; the other says `accept`
  (the same dealer deals again) or `refuse` (he makes the trump: the turned suit in round 1, a suit he must name
  in round 2).
- `complete`: from the first hand, the taker receives the turned card (where the file says so) and `taker` cards
  of the stock, every other player `others`; then, with show_bottom, the stock's bottom card is shown.
- `choose_trump`: the first hand names the trump (`trump SUIT`), or with may_push says `push`: his partner must
  then name it. The chooser is the hand's bidder; the first hand still leads.
- `exchange_low_trump`: the holder of the trump suit's lowest rank (the last of its trump order) may `exchange` it for
  the card lying face up, or `pass`.

Functions over the state, as melds.py and claims.py are; State calls `run_step` from its schedule and `legal` /
`apply` in the phases TAKE, CHOOSE and EXCHANGE.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.play.actions import Action
from engine.play.base import ANNUL_ALL_PASS, ANNUL_SCHMEISS, CHOOSE, EXCHANGE, TAKE, StateData
from engine.play.rules import (
    STEP_CHOOSE_TRUMP,
    STEP_COMPLETE,
    STEP_EXCHANGE,
    STEP_TAKE_OR_PASS,
    STEP_TURN_UP,
)
from engine.play.trump_modes import set_named_trump

NO_CARD: Final = -1


def run_step(st: StateData, code: int) -> bool:
    """One schedule step of this module; True when the hand now waits for a player (or stopped)."""
    if code == STEP_TURN_UP:
        if st.game.rules.deal.turned_from_dealer:   # the dealer's last card, shown: he keeps it
            card = st.dealt[st.dealer][st.given[st.dealer] - 1]
            st.shown[st.dealer] |= 1 << card
        else:
            card = st.stock[st.stock_used]
            st.stock_used += 1
        st.turned = st.turned_card = card
        st.turned_suit = st.game.suit_of[card]
        return False
    if code == STEP_TAKE_OR_PASS:
        st.phase = TAKE
        st.take_round = 1
        st.take_spoke = 0
        st.to_act = st.first
        return True
    if code == STEP_COMPLETE:
        return _complete(st)
    if code == STEP_CHOOSE_TRUMP:
        st.phase = CHOOSE
        st.pushed = False
        st.to_act = st.first
        return True
    if code == STEP_EXCHANGE:
        return _start_exchange(st)
    return False   # STEP_STOCK: the rest stays undealt


def _other_suits(st: StateData, p: int) -> list[Action]:
    g = st.game
    return [g.action(p, "trump", s) for i, s in enumerate(g.layout.suits) if i != st.turned_suit]


def choice_words(st: StateData) -> list[str]:
    """What `trump` may name at a choose_trump step: every suit, NT where the file allows no-trumps, and the
    file's named trump modes (trump.modes)."""
    g = st.game
    words = list(g.layout.suits)
    if g.rules.trump.no_trumps:
        words.append("NT")
    words.extend(g.mode_names)
    return words


def legal(st: StateData) -> Sequence[Action]:
    g = st.game
    p = st.to_act
    ph = st.phase
    if ph == CHOOSE:
        return _choose_legal(st, p)
    if ph == EXCHANGE:
        return [g.action(p, "exchange"), g.action(p, "pass")]
    if st.schmeiss_by >= 0:
        return [g.action(p, "accept"), g.action(p, "refuse")]
    if st.must_name:
        if g.rules.deal.first_hand_names:
            return [g.action(p, "trump", x) for x in g.layout.suits]
        return _other_suits(st, p)
    return _take_or_pass(st, p)


def _take_or_pass(st: StateData, p: int) -> list[Action]:
    """A turn of take_or_pass with no schmeiss pending and no suit to be named."""
    g = st.game
    d = g.rules.deal
    if st.take_round == 1:
        out = [g.action(p, "take"), g.action(p, "pass")]
    else:
        out = _other_suits(st, p)
        if not (d.dealer_must_choose and p == st.dealer):
            out.append(g.action(p, "pass"))
    if d.schmeiss and (st.take_round == 1 or p != st.dealer):   # the second round's last word names or passes
        out.append(g.action(p, "schmeiss"))
    return out


def _choose_legal(st: StateData, p: int) -> tuple[Action, ...]:
    """`p`'s choice at a choose_trump step: a suit, NT or a mode, and the push while he may (one tuple per seat
    and push, kept by the game: the same every hand)."""
    g = st.game
    push = g.rules.deal.may_push and not st.pushed and partner_of(st, p) >= 0
    key = 2 * p + (1 if push else 0)
    out = g.choose_actions.get(key)
    if out is None:
        made = [g.action(p, "trump", w) for w in choice_words(st)]
        if push:
            made.append(g.action(p, "push"))
        out = g.choose_actions[key] = tuple(made)
    return out


def apply(st: StateData, a: Action) -> None:
    ph = st.phase
    if ph == CHOOSE:
        _choose_apply(st, a)
    elif ph == EXCHANGE:
        _exchange_apply(st, a)
    else:
        _take_apply(st, a)


def partner_of(st: StateData, seat: int) -> int:
    """The seat's one partner (-1: none, or more than one)."""
    team = st.game.rules.table.teams[st.game.team_of[seat]]
    if len(team) != 2:
        return -1
    return team[1] if team[0] == seat else team[0]


# --- take or pass ------------------------------------------------------------------------------------------
def _take_apply(st: StateData, a: Action) -> None:
    p = a.seat
    verb = a.verb
    g = st.game
    if verb == "schmeiss":
        st.schmeiss_by = p
        st.to_act = (p + 1) % st.n
        return
    if verb == "accept":
        st.schmeiss_by = -1
        st._annul(f"seat {p} accepted the schmeiss", ANNUL_SCHMEISS)
        return
    if verb == "refuse":
        st.schmeiss_by = -1
        if st.take_round == 1:
            _make(st, p, st.turned_suit)
        else:
            st.must_name = True
            st.to_act = p
        return
    if verb == "take":
        _make(st, p, st.turned_suit)
        return
    if verb == "trump":
        st.must_name = False
        _make(st, p, g.layout.parse_suit(a.arg))
        return
    # pass
    st.take_spoke += 1
    if st.take_spoke < st.n:
        st.to_act = (p + 1) % st.n
    elif st.take_round == 1:
        st.take_round = 2
        st.take_spoke = 0
        st.to_act = st.first
        st.must_name = g.rules.deal.first_hand_names   # no second round: the first hand must name the trump
    else:
        st._annul("every player passed twice", ANNUL_ALL_PASS)


def _make(st: StateData, p: int, suit: int) -> None:
    """`p` makes the trump `suit`: he holds the hand's contract."""
    st.bidder = st.high_bidder = p
    st.contract_round = st.take_round
    st.take_round = 0
    st._set_bid(0)
    _fix_trump(st, suit)
    if st.game.rules.deal.turned_from_dealer:
        st.turned = NO_CARD      # the dealer takes his card up
    st._next_step()


def _fix_trump(st: StateData, suit: int) -> None:
    st._set_trump(suit)
    st.concealed = False
    st.exposed_trick = 1 if suit >= 0 else 0


# --- completing the deal from the stock --------------------------------------------------------------------
def _complete(st: StateData) -> bool:
    g = st.game
    d = g.rules.deal
    taker = st.bidder
    pos = st.stock_used
    stock = st.stock
    dealt = [h[:] for h in st.dealt]     # a new list: the old one is shared with clones
    for i in range(st.n):
        seat = (st.first + i) % st.n
        cards: list[int] = []
        k = d.complete_others
        if seat == taker:
            k = d.complete_taker
            if d.turned_to_taker and st.turned >= 0:
                cards.append(st.turned)
                st.shown[seat] |= 1 << st.turned   # everyone saw it picked up
                st.turned = NO_CARD
        cards.extend(stock[pos:pos + k])
        pos += k
        given = st.given[seat]
        dealt[seat] = dealt[seat][:given] + cards
        packet = 0
        for c in cards:
            packet |= 1 << c
        st.hands[seat] = st.hands[seat] | packet
        st.received[seat] = st.received[seat] | packet
        st.given[seat] = given + len(cards)
    st.dealt = dealt
    st.stock_used = pos
    if d.show_bottom and pos < len(stock):
        st.bottom_shown = stock[-1]
    return st._after_full_deal()


# --- choose the trump (no auction) -------------------------------------------------------------------------
def _choose_apply(st: StateData, a: Action) -> None:
    p = a.seat
    if a.verb == "push":
        st.pushed = True
        st.to_act = partner_of(st, p)
        return
    st.bidder = st.high_bidder = p
    st._set_bid(0)
    set_named_trump(st, a.arg)     # a suit, NT or a named mode
    st.concealed = False
    st.exposed_trick = 1 if st.trump >= 0 else 0
    st._next_step()


# --- exchanging the lowest trump for the turned card -------------------------------------------------------
def low_trump(st: StateData) -> int:
    """The card id of the trump suit's lowest rank (the last of deck.trump_ranks, else of deck.ranks); -1 with no
    trump suit."""
    g = st.game
    if st.trump < 0:
        return NO_CARD
    order = g.rules.deck.trump_order
    lowest = max(range(len(order)), key=order.__getitem__) if order else len(g.layout.ranks) - 1
    return g.layout.card_id(st.trump, lowest, 0)


def _start_exchange(st: StateData) -> bool:
    low = low_trump(st)
    if low < 0 or st.turned < 0:
        return False
    for s in range(st.n):
        if st.hands[s] >> low & 1:
            st.phase = EXCHANGE
            st.to_act = s
            return True
    return False


def _exchange_apply(st: StateData, a: Action) -> None:
    p = a.seat
    if a.verb == "exchange":
        low = low_trump(st)
        st.hands[p] = (st.hands[p] & ~(1 << low)) | (1 << st.turned)
        st.received[p] = (st.received[p] & ~(1 << low)) | (1 << st.turned)   # the low trump is no longer his
        st.shown[p] |= 1 << st.turned
        st.turned = low
    st._next_step()


# --- why an action is refused ------------------------------------------------------------------------------
VERBS_HERE: Final = ("take", "push", "schmeiss", "exchange")


def _why_take(st: StateData, a: Action) -> str | None:
    if st.phase != TAKE:
        return "there is no turned card to take now"
    if st.schmeiss_by >= 0:
        return "a schmeiss was offered: accept or refuse it"
    return "in the second round the turned suit may no longer be taken: name another suit or pass"


def _why_push(st: StateData, a: Action) -> str | None:
    if not st.game.rules.deal.may_push:
        return "there is no push in this game now"
    if st.phase != CHOOSE:
        return "there is nothing to push now"
    return "the choice was pushed to you: you must name the trump"


def _why_schmeiss(st: StateData, a: Action) -> str | None:
    if not st.game.rules.deal.schmeiss:
        return "this game has no schmeiss"
    return "a schmeiss is offered only at one's turn to take or pass"


def _why_exchange(st: StateData, a: Action) -> str | None:
    return "only the holder of the lowest trump may exchange it for the card face up, before the first lead"


def _why_trump(st: StateData, a: Action) -> str | None:
    if st.phase != TAKE:
        return None
    if st.take_round == 1 and not st.must_name:
        return "in the first round you take the turned suit (`take`) or pass"
    suits = st.game.layout.suits
    if a.arg in suits and suits.index(a.arg) == st.turned_suit:
        return "the turned suit was refused in the first round: name another suit"
    return None


def _why_pass(st: StateData, a: Action) -> str | None:
    if st.phase != TAKE:
        return None
    if st.must_name and st.game.rules.deal.first_hand_names:
        return "everyone passed: the first hand must name the trump"
    if st.must_name:
        return "you refused the schmeiss: you must name a suit"
    return "the dealer may not pass in the second round: he must name a suit"


_WHY_VERB: Final = {"take": _why_take, "push": _why_push, "schmeiss": _why_schmeiss, "exchange": _why_exchange,
                    "trump": _why_trump, "pass": _why_pass}


def why_not(st: StateData, a: Action) -> str:
    """A player's reason why `a` (not legal now) is refused, in the phases and verbs of this module."""
    why = _WHY_VERB.get(a.verb)
    reason = why(st, a) if why is not None else None
    if reason is not None:
        return reason
    if st.phase in (TAKE, CHOOSE, EXCHANGE):
        may = ", ".join(sorted(x.notation for x in legal(st)))
        return f"'{a.notation}' is not allowed now (you may: {may})"
    return f"'{a.notation}' is not allowed now"
