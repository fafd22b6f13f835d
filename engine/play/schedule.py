"""The schedule of a hand: the rule file's steps in order (deals, the auction, the trump, the turned card, ...),
then the stages after it (declarations, the checks before play, the opening, play), and the end of the hand
(annulments, scoring, the claims' grading).

Functions over the hand's data (StateData). The phase modules, which this module imports, reach it through
StateData's hooks (`_next_step`, `_finish`, `_annul`, `_after_full_deal`, `_held_all_trumps`), which State
implements with the functions here."""

from __future__ import annotations

from engine.play.auction import start_auction, start_second_auction
from engine.play.base import (
    ANNUL_ALL_OF_RANK,
    ANNUL_HELD_ALL_TRUMPS,
    ANNUL_NEVER_EXPOSED,
    DONE,
    SURRENDER_ACCEPTED,
    StateData,
)
from engine.play.claims import claim_score
from engine.play.contract import (
    dealt_mask,
    expose_partners,
    start_declarations,
    start_doubling,
    start_opening,
    start_pointless,
    start_trump,
    take_last_card,
    take_seventh_card,
)
from engine.play.rules import STEP_AUCTION, STEP_SECOND_AUCTION, STEP_TRUMP, STEP_TURN_UP, WINDOW_BEFORE_PLAY
from engine.play.scoring import add_card_point_captures, score_hand
from engine.play.sweep_claims import grade_claims
from engine.play.tricks import start_play
from engine.play.turned import run_step as turned_step


def deal(st: StateData, k: int) -> None:
    for seat in range(st.n):   # every seat gets its next k cards; who is served first changes nothing
        cards = st.dealt[seat]
        start = st.given[seat]
        packet = 0
        for i in range(start, start + k):
            packet |= 1 << cards[i]
        # `x[i] = x[i] | v`, not `x[i] |= v`: compiled, an augmented list item is a generic number call
        st.hands[seat] = st.hands[seat] | packet
        st.received[seat] = st.received[seat] | packet
        st.given[seat] = start + k
    if st.seventh:
        take_seventh_card(st)
    if st.last_card:
        take_last_card(st)


def after_full_deal(st: StateData) -> bool:
    """Checks once every card is dealt; True when the hand stops here (annulled or a question asked)."""
    g = st.game
    an = g.rules.annul
    if an.all_of_rank >= 0:
        every = g.rank_masks[an.all_of_rank]
        for s in range(st.n):
            if dealt_mask(st, s) & every == every:
                annul(st, f"seat {s} holds every {g.layout.ranks[an.all_of_rank]}", ANNUL_ALL_OF_RANK)
                return True
    return an.pointless_hand_may_redeal and start_pointless(st)


def next_step(st: StateData) -> None:
    """Run the schedule, then the stages after it, until a player must act or the hand stops."""
    schedule = st.game.rules.schedule
    exposing = st.game.rules.play.bidders_partner_exposed
    while st.status == "in_progress":
        if exposing:
            expose_partners(st)
        if st.step < len(schedule):
            code = schedule[st.step]
            st.step += 1
            if _schedule_step(st, code):
                return
            continue
        if _after_schedule(st):
            return


def _schedule_step(st: StateData, code: int) -> bool:
    """One step of the schedule; True when the hand now waits for a player (or stopped)."""
    special = st.special
    if special is not None and (code == STEP_TRUMP or code == STEP_SECOND_AUCTION
                                or (code > 0 and special.stops_deal)):
        return False   # a declaration of the auction holds the hand: its trump, no more bidding
    if code > 0:
        deal(st, code)
        return (st.given[0] >= len(st.dealt[0]) and not st.game.completes
                and after_full_deal(st))
    if code <= STEP_TURN_UP:   # the turned card, the stock, trump choices without an auction
        return turned_step(st, code)
    if code == STEP_AUCTION:
        start_auction(st)
    elif code == STEP_TRUMP:
        start_trump(st)
    elif code == STEP_SECOND_AUCTION:
        start_second_auction(st)
    return True


def _after_schedule(st: StateData) -> bool:
    """The stages after the schedule, one at a time: declarations, the checks before play, the opening, play.
    True when the hand now waits for a player (or stopped)."""
    if st.stage == 0:
        st.stage = 1
        return start_declarations(st)
    if st.stage == 1:
        st.stage = 2
        an = st.game.rules.annul
        if (an.bidding_team_held_all_trumps and an.held_all_trumps_before_play and st.trump >= 0
                and held_all_trumps(st)):
            return True
        d = st.game.rules.doubling
        return d is not None and d.window == WINDOW_BEFORE_PLAY and start_doubling(st)
    if st.stage == 2:
        st.stage = 3
        if start_opening(st):
            return True
    start_play(st)
    return True


def annul(st: StateData, reason: str, code: int) -> None:
    st.status = "annulled"
    st.annul_reason = reason
    st.annul_code = code
    st.phase = DONE
    st.to_act = -1


def held_all_trumps(st: StateData) -> bool:
    """annul.bidding_team_held_all_trumps: annul when the bidding side was dealt every trump."""
    team = st.hand_teams[st.hand_team_of[st.bidder]]
    held = 0
    for s in team:
        held |= dealt_mask(st, s)
    tm = st.trump_mask
    if held & tm == tm:
        annul(st, "the bidding team held every trump", ANNUL_HELD_ALL_TRUMPS)
        return True
    return False


def _annulled_at_end(st: StateData) -> bool:
    """The annulments judged when the hand ends (True: it was annulled). They look at the trump: they apply whenever
    one stands (a special contract keeping the trump included), not after an accepted surrender or a concession,
    which end the hand by agreement."""
    an = st.game.rules.annul
    shown = st.special is not None and not st.special.played
    if st.surrender == SURRENDER_ACCEPTED or st.conceded or shown or st.trump < 0:
        return False
    if an.trump_never_exposed and st.concealed:
        annul(st, "the trump was never exposed", ANNUL_NEVER_EXPOSED)
        return True
    return an.bidding_team_held_all_trumps and not an.held_all_trumps_before_play and held_all_trumps(st)


def finish(st: StateData) -> None:
    g = st.game
    if _annulled_at_end(st):
        return
    if g.rules.captures:
        add_card_point_captures(st)
    st._made, st._game_points = score_hand(st)
    if st.claim >= 0:   # a claim's value replaces the hand's score, or is added to it
        st._game_points = claim_score(st, st._game_points)
    if g.rules.claims and not st.grading:
        st._game_points = grade_claims(st, st._game_points)
    st.status = "complete"
    st.phase = DONE
    st.to_act = -1
