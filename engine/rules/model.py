"""The rule-file language: one frozen pydantic model per section of a rule file.

Every field has a plain English name and a default that matches the family's most common practice, so a rule
file states what its game does and a house rule states only what it changes. Mechanisms that really differ are
closed sets of named options (Literal types), never expressions. Cross-field checks live in `checks.py`; a
field typed with `Rank` is checked against the deck from its type alone (`checks_ranks.py`, with `RankList` for
what a list adds), and a field marked `Said` is said by `show` from its marker (`explain_fields.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1

Rank = Literal["J", "9", "A", "T", "K", "Q", "8", "7", "6", "5", "4", "3", "2"]
Suit = Literal["S", "H", "D", "C"]
Seat = Annotated[int, Field(ge=0, le=11)]
Points = Annotated[int, Field(ge=0, le=1000)]
RaiseBy = Literal["bidder", "partner"]


@dataclass(frozen=True)
class RankList:
    """What a list of ranks must be besides ranks of the deck. Every `Rank` of the model, wherever it stands (a
    field, a list, a map's keys), is checked against deck.ranks from its type alone, by
    engine/rules/checks_ranks.py: a new field typed with Rank needs no check of its own. This marker, set with
    `Annotated`, adds what a list says beyond that (the words are those validate prints)."""

    once: bool = False  # each rank at most once: "{rank} is listed twice"
    every: bool = False  # every rank of the deck: the ranks left out are named
    deck: bool = False  # the deck's own list, the one the others are checked against (only `once` applies)
    empty: str = ""  # said when the list is empty (no words: an empty list is fine)
    twice: str = "{rank} is listed twice"
    missing: str = "every rank of the deck is ordered here, and {ranks} {are} missing"
    outside_hint: str = ""
    twice_hint: str = ""
    missing_hint: str = "; list the deck's ranks in this order, highest first"
    empty_hint: str = ""


@dataclass(frozen=True)
class Said:
    """What `show` says of a field that is set (not empty, zero or false), set with `Annotated`: `words` with
    {value} standing for the value (a list's items joined by `join`). engine/rules/explain_fields.py says it at
    the end of its section's lines (deck, play, play.obligations, combinations, trump_marriage), so a field whose
    sentence needs no other rule needs no code in `show`."""

    words: str
    join: str = " or "

    def sentence(self, value: object) -> str:
        shown = self.join.join(str(v) for v in value) if isinstance(value, list) else str(value)
        return self.words.format(value=shown)


_NATURAL_HINT = "; list every rank of the deck once, high to low"
DeckRanks = Annotated[list[Rank], RankList(once=True, deck=True)]
UniqueRanks = Annotated[list[Rank], RankList(once=True)]
RankOrder = Annotated[list[Rank], RankList(once=True, every=True)]  # the deck's ranks, in some order
NaturalOrder = Annotated[list[Rank], RankList(
    once=True, every=True, twice="{rank} is listed twice in the natural order", missing="the natural order leaves "
    "out {ranks}", outside_hint="; the natural order lists every rank of the deck once, high to low",
    twice_hint=_NATURAL_HINT, missing_hint=_NATURAL_HINT)]


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
MAX_PLAYERS = 12


class FirstForehand(Section):
    holder_of: Annotated[str, Field(pattern=r"^(10|[J9ATKQ8765432])[SHDC]$")] = Field(
        description="A card of the deck, e.g. 7H.")


class Table(Section):
    """Who plays, in which partnerships."""

    players: Annotated[int, Field(ge=2, le=MAX_PLAYERS, description="Number of players.")]
    teams: list[list[Seat]] = Field(
        description="Fixed partnerships, as lists of seats in playing order (seat i+1 plays after seat i). "
        "With bidder_plays_alone, list every seat on its own: the match score is kept per seat.")
    bidder_plays_alone: bool = Field(
        False, description="The final bidder plays alone against a temporary team of all the others.")
    direction: Literal["clockwise", "counterclockwise"] = Field(
        "counterclockwise", description="Which way play goes round the table; for display only.")
    first_lead: Literal["first_hand", "bidder", "after_bidder"] = Field(
        "first_hand", description="Who leads to the first trick: the player after the dealer, the bidder, or the "
        "player after the bidder. A special contract's declarer always leads.")
    first_forehand: FirstForehand | None = Field(
        None, description="In the first deal of a match the holder of this card is the first hand (he chooses "
        "or speaks first and leads); the deal then passes on from him.")


# ---------------------------------------------------------------------------------------------- deck
class Deck(Section):
    """The cards, their order and their point values."""

    suits: list[Suit] = Field(default_factory=lambda: _all_suits(), description="The suits in the deck.")
    ranks: DeckRanks = Field(description="Ranks from highest to lowest (T is the ten).", min_length=1)
    copies: Annotated[int, Field(ge=1, le=2)] = Field(
        1, description="Copies of each card (2: a double pack).")
    rank_ties: list[list[Rank]] = Field(
        default_factory=list,
        description="Groups of ranks that beat each other only by order of play: the first played wins.")
    points: dict[Rank, Points] = Field(description="Card points by rank; ranks not listed are worth 0.")
    last_trick_bonus: Points = Field(0, description="Extra card points for winning the last trick.")
    trump_ranks: RankOrder | None = Field(
        None, description="Ranks of the trump suit from highest to lowest, where they differ from `ranks` (which "
        "then order the plain suits only): the same ranks in another order. Absent: the trump suit keeps `ranks`.")
    trump_points: dict[Rank, Points] | None = Field(
        None, description="Card points by rank in the trump suit, where they differ from `points` (which then "
        "count in the plain suits only); ranks not listed are worth 0. Absent: the trump suit counts `points`. "
        "The hand's total (what bots and tools scale card points by) is the largest over the trump choices.")


# ---------------------------------------------------------------------------------------------- deal
class DealStep(Section):
    """Deal this many cards to every player, one packet each, starting with the first hand."""

    deal: Annotated[int, Field(ge=1, le=20)]


class Complete(Section):
    """After a trump is taken on the turned card: the rest of each hand is dealt from the stock, from the first
    hand on."""

    taker: Annotated[int, Field(ge=0, le=20)] = Field(
        description="Cards from the stock for the player who took (besides the turned card, when he gets it).")
    others: Annotated[int, Field(ge=0, le=20)] = Field(description="Cards from the stock for each other player.")
    turned_to_taker: bool = Field(
        True, description="The taker also picks up the turned card (else it stays face up on the table, out of "
        "play).")
    show_bottom: bool = Field(
        False, description="Then the stock's bottom card is turned face up, for information only.")


class CompleteStep(Section):
    complete: Complete


class TurnUp(Section):
    """A card is shown face up after the first packets: the trump suit it proposes is taken or passed."""

    card: Literal["stock", "dealer_last"] = Field(
        "stock", description="stock: the stock's next card is turned face up (it belongs to nobody until taken); "
        "dealer_last: the last card dealt to the dealer is shown face up, and he keeps it.")


class TurnUpStep(Section):
    turn_up: TurnUp


class TakeOrPass(Section):
    """Two rounds from the first hand on the turned card: `take` (its suit is trumps) or `pass`; then `trump
    SUIT` naming another suit, or `pass`. Every player passing twice throws the cards in."""

    schmeiss: bool = Field(
        False, description="Two players: in either round a player may say `schmeiss`, offering to throw the cards "
        "in; the other says `accept` (the same dealer deals again) or `refuse` (he makes the trump: the turned suit "
        "in round 1, a suit he names in round 2).")
    dealer_must_choose: bool = Field(
        False, description="In round 2 the dealer may not pass: he must name a suit (no throw-in).")
    if_all_pass: Literal["second_round", "first_hand_names"] = Field(
        "second_round", description="When everyone passes in round 1: a second round naming the other suits, or "
        "the first hand must name the trump (any suit), with no throw-in.")


class TakeOrPassStep(Section):
    take_or_pass: TakeOrPass


class ChooseTrump(Section):
    """A player names the trump (`trump SUIT`) with no auction; he is the hand's bidder (the chooser's side
    plays the contract); the first hand still leads."""

    by: Literal["first_hand"] = Field("first_hand", description="Who chooses: the first hand (forehand).")
    may_push: bool = Field(
        False, description="He may say `push` instead: his partner must then choose (no second push).")


class ChooseTrumpStep(Section):
    choose_trump: ChooseTrump


StepName = Literal["auction", "trump", "raise", "second_auction", "turn_up", "take_or_pass", "choose_trump", "stock",
                   "exchange_low_trump"]
ScheduleStep = DealStep | CompleteStep | TakeOrPassStep | ChooseTrumpStep | TurnUpStep | StepName


# ------------------------------------------------------------------------------------------- auction
class BidRange(Section):
    min: Annotated[int, Field(ge=0)]
    max: Annotated[int, Field(ge=0)]
    step: Annotated[int, Field(ge=1)] = 1
    extra: list[Annotated[int, Field(ge=0)]] = Field(
        default_factory=list, description="Bids off the step, in increasing order above max (e.g. 104 over a top "
        "of 100).")


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
    max_points: Points = Field(
        0, description="The first cards may total at most this many points (0: no points at all).")


class PartnerSpeech(Section):
    """The "partner" speech: a player asks his partner to speak in his place."""

    hand_back: bool = Field(
        True, description="The partner may hand the speech back once; the asker must then bid or pass.")


def _no_auction() -> Auction:
    """What a file without an auction step holds in its place: no bids at all (never used)."""
    return Auction(bids=BidRange(min=0, max=0))


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
    exact_step: bool = Field(
        False, description="Every bid is exactly the next bid above the standing one (no jumps).")
    only_opponents_may_bid: bool = Field(
        False, description="Only an opponent of the standing bidder may bid.")
    default_bidder: Literal["first_hand"] | None = Field(
        None, description="This player holds a standing bid of 0 before anyone bids, and is the bidder at 0 if "
        "nobody bids.")
    after_first_speech_min: Annotated[int, Field(ge=0)] | None = Field(
        None, description="Once a player has spoken (bid, passed, or had his speech made by his partner), his bids "
        "are at least this.")
    partner_speech: PartnerSpeech | None = Field(
        None, description="A player may say `partner`: his partner speaks in his place (and his partner's own next "
        "turn lapses).")
    may_raise_own_bid: bool = Field(
        True, description="A player may bid over his own standing bid when his turn comes round again (his partner "
        "may always).")


class SecondAuction(Section):
    """A second auction after more cards are dealt (schedule step second_auction); the holder of the top bid at
    its end holds the contract."""

    bids: BidRange = Field(description="This round's bids: the lowest, the highest, the step, and extra ones; every "
                           "bid is also above the standing bid.")
    first: Literal["contract_holder"] = Field(
        "contract_holder", description="Who speaks first: the holder of the contract from the first auction; then "
        "round the table.")
    turns: Literal["once", "until_others_pass"] = Field(
        "until_others_pass", description="once: every player speaks once; until_others_pass: it ends when all the "
        "others have passed in a row after the last bid (no bid: every player passes once).")
    holder_refolds: Literal["when_bidding", "when_marked", "never"] = Field(
        "never", description="Whether a contract holder who stays holder lays his trump card anew: if he bid in "
        "this auction; only if one of his speeches was marked `change`; never. A new holder always lays a new one.")
    partner_speech: PartnerSpeech | None = Field(
        None, description="The `partner` speech in this auction (the partner's own turn then lapses).")


# --------------------------------------------------------------------------------------------- trump
class TrumpRedeal(Section):
    """At the trump step, the bidder whose cards total at most `max_points` may say `redeal`."""

    max_points: Points = Field(description="The bidder's cards may total at most this many points.")


class TrumpOpening(Section):
    """How a concealed trump comes to be open other than by a call: by the holder's choice before trick 1, or by
    itself at the end of a trick for high contracts."""

    by_choice: bool = Field(
        False, description="Before trick 1 the contract holder says `open` (the folded card rejoins his hand and "
        "the suit is shown) or `pass` (it stays concealed).")
    lead_trump_after: bool = Field(
        True, description="Having opened by choice, a holder on lead to trick 1 must lead a trump (if he holds "
        "one).")
    after_trick: Annotated[int, Field(ge=1, le=20)] | None = Field(
        None, description="A contract still concealed at the end of this trick is opened then (the folded card "
        "is shown and rejoins the hand)...")
    from_bid: Annotated[int, Field(ge=0)] = Field(
        0, description="... when its bid is at least this.")


class LastCard(Section):
    """`trump last`: the bidder takes as trump the suit of the last card dealt to him; it stays in his hand."""

    only_when_suits_differ: bool = Field(
        True, description="Only when the cards he holds at the trump step are all of different suits.")


class TrumpMode(Section):
    """A named way to play a hand that a trump choice or a bid may name instead of a suit (`trump NAME`,
    `bid 100 NAME`): no trump suit, or every suit played as the trump, with its own order and card points."""

    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,23}$", description="Used as `trump NAME` and `bid N NAME`.")]
    trumps: Literal["none", "all"] = Field(
        description="none: there is no trump suit; all: every suit plays as the trump suit (nobody can trump, and "
        "the duties in trumps apply to the suit led).")
    ranks: RankOrder = Field(description="The order in every suit, highest first: the deck's ranks in any order.")
    points: dict[Rank, Points] = Field(description="Card points by rank in every suit; ranks not listed are worth 0.")
    multiplier: Annotated[int, Field(ge=1, le=100)] = Field(
        1, description="The hand's score is multiplied by this.")


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
    may_redeal: TrumpRedeal | None = Field(
        None, description="Instead of choosing the trump, a bidder whose cards total little may ask for a new deal.")
    opening: TrumpOpening | None = Field(
        None, description="A concealed trump opened by the holder's choice before trick 1, or at the end of a "
        "trick for contracts of a given bid or more.")
    last_card: LastCard | None = Field(
        None, description="The bidder may say `trump last`: the suit of the last card dealt to him is trumps (known "
        "only to him while the trump is concealed).")
    modes: list[TrumpMode] = Field(
        default_factory=list, max_length=8, description="Named modes (all trumps, no trumps, top-down, "
        "bottom-up) that may be chosen wherever a trump suit may be named; in a bid they rank after the suits, in "
        "this order.")
    suit_multipliers: dict[Suit, Annotated[int, Field(ge=1, le=100)]] = Field(
        default_factory=dict, description="The hand's score is multiplied by this when that suit is trump; suits "
        "not listed: 1.")
    shown_at_first_lead: bool = Field(
        False, description="A concealed trump is shown to all as the first card of trick 1 is led (that card and "
        "every later one count with it); the trump card laid face down returns to its owner's hand.")


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

    lead_trump_suit: Literal["only_when_nothing_else", "free", "not_to_first_trick"] = Field(
        "only_when_nothing_else", description="Leading the concealed suit from his hand: only when holding "
        "nothing else; freely; or never to trick 1 (unless holding nothing else), freely after it.")
    when_trump_suit_led: Literal["follow_or_discard", "may_call_and_play_indicator", "must_call"] = Field(
        "follow_or_discard",
        description="When another player leads the trump suit and the bidder cannot follow from hand.")
    void_in_plain_suit: Literal[
        "discard_plain_or_call_and_play_indicator", "discard_any_or_call_and_play_any_trump",
        "discard_any_or_call_and_play_indicator",
    ] = Field("discard_plain_or_call_and_play_indicator",
              description="When a plain suit is led and the bidder cannot follow: discard a plain card or call and "
              "play the indicator (pagat); discard anything or call and play any trump (Wikipedia); discard "
              "anything, a trump-suit card having no power, or call and play the indicator (a regional house rule).")


class Obligations(Section):
    """What a player must play to a trick once the trump is known to everyone (a concealed trump: from its
    exposure on). Absent: follow suit if able, else any card. Every duty below gives way to following suit,
    except that trump_while_following lets a trump be played instead."""

    trump_led: Literal["any_trump", "head_trick", "head_trick_unless_partner_winning"] = Field(
        "any_trump", description="When a trump is led, a player holding trumps plays one: any trump; "
        "head_trick, one that beats every trump already in the trick when he has one (whoever is winning, his "
        "partner included), else any trump; head_trick_unless_partner_winning, that duty only while an opponent "
        "holds the trick. In an all-trumps mode the suit led plays as the trump suit for this duty.")
    void: Literal["free", "must_trump", "must_trump_unless_partner_winning"] = Field(
        "free", description="When a plain suit is led and a player cannot follow: any card; must_trump, a trump "
        "if he holds one; must_trump_unless_partner_winning, the same unless his partner holds the trick now "
        "(then any card).")
    overtrump: Literal["free", "required"] = Field(
        "free", description="required: a player bound to trump (by void) when the trick already holds a trump "
        "must play a higher trump when he has one.")
    undertrump: Literal["allowed", "forced", "forbidden_unless_only_trumps", "forbidden_unless_nothing_else"] = Field(
        "allowed", description="A trump lower than one already in the trick. With overtrump: required, for a "
        "player bound to trump who cannot overtrump: allowed, he may then play any card; forced, he must still "
        "play a (lower) trump. forbidden_unless_only_trumps: nobody may play a trump lower than one in the trick "
        "on a plain suit led unless every card he holds is a trump (a player bound to trump who cannot "
        "overtrump then plays another suit), and a player able to follow never may. forbidden_unless_nothing_else: the "
        "same, but the ban holds while he has any card other than such a lower trump (a higher trump included).")
    trump_while_following: bool = Field(
        False, description="A player holding the suit led may play a trump instead of following.")
    never_forced: Annotated[UniqueRanks, Said(
        "Never forced: a player whose only trumps are the {value} of trumps need not play them, when a trump is led "
        "or when he would have to trump; he may play any card.")] = Field(
        default_factory=list, description="Trump ranks that never bind their holder: a player whose only trumps "
        "are of these ranks may play any card when a trump is led or when he would have to trump (the Swiss "
        "Jack of trumps). Not in an all-trumps mode.")


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
    blind_cut: bool = Field(
        False, description="While the trump is concealed a player who cannot follow plays face down (there is no "
        "call); the bidder's choices stay those of bidder_while_concealed, the folded card played face down in "
        "place of a call. At the end of the trick face-down trumps are turned up (the highest trump wins, the "
        "trump is open and the folded card rejoins the hand); face-down plain cards stay face down for good.")
    exhausted_trumps: bool = Field(
        False, description="A bidder who led a trump that no other player followed must lead trumps while he "
        "holds any (not in special contracts).")
    obligations: Obligations | None = Field(
        None, description="Duties in following once the trump is known to everyone (a concealed trump: from its "
        "exposure on; before it, the rules above): trumping, overtrumping, undertrumping, heading a trump lead "
        "(absent: follow suit if able, else any card).")
    exposed_after_deal: Literal["nobody", "bidders_partner"] = Field(
        "nobody", description="Cards lying face up for every player to see: bidders_partner, once every card is "
        "dealt and the bidder is known, the bidder's partners' cards, to the end of the hand (they still choose "
        "their own plays).")


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

    ranks: Annotated[list[Rank], RankList(once=True, empty="a pair needs at least one rank")] = Field(
        default_factory=lambda: _king_queen(), description="The ranks making the pair.")
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


SwitchedOff = Literal["melds", "claims"]


class SpecialContract(Section):
    """A contract to win every trick, or a hand shown instead of played: a declaration (every trick alone, every
    trick on four cards, a sure sweep laid down). Who may declare it, in which window, what it undertakes, how sure the
    declarer's cards must be, what it is worth, and whether play stops."""

    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$", description="Used as `declare NAME`.")]
    who: Literal["bidder", "anyone", "sole_winner"] = Field(
        description="Who may declare it: the bidder; any player; a player who has won every trick so far himself "
        "(window before_trick).")
    window: Literal["after_full_deal", "first_auction", "second_auction", "before_trick"] = Field(
        "after_full_deal", description="When: once every step before play is done, players asked in turn from the "
        "first hand; as a speech at one's turn in the first auction, outranking every number and ending it; as a "
        "speech of the second auction, outranking every number and ending the round, its declarer then laying "
        "the trump card as a new holder; before leading trick `trick`, by the player on lead.")
    trick: Annotated[int, Field(ge=2, le=20)] | None = Field(
        None, description="For window before_trick: the trick the declaration is made before (the declarer is on "
        "lead to it).")
    deal: Literal["continues", "stops"] = Field(
        "continues", description="For window first_auction: the rest of the schedule is dealt, or no more cards "
        "are dealt and the hand is played on the cards dealt so far.")
    partner: Literal["plays", "sits_out", "dummy"] = Field(
        "plays", description="Whether the declarer's partners play their own cards, lay them aside, or lay them "
        "face up for the declarer to play (a dummy, written with the dummy's seat).")
    trumps: Literal["keep", "none", "first_card_led"] = Field(
        "keep", description="Keep the chosen trump, play without, or take the suit of the first card the declarer "
        "leads (shown at once). Without the kept trump, a trump card laid face down returns to its owner's hand.")
    ranking: Literal["normal", "reversed"] = Field(
        "normal", description="The ranks' order for the hand: as the deck lists them, or the other way round "
        "(card points unchanged).")
    must_win: Literal["declarer", "side"] = Field(
        "declarer", description="Who must win every trick from the declaration on: the declarer himself, or his "
        "side (his partners' tricks count).")
    stops_at_first_loss: bool = Field(
        False, description="Play stops at the first trick the declaration loses (it is failed).")
    sure_sweep: Literal["any", "forbidden", "required"] = Field(
        "any", description="The declarer's cards: any; may not be a sure sweep; must be a sure sweep. A sure sweep "
        "wins every trick at no-trumps with its holder leading, whatever the others hold: each card outranks "
        "every card of its suit he lacks, or has above it in that suit at least as many of his own cards as he "
        "lacks cards of that suit.")
    played: bool = Field(
        True, description="false: the cards are shown face up instead of played; the hand ends at once, made.")
    made: int = Field(description="Match units to the declarer's team when made (replacing the hand's score).")
    failed: int | None = Field(
        None, description="Match units to the declarer's team when failed (negative: a loss); needed unless the "
        "hand is shown instead of played.")
    open_trump: bool = Field(
        False, description="The trump is open from the start: a folded card returns to the declarer's hand at "
        "once and, on lead to trick 1, he must lead a trump (if he holds one).")
    failed_to_partner: int | None = Field(
        None, description="The score instead of `failed` when the trick the declarer lost was won by his own "
        "partner.")
    barred_with_one_suit: bool = Field(
        False, description="A player whose cards are all of one suit may not declare it.")
    switches_off: list[SwitchedOff] = Field(
        default_factory=list, description="Rules that do not apply in this contract: melds (none may be shown), "
        "claims (none may be made).")


class Declarations(Section):
    """The window in which special contracts are declared after the full deal: once round the table."""

    first: Literal["first_hand", "bidder"] = Field(
        "first_hand", description="Who is asked first: the first hand, or the bidder (then round the table).")
    priority: Literal["first_declared", "bidding_side"] = Field(
        "first_declared", description="first_declared: the first declaration closes the window; bidding_side: a "
        "declaration by the bidder's side closes it, one by an opponent stands unless a later player of the "
        "bidder's side declares too (only those are still asked).")


MeldWhen = Literal["side_won_a_trick", "trump_exposed"]


class MeldExtra(Section):
    """A further card of the meld's suit that raises its value."""

    rank: Rank = Field(description="The further card's rank.")
    plain_value: int = Field(description="The value with this card, in a plain suit.")
    trump_value: int = Field(description="The value with this card, in the trump suit.")


class Meld(Section):
    """Melds in any suit: the ranks of one suit in one hand, shown as `show NAME SUIT`. Right after his side wins
    one of the listed tricks, the winner and then each partner may show the melds they hold (several, each suit
    once a hand), before the next lead. What a meld does is scoring.target_adjustments: melds."""

    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$", description="Used as `show NAME SUIT`.")]
    ranks: Annotated[list[Rank], RankList(once=True, empty="a meld needs at least one rank")] = Field(
        default_factory=lambda: _king_queen(), description="The ranks the meld needs.")
    plain_value: int = Field(description="Its value in a plain suit.")
    trump_value: int = Field(description="Its value in the trump suit.")
    extra: MeldExtra | None = Field(None, description="A further card that raises the value when also held.")
    after_tricks: list[Annotated[int, Field(ge=1)]] = Field(
        default_factory=list, description="The tricks (numbered from 1) after which the side that won it may show "
        "melds (not with compulsory).")
    target_bounds: tuple[int, int] | None = Field(
        None, description="The counting side's target stays within these bounds (default: no bounds).")
    compulsory: bool = Field(
        False, description="The engine shows every meld a player holds at his turn to play once the conditions of "
        "`when` hold, both cards still in his hand (no `show` action, no window after tricks).")
    when: list[MeldWhen] = Field(
        default_factory=list, description="For compulsory melds: side_won_a_trick, the holder's side has won a "
        "trick; trump_exposed, the trump is known to all.")


class ClaimRewards(Section):
    """What a claim is worth, in match units: to the caller's side when it succeeds, `failed` (negative) when it
    does not, paid to the opponents."""

    on_time: int = Field(description="What the caller's side wins when the claim succeeds.")
    on_time_by_counting_side: int | None = Field(
        None, description="What it wins instead when the caller is on the counting side (scoring.counted_by).")
    on_time_score: Literal["adds", "replaces"] = Field(
        "replaces", description="Whether the claim's value is added to the hand's score or replaces it.")
    failed: int = Field(description="Negative: what the caller's side loses when the claim fails; paid to the "
                        "opponents.")
    on_time_before_trick: Annotated[int, Field(ge=1, le=21)] | None = Field(
        None, description="A claim of the remaining tricks made once this trick has begun earns nothing: the hand "
        "scores as usual.")
    wrong_but_won: int = Field(
        -2, description="A claim of the remaining tricks made early (not yet certain), late (after the side's "
        "first moment) or due but never made, the tricks still won: the side's result.")


class Claim(Section):
    """A claim of tricks still to play (`declare NAME`): who may make it, what it claims, what must also hold for
    it to succeed, and what it is worth."""

    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$", description="Used as `declare NAME`.")]
    who: Literal["unbeaten_side", "side_showed_meld"] = Field(
        description="unbeaten_side: a player of a side that has won every trick so far; side_showed_meld: a "
        "player whose side has shown a meld this hand.")
    claims: Literal["last_trick_by_caller", "remaining_tricks_by_side"] = Field(
        "last_trick_by_caller", description="What is claimed: last_trick_by_caller, the caller wins the last trick "
        "himself, said at his turn in the last trick before playing; remaining_tricks_by_side, every trick still "
        "to play goes to the caller's side, said at any turn to play before his card, once per side (play goes "
        "on).")
    certainty: Literal["none", "provable"] = Field(
        "none", description="provable: the claim must be provable from the caller's own knowledge (his cards, the "
        "cards he saw played or shown, the voids shown) against every consistent lie of the unseen cards and "
        "every legal play of the others, his partner's choices included (forced plays count).")
    first_moment: bool = Field(
        False, description="With certainty provable: on time only at the side's first moment, the first turn to "
        "play at which either of its players could prove it; later claims are late, and a side that wins every "
        "trick without claiming, though such a moment came, is scored as wrong (rewards.wrong_but_won).")
    stops_play: bool = Field(False, description="A claim of the remaining tricks ends play.")
    needs_lost_trick: bool = Field(
        False, description="It succeeds only if the caller's side has lost a trick this hand.")
    melds_beat_opponents_by: int | None = Field(
        None, description="It succeeds only if the caller's side's melds plus this many points exceed the "
        "opponents' card points (from their tricks) plus their melds.")
    barred_within: Annotated[int, Field(ge=1)] | None = Field(
        None, description="Not for a side this many match units or fewer short of winning the match.")
    match_target_after: int | None = Field(
        None, description="Once it has been claimed, the match is played to this score.")
    rewards: ClaimRewards = Field(description="What it is worth.")


class Surrender(Section):
    by: Literal["opponents"] = "opponents"
    refused_loss_multiplier: Annotated[int, Field(ge=1)] = Field(
        2, description="After a refused surrender, losing a trick costs the bidders this many times the "
        "loss.")


class AllTricks(Section):
    """A sweep bonus: the bidding team winning every trick scores more."""

    multiplier: Annotated[int, Field(ge=1)] = 2
    surrender: Surrender | None = None


class DoublingStep(Section):
    name: Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9-]*$")]
    by: Literal["opponents", "bidding_team"]
    multiplier: Annotated[int, Field(ge=2)] = Field(2, description="What the score is multiplied by.")
    adds: Annotated[int, Field(ge=1)] | None = Field(
        None, description="Instead of multiplying: what the paid side receives on top, in match units (on top "
        "of what earlier steps added).")


class AutoDouble(Section):
    from_bid: int
    multiplier: Annotated[int, Field(ge=2)] = 2


class FixedStake(Section):
    """'C': after a double the bidder may fix the stake, at their turn in a later step of the bidding team."""

    name: Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9-]*$")] = "C"
    value: Annotated[int, Field(ge=1)] = 6
    needs_no_score_showing: bool = Field(True, description="Only while every match score is 0.")


class Doubling(Section):
    """Doubling: a window right after the trump is chosen, inside the auction, or just before the first lead."""

    window: Literal["after_trump", "in_auction", "before_play"] = Field(
        "after_trump", description="after_trump: right after the trump is chosen; in_auction: a speech at one's "
        "turn in the auction, cancelled by a higher bid; before_play: after every step, just before the first "
        "lead.")
    steps: list[DoublingStep] = Field(min_length=1)
    cap: Annotated[int, Field(ge=1)] | None = Field(None, description="The largest multiplier allowed.")
    closes_auction: bool = Field(
        False, description="For window in_auction: after the first step nobody bids again; only the side entitled "
        "to the next step speaks, each player once (that step or pass), and the auction ends with the last step or "
        "their passes.")
    auto_double: AutoDouble | None = None
    fixed_stake: FixedStake | None = None


class CaptureBonus(Section):
    """What capturing certain cards earns: the last trick, or every card of a rank."""

    trigger: Literal["last_trick", "all_of_rank"] = Field(
        description="last_trick: winning the last trick; all_of_rank: a side whose tricks hold every card of `rank`.")
    rank: Rank | None = Field(None, description="The rank for all_of_rank.")
    amount: Annotated[int, Field(ge=1, le=1000)] = Field(description="What the capture is worth.")
    unit: Literal["card_points", "game_points"] = Field(
        "card_points", description="card_points count toward the contract; game_points go straight to the score.")
    kind: Literal["bonus", "transfer"] = Field(
        "bonus", description="bonus: the capturing side gains the amount; transfer: the other side also loses it.")


ConcedeWhen = Literal["after_first_auction", "after_second_auction", "in_play"]


class Concede(Section):
    """The contract holder may give up (`concede`): play stops and the contract counts as failed."""

    when: list[ConcedeWhen] = Field(
        min_length=1, description="after_first_auction: instead of laying the trump card after the first auction; "
        "after_second_auction: instead of laying it anew after the second; in_play: at each of his turns to play "
        "while his side has not reached its target.")


class Special(Section):
    pair: Pair | None = None
    contracts: list[SpecialContract] = Field(default_factory=list)
    declarations: Declarations = Field(
        default_factory=Declarations, description="Who is asked first in the window of special contracts, and "
        "which declaration stands.")
    melds: Meld | None = Field(None, description="Melds in any suit, shown after winning given tricks, or by the "
                               "engine at the holder's turn.")
    claims: list[Claim] = Field(
        default_factory=list, description="Claims of the tricks still to play (at most one a hand of each kind).")
    all_tricks: AllTricks | None = None
    doubling: Doubling | None = None
    capture_bonuses: list[CaptureBonus] = Field(
        default_factory=list, description="Bonuses for capturing cards (deck.last_trick_bonus is one of them).")
    concede: Concede | None = Field(
        None, description="The contract holder may concede: play stops and the contract counts as failed.")


# -------------------------------------------------------------------------- combinations / trump marriage
CombinationKey = Literal["value", "cards", "top", "trump", "earlier"]


def _natural_ranking() -> list[CombinationKey]:
    return ["value", "cards", "top", "trump", "earlier"]


class Combinations(Section):
    """Melds of the European games: runs of one suit in a natural order and four cards of one rank. Either
    announced before one's first card and compared between the sides (declared), or counted in each trick by
    the cards it holds, for the side that wins it (in_trick)."""

    order: NaturalOrder = Field(
        description="The natural order for sequences, high to low: every rank of the deck once (not the order in "
        "which cards win tricks).")
    sequences: dict[Annotated[int, Field(ge=2, le=13)], Points] = Field(
        default_factory=dict, description="Run length (cards in a row of one suit in the natural order) -> its "
        "value; a longer run is worth the longest listed length not above it, a shorter one nothing.")
    four_of_a_kind: dict[Rank, Points] = Field(
        default_factory=dict, description="Four cards of one rank -> their value; ranks not listed count nothing.")
    counted: Literal["declared", "in_trick"] = Field(
        "declared", description="declared: at his turn in trick 1, before his card, a player may announce his "
        "melds (`announce`; kind and value said at once, the cards shown to all after trick 1, then compared); "
        "in_trick: each completed trick's cards are counted, for the side that wins it.")
    compared: Literal["best_side_scores_all", "each_side_own"] = Field(
        "best_side_scores_all", description="Declared melds: only the side holding the single best meld scores, "
        "and then all its announced melds; or each side scores its own.")
    ranking: list[CombinationKey] = Field(
        default_factory=_natural_ranking, description="How the single best meld is found, key by key: value "
        "(higher), cards (more), top (the higher top card in the natural order), trump (a sequence in trumps "
        "beats a plain one), earlier (the player earlier in playing order from the first hand).")
    ties: Literal["nobody_scores", "earlier"] = Field(
        "nobody_scores", description="Two equal best melds in opposite sides once the ranking is exhausted: no "
        "side scores melds, or the player earlier in playing order from the first hand wins.")


class TrumpMarriage(Section):
    """The King and Queen of trumps (or the ranks listed) as a fixed bonus to a side, kept whatever happens to
    the contract."""

    ranks: Annotated[list[Rank], RankList(once=True, empty="a marriage needs its ranks",
                                          empty_hint="; e.g. ranks: [K, Q]")] = Field(
        default_factory=lambda: _king_queen(), description="The trump ranks of the marriage.")
    value: Points = Field(20, description="What it is worth.")
    counted: Literal["in_hand", "in_trick"] = Field(
        "in_hand", description="in_hand: held together by one player, credited to his side (and announced by the "
        "engine) when he plays the last of them; in_trick: all in one completed trick, to the side winning it.")
    in_modes: bool = Field(
        False, description="Also counted in the all-trumps mode (every suit's marriage) - never with no trumps.")
    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$")] = Field(
        "marriage", description="What the table calls it when it is announced (its name in the game, e.g. stöck).")


# ------------------------------------------------------------------------------------------- scoring
class Band(Section):
    bids: tuple[int, int]
    made: int
    failed: int = Field(
        description="Negative: what the bidders lose (see scoring.method for who it goes to).")
    round: Literal[1, 2] | None = Field(
        None, description="Only for a contract fixed in this round of bidding (default: either).")


class ShortfallLoss(Section):
    """Falling short of the bid by a lot costs more."""

    at_least: Annotated[int, Field(ge=1)] = Field(description="Short of the bid by at least this many card points.")
    loss: Literal["bid"] | Annotated[int, Field(ge=1)] = Field(
        description="What the bidders then lose in game points: as many as the bid, or this number.")


class BankedAllTricks(Section):
    """One side winning every trick (capot, pit, match): its card points count a fixed number, or it gains a
    bonus; and bids from a given value on are bids to win every trick."""

    card_points: Points | None = Field(
        None, description="The sweeping side's card points count this many instead of what its tricks hold (the "
        "other side's count 0); a sweep by the defenders makes the contract fail (capot 250).")
    bonus: Points | None = Field(
        None, description="Points added to the sweeping side's total (pit, match: 100).")
    bid_from: Annotated[int, Field(ge=0)] | None = Field(
        None, description="A bid of at least this is a bid to win every trick: made only when the takers win "
        "every trick, and counted at its value in the scores (a capot bid of 250).")


class Banked(Section):
    """How a banked hand is scored: each side's total is its card points (last trick included), the melds that
    score for it and its trump marriage; the contract's success rule decides what each side banks."""

    success: Literal["beats_opponents", "reaches_bid_and_beats_opponents", "none"] = Field(
        "beats_opponents", description="beats_opponents: the takers' total must be higher than the defenders'; "
        "reaches_bid_and_beats_opponents: it must also reach the bid; none: there is no contract, each side "
        "banks its own total.")
    ties: Literal["failed", "held_over", "maker_scores_nothing"] = Field(
        "failed", description="Equal totals: failed, the contract fails; held_over, the defenders bank theirs and "
        "the takers' total is held for the winner of the next deal (litige); maker_scores_nothing, the takers "
        "bank nothing and the defenders their own total.")
    made: Literal["own_totals"] = Field(
        "own_totals", description="A made contract: each side banks its own total.")
    add_bid: bool = Field(False, description="A made contract: the takers also bank the bid.")
    failed_defenders: Literal["all_points_and_their_melds", "all_points_and_all_melds", "fixed_and_bid",
                              "both_totals"] = Field(
        "all_points_and_their_melds", description="A failed contract: the takers bank only their trump "
        "marriage, and the defenders bank: all_points_and_their_melds, every card point of the deal, their "
        "melds and their marriage; all_points_and_all_melds, every card point and the melds of both sides (and "
        "their marriage); fixed_and_bid, failed_fixed plus the bid, their melds and their marriage; "
        "both_totals, both sides' totals (the takers then bank nothing, not even their marriage).")
    failed_fixed: Points | None = Field(
        None, description="With fixed_and_bid: the fixed number of points the defenders bank (160).")
    doubled: Literal["multiplies_all", "fixed_and_bid_times_multiplier"] = Field(
        "multiplies_all", description="After a doubling step: multiplies_all, what each side banks is multiplied; "
        "fixed_and_bid_times_multiplier, the side that wins the deal banks (failed_fixed + bid) times the "
        "multiplier and its marriage, the other side only its marriage.")
    all_tricks: BankedAllTricks | None = Field(
        None, description="One side winning every trick: capot, pit or match.")
    rounding: Literal["none", "nearest_ten"] = Field(
        "none", description="nearest_ten: each side's score for the deal is rounded to tens (units 0-4 down, 5-9 "
        "up), after the success test.")


class Scoring(Section):
    method: Literal["bidding_team", "opponents_credited", "exchange", "banked"] = Field(
        "bidding_team", description="bidding_team: only the bidders' score moves; opponents_credited: a "
        "failure is paid to the opponents; exchange: the loser pays the winner (tables), each opponent "
        "separately where the bidder plays alone; banked: each side banks the points it took (card points, "
        "melds, trump marriage), as scoring.banked says (no bands).")
    bands: list[Band] = Field(
        default_factory=list, description="The score of a contract by its bid (required, except with method "
        "banked).")
    banked: Banked | None = Field(
        None, description="With method banked: the contract's success rule and what each side banks.")
    below_half_loss_multiplier: Annotated[int, Field(ge=1)] = Field(
        1, description="Taking less than half the bid multiplies the loss by this.")
    shortfall_loss: ShortfallLoss | None = Field(
        None, description="A bidding side short of the bid by a lot loses more (bhangi).")
    counted_by: Literal["bidders", "opponents"] = Field(
        "bidders", description="Whose card points are counted against the target: the bidders' (made: they "
        "reach it), or their opponents' (made: the opponents stay below it).")
    target: Points | None = Field(
        None, description="The counting side's target, a fixed number (default: the bid).")
    target_adjustments: list[Literal["call", "melds"]] = Field(
        default_factory=list, description="call: the bid lowers the counting side's fixed target by its value; "
        "melds: a meld shown by the counting side lowers its target by the meld's value, one shown by the other "
        "side raises it.")


class NextDealer(Section):
    """Who deals the next hand, by how this one ended."""

    after_hand: Literal["next", "stays_while_team_behind"] = Field(
        "next", description="After a scored hand: the next player deals, or the dealer deals again while his team's "
        "score is below another team's.")
    after_all_pass: Literal["same", "next"] = Field("same", description="After every player passed.")
    after_void: Literal["same", "next"] = Field(
        "same", description="After a hand annulled because the bidding team held every trump.")
    after_redeal: Literal["same", "next"] = Field("same", description="After a redeal someone asked for.")
    after_annul: Literal["same", "next"] = Field("same", description="After any other annulled hand.")


class Sets(Section):
    """Scores kept in sets: a team reaching +at opens a red set, -at a black one, and its score returns to 0."""

    at: Annotated[int, Field(ge=1)] = Field(description="The score that opens a set, up or down.")
    win_sets: Annotated[int, Field(ge=1)] = Field(
        description="A team with this many red sets open wins; equal-coloured sets open on both sides cancel.")


class Match(Section):
    start: int = Field(0, description="Every team's score at the start.")
    win_at: int | None = Field(
        6, description="A team reaching this score wins (with banked scoring: at the end of a deal; if several "
        "do, the highest).")
    deals: Annotated[int, Field(ge=1, le=1000)] | None = Field(
        None, description="The match is this many scored deals; the highest total wins, equal totals draw (win_at "
        "and lose_at are then not used: leave them out).")
    ends_mid_deal: bool = Field(
        False, description="The winning score is tested after each credit - the trump marriage as it is shown, "
        "the melds, each trick's points - in that order, and the match ends the moment a team reaches it (the "
        "deal stops there). Needs win_at and banked scoring with no contract.")
    lose_at: int | None = Field(-6, description="A team at or below this score loses.")
    next_dealer: NextDealer = Field(
        default_factory=NextDealer, description="Who deals the next hand, by how this one ended.")
    sets: Sets | None = Field(
        None, description="Scores kept in sets (red at +at, black at -at), the match won by red sets.")


class Annul(Section):
    """Hands that are cancelled and dealt again by the same dealer."""

    one_hand_holds_all_of: Rank | None = Field(
        "J", description="After the full deal, one player holding every card of this rank annuls the hand.")
    bidding_team_held_all_trumps: bool = False
    held_all_trumps_checked: Literal["at_end", "before_play"] = Field(
        "at_end", description="When bidding_team_held_all_trumps is checked: at the end of the hand, or once "
        "every step is done, before the first lead.")
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
    auction: Auction = Field(
        default_factory=lambda: _no_auction(), description="The auction (required when the schedule has an auction "
        "step; games whose trump is taken or chosen without bids leave it out).")
    second_auction: SecondAuction | None = Field(
        None, description="A second auction after the full deal (schedule step second_auction).")
    trump: Trump = Field(default_factory=Trump)
    play: Play = Field(default_factory=Play)
    raise_: Raise | None = Field(None, alias="raise")
    special: Special = Field(default_factory=Special)
    combinations: Combinations | None = Field(
        None, description="Melds compared between the sides or counted in tricks (sequences, four of a kind).")
    trump_marriage: TrumpMarriage | None = Field(
        None, description="The King and Queen of trumps as a fixed bonus to the side that holds or wins them.")
    scoring: Scoring
    match: Match = Field(default_factory=Match)
    annul: Annul = Field(default_factory=Annul)
