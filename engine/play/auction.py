"""The auction: who may bid what, when it ends, and what an all-pass means.

Every round of bidding is this one mechanism: the auction on the first cards (round 1) and the round after the
full deal (round 2: the `second_auction` section, or the `raise` section, which is such a round spoken with the
verb `raise`). A round ends when every player other than the standing bidder has passed in a row since the last
bid or doubling step (a round of one turn each: when everyone has spoken). Speeches other than bids and passes:
`partner` (the partner speaks in the asker's place, or hands the speech back once), the doubling steps of a
doubling window inside the auction, and the `change` marker of a holder who lays a new trump card.

Functions over the hand's data (StateData). The special contracts offered as speeches (`declare NAME`) and the
trump step that follows the auction live with the contract steps, which import this module: the auction reaches
them through StateData's hooks (`_declarations_as_bids`, `_declare_in_auction`, `_start_trump`,
`_regroup_for_declarer`), which State implements.
"""

from __future__ import annotations

from typing import Final

from engine.play.actions import Action
from engine.play.base import ANNUL_ALL_PASS, ANNUL_REDEAL, AUCTION, RAISE, UNDECIDED, StateData
from engine.play.rules import (
    ONE_SUIT_FIRST_HAND,
    ONE_SUIT_NOBODY,
    REFOLD_WHEN_BIDDING,
    REFOLD_WHEN_MARKED,
    ROLE_HOLDER,
    ROLE_PARTNERS,
)
from engine.play.trump_modes import set_named_trump

NO_BID: Final = 1 << 30   # a minimum no bid reaches: the player may not bid


def start_auction(st: StateData) -> None:
    g = st.game
    a = g.rules.auction
    st.round = st.contract_round = 1
    st.arules = a
    st.atable = g.rounds[0]
    st.phase = AUCTION
    if a.redeal_automatic:
        for i in range(a.redeal_seats):
            seat = (st.first + i) % st.n
            if _weak_first_cards(st, seat):
                st._annul(f"seat {seat}'s first cards carry {_weak_words(st)}", ANNUL_REDEAL)
                return
    if a.default_bidder:   # the first hand holds a standing bid of 0
        st.high_bidder = st.first
    st.to_act = st.first


def start_second_auction(st: StateData) -> None:
    """The round after the full deal: the contract holder holds the standing bid and speaks first."""
    g = st.game
    a = g.rules.second_auction
    assert a is not None
    st.round = 2
    st.arules = a
    st.atable = g.rounds[1]
    st.phase = RAISE if a.verb == "raise" else AUCTION
    st.high, st.high_bidder = st.bid, st.bidder
    st.passes = st.round_bids = st.passers = 0
    st.last_was_pass = False
    st.lapses = 0
    st.refold = False
    # (bids made, passes and speeches of round 1 count for nothing here: no later round reads them)
    if a.once:
        st.queue = _speakers(st, a.speakers)
        _ask_next_in_turn(st)
    else:
        st.to_act = st.bidder


def _speakers(st: StateData, roles: tuple[int, ...]) -> list[int]:
    """The seats of a round of one turn each, in order: by role, each seat once, round the table from the
    holder (kept per holder: the same few orders recur)."""
    cache = st.atable.speakers_of
    key = st.bidder
    found = cache.get(key)
    if found is not None:
        return list(found)
    order = st._seats_from(st.bidder)
    team = st.hand_team_of[st.bidder]
    out: list[int] = []
    alone = st.game.rules.table.bidder_plays_alone
    for role in roles:
        for s in order:
            if s in out:
                continue
            if role == ROLE_HOLDER:
                wanted = s == st.bidder
            elif role == ROLE_PARTNERS:
                wanted = s != st.bidder and st.hand_team_of[s] == team and not alone
            else:   # ROLE_OTHERS, ROLE_EVERYONE: everyone not listed yet
                wanted = True
            if wanted:
                out.append(s)
    cache[key] = tuple(out)
    return out

# --- who may do what ------------------------------------------------------------------------


def _weak_first_cards(st: StateData, seat: int) -> bool:
    """The seat's cards total no more than the redeal threshold (no points at all, by default)."""
    g = st.game
    limit = g.rules.auction.redeal_max_points
    held = st.hands[seat]
    if not limit:
        return not held & g.point_mask
    return points_in(st, held) <= limit


def points_in(st: StateData, cards: int) -> int:
    points = st.game.points
    total = 0
    while cards:
        low = cards & -cards
        total += points[low.bit_length() - 1]
        cards ^= low
    return total


def _weak_words(st: StateData) -> str:
    limit = st.game.rules.auction.redeal_max_points
    return "no points" if not limit else f"at most {limit} points"


def dealer_forced(st: StateData, seat: int) -> bool:
    return (st.arules.dealer_must_bid and st.high_bidder < 0 and seat == st.dealer
            and st.passes >= st.n - 1)


def min_bid(st: StateData, seat: int) -> int:
    """The lowest value `seat` may bid now (NO_BID: none)."""
    a = st.arules
    lo = _over_standing(st, seat)
    if lo == NO_BID:
        return NO_BID
    po = a.partner_overcall
    if po is not None and _overcalls_partner(st, seat):
        if po.forbidden:
            return NO_BID
        lo = max(lo, po.min)
    if a.second_bid_min >= 0 and st.bids_made[seat]:
        lo = max(lo, a.second_bid_min)
    if a.after_first_speech_min >= 0 and st.spoke[seat]:
        lo = max(lo, a.after_first_speech_min)
    return lo


def _over_standing(st: StateData, seat: int) -> int:
    """The lowest bid over the standing one (the first bid's minimum when none stands; NO_BID: none)."""
    a = st.arules
    hb = st.high_bidder
    if hb < 0:
        return a.bid_min
    if (hb == seat and not a.raise_own) or (st.doubled and st.game.doubling_closes):
        return NO_BID   # not over his own standing bid; no bid after a double that closes the auction
    if a.only_opponents and st.hand_team_of[hb] == st.hand_team_of[seat]:
        return NO_BID
    if a.hold and (seat - st.first) % st.n < (hb - st.first) % st.n:
        return st.high  # an earlier speaker may hold (equal) a later bid
    return st.high + 1


def _overcalls_partner(st: StateData, seat: int) -> bool:
    """auction.partner_overcall applies: the standing bid is the partner's (after a pass, where it says so)."""
    po = st.arules.partner_overcall
    hb = st.high_bidder
    team_of = st.game.team_of
    return (po is not None and hb >= 0 and hb != seat and team_of[hb] == team_of[seat]
            and (st.last_was_pass or not po.only_after_a_pass))


def one_suit_barred(st: StateData, seat: int) -> bool:
    rule = st.game.rules.auction.one_suit_barred
    if rule == ONE_SUIT_NOBODY or st.round != 1 or (rule == ONE_SUIT_FIRST_HAND and seat != st.first):
        return False
    held = st.hands[seat]
    return sum(1 for m in st.game.suit_masks if held & m) == 1


def _may_demand_redeal(st: StateData, seat: int) -> bool:
    a = st.game.rules.auction
    return (not st.spoke[seat] and st.round == 1 and not a.redeal_automatic and st.asker < 0
            and (seat - st.first) % st.n < a.redeal_seats and _weak_first_cards(st, seat))


def bid_span(st: StateData, p: int) -> tuple[int, int]:
    """The indexes (in the round's bids) of the lowest and highest bid `p` may make (lo > hi: none)."""
    a = st.arules
    table = st.atable
    if dealer_forced(st, p):
        i = table.index_at_least(a.forced_bid)
        return i, i
    if table.simple:
        return _span_above_standing(st)
    lo_value = min_bid(st, p)
    if lo_value >= NO_BID or one_suit_barred(st, p):
        return 1, 0
    lo = table.index_at_least(lo_value)
    if lo >= table.count:
        return 1, 0
    return lo, (lo if a.exact_step else table.count - 1)


def _span_above_standing(st: StateData) -> tuple[int, int]:
    """bid_span of a simple table: every value above the standing bid."""
    table = st.atable
    count = table.count
    if st.high_bidder < 0:
        return 0, count - 1
    at_least = table.at_least
    v = st.high + 1
    lo = at_least[v] if v < len(at_least) else count
    return (lo, count - 1) if lo < count else (1, 0)


def _may_pass(st: StateData, p: int, lo: int, hi: int) -> bool:
    """Not the dealer forced to bid, nor a first hand who must open while he can bid."""
    a = st.arules
    if a.dealer_must_bid and dealer_forced(st, p):
        return False
    return not (a.first_hand_must_bid and p == st.first and not st.spoke[p] and lo <= hi)


def auction_legal(st: StateData) -> tuple[Action, ...]:
    a = st.arules
    table = st.atable
    p = st.to_act
    # the common case first: a simple table and no forced dealer (bid_span's own first test)
    lo, hi = _span_above_standing(st) if table.simple and not a.dealer_must_bid else bid_span(st, p)
    may_pass = _may_pass(st, p, lo, hi)
    redeal = a.redeal_seats > 0 and _may_demand_redeal(st, p)
    base = table.choices(p, redeal, may_pass, lo, hi)
    if not table.speeches:
        return base
    extra = _other_speeches(st, p, base, may_pass)
    return base + tuple(extra) if extra else base


def _other_speeches(st: StateData, p: int, base: tuple[Action, ...], may_pass: bool) -> list[Action]:
    """The speeches besides the round's bids and pass: partner, a doubling step, the holder's change mark and
    the special contracts declared as bids."""
    g = st.game
    a = st.arules
    extra: list[Action] = []
    if a.partner_speech and _may_ask_partner(st, p):
        extra.append(g.action(p, "partner"))
    if g.auction_doubling:
        step = _auction_double(st, p)
        if step:
            extra.append(g.action(p, step))
    if st.round == 2 and a.holder_refolds == REFOLD_WHEN_MARKED and p == st.bidder:
        extra.extend(_change_marks(st, p, base, may_pass))
    if g.declarations_in_auction:
        extra.extend(st._declarations_as_bids(p))
    return extra


def _change_marks(st: StateData, p: int, base: tuple[Action, ...], may_pass: bool) -> list[Action]:
    """The holder may say, at any of his speeches, that he will lay a new trump card if he stays holder."""
    g = st.game
    marks = [g.action(p, "pass", "change")] if may_pass else []
    marks.extend(g.action(p, b.verb, b.arg + " change") for b in base if b.verb == st.arules.verb)
    return marks


def _may_ask_partner(st: StateData, p: int) -> bool:
    """`partner`: at one's own turn, or once to hand the speech back."""
    if st.asker >= 0:
        return st.arules.hand_back and not st.handed_back and p != st.asker
    return _partner_of(st, p) >= 0


def _partner_of(st: StateData, seat: int) -> int:
    """The seat's one partner (-1: none, or more than one)."""
    if st.game.rules.table.bidder_plays_alone:
        return -1
    team = st.game.rules.table.teams[st.game.team_of[seat]]
    return team[1] if len(team) == 2 and team[0] == seat else team[0] if len(team) == 2 else -1


def _auction_double(st: StateData, p: int) -> str:
    """The doubling step `p` may say now in the auction ('' for none): the next step of the standing bid, said
    by a player of its side at his turn."""
    d = st.game.rules.doubling
    assert d is not None
    hb = st.high_bidder
    if hb < 0 or not st.round_bids or st.dbl_step >= len(d.steps) or st.asker >= 0:
        return ""
    step = d.steps[st.dbl_step]
    if (st.hand_team_of[p] == st.hand_team_of[hb]) != step.by_bidding_team:
        return ""
    if d.cap and st.multiplier * step.multiplier > d.cap:
        return ""
    return step.name

# --- applying ---------------------------------------------------------------------------------


def auction_apply(st: StateData, a: Action) -> None:
    verb = a.verb
    rules = st.arules
    if verb != "pass" and verb != rules.verb and _other_speech(st, a):
        return
    owner = a.seat if st.asker < 0 else _speech_of_both(st)   # whose turn this speech is
    st.spoke[a.seat] = True
    if verb == "pass":
        if _apply_pass(st, a, owner):
            return
    elif verb == rules.verb:
        if _apply_bid(st, a):
            end_round(st)
            return
    else:   # a doubling step of the standing bid
        _apply_double_step(st)
        st.passes = st.passers = 0
        if st.game.doubling_closes:
            _close_after_double(st, owner)
            return
    _next_speaker(st, owner)


def _speech_of_both(st: StateData) -> int:
    """A partner speaks for the asker: the speech is the asker's turn (returned) and the speech of both - the
    partner's own next turn lapses, he spoke, or handed the speech back."""
    owner = st.asker
    partner = _partner_of(st, owner)
    st.lapses |= 1 << partner
    st.spoke[partner] = True
    st.spoke[owner] = True   # the first speech of both: no redeal, no first-speech bid after it
    st.asker = -1
    st.handed_back = False
    return owner


def _apply_pass(st: StateData, a: Action, owner: int) -> bool:
    """A pass, counted once per player (True: it was said after a double that closes the auction, which the queue
    of the players still entitled to a step takes on)."""
    if a.arg:
        st.refold = True       # `pass change`
    if st.arules.pass_is_final:
        st.passed[owner] = True
    if owner != st.high_bidder and not st.passers >> owner & 1:
        st.passers |= 1 << owner   # each player counts once: a lapsed turn may bring him round again
        st.passes += 1
    st.last_was_pass = True
    if st.doubled and st.game.doubling_closes:
        _closed_pass(st)
        return True
    return False


def _apply_bid(st: StateData, a: Action) -> bool:
    """A bid: the new standing bid (True: it ends the round, forced or at the highest value)."""
    p = a.seat
    rules = st.arules
    forced = rules.dealer_must_bid and dealer_forced(st, p)
    value, suit, change = st.game.bid_terms(a.arg)
    st.high = value
    st.high_suit = suit
    st.high_bidder = p
    if st.round == 2:
        _second_round_bid(st, p, change)
    st.passes = st.passers = 0
    st.bids_made[p] = st.bids_made[p] + 1   # (not +=: see State._deal)
    st.round_bids += 1
    st.last_was_pass = False
    if st.game.auction_doubling:
        st.multiplier, st.added, st.dbl_step, st.doubled = 1, 0, 0, False  # a bid cancels
    return forced or (rules.ends_at_max_bid and st.high >= rules.top)


def _close_after_double(st: StateData, owner: int) -> None:
    """doubling.closes_auction: after a step nobody bids; the players entitled to the next step (if any is
    left) speak once each, in turn from `owner`; the auction ends with that step or their passes."""
    hb = st.high_bidder
    step = _auction_double(st, hb) or _auction_double(st, (hb + 1) % st.n)
    d = st.game.rules.doubling
    assert d is not None
    if not step:
        st.queue = []
    else:
        by_bidders = d.steps[st.dbl_step].by_bidding_team
        team = st.hand_team_of[hb]
        st.queue = [s for s in st._seats_from((owner + 1) % st.n)
                      if (st.hand_team_of[s] == team) == by_bidders]
    if st.queue:
        st.to_act = st.queue[0]
    else:
        end_round(st)


def _closed_pass(st: StateData) -> None:
    if st.queue:
        st.queue.pop(0)
    if st.queue:
        st.to_act = st.queue[0]
    else:
        end_round(st)


def _other_speech(st: StateData, a: Action) -> bool:
    """`partner`, `redeal` and `declare NAME` (True: applied; the turn's speech is not over or the hand is);
    a doubling step is applied with the bids and passes."""
    p = a.seat
    verb = a.verb
    if verb == "partner":
        if st.asker < 0:
            st.asker = p
            st.to_act = _partner_of(st, p)
        else:
            st.handed_back = True
            st.to_act = st.asker
        return True
    if verb == "redeal":
        st.spoke[p] = True
        limit = st.arules.redeal_max_points
        what = "a pointless hand" if not limit else f"at most {limit} points in the first cards"
        st._annul(f"seat {p} demanded a redeal with {what}", ANNUL_REDEAL)
        return True
    if verb == "declare":
        st._declare_in_auction(a)
        return True
    return False


def _second_round_bid(st: StateData, p: int, marked: bool) -> None:
    """A bid of a later round: the contract's value moves at once; who will hold it, and whether the holder
    lays a new trump card."""
    rules = st.arules
    if marked or (p == st.bidder and rules.holder_refolds == REFOLD_WHEN_BIDDING):
        st.refold = True
    if rules.team_keeps_holder and st.hand_team_of[p] == st.hand_team_of[st.bidder]:
        st.high_bidder = st.bidder   # a raise by the holder's own side keeps the holder
    st._set_bid(st.high)


def _apply_double_step(st: StateData) -> None:
    d = st.game.rules.doubling
    assert d is not None
    step = d.steps[st.dbl_step]
    st.multiplier *= step.multiplier
    st.added += step.adds
    st.doubled = True
    st.dbl_step += 1


def _next_speaker(st: StateData, owner: int) -> None:
    """After `owner`'s turn: end the round, or give the turn to the next speaker."""
    rules = st.arules
    if rules.once:
        st.queue.pop(0)
        _ask_next_in_turn(st)
        return
    n = st.n
    if (st.passes >= n - 1 or rules.pass_is_final) and _round_over(st):
        return
    nxt = owner + 1
    if nxt == n:
        nxt = 0
    if not (st.lapses or rules.pass_is_final or rules.partner_speech):   # common: the next seat speaks
        st.to_act = nxt
        return
    st.to_act = _next_not_skipped(st, nxt)


def _next_not_skipped(st: StateData, nxt: int) -> int:
    """From `nxt` on, the first seat whose turn is not skipped: a final pass, a lapsed turn, or the holder
    brought round again by a lapse."""
    rules = st.arules
    n = st.n
    final = rules.pass_is_final
    for _ in range(2 * n):
        if final and st.passed[nxt]:
            nxt = (nxt + 1) % n
            continue
        if st.lapses >> nxt & 1:   # he spoke for his partner: this turn lapses (neither a bid nor a pass)
            st.lapses ^= 1 << nxt
            nxt = (nxt + 1) % n
            continue
        if nxt == st.high_bidder and rules.partner_speech and not st.game.auction_doubling:
            nxt = (nxt + 1) % n   # a lapse brought the turn round to the holder: he is passed over
            continue
        break
    return nxt


def _ask_next_in_turn(st: StateData) -> None:
    """A round of one turn each: the next speaker in the queue (a lapsed turn is dropped)."""
    q = st.queue
    rules = st.arules
    while q and (st.lapses >> q[0] & 1 or (rules.ask_only_if_able and _cannot_bid(st, q[0]))):
        st.lapses &= ~(1 << q[0])
        q.pop(0)
    if q:
        st.to_act = q[0]
    else:
        end_round(st)


def _cannot_bid(st: StateData, seat: int) -> bool:
    lo, hi = bid_span(st, seat)
    return lo > hi


def _round_over(st: StateData) -> bool:
    """End the round if everyone else has passed (or annul on an all-pass)."""
    if st.arules.pass_is_final:
        others_out = all(st.passed[s] for s in range(st.n) if s != st.high_bidder)
    else:
        others_out = st.passes >= (st.n - 1 if st.high_bidder >= 0 else st.n)
    if not others_out:
        return False
    if st.high_bidder >= 0:
        end_round(st)
    else:
        st._annul("every player passed", ANNUL_ALL_PASS)
    return True


def end_round(st: StateData) -> None:
    if st.round == 2:
        _end_second_auction(st)
    else:
        _end_auction(st)


def _end_auction(st: StateData) -> None:
    g = st.game
    st.bidder = st.high_bidder
    st._set_bid(st.high)
    if g.rules.table.bidder_plays_alone:
        st._regroup_for_declarer(st.bidder)
        st.team_points = [0] * len(st.hand_teams)
    if g.rules.trump.in_bid:
        set_named_trump(st, st.high_suit)
        st.concealed = False
        st.exposed_trick = 1 if st.trump >= 0 else 0
    st._next_step()


def _end_second_auction(st: StateData) -> None:
    if st.round_bids:
        st.contract_round = 2
    if st.high_bidder != st.bidder or st.refold:
        _hand_over_contract(st, st.high_bidder)
    else:
        st._next_step()


def _hand_over_contract(st: StateData, holder: int) -> None:
    """The holder of the top bid takes the trump step again: the trump card laid so far returns to its owner's
    hand and the holder lays one from his full hand."""
    if st.indicator >= 0 and st.concealed:
        st.hands[st.folder] |= 1 << st.indicator
    st.indicator = -1
    st.seventh = False
    st._set_trump(UNDECIDED)
    st.exposed_trick = 0
    st.bidder = holder
    if st.game.rules.table.bidder_plays_alone:
        st._regroup_for_declarer(holder)
    st.rechoosing = True
    st._start_trump()
