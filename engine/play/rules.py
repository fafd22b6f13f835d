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
from typing import Any

# auction.one_suit_hand_may_not_bid
ONE_SUIT_NOBODY, ONE_SUIT_FIRST_HAND, ONE_SUIT_EVERYONE = range(3)
# play.bidder_while_concealed.when_trump_suit_led
LED_FOLLOW_OR_DISCARD, LED_MAY_CALL_AND_PLAY_INDICATOR, LED_MUST_CALL = range(3)
# play.bidder_while_concealed.void_in_plain_suit
VOID_DISCARD_PLAIN_OR_INDICATOR, VOID_DISCARD_ANY_OR_ANY_TRUMP, VOID_DISCARD_ANY_OR_INDICATOR = range(3)
# scoring.method
SCORE_BIDDING_TEAM, SCORE_OPPONENTS_CREDITED, SCORE_EXCHANGE = range(3)


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
    bid_min: int
    bid_max: int
    bid_step: int
    first_hand_must_bid: bool
    pass_is_final: bool
    dealer_must_bid: bool          # if everybody passes: the dealer must bid (else: redeal)
    forced_bid: int                # what the dealer must bid then
    hold: bool
    ends_at_max_bid: bool
    partner_overcall: PartnerOvercallRules | None
    second_bid_min: int            # -1: none
    one_suit_barred: int           # ONE_SUIT_*
    redeal_seats: int              # players from the first hand who may (or must) redeal a pointless first packet
    redeal_automatic: bool


@dataclass(frozen=True, kw_only=True)
class TrumpRules(Record):
    in_bid: bool                   # every bid names the trump (else the final bidder chooses after the auction)
    as_card: bool                  # the bidder lays a card of the suit (else names the suit)
    concealed: bool
    seventh_card: bool
    no_trumps: bool
    no_trumps_reversed: bool


@dataclass(frozen=True, kw_only=True)
class PlayRules(Record):
    compulsory_call: bool          # the first player unable to follow must call for a concealed trump
    caller_must_trump: bool
    retroactive: bool
    last_trick_forces_exposure: bool
    bidder_leads_trump_freely: bool
    when_trump_suit_led: int       # LED_*
    void_in_plain_suit: int        # VOID_*
    no_discard_ranks: frozenset[int]   # rank indexes a void player may not discard while their suit is unseen
    suit_seen_when_played: bool    # a suit counts as seen once played (else once led)
    must_not_undertrump: bool


@dataclass(frozen=True, kw_only=True)
class RaiseRules(Record):
    by: tuple[str, ...]            # "bidder", "partner", in order
    min: int
    others_may_raise: bool


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
    anyone: bool                   # any player may declare it (else only the bidder)
    partner_sits_out: bool
    no_trumps: bool
    made: int
    failed: int


@dataclass(frozen=True, kw_only=True)
class AllTricksRules(Record):
    multiplier: int
    surrender: bool                # the opponents may offer to surrender
    refused_loss_multiplier: int


@dataclass(frozen=True, kw_only=True)
class DoublingStepRules(Record):
    name: str
    by_bidding_team: bool          # else the opponents
    multiplier: int


@dataclass(frozen=True, kw_only=True)
class FixedStakeRules(Record):
    name: str
    value: int
    needs_no_score_showing: bool


@dataclass(frozen=True, kw_only=True)
class DoublingRules(Record):
    steps: tuple[DoublingStepRules, ...]
    cap: int                       # 0: no cap
    auto_from_bid: int             # -1: no automatic double
    auto_multiplier: int
    fixed_stake: FixedStakeRules | None


@dataclass(frozen=True, kw_only=True)
class BandRules(Record):
    lo: int
    hi: int
    made: int
    failed: int


@dataclass(frozen=True, kw_only=True)
class ScoringRules(Record):
    method: int                    # SCORE_*
    bands: tuple[BandRules, ...]
    below_half_loss_multiplier: int


@dataclass(frozen=True, kw_only=True)
class MatchRules(Record):
    start: int
    win_at: int | None
    lose_at: int | None


@dataclass(frozen=True, kw_only=True)
class AnnulRules(Record):
    all_of_rank: int               # rank index one hand may not hold every card of; -1: no such rule
    bidding_team_held_all_trumps: bool
    trump_never_exposed: bool
    pointless_hand_may_redeal: bool


@dataclass(frozen=True, kw_only=True)
class DeckRules(Record):
    suits: tuple[str, ...]
    ranks: tuple[str, ...]         # high to low
    copies: int
    rank_points: tuple[int, ...]   # per rank index
    tie_top: tuple[int, ...]       # per rank index: the highest rank it ties with (itself when untied)
    last_trick_bonus: int          # added to the last trick's points
    bonus_points: int              # every per-hand bonus together (engine.rules.checks.bonus_points)


@dataclass(frozen=True, kw_only=True)
class TableRules(Record):
    players: int
    teams: tuple[tuple[int, ...], ...]
    bidder_plays_alone: bool
    bidder_leads_first: bool       # else the first hand leads


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
    raise_: RaiseRules | None
    pair: PairRules | None
    contracts: tuple[ContractRules, ...]
    all_tricks: AllTricksRules | None
    doubling: DoublingRules | None
    scoring: ScoringRules
    match: MatchRules
    annul: AnnulRules


# Schedule step codes
STEP_AUCTION, STEP_TRUMP, STEP_RAISE = -1, -2, -3

# trump.seventh_card: the seventh card dealt to the bidder (counted from 1, at this index of their cards dealt)
SEVENTH_CARD = 7
SEVENTH_CARD_INDEX = SEVENTH_CARD - 1
