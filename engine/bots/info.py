"""What a seat knows about the cards, derived from its `View` alone: its hand, the cards played, the voids
other seats have shown and the trump if it knows it. Both the heuristic and the search bot read this.

The view's facts are card ids and `Action`s already, so nothing here reads text."""

from __future__ import annotations

from engine.play.actions import Action
from engine.play.game import NO_TRUMP, Game
from engine.play.obligations import shows_no_trump
from engine.play.view import View


class Seen:
    """Card knowledge of one seat. Masks are card-id bitmasks; `trump` is a suit index, -1 for no-trumps, None
    when this seat does not know it. (A plain class, made at every decision: compiled, its constructor is native,
    where a dataclass's generated one stays interpreted.)"""

    def __init__(self, game: Game, view: View, hand: int, indicator: int, played: int, played_by: list[int],
                 voids: list[int], trump: int | None, power_from: int, strength: list[int], exposed: list[int],
                 points: list[int]) -> None:
        self.game = game
        self.view = view
        self.hand = hand
        self.indicator = indicator          # this seat's own face-down indicator, or -1
        self.played = played                # every card played so far, the current trick included
        self.played_by = played_by          # per seat
        self.voids = voids                  # per seat: bitmask of suits the seat has shown it does not hold
        self.trump = trump
        self.power_from = power_from        # cards of the current trick before this index have no trump power
        self.strength = strength            # card strengths in this hand (a reversed no-trump hand runs the other way)
        self.exposed = exposed              # per seat: the cards it holds face up for everyone (a dummy, ...)
        self.points = points                # each card's points in this hand as this seat knows the trump
        # where cards stay out of play: a suit every other seat has shown void in has no card left in play
        # (Seen.live), though its unseen cards are still out (the stock)
        self.live_only = False

    @property
    def power(self) -> int:
        """The suit with trump power in the current trick as this seat knows it (-1: none)."""
        return self.trump if self.trump is not None and not self.view.trump_concealed else NO_TRUMP

    @property
    def unknown(self) -> int:
        """Cards this seat cannot place: not in its hand, not played, not its own indicator."""
        full = (1 << self.game.size) - 1
        own = self.hand | (1 << self.indicator if self.indicator >= 0 else 0)
        face_up = 0
        for m in self.exposed:
            face_up |= m
        return full & ~own & ~self.played & ~face_up

    @property
    def held(self) -> int:
        """The seat's cards, its own face-down indicator included."""
        return self.hand | (1 << self.indicator if self.indicator >= 0 else 0)

    def team_of(self, seat: int) -> int:
        for i, t in enumerate(self.view.teams):
            if seat in t:
                return i
        return -1

    def partners(self, a: int, b: int) -> bool:
        return self.team_of(a) == self.team_of(b)

    def outstanding(self, suit: int) -> int:
        """Cards of `suit` still out with other seats (or face down), those lying face up included."""
        face_up = 0
        for m in self.exposed:
            face_up |= m
        return (self.unknown | face_up) & self.game.suit_masks[suit]

    def live(self, suit: int) -> int:
        """Cards of `suit` still out that another seat may hold: `outstanding`, but none where cards stay out of
        play (live_only) and every other seat has shown void in the suit (the unseen ones are in the stock)."""
        out = self.outstanding(suit)
        if self.live_only and out:
            me = self.view.seat
            if all(self.voids[s] >> suit & 1 for s in range(self.view.players) if s != me):
                return 0
        return out


def read_view(game: Game, view: View) -> Seen:
    g = game
    trump = view.trump
    mode = g.mode_index(view.trump_mode) if view.trump_mode is not None else -1
    strength = g.strength_for(trump, mode) if trump is not None else g.strength
    points = g.points_for(trump, mode) if trump is not None else g.points   # each card's points in this hand
    if view.special is not None and contract_reversed(g, view.special):
        strength = g.reversed_strength     # a special contract played with the ranks the other way
    played, played_by, voids = _read_plays(g, view, trump, strength)
    _caller_voids(g, view, voids, trump)
    indicator = view.indicator if view.indicator is not None else -1
    exposed = [0] * g.n
    for e in view.exposed:
        exposed[e.seat] = e.cards
    return Seen(g, view, view.hand, indicator, played, played_by, voids, trump, _power_from(g, view), strength,
                exposed, points)


def _read_plays(g: Game, view: View, trump: int | None, strength: list[int]) -> tuple[int, list[int], list[int]]:
    """(every card played, per seat the cards it played, per seat the suits it showed void in) from the tricks."""
    played = 0
    played_by = [0] * g.n
    voids = [0] * g.n
    ob = g.rules.play.obligations
    # play.obligations: a trump played to a plain suit led while able to follow (trump_while_following), and a
    # card that is no trump played to a trump lead by a holder of never-forced trumps, show no void
    free_trump = trump if ob is not None and ob.trump_while_following and trump is not None else -1
    free_lead = trump if ob is not None and g.never_forced and trump is not None else -1
    # ... and, with the trump open from the start, a void player bound to trump who did not trump shows none
    duties = ob is not None and not g.rules.trump.concealed and view.special is None and trump is not None
    team_of = [0] * g.n
    for k, team in enumerate(view.teams):
        for s in team:
            team_of[s] = k
    for t in (*view.tricks, view.trick):
        if not t.cards:
            continue
        led = g.suit_of[t.cards[0]]
        for i, (s, c) in enumerate(zip(t.seats, t.cards, strict=True)):
            if c < 0:   # played face down, unseen: he could not follow
                voids[s] |= 1 << led
                continue
            played |= 1 << c
            played_by[s] |= 1 << c
            if i and g.suit_of[c] != led and g.suit_of[c] != free_trump and led != free_lead:
                voids[s] |= 1 << led
                if duties and trump is not None and shows_no_trump(g, list(t.cards), list(t.seats), i, trump,
                                                                   strength, team_of):
                    voids[s] |= 1 << trump
    return played, played_by, voids


def _caller_voids(game: Game, view: View, voids: list[int], trump: int | None) -> None:
    """A caller who must trump if able and then plays another suit holds no trump."""
    if trump is None or trump < 0 or not game.rules.play.caller_must_trump:
        return
    hist = view.history
    for i in range(len(hist) - 1):
        a, nxt = hist[i], hist[i + 1]
        if a.verb == "call" and a.seat != view.bidder and nxt.verb == "play" and nxt.seat == a.seat:
            if game.suit_of[game.code_ids[nxt.arg][0]] != trump:
                voids[a.seat] |= 1 << trump


def _power_from(game: Game, view: View) -> int:
    """Without retroactive exposure, trump-suit cards played to this trick before the call have no power."""
    if game.rules.play.retroactive or view.exposed_in_trick != len(view.tricks) + 1:
        return 0
    after = 0  # plays of this trick made after the call
    for a in reversed(view.history):
        if a.verb == "call":
            return len(view.trick.cards) - after
        if a.verb == "play":
            after += 1
        if after >= len(view.trick.cards):
            break
    return 0


def top_strength(strength: list[int], m: int) -> int:
    """The highest strength among the cards of mask `m` (-1 for none)."""
    best = -1
    while m:
        low = m & -m
        s = strength[low.bit_length() - 1]
        if s > best:
            best = s
        m ^= low
    return best


def contract_reversed(game: Game, name: str) -> bool:
    """Whether the special contract `name` is played with its ranks the other way."""
    c = game.contracts.get(name)
    return c is not None and c.reversed_ranking


def led_trump_suit(game: Game, hand: int, strength: list[int]) -> int:
    """The suit a declarer whose first lead names the trump leads first: his longest (the most trumps to draw
    the others' with), ties to the one with the highest card, then the higher index; -1 for an empty hand."""
    best = -1
    key = (0, -1)
    for s in range(game.nsuits):
        m = hand & game.suit_masks[s]
        if not m:
            continue
        k = (m.bit_count(), top_strength(strength, m))
        if best < 0 or k >= key:
            best, key = s, k
    return best


def last_bidder(view: View) -> int:
    """The seat that made the last bid of the auction so far (-1: nobody has bid)."""
    for a in reversed(view.history):
        if a.verb == "bid":
            return a.seat
    return -1


def has_action(history: tuple[Action, ...], verb: str, arg: str) -> bool:
    """Whether the history holds an action `verb arg` (by any seat)."""
    return any(a.verb == verb and a.arg == arg for a in history)
