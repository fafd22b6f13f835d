"""The heuristic's rules for every decision outside the card play - bids, trump, raise, doubling, declarations,
redeals, surrender answers - written once, on masks, from what the acting seat knows (`Knowledge`).

The same rules serve the `heuristic` bot and the fallback of `pimc` and `search` (a `Knowledge` read off the
seat's View, by `view_knowledge`) and the search bot's rollouts, which finish the auction and contract steps of a
sampled world as the heuristic would (a `Knowledge` read off the full State for the seat to act, from that seat's
own cards only, by `state_knowledge`).

`never`: the contract policy of 0.1, kept so that comparisons can be rerun (`heuristic:never`).
Plain typed Python that mypyc can compile (setup.py's COMPILED list).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.banked_bidding import BankedAuction
from engine.bots.bidding import AuctionRules, speech_masks
from engine.bots.info import top_strength
from engine.bots.model import (
    DOUBLE_ABOVE_MIN,
    DOUBLE_MARGIN,
    DOUBLE_TOPS,
    PARTNER_MARGIN,
    RAISE_MARGIN,
    RAISE_Z,
    HandModel,
)
from engine.bots.special import SpecialRules
from engine.play.actions import Action
from engine.play.base import ANSWER, AUCTION, DECLARE, DOUBLING, MELDS, PLAY, POINTLESS, RAISE, TRUMP, UNDECIDED
from engine.play.game import NO_TRUMP, GameTables
from engine.play.rules import STEP_AUCTION, SWEEP_REQUIRED
from engine.play.state import State
from engine.play.sure_sweep import is_sure_sweep


class Facts:
    """Public facts of the hand for the special decisions, beside what the seat holds. `unknown`: the cards the seat
    cannot place (other hands, another seat's face-down card); `sizes`: cards each seat holds (a face-down card
    counts); `points`: card points taken by each hand team; `target`: the bidding side's target; `lost_trick`:
    the bidding side has lost a trick; `tricks`: tricks finished; `leading`: the seat is to lead; `special`: a
    special contract is under way; `round`: the round of bidding that fixed the contract (0: none);
    `speaking_for`: the seat whose speech this seat is making (-1: its own); `high`: the standing bid's number
    in the auction; `concealed`: the trump is face down; `high_suit`: the suit the standing bid names in the auction
    (NO_TRUMP for no-trumps, UNDECIDED when bids name none); `added`: what the doubling steps said add to the
    paid side; `forced`: the standing bid is the only bid, one the rules made its bidder say (the first hand
    obliged to open, or the dealer after every other seat passed); `provable`: the claims (special.claims) among
    the legal actions that the seat can prove now from its own knowledge, as its view says (None: not known, in a
    state read by the search's rollouts); `speeches`: the seats that have bid in the auction so far and those
    that have only passed, as masks (bidding.speech_masks); `high_code`: what the standing bid names in the auction (a
    suit, NT or a named mode; '' for none)."""

    def __init__(self, unknown: int = 0, sizes: list[int] | None = None, points: list[int] | None = None,
                 target: int = 0, multiplier: int = 1, lost_trick: bool = False, tricks: int = 0,
                 leading: bool = False, special: bool = False, round_: int = 0, speaking_for: int = -1,
                 high: int = 0, concealed: bool = False, high_suit: int = UNDECIDED,
                 added: int = 0, forced: bool = False, provable: tuple[Action, ...] | None = None,
                 speeches: tuple[int, int] = (0, 0), high_code: str = "") -> None:
        self.unknown = unknown
        self.sizes = sizes if sizes is not None else []
        self.points = points if points is not None else []
        self.target = target
        self.multiplier = multiplier
        self.lost_trick = lost_trick
        self.tricks = tricks
        self.leading = leading
        self.special = special
        self.round = round_
        self.speaking_for = speaking_for
        self.high = high
        self.concealed = concealed
        self.high_suit = high_suit
        self.added = added
        self.forced = forced
        self.provable = provable
        self.speeches = speeches
        self.high_code = high_code


class Knowledge:
    """What the seat to act knows at a decision, in ints and masks. `trump`: a suit, NO_TRUMP, or UNDECIDED when
    not chosen or hidden from this seat; `own_indicator`: the seat's own face-down card as a mask (0: none);
    `standing`: the seat holding the standing bid in the auction (-1: none); `team_of`: each seat's team this
    hand. The public facts after them (`facts`, a `Facts`) serve the special decisions: surrender, conceding,
    claims, doubling against the target."""

    def __init__(self, seat: int, phase: int, hand: int, own_indicator: int, trump: int, strength: list[int],
                 bidder: int, bid: int, standing: int, team_of: list[int], facts: Facts | None = None) -> None:
        self.seat = seat
        self.phase = phase
        self.hand = hand
        self.own_indicator = own_indicator
        self.trump = trump
        self.strength = strength
        self.bidder = bidder
        self.bid = bid
        self.standing = standing
        self.team_of = team_of
        self.facts = facts if facts is not None else Facts()

    @property
    def held(self) -> int:
        """The seat's cards, its own face-down indicator included."""
        return self.hand | self.own_indicator

    def partners(self, a: int, b: int) -> bool:
        return self.team_of[a] == self.team_of[b]


def known_trump(state: State, seat: int) -> int:
    """The trump as `seat` knows it: a suit, NO_TRUMP, or UNDECIDED when not chosen or hidden from it."""
    if state.trump == UNDECIDED or (state.concealed and seat != state.folder):
        return UNDECIDED
    return state.trump


def state_knowledge(state: State, seat: int) -> Knowledge:
    """What `seat` knows in a full state, from its own cards and the public facts only."""
    own = 1 << state.indicator if state.concealed and state.indicator >= 0 and seat == state.folder else 0
    return Knowledge(seat, state.phase, state.hands[seat], own, known_trump(state, seat), state.strength,
                     state.bidder, state.bid, state.high_bidder, state.hand_team_of, state_facts(state, seat))


def state_facts(state: State, seat: int) -> Facts:
    unknown = 0
    sizes = [0] * state.n
    for s in range(state.n):
        h = state.hands[s]
        sizes[s] = h.bit_count()
        if s != seat:
            unknown |= h
    if state.concealed and state.indicator >= 0:
        sizes[state.folder] += 1
        if seat != state.folder:
            unknown |= 1 << state.indicator
    return Facts(unknown, sizes, list(state.team_points), state.target, state.multiplier, state.bidders_lost_trick,
                 len(state.tricks), state.phase == PLAY and not state.trick_cards, state.special is not None,
                 state.contract_round, state.asker, state.high, state.concealed,
                 suit_named(state.game, state.high_suit) if state.phase == AUCTION else UNDECIDED, state.added,
                 forced_bid(state.game, state.history, state.dealer), None,
                 speech_masks(state.history) if state.phase == AUCTION else (0, 0),
                 state.high_suit if state.phase == AUCTION else "")


def forced_bid(game: GameTables, history: Sequence[Action], dealer: int) -> bool:
    """Whether the one bid of the auction so far was forced on its bidder: the first hand obliged to open, or the
    dealer made to bid after every other seat passed. Only doubling reads it: without doubling steps, False."""
    a = game.rules.auction
    if game.rules.doubling is None or not (a.dealer_must_bid or a.first_hand_must_bid):
        return False
    bid: Action | None = None
    speeches = 0
    for x in history:
        if x.verb == "bid":
            if bid is not None:
                return False
            bid = x
            speeches += 1
        elif x.verb == "pass" and bid is None:
            speeches += 1
    if bid is None:
        return False
    if a.first_hand_must_bid and speeches == 1 and bid.seat == game.first_hand(dealer):
        return True
    return a.dealer_must_bid and bid.seat == dealer and speeches == game.n


def suit_named(game: GameTables, code: str) -> int:
    """The suit a bid's suit code names: NO_TRUMP for 'NT', UNDECIDED for none."""
    if not code:
        return UNDECIDED
    if code == "NT":
        return NO_TRUMP
    suits = game.layout.suits
    return suits.index(code) if code in suits else UNDECIDED


SPECIAL_SPEECHES = ("double", "redouble", "partner", "declare")


def plain_speeches(legal: tuple[Action, ...]) -> tuple[Action, ...]:
    """The auction's bids, passes and redeal, without the special speeches (doubling steps, `partner`, `declare`,
    a `change` mark), which SpecialRules weighs on top of the plain choice."""
    out: list[Action] = []
    for a in legal:
        if a.verb in SPECIAL_SPEECHES or a.arg.endswith("change"):
            continue
        out.append(a)
    return tuple(out) if out else legal


def first_of(legal: tuple[Action, ...], verbs: tuple[str, ...]) -> Action:
    for v in verbs:
        for a in legal:
            if a.verb == v:
                return a
    return legal[0]


class ContractPolicy:
    """The heuristic's decisions outside the card play for one game."""

    def __init__(self, model: HandModel, never: bool = False, v1: bool = False, v2: bool = False,
                 v3: bool = False) -> None:
        self.model = model
        self.game = model.game
        self.never = never
        self.v1 = v1        # the auction of before bidding from the hand's worth (`heuristic:v1`)
        self.v2 = v2        # the auction of before weighing banked scores (`heuristic:v2`)
        self.v3 = v3        # the turned choice of before counting the cards in play (`heuristic:v3`)
        sc = self.game.rules.scoring
        banked = sc.banked is not None and not v2 and STEP_AUCTION in self.game.rules.schedule
        self.auction: AuctionRules = BankedAuction(self) if banked else AuctionRules(self)
        self.special = SpecialRules(self)
        # every auction speech offered is a redeal, a pass or a bid, the bids a run in increasing order after the
        # others (BidTable.choices): the choice is then found without scanning a wide auction's bids
        self.plain_auction = not any(t.speeches for t in self.game.rounds)

    def action(self, state: State) -> Action:
        """What the heuristic would do now in `state` (any phase but the card play), for the seat to act."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.choose(state_knowledge(state, state.to_act), legal)

    def choose(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        """The heuristic's choice among `legal` outside the card play. Every special option a rule file offers is
        weighed (special.py's rules of thumb); an option it does not know is left alone (pass where it may)."""
        if len(legal) == 1:
            return legal[0]
        if self.never:
            return self.choose_never(k, legal)
        ph = k.phase
        if ph == AUCTION:
            if self.plain_auction and legal[-1].verb == "bid":   # a redeal, a pass, the bids: nothing special
                return self._plain_bid(k, legal) if self.v1 else self.auction.bid(k, legal)
            plain = plain_speeches(legal)
            return self.special.bid(k, legal, self._bid(k, plain) if self.v1 else self.auction.bid(k, plain))
        if ph == TRUMP:
            return self.special.trump(k, legal, self.trump_choice(k.hand, legal))
        if ph == RAISE:
            return self.special.raise_(k, legal)
        if ph == DOUBLING:
            return self.special.double(k, legal)
        if ph == DECLARE:
            return self.special.declare(k, legal)
        if ph == POINTLESS:
            return first_of(legal, ("redeal", "accept", "pass"))
        if ph == ANSWER:
            return self.special.answer(k, legal)
        if ph == MELDS:   # a shown meld only ever helps its side
            return first_of(legal, ("show", "pass"))
        return self.special.unknown(k, legal)

    def play_extra(self, k: Knowledge, extras: list[Action]) -> Action | None:
        """An action other than a card (surrender, concede, a claim, a meld) the heuristic takes now in the play,
        or None (then it plays a card). The `never` policy takes none of them (its caller shows pairs and calls
        as it always did)."""
        if self.never or not extras:
            return None
        return self.special.play_extra(k, extras)

    def choose_never(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        """0.1's contract policy (`never`): special options practically never taken, kept for comparisons and the
        frozen `pimc:never` choices."""
        ph = k.phase
        if ph == AUCTION:
            return self._bid(k, legal)
        if ph == TRUMP:
            return self.trump_choice(k.hand, legal)
        if ph == RAISE:
            return self._raise(k, legal)
        if ph == DOUBLING:
            return self._double(k, legal)
        if ph == DECLARE:
            return self._declare(k, legal)
        if ph == POINTLESS or ph == ANSWER:
            return first_of(legal, ("redeal", "accept", "pass"))
        if ph == MELDS:   # a shown meld only ever helps its side
            return first_of(legal, ("show", "pass"))
        return legal[0]

    # --- the auction ------------------------------------------------------------------------------------------
    def bid_options(self, legal: tuple[Action, ...], code: str) -> tuple[list[Action], Action | None]:
        """The bids the heuristic looks at (those naming `code` where bids name a suit) and the pass, if legal."""
        bids: list[Action] = []
        passing: Action | None = None
        in_bid = self.game.rules.trump.in_bid
        for a in legal:
            if a.verb == "bid":
                if not in_bid or self.model.code_of(a) == code:
                    bids.append(a)
            elif a.verb == "pass" and passing is None:
                passing = a
        return bids, passing

    def partner_holds_bid(self, k: Knowledge) -> bool:
        hb = k.standing
        return hb >= 0 and hb != k.seat and not self.game.rules.table.bidder_plays_alone and k.partners(hb, k.seat)

    def bid_estimate(self, k: Knowledge) -> tuple[str, float]:
        """The suit (or NT) the seat would bid and the card points it expects its side to take."""
        m = self.model
        if self.game.mode_names:   # trump modes a bid may name (rules.trump.modes)
            code, units = m.best_choice(k.hand)
            return code, m.expected(k.seat, k.hand, units)
        suit, units = m.best_trump(k.hand, m.no_trumps)
        code = "NT" if suit < 0 else self.game.layout.suits[suit]
        return code, m.expected(k.seat, k.hand, units)

    def _bid(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        for a in legal:
            if a.verb == "redeal":
                return a
            if a.verb == "declare" and self.declares_in_auction(k, a):
                return a
        code, est = self.bid_estimate(k)
        bids, passing = self.bid_options(legal, code)
        if not bids:
            return passing if passing is not None else legal[0]
        margin = PARTNER_MARGIN if self.partner_holds_bid(k) else 0
        if passing is None or est >= self.model.value_of(bids[0]) + margin:
            return bids[0]
        return passing

    def _plain_bid(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        """`_bid`'s choice (and `special.bid`'s, which weighs only speeches this auction never offers) where the
        speeches are a redeal and a pass first, then the bids in increasing order, value by value and each
        value's suits in one order: a few actions are read, not every bid of a wide auction (about 1,500 where
        300 bids each name a suit or no-trumps)."""
        passing: Action | None = None
        n = len(legal)
        i = 0
        while i < n:
            a = legal[i]
            if a.verb == "bid":
                break
            if a.verb == "redeal":
                return a
            if a.verb == "pass" and passing is None:
                passing = a
            i += 1
        if i == n:
            return passing if passing is not None else legal[0]
        code, est = self.bid_estimate(k)
        first = legal[i]
        if self.game.rules.trump.in_bid:   # the lowest bid naming `code`: among the lowest value's, one per code
            j = i
            end = min(n, i + self.game.bids_per_value)
            while j < end and self.model.code_of(legal[j]) != code:
                j += 1
            if j == end:
                return passing if passing is not None else legal[0]
            first = legal[j]
        margin = PARTNER_MARGIN if self.partner_holds_bid(k) else 0
        if passing is None or est >= self.model.value_of(first) + margin:
            return first
        return passing

    # --- the trump --------------------------------------------------------------------------------------------
    def trump_choice(self, hand: int, legal: tuple[Action, ...], suit: int = -1) -> Action:
        """The heuristic's trump: `suit`, or by default its best suit; laid as a card, the least useful card of
        that suit."""
        g = self.game
        if suit < 0 and g.mode_names and not g.rules.trump.as_card:   # a trump mode may be named instead
            code = self.model.best_choice(hand)[0]
            for a in legal:
                if a.arg == code:
                    return a
        if suit < 0:
            suit = self.model.best_trump(hand, False)[0]
        code = g.layout.suits[max(suit, 0)]
        if not g.rules.trump.as_card:
            for a in legal:
                if a.arg == code:
                    return a
        best: Action | None = None
        best_rank = -1
        for a in legal:
            if a.verb == "trump" and len(a.arg) > 1 and a.arg[-1] == code and a.arg != "seventh":
                r = g.rank_of[g.code_ids[a.arg][0]]
                if best is None or r > best_rank or (r == best_rank and a.arg > best.arg):
                    best, best_rank = a, r
        return best if best is not None else legal[0]

    # --- raise ------------------------------------------------------------------------------------------------
    def raise_estimate(self, k: Knowledge) -> float:
        """The card points the heuristic expects when asked to raise (-1000: it would not raise at all)."""
        m = self.model
        hand = k.held
        if k.trump >= 0:
            units = m.units(hand, k.trump)
        else:   # the partner does not know the trump: only an exceptional hand raises
            if m.z(hand) < RAISE_Z:
                return -1000.0
            units = m.best_trump(hand, False)[1]
        return m.expected(k.seat, hand, units)

    def raise_by_estimate(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        """The raise by the hand evaluation (0.1's rule, kept by `never`)."""
        return self._raise(k, legal)

    def _raise(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        raises = [a for a in legal if a.verb == "raise"]
        if not raises:
            return legal[0]
        est = self.raise_estimate(k)
        return raises[0] if est >= self.model.value_of(raises[0]) + RAISE_MARGIN else first_of(legal, ("pass",))

    # --- doubling ---------------------------------------------------------------------------------------------
    def _double(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        g = self.game
        d = g.rules.doubling
        stake = d.fixed_stake.name if d is not None and d.fixed_stake is not None else ""
        steps = [a for a in legal if a.verb != "pass" and a.verb != stake]
        if not steps or k.bidder < 0:
            return first_of(legal, ("pass",))
        m = self.model
        hand = k.held
        if k.partners(k.seat, k.bidder):
            if k.trump < 0:
                return first_of(legal, ("pass",))
            est = m.expected(k.seat, hand, m.units(hand, k.trump))
            return steps[0] if est >= k.bid + DOUBLE_MARGIN else first_of(legal, ("pass",))
        # against the bidder: only with several top cards and a high bid to defeat
        top = max(k.strength)
        tops = 0
        h = hand
        while h:
            low = h & -h
            if k.strength[low.bit_length() - 1] == top:
                tops += 1
            h ^= low
        if tops >= DOUBLE_TOPS and k.bid >= g.rules.auction.bid_min + DOUBLE_ABOVE_MIN:
            return steps[0]
        return first_of(legal, ("pass",))

    # --- special contracts ------------------------------------------------------------------------------------
    def _declare(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        for a in legal:
            if a.verb == "declare":
                c = self.game.contracts.get(a.arg)
                if c is not None and not c.played and c.sure_sweep == SWEEP_REQUIRED:
                    return a   # a sure sweep shown scores without risk (the engine offers it only then)
        for a in legal:
            if a.verb == "declare":
                c = self.game.contracts.get(a.arg)
                if c is not None and self.sure_sweep(k, not c.no_trumps):
                    return a
        return first_of(legal, ("pass",))

    def declares_in_auction(self, k: Knowledge, a: Action) -> bool:
        """A declaration offered as a bid: taken when the seat's own cards are sure to win every trick at
        no-trumps leading (a contract without trumps; its partners' cards, unseen, cannot spoil that), since it
        is worth more than any number."""
        if self.never:
            return False
        c = self.game.contracts.get(a.arg)
        return c is not None and c.played and c.no_trumps and is_sure_sweep(self.game, k.held)

    def sure_sweep(self, k: Knowledge, keeps_trump: bool) -> bool:
        """Every card in the hand is one of the top cards of its suit (so leading them wins every trick), and with
        trumps kept (the trump known) nobody else holds a trump to ruff with; the seat's own face-down card is no
        one else's to ruff with."""
        g = self.game
        hand = k.hand
        strength = k.strength
        for s in range(g.nsuits):
            mine = hand & g.suit_masks[s]
            if not mine:
                continue
            others = g.suit_masks[s] & ~hand
            if others and top_strength(strength, others) >= min_strength(strength, mine):
                return False
        if keeps_trump and k.trump >= 0:
            return not g.suit_masks[k.trump] & ~hand & ~k.own_indicator
        return True


def min_strength(strength: list[int], m: int) -> int:
    best = 1 << 30
    while m:
        low = m & -m
        s = strength[low.bit_length() - 1]
        if s < best:
            best = s
        m ^= low
    return best


_POLICIES: dict[tuple[int, bool, bool, bool, bool], ContractPolicy] = {}
POLICIES_KEPT = 64


def policy_for(model: HandModel, never: bool = False, v1: bool = False, v2: bool = False,
               v3: bool = False) -> ContractPolicy:
    """The contract policy of this model's game, built once per process (`v1`: the auction of before bidding from
    the hand's worth; `v2`: the auction of before weighing banked scores; `v3`: the turned choice of before
    counting the cards in play)."""
    key = (id(model.game), never, v1, v2, v3)
    p = _POLICIES.get(key)
    if p is None or p.model is not model:
        if len(_POLICIES) >= POLICIES_KEPT:
            _POLICIES.clear()
        p = _POLICIES[key] = ContractPolicy(model, never, v1, v2, v3)
    return p
