"""Card-play obligations (play.obligations): the cards a player may play to a trick once the trump is known to
everyone, as the file's duties say - heading a trump lead, trumping when void, overtrumping, the undertrump
allowed, forced or forbidden, a trump instead of following, the trump ranks that never bind their holder.

Functions of the state, on ints and bitmasks: `playable` is the mask the hot path reads; `duty` also names the
duty that decided it, for `why_illegal` (engine/play/explain.py). Leading is free here (lead duties stay in
engine/play/tricks.py), and while the trump is concealed today's rules apply: the caller checks both.

The trick's holder is the seat whose card wins the trick so far (`winning_index` with the hand's strengths);
"a trump in the trick" is a trump-suit card with trump power (played at or after `power_from`). With no trump
suit (trump < 0) a player follows suit if able, else plays any card; in an all-trumps mode (`all_trumps`) the
suit led plays as the trump suit for the trump-led duty and nobody can trump.
"""

from __future__ import annotations

from typing import Final

from engine.cards import SUIT_NAMES
from engine.play.base import StateData
from engine.play.rules import (
    LED_TRUMP_ANY,
    LED_TRUMP_HEAD_UNLESS_PARTNER,
    UNDERTRUMP_ALLOWED,
    UNDERTRUMP_FORBIDDEN,
    UNDERTRUMP_FORBIDDEN_STRICT,
    UNDERTRUMP_FORCED,
    VOID_FREE,
    VOID_MUST_TRUMP_UNLESS_PARTNER,
    ObligationRules,
)
from engine.play.tables import NO_TRUMP, GameTables, winning_index

# Which duty decided the playable cards (`duty`), for the explanation of a refused card
FREE: Final = 0              # any card
FOLLOW: Final = 1            # follow suit
FOLLOW_OR_TRUMP: Final = 2   # follow suit or play a trump (trump_while_following)
FOLLOW_NOT_UNDER: Final = 3  # ... but no trump lower than one in the trick
TRUMP_LED: Final = 4         # a trump was led: play a trump
HEAD: Final = 5              # a trump was led: beat every trump in the trick
MUST_TRUMP: Final = 6        # void: play a trump
OVERTRUMP: Final = 7         # void, the trick holds a trump: beat it
UNDERTRUMP: Final = 8        # void, unable to overtrump: still a (lower) trump
NOT_UNDER: Final = 9         # void, unable to overtrump: another suit, not a lower trump
FREE_NOT_UNDER: Final = 10   # any card but a trump lower than one in the trick


def playable(state: StateData, p: int) -> int:
    """The mask of the cards seat `p`, to play, may play under the obligations."""
    return duty(state, p)[0]


def duty(state: StateData, p: int) -> tuple[int, int]:
    """(mask of playable cards, the duty that decided it) for seat `p` to play to the current trick."""
    g = state.game
    ob = g.rules.play.obligations
    h = state.hands[p]
    trick = state.trick_cards
    if ob is None or not trick:
        return h, FREE
    led = g.suit_of[trick[0]]
    follow = h & g.suit_masks[led]
    if state.all_trumps:    # every suit plays as the trump suit: the trump-led duty in the suit led
        if not follow:
            return h, FREE
        if ob.trump_led == LED_TRUMP_ANY:
            return follow, FOLLOW
        return _head(state, ob, p, follow, led, FOLLOW)
    if state.trump < 0:
        return (follow, FOLLOW) if follow else (h, FREE)
    trumps = h & state.trump_mask
    if led == state.trump:
        if not trumps or not trumps & ~g.never_forced:
            return h, FREE          # no trump, or only trumps that never bind him
        if ob.trump_led == LED_TRUMP_ANY:
            return trumps, TRUMP_LED
        return _head(state, ob, p, trumps, led, TRUMP_LED)
    if follow:
        return _following(state, ob, follow, trumps)
    return _void(state, ob, p, h, trumps)


def _following(state: StateData, ob: ObligationRules, follow: int, trumps: int) -> tuple[int, int]:
    """A plain suit led that he can follow: follow it (trump_while_following: or play a trump, no lower one than
    the trick's where undertrumping is forbidden)."""
    if not ob.trump_while_following or not trumps:
        return follow, FOLLOW
    best = top_trump(state)
    if ob.undertrump >= UNDERTRUMP_FORBIDDEN and best >= 0:
        over = above(state.strength, trumps, best)
        return follow | over, (FOLLOW_NOT_UNDER if trumps != over else FOLLOW_OR_TRUMP)
    return follow | trumps, FOLLOW_OR_TRUMP


def _void(state: StateData, ob: ObligationRules, p: int, h: int, trumps: int) -> tuple[int, int]:
    """A plain suit led that he cannot follow: trump, overtrump, undertrump as the duties say."""
    tmask = state.trump_mask
    best = top_trump(state)
    bound = trumps != 0 and ob.void != VOID_FREE and trumps & ~state.game.never_forced != 0
    if bound and ob.void == VOID_MUST_TRUMP_UNLESS_PARTNER and partner_holds(state, p):
        bound = False
    if not bound:
        if ob.undertrump >= UNDERTRUMP_FORBIDDEN and best >= 0:
            lower = trumps & ~above(state.strength, trumps, best)
            # the exemption: nothing but trumps (FORBIDDEN), or nothing but such lower trumps (the strict reading)
            other = h & ~tmask if ob.undertrump == UNDERTRUMP_FORBIDDEN else h & ~lower
            if lower and other:
                return h & ~lower, FREE_NOT_UNDER
        return h, FREE
    if best < 0:
        return trumps, MUST_TRUMP
    forbidden = ob.undertrump >= UNDERTRUMP_FORBIDDEN
    if not ob.overtrump and not forbidden:
        return trumps, MUST_TRUMP
    over = above(state.strength, trumps, best)
    if over:
        return over, OVERTRUMP
    # bound to trump, and no trump of his beats the trick's
    if ob.undertrump == UNDERTRUMP_FORCED:
        return trumps, UNDERTRUMP
    if ob.undertrump == UNDERTRUMP_ALLOWED:
        return h, FREE
    rest = h & ~tmask
    return (rest, NOT_UNDER) if rest else (h, FREE)


def _head(state: StateData, ob: ObligationRules, p: int, cards: int, led: int, otherwise: int) -> tuple[int, int]:
    """The trump-led duty: of `cards` (his cards of the suit led, which plays as trumps), those beating every card
    of that suit in the trick when he has one (head_trick_unless_partner_winning: only while an opponent holds
    the trick); else any of them."""
    if ob.trump_led == LED_TRUMP_HEAD_UNLESS_PARTNER and partner_holds(state, p):
        return cards, otherwise
    suit_of = state.game.suit_of
    strength = state.strength
    top = -1
    for c in state.trick_cards:
        if suit_of[c] == led and strength[c] > top:
            top = strength[c]
    over = above(strength, cards, top)
    return (over, HEAD) if over else (cards, otherwise)


def above(strength: list[int], cards: int, best: int) -> int:
    """The cards of mask `cards` stronger than `best`."""
    out = 0
    m = cards
    while m:
        low = m & -m
        if strength[low.bit_length() - 1] > best:
            out |= low
        m ^= low
    return out


def top_trump(state: StateData) -> int:
    """The strength of the highest trump with trump power in the current trick (-1: none)."""
    trump = state.trump
    if trump < 0:
        return -1
    suit_of = state.game.suit_of
    strength = state.strength
    trick = state.trick_cards
    best = -1
    for i in range(state.power_from, len(trick)):
        c = trick[i]
        if suit_of[c] == trump and strength[c] > best:
            best = strength[c]
    return best


def holder(state: StateData) -> int:
    """The seat whose card wins the current trick so far (-1: no card played)."""
    trick = state.trick_cards
    if not trick:
        return -1
    trump = NO_TRUMP if state.all_trumps or state.concealed else state.trump
    return state.trick_seats[winning_index(trick, state.game.suit_of, state.strength, trump, state.power_from)]


def partner_holds(state: StateData, p: int) -> bool:
    """Whether a partner of `p` (his side this hand) holds the current trick."""
    w = holder(state)
    return w >= 0 and w != p and state.hand_team_of[w] == state.hand_team_of[p]


# --- the explanation of a refused card -----------------------------------------------------------------
# A refused card's reason by the duty that refused it ({led}, {trump}: the suits' names; {mine}: his best
# playable card; {top}: the trick's best trump, or best card of the suit led; {card}: the card refused).
_REFUSALS: Final = {
    FOLLOW: "you must follow {led}",
    FOLLOW_OR_TRUMP: "you must follow {led} or play a trump ({trump})",
    HEAD: "you must head the trick: you hold {mine}, which beats {top}",
    MUST_TRUMP: "you cannot follow {led}, so you must trump ({trump}): you hold {mine}",
    OVERTRUMP: "you must overtrump: you hold {mine}, which beats {top}",
    UNDERTRUMP: "you cannot beat {top}, but you must still play a trump ({trump})",
    NOT_UNDER: "you cannot beat {top} and may not undertrump it: play another suit",
}


def why_refused(state: StateData, p: int, card: int) -> str:
    """Which duty card id `card` (held by seat `p`, to play, not playable) breaks, in a player's words."""
    g = state.game
    allowed, kind = duty(state, p)
    words = _refusal(state, kind, card)
    if not words:
        return f"you may not play {g.codes[card]} now"
    led = g.suit_of[state.trick_cards[0]] if state.trick_cards else -1
    suits = g.layout.suits
    return words.format(
        led=SUIT_NAMES[suits[led]] if led >= 0 else "",
        trump=SUIT_NAMES[suits[state.trump]] if state.trump >= 0 else "trumps",
        mine=_best(state, allowed),
        top=_top_card(state, state.trump if state.trump >= 0 and not state.all_trumps else led),
        card=g.codes[card])


def _refusal(state: StateData, kind: int, card: int) -> str:
    """The words of duty `kind` ('' for none); three say more where the card or the rules decide."""
    if kind == FOLLOW_NOT_UNDER:
        if state.game.suit_of[card] == state.trump:
            return "you may not undertrump while you can follow {led}: {card} is lower than {top} in the trick"
        return "you must follow {led} or play a trump higher than {top}"
    if kind == TRUMP_LED:
        return "{led} were led: you must play {led}" if state.all_trumps else \
            "a trump was led: you must play a trump ({trump})"
    if kind == FREE_NOT_UNDER:
        ob = state.game.rules.play.obligations
        strict = ob is not None and ob.undertrump == UNDERTRUMP_FORBIDDEN_STRICT
        other = "any other card" if strict else "cards of another suit"
        return "you may not undertrump {top} while you hold " + other
    return _REFUSALS.get(kind, "")


def _best(state: StateData, cards: int) -> str:
    """The code of the strongest card of mask `cards` ('' for none)."""
    best, code = -1, ""
    m = cards
    while m:
        low = m & -m
        c = low.bit_length() - 1
        if state.strength[c] > best:
            best, code = state.strength[c], state.game.codes[c]
        m ^= low
    return code


def _top_card(state: StateData, suit: int) -> str:
    """The code of the strongest card of `suit` in the current trick ('' for none)."""
    best, code = -1, ""
    g = state.game
    for c in state.trick_cards:
        if g.suit_of[c] == suit and state.strength[c] > best:
            best, code = state.strength[c], g.codes[c]
    return code


# --- what a play shows (the bots' reading of a view) ---------------------------------------------------
def shows_no_trump(game: GameTables, cards: list[int], seats: list[int], i: int, trump: int, strength: list[int],
                   team_of: list[int]) -> bool:
    """Whether the `i`-th card of a trick (`cards`, played by `seats`), played with an open `trump`, shows that its
    player held no trump: a plain suit led that he did not follow, a card that is no trump, and duties that bound
    him to play a trump, any trump doing. Never where a never-forced rank could have freed him."""
    g = game
    ob = g.rules.play.obligations
    if ob is None or trump < 0 or ob.void == VOID_FREE or g.never_forced or i == 0:
        return False
    suit_of = g.suit_of
    led = suit_of[cards[0]]
    suit = suit_of[cards[i]]
    if led == trump or suit == led or suit == trump:
        return False
    if ob.void == VOID_MUST_TRUMP_UNLESS_PARTNER and _partner_held(suit_of, cards, seats, i, trump, strength,
                                                                    team_of):
        return False
    if not _trumped_before(suit_of, cards, i, trump) or ob.undertrump == UNDERTRUMP_FORCED:
        return True
    return not ob.overtrump and ob.undertrump < UNDERTRUMP_FORBIDDEN    # any trump would have done


def _trumped_before(suit_of: list[int], cards: list[int], i: int, trump: int) -> bool:
    """A trump is among the trick's first `i` cards."""
    for j in range(i):
        if suit_of[cards[j]] == trump:
            return True
    return False


def _partner_held(suit_of: list[int], cards: list[int], seats: list[int], i: int, trump: int, strength: list[int],
                  team_of: list[int]) -> bool:
    """The `i`-th card's player found his partner holding the trick."""
    w = seats[winning_index(cards[:i], suit_of, strength, trump, 0)]
    return team_of[w] == team_of[seats[i]]
