"""What a seat knows about the cards, derived from its `View` alone: its hand, the cards played, the voids
other seats have shown and the trump if it knows it. Both the heuristic and the search bot read this."""

from __future__ import annotations

from dataclasses import dataclass

from engine.play.game import NO_TRUMP, Game
from engine.play.view import TrickView, View


class CardIds:
    """Turns codes into card ids, handing out each copy of a double pack once."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.used = 0

    def take(self, code: str) -> int:
        for c in self.game.code_ids[code]:
            if not self.used >> c & 1:
                self.used |= 1 << c
                return c
        return self.game.code_ids[code][0]  # more copies named than exist: only a malformed view does this


@dataclass
class Seen:
    """Card knowledge of one seat. Masks are card-id bitmasks; `trump` is a suit index, -1 for no-trumps, None
    when this seat does not know it."""

    game: Game
    view: View
    hand: int
    indicator: int          # this seat's own face-down indicator, or -1
    played: int             # every card played so far, the current trick included
    played_by: list[int]    # per seat
    voids: list[int]        # per seat: bitmask of suits the seat has shown it does not hold
    trump: int | None
    power_from: int         # cards of the current trick before this index have no trump power
    strength: list[int]     # card strengths in this hand (a reversed no-trump hand runs the other way)

    @property
    def power(self) -> int:
        """The suit with trump power in the current trick as this seat knows it (-1: none)."""
        return self.trump if self.trump is not None and not self.view.trump_concealed else NO_TRUMP

    @property
    def unknown(self) -> int:
        """Cards this seat cannot place: not in its hand, not played, not its own indicator."""
        full = (1 << self.game.size) - 1
        own = self.hand | (1 << self.indicator if self.indicator >= 0 else 0)
        return full & ~own & ~self.played

    def team_of(self, seat: int) -> int:
        for i, t in enumerate(self.view.teams):
            if seat in t:
                return i
        return -1

    def partners(self, a: int, b: int) -> bool:
        return self.team_of(a) == self.team_of(b)

    def outstanding(self, suit: int) -> int:
        """Cards of `suit` still out with other seats (or face down)."""
        return self.unknown & self.game.suit_masks[suit]


def _suit_index(game: Game, text: str | None) -> int | None:
    if text is None:
        return None
    if text == "NT":
        return -1
    return game.layout.suits.index(text)


def _voids_from_trick(game: Game, t: TrickView, ids: dict[tuple[int, int], int], voids: list[int],
                      trump: int | None, k: int) -> None:
    if not t.cards:
        return
    led = game.suit_of[ids[(k, 0)]]
    for i, (s, _code) in enumerate(t.cards[1:], start=1):
        if game.suit_of[ids[(k, i)]] != led:
            voids[s] |= 1 << led


def read_view(game: Game, view: View) -> Seen:
    g = game
    ids = CardIds(g)
    hand = 0
    for code in view.hand:
        hand |= 1 << ids.take(code)
    indicator = ids.take(view.indicator) if view.indicator else -1
    played = 0
    played_by = [0] * g.n
    voids = [0] * g.n
    trump = _suit_index(g, view.trump)
    placed: dict[tuple[int, int], int] = {}
    tricks = [*view.tricks, view.trick]
    for k, t in enumerate(tricks):
        for i, (s, code) in enumerate(t.cards):
            c = ids.take(code)
            placed[(k, i)] = c
            played |= 1 << c
            played_by[s] |= 1 << c
        _voids_from_trick(g, t, placed, voids, trump, k)
    _caller_voids(g, view, voids, trump)
    strength = g.strength_for(trump) if trump is not None else g.strength
    return Seen(g, view, hand, indicator, played, played_by, voids, trump, _power_from(g, view), strength)


def _caller_voids(game: Game, view: View, voids: list[int], trump: int | None) -> None:
    """A caller who must trump if able and then plays another suit holds no trump."""
    if trump is None or trump < 0 or not game.rules.play.caller_must_trump:
        return
    hist = view.history
    for i, text in enumerate(hist[:-1]):
        parts = text.split()
        if len(parts) >= 2 and parts[1] == "call" and int(parts[0]) != view.bidder:
            nxt = hist[i + 1].split()
            if len(nxt) == 3 and nxt[1] == "play" and nxt[0] == parts[0]:
                if game.layout.suits.index(nxt[2][-1]) != trump:
                    voids[int(parts[0])] |= 1 << trump


def _power_from(game: Game, view: View) -> int:
    """Without retroactive exposure, trump-suit cards played to this trick before the call have no power."""
    if game.rules.play.retroactive or view.exposed_in_trick != len(view.tricks) + 1:
        return 0
    after = 0  # plays of this trick made after the call
    for text in reversed(view.history):
        parts = text.split()
        if len(parts) >= 2 and parts[1] == "call":
            return len(view.trick.cards) - after
        if len(parts) >= 2 and parts[1] == "play":
            after += 1
        if after >= len(view.trick.cards):
            break
    return 0
