"""Whether a player can prove that his side wins every remaining trick, from his own knowledge.

The question of a claim with `certainty: provable`: for every lie of the cards he has not seen that agrees with
what he has seen (hand sizes, the voids players showed, cards shown in hand), and every legal play of the three
others - his partner's choices included, only forced plays counting - does he have a way to play his own cards
that wins every trick for his side?

The unseen cards are not dealt out in advance: the others' cards are one pool, and each card an opponent or the
partner plays is taken from the pool when it is played, as long as the rest can still be dealt to the seats in
their sizes without giving anyone a suit he showed void in (a small Hall test, at most 2^3 subsets). A world
fixed in advance and a lie chosen as play goes are the same thing to a player who sees only the plays, so the
search is exact for his information, and of perfect information in its own state. It is kept small by:
- equivalent cards grouped: unseen cards of one suit with no card of another holder (nor of the trick) between
  them in rank are one choice (only who wins tricks matters, not points);
- the caller's masters first, the others' refuting plays first (an opponent's that take the trick, the partner's
  weakest), so a refutation is usually found at once;
- a refutation at the start of a trick when an opponent may hold a trump above all of his (it must take a trick);
- a memo of trick starts; a sure-sweep test on lead (every trump of his above as many unseen trumps as there
  are, every plain card a master or covered by enough of his own above it) that proves most real claims at once;
- a node budget: past it the sweep is not proved (a claim counts as unproved, never as proved).

While the trump is still concealed nothing is proved: a face-down cut the caller cannot see may always take a
trick as far as he knows. Cards played face down that he did not see, and the cards of players sitting out, are
a sink that takes any unseen card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.play.base import UNDECIDED
from engine.play.tables import TRUMP_POWER

if TYPE_CHECKING:
    from engine.play.base import StateData

NODE_BUDGET = 200_000


class _OutOfBudget(Exception):
    pass


class _Search:
    def __init__(self, st: StateData, seat: int) -> None:
        g = st.game
        self.g = g
        self.n = g.n
        self.seat = seat
        team = st.hand_team_of[seat]
        self.side = 0
        for s in range(g.n):
            if st.hand_team_of[s] == team:
                self.side |= 1 << s
        self.active = [s for s in range(g.n) if not st.sitting_out >> s & 1]
        self.after = [self._next(st.sitting_out, s) for s in range(g.n)]
        self.trump = st.trump
        self.tmask = st.trump_mask
        self.strength = st.strength
        self.suit_of = g.suit_of
        self.suit_masks = g.suit_masks
        self.bidder = st.bidder
        self.open_duty = st.open_duty
        self.exhausted_rule = g.rules.play.exhausted_trumps and st.special is None
        # by suit, strongest first within it: runs of equivalent cards are contiguous
        self.order = sorted(range(g.size), key=lambda c: (g.suit_of[c], -self.strength[c]))
        self.all_suits = (1 << g.nsuits) - 1
        self.memo: dict[tuple[int, ...], bool] = {}
        self.budget = NODE_BUDGET

    def _next(self, out: int, s: int) -> int:
        s = (s + 1) % self.n
        while out >> s & 1:
            s = (s + 1) % self.n
        return s

    # --- cards -------------------------------------------------------------------------------------
    def power(self, card: int, led: int) -> int:
        s = self.suit_of[card]
        if s == self.trump:
            return self.strength[card] + TRUMP_POWER
        return self.strength[card] if s == led else -1

    def winning(self, cards: list[int], led: int) -> int:
        """The index of the card that wins `cards` so far."""
        best = 0
        for i in range(1, len(cards)):
            if self.power(cards[i], led) > self.power(cards[best], led):
                best = i
        return best

    def groups(self, cands: int, live: int) -> list[int]:
        """One card of each run of `cands` with no other `live` card between them in rank, strongest first."""
        out: list[int] = []
        prev_in = False
        prev_suit = -1
        for c in self.order:
            if not live >> c & 1:
                continue
            s = self.suit_of[c]
            inside = bool(cands >> c & 1)
            if inside and not (prev_in and s == prev_suit):
                out.append(c)
            prev_in, prev_suit = inside, s
        return out

    def plays_of(self, cands: int, live: int, pool: int) -> list[int]:
        """Another seat's distinct plays among `cands`: the unseen cards one by one (the pool is shared by several
        seats, so two unseen cards next in rank may lie in different hands: a low one led by the caller's partner
        lets an opponent win where the high one would not), his known cards grouped as `groups` does."""
        unseen = cands & pool
        known = 0
        for c in self.groups(cands & ~pool, live):
            known |= 1 << c
        out: list[int] = []
        for c in self.order:
            if (unseen | known) >> c & 1:
                out.append(c)
        return out

    # --- the lie of the unseen cards ---------------------------------------------------------------
    def feasible(self, pool: int, need: list[int], voids: list[int]) -> bool:
        seats = [s for s in self.active if s != self.seat and need[s] > 0]
        total = 0
        for s in seats:
            total += need[s]
        if total > pool.bit_count():
            return False
        k = len(seats)
        counts = [(pool & m).bit_count() for m in self.suit_masks]   # the pool's cards of each suit
        for bits in range(1, 1 << k):
            want = 0
            allowed = 0
            for i in range(k):
                if bits >> i & 1:
                    s = seats[i]
                    want += need[s]
                    allowed |= self.all_suits & ~voids[s]
            have = 0
            su = 0
            while allowed:
                if allowed & 1:
                    have += counts[su]
                allowed >>= 1
                su += 1
            if want > have:
                return False
        return True

    # --- the search --------------------------------------------------------------------------------
    def trick(self, own: int, pool: int, known: tuple[int, ...], need: tuple[int, ...], voids: tuple[int, ...],
              leader: int, first: bool, exhausted: bool) -> bool:
        if not own and not any(known) and not any(need[s] for s in self.active if s != self.seat):
            return True
        key = (own, pool, leader, int(first), int(exhausted), *known, *need, *voids)
        found = self.memo.get(key)
        if found is not None:
            return found
        if leader == self.seat and self.sure_on_lead(own, pool, known):
            result = True
        elif self.top_trump_outside(own, pool, known, need, voids):
            result = False
        else:
            result = self.turn(own, pool, list(known), list(need), list(voids), leader, [], [], first, exhausted)
        self.memo[key] = result
        return result

    def sure_on_lead(self, own: int, pool: int, known: tuple[int, ...]) -> bool:
        """A sufficient test on lead: at least as many trumps as the others may hold, and every card of his a
        master of its suit or covered by at least as many of his own above it as the others may hold of it.
        Trumps led from the top draw every other trump (all must follow); then each suit from the top."""
        others = pool
        for k in known:
            others |= k
        if (own & self.tmask).bit_count() < (others & self.tmask).bit_count():
            return False
        for su in range(self.g.nsuits):
            mine = own & self.suit_masks[su]
            theirs = others & self.suit_masks[su]
            if not mine or not theirs:
                continue
            top = -1
            for c in range(self.g.size):
                if theirs >> c & 1 and self.strength[c] > top:
                    top = self.strength[c]
            lacked = theirs.bit_count()
            above = 0
            for c in self.order:
                if mine >> c & 1:
                    if self.strength[c] < top and above < lacked:
                        return False
                    above += 1
        return True

    def top_trump_outside(self, own: int, pool: int, known: tuple[int, ...], need: tuple[int, ...],
                          voids: tuple[int, ...]) -> bool:
        """A sufficient test for a refutation at the start of a trick: the highest trump not in his hand may lie
        with an opponent and he holds no trump above it. No card left can beat it, and it must be played, so it
        takes a trick. Without this the search refutes such a position by trying every order of his plays (the
        others' follows come before their ruffs): 200,000 nodes, 20 s, in some 304 positions."""
        if self.trump < 0:
            return False
        tsuit = self.suit_masks[self.trump]
        others = pool
        for k in known:
            others |= k
        top = -1
        for c in self.order:          # by suit, strongest first: the first trump met is the highest
            if (others & tsuit) >> c & 1:
                top = c
                break
        if top < 0:
            return False
        for c in self.order:
            if (own & tsuit) >> c & 1 and self.strength[c] > self.strength[top]:
                return False
        for s in self.active:
            if s == self.seat or self.side >> s & 1:
                continue
            if known[s] >> top & 1:
                return True
            if pool >> top & 1 and need[s] > 0 and not voids[s] >> self.trump & 1:
                nn = list(need)
                nn[s] -= 1
                if self.feasible(pool & ~(1 << top), nn, list(voids)):
                    return True
        return False

    def turn(self, own: int, pool: int, known: list[int], need: list[int], voids: list[int], to: int,
             cards: list[int], seats: list[int], first: bool, exhausted: bool) -> bool:
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        led = self.suit_of[cards[0]] if cards else -1
        duty = (to == self.bidder and not cards and self.tmask != 0
                and ((self.open_duty and first) or exhausted))
        trick_live = 0
        for c in cards:
            trick_live |= 1 << c
        live = own | pool | trick_live
        for k in known:
            live |= k
        if to == self.seat:
            options = self.own_options(own, led, duty)
            for c in self.groups(options, live):
                if self.after_play(own & ~(1 << c), pool, known, need, voids, to, cards + [c], seats + [to],
                                   first, exhausted):
                    return True
            return False
        # another seat: every play the unseen cards allow, those likeliest to refute first
        mine = known[to]
        for c, void_suit in self.refuting_first(self.other_options(pool, mine, need[to], voids[to], led, duty,
                                                                   live), to, cards, seats, led):
            nk = list(known)
            nn = list(need)
            nv = list(voids)
            npool = pool
            if mine >> c & 1:
                nk[to] = mine & ~(1 << c)
            else:
                npool = pool & ~(1 << c)
                nn[to] -= 1
            if void_suit >= 0:
                nv[to] |= 1 << void_suit
            if not self.feasible(npool, nn, nv):
                continue
            if not self.after_play(own, npool, nk, nn, nv, to, cards + [c], seats + [to], first, exhausted):
                return False
        return True

    def refuting_first(self, options: list[tuple[int, int]], to: int, cards: list[int], seats: list[int],
                       led: int) -> list[tuple[int, int]]:
        """The order in which another seat's plays are tried. Any order gives the same answer; a refutation found
        first ends the search of a position that cannot be proved. An opponent tries first what takes the trick
        from the caller's side, the strongest first; the partner (who helps only when forced) what leaves the trick
        to the opponents, the weakest first, and he leads his weakest cards first."""
        if len(options) < 2:
            return options
        if not cards:
            if self.side >> to & 1:
                return sorted(options, key=lambda o: self.strength[o[0]])
            return options
        best = self.winning(cards, led)
        top = self.power(cards[best], led)
        ours = bool(self.side >> seats[best] & 1)
        if self.side >> to & 1:
            return sorted(options, key=lambda o: self.power(o[0], led))
        if not ours:
            return options
        return sorted(options, key=lambda o: -self.power(o[0], led) if self.power(o[0], led) > top else 1)

    def own_move(self, own: int, pool: int, known: list[int], need: list[int], voids: list[int], to: int,
                 cards: list[int], seats: list[int], first: bool, exhausted: bool) -> int:
        """The first of the seat's plays (at its turn) after which the sweep is proved, -1 for none."""
        self.budget -= 1
        led = self.suit_of[cards[0]] if cards else -1
        duty = (to == self.bidder and not cards and self.tmask != 0
                and ((self.open_duty and first) or exhausted))
        live = own | pool
        for c in cards:
            live |= 1 << c
        for k in known:
            live |= k
        for c in self.groups(self.own_options(own, led, duty), live):
            if self.after_play(own & ~(1 << c), pool, known, need, voids, to, cards + [c], seats + [to],
                               first, exhausted):
                return c
        return -1

    def own_options(self, own: int, led: int, duty: bool) -> int:
        if led < 0:
            if duty and own & self.tmask:
                return own & self.tmask
            return own
        return own & self.suit_masks[led] or own

    def other_options(self, pool: int, mine: int, need: int, void: int, led: int, duty: bool,
                      live: int) -> list[tuple[int, int]]:
        """(card, suit he shows void in by playing it, or -1) for each distinct play of another seat."""
        hidden = pool if need > 0 else 0
        out: list[tuple[int, int]] = []
        if led >= 0:
            must = self.suit_masks[led]
            for c in self.plays_of((mine | (hidden if not void >> led & 1 else 0)) & must, live, hidden):
                out.append((c, -1))
            if not mine & must:      # he may be void in the suit led: any other card he can hold
                rest = mine | self.allowed(hidden, void | 1 << led)
                marks = led if not void >> led & 1 else -1
                for c in self.plays_of(rest & ~must, live, hidden):
                    out.append((c, marks))
            return out
        if duty:
            t = (mine | self.allowed(hidden, void)) & self.tmask
            for c in self.plays_of(t, live, hidden):
                out.append((c, -1))
            if not mine & self.tmask:
                marks = self.trump if not void >> self.trump & 1 else -1
                rest = (mine | self.allowed(hidden, void | 1 << self.trump)) & ~self.tmask
                for c in self.plays_of(rest, live, hidden):
                    out.append((c, marks))
            return out
        for c in self.plays_of(mine | self.allowed(hidden, void), live, hidden):
            out.append((c, -1))
        return out

    def allowed(self, cards: int, void: int) -> int:
        out = 0
        for su in range(self.g.nsuits):
            if not void >> su & 1:
                out |= cards & self.suit_masks[su]
        return out

    def after_play(self, own: int, pool: int, known: list[int], need: list[int], voids: list[int], p: int,
                   cards: list[int], seats: list[int], first: bool, exhausted: bool) -> bool:
        if len(cards) < len(self.active):
            return self.turn(own, pool, known, need, voids, self.after[p], cards, seats, first, exhausted)
        led = self.suit_of[cards[0]]
        winner = seats[self.winning(cards, led)]
        if not self.side >> winner & 1:
            return False
        if self.exhausted_rule and not exhausted and seats[0] == self.bidder and led == self.trump:
            exhausted = all(self.suit_of[c] != self.trump for c in cards[1:])
        return self.trick(own, pool, tuple(known), tuple(need), tuple(voids), winner, False, exhausted)


def sweep_provable(st: StateData, seat: int) -> bool:
    """Whether `seat`, at this position (its turn to play), can prove its side wins every remaining trick."""
    return sweep_card(st, seat, False) >= 0


def sweep_card(st: StateData, seat: int, card: bool = True) -> int:
    """A card of `seat` (at its turn to play) that keeps its side's sweep proved whatever the others play, -1 when
    the sweep cannot be proved; with `card` False, only whether it can (then 0 for proved: no card is looked for
    once a sure sweep on lead settles it)."""
    found = searched_sweep(st, seat, card)
    return -1 if found is None else found


def searched_sweep(st: StateData, seat: int, card: bool = True) -> int | None:
    """What `sweep_card` answers, but None when the node budget ran out before the search ended."""
    return bounded_sweep(st, seat, card, NODE_BUDGET)[0]


def bounded_sweep(st: StateData, seat: int, card: bool, budget: int) -> tuple[int | None, int]:
    """`searched_sweep` within `budget` positions (at most NODE_BUDGET): its answer (None: the budget ran out)
    and the positions it searched."""
    g = st.game
    if st.trump == UNDECIDED or (st.concealed and st.trump >= 0):
        return -1, 0
    search = _Search(st, seat)
    budget = min(budget, NODE_BUDGET)
    search.budget = budget
    found = _searched(search, st, seat, card, g.n, g.size, g.suit_of)
    return found, budget - max(search.budget, 0)


def _searched(search: _Search, st: StateData, seat: int, card: bool, n: int, size: int, suit_of: list[int]
              ) -> int | None:
    own = st.hands[seat]
    seen = own
    for t in st.tricks:
        for c in t.cards:
            seen |= 1 << c
    for c in st.trick_cards:
        seen |= 1 << c
    unseen_hidden = st.hidden
    if seat == st.folder:
        unseen_hidden = 0           # the trumper looked at every face-down card
    else:
        for t in st.tricks:
            for i, c in enumerate(t.cards):
                if t.seats[i] == seat:
                    unseen_hidden &= ~(1 << c)
    seen &= ~unseen_hidden
    known = [0] * n
    for s in range(n):
        if s != seat:
            known[s] = st.shown[s] & st.hands[s]
    pool = ((1 << size) - 1) & ~seen
    for k in known:
        pool &= ~k
    need = [0] * n
    voids = [0] * n
    for s in range(n):
        if s != seat and not st.sitting_out >> s & 1:
            need[s] = st.hands[s].bit_count() - known[s].bit_count()
    for t in st.tricks:
        _voids(suit_of, t.cards, t.seats, voids)
    _voids(suit_of, st.trick_cards, st.trick_seats, voids)
    cards = list(st.trick_cards)
    seats = list(st.trick_seats)
    first = not st.tricks
    if not cards and search.top_trump_outside(own, pool, tuple(known), tuple(need), tuple(voids)):
        return -1
    try:
        if not card:
            return 0 if search.turn(own, pool, known, need, voids, seat, cards, seats, first, st.exhausted) else -1
        return search.own_move(own, pool, known, need, voids, seat, cards, seats, first, st.exhausted)
    except _OutOfBudget:
        return None


def _voids(suit_of: list[int], cards: list[int], seats: list[int], voids: list[int]) -> None:
    if not cards:
        return
    led = suit_of[cards[0]]
    for i in range(1, len(cards)):
        if suit_of[cards[i]] != led:
            voids[seats[i]] |= 1 << led
