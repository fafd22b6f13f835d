"""The one step that reads a rule file's model: `compile_rules(ruleset)` turns it into the plain `Rules` records
the engine plays from, and `compile_game` builds the `Game` on them.

Every field of the model is either read here or listed in `DISPLAY_ONLY` (a test checks both, and that changing
any field read here changes legal actions or scores in seeded hands).
"""

from __future__ import annotations

from pathlib import Path

from engine.play.game import Game
from engine.play.rules import (
    LED_FOLLOW_OR_DISCARD,
    LED_MAY_CALL_AND_PLAY_INDICATOR,
    LED_MUST_CALL,
    ONE_SUIT_EVERYONE,
    ONE_SUIT_FIRST_HAND,
    ONE_SUIT_NOBODY,
    SCORE_BIDDING_TEAM,
    SCORE_EXCHANGE,
    SCORE_OPPONENTS_CREDITED,
    STEP_AUCTION,
    STEP_RAISE,
    STEP_TRUMP,
    VOID_DISCARD_ANY_OR_ANY_TRUMP,
    VOID_DISCARD_ANY_OR_INDICATOR,
    VOID_DISCARD_PLAIN_OR_INDICATOR,
    AllTricksRules,
    AnnulRules,
    AuctionRules,
    BandRules,
    ContractRules,
    DeckRules,
    DoublingRules,
    DoublingStepRules,
    FixedStakeRules,
    MatchRules,
    PairBandRules,
    PairRules,
    PartnerOvercallRules,
    PlayRules,
    RaiseRules,
    Rules,
    ScoringRules,
    TableRules,
    TrumpRules,
)
from engine.rules import model as m

# Fields that describe a file or are shown to people but never change play.
DISPLAY_ONLY: frozenset[str] = frozenset({
    "schema_version", "extends", "sources", "notes",
    "table.direction",          # seats are numbered in playing order: the direction is display only
    "special.all_tricks.surrender.by",   # one allowed value (the opponents offer): nothing to switch
})

_ONE_SUIT = {"nobody": ONE_SUIT_NOBODY, "first_hand": ONE_SUIT_FIRST_HAND, "everyone": ONE_SUIT_EVERYONE}
_LED = {"follow_or_discard": LED_FOLLOW_OR_DISCARD, "may_call_and_play_indicator": LED_MAY_CALL_AND_PLAY_INDICATOR,
        "must_call": LED_MUST_CALL}
_VOID = {"discard_plain_or_call_and_play_indicator": VOID_DISCARD_PLAIN_OR_INDICATOR,
         "discard_any_or_call_and_play_any_trump": VOID_DISCARD_ANY_OR_ANY_TRUMP,
         "discard_any_or_call_and_play_indicator": VOID_DISCARD_ANY_OR_INDICATOR}
_METHOD = {"bidding_team": SCORE_BIDDING_TEAM, "opponents_credited": SCORE_OPPONENTS_CREDITED,
           "exchange": SCORE_EXCHANGE}
_STEP = {"auction": STEP_AUCTION, "trump": STEP_TRUMP, "raise": STEP_RAISE}


def _table(t: m.Table) -> TableRules:
    return TableRules(t.players, tuple(tuple(team) for team in t.teams), t.bidder_plays_alone,
                      t.first_lead == "bidder")


def _deck(d: m.Deck) -> DeckRules:
    ranks = tuple(d.ranks)
    tie_top = list(range(len(ranks)))
    for group in d.rank_ties:
        top = min(ranks.index(r) for r in group)
        for r in group:
            tie_top[ranks.index(r)] = top
    points = d.points
    return DeckRules(tuple(d.suits), ranks, d.copies, tuple(points.get(r, 0) for r in ranks), tuple(tie_top),
                     d.last_trick_bonus)


def _schedule(steps: list[m.ScheduleStep]) -> tuple[int, ...]:
    return tuple(_STEP[s] if isinstance(s, str) else s.deal for s in steps)


def _auction(a: m.Auction) -> AuctionRules:
    bids = a.bids
    po = a.partner_overcall
    overcall = None if po is None else PartnerOvercallRules(
        -1 if po.min is None else po.min, po.forbidden, po.only_after_a_pass)
    pr = a.pointless_redeal
    return AuctionRules(
        bids.min, bids.max, bids.step, a.first_hand_must_bid, a.pass_is_final, a.if_all_pass == "dealer_must_bid",
        bids.min if a.dealer_forced_bid is None else a.dealer_forced_bid, a.hold, a.ends_at_max_bid, overcall,
        -1 if a.second_bid_min is None else a.second_bid_min, _ONE_SUIT[a.one_suit_hand_may_not_bid],
        0 if pr is None else pr.seats, pr is not None and pr.automatic)


def _trump(t: m.Trump) -> TrumpRules:
    return TrumpRules(t.chosen == "in_bid", t.declared_as == "card", t.concealed, t.seventh_card, t.no_trumps,
                      t.no_trumps_ranking == "reversed")


def _play(p: m.Play, ranks: tuple[str, ...]) -> PlayRules:
    r, b = p.reveal, p.bidder_while_concealed
    return PlayRules(
        r.call == "compulsory_first_void", r.caller_must_trump, r.retroactive, r.last_trick_forces_exposure,
        b.lead_trump_suit == "free", _LED[b.when_trump_suit_led], _VOID[b.void_in_plain_suit],
        frozenset(ranks.index(x) for x in p.no_discard_before_suit_led), p.suit_counts_as_led_when == "played",
        p.must_not_undertrump)


def _raise(r: m.Raise | None) -> RaiseRules | None:
    return None if r is None else RaiseRules(tuple(r.by), r.min, r.others_may_raise)


def _pair(p: m.Pair | None, ranks: tuple[str, ...], bids: m.BidRange) -> PairRules | None:
    if p is None:
        return None
    lo, hi = p.target_bounds if p.target_bounds is not None else (bids.min, bids.max)
    return PairRules(tuple(ranks.index(x) for x in p.ranks),
                     tuple(PairBandRules(b.bids[0], b.bids[1], b.adjust) for b in p.bidding_team),
                     p.opponents, p.needs_trump_exposed, p.needs_won_trick, p.right_after_winning, lo, hi)


def _contract(c: m.SpecialContract) -> ContractRules:
    return ContractRules(c.name, c.who == "anyone", c.partner == "sits_out", c.trumps == "none", c.made, c.failed)


def _all_tricks(a: m.AllTricks | None) -> AllTricksRules | None:
    if a is None:
        return None
    s = a.surrender
    if s is not None and s.by != "opponents":  # the model allows no other value today
        raise ValueError(f"surrender by {s.by!r} is not supported")
    return AllTricksRules(a.multiplier, s is not None, 1 if s is None else s.refused_loss_multiplier)


def _doubling(d: m.Doubling | None) -> DoublingRules | None:
    if d is None:
        return None
    auto, fs = d.auto_double, d.fixed_stake
    return DoublingRules(
        tuple(DoublingStepRules(s.name, s.by == "bidding_team", s.multiplier) for s in d.steps),
        0 if d.cap is None else d.cap, -1 if auto is None else auto.from_bid, 1 if auto is None else auto.multiplier,
        None if fs is None else FixedStakeRules(fs.name, fs.value, fs.needs_no_score_showing))


def _scoring(s: m.Scoring) -> ScoringRules:
    return ScoringRules(_METHOD[s.method], tuple(BandRules(b.bids[0], b.bids[1], b.made, b.failed) for b in s.bands),
                        s.below_half_loss_multiplier)


def _annul(a: m.Annul, ranks: tuple[str, ...]) -> AnnulRules:
    rank = a.one_hand_holds_all_of
    return AnnulRules(-1 if rank is None else ranks.index(rank), a.bidding_team_held_all_trumps,
                      a.trump_never_exposed, a.pointless_hand_may_redeal)


def compile_rules(rs: m.Ruleset) -> Rules:
    """The engine's reading of a resolved, checked rule file."""
    deck = _deck(rs.deck)
    special = rs.special
    return Rules(
        name=rs.name, description=rs.description, table=_table(rs.table), deck=deck,
        schedule=_schedule(rs.schedule), auction=_auction(rs.auction), trump=_trump(rs.trump),
        play=_play(rs.play, deck.ranks), raise_=_raise(rs.raise_),
        pair=_pair(special.pair, deck.ranks, rs.auction.bids),
        contracts=tuple(_contract(c) for c in special.contracts), all_tricks=_all_tricks(special.all_tricks),
        doubling=_doubling(special.doubling), scoring=_scoring(rs.scoring),
        match=MatchRules(rs.match.start, rs.match.win_at, rs.match.lose_at), annul=_annul(rs.annul, deck.ranks))


def compile_game(rs: m.Ruleset, ref: str | Path | None = None) -> Game:
    """The playable game of a resolved rule file; `ref` is how records and saves name it."""
    return Game(compile_rules(rs), ref)
