"""The rule-file language: one frozen pydantic model per section of a rule file.

Every field has a plain English name and a default that matches the family's most common practice, so a rule
file states what its game does and a house rule states only what it changes. Mechanisms that really differ are
closed sets of named options (Literal types), never expressions. Cross-field checks live in `checks.py`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1

Rank = Literal["J", "9", "A", "T", "K", "Q", "8", "7", "6", "5", "4", "3", "2"]
Suit = Literal["S", "H", "D", "C"]
Seat = Annotated[int, Field(ge=0, le=11)]
Points = Annotated[int, Field(ge=0, le=1000)]
RaiseBy = Literal["bidder", "partner"]


# Typed default factories: a bare list literal would be inferred as list[str], not a list of the Literal.
def _all_suits() -> list[Suit]:
    return ["S", "H", "D", "C"]


def _both_raise() -> list[RaiseBy]:
    return ["bidder", "partner"]


def _king_queen() -> list[Rank]:
    return ["K", "Q"]


class Section(BaseModel):
    """Base of every section: frozen, unknown keys are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------------------------- table
class Table(Section):
    """Who plays, in which partnerships."""

    players: Annotated[int, Field(ge=2, le=12, description="Number of players.")]
    teams: list[list[Seat]] = Field(
        description="Fixed partnerships, as lists of seats in playing order (seat i+1 plays after seat i). "
        "With bidder_plays_alone, list every seat on its own: the match score is kept per seat.")
    bidder_plays_alone: bool = Field(
        False, description="The final bidder plays alone against a temporary team of all the others.")
    direction: Literal["clockwise", "counterclockwise"] = Field(
        "counterclockwise", description="Which way play goes round the table; for display only.")
    first_lead: Literal["first_hand", "bidder"] = Field(
        "first_hand", description="Who leads to the first trick: the player after the dealer, or the bidder. "
        "A special contract's declarer always leads.")


# ---------------------------------------------------------------------------------------------- deck
class Deck(Section):
    """The cards, their order and their point values."""

    suits: list[Suit] = Field(default_factory=lambda: _all_suits(), description="The suits in the deck.")
    ranks: list[Rank] = Field(description="Ranks from highest to lowest (T is the ten).", min_length=1)
    copies: Annotated[int, Field(ge=1, le=2)] = Field(
        1, description="Copies of each card (2: a double pack).")
    rank_ties: list[list[Rank]] = Field(
        default_factory=list,
        description="Groups of ranks that beat each other only by order of play: the first played wins.")
    points: dict[Rank, Points] = Field(description="Card points by rank; ranks not listed are worth 0.")
    last_trick_bonus: Points = Field(0, description="Extra card points for winning the last trick.")


# ---------------------------------------------------------------------------------------------- deal
class DealStep(Section):
    """Deal this many cards to every player, one packet each, starting with the first hand."""

    deal: Annotated[int, Field(ge=1, le=20)]


StepName = Literal["auction", "trump", "raise"]
ScheduleStep = DealStep | StepName


# ------------------------------------------------------------------------------------------- auction
class BidRange(Section):
    min: Annotated[int, Field(ge=0)]
    max: Annotated[int, Field(ge=0)]
    step: Annotated[int, Field(ge=1)] = 1


class PartnerOvercall(Section):
    """Overbidding your own partner's standing bid: a higher minimum, or not at all."""

    min: Annotated[int, Field(ge=0)] | None = Field(
        None, description="The lowest bid allowed over a partner's bid.")
    forbidden: bool = Field(
        False, description="A partner's standing bid may not be overbid at all (Raj Nair's rule).")
    only_after_a_pass: bool = Field(
        True, description="The rule applies only when the player who spoke just before you passed.")


class PointlessRedeal(Section):
    """A player whose first cards carry no points may have the hand dealt again."""

    seats: Annotated[int, Field(ge=1, le=12)] = Field(
        1, description="How many players, from the first hand on, have this right (at their first turn).")
    automatic: bool = Field(False, description="The redeal happens without being asked for.")


class Auction(Section):
    """How the contract is bid for."""

    bids: BidRange
    first_hand_must_bid: bool = Field(False, description="The first hand may not pass at its first turn.")
    pass_is_final: bool = Field(False, description="A player who passes may not bid again.")
    if_all_pass: Literal["redeal", "dealer_must_bid"] = Field(
        "redeal", description="What happens when every player passes without a bid.")
    dealer_forced_bid: Annotated[int, Field(ge=0)] | None = Field(
        None, description="The bid the dealer is forced to make (default: the minimum bid); it ends the auction.")
    hold: bool = Field(
        False, description="A player who speaks earlier in the order of bidding (counted from the first hand) may "
        "equal (hold) the standing bid of a player who speaks later.")
    ends_at_max_bid: bool = Field(False, description="A bid of the maximum ends the auction at once.")
    partner_overcall: PartnerOvercall | None = None
    second_bid_min: Annotated[int, Field(ge=0)] | None = Field(
        None, description="A player's second and later bids must be at least this.")
    one_suit_hand_may_not_bid: Literal["nobody", "first_hand", "everyone"] = Field(
        "nobody", description="Who may not bid while holding cards of one suit only.")
    pointless_redeal: PointlessRedeal | None = None


# --------------------------------------------------------------------------------------------- trump
class Trump(Section):
    """How trumps are chosen and kept."""

    chosen: Literal["after_auction", "in_bid"] = Field(
        "after_auction", description="The final bidder chooses after the auction, or every bid names a suit.")
    declared_as: Literal["card", "suit"] = Field(
        "card", description="After the auction: lay a card of the trump suit from hand, or name the suit.")
    concealed: bool = Field(True, description="Only the bidder knows the trump until it is exposed.")
    seventh_card: bool = Field(
        False, description="The bidder may take the seventh card dealt to them as the indicator instead.")
    no_trumps: bool = Field(
        False, description="No-trumps may be chosen: a bid names NT (chosen: in_bid), or the bidder declares "
        "`trump NT` (declared_as: suit).")
    no_trumps_ranking: Literal["normal", "reversed"] = Field(
        "normal", description="In a no-trump hand the ranks keep their order, or run the other way (7 high, J low).")


# ---------------------------------------------------------------------------------------------- play
class Reveal(Section):
    """How a concealed trump is called for and what the call does."""

    call: Literal["optional", "compulsory_first_void"] = Field(
        "optional", description="A void player may call; or the first player unable to follow must call.")
    caller_must_trump: bool = Field(True, description="The player who called must trump if able.")
    retroactive: bool = Field(
        False, description="Trump-suit cards played to the trick before the exposure also count as trumps.")
    last_trick_forces_exposure: bool = Field(
        True, description="Where the indicator is a card (declared_as: card, or the seventh card): true, an "
        "indicator still face down at the last trick is exposed as it is played and is a trump in that trick; "
        "false, it is played as an ordinary card with no trump power and the trump counts as never exposed, "
        "unless the bidder calls first.")


class BidderWhileConcealed(Section):
    """What the bidder may do while the trump is concealed."""

    lead_trump_suit: Literal["only_when_nothing_else", "free"] = "only_when_nothing_else"
    when_trump_suit_led: Literal["follow_or_discard", "may_call_and_play_indicator", "must_call"] = Field(
        "follow_or_discard",
        description="When another player leads the trump suit and the bidder cannot follow from hand.")
    void_in_plain_suit: Literal[
        "discard_plain_or_call_and_play_indicator", "discard_any_or_call_and_play_any_trump",
        "discard_any_or_call_and_play_indicator",
    ] = Field("discard_plain_or_call_and_play_indicator",
              description="When a plain suit is led and the bidder cannot follow: discard a plain card or call and "
              "play the indicator (pagat); discard anything or call and play any trump (Wikipedia); discard "
              "anything, a trump-suit card having no power, or call and play the indicator (Kerala house rules).")


class Play(Section):
    """Tricks."""

    reveal: Reveal = Field(default_factory=Reveal)
    bidder_while_concealed: BidderWhileConcealed = Field(default_factory=BidderWhileConcealed)
    no_discard_before_suit_led: list[Rank] = Field(
        default_factory=list,
        description="Ranks a void player may not discard while their suit has not been led "
        "(playing the trump of such a rank as a trump is allowed).")
    suit_counts_as_led_when: Literal["led", "played"] = Field(
        "led", description="For that rule: a suit counts once it has been led, or once any card of it was played.")
    must_not_undertrump: bool = Field(
        False, description="A void player may not play a trump lower than one already played to the trick, "
        "unless holding nothing else.")


# ------------------------------------------------------------------------------------ raise / special
class Raise(Section):
    """After the full deal the bidding team may raise the contract."""

    by: list[RaiseBy] = Field(default_factory=lambda: _both_raise(), description="Who may raise, in order.")
    min: Annotated[int, Field(ge=0)]
    others_may_raise: bool = Field(
        False, description="Then every other player in turn may raise too (a second auction); a player of another "
        "team who raises highest becomes the bidder and chooses a new trump.")


class PairBand(Section):
    bids: tuple[int, int]
    adjust: int | None = Field(description="Change to the target; null: no pair allowed at these bids.")


class Pair(Section):
    """Showing King and Queen of trumps moves the target."""

    ranks: list[Rank] = Field(default_factory=lambda: _king_queen(), description="The ranks making the pair.")
    bidding_team: list[PairBand] = Field(description="Target change when the bidding team shows it, by bid.")
    opponents: int = Field(4, description="Target change when an opponent shows it.")
    needs_trump_exposed: bool = Field(
        True, description="The pair may be shown only once the trump is exposed; false: the bidder, who alone knows "
        "a concealed trump, may show it before, which exposes the trump.")
    needs_won_trick: bool = Field(True, description="The showing team has won a trick before this one.")
    right_after_winning: bool = Field(
        False, description="Only right after the showing team won the trick just played.")
    target_bounds: tuple[int, int] | None = Field(
        None, description="The target stays within these bounds (default: the bid range).")


class SpecialContract(Section):
    """A contract to win every trick, declared after the full deal (Thani, Single Hand, ...)."""

    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$", description="Used as `declare NAME`.")]
    who: Literal["bidder", "anyone"]
    partner: Literal["plays", "sits_out"] = Field(
        "plays", description="Whether the declarer's partners play their cards or lay them aside.")
    trumps: Literal["keep", "none"] = Field("keep", description="Keep the chosen trump, or play without.")
    made: int
    failed: int


class Surrender(Section):
    by: Literal["opponents"] = "opponents"
    refused_loss_multiplier: Annotated[int, Field(ge=1)] = Field(
        2, description="After a refused surrender, losing a trick costs the bidders this many times the "
        "loss.")


class AllTricks(Section):
    """Cot: the bidding team winning every trick scores more."""

    multiplier: Annotated[int, Field(ge=1)] = 2
    surrender: Surrender | None = None


class DoublingStep(Section):
    name: Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9-]*$")]
    by: Literal["opponents", "bidding_team"]
    multiplier: Annotated[int, Field(ge=2)] = 2


class AutoDouble(Section):
    from_bid: int
    multiplier: Annotated[int, Field(ge=2)] = 2


class FixedStake(Section):
    """'C': after a double the bidder may fix the stake, at their turn in a later step of the bidding team."""

    name: Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9-]*$")] = "C"
    value: Annotated[int, Field(ge=1)] = 6
    needs_no_score_showing: bool = Field(True, description="Only while every match score is 0.")


class Doubling(Section):
    """Doubling window right after the trump is chosen."""

    steps: list[DoublingStep] = Field(min_length=1)
    cap: Annotated[int, Field(ge=1)] | None = Field(None, description="The largest multiplier allowed.")
    auto_double: AutoDouble | None = None
    fixed_stake: FixedStake | None = None


class Special(Section):
    pair: Pair | None = None
    contracts: list[SpecialContract] = Field(default_factory=list)
    all_tricks: AllTricks | None = None
    doubling: Doubling | None = None


# ------------------------------------------------------------------------------------------- scoring
class Band(Section):
    bids: tuple[int, int]
    made: int
    failed: int = Field(
        description="Negative: what the bidders lose (see scoring.method for who it goes to).")


class Scoring(Section):
    method: Literal["bidding_team", "opponents_credited", "exchange"] = Field(
        "bidding_team", description="bidding_team: only the bidders' score moves; opponents_credited: a "
        "failure is paid to the opponents; exchange: the loser pays the winner (tables).")
    bands: list[Band] = Field(min_length=1)
    below_half_loss_multiplier: Annotated[int, Field(ge=1)] = Field(
        1, description="Taking less than half the bid multiplies the loss by this.")


class Match(Section):
    start: int = Field(0, description="Every team's score at the start.")
    win_at: int | None = Field(6, description="A team reaching this score wins.")
    lose_at: int | None = Field(-6, description="A team at or below this score loses.")


class Annul(Section):
    """Hands that are cancelled and dealt again by the same dealer."""

    one_hand_holds_all_of: Rank | None = Field(
        "J", description="After the full deal, one player holding every card of this rank annuls the hand.")
    bidding_team_held_all_trumps: bool = False
    trump_never_exposed: bool = False
    pointless_hand_may_redeal: bool = Field(
        False, description="After the full deal a player whose cards carry no points may annul the hand.")


# -------------------------------------------------------------------------------------------- ruleset
class Ruleset(Section):
    """One game of the family, completely."""

    model_config = ConfigDict(frozen=True, extra="forbid", title="jacknine rule file")

    schema_version: Literal[1]
    name: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    extends: str | None = Field(None, description="A shipped rule file's name or a path to overlay.")
    description: str
    sources: list[str] = Field(default_factory=list)
    notes: list[str] = Field(
        default_factory=list, description="Choices this file makes where sources differ.")
    table: Table
    deck: Deck
    schedule: list[ScheduleStep] = Field(min_length=1, description="What happens in a hand, in order.")
    auction: Auction
    trump: Trump = Field(default_factory=Trump)
    play: Play = Field(default_factory=Play)
    raise_: Raise | None = Field(None, alias="raise")
    special: Special = Field(default_factory=Special)
    scoring: Scoring
    match: Match = Field(default_factory=Match)
    annul: Annul = Field(default_factory=Annul)
