"""GameTables: the compiled rules of one game (`rules`, plain records) plus the ints, masks and lookups the hot path
needs. Everything here is built from `Rules` alone, in time and memory proportional to the deck and the bid range;
tables that would grow with 2^(cards in a suit) are filled lazily, only for the hands that occur."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from engine.cards import DeckLayout
from engine.errors import ArgumentError
from engine.play.actions import Action
from engine.play.rules import (
    DECLARE_BEFORE_TRICK,
    DECLARE_IN_AUCTION,
    DECLARE_IN_SECOND_AUCTION,
    ONE_SUIT_NOBODY,
    REFOLD_WHEN_MARKED,
    STEP_COMPLETE,
    WINDOW_IN_AUCTION,
    AuctionRules,
    BandRules,
    ContractRules,
    Rules,
)

try:
    from _random import Random as _Generator
except ImportError:  # an interpreter without CPython's accelerator module
    from random import Random as _Generator  # type: ignore[assignment]

# `Final`: C constants in a compiled build, not a lookup in the module dict at each use
NO_TRUMP: Final = -1
SMALL_SUIT: Final = 12          # cards in a suit up to which play choices are a list indexed by the holding
AUCTION_CACHE_LIMIT: Final = 200_000  # actions kept in cached auction choices (about 1.6 MB of references)
SMALL_CHOICES: Final = 1 << 15         # auction choice keys up to which they are a list indexed by the key
# Generators kept for `_shuffled_pack` to re-seed (module-wide, so no Game holds one: games stay copyable)
_SPARE_GENERATORS: Final[list[_Generator]] = []
TRUMP_POWER: Final = 1000    # added to a trump's strength in a trick: any trump beats any card of another suit


class GameTables:
    """Immutable: the rules of one game (`rules`) plus the precomputed tables `State` works with.

    Rule values are read from the records (`game.rules.<section>.<field>`), never copied here: a new rule is a
    field of a record and nothing in `Game`. What `Game` holds is derived - masks, lookups, interned actions,
    the one `points_per_hand` - and the dimensions those tables are indexed by (`n` seats, `size` cards, `nsuits`
    suits of `block` cards)."""

    def __init__(self, rules: Rules, ref: str | Path | None = None) -> None:
        self.rules = rules
        # How records and saves name this game: a shipped name, or the rule file's path (None: built in memory).
        self.ref = None if ref is None else str(ref)
        self.n = n = rules.table.players
        d = rules.deck
        self.layout = layout = DeckLayout(suits=d.suits, ranks=d.ranks, copies=d.copies)
        self.size = size = layout.size
        self.pack = list(range(size))   # the card ids in order, copied by each shuffle (never changed)
        self.nsuits = nsuits = len(d.suits)
        self.block = layout.block
        # Cards: suit, rank, code, points and masks of each card id
        self.suit_masks = [layout.suit_mask(s) for s in range(nsuits)]
        self.suit_of, self.rank_of, self.codes = _card_faces(layout)
        self.points = [d.rank_points[r] for r in self.rank_of]
        self.point_mask = _mask_where(self.points)
        # Strength: higher beats lower; tied ranks and copies share a strength (the first played wins).
        self.strength, self.reversed_strength = _plain_strengths(rules, self.rank_of)
        # Per trump choice, built once: each card's strength and points with that suit as trump (the same lists
        # as `strength` and `points` where the trump suit keeps the plain order and points), and per named mode
        # (rules.trump.modes, index k): its order and points in every suit. The state switches to them.
        self.suit_strength: list[list[int]] = []
        self.suit_points: list[list[int]] = []
        self.mode_names: list[str] = []
        self.mode_strength: list[list[int]] = []
        self.mode_points: list[list[int]] = []
        self.suit_multiplier: list[int] = []
        self._trump_tables()
        # What all the tricks of a hand are worth together: every card's points and every per-hand bonus, with the
        # trump choice (a suit, no-trumps, each mode) that makes it largest. The one figure bots, encodings and
        # tools scale card points by; a new bonus reaches it through the records.
        self.points_per_hand = max(sum(t) for t in (self.points, *self.suit_points, *self.mode_points)) \
            + d.bonus_points
        self.rank_masks = _rank_masks(self.rank_of, len(d.ranks))
        self.first_copy_mask = _mask_where([c % d.copies == 0 for c in range(size)])  # copies have adjacent ids
        self.code_ids = _code_ids(self.codes)
        # Seats
        self.team_of = _team_of(rules.table.teams, n)
        self.after = [(s + 1) % n for s in range(n)]    # who plays after whom (nobody sitting out)
        # cards each seat is dealt by the deal steps (a record's hands), and holds once the deal is complete (a
        # turned-card game completes the hands from the stock: engine/play/turned.py)
        self.dealt_each = _dealt_each(rules.schedule)
        self.cards_each = self.dealt_each + rules.deal.complete_others
        self.stock_size = rules.deal.stock     # cards no deal step gives: the stock (never in any view)
        self.completes = STEP_COMPLETE in rules.schedule   # the full deal comes at the complete step
        self.tricks_per_hand = self.cards_each
        # Auction: the bids of each round (the first, and the one after the full deal where there is one)
        self.bid_values = list(rules.auction.values)
        self.bid_suits = _bid_suits(rules, self.mode_names)
        self.bids_per_value = len(self.bid_suits) if rules.trump.in_bid else 1
        self.rounds_matter = _rounds_matter(rules)
        # Contracts and calls by name
        self.contracts: dict[str, ContractRules] = {c.name: c for c in rules.contracts}
        self.doubling_names, self.auction_doubling, self.doubling_closes = _doubling_tables(rules)
        # special contracts offered as speeches of an auction (the first or the second), and before a trick in play
        self.declarations_in_auction, self.play_declarations = _declaration_tables(rules)
        # play that leaves the inlined common path: claims to offer, lead duties to weigh
        self.has_claims = bool(rules.claims)
        self.lead_duties = _has_lead_duties(rules)
        self.rounds = _bid_rounds(self)
        self.has_pair = rules.pair is not None
        self.has_surrender = rules.all_tricks is not None and rules.all_tricks.surrender
        self.concede_in_play = rules.concede is not None and rules.concede.in_play
        # a void player's choice is narrowed by a rule (so the inlined "anything goes" path does not apply)
        self.void_filters = bool(rules.play.no_discard_ranks) or rules.play.must_not_undertrump
        self.protected_masks = _protected_masks(rules, self.suit_of, self.rank_of)
        # play.obligations: the cards whose rank never binds their holder to play a trump, and whether a player
        # holding a plain suit led simply follows it (no trump instead of following)
        self.never_forced, self.follow_suffices = _duty_tables(rules, self.rank_masks)
        # combinations: per holding of one suit (its bits in the suit's block), whether it holds a run that counts
        # as a meld (engine/play/combinations.py reads it; empty: no run counts, or a suit is too large for a table)
        self.run_holdings = _run_holdings(rules, self.rank_of, self.block)
        # combinations: the positions in a suit's block of the ranks whose four of a kind count, where four of a
        # rank means one of each of four suits (four suits, one copy); -1 elsewhere (the melds are counted)
        self.quad_positions = _quad_positions(rules, self.rank_of, self.block, nsuits, d.copies)
        # trump_marriage counted in_hand: the cards of its ranks, whose play may complete a marriage (0: none)
        mr = rules.marriage
        self.marriage_play_mask = _mask_where([mr is not None and not mr.in_trick and r in mr.ranks
                                               for r in self.rank_of])
        # Interned actions: the hot path hands out the same objects again and again.
        self._actions: dict[tuple[int, str, str], Action] = {}
        self.play_action = self._card_actions("play")
        self.pass_action = self._seat_actions("pass")
        self.call_action = self._seat_actions("call")   # a void player's call for the trump
        self.announce_action = self._seat_actions("announce")   # melds announced in trick 1 (combinations)
        # the legal actions of a choose_trump step, per seat * 2 + (may push), made as they occur (turned.py)
        self.choose_actions: dict[int, tuple[Action, ...]] = {}
        # per seat and suit: suit-bits value -> the play actions of those cards, filled as hands occur: a list
        # indexed by the holding where a suit is small (at most 4096 holdings), else a dict of those that occur
        self._play_table, self._play_rows = _play_caches(n, nsuits, self.block)
        self._bid_terms: dict[str, tuple[int, str, bool]] = {}
        self.trump_card_action = self._card_actions("trump")
        # per dealer, the positions in a whole pack of the cards each seat receives (a shuffled pack is dealt by
        # reading them, with no slices to cut)
        self._deal_positions = [self.deal_in_order(self.pack, d) for d in range(n)]

    def _card_actions(self, verb: str) -> list[list[Action]]:
        """Per seat and card id, the interned action `verb CARD` (`play`, `trump`)."""
        return [[self.action(s, verb, self.codes[c]) for c in range(self.size)] for s in range(self.n)]

    def _seat_actions(self, verb: str) -> list[Action]:
        """Per seat, the interned action `verb` with no argument (`pass`, `call`)."""
        return [self.action(s, verb) for s in range(self.n)]

    # --- actions --------------------------------------------------------------------------------------
    def __reduce__(self) -> tuple[type[GameTables], tuple[Rules, str | None]]:
        # a game is rebuilt from its rule records: the tables derive from them (and a compiled class cannot be
        # made without its constructor, which pickle's default would need)
        return (GameTables, (self.rules, self.ref))

    def action(self, seat: int, verb: str, arg: str = "") -> Action:
        key = (seat, verb, arg)
        a = self._actions.get(key)
        if a is None:
            a = self._actions[key] = Action(seat, verb, arg)
        return a

    def intern(self, a: Action) -> Action:
        return self.action(a.seat, a.verb, a.arg)

    def bid_terms(self, arg: str) -> tuple[int, str, bool]:
        """(value, suit or '', marked `change`) of a legal bid's argument text ('30 NT change' -> (30, 'NT', True)),
        read once per text: the auction applies the same few bids hand after hand."""
        terms = self._bid_terms.get(arg)
        if terms is None:
            parts = arg.split()
            terms = (int(parts[0]), parts[1] if len(parts) > 1 and parts[1] != "change" else "", parts[-1] == "change")
            if len(self._bid_terms) < AUCTION_CACHE_LIMIT:  # only legal bids come here; bounded all the same
                self._bid_terms[arg] = terms
        return terms

    def suit_plays(self, seat: int, suit: int, bits: int) -> tuple[Action, ...]:
        """The play actions of the cards `bits` (relative to the suit's first card) of one suit, in id order;
        a double pack's two copies are one action."""
        if self._play_rows:  # small suits: a list indexed by the holding
            row = self._play_rows[seat * self.nsuits + suit]
            out = row[bits]
            if out is None:
                out = row[bits] = self._plays_of(seat, suit, bits)
            return out
        table = self._play_table[seat][suit]
        found = table.get(bits)
        if found is None:
            found = table[bits] = self._plays_of(seat, suit, bits)
        return found

    def _plays_of(self, seat: int, suit: int, bits: int) -> tuple[Action, ...]:
        base = suit * self.block
        row = self.play_action[seat]
        return tuple(dict.fromkeys(row[base + i] for i in range(self.block) if bits >> i & 1))

    def bid_actions(self, seat: int) -> list[Action]:
        """Every bid of the first auction for `seat` in increasing order (bids naming a suit: value-major)."""
        return self.rounds[0].bid_actions(seat)

    # --- helpers used by State and tools --------------------------------------------------------------
    def band_for(self, bid: int, round_: int = 1) -> BandRules | None:
        """The score band of a contract of `bid` fixed in auction round `round_`."""
        for b in self.rules.scoring.bands:
            if b.lo <= bid <= b.hi and (not b.round or b.round == round_):
                return b
        return None

    def _trump_tables(self) -> None:
        """The per-trump tables (see __init__): by trump suit (deck.trump_ranks, deck.trump_points), by named mode
        (trump.modes), and each suit's multiplier (trump.suit_multipliers)."""
        d = self.rules.deck
        t = self.rules.trump
        nranks = len(d.ranks)
        order = [nranks - i for i in d.trump_order]
        self.suit_strength = [self._with_trump(su, self.strength, order) for su in range(self.nsuits)]
        self.suit_points = [self._with_trump(su, self.points, list(d.trump_rank_points)) for su in range(self.nsuits)]
        self.mode_names = [md.name for md in t.modes]
        self.mode_strength = [[nranks - md.order[self.rank_of[c]] for c in range(self.size)] for md in t.modes]
        self.mode_points = [[md.rank_points[self.rank_of[c]] for c in range(self.size)] for md in t.modes]
        self.suit_multiplier = list(t.suit_multipliers) if t.suit_multipliers else [1] * self.nsuits

    def _with_trump(self, suit: int, plain: list[int], by_rank: list[int]) -> list[int]:
        """`plain` (per card) with the cards of `suit` taking `by_rank` (per rank index); `plain` itself when
        `by_rank` is empty (the trump suit keeps the plain table)."""
        if not by_rank:
            return plain
        return [by_rank[self.rank_of[c]] if self.suit_of[c] == suit else plain[c] for c in range(self.size)]

    def strength_for(self, trump: int, mode: int = -1) -> list[int]:
        """Card strengths in a hand with this trump (a reversed no-trump hand runs the other way; a trump suit
        its own order; a named mode, index `mode` of rules.trump.modes, its order in every suit)."""
        if mode >= 0:
            return self.mode_strength[mode]
        if trump >= 0:
            return self.suit_strength[trump]
        return self.reversed_strength if trump == NO_TRUMP and self.rules.trump.no_trumps_reversed else self.strength

    def points_for(self, trump: int, mode: int = -1) -> list[int]:
        """Each card's points in a hand with this trump (or named mode `mode`)."""
        if mode >= 0:
            return self.mode_points[mode]
        return self.suit_points[trump] if trump >= 0 else self.points

    def mode_index(self, name: str) -> int:
        """The index of the named trump mode (rules.trump.modes), -1 for none of that name."""
        for k in range(len(self.mode_names)):
            if self.mode_names[k] == name:
                return k
        return -1

    def first_hand(self, dealer: int) -> int:
        return (dealer + 1) % self.n

    def shuffled_stock(self, seed: int | None) -> list[int]:
        """The stock of the deal `shuffled_deal(seed, ...)` makes: the shuffled pack's cards after those the deal
        steps give, in order (the turned card first). Empty where every card is dealt."""
        if not self.stock_size:
            return []
        return self._shuffled_pack(seed)[self.size - self.stock_size:]

    def shuffled_deal(self, seed: int | None, dealer: int) -> list[list[int]]:
        """Cards each seat receives, in order, from a seeded shuffle (the same seed deals the same cards)."""
        deck = self._shuffled_pack(seed)
        return [[deck[i] for i in positions] for positions in self._deal_positions[dealer]]   # = deal_in_order

    def shuffled_deal_and_stock(self, seed: int | None, dealer: int) -> tuple[list[list[int]], list[int]]:
        """`shuffled_deal(seed, dealer)` and `shuffled_stock(seed)` from one shuffle of the pack."""
        deck = self._shuffled_pack(seed)
        dealt = [[deck[i] for i in positions] for positions in self._deal_positions[dealer]]   # = deal_in_order
        return dealt, (deck[self.size - self.stock_size:] if self.stock_size else [])

    def _shuffled_pack(self, seed: int | None) -> list[int]:
        """The pack in the order a seeded shuffle leaves it (the same seed, the same order)."""
        # Fisher-Yates on random(): fixed by the seed alone, and faster than random.shuffle. The C generator that
        # random.Random wraps deals the same numbers for the same seed, without the Python-level set-up.
        # Seeding a generator costs more than the shuffle, so spare generators are kept and re-seeded (the same
        # numbers as a new one): each deal pops one (atomic, so threads never share one) and hands it back.
        try:
            gen = _SPARE_GENERATORS.pop()
        except IndexError:
            gen = _Generator(seed)
        else:
            gen.seed(seed)
        rand = gen.random
        deck = self.pack[:]
        for i in range(self.size - 1, 0, -1):
            j = int(rand() * (i + 1))
            deck[i], deck[j] = deck[j], deck[i]
        _SPARE_GENERATORS.append(gen)
        return deck

    def deal_in_order(self, order: list[int], dealer: int) -> list[list[int]]:
        """The cards each seat receives when the pack, in `order`, is dealt by the schedule from the first hand."""
        hands: list[list[int]] = [[] for _ in range(self.n)]
        pos = 0
        first = self.first_hand(dealer)
        for k in self.rules.schedule:
            if k <= 0:
                continue
            for i in range(self.n):
                hands[(first + i) % self.n].extend(order[pos:pos + k])
                pos += k
        return hands

    def check_stock(self, stock: object, dealt: list[list[int]]) -> list[int]:
        """A copy of `stock` if it holds, in order, every card the checked `dealt` hands leave (none where the game
        deals every card); ArgumentError otherwise."""
        if not self.stock_size:
            if stock is not None and stock != [] and stock != ():
                raise ArgumentError("stock: this game deals every card; there is no stock")
            return []
        if not isinstance(stock, list | tuple) or len(stock) != self.stock_size:
            raise ArgumentError(f"stock: the {self.stock_size} cards the deal leaves, in order (the turned card "
                                "first)")
        seen = 0
        for h in dealt:
            for c in h:
                seen |= 1 << c
        for c in stock:
            if not _is_int(c) or not 0 <= c < self.size or seen >> c & 1:
                raise ArgumentError(f"stock: {c!r} is not a card id of the pack left undealt (0..{self.size - 1}, "
                                    "each once)")
            seen |= 1 << c
        return list(stock)

    def check_hands(self, hands: object) -> list[list[int]]:
        """A copy of `hands` if it deals this game's pack (less its stock), each seat its share; ArgumentError
        otherwise."""
        if not isinstance(hands, list | tuple) or len(hands) != self.n:
            raise ArgumentError(f"hands: one list of card ids per seat ({self.n} seats)")
        seen = 0
        out: list[list[int]] = []
        for seat, h in enumerate(hands):
            if not isinstance(h, list | tuple) or len(h) != self.dealt_each:
                raise ArgumentError(f"hands: seat {seat} must receive {self.dealt_each} cards")
            for c in h:
                if not _is_int(c) or not 0 <= c < self.size or seen >> c & 1:
                    raise ArgumentError(f"hands: seat {seat}: {c!r} is not a card id of the pack (0..{self.size - 1}, "
                                        "each once)")
                seen |= 1 << c
            out.append(list(h))
        return out


class BidTable:
    """The bids of one round of bidding as actions, and each turn's legal choices, kept once built (the same few
    combinations recur hand after hand). Legal bids are a slice of the round's values: from index `lo` to `hi`."""

    def __init__(self, game: GameTables, rules: AuctionRules) -> None:
        self.game = game
        self.rules = rules
        self.verb = rules.verb
        self.values = values = list(rules.values)
        self.per = game.bids_per_value if rules.verb == "bid" else 1
        # at_least[v]: the index of the first value >= v (len(values): none), for every v from 0 to the top
        at_least: list[int] = []
        i = 0
        for v in range(values[-1] + 1):
            while values[i] < v:
                i += 1
            at_least.append(i)
        self.at_least = at_least
        self.count = len(values)
        # a round of one turn each: its speakers in order, by the holder's seat (teams are fixed per holder)
        self.speakers_of: dict[int, tuple[int, ...]] = {}
        # the lowest bid is the next value above the standing one, with no other rule to weigh (the fast path)
        self.simple = not (rules.exact_step or rules.only_opponents or rules.hold or rules.partner_overcall is not None
                           or rules.second_bid_min >= 0 or rules.after_first_speech_min >= 0
                           or rules.one_suit_barred != ONE_SUIT_NOBODY or not rules.raise_own
                           or game.doubling_closes)
        # speeches beyond bids and passes may be offered: partner, a doubling step, change, a declaration
        self.speeches = (rules.partner_speech or game.auction_doubling or game.declarations_in_auction
                         or (rules.verb == "bid" and rules.holder_refolds == REFOLD_WHEN_MARKED))
        self._bids: list[list[Action] | None] = [None] * game.n
        # the choices kept by their key (see `choices`): in a list indexed by the key where the keys are few (an
        # int-keyed dict costs a boxed key and a lookup per turn), else in a dict of those that occur
        keys = (self.count + 1) * (self.count + 1) * 4 * game.n
        self._choice_rows: list[tuple[Action, ...] | None] = [None] * keys if keys <= SMALL_CHOICES else []
        self._choices: dict[int, tuple[Action, ...]] = {}
        self._cached = 0

    def index_at_least(self, value: int) -> int:
        """The index of the lowest bid of at least `value` (`count` when there is none)."""
        if value <= 0:
            return 0
        return self.at_least[value] if value < len(self.at_least) else self.count

    def bid_actions(self, seat: int) -> list[Action]:
        """Every bid of `seat` in increasing order (bids naming a suit: value-major), so legal bids are a slice."""
        out = self._bids[seat]
        if out is None:
            g = self.game
            if self.per > 1:
                out = [g.action(seat, self.verb, f"{v} {su}") for v in self.values for su in g.bid_suits]
            else:
                out = [g.action(seat, self.verb, str(v)) for v in self.values]
            self._bids[seat] = out
        return out

    def choices(self, seat: int, redeal: bool, may_pass: bool, lo: int, hi: int) -> tuple[Action, ...]:
        """A seat's legal actions: redeal, pass, and the bids of index `lo` to `hi` (none when lo > hi)."""
        n = self.game.n
        if lo > hi:
            lo, hi = self.count, 0
        key = (((lo * (self.count + 1) + hi) * 2 + may_pass) * 2 + redeal) * n + seat
        rows = self._choice_rows
        if rows:
            found = rows[key]
            if found is not None:
                return found
        out = self._choices.get(key) if not rows else None
        if out is None:
            g = self.game
            head: list[Action] = []
            if redeal:
                head.append(g.action(seat, "redeal"))
            if may_pass:
                head.append(g.pass_action[seat])
            if lo <= hi:
                per = self.per
                head.extend(self.bid_actions(seat)[lo * per:hi * per + per])
            out = tuple(head)
            if rows:
                rows[key] = out
            elif self._cached < AUCTION_CACHE_LIMIT:  # bounded, however wide the bid range
                self._cached += len(out)
                self._choices[key] = out
        return out


# --- builders of Game's tables (each one concern of Game.__init__) -----------------------------------------------
def _card_faces(layout: DeckLayout) -> tuple[list[int], list[int], list[str]]:
    """Per card id: its suit index, rank index and code."""
    ids = range(layout.size)
    return [layout.suit_of(c) for c in ids], [layout.rank_of(c) for c in ids], [layout.code(c) for c in ids]


def _mask_where(values: list[int] | list[bool]) -> int:
    """The mask of the card ids whose value is non-zero (true)."""
    return sum(1 << c for c in range(len(values)) if values[c])


def _plain_strengths(rules: Rules, rank_of: list[int]) -> tuple[list[int], list[int]]:
    """Each card's strength in a plain suit, and the same run the other way (a reversed no-trump hand)."""
    d = rules.deck
    nranks = len(d.ranks)
    strength = [nranks - d.tie_top[r] for r in rank_of]
    return strength, [nranks + 1 - s for s in strength]


def _rank_masks(rank_of: list[int], nranks: int) -> list[int]:
    """Per rank index, the mask of its cards."""
    masks = [0] * nranks
    for c in range(len(rank_of)):
        masks[rank_of[c]] |= 1 << c
    return masks


def _code_ids(codes: list[str]) -> dict[str, list[int]]:
    """Per card code, its card ids (two with a double pack)."""
    out: dict[str, list[int]] = {}
    for c in range(len(codes)):
        out.setdefault(codes[c], []).append(c)
    return out


def _team_of(teams: tuple[tuple[int, ...], ...], n: int) -> list[int]:
    """Per seat, the index of its team."""
    team_of = [0] * n
    for i, t in enumerate(teams):
        for s in t:
            team_of[s] = i
    return team_of


def _dealt_each(schedule: tuple[int, ...]) -> int:
    """The cards each seat is dealt by the deal steps of the schedule (its positive entries)."""
    return sum(x for x in schedule if x > 0)


def _bid_suits(rules: Rules, mode_names: list[str]) -> list[str]:
    """What a bid may name besides its value (suits, NT, named modes), where bids name the trump; else none."""
    if not rules.trump.in_bid:
        return []
    return list(rules.deck.suits) + (["NT"] if rules.trump.no_trumps else []) + mode_names


def _rounds_matter(rules: Rules) -> bool:
    """Whether the round that fixed a contract matters (is reported and shown): in games with a second auction of
    bids, or scored by round; not where the only later round is the bidding team's raise."""
    sa = rules.second_auction
    return (sa is not None and sa.verb != "raise") or any(b.round for b in rules.scoring.bands)


def _doubling_tables(rules: Rules) -> tuple[list[str], bool, bool]:
    """The doubling calls by name (the steps, then a fixed stake), whether they are speeches of the auction, and
    whether one closes it."""
    dbl = rules.doubling
    if dbl is None:
        return [], False, False
    names = [s.name for s in dbl.steps]
    if dbl.fixed_stake is not None:
        names.append(dbl.fixed_stake.name)
    in_auction = dbl.window == WINDOW_IN_AUCTION
    return names, in_auction, in_auction and dbl.closes_auction


def _declaration_tables(rules: Rules) -> tuple[bool, tuple[ContractRules, ...]]:
    """Whether special contracts are speeches of an auction (the first or the second), and those declared before
    a trick in play."""
    in_auction = any(c.window == DECLARE_IN_AUCTION or c.window == DECLARE_IN_SECOND_AUCTION for c in rules.contracts)
    return in_auction, tuple(c for c in rules.contracts if c.window == DECLARE_BEFORE_TRICK)


def _has_lead_duties(rules: Rules) -> bool:
    """Whether a rule binds the lead (exhausted trumps, an open trump to lead)."""
    return (rules.play.exhausted_trumps or rules.trump.open_lead_trump
            or any(c.open_trump for c in rules.contracts))


def _bid_rounds(game: GameTables) -> list[BidTable]:
    """The bid tables of the first auction and of the second, where there is one."""
    rules = game.rules
    rounds = [BidTable(game, rules.auction)]
    if rules.second_auction is not None:
        rounds.append(BidTable(game, rules.second_auction))
    return rounds


def _protected_masks(rules: Rules, suit_of: list[int], rank_of: list[int]) -> list[int]:
    """Per suit, the mask of its cards of the ranks a void player may not discard (play.no_discard_ranks)."""
    protected = rules.play.no_discard_ranks
    masks = [0] * len(rules.deck.suits)
    for c in range(len(suit_of)):
        if rank_of[c] in protected:
            masks[suit_of[c]] |= 1 << c
    return masks


def _play_caches(n: int, nsuits: int, block: int) -> tuple[list[list[dict[int, tuple[Action, ...]]]],
                                                            list[list[tuple[Action, ...] | None]]]:
    """The empty caches of Game.suit_plays: per seat and suit a dict, and where a suit is small a list per
    (seat, suit) indexed by the holding (none otherwise)."""
    table: list[list[dict[int, tuple[Action, ...]]]] = [[{} for _ in range(nsuits)] for _ in range(n)]
    rows: list[list[tuple[Action, ...] | None]] = (
        [[None] * (1 << block) for _ in range(n * nsuits)] if block <= SMALL_SUIT else [])
    return table, rows


def _duty_tables(rules: Rules, rank_masks: list[int]) -> tuple[int, bool]:
    """play.obligations' tables: the mask of the cards of never-forced ranks (0: none), and whether following a
    plain suit led is all a player holding it may do (False without obligations: the inlined paths decide)."""
    ob = rules.play.obligations
    if ob is None:
        return 0, False
    return sum(rank_masks[r] for r in ob.never_forced), not ob.trump_while_following


def _run_holdings(rules: Rules, rank_of: list[int], block: int) -> list[bool]:
    """Per holding of one suit (bits of the suit's block, the same ranks in every suit), whether its ranks make a
    run of combinations.sequences' shortest length in the natural order; [] where none counts or suits are large."""
    cr = rules.combinations
    if cr is None or cr.shortest > len(cr.natural) or block > SMALL_SUIT:
        return []
    out: list[bool] = []
    for bits in range(1 << block):
        places = 0
        m = bits
        while m:
            low = m & -m
            places |= 1 << cr.natural[rank_of[low.bit_length() - 1]]
            m ^= low
        run = places
        for _ in range(cr.shortest - 1):
            run &= run >> 1
        out.append(run != 0)
    return out



def _quad_positions(rules: Rules, rank_of: list[int], block: int, nsuits: int, copies: int) -> int:
    """The bits of a suit's block whose rank's four of a kind counts as a meld (combinations.four_of_a_kind),
    where holding four of a rank is holding it in each suit (four suits, one copy: the four suits' blocks ANDed
    together find it); -1 where it is not (the cards of the rank are counted instead)."""
    cr = rules.combinations
    if cr is None or nsuits != 4 or copies != 1:
        return -1
    out = 0
    for pos in range(block):
        if cr.quads[rank_of[pos]]:
            out |= 1 << pos
    return out

def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_seat(seat: object, players: int, what: str = "seat") -> int:
    """`seat` if it is one of the seats 0..players-1 (a negative index or a bool is not a seat); ArgumentError
    otherwise. Public methods take the seat as `object` and call this: a compiled (mypyc) `int` parameter would
    turn True into 1 before any check could see it."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise ArgumentError(f"{what} {seat!r} is not at the table (seats 0..{players - 1})")
    return seat


def check_seed(seed: object) -> int | None:
    """`seed` if it is None or a whole number >= 0 (seeds -1 and 1 would deal alike); ArgumentError otherwise."""
    if seed is None:
        return None
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ArgumentError(f"seed {seed!r}: a deal seed is a whole number, 0 or more")
    return seed


def card_power(card: int, led: int, trump: int, suit_of: list[int], strength: list[int]) -> int:
    """What `card` counts for in a trick led in suit `led` when `trump` has power (< 0: none has): a trump beats
    every card of another suit, a card of the led suit counts by its strength, any other card not at all (-1).
    With `winning_index`, the one rule for State and every bot."""
    s = suit_of[card]
    if s == trump:
        return strength[card] + TRUMP_POWER
    return strength[card] if s == led else -1


def winning_index(cards: list[int], suit_of: list[int], strength: list[int], trump: int, power_from: int) -> int:
    """Index of the card that wins `cards` (in playing order): the highest trump played at or after `power_from`,
    else the highest card of the suit led; among equals the first played. `trump` < 0: no trump has power."""
    led = suit_of[cards[0]]
    best = -1
    win = 0
    for i in range(len(cards)):
        st = card_power(cards[i], led, trump if i >= power_from else NO_TRUMP, suit_of, strength)
        if st > best:
            best = st
            win = i
    return win
