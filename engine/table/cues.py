"""Cues a card table gives at a glance: who is winning the trick being played, and which cards of a seat's
hand just arrived in a later deal.

Who is winning is decided by public facts - the cards on the table, whether the trump is still concealed (a
concealed trump has no power yet), when it was exposed - except, while it is concealed, the card order a
concealed no-trump choice may reverse: only the bidder may count with that. New cards are the seat's own."""

from __future__ import annotations

from collections.abc import Sequence

from engine.play.game import NO_TRUMP, winning_index
from engine.play.state import State

STAGE_WORDS = {"auction": "auction", "trump": "trump", "raise": "raise round", "doubling": "doubling",
               "declarations": "declarations", "surrender": "surrender", "redeal": "redeal", "melds": "melds",
               "play": "play", "take_or_pass": "take or pass", "choose_trump": "trump choice", "exchange": "exchange"}


def stages(state: State) -> list[str]:
    """The stage of the hand in which each entry of its history was said ("auction", "second auction", "raise
    round", ...), so a pass can be told apart from a pass of another round. Which stage the table is in is
    public; it is found by replaying the history on the deal, with the sweep grading of claims left out."""
    replay = State(state.game, state.dealer, state.dealt, state.match_scores, match_target=state.match_target,
                   stock=state.stock)
    replay.grading = True
    out: list[str] = []
    for action in state.history:
        name = replay.phase_name
        if name == "auction" and replay.round == 2:
            out.append("second auction")
        else:
            out.append(STAGE_WORDS.get(name, name))
        replay.apply(action)
    return out


def winning_seat(state: State, seat: int) -> int | None:
    """The seat whose card is winning the current trick so far, or None before its first card."""
    if not state.trick_cards or state.is_terminal:
        return None
    g = state.game
    if state.concealed:
        strength = state.strength if seat == state.folder else g.strength
        trump = NO_TRUMP
    else:
        strength, trump = state.strength, state.trump
    win = winning_index(state.trick_cards, g.suit_of, strength, trump, state.power_from)
    return state.trick_seats[win]


def _latest_packet(schedule: Sequence[int], given: int) -> tuple[int, int]:
    """(cards before the latest deal step, cards after it) of the deal steps (positive schedule codes) that fit
    in the `given` cards."""
    cum, previous = 0, 0
    for k in schedule:
        if k <= 0:
            continue
        if cum + k > given:
            break
        previous, cum = cum, cum + k
    return previous, cum


def new_cards(state: State, seat: int) -> set[str]:
    """The cards of the seat's latest deal when it was not the first (the four new cards after a second deal
    of four), as long as no trick has been played; else nothing."""
    if not 0 <= seat < state.n or state.tricks or seat in state.trick_seats or state.is_terminal:
        return set()
    given = state.given[seat]
    previous, cum = _latest_packet(state.game.rules.schedule, given)
    if previous == 0 or cum != given:
        return set()
    g = state.game
    held = state.hands[seat]
    return {g.codes[c] for c in state.dealt[seat][previous:given] if held >> c & 1}
