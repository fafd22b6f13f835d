"""Fixed-size encodings of a game for learning code: one action index space per rule file, legal-action masks,
observation tensors of what one seat sees, information-state keys, and the deal as a sequence of chance outcomes.
Pure Python (no numpy); the OpenSpiel adapter (`openspiel.py`) and the reinforcement-learning environments
(`engine.rl`) are thin layers over this one module, so both number actions and lay out observations alike.

Observations have two encoders with one layout: `Observation.encode(view)` reads a seat's `View` (the
reference: a view carries nothing hidden), and `Observation.encode_state(state, seat)` reads the same things
straight from the state's public fields and that seat's own cards, about ten times faster; the tests hold the two
equal on random hands of every shipped rule file, and blind to swaps of other seats' cards."""

from __future__ import annotations

from engine.errors import ArgumentError
from engine.play.actions import Action, bid_terms
from engine.play.banked import banked_bound
from engine.play.base import MELDS, PHASE_NAMES, PLAY, UNDECIDED
from engine.play.game import NO_TRUMP, Game, GameTables
from engine.play.rules import COMBOS_DECLARED, REFOLD_WHEN_MARKED, STEP_CHOOSE_TRUMP
from engine.play.state import State
from engine.play.view import View, hand_order, public_history

FIXED_VERBS = ("pass", "redeal", "call", "show pair", "surrender", "accept", "refuse")



def best_other(points: list[int], mine: int) -> int:
    """The most card points any other team holds (the observation's "theirs" beside the seat's own team)."""
    theirs = 0
    for i in range(len(points)):
        if i != mine and points[i] > theirs:
            theirs = points[i]
    return theirs

class ActionSpace:
    """Every action notation the rule file can produce, each with a fixed index (the seat is not part of it)."""

    def __init__(self, game: Game) -> None:
        g = game
        names: list[str] = list(FIXED_VERBS)
        names += g.doubling_names
        names += [f"declare {c}" for c in g.contracts]
        names += [f"declare {c.name}" for c in g.rules.claims]
        names += ["open"] if g.rules.trump.open_by_choice else []
        names += [a.notation for a in g.bid_actions(0)]
        names += [f"trump {code}" for code in dict.fromkeys(g.codes)]
        names += [f"trump {s}" for s in g.layout.suits] + ["trump seventh"]
        names += [f"raise {v}" for v in g.bid_values]
        names += [f"play {code}" for code in dict.fromkeys(g.codes)]
        names += _auction_names(g)
        self.names = list(dict.fromkeys(names))
        self.index = {n: i for i, n in enumerate(self.names)}
        self.game = game
        # per seat, index -> the game's interned action (what `apply` recognises at once, by identity)
        self.actions: list[list[Action]] = [[g.intern(Action.parse(f"{s} {n}")) for n in self.names]
                                            for s in range(g.n)]
        self._of: dict[Action, int] = {a: i for row in self.actions for i, a in enumerate(row)}
        # the same by identity: the legal actions are these interned ones, and an int hashes at once
        self._by_id: dict[int, int] = {id(a): i for row in self.actions for i, a in enumerate(row)}
        # card id -> index of its play action (a double pack's copies share one); index -> the card ids
        self.card_index = [self.index[f"play {code}"] for code in g.codes]
        self.index_cards: dict[int, list[int]] = {}
        for c, i in enumerate(self.card_index):
            self.index_cards.setdefault(i, []).append(c)

    def __len__(self) -> int:
        return len(self.names)

    def of(self, action: Action) -> int:
        i = self._by_id.get(id(action))
        if i is not None and 0 <= action.seat < len(self.actions) and self.actions[action.seat][i] is action:
            return i
        i = self._of.get(action)
        return i if i is not None else self.index[action.notation]

    def action(self, seat: int, index: int) -> Action:
        return self.actions[seat][index]

    def legal(self, state: State) -> list[int]:
        """Sorted indices of the legal actions (OpenSpiel's convention)."""
        of = self.of
        return sorted({of(a) for a in state.legal_actions()})

    def mask(self, state: State) -> list[int]:
        m = [0] * len(self.names)
        for i in self.legal(state):
            m[i] = 1
        return m

    def legal_fast(self, state: State) -> list[int]:
        """The legal indices, unsorted, read in the play phase from the playable-card mask (no action list is
        built); the same set as `legal`."""
        if state.phase != PLAY:
            of = self.of
            return [of(a) for a in state.legal_actions()]
        out = [self.of(a) for a in state.other_actions()]
        mask = state.card_mask()
        ci = self.card_index
        last = -1
        while mask:
            low = mask & -mask
            i = ci[low.bit_length() - 1]
            if i != last:       # copies of a card are adjacent ids and share an index
                out.append(i)
                last = i
            mask ^= low
        return out

    def apply(self, state: State, index: object) -> None:
        """Apply the action at `index` for the seat to act: a card by its id where it is playable (the fast path
        `play_card_id` takes), anything else through `State.apply`, which refuses an illegal one. An index outside
        the space (a negative one would count from the end of a list) is refused with ArgumentError."""
        # `object`, not `int`: compiled, an int parameter would take True for 1 before the check saw it
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.names):
            raise ArgumentError(f"action id {index!r} is not in the action space (0..{len(self.names) - 1})")
        if state.phase == PLAY:
            cards = self.index_cards.get(index)
            if cards is not None:
                mask = state.card_mask()
                for c in cards:
                    if mask >> c & 1:
                        state.play_card_id(c)
                        return
        state.apply(self.actions[state.to_act][index])


def _auction_names(g: Game) -> list[str]:
    """The speeches a rule file adds to the auction (appended, so the indexes of other files stay as they were):
    `partner`, the second auction's bids and their `change` marks, `concede`, `trump NT`."""
    r = g.rules
    out: list[str] = []
    rounds = [r.auction] + ([r.second_auction] if r.second_auction is not None else [])
    if any(a.partner_speech for a in rounds):
        out.append("partner")
    if len(g.rounds) > 1 and g.rounds[1].verb == "bid":
        out += [a.notation for a in g.rounds[1].bid_actions(0)]
        if r.second_auction is not None and r.second_auction.holder_refolds == REFOLD_WHEN_MARKED:
            out += ["pass change"] + [f"{a.notation} change" for a in g.rounds[1].bid_actions(0)]
    if r.concede is not None:
        out.append("concede")
    if r.trump.last_card:
        out.append("trump last")
    out += [f"declare {c.name}" for c in r.claims]
    if r.melds is not None:
        out += [f"show {k.name} {s}" for k in r.melds.kinds for s in g.layout.suits]
    if r.combinations is not None and r.combinations.counted == COMBOS_DECLARED:
        out.append("announce")
    if r.trump.no_trumps:
        out.append("trump NT")     # no-trumps declared after the auction (a bid naming NT is a bid above)
    out += [f"trump {name}" for name in g.mode_names]   # a trump mode named after the auction (trump.modes)
    d = r.deal
    if d.turn_up:
        out += ["take", "exchange"]
    if d.schmeiss:
        out += ["schmeiss", "accept", "refuse"]
    if d.may_push:
        out.append("push")
    return out


class Observation:
    """A flat float vector of what one seat sees, positions relative to that seat (0 = itself)."""

    def __init__(self, game: Game) -> None:
        g = game
        self.game = game
        n, size = g.n, g.size
        # the meld window and the deal procedures' phases come last: files without them keep the layout they always
        # had (a game with a turned card or a trump choice without an auction has every phase; the turned card
        # is the indicator row's card for everyone, the stock never appears)
        d = g.rules.deal
        if d.turn_up or STEP_CHOOSE_TRUMP in g.rules.schedule:
            phases = len(PHASE_NAMES)
        else:
            phases = MELDS + 1 if g.rules.melds is not None else MELDS
        self.parts = [("hand", size), ("played", size), ("trick", n * size), ("indicator", size),
                      ("trump", g.nsuits + 2), ("phase", phases), ("bidder", n + 1), ("to_act", n + 1),
                      ("contract", 4), ("card_points", 2), ("bids", n)]
        # hands that may lie face up (a dummy, an exposed partner, a hand shown): a part only where a rule can do
        # it, so the other files' tensors stay as they were
        r = g.rules
        self.exposes = r.play.bidders_partner_exposed or any(c.dummy or not c.played for c in r.contracts)
        if self.exposes:
            self.parts.append(("exposed", n * size))
        # the named trump mode the hand is played in (one-hot) and the hand's multiplier by its trump / 8: a part
        # only where the rule file has modes or multipliers by suit, so the other files' tensors stay as they were
        self.modes = len(g.mode_names) if r.trump.modes or r.trump.suit_multipliers else -1
        if self.modes >= 0:
            self.parts.append(("trump_mode", self.modes + 1))
        self.offsets: dict[str, int] = {}
        k = 0
        for name, width in self.parts:
            self.offsets[name] = k
            k += width
        self.size = k
        off = self.offsets
        self.o_hand, self.o_played, self.o_trick, self.o_indicator = (off[x] for x in ("hand", "played", "trick",
                                                                                       "indicator"))
        self.o_trump, self.o_phase, self.o_bidder, self.o_to_act = (off[x] for x in ("trump", "phase", "bidder",
                                                                                    "to_act"))
        self.o_contract, self.o_card_points, self.o_bids = (off[x] for x in ("contract", "card_points", "bids"))
        self.first_copy = [c - c % g.layout.copies for c in range(size)]
        self.total = float(g.points_per_hand)
        self.top = float(g.rules.auction.bid_max or 1)

    def encode(self, view: View) -> list[float]:
        g = self.game
        out = [0.0] * self.size
        off = self.offsets
        n = g.n
        me = view.seat

        def rel(seat: int) -> int:
            return (seat - me) % n

        def put_cards(base: int, cards: list[int]) -> None:
            for card in cards:   # a double pack's copies fill each part of the tensor from its first copy
                for c in g.code_ids[g.codes[card]]:
                    if out[base + c] == 0.0:
                        out[base + c] = 1.0
                        break

        put_cards(off["hand"], view.hand_cards())
        put_cards(off["played"], [c for t in view.tricks for c in t.cards if c >= 0])
        for seat, c in zip(view.trick.seats, view.trick.cards, strict=True):
            if c >= 0:      # a card played face down that this seat did not see stays blank
                put_cards(off["trick"] + rel(seat) * g.size, [c])
        if view.indicator is not None:
            put_cards(off["indicator"], [view.indicator])
        elif view.turned is not None:   # the card lying face up (a turned-card game has no indicator)
            put_cards(off["indicator"], [view.turned])
        if view.trump is None:
            out[off["trump"] + g.nsuits + 1] = 1.0
        elif view.trump == NO_TRUMP:
            out[off["trump"] + g.nsuits] = 1.0
        else:
            out[off["trump"] + view.trump] = 1.0
        out[off["phase"] + PHASE_NAMES.index(view.phase)] = 1.0
        out[off["bidder"] + (rel(view.bidder) if view.bidder is not None else n)] = 1.0
        out[off["to_act"] + (rel(view.to_act) if view.to_act >= 0 else n)] = 1.0
        top = float(g.rules.auction.bid_max or 1)
        c = off["contract"]
        out[c] = (view.bid or 0) / top
        out[c + 1] = (view.target or 0) / top
        out[c + 2] = view.multiplier / 8.0
        out[c + 3] = 1.0 if view.trump_concealed else 0.0
        total = float(g.points_per_hand)
        mine = next((i for i, t in enumerate(view.teams) if me in t), 0)
        pts = view.card_points
        out[off["card_points"]] = pts[mine] / total if pts else 0.0
        out[off["card_points"] + 1] = max((p for i, p in enumerate(pts) if i != mine), default=0) / total
        for a in view.history:
            if a.verb == "bid":
                out[off["bids"] + rel(a.seat)] = bid_terms(a.arg)[0] / top
        if self.exposes:
            for e in view.exposed:
                put_cards(off["exposed"] + rel(e.seat) * g.size, hand_order(g, e.cards))
        if self.modes >= 0:
            m0 = off["trump_mode"]
            if view.trump_mode is not None:
                out[m0 + g.mode_index(view.trump_mode)] = 1.0
            out[m0 + self.modes] = view.trump_multiplier / 8.0
        return out


    def encode_state(self, state: State, seat: int, bids: list[int] | None = None) -> list[float]:
        """`encode(state.view(seat))` without building the view: from the seat's own cards and the state's public
        fields only. `bids`, each seat's last bid value or -1 (as `last_bids` reads them from the history), saves
        reading the history."""
        out = [0.0] * self.size
        ones, where, values = self.state_bits(state, seat, bids)
        while ones:
            low = ones & -ones
            out[low.bit_length() - 1] = 1.0
            ones ^= low
        for i, x in zip(where, values, strict=True):
            out[i] = x
        return out

    def state_bits(self, state: State, seat: int, bids: list[int] | None = None
                   ) -> tuple[int, list[int], list[float]]:
        """`encode_state` in parts, for callers that fill an array of their own (numpy's `unpackbits` turns the
        first into the 0/1 positions at once): the positions holding 1.0 as the bits of one int, and the other
        non-zero positions with their values."""
        g = self.game
        if state.face_down or state.hidden:
            # cards played face down (the blind cut): what the seat saw of them is the view's to say
            enc = self.encode(state.view(seat))
            ones = 0
            where: list[int] = []
            values: list[float] = []
            for i, x in enumerate(enc):
                if x == 1.0:
                    ones |= 1 << i
                elif x:
                    where.append(i)
                    values.append(x)
            return ones, where, values
        n = g.n
        size = g.size
        fc = self.first_copy
        concealed = state.concealed
        indicator = state.indicator if concealed else -1
        copies = g.layout.copies
        ones = canonical(state.hands[seat], copies, g.first_copy_mask) << self.o_hand
        trick_mask = 0
        base = self.o_trick
        for s, c in zip(state.trick_seats, state.trick_cards, strict=True):
            ones |= 1 << (base + (s - seat) % n * size + fc[c])
            trick_mask |= 1 << c
        played = 0
        received = state.received
        hands = state.hands
        for s in range(n):
            played |= received[s] & ~hands[s]
        if indicator >= 0:
            played &= ~(1 << indicator)
            if seat == state.folder:
                ones |= 1 << (self.o_indicator + fc[indicator])
        elif state.turned >= 0:   # the card lying face up (see encode)
            ones |= 1 << (self.o_indicator + fc[state.turned])
        ones |= canonical(played & ~trick_mask, copies, g.first_copy_mask) << self.o_played
        t = state.trump
        if t == UNDECIDED or (concealed and seat != state.folder):
            ones |= 1 << (self.o_trump + g.nsuits + 1)
        elif t < 0:
            ones |= 1 << (self.o_trump + g.nsuits)
        else:
            ones |= 1 << (self.o_trump + t)
        ones |= 1 << (self.o_phase + state.phase)
        bidder = state.bidder
        ones |= 1 << (self.o_bidder + ((bidder - seat) % n if bidder >= 0 else n))
        to_act = state.to_act
        ones |= 1 << (self.o_to_act + ((to_act - seat) % n if to_act >= 0 else n))
        top = self.top
        c0 = self.o_contract
        where = [c0 + 2]
        values = [state.multiplier / 8.0]
        if bidder >= 0:
            where += [c0, c0 + 1]
            values += [state.bid / top, state.target / top]
        if concealed:
            ones |= 1 << (c0 + 3)
        pts = state.team_points
        mine = state.hand_team_of[seat]
        theirs = best_other(pts, mine)
        cp = self.o_card_points
        where += [cp, cp + 1]
        values += [pts[mine] / self.total, theirs / self.total]
        last = bids if bids is not None else last_bids(state)
        b0 = self.o_bids
        for s in range(n):
            if last[s] > 0:
                where.append(b0 + (s - seat) % n)
                values.append(last[s] / top)
        if self.exposes and state.exposed:
            e0 = self.offsets["exposed"]
            for s in range(n):
                if s != seat and state.exposed >> s & 1:
                    ones |= canonical(hands[s], copies, g.first_copy_mask) << (e0 + (s - seat) % n * size)
        if self.modes >= 0 and not (t == UNDECIDED or (concealed and seat != state.folder)):
            m0 = self.offsets["trump_mode"]    # (the trump as the seat knows it, as the view says it)
            if state.trump_mode >= 0:
                ones |= 1 << (m0 + state.trump_mode)
            where.append(m0 + self.modes)
            values.append(state.trump_multiplier / 8.0)
        elif self.modes >= 0:
            where.append(self.offsets["trump_mode"] + self.modes)
            values.append(1 / 8.0)
        return ones, where, values


def canonical(mask: int, copies: int, first_copies: int) -> int:
    """A double pack's copies counted as `Observation.encode` counts them: one copy of a card held marks its first
    copy, both copies mark both (copies are adjacent ids)."""
    if copies == 2:
        lo = mask & first_copies
        hi = (mask >> 1) & first_copies
        return lo | hi | (lo & hi) << 1
    if copies > 2:
        canon = 0
        c = 0
        while mask >> c:
            k = ((mask >> c) & ((1 << copies) - 1)).bit_count()
            canon |= ((1 << k) - 1) << c
            c += copies
        return canon
    return mask


def last_bids(state: State) -> list[int]:
    """Each seat's last bid value in the hand so far (-1: none), from the history."""
    out = [-1] * state.n
    for a in state.history:
        if a.verb == "bid":
            arg = a.arg
            sp = arg.find(" ")
            out[a.seat] = int(arg if sp < 0 else arg[:sp])
    return out


def infostate_key(state: State, seat: int) -> str:
    """What `seat` knows of the hand, as one string (OpenSpiel's information state, perfect recall): the cards it
    has been dealt so far in the order received and the public history with hidden arguments blanked, from which
    everything else it has seen follows."""
    g = state.game
    own = " ".join(g.codes[c] for c in state.dealt[seat][:state.given[seat]])
    return f"seat {seat} dealt {own} | " + ", ".join(str(a) for a in public_history(state, seat))


def hands_to_order(game: GameTables, hands: list[list[int]], dealer: int) -> list[int]:
    """The pack order that `deal_in_order` deals into `hands` (its inverse)."""
    order: list[int] = []
    pos = [0] * game.n
    first = game.first_hand(dealer)
    for k in game.rules.schedule:
        if k <= 0:
            continue
        for i in range(game.n):
            s = (first + i) % game.n
            order.extend(hands[s][pos[s]:pos[s] + k])
            pos[s] += k
    return order


def deal_length(game: Game) -> int:
    """How many chance outcomes make one deal (one per card the deal steps give, then one per card of the stock,
    in its order: a game with a stock orders the whole pack)."""
    return game.n * game.dealt_each + game.stock_size


def hands_from_order(game: Game, order: list[int], dealer: int) -> list[list[int]]:
    """The cards each seat receives when the pack, in `order`, is dealt by the schedule from the first hand."""
    return game.deal_in_order(order, dealer)


def stock_from_order(game: Game, order: list[int]) -> list[int] | None:
    """The stock of a deal made from `order`: the cards after those the deal steps give (None: no stock)."""
    return order[game.n * game.dealt_each:] if game.stock_size else None


def utility_bound(game: Game) -> float:
    """A bound on the game points one hand can score, for OpenSpiel's min/max utility."""
    r = game.rules
    if r.scoring.banked is not None:   # points banked by each side
        return float(banked_bound(game)) * max_multiplier(game)
    values = [abs(v) for b in game.rules.scoring.bands for v in (b.made, b.failed)]
    values += [abs(v) for c in r.contracts for v in (c.made, c.failed)]
    d = r.doubling
    if d is not None and d.fixed_stake is not None:
        values.append(abs(d.fixed_stake.value))
    return float(max(values, default=1)) * max_multiplier(game)


def max_multiplier(game: Game) -> float:
    """A bound on what multiplies a hand's score: every doubling step, the automatic one, the all-tricks and
    below-half multipliers, and the largest multiplier by trump (a mode's or a suit's), together."""
    r = game.rules
    mult = 1.0
    d = r.doubling
    if d is not None:
        for s in d.steps:
            mult *= s.multiplier
        mult *= d.auto_multiplier
    at = r.all_tricks
    if at is not None:
        mult *= max(at.multiplier, at.refused_loss_multiplier)
    mult *= r.scoring.below_half_loss_multiplier
    mult *= max([1, *r.trump.suit_multipliers, *(md.multiplier for md in r.trump.modes)])   # the trump's
    return mult


def max_actions(game: Game) -> int:
    """A bound on the players' actions in one hand (auction, contract steps, tricks with calls and shows)."""
    n = game.n
    turns = 0
    for t in game.rounds:
        if t.verb != "bid":
            continue   # the raise: at most one turn each, within the allowance below
        speeches = (len(t.values) + 2) * n * (2 if t.rules.partner_speech else 1)   # a partner may speak first
        turns += speeches + (2 * len(t.values) if game.auction_doubling else 0)    # a double and a redouble a bid
    return turns + 6 * n + game.cards_each * n + game.cards_each + 2 * n + 8
