"""Steps between the auction and the first lead: trump choice, doubling, redeal and special contracts (the
declarations of every window: after the full deal, in the first auction, before a trick). (The raise
and the second auction are rounds of the auction: engine/play/auction.py.)

Functions over the hand's data (StateData). The auction, which this module imports, reaches the trump step, the
declarations spoken as bids and the regrouping for a lone declarer through StateData's hooks, which State
implements with the functions here."""

from __future__ import annotations

from engine.play.actions import Action
from engine.play.auction import end_round, points_in
from engine.play.base import ANNUL_REDEAL, DECLARE, DOUBLING, POINTLESS, TRUMP, UNDECIDED, StateData
from engine.play.rules import (
    DECLARE_AFTER_DEAL,
    DECLARE_IN_AUCTION,
    DECLARE_IN_SECOND_AUCTION,
    SEVENTH_CARD,
    SEVENTH_CARD_INDEX,
    SWEEP_ANY,
    SWEEP_REQUIRED,
    WINDOW_AFTER_TRUMP,
    ContractRules,
)
from engine.play.sure_sweep import is_sure_sweep
from engine.play.tables import NO_TRUMP
from engine.play.trump_modes import set_named_trump

# --- trump --------------------------------------------------------------------------------------


def start_trump(st: StateData) -> None:
    st.phase = TRUMP
    st.to_act = st.bidder


def _may_redeal_at_trump(st: StateData) -> bool:
    """trump.may_redeal: the bidder whose cards total little may ask for a new deal instead (not when the trump
    is chosen again after a later round of bidding)."""
    limit = st.game.rules.trump.redeal_max_points
    return limit >= 0 and not st.rechoosing and points_in(st, st.hands[st.bidder]) <= limit


def trump_legal(st: StateData) -> list[Action]:
    g = st.game
    p = st.bidder
    t = g.rules.trump
    out = _trump_cards(st, p) if t.as_card else _trump_names(st, p)
    if t.seventh_card:
        out.append(g.action(p, "trump", "seventh"))
    if t.last_card and not st.rechoosing and _may_take_last_card(st, p):
        out.append(g.action(p, "trump", "last"))
    if t.redeal_max_points >= 0 and _may_redeal_at_trump(st):
        out.append(g.action(p, "redeal"))
    if _may_concede(st):
        out.append(g.action(p, "concede"))
    return out


def _may_concede(st: StateData) -> bool:
    """concede: offered at the trump choice after the first auction, or after the second, as the file says."""
    c = st.game.rules.concede
    return c is not None and (c.after_second_auction if st.rechoosing else c.after_first_auction)


def _trump_cards(st: StateData, p: int) -> list[Action]:
    """trump.as_card: one choice per card the bidder holds."""
    row = st.game.trump_card_action[p]
    out: list[Action] = []
    last: Action | None = None
    h = st.hands[p]
    while h:
        low = h & -h
        a = row[low.bit_length() - 1]
        if a is not last:  # a double pack's two copies are one choice (copies are adjacent ids)
            out.append(a)
            last = a
        h ^= low
    return out


def _trump_names(st: StateData, p: int) -> list[Action]:
    """Every suit, no-trumps where the file allows it, and the file's trump modes."""
    g = st.game
    out = [g.action(p, "trump", s) for s in g.layout.suits]
    if g.rules.trump.no_trumps:
        out.append(g.action(p, "trump", "NT"))
    out.extend(g.action(p, "trump", name) for name in g.mode_names)
    return out


def trump_apply(st: StateData, a: Action) -> None:
    g = st.game
    t = g.rules.trump
    p = st.bidder
    if a.verb == "redeal":
        st._annul(f"seat {p} asked for a new deal with at most {t.redeal_max_points} points instead of "
                    "choosing the trump", ANNUL_REDEAL)
        return
    if a.verb == "concede":
        st._concede()
        return
    st.folder = p
    st.concealed = t.concealed
    _name_trump(st, a.arg)
    _expose_named_trump(st)
    if not _doubling_after_trump(st):
        st._next_step()


def _name_trump(st: StateData, arg: str) -> None:
    """The bidder's choice: the seventh card, the last card, no-trumps, a suit, a trump mode or a card he lays."""
    g = st.game
    if arg == "seventh":
        st.seventh = True
    elif arg == "last":
        st.last_card = True
        take_last_card(st)
    elif arg == "NT":
        st._set_trump(NO_TRUMP)
    elif len(arg) == 1:
        st._set_trump(g.layout.parse_suit(arg))
    elif arg in g.mode_names:
        set_named_trump(st, arg)
    else:
        _lay_trump_card(st, arg)


def _lay_trump_card(st: StateData, code: str) -> None:
    """The trump named by a card the bidder holds; with a concealed trump the card is laid face down."""
    g = st.game
    p = st.bidder
    card = -1
    for c in g.code_ids[code]:     # the copy the bidder holds (a loop: no generator on the hot path)
        if st.hands[p] >> c & 1:
            card = c
            break
    assert card >= 0, "a legal trump card is one the bidder holds"
    st._set_trump(g.suit_of[card])
    if g.rules.trump.concealed:
        st.indicator = card
        st.hands[p] ^= 1 << card


def _expose_named_trump(st: StateData) -> None:
    """A trump named openly is exposed from trick 1; a contract played open lays a folded one open at once."""
    if not st.game.rules.trump.concealed and not st.seventh and not st.last_card and st.trump >= 0:
        st.exposed_trick = 1
    if st.special is not None and st.special.open_trump and st.concealed:
        open_trump(st)          # a contract played open from the start: the fold returns at once
        st.open_duty = True


def _doubling_after_trump(st: StateData) -> bool:
    """True when a doubling window opens now that the trump is chosen (not when it is chosen again)."""
    d = st.game.rules.doubling
    return d is not None and d.window == WINDOW_AFTER_TRUMP and not st.rechoosing and start_doubling(st)


def take_seventh_card(st: StateData) -> None:
    """The seventh card dealt to the bidder becomes the indicator as soon as it is dealt."""
    p = st.bidder
    if (st.seventh and st.indicator < 0 and len(st.dealt[p]) >= SEVENTH_CARD
            and st.given[p] >= SEVENTH_CARD):
        card = st.dealt[p][SEVENTH_CARD_INDEX]
        st.indicator = card
        st._set_trump(st.game.suit_of[card])
        if st.concealed:
            st.hands[p] ^= 1 << card
        else:
            st.indicator = -1
            st.exposed_trick = 1


def _may_take_last_card(st: StateData, p: int) -> bool:
    """trump.last_card: offered, where the rule says so, only when the cards held are of different suits."""
    if not st.game.rules.trump.last_card_needs_distinct_suits:
        return True
    h = st.hands[p]
    return sum(1 for m in st.game.suit_masks if h & m) == h.bit_count()


def take_last_card(st: StateData) -> None:
    """`trump last`: once the folder has been dealt all his cards, the suit of the last one is trumps (the card
    stays in his hand)."""
    p = st.folder
    cards = st.dealt[p]
    if st.given[p] >= len(cards) and st.trump == UNDECIDED:
        st._set_trump(st.game.suit_of[cards[-1]])
        if not st.concealed:
            st.exposed_trick = 1

# --- doubling -----------------------------------------------------------------------------------


def _doubling_side(st: StateData, by_bidding_team: bool) -> list[int]:
    bt = st.hand_team_of[st.bidder]
    seats = st._seats_from(st.bidder)
    if by_bidding_team:
        return [s for s in seats if st.hand_team_of[s] == bt]
    return [s for s in seats if st.hand_team_of[s] != bt]


def _step_fits(st: StateData, idx: int) -> bool:
    d = st.game.rules.doubling
    assert d is not None
    if idx >= len(d.steps):
        return False
    return not d.cap or st.multiplier * d.steps[idx].multiplier <= d.cap


def start_doubling(st: StateData) -> bool:
    """Open the doubling window; False when no step can be said (the caller goes on)."""
    d = st.game.rules.doubling
    assert d is not None
    if 0 <= d.auto_from_bid <= st.bid:
        st.multiplier = d.auto_multiplier
    st.dbl_step = 0
    if not _step_fits(st, 0):
        return False
    st.queue = _doubling_side(st, d.steps[0].by_bidding_team)
    st.phase = DOUBLING
    st.to_act = st.queue[0]
    return True


def doubling_legal(st: StateData) -> list[Action]:
    g = st.game
    d = g.rules.doubling
    assert d is not None
    p = st.to_act
    out = [g.action(p, "pass"), g.action(p, d.steps[st.dbl_step].name)]
    fs = d.fixed_stake
    # 'C' is the bidder's call (pagat's 29: "the bidder may raise to 6"), not the partner's.
    if (fs is not None and st.doubled and p == st.bidder and d.steps[st.dbl_step].by_bidding_team
            and (not fs.needs_no_score_showing or all(s == g.rules.match.start for s in st.match_scores))):
        out.append(g.action(p, fs.name))
    return out


def doubling_apply(st: StateData, a: Action) -> None:
    d = st.game.rules.doubling
    assert d is not None
    if a.verb == "pass":
        st.queue.pop(0)
        if st.queue:
            st.to_act = st.queue[0]
            return
    elif d.fixed_stake is not None and a.verb == d.fixed_stake.name:
        st.fixed_stake = d.fixed_stake.value
    else:
        step = d.steps[st.dbl_step]
        st.multiplier *= step.multiplier
        st.added += step.adds
        st.doubled = True
        st.dbl_step += 1
        if _step_fits(st, st.dbl_step):
            st.queue = _doubling_side(st, d.steps[st.dbl_step].by_bidding_team)
            st.to_act = st.queue[0]
            return
    st._next_step()

# --- after the full deal: pointless-hand redeal, special contracts --------------------------------


def dealt_mask(st: StateData, seat: int) -> int:
    return st.received[seat]


def start_pointless(st: StateData) -> bool:
    """Ask each player with a pointless hand whether to annul; False when nobody is asked."""
    pm = st.game.point_mask
    st.queue = [s for s in st._seats_from(st.first) if not dealt_mask(st, s) & pm]
    if not st.queue:
        return False
    st.phase = POINTLESS
    st.to_act = st.queue[0]
    return True


def pointless_apply(st: StateData, a: Action) -> None:
    if a.verb == "redeal":
        st._annul(f"seat {a.seat} showed a pointless hand", ANNUL_REDEAL)
        return
    st.queue.pop(0)
    if st.queue:
        st.to_act = st.queue[0]
    else:
        st._next_step()

# --- declarations (special contracts): one shape, three windows ------------------------------------


def holding(st: StateData, seat: int) -> int:
    """The cards `seat` holds, a trump card it laid face down included."""
    h = st.hands[seat]
    if seat == st.folder and st.concealed and st.indicator >= 0:
        h |= 1 << st.indicator
    return h


def may_declare(st: StateData, c: ContractRules, seat: int) -> bool:
    """Who may declare `c` (its window is checked by the caller) and whether his cards meet its sure-sweep
    rule."""
    if c.sole_winner:
        if st.tricks_won_by[seat] != len(st.tricks):
            return False
    elif not c.anyone and seat != st.bidder:
        return False
    if c.sure_sweep != SWEEP_ANY:
        return is_sure_sweep(st.game, holding(st, seat)) == (c.sure_sweep == SWEEP_REQUIRED)
    return True


def _eligible_contracts(st: StateData, seat: int) -> list[str]:
    return [c.name for c in st.game.rules.contracts
            if c.window == DECLARE_AFTER_DEAL and may_declare(st, c, seat)]


def _one_suit_hand(st: StateData, seat: int) -> bool:
    held = dealt_mask(st, seat)
    return sum(1 for m in st.game.suit_masks if held & m) == 1


def start_declarations(st: StateData) -> bool:
    if st.special is not None:   # a declaration of the auction already holds the hand
        return False
    d = st.game.rules.declarations
    first = st.bidder if d.from_bidder and st.bidder >= 0 else st.first
    st.queue = [s for s in st._seats_from(first) if _eligible_contracts(st, s)]
    if not st.queue:
        return False
    st.phase = DECLARE
    st.to_act = st.queue[0]
    return True


def declare_legal(st: StateData) -> list[Action]:
    g = st.game
    p = st.to_act
    if st.opening:
        return [g.action(p, "open"), g.action(p, "pass")]
    one_suit = _one_suit_hand(st, p)
    return [g.action(p, "pass")] + [g.action(p, "declare", c.name) for c in g.rules.contracts
                                     if c.window == DECLARE_AFTER_DEAL and may_declare(st, c, p)
                                     and not (c.barred_with_one_suit and one_suit)]


def declare_apply(st: StateData, a: Action) -> None:
    g = st.game
    if st.opening:
        _opening_apply(st, a)
        return
    if a.verb == "declare":
        if not g.rules.declarations.bidding_side_priority:
            if take_contract(st, g.contracts[a.arg], a.seat):
                st._next_step()
            return
        _declare_pending(st, a)
    st.queue.pop(0)
    if st.queue:
        st.to_act = st.queue[0]
    elif st.pending >= 0:
        if take_contract(st, g.rules.contracts[st.pending], st.pending_by):
            st._next_step()
    else:
        st._next_step()


def _declare_pending(st: StateData, a: Action) -> None:
    """declarations.bidding_side_priority: a declaration by the bidder's side closes the window; an opponent's
    stands unless a later player of the bidder's side declares too, so only those are still asked."""
    p = a.seat
    st.pending = [c.name for c in st.game.rules.contracts].index(a.arg)
    st.pending_by = p
    bidders = st.hand_team_of[st.bidder]
    later = [s for s in st.queue[1:] if st.hand_team_of[s] == bidders]
    st.queue = [p] + (later if st.hand_team_of[p] != bidders else [])


def declarations_as_bids(st: StateData, seat: int) -> list[Action]:
    if st.special is not None:
        return []
    window = DECLARE_IN_AUCTION if st.round == 1 else DECLARE_IN_SECOND_AUCTION
    g = st.game
    return [g.action(seat, "declare", c.name) for c in g.rules.contracts
            if c.window == window and may_declare(st, c, seat)]


def declare_in_auction(st: StateData, a: Action) -> None:
    if st.round == 2:
        _declare_in_second_auction(st, a)
        return
    _declare_in_first_auction(st, a)


def _declare_in_second_auction(st: StateData, a: Action) -> None:
    """A declaration of the second auction outranks every number: its declarer is the new holder, lays the
    trump card anew, and the round ends at once."""
    p = a.seat
    if st.asker >= 0:     # said in the asker's place: the speech of both
        st.spoke[st.asker] = True
        st.asker = -1
        st.handed_back = False
    st.spoke[p] = True
    st.round_bids += 1
    st.high_bidder = p
    st.refold = True
    take_contract(st, st.game.contracts[a.arg], p)
    end_round(st)


def _declare_in_first_auction(st: StateData, a: Action) -> None:
    """A declaration outranks every number and ends the auction: its declarer holds the contract, and the
    schedule goes on without the trump step and later rounds of bidding (and, if it stops the deal, without
    dealing)."""
    p = a.seat
    c = st.game.contracts[a.arg]
    st.spoke[p] = True
    st.high_bidder = p
    if st.game.rules.table.bidder_plays_alone:
        regroup_for_declarer(st, p)
        st.team_points = [0] * len(st.hand_teams)
    st.bidder = p
    if c.stops_deal:
        st.hand_tricks = st.given[p]
    if take_contract(st, c, p):
        st._next_step()


def take_contract(st: StateData, c: ContractRules, p: int) -> bool:
    """Seat `p` declares `c`: he holds the contract; False when that ends the hand (a hand shown instead of
    played)."""
    g = st.game
    st.special = c
    st.declarer = p
    if g.rules.table.bidder_plays_alone or p != st.bidder:
        regroup_for_declarer(st, p)
    st.bidder = p
    if c.partner_sits_out or c.dummy:
        _partners_out(st, c, p)
    if c.no_trumps or c.first_card_trumps:
        _drop_trump(st, c)
    if c.reversed_ranking:
        st.strength = g.reversed_strength
    st.bidders_lost_trick = False   # the undertaking runs from the declaration on
    if not c.played:
        st.exposed |= 1 << p
        st._finish()
        return False
    return True

def _partners_out(st: StateData, c: ContractRules, p: int) -> None:
    """The declarer's partners sit out, or lie open as dummies."""
    for s in st.hand_teams[st.hand_team_of[p]]:
        if s == p:
            continue
        if c.partner_sits_out:
            st.sitting_out |= 1 << s
        else:
            st.dummies |= 1 << s
            st.exposed |= 1 << s


def _drop_trump(st: StateData, c: ContractRules) -> None:
    """A contract without a trump (or with the first card's suit as trump): a folded card goes back unseen."""
    if st.indicator >= 0 and st.concealed:
        st.hands[st.indicator_owner] |= 1 << st.indicator
        st.fold_secret = True   # it goes back unseen
    st._set_trump(NO_TRUMP if c.no_trumps else UNDECIDED)
    st.indicator = -1
    st.concealed = False
    st.last_card = False
    st.exposed_trick = 0

# --- the holder's choice to open the trump before trick 1 (trump.opening.by_choice) -----------------


def start_opening(st: StateData) -> bool:
    """Ask the holder of a concealed trump card `open` or `pass` (the DECLARE phase, flagged `opening`)."""
    if not (st.game.rules.trump.open_by_choice and st.concealed and st.indicator >= 0
            and st.special is None):
        return False
    st.opening = True
    st.phase = DECLARE
    st.to_act = st.folder
    return True


def _opening_apply(st: StateData, a: Action) -> None:
    st.opening = False
    if a.verb == "open":
        open_trump(st)
        st.open_duty = st.game.rules.trump.open_lead_trump
    st._next_step()


def open_trump(st: StateData) -> None:
    """The concealed trump becomes known to all: the folded card, shown, rejoins its owner's hand."""
    st.concealed = False
    st.exposed_trick = len(st.tricks) + 1
    if st.indicator >= 0:
        st.hands[st.folder] |= 1 << st.indicator
        st.shown[st.folder] |= 1 << st.indicator
        st.indicator = -1


def expose_partners(st: StateData) -> None:
    """play.exposed_after_deal: once every card is dealt and the bidder is known, his partners' cards lie face
    up to the end of the hand."""
    if st.game.rules.play.bidders_partner_exposed and st.bidder >= 0 and \
            st.given[st.bidder] >= len(st.dealt[st.bidder]):
        for s in st.hand_teams[st.hand_team_of[st.bidder]]:
            if s != st.bidder:
                st.exposed |= 1 << s


def regroup_for_declarer(st: StateData, declarer: int) -> None:
    """A declarer from another team (or at a lone-bidder table) plays with their own team."""
    g = st.game
    if g.rules.table.bidder_plays_alone:
        others = [s for s in range(st.n) if s != declarer]
        st.hand_teams = sorted([[declarer], others], key=lambda t: t[0])
        st.hand_team_of = [st.hand_teams.index([declarer]) if s == declarer
                             else st.hand_teams.index(others) for s in range(st.n)]
