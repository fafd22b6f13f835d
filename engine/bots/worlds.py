"""Sampled worlds for the search bot, weighted by what the other seats did.

A world is a full `State` at the seat's decision: every card the seat cannot see is dealt (the cards still to
come included, so the auction and the trump choice can be searched too), every hidden choice is filled in (a
concealed trump is drawn from the bidder's early cards as the model of the bidder would name it), and the public
history is replayed on it through the engine, which refuses any deal that would have made a past action illegal.
Voids, played cards, hand sizes and an exposed indicator hold by construction, so a world never contradicts the
view. What the history implies beyond that is applied while drawing too (history_fit.py), so that the replay
seldom refuses a candidate: a concealed trump the trumper's plays or a face-down card rule out is not drawn, shown
pairs and melds stay with their shower, a trump card laid face down (the seat's own, or one exposed since) comes
from the chooser's first cards, `trump last` is dealt as its last card, past the full deal nobody holds every
card of the annulling rank, and once play began the bidding side was not dealt every trump. A deal that leaves
no trump the history allows is dealt again (DRAW_TRIES), not reweighted.

Inference: each candidate deal gets the log-likelihood of the other seats' public actions under the model of them
(model.py): every bid and pass from the cards that seat held in the auction, a visible trump choice from the cards
the bidder held then, and every card play that neither won the trick nor went to a winning partner, which the
heuristic makes with its cheapest playable card (PLAY_MISMATCH when the deal gave the player a cheaper one). That
is arithmetic on the deal alone: many candidates are drawn, a resample in proportion to their likelihoods is kept
(systematic resampling), and only the kept ones are replayed and searched. Budgets are counts; the seat's seeded
generator makes every draw.

Plain typed Python that mypyc can compile (setup.py's COMPILED list).
"""

from __future__ import annotations

import math
import random

from engine.bots.determinize import (
    HiddenSlots,
    Replay,
    _hidden_trump_kind,
    _indicator_code,
    deals_whole_pack,
    distinct_front,
    ids_of,
    randbelow,
    replay_card,
    shuffle,
    unseen_plays,
)
from engine.bots.history_fit import HistoryFit
from engine.bots.info import Seen, has_action
from engine.bots.meld_fit import MeldFit
from engine.bots.model import PARTNER_MARGIN, SOFT_BID, HandModel, log_floor, sigmoid
from engine.bots.turned_worlds import TurnedCard
from engine.errors import JacknineError
from engine.play.actions import bid_terms
from engine.play.base import AUCTION, PLAY
from engine.play.game import NO_TRUMP, Game, winning_index
from engine.play.rules import SEVENTH_CARD, SEVENTH_CARD_INDEX, STEP_AUCTION, STEP_TRUMP
from engine.play.state import State
from engine.play.view import TrickView, View

PLAY_MISMATCH = math.log(0.5)   # a losing card that was not the cheapest the player could play: half as likely
TEMPER = 1.0                    # likelihoods are raised to this power before resampling
DRAW_TRIES = 4                  # deals tried for one candidate before giving up
NOT_NAMED = -9                  # _trump_named: the history shows no trump named by another seat
POWER_UNKNOWN = -10             # _trump_power: the trick that exposed the trump (which cards had power is unknown)


def cards_before(game: Game, step: int) -> int:
    """How many cards each seat holds when the schedule reaches `step` (all of them if it never does)."""
    k = 0
    for code in game.rules.schedule:
        if code == step:
            return k
        if code > 0:
            k += code
    return game.cards_each


class Bid:
    """A bid or pass of another seat, with what the auction allowed then (read from the first world replayed)."""

    def __init__(self, index: int, seat: int, value: int, code: str) -> None:
        self.index = index          # in the history
        self.seat = seat
        self.value = value          # the bid's number, -1 for a pass
        self.code = code            # the suit a bid names, where bids name one
        self.lowest = -1            # the lowest bid allowed then (-1: none)
        self.margin = 0             # points the heuristic keeps over a partner's standing bid
        self.informative = False    # a free choice between passing and bidding


class Play:
    """A card of another seat that neither won the trick nor went to a winning partner."""

    def __init__(self, seat: int, trick: int, led: int, cheaper: int) -> None:
        self.seat = seat
        self.trick = trick
        self.led = led
        self.cheaper = cheaper      # the cards worth fewer points than the card played


class Candidate:
    """A deal drawn for a world: each seat's cards in dealing order, the concealed trump filled in, the
    cards each other seat holds now, and the log-likelihood of the table's actions."""

    def __init__(self, dealt: list[list[int]], blank: str, held: list[int], stock: list[int] | None = None) -> None:
        self.dealt = dealt
        self.blank = blank
        self.held = held
        self.loglik = 0.0
        self.stock: list[int] = stock if stock is not None else []   # the world's stock (games with one)


def _pin_known(slots: HiddenSlots, fit: HistoryFit, melds: MeldFit, me: int, trump_now: int) -> None:
    """The cards the history shows each other seat still holds (shown melds, pairs), and the concealed trump's
    owner's cards of the trump limited to those its plays allow."""
    for s in range(len(fit.must_hold)):
        if s != me:
            slots.pin(s, fit.must_hold[s])
    melds.pin_shown(slots)
    if fit.owner >= 0 and fit.owner != me and trump_now >= 0:
        slots.limit(fit.owner, fit.only[trump_now])


def _own_as_dealt(seen: Seen, turn: TurnedCard | None, me: int) -> int:
    """This seat's cards as dealt: held, played, laid face down (before an exchange for the turned card)."""
    own = seen.hand | seen.played_by[me] | (1 << seen.indicator if seen.indicator >= 0 else 0)
    if turn is not None and turn.exchanger == me:
        own = (own & ~(1 << turn.card)) | (1 << turn.low)
    return own


def _future_cards(game: Game, seen: Seen, slots: HiddenSlots, own: int) -> tuple[list[int], bool]:
    """(the cards each seat is still to receive, whether the unseen cards are exactly enough for every hand); with
    a stock no card comes to a hand but from it, and the cards left over are its unseen ones."""
    v = seen.view
    n = game.n
    if game.stock_size:
        return [0] * n, sum(slots.need) <= slots.pool.bit_count()
    down = unseen_plays(v)
    future = [game.cards_each - seen.played_by[s].bit_count() - v.hand_sizes[s] - down[s] for s in range(n)]
    future[v.seat] = game.cards_each - own.bit_count()
    return future, sum(slots.need) + sum(future) == slots.pool.bit_count()


def _blank_by(plan: Replay) -> int:
    """The seat whose trump choice the view blanks (the last such, -1: none)."""
    blank_by = -1
    for i in range(len(plan.actions)):
        if plan.actions[i] is None:
            blank_by = plan.seats[i]
    return blank_by


def _known_fill(game: Game, trump: int | None) -> str:
    """How a world fills in a blanked trump choice this seat knows now: NT, a card of the suit, or the suit."""
    if trump is None:
        return ""
    if trump < 0:
        return "NT"
    return "card" if game.rules.trump.as_card else game.layout.suits[trump]


def _bidding_side_dealt_all(game: Game, v: View, bidder: int) -> list[int]:
    """The bidding side, where the play began and the hand was not annulled for a bidding side dealt every trump:
    no world deals it so (empty: no such rule, or not known yet)."""
    an = game.rules.annul
    if not (an.bidding_team_held_all_trumps and an.held_all_trumps_before_play and v.special is None
            and bidder >= 0 and (v.phase == "play" or any(a.verb == "play" for a in v.history))):
        return []
    side: list[int] = []
    for team in v.teams:
        if bidder in team:
            side = list(team)
    return side


def _last_card_chooser(v: View) -> int:
    """The seat that chose `trump last` (-1: none)."""
    last_by = -1
    for a in v.history:
        if a.verb == "trump" and a.arg == "last":
            last_by = a.seat
    return last_by


def _laid_trumps(game: Game, v: View, chooser: int, trump: int) -> tuple[int, int]:
    """(the trumps the chooser played once the trump was exposed, the one he played in the trick that exposed it):
    the cards he may have laid face down (that one turned up, or played on his call)."""
    exposed = v.exposed_in_trick
    after, shown = 0, -1
    if exposed is None:
        return after, shown
    for k, t in enumerate([*v.tricks, v.trick]):
        if k + 1 < exposed:
            continue
        for j in range(len(t.cards)):
            c = t.cards[j]
            if t.seats[j] == chooser and c >= 0 and game.suit_of[c] == trump:
                after |= 1 << c
                if k + 1 == exposed:
                    shown = c
    return after, shown


def _played_from(n: int, tricks: list[TrickView]) -> list[list[int]]:
    """Per seat, the cards it played from each trick on (one more entry: none after the last)."""
    played_from = [[0] * (len(tricks) + 1) for _ in range(n)]
    for k in range(len(tricks) - 1, -1, -1):
        for s in range(n):
            played_from[s][k] = played_from[s][k + 1]
        t = tricks[k]
        for j in range(len(t.cards)):
            if t.cards[j] >= 0:
                played_from[t.seats[j]][k] |= 1 << t.cards[j]
    return played_from


def _resample(rng: random.Random, weights: list[float], worlds: int) -> list[tuple[int, int]]:
    """Systematic resampling: (index, how many of the `worlds` slots it takes) for each candidate taking any, by
    its weight, from one draw of `rng`."""
    step = sum(weights) / worlds
    x = rng.random() * step
    picks: list[tuple[int, int]] = []
    acc = 0.0
    slots = 0
    for i in range(len(weights)):
        acc += weights[i]
        taken = 0
        while x < acc and slots < worlds:
            taken += 1
            slots += 1
            x += step
        if taken:
            picks.append((i, taken))
    return picks


def _weighted_pick(rng: random.Random, weights: list[float], total: float) -> int:
    """An index drawn by weight (`total`: their sum, above 0) from one draw of `rng`."""
    x = rng.random() * total
    for s in range(len(weights)):
        x -= weights[s]
        if x < 0 and weights[s] > 0:
            return s
    return len(weights) - 1


class Sampler:
    """The constant part of a decision's worlds, read once from the view; `draw` makes one world, `sample` many."""

    def __init__(self, game: Game, seen: Seen, model: HandModel, play_weight: bool = True,
                 contract_weight: bool = True) -> None:
        self.game = game
        self.seen = seen
        self.model = model
        self.play_weight = play_weight
        self.contract_weight = contract_weight
        v = seen.view
        me = v.seat
        self.me = me
        self.replay_plan = Replay(game, seen, fill_blank=True)
        slots = HiddenSlots(game, seen)
        fit = HistoryFit(game, seen)
        self.fit = fit
        self.melds = MeldFit(game, seen)     # melds announced in trick 1 (meld_fit.py)
        trump_now = v.trump if v.trump is not None else NO_TRUMP
        _pin_known(slots, fit, self.melds, me, trump_now)
        # a turned card and a stock: face-up cards go to no hand, each world deals its own stock (turned_worlds.py)
        self.turn: TurnedCard | None = TurnedCard(game, v, slots) if game.rules.deal.turn_up else None
        self.slots = slots
        self.pool = slots.pool
        self.own = _own_as_dealt(seen, self.turn, me)
        future, fits = _future_cards(game, seen, slots, self.own)
        self.future = future
        self.ok = self.replay_plan.ok and min(future) >= 0 and fits
        self.kind = _hidden_trump_kind(game, seen)
        self.bidder = v.bidder if v.bidder is not None else -1
        self.blank_by = _blank_by(self.replay_plan)
        # a trump chosen face down that this seat knows now (exposed since): each world fills the blank choice in
        # with it, named by a card of the suit the chooser held then where the trump is a card
        self.known_fill = _known_fill(game, v.trump) if not self.kind and self.blank_by >= 0 else ""
        self.trump_now = trump_now
        an = game.rules.annul
        self.annul_rank = game.rank_masks[an.all_of_rank] if an.all_of_rank >= 0 and max(future) == 0 else 0
        self.bidding_side = _bidding_side_dealt_all(game, v, self.bidder)
        # `trump last`: the suit of the last card dealt to the chooser is trumps (his first cards, where the rule
        # says so, of different suits): his cards are dealt in an order that makes it so
        self.last_by = _last_card_chooser(v)
        if self.last_by >= 0 and self.kind:
            self.kind = "last"      # no card laid face down: the deal order names the trump
        self.laid_from, self.laid_shown = _laid_trumps(game, v, self.blank_by, trump_now) \
            if self.known_fill == "card" and trump_now >= 0 else (0, -1)
        self.k_trump = cards_before(game, STEP_TRUMP)
        self.shown_by, self.shown_code = _indicator_code(seen)
        self.own_seventh = has_action(v.history, "trump", "seventh")
        self.match_scores = list(v.match_scores)
        self.k_auction = cards_before(game, STEP_AUCTION)
        self.bids = self._bids() if contract_weight else []
        # each history action's speech, found in one step: the context is read at every action of every probe
        self._bid_at = {b.index: b for b in self.bids}
        self.trump_named = self._trump_named() if contract_weight else NOT_NAMED
        self.plays, self.played_from = self._plays() if play_weight else ([], [])
        self.ready = False          # the bids' context is read from the first world that replays
        self._est: dict[int, float] = {}

    # --- the evidence ---------------------------------------------------------------------------------------
    def _bids(self) -> list[Bid]:
        out: list[Bid] = []
        for i, a in enumerate(self.seen.view.history):
            if a.seat == self.me:
                continue
            if a.verb == "pass":
                out.append(Bid(i, a.seat, -1, ""))
            elif a.verb == "bid":
                value, code = bid_terms(a.arg)
                out.append(Bid(i, a.seat, value, code))
        return out

    def _trump_named(self) -> int:
        """The suit another seat named as trump where the history shows it (NO_TRUMP for no-trumps), else NOT_NAMED."""
        g = self.game
        for a in self.seen.view.history:
            if a.verb != "trump" or not a.arg or a.seat == self.me:
                continue
            arg = a.arg
            if arg == "NT":
                return NO_TRUMP
            if len(arg) == 1 and arg in g.layout.suits:
                return g.layout.suits.index(arg)
            if arg in g.code_ids:
                return g.suit_of[g.code_ids[arg][0]]
        return NOT_NAMED

    def _plays(self) -> tuple[list[Play], list[list[int]]]:
        """The informative card plays of other seats, and per seat the cards it played from each trick on."""
        g = self.game
        seen = self.seen
        v = seen.view
        tricks = [*v.tricks, v.trick]
        team_of = [0] * g.n
        for i, team in enumerate(v.teams):
            for s in team:
                team_of[s] = i
        out: list[Play] = []
        for k, t in enumerate(tricks):
            power = self._trump_power(k + 1)
            if power == POWER_UNKNOWN or min(t.cards, default=0) < 0:
                continue          # a card played face down he did not see: nothing to read from the trick
            out.extend(self._costly_plays(k, list(t.cards), list(t.seats), power, team_of))
        return out, _played_from(g.n, tricks)

    def _trump_power(self, trick: int) -> int:
        """The suit with trump power in trick number `trick` (from 1): none while a trump is concealed, the trump
        once exposed; POWER_UNKNOWN for the trick that exposed it (which cards had power depends on when the call
        came)."""
        v = self.seen.view
        trump = self.seen.trump if self.seen.trump is not None else NO_TRUMP
        exposed = v.exposed_in_trick
        if not self.game.rules.trump.concealed:
            return trump
        if exposed is None or trick < exposed:
            return NO_TRUMP
        return POWER_UNKNOWN if trick == exposed else trump

    def _costly_plays(self, k: int, cards: list[int], seats: list[int], power: int, team_of: list[int]) -> list[Play]:
        """The cards with points another seat gave to an opponent's winning card in trick `k` while cheaper
        ones may have been his (the model reads each as a small sign he had none)."""
        g = self.game
        seen = self.seen
        out: list[Play] = []
        for j in range(1, len(cards)):
            seat = seats[j]
            c = cards[j]
            pts = seen.points[c]
            if seat == self.me or pts <= 0:
                continue
            before = cards[:j]
            win = winning_index(before, g.suit_of, seen.strength, power, 0)
            if team_of[seats[win]] == team_of[seat]:
                continue
            if winning_index(before + [c], g.suit_of, seen.strength, power, 0) == j:
                continue
            cheaper = 0
            for x in range(g.size):
                if seen.points[x] < pts:
                    cheaper |= 1 << x
            out.append(Play(seat, k, g.suit_of[cards[0]], cheaper))
        return out

    def _read_context(self, state: State, index: int) -> None:
        """Before history action `index` is replayed on the first world: what the auction allowed then."""
        b = self._bid_at.get(index)
        if b is None or state.phase != AUCTION:
            return
        legal = state.legal_actions()
        may_pass = False
        for x in legal:
            if x.verb == "pass":
                may_pass = True
            elif x.verb == "redeal":
                return
            elif x.verb == "bid" and b.lowest < 0:
                b.lowest = self.model.value_of(x)
        hb = state.high_bidder
        partner = (hb >= 0 and hb != b.seat and not self.game.rules.table.bidder_plays_alone
                   and state.hand_team_of[hb] == state.hand_team_of[b.seat])
        b.margin = PARTNER_MARGIN if partner else 0
        b.informative = may_pass and b.lowest >= 0

    def _auction_hand(self, dealt: list[int], k: int) -> int:
        h = 0
        for c in dealt[:k]:
            h |= 1 << c
        return h

    def _estimate(self, seat: int, hand: int) -> float:
        key = hand * self.game.n + seat
        est = self._est.get(key)
        if est is None:
            _, units = self.model.best_trump(hand, self.model.no_trumps)
            est = self._est[key] = self.model.expected(seat, hand, units)
        return est

    def loglik(self, cand: Candidate) -> float:
        """The log-likelihood of the other seats' actions with this candidate's cards."""
        m = self.model
        g = self.game
        out = 0.0
        soft = SOFT_BID * m.total
        for b in self.bids:
            if not b.informative:
                continue
            hand = self._auction_hand(cand.dealt[b.seat], self.k_auction)
            if b.value < 0:
                est = self._estimate(b.seat, hand)
                out += log_floor(1.0 - sigmoid((est - (b.lowest + b.margin)) / soft))
                continue
            if g.rules.trump.in_bid and b.code:
                units = m.units_named(hand, b.code)
                est = m.expected(b.seat, hand, units)
            else:
                est = self._estimate(b.seat, hand)
            out += log_floor(sigmoid((est - (b.value + b.margin)) / soft))
        if self.trump_named != NOT_NAMED and self.bidder >= 0 and self.bidder != self.me:
            hand = self._auction_hand(cand.dealt[self.bidder], self.k_trump)
            out += m.suit_log_likelihood(hand, self.trump_named, g.rules.trump.as_card)
        for p in self.plays:
            h = cand.held[p.seat] | self.played_from[p.seat][p.trick]
            follow = h & g.suit_masks[p.led]
            if (follow or h) & p.cheaper:
                out += PLAY_MISMATCH
        return out

    def draw(self, rng: random.Random) -> Candidate | None:
        """One candidate deal (not replayed yet), or None when none fits. A deal that meets the hard constraints
        but leaves no trump the history allows (or no order of the chooser's cards that names it) is dealt again:
        drawn again, not reweighted, so the worlds keep the distribution conditioned on the history."""
        if not self.ok:
            return None
        for _ in range(DRAW_TRIES):
            c = self._draw_once(rng)
            if c is not None:
                return c
        return None

    def _draw_once(self, rng: random.Random) -> Candidate | None:
        game = self.game
        held = self.melds.deal(rng, self.slots, relax_last=False)
        if held is None:
            return None
        taken = 0
        for h in held:
            taken |= h
        rest = ids_of(self.pool & ~taken)
        shuffle(rng, rest)
        laid = self._laid_card(held) if self.known_fill == "card" else -1
        if self.known_fill == "card" and laid < 0:
            return None
        blank = game.codes[laid] if laid >= 0 else self.known_fill
        dealt: list[list[int]] = []
        pos = 0
        for s in range(game.n):
            cur = self._seat_order(rng, s, held, laid)
            if cur is None:
                return None
            k = self.future[s]
            dealt.append(cur + rest[pos:pos + k])
            pos += k
        if self.kind == "card" or self.kind == "suit":
            blank = self._hidden_trump(rng, dealt, held)
            if not blank:
                return None
        stock: list[int] | None = None
        if self.turn is not None:
            dealt, stock = self.turn.deal(rng, dealt, rest[pos:])
            if stock is None:
                return None
        elif not deals_whole_pack(game, dealt):
            return None
        if self._contradicts_history(dealt, held):
            return None
        return Candidate(dealt, blank, held, stock)

    def _laid_card(self, held: list[int]) -> int:
        """The card the chooser laid face down for the trump this seat knows now: the one seen laid, else the least
        useful card of the suit he held or played after (as the heuristic lays it); -1: none."""
        game = self.game
        laid = self.laid_shown
        if laid >= 0:
            return laid
        pick = (held[self.blank_by] & game.suit_masks[self.trump_now]) | self.laid_from
        for c in ids_of(pick):
            if laid < 0 or game.rank_of[c] > game.rank_of[laid]:
                laid = c
        return laid

    def _seat_order(self, rng: random.Random, s: int, held: list[int], laid: int) -> list[int] | None:
        """Seat `s`'s cards held or played, in a drawn dealing order with the cards whose place the history fixes:
        an exposed or laid indicator first, `trump last`'s order, this seat's own face-down card (None: no order
        of `trump last` fits)."""
        game, seen = self.game, self.seen
        mine = self.own if s == self.me else seen.played_by[s] | held[s]
        cur = ids_of(mine)
        shuffle(rng, cur)
        first = -1
        if s == self.shown_by:     # an exposed indicator came from the first cards dealt
            first = next((c for c in game.code_ids[self.shown_code] if mine >> c & 1), -1)
        elif s == self.blank_by and laid >= 0:
            first = laid
        if first >= 0:
            cur.remove(first)
            cur.insert(0, first)
        if s == self.last_by and self.future[s] == 0:
            cur = self._last_order(rng, cur, held[s])
            if not cur:
                return None
        if s == self.me and seen.indicator >= 0:
            cur.remove(seen.indicator)
            cur.insert(SEVENTH_CARD_INDEX if self.own_seventh and len(cur) >= SEVENTH_CARD else 0, seen.indicator)
        return cur

    def _contradicts_history(self, dealt: list[list[int]], held: list[int]) -> bool:
        """A world the history rules out: the bidding side dealt every trump, face-down plays its hidden cards
        cannot make, or (the hand went on past the full deal) somebody dealt every card of the annulling rank."""
        if self.trump_now >= 0 and (self._side_held_all(dealt, self.trump_now)
                                    or not self.fit.downs_fit(self.trump_now, held)):
            return True
        every = self.annul_rank
        if not every:
            return False
        for cards in dealt:
            m = 0
            for c in cards:
                m |= 1 << c
            if m & every == every:
                return True
        return False

    def _side_held_all(self, dealt: list[list[int]], suit: int) -> bool:
        """Whether the bidding side was dealt every card of `suit` (where that would have annulled the hand)."""
        if not self.bidding_side:
            return False
        m = 0
        for s in self.bidding_side:
            for c in dealt[s]:
                m |= 1 << c
        every = self.game.suit_masks[suit]
        return m & every == every

    def _last_order(self, rng: random.Random, cards: list[int], held: int) -> list[int]:
        """The chooser's cards (shuffled) in a dealing order that makes `trump last` name the trump this seat knows
        (or one his plays allow) and leaves it legal then ([] when none does)."""
        k = self.k_trump
        options = self._last_card_options(cards, held)
        if not options:
            return []
        last = options[randbelow(rng, len(options))]
        rest = [c for c in cards if c != last]
        if self.game.rules.trump.last_card_needs_distinct_suits:
            front = distinct_front(self.game, rest, k)
            if len(front) < k:
                return []
            rest = front + [c for c in rest if c not in front]
        return rest + [last]

    def _last_card_options(self, cards: list[int], held: int) -> list[int]:
        """The chooser's cards that may have been dealt last: of the trump this seat knows (or one his plays
        allow), leaving the other cards the different suits the choice needed where the rule says so."""
        game = self.game
        known = self.trump_now if self.seen.view.trump is not None else NO_TRUMP
        distinct = game.rules.trump.last_card_needs_distinct_suits
        suits = 0
        count = [0] * game.nsuits
        for c in cards:
            count[game.suit_of[c]] += 1
            suits |= 1 << game.suit_of[c]
        options: list[int] = []
        for c in cards:
            suit = game.suit_of[c]
            if not ((suit == known) if known >= 0 else self.fit.allows(suit, held)):
                continue
            if distinct and suits.bit_count() - (1 if count[suit] == 1 else 0) < self.k_trump:
                continue
            options.append(c)
        return options

    def _hidden_trump(self, rng: random.Random, dealt: list[list[int]], held: list[int]) -> str:
        """The concealed trump of this world, drawn as the model of the bidder would name it from the cards it
        held then ('' if none fits); named by a card, that card is the least useful of the suit, as the heuristic
        lays it."""
        game = self.game
        b = self.bidder
        early = 0
        for c in dealt[b][:self.k_trump]:
            early |= 1 << c
        as_card = self.kind == "card"
        weights = self._trump_weights(early, held, dealt, as_card)
        total = sum(weights)
        if total <= 0:
            return ""
        suit = _weighted_pick(rng, weights, total)
        if not as_card:
            return game.layout.suits[suit]
        best = -1
        for c in ids_of(early & held[b] & game.suit_masks[suit]):
            if best < 0 or game.rank_of[c] > game.rank_of[best]:
                best = c
        return game.codes[best]

    def _trump_weights(self, early: int, held: list[int], dealt: list[list[int]], as_card: bool) -> list[float]:
        """The model's weight of each suit as the bidder's trump from his first cards `early`, less the suits the
        plays rule out (and, laid as a card, those he holds no card of among his hidden ones)."""
        game = self.game
        b = self.bidder
        weights = self.model.suit_weights(early, as_card)
        for s in range(game.nsuits):
            if not self.fit.allows_deal(s, held) or self._side_held_all(dealt, s):
                weights[s] = 0.0
            elif as_card and not early & held[b] & game.suit_masks[s]:
                weights[s] = 0.0
        return weights

    def replay(self, cand: Candidate) -> State | None:
        """The world of a candidate deal: the history replayed on it (None where the engine refuses it)."""
        game = self.game
        replay = self.replay_plan
        v = self.seen.view
        probe = not self.ready
        try:
            state = State(game, v.dealer, cand.dealt, self.match_scores, stock=cand.stock or None)
            for i in range(len(replay.actions)):
                found = replay.actions[i]
                a = game.action(replay.seats[i], "trump", cand.blank) if found is None else found
                if state.to_act != a.seat:
                    return None
                if probe:
                    self._read_context(state, i)
                if a.verb == "play" and state.phase == PLAY:
                    if not replay_card(state, a, replay.known_plays[a.seat]):
                        return None
                else:
                    state.apply(a)
        except JacknineError:
            return None
        if state.to_act != self.me:
            return None
        self.ready = True
        return state

    def sample(self, rng: random.Random, worlds: int, draws: int) -> list[tuple[State, int]]:
        """Up to `worlds` worlds with their multiplicity: `draws` candidate deals, resampled by likelihood; the
        first that replays also tells the auction's context (so it is replayed before the likelihoods)."""
        cands: list[Candidate] = []
        first: State | None = None
        first_at = -1
        for _ in range(draws):
            c = self.draw(rng)
            if c is None:
                continue
            if first is None:
                first = self.replay(c)
                if first is None:
                    continue
                first_at = len(cands)
            cands.append(c)
        if first is None:
            return []
        lls = [self.loglik(c) for c in cands]
        top = max(lls)
        weights = [math.exp(TEMPER * (ll - top)) for ll in lls]
        out: list[tuple[State, int]] = []
        for i, k in _resample(rng, weights, worlds):
            world = first if i == first_at else self.replay(cands[i])
            if world is not None:
                out.append((world, k))
        return out
