"""The rules of one game as plain typed records: what `State`, the bots, the view, the table and records read.

The rule file's pydantic model (engine/rules/model.py) is read once, by `engine.play.compile`, into these
records; nothing after that step sees the model. Named options become small int codes or booleans so the hot
path compares ints, and every default is already resolved (a forced bid is a number, never "the minimum").
The records are keyword-only, so the compile step names every field it fills: a new field is one keyword in the
record and one where it is built, never a position to count.

The hot path reads rule values here (`game.rules.<section>.<field>`); `Game` keeps no copies of them, only
tables derived from them. So that those reads cost what an attribute of `Game` costs, a normal install compiles
this module with the hot path (setup.py): the records are then native classes.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

# Option codes, `Final` so that a compiled build uses them as C constants (not a lookup in the module dict per use)

# auction.one_suit_hand_may_not_bid
ONE_SUIT_NOBODY: Final = 0
ONE_SUIT_FIRST_HAND: Final = 1
ONE_SUIT_EVERYONE: Final = 2
# play.bidder_while_concealed.when_trump_suit_led
LED_FOLLOW_OR_DISCARD: Final = 0
LED_MAY_CALL_AND_PLAY_INDICATOR: Final = 1
LED_MUST_CALL: Final = 2
# play.bidder_while_concealed.void_in_plain_suit
VOID_DISCARD_PLAIN_OR_INDICATOR: Final = 0
VOID_DISCARD_ANY_OR_ANY_TRUMP: Final = 1
VOID_DISCARD_ANY_OR_INDICATOR: Final = 2
# play.obligations.trump_led
LED_TRUMP_ANY: Final = 0
LED_TRUMP_HEAD: Final = 1
LED_TRUMP_HEAD_UNLESS_PARTNER: Final = 2
# play.obligations.void
VOID_FREE: Final = 0
VOID_MUST_TRUMP: Final = 1
VOID_MUST_TRUMP_UNLESS_PARTNER: Final = 2
# play.obligations.undertrump
UNDERTRUMP_ALLOWED: Final = 0
UNDERTRUMP_FORCED: Final = 1
UNDERTRUMP_FORBIDDEN: Final = 2
UNDERTRUMP_FORBIDDEN_STRICT: Final = 3   # the ban holds while any card other than a lower trump is left
# scoring.method
SCORE_BIDDING_TEAM: Final = 0
SCORE_OPPONENTS_CREDITED: Final = 1
SCORE_EXCHANGE: Final = 2
SCORE_BANKED: Final = 3
# scoring.banked.success
SUCCESS_BEATS_OPPONENTS: Final = 0
SUCCESS_REACHES_BID: Final = 1       # reaches the bid and beats the opponents
SUCCESS_NONE: Final = 2              # no contract: each side banks its own total
# scoring.banked.ties
TIES_FAILED: Final = 0
TIES_HELD_OVER: Final = 1
TIES_MAKER_SCORES_NOTHING: Final = 2
# scoring.banked.failed_defenders
FAILED_THEIR_MELDS: Final = 0        # every card point, their melds and marriage
FAILED_ALL_MELDS: Final = 1          # every card point, both sides' melds, their marriage
FAILED_FIXED_AND_BID: Final = 2      # failed_fixed + the bid, their melds and marriage
FAILED_BOTH_TOTALS: Final = 3        # both sides' totals
# special.contracts[].window: after the full deal (asked in turn), a speech of the first auction, before a trick
DECLARE_AFTER_DEAL: Final = 0
DECLARE_IN_AUCTION: Final = 1
DECLARE_BEFORE_TRICK: Final = 2
DECLARE_IN_SECOND_AUCTION: Final = 3
# special.contracts[].sure_sweep
SWEEP_ANY: Final = 0
SWEEP_FORBIDDEN: Final = 1
SWEEP_REQUIRED: Final = 2
# special.doubling.window
WINDOW_AFTER_TRUMP: Final = 0
WINDOW_IN_AUCTION: Final = 1
WINDOW_BEFORE_PLAY: Final = 2
# who speaks in a round of one turn each: the contract holder, his partners (from him round the table), everyone
# else (likewise); every seat from the holder round the table
ROLE_HOLDER: Final = 0
ROLE_PARTNERS: Final = 1
ROLE_OTHERS: Final = 2
ROLE_EVERYONE: Final = 3
# second_auction.holder_refolds
REFOLD_WHEN_BIDDING: Final = 0
REFOLD_WHEN_MARKED: Final = 1
REFOLD_NEVER: Final = 2


def _rebuild(cls: type[Record], values: dict[str, Any]) -> Record:
    return cls(**values)


class Record:
    """Base of the records: pickled as their class and fields, rebuilt by keyword. (A compiled frozen record
    cannot be unpickled field by field, and tournaments send `game.rules` to their worker processes.)"""

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), {f.name: getattr(self, f.name) for f in fields(self)})  # type: ignore[arg-type]


@dataclass(frozen=True, kw_only=True)
class PartnerOvercallRules(Record):
    min: int            # -1: no higher minimum
    forbidden: bool
    only_after_a_pass: bool


@dataclass(frozen=True, kw_only=True)
class AuctionRules(Record):
    """One round of bidding: the auction (round 1), or a later round after more cards are dealt (the
    `second_auction` section, or the `raise` section, which is such a round spoken with the verb `raise`)."""

    bid_min: int
    bid_max: int
    bid_step: int
    values: tuple[int, ...]        # every bid in increasing order: bid_min..bid_max on the step, then the extra ones
    first_hand_must_bid: bool
    pass_is_final: bool
    dealer_must_bid: bool          # if everybody passes: the dealer must bid (else: redeal)
    forced_bid: int                # what the dealer must bid then
    hold: bool
    ends_at_max_bid: bool
    partner_overcall: PartnerOvercallRules | None
    second_bid_min: int            # -1: none
    one_suit_barred: int           # ONE_SUIT_*
    redeal_seats: int              # players from the first hand who may (or must) redeal a weak first packet
    redeal_automatic: bool
    redeal_max_points: int         # the first packet may total at most this (0: pointless)
    exact_step: bool               # every bid is exactly the next value above the standing bid
    only_opponents: bool           # only an opponent of the standing bidder may bid
    default_bidder: bool           # the first hand holds a standing bid of 0 before anyone bids
    after_first_speech_min: int    # -1: none; else a player who has spoken bids at least this
    partner_speech: bool           # the `partner` speech
    hand_back: bool                # the partner may hand the speech back once
    # rounds after the first
    verb: str                      # "bid"; "raise" for the raise section
    once: bool                     # one turn each, in the order of `speakers` (else until all others pass)
    speakers: tuple[int, ...]      # ROLE_*: who speaks in a round of one turn each, in order
    holder_refolds: int            # REFOLD_*: when a holder who stays holder lays a new trump card
    team_keeps_holder: bool        # a bid by the holder's own side keeps the holder (the raise)
    ask_only_if_able: bool         # speakers are asked only while a bid is still possible (the raise)
    raise_own: bool                # a player may bid over his own standing bid

    @property
    def top(self) -> int:
        """The highest bid."""
        return self.values[-1]


@dataclass(frozen=True, kw_only=True)
class TrumpModeRules(Record):
    name: str
    all_trumps: bool               # every suit plays as the trump suit (else: no trump suit)
    order: tuple[int, ...]         # per rank index: its place in the mode's order (0 highest)
    rank_points: tuple[int, ...]   # per rank index
    multiplier: int


@dataclass(frozen=True, kw_only=True)
class TrumpRules(Record):
    in_bid: bool                   # every bid names the trump (else the final bidder chooses after the auction)
    as_card: bool                  # the bidder lays a card of the suit (else names the suit)
    concealed: bool
    seventh_card: bool
    no_trumps: bool
    no_trumps_reversed: bool
    redeal_max_points: int         # -1: none; else a bidder whose cards total at most this may redeal instead
    open_by_choice: bool           # before trick 1 the holder says `open` or `pass`
    open_lead_trump: bool          # having opened by choice, the holder on lead to trick 1 leads a trump
    open_after_trick: int          # 0: none; else a contract still concealed at the end of this trick opens...
    open_from_bid: int             # ... when its bid is at least this
    last_card: bool                # `trump last`: the suit of the last card dealt to the bidder
    last_card_needs_distinct_suits: bool   # only when the cards held at the trump step are of different suits
    shown_at_first_lead: bool      # a concealed trump is shown as the first card of trick 1 is led
    modes: tuple[TrumpModeRules, ...]   # named modes chosen like a suit (`trump NAME`, `bid N NAME`)
    suit_multipliers: tuple[int, ...]   # per suit index: the hand's score multiplier with that trump (() = all 1)


@dataclass(frozen=True, kw_only=True)
class ObligationRules(Record):
    """play.obligations: the duties in following once the trump is known (engine/play/obligations.py)."""

    trump_led: int                 # LED_TRUMP_*
    void: int                      # VOID_FREE, VOID_MUST_TRUMP*
    overtrump: bool                # a player bound to trump beats the trumps in the trick when able
    undertrump: int                # UNDERTRUMP_*
    trump_while_following: bool    # a trump may be played while holding the suit led
    never_forced: frozenset[int]   # rank indexes of trumps that never bind their holder


@dataclass(frozen=True, kw_only=True)
class PlayRules(Record):
    compulsory_call: bool          # the first player unable to follow must call for a concealed trump
    caller_must_trump: bool
    retroactive: bool
    last_trick_forces_exposure: bool
    bidder_leads_trump_freely: bool
    no_trump_lead_to_first_trick: bool  # (with bidder_leads_trump_freely) not to trick 1, unless nothing else
    when_trump_suit_led: int       # LED_*
    void_in_plain_suit: int        # VOID_*
    no_discard_ranks: frozenset[int]   # rank indexes a void player may not discard while their suit is unseen
    suit_seen_when_played: bool    # a suit counts as seen once played (else once led)
    must_not_undertrump: bool
    blind_cut: bool                # void players play face down while the trump is concealed (no call)
    exhausted_trumps: bool         # a bidder whose trump lead nobody followed keeps leading trumps
    bidders_partner_exposed: bool  # once dealt, the bidder's partners' cards lie face up to the end
    obligations: ObligationRules | None    # None: follow suit if able, else any card (with the rules above)


@dataclass(frozen=True, kw_only=True)
class PairBandRules(Record):
    lo: int
    hi: int
    adjust: int | None


@dataclass(frozen=True, kw_only=True)
class PairRules(Record):
    ranks: tuple[int, ...]         # rank indexes
    bidding_team: tuple[PairBandRules, ...]
    opponents: int
    needs_trump_exposed: bool
    needs_won_trick: bool
    right_after_winning: bool
    target_lo: int
    target_hi: int

    def bidding_team_adjust(self, bid: int) -> int | None:
        """The target change when the bidding team shows the pair at this bid (None: not allowed)."""
        for band in self.bidding_team:
            if band.lo <= bid <= band.hi:
                return band.adjust
        return None


@dataclass(frozen=True, kw_only=True)
class ContractRules(Record):
    """A special contract to win every trick (`declare NAME`)."""

    name: str
    anyone: bool                   # any player may declare it (else only the bidder, or with sole_winner ...)
    sole_winner: bool              # ... only a player who has won every trick so far himself
    window: int                    # DECLARE_* (when it is offered)
    trick: int                     # DECLARE_BEFORE_TRICK: declared before leading this trick (1-based)
    stops_deal: bool               # declared in the first auction: no more cards are dealt
    partner_sits_out: bool
    dummy: bool                    # the partners' cards lie face up and the declarer plays them
    no_trumps: bool
    first_card_trumps: bool        # the suit of the declarer's first lead is trumps
    reversed_ranking: bool         # the ranks run the other way for the hand
    side_wins: bool                # every trick must go to the declarer's side (else to the declarer himself)
    stops_at_first_loss: bool
    sure_sweep: int                # SWEEP_*: what the declarer's cards must be
    played: bool                   # else the cards are shown instead of played: the hand ends, made
    made: int
    failed: int
    open_trump: bool               # the trump is open from the start; the declarer leads a trump to trick 1
    failed_to_partner: int         # the score when the declarer's own partner won the lost trick
    barred_with_one_suit: bool     # not for a player whose cards are all of one suit
    no_melds: bool                 # no meld may be shown in this contract
    no_claims: bool                # no claim may be made in this contract


@dataclass(frozen=True, kw_only=True)
class DeclarationRules(Record):
    """The window of special contracts after the full deal (special.declarations)."""

    from_bidder: bool              # the bidder is asked first (else the first hand)
    bidding_side_priority: bool    # an opponent's declaration stands unless a later bidding-side player declares


@dataclass(frozen=True, kw_only=True)
class MeldKindRules(Record):
    name: str
    ranks: tuple[int, ...]         # rank indexes the meld needs, in one suit
    plain: int
    trump: int
    extra_rank: int                # -1: none; else a rank index that raises the value when also held
    extra_plain: int
    extra_trump: int


@dataclass(frozen=True, kw_only=True)
class MeldRules(Record):
    kinds: tuple[MeldKindRules, ...]
    after_tricks: tuple[int, ...]  # trick numbers (from 1) after which the side that won it may show melds
    compulsory: bool               # the engine shows them at the holder's turn to play (no window after tricks)
    needs_won_trick: bool          # (compulsory) the holder's side has won a trick
    needs_trump_exposed: bool      # (compulsory) the trump is known to all
    target_lo: int                 # bounds of the counting side's target (MELD_NO_BOUND: none)
    target_hi: int


@dataclass(frozen=True, kw_only=True)
class ClaimRules(Record):
    """A claim of the last trick by the caller himself (special.claims), at his turn in the last trick."""

    name: str
    side_won_every_trick: bool     # who: a player whose side has won every trick so far
    side_showed_meld: bool         # who: a player whose side has shown a meld
    needs_lost_trick: bool
    melds_beat_by: int             # -1: no points test; else own melds + this must exceed opponents' points + melds
    made: int
    made_by_counting_side: int
    failed: int
    adds: bool                     # the claim's value is added to the hand's score (else it replaces it)
    barred_within: int             # 0: none; else not for a side this many match units or fewer from winning
    match_target_after: int        # -1: none; else the match's new winning score once claimed
    remaining: bool                # every remaining trick for the side (else the last trick by the caller)
    provable: bool                 # it must be certain from the caller's knowledge
    first_moment: bool             # on time only at the side's first moment (late and never-made are wrong)
    stops_play: bool
    on_time_before_trick: int      # 0: always; else no reward once this trick has begun
    wrong_but_won: int


@dataclass(frozen=True, kw_only=True)
class AllTricksRules(Record):
    multiplier: int
    surrender: bool                # the opponents may offer to surrender
    refused_loss_multiplier: int


@dataclass(frozen=True, kw_only=True)
class DoublingStepRules(Record):
    name: str
    by_bidding_team: bool          # else the opponents
    multiplier: int                # 1 for a step that adds
    adds: int                      # what the paid side receives on top (0 for a step that multiplies)


@dataclass(frozen=True, kw_only=True)
class FixedStakeRules(Record):
    name: str
    value: int
    needs_no_score_showing: bool


@dataclass(frozen=True, kw_only=True)
class DoublingRules(Record):
    window: int                    # WINDOW_*
    steps: tuple[DoublingStepRules, ...]
    cap: int                       # 0: no cap
    auto_from_bid: int             # -1: no automatic double
    auto_multiplier: int
    fixed_stake: FixedStakeRules | None
    closes_auction: bool           # (in_auction) after the first step no bids: the next step's side says it or passes


@dataclass(frozen=True, kw_only=True)
class BandRules(Record):
    lo: int
    hi: int
    made: int
    failed: int
    round: int                     # 0: a contract of either round; else only one fixed in this round


@dataclass(frozen=True, kw_only=True)
class BankedRules(Record):
    """scoring.banked: how a banked hand is judged and what each side banks (engine/play/banked.py)."""

    success: int                   # SUCCESS_*
    ties: int                      # TIES_*
    add_bid: bool                  # a made contract: the takers also bank the bid
    failed_defenders: int          # FAILED_*
    failed_fixed: int              # with FAILED_FIXED_AND_BID (and the doubled score): the fixed points
    doubled_fixed_and_bid: bool    # doubled: the deal's winner banks (fixed + bid) x multiplier (else all x it)
    sweep_card_points: int         # -1: none; else the sweeping side's card points count this
    sweep_bonus: int               # added to the sweeping side's total (0: none)
    sweep_bid_from: int            # -1: none; else a bid of at least this is made only by winning every trick
    round_to_ten: bool             # each side's deal score to the nearest ten (0-4 down, 5-9 up)


@dataclass(frozen=True, kw_only=True)
class ScoringRules(Record):
    method: int                    # SCORE_*
    banked: BankedRules | None     # with SCORE_BANKED
    bands: tuple[BandRules, ...]
    below_half_loss_multiplier: int
    shortfall_at_least: int        # -1: none; else short of the bid by this much costs `shortfall_loss`
    shortfall_loss: int            # 0: as many game points as the bid
    counted_by_opponents: bool     # the bidders' opponents count their card points against the target
    fixed_target: int              # -1: the target is the bid
    target_less_call: bool         # the bid lowers the fixed target
    target_moved_by_melds: bool    # melds move the counting side's target (its own down, the others' up)


@dataclass(frozen=True, kw_only=True)
class CaptureRules(Record):
    """A bonus for capturing cards (special.capture_bonuses; deck.last_trick_bonus is one)."""

    all_of_rank: int               # -1: the last trick; else a rank index every card of which the side captured
    amount: int
    game_points: bool              # else card points
    transfer: bool                 # the other side loses the amount too


@dataclass(frozen=True, kw_only=True)
class ConcedeRules(Record):
    after_first_auction: bool
    after_second_auction: bool
    in_play: bool


@dataclass(frozen=True, kw_only=True)
class MatchRules(Record):
    start: int
    win_at: int | None
    lose_at: int | None
    dealer_stays_while_behind: bool    # after a scored hand (else the next player deals)
    next_after_all_pass: bool          # the next player deals after an all-pass (else the same dealer)
    next_after_void: bool
    next_after_redeal: bool
    next_after_annul: bool
    sets_at: int                       # 0: no sets
    win_sets: int
    deals: int                         # 0: none; else the match is this many scored deals (highest total wins)
    ends_mid_deal: bool                # the winning score is tested after each credit of a banked deal


@dataclass(frozen=True, kw_only=True)
class AnnulRules(Record):
    all_of_rank: int               # rank index one hand may not hold every card of; -1: no such rule
    bidding_team_held_all_trumps: bool
    held_all_trumps_before_play: bool  # checked before the first lead (else at the end of the hand)
    trump_never_exposed: bool
    pointless_hand_may_redeal: bool


@dataclass(frozen=True, kw_only=True)
class DeckRules(Record):
    suits: tuple[str, ...]
    ranks: tuple[str, ...]         # high to low
    copies: int
    rank_points: tuple[int, ...]   # per rank index
    tie_top: tuple[int, ...]       # per rank index: the highest rank it ties with (itself when untied)
    last_trick_bonus: int          # added to the last trick's points (the last-trick card-point bonuses together)
    last_trick_transfer: int       # added to the last trick's points and taken from the other side
    bonus_points: int              # every per-hand bonus together (engine.rules.checks.bonus_points)
    trump_order: tuple[int, ...]   # per rank index: its place in the trump suit's order (0 highest); () = tie_top
    trump_rank_points: tuple[int, ...]   # per rank index: its points in the trump suit; () = rank_points


@dataclass(frozen=True, kw_only=True)
class TableRules(Record):
    players: int
    teams: tuple[tuple[int, ...], ...]
    bidder_plays_alone: bool
    bidder_leads_first: bool       # else the first hand leads
    after_bidder_leads_first: bool # the player after the bidder leads the first trick
    first_forehand: str            # '': none; else the card whose holder is the first hand of a match's first deal


@dataclass(frozen=True, kw_only=True)
class DealRules(Record):
    """The turned card, the stock and the trump choices without an auction (engine/play/turned.py)."""

    stock: int                     # cards of the deck no deal step gives (the turned card among them)
    turn_up: bool                  # a card of the stock is turned face up after the first packets
    complete_taker: int            # cards from the stock for the taker at the complete step
    complete_others: int           # ... for each other player
    turned_to_taker: bool          # the taker picks up the turned card
    show_bottom: bool              # the stock's bottom card is shown once the deal is complete
    schmeiss: bool                 # take_or_pass: the offer to throw the cards in
    dealer_must_choose: bool       # take_or_pass: the dealer may not pass in round 2
    turned_from_dealer: bool       # turn_up shows the dealer's last card (he keeps it), not a stock card
    first_hand_names: bool         # take_or_pass: everyone passing, the first hand must name any suit
    may_push: bool                 # choose_trump: the chooser may push to his partner


# combinations.counted / compared / ties, trump_marriage.counted
COMBOS_DECLARED: Final = 0
COMBOS_IN_TRICK: Final = 1
# combinations.ranking keys
KEY_VALUE: Final = 0
KEY_CARDS: Final = 1
KEY_TOP: Final = 2
KEY_TRUMP: Final = 3
KEY_EARLIER: Final = 4
RANKING_KEYS: Final = ("value", "cards", "top", "trump", "earlier")


@dataclass(frozen=True, kw_only=True)
class CombinationRules(Record):
    natural: tuple[int, ...]       # per rank index: its place in the natural order (0 = highest)
    by_place: tuple[int, ...]      # per place in the natural order: the rank index
    sequence_value: tuple[int, ...]   # per run length (index): its value (0: none)
    shortest: int                  # the shortest run that counts (a large number when no sequence counts)
    quads: tuple[int, ...]         # per rank index: the value of four of that rank (0: none)
    counted: int                   # COMBOS_*
    best_side_only: bool           # compared: best_side_scores_all (else each side its own)
    ranking: tuple[int, ...]       # KEY_* in order
    ties_earlier: bool             # ties: earlier (else nobody scores)


@dataclass(frozen=True, kw_only=True)
class MarriageRules(Record):
    ranks: tuple[int, ...]         # rank indexes
    value: int
    in_trick: bool                 # counted in_trick (else in_hand)
    in_modes: bool
    name: str


@dataclass(frozen=True, kw_only=True)
class Rules(Record):
    """One game, completely, as the engine reads it."""

    name: str
    description: str
    table: TableRules
    deck: DeckRules
    schedule: tuple[int, ...]      # deal sizes (> 0) and STEP_* codes (< 0)
    auction: AuctionRules
    trump: TrumpRules
    play: PlayRules
    second_auction: AuctionRules | None   # the round after the full deal: second_auction or raise
    pair: PairRules | None
    contracts: tuple[ContractRules, ...]
    declarations: DeclarationRules
    melds: MeldRules | None
    claims: tuple[ClaimRules, ...]
    all_tricks: AllTricksRules | None
    doubling: DoublingRules | None
    captures: tuple[CaptureRules, ...]   # bonuses counted when the hand is scored (not the last trick's card points)
    concede: ConcedeRules | None
    scoring: ScoringRules
    match: MatchRules
    annul: AnnulRules
    combinations: CombinationRules | None = None   # (h26melds) melds compared or counted in tricks
    marriage: MarriageRules | None = None          # (h26melds) the trump marriage
    deal: DealRules


# Schedule step codes (the raise and the second auction are the same step: a second round of bidding)
STEP_AUCTION: Final = -1
STEP_TRUMP: Final = -2
STEP_SECOND_AUCTION: Final = -3
STEP_TURN_UP: Final = -4       # engine/play/turned.py
STEP_TAKE_OR_PASS: Final = -5
STEP_COMPLETE: Final = -6
STEP_CHOOSE_TRUMP: Final = -7
STEP_STOCK: Final = -8
STEP_EXCHANGE: Final = -9

# trump.seventh_card: the seventh card dealt to the bidder (counted from 1, at this index of their cards dealt)
SEVENTH_CARD: Final = 7
SEVENTH_CARD_INDEX: Final = SEVENTH_CARD - 1

# special.melds.target_bounds absent: the target is not bounded
MELD_NO_BOUND: Final = 1 << 30
