"""Claims of the tricks still to play (special.claims), said as `declare NAME` at one's turn to play.

A claim is offered by who may make it (a side that has won every trick so far, a side that has shown a meld), in
its window (at one's turn in the last trick, before playing), at most one a hand and not in a contract that
switches claims off, nor to a side within `barred_within` match units of winning. Play goes on; at the end the
claim is judged (the caller won the last trick himself; his side lost a trick; a points test on the melds) and
its value in match units replaces the hand's score (or is added to it): to the caller's side when it succeeds, to
the opponents when it fails."""

from __future__ import annotations

from engine.play.actions import Action
from engine.play.base import UNDECIDED, StateData
from engine.play.melds import side_showed_meld
from engine.play.rules import ClaimRules
from engine.play.scoring import counting_team
from engine.play.tables import winning_index


def _offered(state: StateData, seat: int, c: ClaimRules) -> bool:
    team = state.hand_team_of[seat]
    if c.side_won_every_trick:
        for t in state.tricks:
            if state.hand_team_of[t.winner] != team:
                return False
    if c.side_showed_meld and not side_showed_meld(state, seat):
        return False
    if c.barred_within and state.match_target is not None:
        mine = state.match_scores[state.game.team_of[seat]]
        if state.match_target - mine <= c.barred_within:
            return False
    return True


def claim_actions(state: StateData, seat: int) -> list[Action]:
    """The `declare NAME` claims `seat` may make now, at its turn to play."""
    g = state.game
    claims = g.rules.claims
    sp = state.special
    if (not claims or state.claim >= 0 or (sp is not None and sp.no_claims)
            or len(state.tricks) != state.hand_tricks - 1 or state.bidder < 0):
        return []
    return [g.action(seat, "declare", c.name) for c in claims if not c.remaining and _offered(state, seat, c)]


def apply_claim(state: StateData, a: Action) -> None:
    g = state.game
    for i, c in enumerate(g.rules.claims):
        if c.name == a.arg:
            state.claim = i
            state.claimer = a.seat
            if c.match_target_after >= 0:
                state.new_match_target = c.match_target_after
            return


def _raw_points(state: StateData, team: int) -> int:
    """The card points of the tricks `team` won, without bonuses or transfers."""
    points = state.points_of
    total = 0
    for t in state.tricks:
        if state.hand_team_of[t.winner] == team:
            for card in t.cards:
                total += points[card]
    return total


def claim_succeeded(state: StateData) -> bool:
    c = state.game.rules.claims[state.claim]
    seat = state.claimer
    if not state.tricks or state.tricks[-1].winner != seat:
        return False
    return _conditions_met(state, seat, c)


def _conditions_met(state: StateData, seat: int, c: ClaimRules) -> bool:
    """The claim's tests beside the caller winning the last trick: a trick lost by his side, the points test on
    the melds (the tricks his side did not win are the ones played so far: the last is his)."""
    team = state.hand_team_of[seat]
    if c.needs_lost_trick and all(state.hand_team_of[t.winner] == team for t in state.tricks):
        return False
    if c.melds_beat_by >= 0:
        others = [t for t in range(len(state.hand_teams)) if t != team]
        theirs = sum(_raw_points(state, t) + state.meld_points[t] for t in others)
        if state.meld_points[team] + c.melds_beat_by <= theirs:
            return False
    return True


def last_trick_certain(state: StateData, seat: int, c: ClaimRules) -> bool:
    """Whether `seat`, at its turn in the last trick, knows that claim `c` (the last trick by the caller) succeeds:
    the trump is known to everyone, its one card beats the trick so far and every card a later player could hold
    (any card it has not seen), and the claim's other tests already hold."""
    g = state.game
    hand = state.hands[seat]
    if hand.bit_count() != 1 or state.trump == UNDECIDED or (state.concealed and state.trump >= 0):
        return False
    if len(state.tricks) != state.hand_tricks - 1 or not _conditions_met(state, seat, c):
        return False
    card = hand.bit_length() - 1
    cards = list(state.trick_cards)
    cards.append(card)
    me = len(cards) - 1
    if winning_index(cards, g.suit_of, state.strength, state.trump, state.power_from) != me:
        return False
    unseen = _unseen_by(state, hand)
    cards.append(-1)
    while unseen:
        low = unseen & -unseen
        cards[-1] = low.bit_length() - 1
        unseen ^= low
        if winning_index(cards, g.suit_of, state.strength, state.trump, state.power_from) != me:
            return False
    return True


def _unseen_by(state: StateData, hand: int) -> int:
    """The cards a player holding `hand` has not seen played: any of them may be a later player's (a card played
    face down he did not see might be any card)."""
    unseen = ((1 << state.game.size) - 1) & ~hand
    for t in state.tricks:
        for x in t.cards:
            unseen &= ~(1 << x)
    for x in state.trick_cards:
        unseen &= ~(1 << x)
    return unseen | state.hidden | state.face_down


def claim_score(state: StateData, hand: list[int]) -> list[int]:
    """The match units of a hand with a claim: the claim's value replaces the hand's score `hand`, or is added
    to it."""
    c = state.game.rules.claims[state.claim]
    team = state.hand_team_of[state.claimer]
    gp = list(hand) if c.adds else [0] * len(state.hand_teams)
    if claim_succeeded(state):
        gp[team] += c.made_by_counting_side if team == counting_team(state) else c.made
    else:
        for t in range(len(gp)):
            if t != team:
                gp[t] -= c.failed
    return gp
