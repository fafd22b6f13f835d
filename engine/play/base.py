"""The data of a hand in progress, shared by the phase modules (auction, contract steps, tricks, scoring): each is
a module of functions over `StateData`; `State` (engine/play/state.py) is this data with the public interface."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.play.actions import Action
from engine.play.rules import AuctionRules, ContractRules
from engine.play.tables import BidTable, GameTables

# The codes below are `Final`: a compiled build then uses them as C constants, where a plain module global would be
# looked up by name in the module's dict at every use (several times per action on the hot path).

# Phases of a hand
AUCTION: Final = 0
TRUMP: Final = 1
DOUBLING: Final = 2
RAISE: Final = 3
POINTLESS: Final = 4
DECLARE: Final = 5
PLAY: Final = 6
ANSWER: Final = 7
DONE: Final = 8
DEALING: Final = 9
MELDS: Final = 10   # the window for showing melds after a won trick (special.melds)
TAKE: Final = 11    # take or pass on the turned card (engine/play/turned.py)
CHOOSE: Final = 12  # a player names the trump without an auction, or pushes to his partner
EXCHANGE: Final = 13   # the holder of the lowest trump may exchange it for the turned card
PHASE_NAMES: Final = ("auction", "trump", "doubling", "raise", "redeal", "declarations", "play", "surrender",
                      "done", "dealing", "melds", "take_or_pass", "choose_trump", "exchange")

# What a caller must do after calling for the trump in the same turn
FREE: Final = 0
TRUMP_IF_ABLE: Final = 1
INDICATOR: Final = 2
ANY_TRUMP: Final = 3

UNDECIDED: Final = -2  # trump suit not chosen yet

# Why a hand was annulled (State.annul_code), for the dealer rotation; NOT_ANNULLED while it was not
NOT_ANNULLED: Final = -1
ANNUL_ALL_PASS: Final = 0
ANNUL_HELD_ALL_TRUMPS: Final = 1
ANNUL_REDEAL: Final = 2
ANNUL_ALL_OF_RANK: Final = 3
ANNUL_NEVER_EXPOSED: Final = 4
ANNUL_SCHMEISS: Final = 5     # a schmeiss accepted: the same dealer deals again
ANNUL_NAMES: Final = ("all_pass", "held_all_trumps", "redeal", "all_of_rank", "trump_never_exposed", "schmeiss")

# The opponents' offer to surrender (special.all_tricks.surrender), as `surrender` holds it
NO_SURRENDER: Final = 0
SURRENDER_OFFERED: Final = 1
SURRENDER_REFUSED: Final = 2
SURRENDER_ACCEPTED: Final = 3


class TrickRecord:
    """A finished trick, as the state keeps it: never changed once made, so clones share it (a plain class, which
    a compiled build makes native; results hand out `Trick` copies)."""

    def __init__(self, leader: int, seats: list[int], cards: list[int], winner: int, points: int) -> None:
        self.leader = leader
        self.seats = seats
        self.cards = cards
        self.winner = winner
        self.points = points


class Combo:
    """One announced meld: never changed once made, so clones share it."""

    def __init__(self, seat: int, kind: int, length: int, value: int, cards: int, top: int, suit: int) -> None:
        self.seat = seat
        self.kind = kind        # SEQUENCE, FOUR_OF_A_KIND
        self.length = length    # cards in it
        self.value = value
        self.cards = cards      # card ids as bits (public only once shown)
        self.top = top          # the natural-order place of its highest card (0 = the highest rank)
        self.suit = suit        # a sequence's suit (-1: four of a kind)


@dataclass(frozen=True, kw_only=True)
class Trick:
    """A finished trick in a `Result`: who led, the seats and cards in playing order, the winner, the points."""

    leader: int
    seats: tuple[int, ...]
    cards: tuple[int, ...]
    winner: int
    points: int


@dataclass(kw_only=True)
class Result:
    """What a finished (or stopped) hand amounts to, per hand team."""

    status: str
    teams: list[list[int]]
    card_points: list[int]
    game_points: list[int]
    made: bool | None
    reason: str = ""
    tricks: tuple[Trick, ...] = ()


class StateData:
    """Fields of `State`; declared once here so each phase module can be type-checked on its own, and the hooks
    through which a phase module reaches what imports it (State implements them)."""

    game: GameTables
    dealer: int
    n: int
    first: int
    dealt: list[list[int]]
    given: list[int]
    received: list[int]
    hands: list[int]
    step: int
    phase: int
    to_act: int
    history: list[Action]
    status: str
    stage: int               # the stages after the schedule passed so far (State._after_schedule)
    annul_reason: str
    annul_code: int          # ANNUL_*
    match_scores: list[int]
    match_target: int | None # the match's winning score when this hand was dealt (an event may have moved it)
    new_match_target: int    # -1; else the winning score this hand sets for the rest of the match
    # auction
    # The round under way: its rules and its table of bids (set when a round starts; plain fields, read often).
    arules: AuctionRules
    atable: BidTable
    round: int               # the round of bidding under way or last held (1, 2)
    contract_round: int      # the round whose bid fixed the contract
    high: int
    high_bidder: int         # the standing bidder (-1: none yet)
    high_suit: str
    passes: int              # players other than the standing bidder who have passed since his bid
    passers: int             # bits: those players (a lapsed turn may bring one round again)
    bids_made: list[int]
    round_bids: int          # bids made in the current round
    passed: list[bool]
    spoke: list[bool]
    last_was_pass: bool
    asker: int               # the seat whose speech their partner is making (`partner`); -1: none
    handed_back: bool        # the partner handed the speech back: the asker must bid or pass
    lapses: int              # bits: seats whose next turn lapses (they spoke for their partner)
    refold: bool             # the holder who stays holder lays a new trump card at the end of the round
    # contract
    bidder: int
    bid: int
    target: int
    trump: int
    folder: int              # the seat that laid the trump card or named the secret suit (-1: none yet)
    trump_mask: int          # the trump suit's cards (0: no trumps or not chosen)
    strength: list[int]      # card strength for this hand (a reversed no-trump hand runs the other way)
    concealed: bool
    indicator: int
    seventh: bool
    exposed_trick: int
    power_from: int
    multiplier: int
    added: int               # units added to what the paid side receives (doubling steps with `adds`)
    fixed_stake: int
    queue: list[int]
    rechoosing: bool         # the trump is being chosen again after a second auction changed the bidder
    dbl_step: int
    doubled: bool
    special: ContractRules | None
    declarer: int
    last_card: bool          # the trump is the suit of the last card dealt to the folder (`trump last`)
    fold_secret: bool        # the trump card laid face down went back unseen: the history keeps it hidden
    pending: int             # a declaration standing while later players may still declare (-1: none)
    pending_by: int
    at_first_lead: bool      # something happens as the first card of trick 1 is led (trump shown or fixed)
    melds_shown: list[int]   # kind * 64 + suit * 16 + seat, for each meld shown this hand
    meld_points: list[int]   # per hand team: the value of the melds it showed (that score for it, after any comparison)
    meld_shift: int          # the sum by which the melds shown so far moved the target (before its bounds)
    meld_base: int           # the target the melds move: the bid's
    claim: int               # index of the claim made this hand (-1: none)
    claimer: int
    sitting_out: int
    dummies: int             # bits: seats whose cards lie face up and are played by the declarer
    exposed: int             # bits: seats whose cards lie face up for everyone to see
    hand_tricks: int         # tricks in this hand (fewer when a declaration stopped the deal)
    hand_teams: list[list[int]]
    hand_team_of: list[int]
    # play
    leader: int
    trick_cards: list[int]
    trick_seats: list[int]
    tricks: list[TrickRecord]
    led_suits: int
    played_suits: int
    constraint: int
    caller: int
    team_points: list[int]
    resume_to: int
    _extras: list[Action]    # with _legal_mask: the other actions of the seat to play (call, show pair, ...)
    _mask_ready: bool        # _legal_mask and _extras are those of the current position
    after: list[int]        # the seat that plays after each seat (sitting-out partners skipped)
    trick_size: int
    plain_play: bool        # no pair or surrender to offer: the inlined legal-card path applies
    duty_play: bool         # the same, with play.obligations: once the trump is open, obligations.playable
    led: int                # the suit led to the current trick
    # the Jass-group mechanisms (rule files' per-role cards, trump modes, melds, the trump marriage) read and write
    points_of: list[int]     # each card's points in this hand (the trump's own points once a trump suit is set)
    all_trumps: bool         # a trump mode in which every suit plays as the trump suit (duties apply to the suit led)
    trump_mode: int          # the named trump mode chosen (index of rules.trump.modes); -1: none
    trump_multiplier: int    # the hand's score is multiplied by it (the mode's, or the trump suit's); 1 by default
    held_over: int           # banked points this hand held for the winner of the next deal (a tie, litige); 0: none
    banked_stop: int         # the credit at which the match's winning score stopped the deal (banked.STOP_*); 0: none
    # meld_points (declared above with the melds): per hand team, the points of the melds that score for it
    marriage_points: list[int]  # per hand team: the trump marriage's points (kept even when the contract fails)
    tricks_won_by: list[int]
    pair_shown_by: list[int]
    surrender: int
    conceded: bool           # the contract holder conceded: play stopped, the contract failed
    bidders_lost_trick: bool
    # trump opening, lead duties, the blind cut, claims and melds
    opening: bool            # the DECLARE phase is the holder's choice to open the trump before trick 1
    open_duty: bool          # the holder opened before trick 1: on lead to it he leads a trump
    exhausted: bool          # the bidder led a trump nobody else followed: he keeps leading trumps
    face_down: int           # cards of the current trick played face down (the blind cut)
    hidden: int              # cards played face down that stay face down for good
    shown: list[int]         # per seat: cards everyone knows he holds (a folded card shown, melds)
    claims: list[int]        # per claim made: seat * 1000 + the number of cards played before it
    meld_suits: int          # suit bits of the melds shown
    melded: list[int]        # per seat: the cards of the melds he showed (public while he holds them)
    grading: bool            # no grading of claims at the end: a replay inside the grading, a bot's rollout
    # combinations and trump_marriage (engine/play/combinations.py)
    announced: int           # bits: seats that announced their melds in trick 1
    combos: list[Combo]      # the melds announced, in order (shared by clones: never changed once made)
    combo_winner: int        # the team whose announced melds score; NOT_COMPARED / NOBODY / EVERY_SIDE (combinations)
    marriages: list[int]     # seat * 16 + suit of each trump marriage credited
    resume_plain: bool       # plain_play as it stands after trick 1 (announcing keeps it off in trick 1)
    resume_duty: bool        # duty_play likewise
    # the turned card, the stock and trump choices without an auction (engine/play/turned.py)
    stock: list[int]         # the undealt cards in order, the turned card first (shared by clones, never changed)
    turned: int              # the card lying face up on the table (-1: none): the turned card, or what was exchanged
    turned_suit: int         # the turned card's suit when it was turned (-1: none)
    turned_card: int         # the card turned up (-1: none), kept for the record once taken or exchanged
    stock_used: int          # stock cards dealt out so far (the turned card included)
    bottom_shown: int        # the stock's bottom card shown for information (-1: none)
    take_round: int          # take_or_pass: 1, 2 (0: not under way)
    take_spoke: int          # take_or_pass: speakers of the round so far
    schmeiss_by: int         # the seat whose schmeiss stands, waiting for accept / refuse (-1: none)
    must_name: bool          # a refused schmeiss of round 2: the refuser must name a suit
    pushed: bool             # choose_trump: the choice was pushed to the partner
    _legal: tuple[Action, ...] | None
    _legal_mask: int
    _game_points: list[int] | None   # the hand's score once it is over
    _made: bool | None

    @property
    def controller(self) -> int:
        """The seat whose player chooses the action now: the seat to act, or the declarer for his dummy (-1 once
        the hand is over)."""
        p = self.to_act
        return self.declarer if p >= 0 and self.dummies >> p & 1 else p

    @property
    def indicator_owner(self) -> int:
        """The seat that laid the indicator (or named the secret trump): the bidder who chose the trump, even when
        a special contract moved the contract or a later round of bidding is under way."""
        return self.folder

    def _after_full_deal(self) -> bool:
        raise NotImplementedError

    def _set_trump(self, suit: int) -> None:
        """Fix the trump suit (NO_TRUMP for none, UNDECIDED) and what follows from it."""
        g = self.game
        self.trump = suit
        self.trump_mask = g.suit_masks[suit] if suit >= 0 else 0
        self.strength = g.strength_for(suit)
        self.points_of = g.points_for(suit)
        self.trump_multiplier = g.suit_multiplier[suit] if suit >= 0 else 1
        self.trump_mode = -1
        self.all_trumps = False

    # Implemented by State; declared here so the phase modules can call them (State imports the phase modules, so
    # they reach back through these, never by importing State).
    def legal_actions(self) -> tuple[Action, ...]:
        raise NotImplementedError

    def apply(self, action: object) -> None:
        raise NotImplementedError

    def _restart(self) -> StateData:
        """A new hand on the same deal, where the match stood when this one was dealt (no action taken yet)."""
        raise NotImplementedError

    def _annul(self, reason: str, code: int) -> None:
        raise NotImplementedError

    def _next_step(self) -> None:
        raise NotImplementedError

    def _finish(self) -> None:
        raise NotImplementedError

    def _held_all_trumps(self) -> bool:
        raise NotImplementedError

    # Implemented by State with the contract steps (engine/play/contract.py), which import the auction: the
    # auction reaches them through these.
    def _start_trump(self) -> None:
        raise NotImplementedError

    def _regroup_for_declarer(self, declarer: int) -> None:
        raise NotImplementedError

    def _declarations_as_bids(self, seat: int) -> list[Action]:
        """The `declare NAME` speeches `seat` may make at this turn of the auction (Game.declarations_in_auction
        tells whether any can be). A declaration that stands is the standing bid: `high_bidder` is its declarer,
        `_min_bid` must then leave no number to bid over it, and `_end_round()` ends the round at once."""
        raise NotImplementedError

    def _declare_in_auction(self, a: Action) -> None:
        """Apply a `declare NAME` speech of the auction (see `_declarations_as_bids`)."""
        raise NotImplementedError

    def _concede(self) -> None:
        """The contract holder gives up: play stops and the contract counts as failed."""
        self.conceded = True
        self._finish()

    def _set_bid(self, value: int) -> None:
        """The contract's bid, and the counting side's target that follows from it."""
        self.bid = value
        sc = self.game.rules.scoring
        if sc.fixed_target < 0:
            self.target = value
        else:
            self.target = max(0, sc.fixed_target - (value if sc.target_less_call else 0))
        self.meld_base = self.target   # what melds move (scoring.target_adjustments)
        self.meld_shift = 0

    def _seats_from(self, seat: int) -> list[int]:
        """Every seat in playing order starting with `seat`."""
        return [(seat + i) % self.n for i in range(self.n)]
