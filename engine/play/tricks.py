"""Tricks: following suit, the concealed trump and its exposure, pairs, surrender, and who wins a trick.

This is the hot path: hands are int bitmasks, the legal cards are one mask, and play actions come from
per-suit lookup tables precomputed in `Game`. Functions over the hand's data (StateData); State calls them.
"""

from __future__ import annotations

from engine.play.actions import Action
from engine.play.banked import target_reached
from engine.play.base import (
    ANSWER,
    ANY_TRUMP,
    FREE,
    INDICATOR,
    NO_SURRENDER,
    PLAY,
    SURRENDER_ACCEPTED,
    SURRENDER_OFFERED,
    SURRENDER_REFUSED,
    TRUMP_IF_ABLE,
    StateData,
    TrickRecord,
)
from engine.play.claims import apply_claim, claim_actions
from engine.play.combinations import after_trick, announce, announcing, marriage_on_play, may_announce
from engine.play.contract import may_declare, open_trump, take_contract
from engine.play.melds import open_meld_window, show_melds
from engine.play.obligations import playable
from engine.play.rules import (
    LED_FOLLOW_OR_DISCARD,
    LED_MAY_CALL_AND_PLAY_INDICATOR,
    LED_MUST_CALL,
    VOID_DISCARD_ANY_OR_ANY_TRUMP,
    VOID_DISCARD_PLAIN_OR_INDICATOR,
    PairRules,
)
from engine.play.sweep_claims import SEAT_FACTOR, cards_played, remaining_claim_actions
from engine.play.tables import winning_index


def start_play(st: StateData) -> None:
    g = st.game
    leader = _first_leader(st)
    while st.sitting_out >> leader & 1:
        leader = (leader + 1) % st.n
    st.phase = PLAY
    st.leader = st.to_act = leader
    st.trick_cards = []
    st.trick_seats = []
    if st.sitting_out:
        st.after = [_next_seat(st, s) for s in range(st.n)]
    st.trick_size = st.n - st.sitting_out.bit_count()
    _choose_play_path(st)
    if g.rules.melds is not None and g.rules.melds.compulsory:
        _show_melds(st, st.to_act)
    sp = st.special
    st.at_first_lead = ((st.concealed and g.rules.trump.shown_at_first_lead)
                          or (sp is not None and sp.first_card_trumps))


def _first_leader(st: StateData) -> int:
    """Who leads trick 1: a special contract's declarer, the bidder or the player after him where the file
    says so, else the first hand (a seat sitting out passes it on)."""
    t = st.game.rules.table
    if st.special is not None:
        return st.declarer
    if t.bidder_leads_first and st.bidder >= 0:
        return st.bidder
    if t.after_bidder_leads_first and st.bidder >= 0:
        return (st.bidder + 1) % st.n
    return st.first


def _choose_play_path(st: StateData) -> None:
    """The inlined paths of play_legal: plain (cards only, follow suit) or duty (cards only, the file's
    obligations), where no other action can join the cards."""
    g = st.game
    others = (g.has_pair or g.has_surrender or g.concede_in_play or bool(g.play_declarations) or g.has_claims
              or g.lead_duties)
    duties = g.rules.play.obligations is not None
    st.plain_play = not others and not duties
    st.duty_play = not others and duties
    if announcing(st):    # trick 1 offers `announce` besides the cards: the inlined paths resume after it
        st.resume_plain = st.plain_play
        st.resume_duty = st.duty_play
        st.plain_play = st.duty_play = False


def _next_seat(st: StateData, s: int) -> int:
    s = (s + 1) % st.n
    while st.sitting_out >> s & 1:
        s = (s + 1) % st.n
    return s

# --- legal cards --------------------------------------------------------------------------------


def _discards(st: StateData, m: int) -> int:
    """Cards a void player may play: all of `m`, less protected ranks of suits not yet led and, where the
    rules say so, trumps lower than one already in the trick (unless nothing else is left)."""
    g = st.game
    if not g.void_filters or not m:
        return m
    if g.rules.play.no_discard_ranks:
        m = (m & ~_protected_unled(st)) or m
    if g.rules.play.must_not_undertrump and not st.concealed and st.trump >= 0:
        m = (m & ~_undertrumps(st, m)) or m
    return m


def _protected_unled(st: StateData) -> int:
    """play.no_discard_ranks: the protected cards of the suits not yet led (or played), the exposed trump
    suit apart."""
    g = st.game
    seen = st.played_suits if g.rules.play.suit_seen_when_played else st.led_suits
    barred = 0
    for s in range(g.nsuits):
        if not seen >> s & 1 and not (s == st.trump and not st.concealed):
            barred |= g.protected_masks[s]
    return barred


def _undertrumps(st: StateData, m: int) -> int:
    """The trumps of `m` lower than the best trump already in the trick (counted from st.power_from)."""
    g = st.game
    best = max((st.strength[c] for i, c in enumerate(st.trick_cards)
                if g.suit_of[c] == st.trump and i >= st.power_from), default=-1)
    under = 0
    if best < 0:
        return under
    for c in range(g.size):
        if m >> c & 1 and g.suit_of[c] == st.trump and st.strength[c] < best:
            under |= 1 << c
    return under


def _play_options(st: StateData, p: int) -> tuple[int, list[Action]]:
    """(mask of playable cards, other actions) for the seat to play."""
    extras = _play_extras(st, p)
    return _playable_cards(st, p, extras), extras


def _play_extras(st: StateData, p: int) -> list[Action]:
    """The actions other than a card that seat `p`, to play, may take: show a pair, surrender, claim, concede,
    declare (a new list: the call for a concealed trump may still join it)."""
    g = st.game
    extras: list[Action] = []
    if not st.tricks and g.rules.combinations is not None and announcing(st) and may_announce(st, p):
        extras.append(g.announce_action[p])
    if g.has_pair and _pair_allowed(st, p):
        extras.append(g.action(p, "show", "pair"))
    if _surrender_allowed(st, p):
        extras.append(g.action(p, "surrender"))
    if g.rules.claims:
        extras.extend(claim_actions(st, p))
    if g.concede_in_play and _may_concede(st, p):
        extras.append(g.action(p, "concede"))
    if g.has_claims and st.special is None:
        extras.extend(remaining_claim_actions(st, p))
    if g.play_declarations and not st.trick_cards and st.special is None:
        extras.extend(_declarations_before_lead(st, p))
    return extras


def _may_concede(st: StateData, p: int) -> bool:
    """The bidder may concede in play while his side is short of its target (not once he called: his play is
    due)."""
    return (p == st.bidder and st.special is None and st.caller != p
            and st.team_points[st.hand_team_of[p]] < st.target)


def _declarations_before_lead(st: StateData, p: int) -> list[Action]:
    """The special contracts declared before leading trick N, at its lead."""
    g = st.game
    return [g.action(p, "declare", dc.name) for dc in g.play_declarations
            if dc.trick == len(st.tricks) + 1 and may_declare(st, dc, p)]


def _playable_cards(st: StateData, p: int, extras: list[Action]) -> int:
    """The mask of cards seat `p`, to play, may play (a call for the concealed trump may join `extras`)."""
    g = st.game
    h = st.hands[p]
    trick = st.trick_cards
    led = g.suit_of[trick[0]] if trick else -1
    if st.caller == p:
        return _caller_cards(st, h, led)
    concealed = st.concealed
    owner = concealed and p == st.indicator_owner
    if not trick:
        return _lead_cards(st, p, h, owner)
    pl = g.rules.play
    if not concealed and pl.obligations is not None:
        return playable(st, p)
    follow = h & g.suit_masks[led]
    if follow:
        return follow
    if not concealed:
        return _discards(st, h)
    if pl.blind_cut:
        return _blind_options(st, p, h, led, owner)
    return _concealed_void(st, p, h, led, owner, extras)


def _caller_cards(st: StateData, h: int, led: int) -> int:
    """The cards of the player who has just called for the trump, as his call binds him."""
    g = st.game
    c = st.constraint
    if c == INDICATOR:
        return 1 << st.indicator
    follow = h & g.suit_masks[led] if led >= 0 else 0
    if follow:  # the exposed indicator joined the caller's hand and follows suit
        return follow
    if c == TRUMP_IF_ABLE or c == ANY_TRUMP:
        t = _discards(st, h & st.trump_mask)
        return t or (_discards(st, h) if c == TRUMP_IF_ABLE else h)
    return _discards(st, h)


def _lead_cards(st: StateData, p: int, h: int, owner: bool) -> int:
    """The cards seat `p` may lead: a lead duty's trumps, the concealed trump's owner's limits, else any."""
    pl = st.game.rules.play
    if p == st.bidder and (st.exhausted or (st.open_duty and not st.tricks)):
        trumps = h & st.trump_mask    # a lead duty: trumps while he holds any
        if trumps:
            return trumps
    if owner:
        if not h and st.indicator >= 0:
            return 1 << st.indicator
        if not pl.bidder_leads_trump_freely or (pl.no_trump_lead_to_first_trick and not st.tricks):
            plain = h & ~st.trump_mask
            if plain:
                return plain
    return h


def _concealed_void(st: StateData, p: int, h: int, led: int, owner: bool, extras: list[Action]) -> int:
    """A player unable to follow while the trump is concealed: his cards, and the call for the trump joins
    `extras` (this turn's own new list) where he may call."""
    g = st.game
    pl = g.rules.play
    call = g.call_action[p]
    if not owner:
        extras.append(call)
        return 0 if pl.compulsory_call else _discards(st, h)
    if led == st.trump:
        rule = pl.when_trump_suit_led
        may_call = rule != LED_FOLLOW_OR_DISCARD
        must_call = rule == LED_MUST_CALL   # (must implies may)
        discards = _discards(st, h)
    else:
        may_call = True
        must_call = pl.compulsory_call
        plain_only = pl.void_in_plain_suit == VOID_DISCARD_PLAIN_OR_INDICATOR
        discards = _discards(st, h & ~st.trump_mask if plain_only else h)
    if may_call:
        extras.append(call)
    if not h and st.indicator >= 0:
        # the last trick: the face-down indicator is the bidder's only card
        if must_call and not pl.last_trick_forces_exposure:
            return 0
        return 1 << st.indicator
    return 0 if must_call else discards


def play_mask(st: StateData) -> int:
    """The card ids the seat to play may play now (`_legal_mask`), and its other actions (`_extras`)."""
    p = st.to_act
    h = st.hands[p]
    mask = -1
    if st.plain_play and st.caller != p:
        # the common cases, inlined: following suit, or a free choice
        if st.trick_cards:
            g = st.game
            follow = h & g.suit_masks[st.led]
            if follow:
                mask = follow
            elif not st.concealed and not g.void_filters:
                mask = h
        elif not st.concealed or p != st.folder:
            mask = h
    elif st.duty_play and not st.concealed and st.caller != p:
        if st.trick_cards:
            g = st.game
            follow = h & g.suit_masks[st.led]
            # following a plain suit led is all the duties ask, where no trump may be played instead (or he
            # holds none)
            if follow and st.led != st.trump and not st.all_trumps and (
                    g.follow_suffices or not h & st.trump_mask):
                mask = follow
            else:
                mask = playable(st, p)
        else:
            mask = h    # (the duties bind following players only)
    if mask < 0:
        mask, st._extras = _play_options(st, p)
    elif st._extras:
        st._extras = []
    st._legal_mask = mask
    st._mask_ready = True
    return mask


def play_legal(st: StateData) -> tuple[Action, ...]:
    g = st.game
    p = st.to_act
    if st.caller != p and st.trick_cards and (st.plain_play or (
            st.duty_play and st.led != st.trump and not st.concealed and not st.all_trumps
            and (g.follow_suffices or not st.hands[p] & st.trump_mask))):
        follow = st.hands[p] & g.suit_masks[st.led]
        if follow:  # the commonest case, inlined: one table lookup (with duties: a plain suit followed)
            st._legal_mask = follow
            if st._extras:    # (a new empty list only when there were extras: no allocation per card)
                st._extras = []
            st._mask_ready = True
            led = st.led
            bits = follow >> (led * g.block)
            rows = g._play_rows
            if rows:    # Game.suit_plays' table read here, with no call, once the holding has occurred
                seen = rows[p * g.nsuits + led][bits]
                if seen is not None:
                    return seen
            return g.suit_plays(p, led, bits)
    mask = play_mask(st)
    # the other actions, then each suit's cached tuple: joined only where two parts are not empty, so a hand
    # down to one playable suit builds nothing
    out: tuple[Action, ...] = tuple(st._extras) if st._extras else ()
    block = g.block
    bm = (1 << block) - 1
    for s in range(g.nsuits):
        v = mask >> (s * block) & bm
        if v:
            plays = g.suit_plays(p, s, v)
            out = out + plays if out else plays
    return out


def _blind_options(st: StateData, p: int, h: int, led: int, owner: bool) -> int:
    """play.blind_cut: a void player plays any card face down; the bidder as bidder_while_concealed says, the
    folded card played face down in place of a call."""
    if not owner:
        return _discards(st, h)
    pl = st.game.rules.play
    fold = 1 << st.indicator if st.indicator >= 0 else 0
    if not h:
        return fold             # his last card
    if led == st.trump:
        return h | (fold if pl.when_trump_suit_led != LED_FOLLOW_OR_DISCARD else 0)
    m = h & ~st.trump_mask if pl.void_in_plain_suit == VOID_DISCARD_PLAIN_OR_INDICATOR else h
    return (m | fold) or h

# --- optional actions at one's turn to play -----------------------------------------------------


def _pair_allowed(st: StateData, p: int) -> bool:
    g = st.game
    pr = g.rules.pair
    if pr is None or st.special is not None or st.trump < 0:
        return False
    # while the trump is concealed only the bidder knows it, so only the bidder may show a pair (exposing it)
    if st.concealed and (pr.needs_trump_exposed or p != st.indicator_owner):
        return False
    team = st.hand_team_of[p]
    if any(st.hand_team_of[s] == team for s in st.pair_shown_by):
        return False
    h = st.hands[p] & st.trump_mask
    for r in pr.ranks:
        if not h & g.rank_masks[r]:
            return False
    return _pair_in_time(st, pr, team)


def _pair_in_time(st: StateData, pr: PairRules, team: int) -> bool:
    """The pair's timing (after a trick won by the side, or right after it) and, for the bidding side, a bid at
    which it may show one."""
    if pr.needs_won_trick and not any(st.hand_team_of[t.winner] == team for t in st.tricks):
        return False
    if pr.right_after_winning and not (st.tricks and st.hand_team_of[st.tricks[-1].winner] == team):
        return False
    if team == st.hand_team_of[st.bidder]:
        return pr.bidding_team_adjust(st.bid) is not None
    return True


def _is_remaining_claim(st: StateData, name: str) -> bool:
    for c in st.game.rules.claims:
        if c.name == name:
            return c.remaining
    return False


def _claim(st: StateData, a: Action) -> None:
    """A claim of the remaining tricks: kept for the grading when the hand is scored; play goes on."""
    st.claims.append(a.seat * SEAT_FACTOR + cards_played(st, st.trick_size))
    for c in st.game.rules.claims:
        if c.name == a.arg and c.stops_play:
            st._finish()


def _show_melds(st: StateData, p: int) -> None:
    show_melds(st, p)


def _surrender_allowed(st: StateData, p: int) -> bool:
    return (st.game.has_surrender and st.surrender == NO_SURRENDER and st.special is None
            and st.hand_team_of[p] != st.hand_team_of[st.bidder] and not st.bidders_lost_trick)

# --- applying -----------------------------------------------------------------------------------


def play_apply(st: StateData, a: Action) -> None:
    verb = a.verb
    if verb == "call":
        _expose_by_call(st, a.seat)
    elif verb == "show":
        _show_pair(st, a.seat)
    elif verb == "concede":
        st._concede()
    elif verb == "announce":
        announce(st, a.seat)
    elif verb == "declare":
        if a.arg in st.game.contracts:
            take_contract(st, st.game.contracts[a.arg], a.seat)
        else:
            if _is_remaining_claim(st, a.arg):
                _claim(st, a)
            else:
                apply_claim(st, a)
    elif verb == "surrender":
        st.surrender = SURRENDER_OFFERED
        st.resume_to = a.seat
        st.phase = ANSWER
        st.to_act = st.bidder


def answer_legal(st: StateData) -> list[Action]:
    g = st.game
    return [g.action(st.bidder, "accept"), g.action(st.bidder, "refuse")]


def answer_apply(st: StateData, a: Action) -> None:
    if a.verb == "accept":
        st.surrender = SURRENDER_ACCEPTED
        st._finish()
        return
    st.surrender = SURRENDER_REFUSED
    st.phase = PLAY
    st.to_act = st.resume_to


def _show_pair(st: StateData, p: int) -> None:
    pr = st.game.rules.pair
    assert pr is not None
    if st.hand_team_of[p] == st.hand_team_of[st.bidder]:
        adj = pr.bidding_team_adjust(st.bid) or 0
    else:
        adj = pr.opponents
    st.target = min(pr.target_hi, max(pr.target_lo, st.target + adj))
    st.pair_shown_by.append(p)
    if st.concealed:  # the bidder showed King and Queen of the concealed trump: that exposes it
        _expose(st)
        if st.indicator >= 0:
            st.hands[p] |= 1 << st.indicator


def _expose(st: StateData) -> None:
    st.concealed = False
    st.exposed_trick = len(st.tricks) + 1
    st.power_from = 0 if st.game.rules.play.retroactive else len(st.trick_cards)


def _expose_by_call(st: StateData, p: int) -> None:
    g = st.game
    _expose(st)
    owner = st.indicator_owner
    if st.indicator >= 0:
        st.hands[owner] |= 1 << st.indicator
    st.caller = p
    pl = g.rules.play
    if p == owner:
        led = g.suit_of[st.trick_cards[0]] if st.trick_cards else -1
        if led == st.trump:
            if st.indicator >= 0 and pl.when_trump_suit_led == LED_MAY_CALL_AND_PLAY_INDICATOR:
                st.constraint = INDICATOR
                return
        elif not pl.compulsory_call:
            if pl.void_in_plain_suit == VOID_DISCARD_ANY_OR_ANY_TRUMP:
                st.constraint = ANY_TRUMP
                return
            if st.indicator >= 0:
                st.constraint = INDICATOR
                return
    st.constraint = TRUMP_IF_ABLE if pl.caller_must_trump else FREE


def play_card(st: StateData, p: int, card: int) -> None:
    """Seat `p` plays card id `card`, already known to be legal: recorded, and the trick goes on."""
    g = st.game
    st.history.append(g.play_action[p][card])
    st._legal = None
    st._mask_ready = False
    if st.at_first_lead:
        st.at_first_lead = False
        if _first_lead(st, card):
            return
    blind = st.concealed and g.rules.play.blind_cut
    if card == st.indicator and st.concealed:
        if blind and st.hands[p]:
            st.face_down |= 1 << card     # the folded card, face down to cut
            st.indicator = -1
        # the indicator is the bidder's last card: exposed as it is played, or played face up as a plain
        # card with the trump still concealed, as the rule file says
        elif blind or g.rules.play.last_trick_forces_exposure:
            _expose(st)
            st.indicator = -1
            if blind:
                st.power_from = 0     # every trump of the trick counts (face-down trumps turn up)
        else:
            st.indicator = -1
    else:
        st.hands[p] = st.hands[p] ^ (1 << card)   # (not ^=: see State._deal)
        if blind and st.trick_cards and g.suit_of[card] != st.led:
            st.face_down |= 1 << card
    st.caller = -1
    if g.marriage_play_mask >> card & 1:   # (trump_marriage counted in_hand: a card of its ranks)
        marriage_on_play(st, p, card)
    trick = st.trick_cards
    suit = g.suit_of[card]
    if not trick:
        st.led = suit
        st.led_suits |= 1 << suit
    st.played_suits |= 1 << suit
    trick.append(card)
    st.trick_seats.append(p)
    if len(trick) == st.trick_size:
        _resolve_trick(st)
    else:
        st.to_act = st.after[p]
        if g.rules.melds is not None:
            _show_melds(st, st.to_act)


def _first_lead(st: StateData, card: int) -> bool:
    """As the first card of trick 1 is led: a concealed trump is shown (trump.shown_at_first_lead), or the
    card's suit becomes trumps (a special contract's first_card_led), and the void deal is checked then.
    True when that annulled the hand."""
    g = st.game
    sp = st.special
    if sp is not None and sp.first_card_trumps:
        st._set_trump(g.suit_of[card])
        if sp.reversed_ranking:
            st.strength = g.reversed_strength
        st.exposed_trick = 1
        an = g.rules.annul
        if an.bidding_team_held_all_trumps and an.held_all_trumps_before_play and st._held_all_trumps():
            return True
        return False
    _expose(st)
    if st.indicator >= 0:
        st.hands[st.folder] |= 1 << st.indicator
        st.indicator = -1
    return False


def _resolve_trick(st: StateData) -> None:
    g = st.game
    cards = st.trick_cards
    if st.face_down:
        _turn_face_down(st)
    win = winning_index(cards, g.suit_of, st.strength, st.trump if not st.concealed else -1,
                        st.power_from)
    pts = 0
    points = st.points_of
    for c in cards:
        pts += points[c]
    winner = st.trick_seats[win]
    team = st.hand_team_of[winner]
    if len(st.tricks) + 1 == st.hand_tricks:
        pts += _last_trick_bonus(st, team)
    st.tricks.append(TrickRecord(st.leader, st.trick_seats, cards, winner, pts))
    st.team_points[team] = st.team_points[team] + pts   # (not +=: see State._deal)
    st.tricks_won_by[winner] = st.tricks_won_by[winner] + 1
    if g.rules.combinations is not None or g.rules.marriage is not None:
        _combinations_after_trick(st, cards, winner)
    _close_trick(st, cards, winner)


def _turn_face_down(st: StateData) -> None:
    """The blind cut at the end of a trick: face-down trumps are turned up and open the trump; plain ones stay
    down for good."""
    if st.concealed and st.face_down & st.trump_mask:
        open_trump(st)
        st.power_from = 0
    st.hidden |= st.face_down & ~st.trump_mask
    st.face_down = 0


def _last_trick_bonus(st: StateData, team: int) -> int:
    """What the last trick adds to its winner `team`'s points: deck.last_trick_bonus, and the amount the last
    trick's losers give it (deck.last_trick_transfer, taken from their points here)."""
    d = st.game.rules.deck
    bonus = d.last_trick_bonus
    if d.last_trick_transfer:
        bonus += d.last_trick_transfer
        for t in range(len(st.team_points)):
            if t != team:
                st.team_points[t] -= d.last_trick_transfer
    return bonus


def _combinations_after_trick(st: StateData, cards: list[int], winner: int) -> None:
    """Melds and the trump marriage at the end of a trick (engine/play/combinations.py); after trick 1, which
    offered `announce`, play goes back to its usual paths."""
    after_trick(st, cards, winner)
    if len(st.tricks) == 1 and announcing(st):
        st.plain_play = st.resume_plain
        st.duty_play = st.resume_duty


def _close_trick(st: StateData, cards: list[int], winner: int) -> None:
    """After a trick is taken: whether the bidders lost it, the winner leads, the duties a trick sets, and the
    hand ends (the last trick, a special contract lost, the match won mid-deal) or goes on (melds to show)."""
    g = st.game
    special = st.special
    if st.hand_team_of[winner] != st.hand_team_of[st.bidder] or (
            special is not None and not special.side_wins and winner != st.declarer):
        st.bidders_lost_trick = True
    st.trick_cards = []
    st.trick_seats = []
    st.power_from = 0
    st.leader = st.to_act = winner
    if g.lead_duties or g.rules.trump.open_after_trick:
        _after_trick_duties(st, cards)
    if g.rules.match.ends_mid_deal and target_reached(st):   # the match is won: the deal stops here
        st._finish()
        return
    if len(st.tricks) == st.hand_tricks or (
            special is not None and special.stops_at_first_loss and st.bidders_lost_trick):
        st._finish()
    elif g.rules.melds is not None:
        if g.rules.melds.compulsory:
            _show_melds(st, winner)
        else:
            open_meld_window(st, winner)


def _after_trick_duties(st: StateData, cards: list[int]) -> None:
    """At the end of a trick: a high contract still concealed opens (trump.opening.after_trick), and a bidder
    whose trump lead nobody followed must go on leading trumps (play.exhausted_trumps)."""
    g = st.game
    t = g.rules.trump
    if (t.open_after_trick == len(st.tricks) and st.concealed and st.special is None
            and st.bid >= t.open_from_bid):
        open_trump(st)
        st.exposed_trick = len(st.tricks)
    if (g.rules.play.exhausted_trumps and st.special is None and not st.exhausted and st.trump >= 0
            and st.tricks[-1].leader == st.bidder and g.suit_of[cards[0]] == st.trump):
        followed = False
        for c in cards[1:]:
            if g.suit_of[c] == st.trump:
                followed = True
        st.exhausted = not followed
