"""Why an action is illegal, in words a player understands (the slow path: only on a refused action)."""

from __future__ import annotations

import difflib
from collections.abc import Callable

from engine.cards import SUIT_NAMES
from engine.play.actions import CHANGE, VERBS, Action
from engine.play.auction import bid_span, dealer_forced, min_bid, one_suit_barred
from engine.play.base import (
    ANSWER,
    AUCTION,
    CHOOSE,
    DECLARE,
    DOUBLING,
    EXCHANGE,
    INDICATOR,
    PHASE_NAMES,
    PLAY,
    POINTLESS,
    RAISE,
    TAKE,
    TRUMP,
    TRUMP_IF_ABLE,
    StateData,
)
from engine.play.contract import holding
from engine.play.obligations import why_refused
from engine.play.rules import (
    DECLARE_BEFORE_TRICK,
    DECLARE_IN_AUCTION,
    SWEEP_FORBIDDEN,
    SWEEP_REQUIRED,
    ContractRules,
    PairRules,
)
from engine.play.sure_sweep import is_sure_sweep
from engine.play.turned import VERBS_HERE as TURNED_VERBS
from engine.play.turned import why_not as turned_why


def _suit_name(state: StateData, suit: int) -> str:
    return SUIT_NAMES[state.game.layout.suits[suit]]


def why_illegal(state: StateData, a: Action) -> str:
    """A one-line reason; assumes `a` is not among `state.legal_actions()`."""
    if state.status != "in_progress":
        return "the hand is over"
    if a.seat != state.to_act:
        return f"it is seat {state.to_act}'s turn, not seat {a.seat}'s"
    verbs = {x.verb for x in state.legal_actions()}
    if a.verb not in VERBS and a.verb not in state.game.doubling_names:
        hint = difflib.get_close_matches(a.verb.lower(), sorted(verbs | set(VERBS)), n=1, cutoff=0.6)
        return f"unknown action {a.verb!r}" + (f" (did you mean '{hint[0]}'?)" if hint else
                                              f"; you may: {', '.join(sorted(verbs))}")
    return _why_known_verb(state, a, verbs)


def _why_known_verb(state: StateData, a: Action, verbs: set[str]) -> str:
    """A verb the engine knows: the reason of the module that owns it, else of the phase."""
    ph = state.phase
    if ph == TAKE or ph == CHOOSE or ph == EXCHANGE or a.verb in TURNED_VERBS:
        return turned_why(state, a)
    if ph == AUCTION and a.verb == "bid":
        return _why_bid(state, a)
    if a.verb == "declare" and a.arg in state.game.contracts:
        return _why_declare(state, a)
    if a.verb not in verbs:
        return _wrong_verb(state, a, verbs)
    return _why_argument(state, a)


def _why_argument(state: StateData, a: Action) -> str:
    """A verb allowed now with an argument that is not: the card, the raise, the change mark, the trump."""
    ph = state.phase
    if ph == PLAY and a.verb == "play":
        return _why_card(state, a)
    if ph == RAISE:
        lo, hi = bid_span(state, a.seat)
        return f"a raise must be at least {state.atable.values[lo]}" if lo <= hi else "no raise is possible"
    if ph == AUCTION and a.arg == CHANGE:
        return "only the contract holder marks a speech change, in the second auction"
    if ph == TRUMP:
        return f"'{a.notation}' is not a trump choice you can make (you may: " + \
            ", ".join(x.notation for x in state.legal_actions()) + ")"
    return f"'{a.notation}' is not allowed now"


def _why_declare(state: StateData, a: Action) -> str:
    """Why a declaration the rule file defines cannot be made now: its window, who may make it, his cards."""
    c = state.game.contracts[a.arg]
    if state.special is not None:
        return f"{state.special.name} is already declared"
    window = _DECLARE_WINDOWS.get(c.window, _after_deal)(state, c, a.seat)
    if window:
        return window
    if not c.anyone and not c.sole_winner and a.seat != state.bidder:
        return f"only the bidder may declare {c.name}"
    sure = is_sure_sweep(state.game, holding(state, a.seat))
    if c.sure_sweep == SWEEP_FORBIDDEN and sure:
        return f"{c.name} may not be declared with a sure sweep (cards certain to win every trick)"
    if c.sure_sweep == SWEEP_REQUIRED and not sure:
        return f"{c.name} needs a sure sweep: every card must beat, or be covered against, the cards of its suit " \
               "the holder lacks"
    return f"'{a.notation}' is not allowed now"


def _in_auction(state: StateData, c: ContractRules, seat: int) -> str:
    if state.phase != AUCTION or state.round != 1:
        return f"{c.name} is declared at one's turn in the first auction"
    return ""


def _before_trick(state: StateData, c: ContractRules, seat: int) -> str:
    if state.phase != PLAY or state.trick_cards or len(state.tricks) + 1 != c.trick:
        return f"{c.name} is declared before leading trick {c.trick}"
    if c.sole_winner and state.tricks_won_by[seat] != len(state.tricks):
        return f"only a player who has won every trick so far himself may declare {c.name}"
    return ""


def _after_deal(state: StateData, c: ContractRules, seat: int) -> str:
    if state.phase != DECLARE:
        return f"{c.name} is declared after the full deal, when the players are asked in turn"
    return ""


# Whether a declaration's window is open now, by its window: the first auction, before its trick, after the deal.
_DECLARE_WINDOWS: dict[int, Callable[[StateData, ContractRules, int], str]] = {
    DECLARE_IN_AUCTION: _in_auction, DECLARE_BEFORE_TRICK: _before_trick}


def _wrong_verb(state: StateData, a: Action, verbs: set[str]) -> str:
    """Why a known verb is not among the legal ones: each verb's own reason, else what the phase allows."""
    ph = state.phase
    forced = _forced_speech(state, a, verbs)
    if forced:
        return forced
    if ph in (AUCTION, RAISE) and a.verb in state.game.doubling_names:
        return _why_auction_double(state, a)
    why = _VERB_REASONS.get(a.verb)
    if why is not None:
        return why(state, a.seat)
    if ph in (DOUBLING, DECLARE, POINTLESS, ANSWER, RAISE, TRUMP):
        allowed = ", ".join(sorted({x.notation.split()[0] for x in state.legal_actions()}))
        return f"during the {PHASE_NAMES[ph]} you may: {allowed}"
    return f"'{a.verb}' is not allowed during the {PHASE_NAMES[ph]}"


def _forced_speech(state: StateData, a: Action, verbs: set[str]) -> str:
    """A pass or a card where the player owes something else: a bid, or a call for the trump."""
    if a.verb == "pass" and state.phase == AUCTION:
        if dealer_forced(state, a.seat):
            return f"everybody else passed: the dealer must bid {state.game.rules.auction.forced_bid}"
        return "the first hand must open the bidding"
    if a.verb == "call":
        return _why_call(state, a.seat)
    if a.verb == "play" and "call" in verbs and state.phase == PLAY:
        return "you must call for the trump: you are the first player unable to follow suit"
    return ""


def _why_call(state: StateData, p: int) -> str:
    """Why seat `p` may not call for the concealed trump now."""
    g = state.game
    if g.rules.play.blind_cut:
        return ("there is no call for the trump in this game: a player who cannot follow suit while it is "
                "concealed plays a card face down")
    if state.phase != PLAY:
        return "there is no trump to call for now"
    if not state.concealed:
        return "the trump is already exposed"
    if state.trick_cards and state.hands[p] & g.suit_masks[g.suit_of[state.trick_cards[0]]]:
        return "you can follow suit, so you may not call for the trump"
    if p == state.folder and state.trick_cards and g.suit_of[state.trick_cards[0]] == state.trump:
        return "the bidder may not expose the trump when another player leads the trump suit"
    return "you may not call for the trump now"


def _why_partner(state: StateData, p: int) -> str:
    if state.phase not in (AUCTION, RAISE) or not state.arules.partner_speech:
        return "there is no partner speech here"
    if state.asker >= 0:
        return "the speech was handed back to you: bid or pass" if p == state.asker else \
            "you may hand the speech back only once"
    return "you have no partner to speak for you"


def _why_redeal(state: StateData, p: int) -> str:
    if state.phase == TRUMP:
        return "you may ask for a new deal only with few enough points in your cards"
    return "you may demand a redeal only with a pointless hand at your first turn"


def _why_show(state: StateData, p: int) -> str:
    if not state.game.has_pair:
        return "this game has no pair to show"
    return _why_pair(state, p)


def _why_surrender(state: StateData, p: int) -> str:
    if not state.game.has_surrender:
        return "this game has no surrender"
    if state.bidder >= 0 and state.hand_team_of[p] == state.hand_team_of[state.bidder]:
        return "only the bidding team's opponents may offer to surrender"
    if state.surrender:
        return "a surrender has already been offered"
    return "the opponents may offer to surrender only while the bidding team has won every trick"


def _why_announce(state: StateData, p: int) -> str:
    from engine.play.combinations import announcing, hand_melds

    if not announcing(state):
        return "there are no melds to announce in this game"
    if state.phase != PLAY or state.tricks:
        return "melds are announced in trick 1 only, at one's turn before one's card"
    if state.announced >> p & 1:
        return "you have announced your melds already"
    if p in state.trick_seats:
        return "melds are announced before one's card to trick 1, not after it"
    if not hand_melds(state, p, state.hands[p]):
        return "you hold no meld to announce"
    return "you may not announce now"


def _why_pair(state: StateData, p: int) -> str:
    """The first condition of the pair rule that fails, in the order the state checks them."""
    pr = state.game.rules.pair
    if pr is None or state.special is not None or state.trump < 0:
        return "there is no trump whose pair could be shown now"
    team = state.hand_team_of[p]
    return (_pair_closed(state, pr, p) or _pair_not_held(state, pr, p) or _pair_too_early(state, pr, team)
            or _pair_bid_barred(state, pr, team) or "you cannot show a pair now")


def _pair_closed(state: StateData, pr: PairRules, p: int) -> str:
    """The trump still concealed, or this side's pair already shown."""
    if state.concealed and (pr.needs_trump_exposed or p != state.indicator_owner):
        return "a pair may be shown only once the trump is exposed"
    team = state.hand_team_of[p]
    if any(state.hand_team_of[s] == team for s in state.pair_shown_by):
        return "your side has already shown a pair"
    return ""


def _pair_not_held(state: StateData, pr: PairRules, p: int) -> str:
    g = state.game
    names = " and ".join(g.rules.deck.ranks[r] for r in pr.ranks)
    for r in pr.ranks:
        if not state.hands[p] & state.trump_mask & g.rank_masks[r]:
            return f"a pair is {names} of the trump suit, and you do not hold both"
    return ""


def _pair_too_early(state: StateData, pr: PairRules, team: int) -> str:
    """The pair's timing: after a trick won by the side, or right after it."""
    if pr.needs_won_trick and not any(state.hand_team_of[t.winner] == team for t in state.tricks):
        return "a pair may be shown only after your side has won a trick"
    if pr.right_after_winning and not (state.tricks and state.hand_team_of[state.tricks[-1].winner] == team):
        return "a pair may be shown only right after your side has won a trick"
    return ""


def _pair_bid_barred(state: StateData, pr: PairRules, team: int) -> str:
    if team != state.hand_team_of[state.bidder] or pr.bidding_team_adjust(state.bid) is not None:
        return ""
    allowed = [f"{b.lo}-{b.hi}" if b.lo != b.hi else str(b.lo) for b in pr.bidding_team if b.adjust is not None]
    where = f" (it may at bids {', '.join(allowed)})" if allowed else ""
    return f"the bidding team may not show a pair at a bid of {state.bid}{where}"


# The verbs whose refusal has a reason of its own, whatever the phase (after the auction's doubling words).
_VERB_REASONS: dict[str, Callable[[StateData, int], str]] = {
    "partner": _why_partner,
    "redeal": _why_redeal,
    "announce": _why_announce,
    "show": _why_show,
    "surrender": _why_surrender,
}

def _why_auction_double(state: StateData, a: Action) -> str:
    g = state.game
    d = g.rules.doubling
    if d is None or not g.auction_doubling:
        return f"'{a.verb}' is not said in the auction here"
    names = [st.name for st in d.steps]
    k = names.index(a.verb)
    if state.high_bidder < 0 or not state.round_bids:
        return "there is no bid to double yet"
    if k < state.dbl_step:
        return f"{a.verb} has already been said on this bid"
    if k > state.dbl_step:
        return f"{a.verb} comes after {names[state.dbl_step]}"
    if state.asker >= 0:
        return "while speaking for a partner only a bid or a pass is allowed"
    return _double_side(state, a, d.steps[k].by_bidding_team) or f"{a.verb} would pass the cap of x{d.cap}"


def _double_side(state: StateData, a: Action, by_bidders: bool) -> str:
    """Whether the doubling step is said by the right side: the standing bidder's or its opponents."""
    ours = state.hand_team_of[a.seat] == state.hand_team_of[state.high_bidder]
    if ours and not by_bidders:
        return f"only an opponent of the standing bid may {a.verb} it"
    if not ours and by_bidders:
        return f"only the standing bidder's side may {a.verb}"
    return ""


def _why_bid(state: StateData, a: Action) -> str:
    """The first rule of the auction a bid breaks, checked in order: its form, the bidder, its value, its minimum."""
    parts = a.arg.split()
    if parts and parts[-1] == CHANGE:
        if not any(x.arg.endswith(CHANGE) for x in state.legal_actions()):
            return "only the contract holder marks a speech change, in the second auction"
        parts = parts[:-1]
    if not parts or not parts[0].isdigit():
        return _not_a_number(state)
    v = int(parts[0])
    return _bid_form(state, parts) or _bid_bidder(state, a) or _bid_value(state, v) or _bid_minimum(state, a, v)


def _not_a_number(state: StateData) -> str:
    return "a bid is a number" + (" and a suit or NT, e.g. 'bid 30 S'" if state.game.rules.trump.in_bid else "")


def _bid_form(state: StateData, parts: list[str]) -> str:
    """A bid names a trump exactly when the file's bids name one."""
    g = state.game
    in_bid = g.rules.trump.in_bid
    if in_bid and (len(parts) != 2 or parts[1] not in g.bid_suits):
        what = "a trump suit, no-trumps or a trump mode" if g.mode_names else "a trump suit or no-trumps"
        return f"a bid names {what}: {' '.join(g.bid_suits)}"
    if not in_bid and len(parts) != 1:
        return "a bid is just a number here"
    return ""


def _bid_bidder(state: StateData, a: Action) -> str:
    """Whether this seat may bid at all now: one-suited hands, opponents only, no overbidding a partner."""
    au = state.arules
    if one_suit_barred(state, a.seat):
        return "you may not bid while holding cards of one suit only"
    hb = state.high_bidder
    if au.only_opponents and hb >= 0 and state.hand_team_of[hb] == state.hand_team_of[a.seat]:
        return ("only an opponent of the standing bidder may bid" if hb != a.seat
                else "you hold the standing bid: only your opponents may bid now")
    if _overbids_partner(state, a.seat):
        return "you may not overbid your partner's bid"
    return ""


def _overbids_partner(state: StateData, seat: int) -> bool:
    """A bid over the partner's standing bid, where partner_overcall forbids it."""
    g = state.game
    au = state.arules
    po = au.partner_overcall
    hb = state.high_bidder
    return (po is not None and po.forbidden and min_bid(state, seat) > au.top and hb >= 0
            and g.team_of[hb] == g.team_of[seat])


def _bid_value(state: StateData, v: int) -> str:
    """Whether the number is one of the auction's bid values at all."""
    au = state.arules
    if v > au.top:
        return f"bids go up to {au.top}"
    if v >= au.bid_min and v not in state.atable.values:
        extra = [x for x in au.values if x > au.bid_max]
        if extra:
            return (f"bids go in steps of {au.bid_step} from {au.bid_min} to {au.bid_max}, then "
                    f"{', '.join(str(x) for x in extra)}")
        return f"bids go in steps of {au.bid_step}"
    return ""


def _bid_minimum(state: StateData, a: Action, v: int) -> str:
    """The lowest bid this seat may make now, and the rule that sets it."""
    au = state.arules
    table = state.atable
    lo_value = min_bid(state, a.seat)
    lo = table.values[table.index_at_least(lo_value)] if table.index_at_least(lo_value) < table.count else au.top
    if dealer_forced(state, a.seat):
        return f"the dealer must bid {au.forced_bid}"
    if state.high_bidder >= 0 and v <= state.high:
        return f"a bid must be higher than {state.high}"
    if au.exact_step:
        return f"each bid is exactly the next one above the standing bid: {lo}"
    return _bid_floor(state, lo_value, v) or f"a bid must be at least {lo}"


def _bid_floor(state: StateData, lo_value: int, v: int) -> str:
    """The auction rule that raised this seat's minimum to `lo_value`, if the bid is below it."""
    au = state.arules
    po = au.partner_overcall
    floors = ((po.min if po is not None else -1, "to overcall your partner's bid after a pass you must bid at least"),
              (au.second_bid_min, "a second bid must be at least"),
              (au.after_first_speech_min, "once you have spoken, your bids must be at least"))
    for floor, words in floors:
        if floor >= 0 and lo_value == floor and v < floor:
            return f"{words} {floor}"
    return ""


def _why_card(state: StateData, a: Action) -> str:
    """Why a card may not be played: not held, a caller's duty, the folded indicator, the lead, then following."""
    g = state.game
    p = a.seat
    try:
        ids = g.layout.ids_of_code(a.arg)
    except ValueError as e:
        return str(e)
    if not any(_held_or_folded(state, p) >> c & 1 for c in ids):
        return f"you do not hold {a.arg}"
    card = ids[0]
    if state.caller == p:
        return _caller_duty(state)
    if _is_folded_card(state, p, ids):
        return _folded_card(state)
    if not state.trick_cards:
        if state.concealed and p == state.folder and g.suit_of[card] == state.trump:
            return "the bidder may not lead the concealed trump suit while holding other suits"
        return f"you may not lead {a.arg} now"
    return _why_not_following(state, a, card)


def _held_or_folded(state: StateData, p: int) -> int:
    """`p`'s cards, with the folded trump card for its folder."""
    return state.hands[p] | (1 << state.indicator if p == state.folder and state.indicator >= 0 else 0)


def _is_folded_card(state: StateData, p: int, ids: list[int]) -> bool:
    """The card named is the folded indicator, still face down, and not a copy in the folder's hand."""
    return (state.concealed and p == state.folder and state.indicator >= 0
            and any(c == state.indicator for c in ids) and not state.hands[p] >> state.indicator & 1)


def _caller_duty(state: StateData) -> str:
    """The card a player who called for the trump owes now."""
    if state.constraint == INDICATOR:
        return "you exposed the trump and must now play the indicator card"
    if state.constraint == TRUMP_IF_ABLE:
        return f"you called for the trump and must play a trump ({_suit_name(state, state.trump)})"
    return "you called for the trump and must play a trump"


def _folded_card(state: StateData) -> str:
    """Why the folded trump card may not be played from the table yet."""
    if state.game.rules.play.blind_cut:
        return ("the folded card is played only to cut a suit led by another that you cannot follow, or as "
                "your last card")
    return "the indicator is face down: expose it by calling before you play it"


def _why_not_following(state: StateData, a: Action, card: int) -> str:
    """Why `card` may not be played to a trick already led: obligations, following suit, the concealed trump."""
    g = state.game
    p = a.seat
    led = g.suit_of[state.trick_cards[0]]
    if g.rules.play.obligations is not None and not state.concealed:
        return why_refused(state, p, card)
    if state.hands[p] & g.suit_masks[led]:
        return f"you must follow {_suit_name(state, led)}"
    if state.concealed and p == state.folder and g.suit_of[card] == state.trump:
        if g.rules.play.blind_cut:
            return ("the bidder may not play a card of the concealed trump suit from hand: play another suit "
                    "face down, or cut with the folded card")
        return ("the bidder may not play a card of the concealed trump suit from hand: discard another suit, "
                "or call and play the indicator")
    if g.rank_of[card] in g.rules.play.no_discard_ranks and not state.led_suits >> g.suit_of[card] & 1:
        return f"you may not discard the {g.layout.ranks[g.rank_of[card]]} of a suit that has not been led"
    return f"you may not play {a.arg} now"
