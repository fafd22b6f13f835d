"""The one step that reads a rule file's model: `compile_rules(ruleset)` turns it into the plain `Rules` records
the engine plays from, `compile_game` builds the `Game` on them, and `load_game` does both for a rule file.

Every field of the model is either read here or listed in `DISPLAY_ONLY` (a test checks both, and that changing
any field read here changes legal actions or scores in seeded hands).
"""

from __future__ import annotations

from pathlib import Path

from engine.cards import canonical_card
from engine.play.game import Game
from engine.play.rules import (
    COMBOS_DECLARED,
    COMBOS_IN_TRICK,
    DECLARE_AFTER_DEAL,
    DECLARE_BEFORE_TRICK,
    DECLARE_IN_AUCTION,
    DECLARE_IN_SECOND_AUCTION,
    FAILED_ALL_MELDS,
    FAILED_BOTH_TOTALS,
    FAILED_FIXED_AND_BID,
    FAILED_THEIR_MELDS,
    LED_FOLLOW_OR_DISCARD,
    LED_MAY_CALL_AND_PLAY_INDICATOR,
    LED_MUST_CALL,
    LED_TRUMP_ANY,
    LED_TRUMP_HEAD,
    LED_TRUMP_HEAD_UNLESS_PARTNER,
    MELD_NO_BOUND,
    ONE_SUIT_EVERYONE,
    ONE_SUIT_FIRST_HAND,
    ONE_SUIT_NOBODY,
    RANKING_KEYS,
    REFOLD_NEVER,
    REFOLD_WHEN_BIDDING,
    REFOLD_WHEN_MARKED,
    ROLE_EVERYONE,
    ROLE_HOLDER,
    ROLE_OTHERS,
    ROLE_PARTNERS,
    SCORE_BANKED,
    SCORE_BIDDING_TEAM,
    SCORE_EXCHANGE,
    SCORE_OPPONENTS_CREDITED,
    STEP_AUCTION,
    STEP_CHOOSE_TRUMP,
    STEP_COMPLETE,
    STEP_EXCHANGE,
    STEP_SECOND_AUCTION,
    STEP_STOCK,
    STEP_TAKE_OR_PASS,
    STEP_TRUMP,
    STEP_TURN_UP,
    SUCCESS_BEATS_OPPONENTS,
    SUCCESS_NONE,
    SUCCESS_REACHES_BID,
    SWEEP_ANY,
    SWEEP_FORBIDDEN,
    SWEEP_REQUIRED,
    TIES_FAILED,
    TIES_HELD_OVER,
    TIES_MAKER_SCORES_NOTHING,
    UNDERTRUMP_ALLOWED,
    UNDERTRUMP_FORBIDDEN,
    UNDERTRUMP_FORBIDDEN_STRICT,
    UNDERTRUMP_FORCED,
    VOID_DISCARD_ANY_OR_ANY_TRUMP,
    VOID_DISCARD_ANY_OR_INDICATOR,
    VOID_DISCARD_PLAIN_OR_INDICATOR,
    VOID_FREE,
    VOID_MUST_TRUMP,
    VOID_MUST_TRUMP_UNLESS_PARTNER,
    WINDOW_AFTER_TRUMP,
    WINDOW_BEFORE_PLAY,
    WINDOW_IN_AUCTION,
    AllTricksRules,
    AnnulRules,
    AuctionRules,
    BandRules,
    BankedRules,
    CaptureRules,
    ClaimRules,
    CombinationRules,
    ConcedeRules,
    ContractRules,
    DealRules,
    DeckRules,
    DeclarationRules,
    DoublingRules,
    DoublingStepRules,
    FixedStakeRules,
    MarriageRules,
    MatchRules,
    MeldKindRules,
    MeldRules,
    ObligationRules,
    PairBandRules,
    PairRules,
    PartnerOvercallRules,
    PlayRules,
    Rules,
    ScoringRules,
    TableRules,
    TrumpModeRules,
    TrumpRules,
)
from engine.rules import model as m
from engine.rules.checks import bonus_points
from engine.rules.load import canonical_name, load_ruleset, locate, shipped_rulesets

# Fields that describe a file or are shown to people but never change play.
DISPLAY_ONLY: frozenset[str] = frozenset({
    "schema_version", "extends", "sources", "notes",
    "table.direction",          # seats are numbered in playing order: the direction is display only
    "special.all_tricks.surrender.by",   # one allowed value (the opponents offer): nothing to switch
    "second_auction.first",              # one allowed value (the contract holder speaks first)
    "scoring.banked.made",               # one allowed value (each side banks its own total)
    "trump_marriage.name",               # what the table calls the marriage
})

_ONE_SUIT = {"nobody": ONE_SUIT_NOBODY, "first_hand": ONE_SUIT_FIRST_HAND, "everyone": ONE_SUIT_EVERYONE}
_LED = {"follow_or_discard": LED_FOLLOW_OR_DISCARD, "may_call_and_play_indicator": LED_MAY_CALL_AND_PLAY_INDICATOR,
        "must_call": LED_MUST_CALL}
_VOID = {"discard_plain_or_call_and_play_indicator": VOID_DISCARD_PLAIN_OR_INDICATOR,
         "discard_any_or_call_and_play_any_trump": VOID_DISCARD_ANY_OR_ANY_TRUMP,
         "discard_any_or_call_and_play_indicator": VOID_DISCARD_ANY_OR_INDICATOR}
_TRUMP_LED = {"any_trump": LED_TRUMP_ANY, "head_trick": LED_TRUMP_HEAD,
              "head_trick_unless_partner_winning": LED_TRUMP_HEAD_UNLESS_PARTNER}
_VOID_DUTY = {"free": VOID_FREE, "must_trump": VOID_MUST_TRUMP,
              "must_trump_unless_partner_winning": VOID_MUST_TRUMP_UNLESS_PARTNER}
_UNDERTRUMP = {"allowed": UNDERTRUMP_ALLOWED, "forced": UNDERTRUMP_FORCED,
               "forbidden_unless_only_trumps": UNDERTRUMP_FORBIDDEN,
               "forbidden_unless_nothing_else": UNDERTRUMP_FORBIDDEN_STRICT}
_METHOD = {"bidding_team": SCORE_BIDDING_TEAM, "opponents_credited": SCORE_OPPONENTS_CREDITED,
           "exchange": SCORE_EXCHANGE, "banked": SCORE_BANKED}
_SUCCESS = {"beats_opponents": SUCCESS_BEATS_OPPONENTS, "reaches_bid_and_beats_opponents": SUCCESS_REACHES_BID,
            "none": SUCCESS_NONE}
_TIES = {"failed": TIES_FAILED, "held_over": TIES_HELD_OVER, "maker_scores_nothing": TIES_MAKER_SCORES_NOTHING}
_FAILED = {"all_points_and_their_melds": FAILED_THEIR_MELDS, "all_points_and_all_melds": FAILED_ALL_MELDS,
           "fixed_and_bid": FAILED_FIXED_AND_BID, "both_totals": FAILED_BOTH_TOTALS}
_STEP = {"auction": STEP_AUCTION, "trump": STEP_TRUMP, "raise": STEP_SECOND_AUCTION,
         "second_auction": STEP_SECOND_AUCTION, "turn_up": STEP_TURN_UP, "take_or_pass": STEP_TAKE_OR_PASS,
         "choose_trump": STEP_CHOOSE_TRUMP, "stock": STEP_STOCK, "exchange_low_trump": STEP_EXCHANGE}
_REFOLD = {"when_bidding": REFOLD_WHEN_BIDDING, "when_marked": REFOLD_WHEN_MARKED, "never": REFOLD_NEVER}
_ROLE = {"bidder": ROLE_HOLDER, "partner": ROLE_PARTNERS}
_DECLARE = {"after_full_deal": DECLARE_AFTER_DEAL, "first_auction": DECLARE_IN_AUCTION,
            "second_auction": DECLARE_IN_SECOND_AUCTION, "before_trick": DECLARE_BEFORE_TRICK}
_SWEEP = {"any": SWEEP_ANY, "forbidden": SWEEP_FORBIDDEN, "required": SWEEP_REQUIRED}
_WINDOW = {"after_trump": WINDOW_AFTER_TRUMP, "in_auction": WINDOW_IN_AUCTION, "before_play": WINDOW_BEFORE_PLAY}


def _table(t: m.Table) -> TableRules:
    ff = t.first_forehand
    return TableRules(players=t.players, teams=tuple(tuple(team) for team in t.teams),
                      bidder_plays_alone=t.bidder_plays_alone, bidder_leads_first=t.first_lead == "bidder",
                      after_bidder_leads_first=t.first_lead == "after_bidder",
                      first_forehand="" if ff is None else canonical_card(ff.holder_of) or "")


def _deck(rs: m.Ruleset) -> DeckRules:
    d = rs.deck
    ranks = tuple(d.ranks)
    tie_top = list(range(len(ranks)))
    for group in d.rank_ties:
        top = min(ranks.index(r) for r in group)
        for r in group:
            tie_top[ranks.index(r)] = top
    points = d.points
    last = [b for b in rs.special.capture_bonuses if b.trigger == "last_trick" and b.unit == "card_points"]
    return DeckRules(suits=tuple(d.suits), ranks=ranks, copies=d.copies,
                     rank_points=tuple(points.get(r, 0) for r in ranks), tie_top=tuple(tie_top),
                     last_trick_bonus=d.last_trick_bonus + sum(b.amount for b in last if b.kind == "bonus"),
                     last_trick_transfer=sum(b.amount for b in last if b.kind == "transfer"),
                     bonus_points=bonus_points(rs),
                     trump_order=() if d.trump_ranks is None else tuple(d.trump_ranks.index(r) for r in ranks),
                     trump_rank_points=() if d.trump_points is None else tuple(d.trump_points.get(r, 0)
                                                                                for r in ranks))


def _captures(rs: m.Ruleset, ranks: tuple[str, ...]) -> tuple[CaptureRules, ...]:
    """The capture bonuses counted when the hand is scored: all but the last trick's card points, which the last
    trick itself carries (deck.last_trick_bonus and the last-trick card-point bonuses, in DeckRules)."""
    return tuple(CaptureRules(all_of_rank=-1 if b.trigger == "last_trick" else ranks.index(b.rank or ""),
                              amount=b.amount, game_points=b.unit == "game_points", transfer=b.kind == "transfer")
                 for b in rs.special.capture_bonuses if b.trigger == "all_of_rank" or b.unit == "game_points")


def _schedule(steps: list[m.ScheduleStep]) -> tuple[int, ...]:
    out: list[int] = []
    for s in steps:
        if isinstance(s, str):
            out.append(_STEP[s])
        elif isinstance(s, m.DealStep):
            out.append(s.deal)
        elif isinstance(s, m.CompleteStep):
            out.append(STEP_COMPLETE)
        elif isinstance(s, m.TakeOrPassStep):
            out.append(STEP_TAKE_OR_PASS)
        elif isinstance(s, m.TurnUpStep):
            out.append(STEP_TURN_UP)
        else:
            out.append(STEP_CHOOSE_TRUMP)
    return tuple(out)


def _deal_rules(rs: m.Ruleset) -> DealRules:
    """The turned card, the stock and the trump choices without an auction, from the schedule's steps."""
    complete = next((s.complete for s in rs.schedule if isinstance(s, m.CompleteStep)), None)
    top = next((s.take_or_pass for s in rs.schedule if isinstance(s, m.TakeOrPassStep)), m.TakeOrPass())
    choose = next((s.choose_trump for s in rs.schedule if isinstance(s, m.ChooseTrumpStep)), m.ChooseTrump())
    turn = next((s.turn_up for s in rs.schedule if isinstance(s, m.TurnUpStep)), m.TurnUp())
    d = rs.deck
    size = len(d.suits) * len(d.ranks) * d.copies
    dealt = rs.table.players * sum(s.deal for s in rs.schedule if isinstance(s, m.DealStep))
    return DealRules(stock=max(0, size - dealt),
                     turn_up="turn_up" in rs.schedule or any(isinstance(s, m.TurnUpStep) for s in rs.schedule),
                     turned_from_dealer=turn.card == "dealer_last",
                     first_hand_names=top.if_all_pass == "first_hand_names",
                     complete_taker=0 if complete is None else complete.taker,
                     complete_others=0 if complete is None else complete.others,
                     turned_to_taker=complete is not None and complete.turned_to_taker,
                     show_bottom=complete is not None and complete.show_bottom,
                     schmeiss=top.schmeiss, dealer_must_choose=top.dealer_must_choose, may_push=choose.may_push)


def bid_values(bids: m.BidRange) -> tuple[int, ...]:
    """Every bid of a range in increasing order: min to max on the step, then the extra bids."""
    return (*range(bids.min, bids.max + 1, bids.step), *bids.extra)


def _auction(a: m.Auction) -> AuctionRules:
    bids = a.bids
    po = a.partner_overcall
    overcall = None if po is None else PartnerOvercallRules(
        min=-1 if po.min is None else po.min, forbidden=po.forbidden, only_after_a_pass=po.only_after_a_pass)
    pr = a.pointless_redeal
    ps = a.partner_speech
    return AuctionRules(
        bid_min=bids.min, bid_max=bids.max, bid_step=bids.step, values=bid_values(bids),
        first_hand_must_bid=a.first_hand_must_bid,
        pass_is_final=a.pass_is_final, dealer_must_bid=a.if_all_pass == "dealer_must_bid",
        forced_bid=bids.min if a.dealer_forced_bid is None else a.dealer_forced_bid, hold=a.hold,
        ends_at_max_bid=a.ends_at_max_bid, partner_overcall=overcall,
        second_bid_min=-1 if a.second_bid_min is None else a.second_bid_min,
        one_suit_barred=_ONE_SUIT[a.one_suit_hand_may_not_bid], redeal_seats=0 if pr is None else pr.seats,
        redeal_automatic=pr is not None and pr.automatic, redeal_max_points=0 if pr is None else pr.max_points,
        exact_step=a.exact_step, only_opponents=a.only_opponents_may_bid,
        default_bidder=a.default_bidder == "first_hand",
        after_first_speech_min=-1 if a.after_first_speech_min is None else a.after_first_speech_min,
        partner_speech=ps is not None, hand_back=ps is not None and ps.hand_back,
        verb="bid", once=False, speakers=(), holder_refolds=REFOLD_NEVER, team_keeps_holder=False,
        ask_only_if_able=False, raise_own=a.may_raise_own_bid)


def _later_round(bids: tuple[int, ...], step: int, *, partner_speech: m.PartnerSpeech | None, verb: str,
                 once: bool, speakers: tuple[int, ...], holder_refolds: int, raise_: bool) -> AuctionRules:
    """A round after the first: none of the first round's opening rules apply."""
    return AuctionRules(
        bid_min=bids[0], bid_max=bids[-1], bid_step=step, values=bids, first_hand_must_bid=False,
        pass_is_final=False, dealer_must_bid=False, forced_bid=bids[0], hold=False, ends_at_max_bid=False,
        partner_overcall=None, second_bid_min=-1, one_suit_barred=ONE_SUIT_NOBODY, redeal_seats=0,
        redeal_automatic=False, redeal_max_points=0, exact_step=False, only_opponents=False, default_bidder=False,
        after_first_speech_min=-1, partner_speech=partner_speech is not None,
        hand_back=partner_speech is not None and partner_speech.hand_back, verb=verb, once=once, speakers=speakers,
        holder_refolds=holder_refolds, team_keeps_holder=raise_, ask_only_if_able=raise_, raise_own=True)


def _second_auction(rs: m.Ruleset) -> AuctionRules | None:
    """The round of bidding after the full deal. The raise section is such a round: spoken with the verb `raise`
    by the roles it lists (then, with others_may_raise, everyone else) once each, a raise by the holder's own side
    keeping the holder, asked only while a raise is still possible."""
    sa, r = rs.second_auction, rs.raise_
    if sa is not None:
        return _later_round(bid_values(sa.bids), sa.bids.step, partner_speech=sa.partner_speech, verb="bid",
                            once=sa.turns == "once", speakers=(ROLE_EVERYONE,),
                            holder_refolds=_REFOLD[sa.holder_refolds], raise_=False)
    if r is None:
        return None
    first = [v for v in bid_values(rs.auction.bids) if v >= r.min]
    if not first:  # checks.py refuses a raise minimum outside the bids; nothing to compile
        return None
    speakers = tuple(_ROLE[who] for who in r.by) + ((ROLE_OTHERS,) if r.others_may_raise else ())
    return _later_round(tuple(first), rs.auction.bids.step, partner_speech=None, verb="raise", once=True,
                        speakers=speakers, holder_refolds=REFOLD_NEVER, raise_=True)


def _trump(t: m.Trump, deck: m.Deck) -> TrumpRules:
    o = t.opening
    ranks = deck.ranks
    modes = tuple(TrumpModeRules(name=md.name, all_trumps=md.trumps == "all",
                                 order=tuple(md.ranks.index(r) if r in md.ranks else len(ranks) for r in ranks),
                                 rank_points=tuple(md.points.get(r, 0) for r in ranks), multiplier=md.multiplier)
                  for md in t.modes)
    multipliers = tuple(t.suit_multipliers.get(su, 1) for su in deck.suits) if t.suit_multipliers else ()
    return TrumpRules(in_bid=t.chosen == "in_bid", as_card=t.declared_as == "card", concealed=t.concealed,
                      seventh_card=t.seventh_card, no_trumps=t.no_trumps,
                      no_trumps_reversed=t.no_trumps_ranking == "reversed",
                      redeal_max_points=-1 if t.may_redeal is None else t.may_redeal.max_points,
                      open_by_choice=o is not None and o.by_choice,
                      open_lead_trump=o is not None and o.by_choice and o.lead_trump_after,
                      open_after_trick=0 if o is None or o.after_trick is None else o.after_trick,
                      open_from_bid=0 if o is None else o.from_bid,
                      last_card=t.last_card is not None,
                      last_card_needs_distinct_suits=t.last_card is not None and t.last_card.only_when_suits_differ,
                      shown_at_first_lead=t.shown_at_first_lead, modes=modes, suit_multipliers=multipliers)


def _play(p: m.Play, ranks: tuple[str, ...]) -> PlayRules:
    r, b = p.reveal, p.bidder_while_concealed
    return PlayRules(
        compulsory_call=r.call == "compulsory_first_void", caller_must_trump=r.caller_must_trump,
        retroactive=r.retroactive, last_trick_forces_exposure=r.last_trick_forces_exposure,
        bidder_leads_trump_freely=b.lead_trump_suit != "only_when_nothing_else",
        no_trump_lead_to_first_trick=b.lead_trump_suit == "not_to_first_trick",
        when_trump_suit_led=_LED[b.when_trump_suit_led],
        void_in_plain_suit=_VOID[b.void_in_plain_suit],
        no_discard_ranks=frozenset(ranks.index(x) for x in p.no_discard_before_suit_led),
        suit_seen_when_played=p.suit_counts_as_led_when == "played", must_not_undertrump=p.must_not_undertrump,
        blind_cut=p.blind_cut, exhausted_trumps=p.exhausted_trumps,
        bidders_partner_exposed=p.exposed_after_deal == "bidders_partner",
        obligations=_obligations(p.obligations, ranks))


def _obligations(o: m.Obligations | None, ranks: tuple[str, ...]) -> ObligationRules | None:
    if o is None:
        return None
    return ObligationRules(
        trump_led=_TRUMP_LED[o.trump_led], void=_VOID_DUTY[o.void], overtrump=o.overtrump == "required",
        undertrump=_UNDERTRUMP[o.undertrump], trump_while_following=o.trump_while_following,
        never_forced=frozenset(ranks.index(x) for x in o.never_forced if x in ranks))


def _pair(p: m.Pair | None, ranks: tuple[str, ...], bids: m.BidRange) -> PairRules | None:
    if p is None:
        return None
    lo, hi = p.target_bounds if p.target_bounds is not None else (bids.min, bids.max)
    return PairRules(ranks=tuple(ranks.index(x) for x in p.ranks),
                     bidding_team=tuple(PairBandRules(lo=b.bids[0], hi=b.bids[1], adjust=b.adjust)
                                        for b in p.bidding_team),
                     opponents=p.opponents, needs_trump_exposed=p.needs_trump_exposed,
                     needs_won_trick=p.needs_won_trick, right_after_winning=p.right_after_winning,
                     target_lo=lo, target_hi=hi)


def _contract(c: m.SpecialContract) -> ContractRules:
    return ContractRules(name=c.name, anyone=c.who == "anyone", sole_winner=c.who == "sole_winner",
                         window=_DECLARE[c.window], trick=c.trick or 0, stops_deal=c.deal == "stops",
                         partner_sits_out=c.partner == "sits_out", dummy=c.partner == "dummy",
                         no_trumps=c.trumps == "none", side_wins=c.must_win == "side",
                         stops_at_first_loss=c.stops_at_first_loss, sure_sweep=_SWEEP[c.sure_sweep],
                         played=c.played, made=c.made, failed=c.failed or 0,
                         first_card_trumps=c.trumps == "first_card_led", reversed_ranking=c.ranking == "reversed",
                         failed_to_partner=(c.failed or 0) if c.failed_to_partner is None else c.failed_to_partner,
                         barred_with_one_suit=c.barred_with_one_suit, no_melds="melds" in c.switches_off,
                         no_claims="claims" in c.switches_off, open_trump=c.open_trump)


def _declarations(d: m.Declarations) -> DeclarationRules:
    return DeclarationRules(from_bidder=d.first == "bidder", bidding_side_priority=d.priority == "bidding_side")


def _melds(md: m.Meld | None, ranks: tuple[str, ...]) -> MeldRules | None:
    if md is None:
        return None
    lo, hi = md.target_bounds if md.target_bounds is not None else (-MELD_NO_BOUND, MELD_NO_BOUND)
    x = md.extra
    kind = MeldKindRules(name=md.name, ranks=tuple(ranks.index(r) for r in md.ranks), plain=md.plain_value,
                         trump=md.trump_value, extra_rank=-1 if x is None else ranks.index(x.rank),
                         extra_plain=md.plain_value if x is None else x.plain_value,
                         extra_trump=md.trump_value if x is None else x.trump_value)
    return MeldRules(kinds=(kind,), after_tricks=tuple(sorted(set(md.after_tricks))), target_lo=lo, target_hi=hi,
                     compulsory=md.compulsory, needs_won_trick="side_won_a_trick" in md.when,
                     needs_trump_exposed="trump_exposed" in md.when)


def _claim(c: m.Claim) -> ClaimRules:
    r = c.rewards
    return ClaimRules(name=c.name, side_won_every_trick=c.who == "unbeaten_side",
                      side_showed_meld=c.who == "side_showed_meld", needs_lost_trick=c.needs_lost_trick,
                      melds_beat_by=-1 if c.melds_beat_opponents_by is None else c.melds_beat_opponents_by,
                      made=r.on_time, made_by_counting_side=r.on_time if r.on_time_by_counting_side is None
                      else r.on_time_by_counting_side, failed=r.failed, adds=r.on_time_score == "adds",
                      barred_within=0 if c.barred_within is None else c.barred_within,
                      match_target_after=-1 if c.match_target_after is None else c.match_target_after,
                      remaining=c.claims == "remaining_tricks_by_side", provable=c.certainty == "provable",
                      first_moment=c.first_moment, stops_play=c.stops_play,
                      on_time_before_trick=r.on_time_before_trick or 0, wrong_but_won=r.wrong_but_won)


def _all_tricks(a: m.AllTricks | None) -> AllTricksRules | None:
    if a is None:
        return None
    s = a.surrender
    if s is not None and s.by != "opponents":  # the model allows no other value today
        raise ValueError(f"surrender by {s.by!r} is not supported")
    return AllTricksRules(multiplier=a.multiplier, surrender=s is not None,
                          refused_loss_multiplier=1 if s is None else s.refused_loss_multiplier)


def _doubling(d: m.Doubling | None) -> DoublingRules | None:
    if d is None:
        return None
    auto, fs = d.auto_double, d.fixed_stake
    return DoublingRules(
        window=_WINDOW[d.window],
        steps=tuple(DoublingStepRules(name=s.name, by_bidding_team=s.by == "bidding_team",
                                      multiplier=s.multiplier if s.adds is None else 1,
                                      adds=0 if s.adds is None else s.adds)
                    for s in d.steps),
        cap=0 if d.cap is None else d.cap, auto_from_bid=-1 if auto is None else auto.from_bid,
        auto_multiplier=1 if auto is None else auto.multiplier,
        fixed_stake=None if fs is None else FixedStakeRules(name=fs.name, value=fs.value,
                                                             needs_no_score_showing=fs.needs_no_score_showing),
        closes_auction=d.closes_auction)


def _banked(s: m.Scoring) -> BankedRules | None:
    if s.method != "banked":
        return None
    b = s.banked or m.Banked()
    at = b.all_tricks
    return BankedRules(success=_SUCCESS[b.success], ties=_TIES[b.ties], add_bid=b.add_bid,
                       failed_defenders=_FAILED[b.failed_defenders],
                       failed_fixed=0 if b.failed_fixed is None else b.failed_fixed,
                       doubled_fixed_and_bid=b.doubled == "fixed_and_bid_times_multiplier",
                       sweep_card_points=-1 if at is None or at.card_points is None else at.card_points,
                       sweep_bonus=0 if at is None or at.bonus is None else at.bonus,
                       sweep_bid_from=-1 if at is None or at.bid_from is None else at.bid_from,
                       round_to_ten=b.rounding == "nearest_ten")


def _scoring(s: m.Scoring) -> ScoringRules:
    sl = s.shortfall_loss
    return ScoringRules(method=_METHOD[s.method], banked=_banked(s),
                        bands=tuple(BandRules(lo=b.bids[0], hi=b.bids[1], made=b.made, failed=b.failed,
                                              round=b.round or 0) for b in s.bands),
                        below_half_loss_multiplier=s.below_half_loss_multiplier,
                        shortfall_at_least=-1 if sl is None else sl.at_least,
                        shortfall_loss=0 if sl is None or sl.loss == "bid" else sl.loss,
                        counted_by_opponents=s.counted_by == "opponents",
                        fixed_target=-1 if s.target is None else s.target,
                        target_less_call="call" in s.target_adjustments,
                        target_moved_by_melds="melds" in s.target_adjustments)


def _match(mt: m.Match, banked: bool) -> MatchRules:
    nd, sets = mt.next_dealer, mt.sets
    deals = mt.deals is not None   # a match of a number of deals has no winning or losing score
    lose_at = None if deals or banked else mt.lose_at   # (banked scores never go down)
    return MatchRules(start=mt.start, win_at=None if deals else mt.win_at, lose_at=lose_at,
                      deals=mt.deals or 0, ends_mid_deal=mt.ends_mid_deal,
                      dealer_stays_while_behind=nd.after_hand == "stays_while_team_behind",
                      next_after_all_pass=nd.after_all_pass == "next", next_after_void=nd.after_void == "next",
                      next_after_redeal=nd.after_redeal == "next", next_after_annul=nd.after_annul == "next",
                      sets_at=0 if sets is None else sets.at, win_sets=0 if sets is None else sets.win_sets)


def _concede(c: m.Concede | None) -> ConcedeRules | None:
    return None if c is None else ConcedeRules(after_first_auction="after_first_auction" in c.when,
                                               after_second_auction="after_second_auction" in c.when,
                                               in_play="in_play" in c.when)


def _annul(a: m.Annul, ranks: tuple[str, ...]) -> AnnulRules:
    rank = a.one_hand_holds_all_of
    return AnnulRules(all_of_rank=-1 if rank is None else ranks.index(rank),
                      bidding_team_held_all_trumps=a.bidding_team_held_all_trumps,
                      held_all_trumps_before_play=a.held_all_trumps_checked == "before_play",
                      trump_never_exposed=a.trump_never_exposed, pointless_hand_may_redeal=a.pointless_hand_may_redeal)


def _combinations(c: m.Combinations | None, ranks: tuple[str, ...]) -> CombinationRules | None:
    if c is None:
        return None
    natural = tuple(c.order.index(r) if r in c.order else len(ranks) for r in ranks)
    longest = len(ranks)
    listed = sorted(k for k in c.sequences if k <= longest)
    seq = [0] * (longest + 1)
    for n in range(longest + 1):
        fits = [k for k in listed if k <= n]
        seq[n] = c.sequences[fits[-1]] if fits else 0
    return CombinationRules(
        natural=natural, by_place=tuple(ranks.index(r) for r in c.order if r in ranks), sequence_value=tuple(seq),
        shortest=listed[0] if listed else longest + 1,
        quads=tuple(c.four_of_a_kind.get(r, 0) for r in ranks),  # type: ignore[call-overload]
        counted=COMBOS_DECLARED if c.counted == "declared" else COMBOS_IN_TRICK,
        best_side_only=c.compared == "best_side_scores_all", ranking=tuple(RANKING_KEYS.index(k) for k in c.ranking),
        ties_earlier=c.ties == "earlier")


def _marriage(t: m.TrumpMarriage | None, ranks: tuple[str, ...]) -> MarriageRules | None:
    if t is None:
        return None
    return MarriageRules(ranks=tuple(ranks.index(r) for r in t.ranks if r in ranks), value=t.value,
                         in_trick=t.counted == "in_trick", in_modes=t.in_modes, name=t.name)


def compile_rules(rs: m.Ruleset) -> Rules:
    """The engine's reading of a resolved, checked rule file."""
    deck = _deck(rs)
    special = rs.special
    return Rules(
        name=rs.name, description=rs.description, table=_table(rs.table), deck=deck,
        schedule=_schedule(rs.schedule), auction=_auction(rs.auction), trump=_trump(rs.trump, rs.deck),
        play=_play(rs.play, deck.ranks), second_auction=_second_auction(rs),
        pair=_pair(special.pair, deck.ranks, rs.auction.bids),
        contracts=tuple(_contract(c) for c in special.contracts),
        declarations=_declarations(special.declarations), melds=_melds(special.melds, deck.ranks),
        claims=tuple(_claim(c) for c in special.claims), all_tricks=_all_tricks(special.all_tricks),
        doubling=_doubling(special.doubling), captures=_captures(rs, deck.ranks), concede=_concede(special.concede),
        scoring=_scoring(rs.scoring), match=_match(rs.match, rs.scoring.method == "banked"),
        annul=_annul(rs.annul, deck.ranks), deal=_deal_rules(rs),
        combinations=_combinations(rs.combinations, deck.ranks), marriage=_marriage(rs.trump_marriage, deck.ranks))


def compile_game(rs: m.Ruleset, ref: str | Path | None = None) -> Game:
    """The playable game of a resolved rule file; `ref` is how records and saves name it."""
    return Game(compile_rules(rs), ref)


def load_game(ref: str | Path) -> Game:
    """Load a rule file (shipped name or path) and compile it. The game's `ref` is the shipped name, or the
    rule file's absolute path: records and saves name it so, never by the file's `name:` alone."""
    ruleset = load_ruleset(ref)
    text = str(ref) if isinstance(ref, Path) else canonical_name(str(ref))
    if isinstance(ref, Path) or text not in shipped_rulesets():
        path = locate(ref)
        text = str(path.resolve()) if path is not None else text
    return compile_game(ruleset, text)
