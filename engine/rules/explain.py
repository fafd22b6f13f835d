"""Resolved rules as text a player can hold against their table (`show`), and `diff` between two rulesets.

Every sentence is built from the values it states and remembers their paths, so `show --origin` can say which
file of an `extends` chain set them ("default" when no file did).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.rules.checks import (
    cards_before,
    cards_per_player,
    cards_used,
    deck_size,
    has_indicator_card,
    step_name,
    total_points,
)
from engine.rules.explain_banked import banked_lines, match_lines
from engine.rules.explain_combinations import combination_lines
from engine.rules.explain_fields import said_lines
from engine.rules.explain_obligations import obligation_lines
from engine.rules.load import Report
from engine.rules.model import (
    AllTricks,
    BidRange,
    CaptureBonus,
    ChooseTrump,
    ChooseTrumpStep,
    Claim,
    CompleteStep,
    Concede,
    DealStep,
    Doubling,
    DoublingStep,
    Meld,
    Pair,
    PartnerSpeech,
    Ruleset,
    ScheduleStep,
    SpecialContract,
    TakeOrPass,
    TakeOrPassStep,
    TrumpMode,
    TurnUpStep,
)
from engine.rules.yamlpos import KeyPath
from engine.text import one_line

Line = tuple[str, tuple[KeyPath, ...]]
METADATA = ("schema_version", "name", "extends", "description", "sources", "notes")
_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight"}
_PLURAL = {"J": "Jacks", "9": "Nines", "A": "Aces", "T": "Tens", "K": "Kings", "Q": "Queens", "8": "Eights",
           "7": "Sevens", "6": "Sixes", "5": "Fives", "4": "Fours", "3": "Threes", "2": "Twos"}


def _p(*parts: str | int) -> KeyPath:
    return tuple(parts)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _seats(team: list[int]) -> str:
    return "+".join(str(s) for s in team)


# ---------------------------------------------------------------------------------------------- words
class _Words:
    """Who is who in a sentence: with bidder_plays_alone there are no teams or partners, only the bidder and
    the other players (a temporary side for one hand), and the match score is kept per player."""

    def __init__(self, rs: Ruleset) -> None:
        self.alone = alone = rs.table.bidder_plays_alone
        self.paired = not alone and len(rs.table.teams) == 2  # two sides that are fixed teams
        self.bidders = "the bidder" if alone else "the bidding team"
        self.others = "the other players" if alone else "the opponents" if self.paired else "the other teams"
        self.each_other = "each other player" if alone else "each other team"
        self.an_opponent = "one of the other players" if alone else "an opponent"
        self.side = "side" if alone else "team"
        self.unit = "player" if alone else "team"


def _stake(rs: Ruleset, made: int, failed: int, who: str) -> str:
    """What a made and a failed contract are worth, and to whom, as scoring.method moves the scores."""
    w = _Words(rs)
    plural = who == "the bidders"
    method = rs.scoring.method
    if method == "bidding_team":
        return f"made {_signed(made)}, failed {_signed(failed)}"
    if method == "opponents_credited":
        others = "the opponents score" if w.paired else f"{w.each_other} scores"
        return f"made, {who} {'score' if plural else 'scores'} {made}; failed, {others} {-failed}"
    if w.paired:
        pay = "pay" if plural else "pays"
        return f"made, the opponents pay {who} {made}; failed, {who} {pay} the opponents {-failed}"
    pay = "pay" if plural else "pays"
    return f"made, {w.each_other} pays {who} {made}; failed, {who} {pay} {w.each_other} {-failed}"


def _trump_card_power(rs: Ruleset) -> str:
    """What a trump-suit card played while the trump is concealed is worth in its trick."""
    if rs.play.reveal.retroactive:
        return "it counts as a trump only if the trump is exposed later in that trick"
    return "it has no trump power, even if the trump is exposed later in that trick"


# ---------------------------------------------------------------------------------------------- show
def _table(rs: Ruleset) -> Iterator[Line]:
    t = rs.table
    way = "counter-clockwise" if t.direction == "counterclockwise" else "clockwise"
    yield f"{t.players} players; play goes {way} (seat 1 plays after seat 0).", (_p("table", "players"),
                                                                                   _p("table", "direction"))
    if t.bidder_plays_alone:
        yield ("The final bidder plays alone against all the others together; the match score is kept per "
               "player."), (_p("table", "bidder_plays_alone"),)
    else:
        teams = " against ".join(_seats(team) for team in t.teams)
        yield f"Teams (seats): {teams}.", (_p("table", "teams"),)
    leader = {"first_hand": "the player after the dealer (first hand)", "bidder": "the bidder",
              "after_bidder": "the player after the bidder"}[t.first_lead]
    yield f"The first trick is led by {leader}.", (_p("table", "first_lead"),)
    if t.first_forehand is not None:
        yield (f"In the first deal of a match the holder of {t.first_forehand.holder_of} is the first hand (he "
               "speaks or chooses first and leads); the next deal is dealt by him."), (
            _p("table", "first_forehand"),)


def _deck(rs: Ruleset) -> Iterator[Line]:
    d = rs.deck
    copies = " (two copies of each card)" if d.copies == 2 else ""
    yield (f"{deck_size(rs)} cards{copies}: ranks {' '.join(d.ranks)} from high to low, "
           f"suits {' '.join(d.suits)}."), (_p("deck", "ranks"), _p("deck", "suits"), _p("deck", "copies"))
    points = ", ".join(f"{r} {v}" for r, v in d.points.items() if v and r in d.ranks)
    text = f"Card points: {points}; other ranks 0." if points else "No card carries points."
    yield text, (_p("deck", "points"),)
    if d.last_trick_bonus:
        yield f"Winning the last trick is worth {d.last_trick_bonus} more.", (_p("deck", "last_trick_bonus"),)
    for i, b in enumerate(rs.special.capture_bonuses):
        yield _capture(rs, b), (_p("special", "capture_bonuses", i),)
    yield from _trump_suit_tables(rs)
    most = " (the most any trump choice gives)" if d.trump_points is not None or rs.trump.modes else ""
    yield f"{total_points(rs)} points in all{most}.", (_p("deck", "points"), _p("deck", "last_trick_bonus"),
                                                       _p("special", "capture_bonuses"), _p("deck", "trump_points"),
                                                       _p("trump", "modes"))
    yield from _ties(rs)


def _ties(rs: Ruleset) -> Iterator[Line]:
    """Cards that beat each other only by order of play: tied ranks, identical copies."""
    d = rs.deck
    for g, group in enumerate(d.rank_ties):
        yield f"{' and '.join(group)} rank equal: of two in one trick the first played wins.", (
            _p("deck", "rank_ties", g),)
    if d.copies == 2:
        yield "Of two identical cards in one trick the first played wins.", (_p("deck", "copies"),)
    yield from said_lines(d, ("deck",))


def _trump_suit_tables(rs: Ruleset) -> Iterator[Line]:
    """The trump suit's own order and points, where they differ from the plain suits'."""
    d = rs.deck
    if d.trump_ranks is not None:
        yield (f"In the trump suit the ranks go {' '.join(d.trump_ranks)} from high to low (the other suits keep "
               "the order above)."), (_p("deck", "trump_ranks"),)
    if d.trump_points is not None:
        trump = ", ".join(f"{r} {v}" for r, v in d.trump_points.items() if v and r in d.ranks)
        yield (f"In the trump suit the card points are {trump or 'none'}; other ranks 0 (the other suits count as "
               "above)."), (_p("deck", "trump_points"),)


def _schedule(rs: Ruleset) -> Iterator[Line]:
    w = _Words(rs)
    steps = {"auction": "Auction.", "trump": "The bidder chooses the trump.",
             "raise": (f"{w.bidders.capitalize()}, then every other player, may raise the contract."
                       if rs.raise_ is not None and rs.raise_.others_may_raise
                       else f"{w.bidders.capitalize()} may raise the contract."),
             "second_auction": "Second auction (see below)."}
    for i, step in enumerate(rs.schedule):
        if isinstance(step, str) and step in steps:
            text = steps[step]
        elif isinstance(step, DealStep):
            text = f"Deal {step.deal} cards to each player."
        else:
            text = _deal_procedure(rs, step)
        yield f"{i + 1}. {text}", (_p("schedule", i),)
    used = cards_used(rs)
    rest = "every card is dealt" if used >= deck_size(rs) else \
        f"{deck_size(rs) - used} cards stay undealt in the stock, seen by nobody"
    yield f"Each player holds {cards_per_player(rs)} cards; {rest}.", (_p("schedule"),)


def _deal_procedure(rs: Ruleset, step: ScheduleStep) -> str:
    """A schedule step of the turned card, the stock and the trump choices without an auction, in words."""
    return _PROCEDURES[step_name(step)](rs, step)


def _stock_words(rs: Ruleset, step: ScheduleStep) -> str:
    return "The rest of the pack stays undealt (the stock): nobody sees it."


def _exchange_words(rs: Ruleset, step: ScheduleStep) -> str:
    return (f"The holder of the trump {rs.deck.ranks[-1]} may exchange it for the card lying face up (say "
            "`exchange`, or `pass`), before the first lead; it scores nothing.")


def _turn_up_words(rs: Ruleset, step: ScheduleStep) -> str:
    if isinstance(step, TurnUpStep) and step.turn_up.card == "dealer_last":
        return "The dealer's last card is shown face up for all to see; he keeps it."
    return "The next card is turned face up for all to see."


def _choose_trump_words(rs: Ruleset, step: ScheduleStep) -> str:
    ch = step.choose_trump if isinstance(step, ChooseTrumpStep) else ChooseTrump()
    nt = " or no-trumps" if rs.trump.no_trumps else ""
    push = (" Instead he may say `push`: his partner must then choose (he may not push back)."
            if ch.may_push else "")
    return (f"No auction: the first hand names the trump suit{nt} (`trump SUIT`); his side plays the contract, "
            f"and the first hand leads.{push}")


def _take_or_pass_words(rs: Ruleset, step: ScheduleStep) -> str:
    top = step.take_or_pass if isinstance(step, TakeOrPassStep) else TakeOrPass()
    again = ("the same dealer deals again" if rs.match.next_dealer.after_all_pass == "same"
             else "the deal passes to the next player")
    text = ("From the first hand, each player in turn may `take` (the turned card's suit becomes trumps and he "
            "plays the contract) or `pass`. ")
    if top.if_all_pass == "first_hand_names":
        text += "If all pass, the first hand must name the trump suit (`trump SUIT`, any suit) and plays it."
    else:
        text += ("If all pass, a second round: each may name another suit as trumps (`trump SUIT`) or pass; if "
                 f"all pass again the cards are thrown in and {again}.")
    if top.dealer_must_choose:
        text += " In the second round the dealer may not pass: he must name a suit."
    if top.schmeiss:
        text += (" In either round a player may say `schmeiss` instead: if the other player accepts, the cards "
                 "are thrown in and the same dealer deals again; if he refuses, he must play the contract - "
                 "in the turned suit in the first round, in a suit he names in the second.")
    return text


def _complete_words(rs: Ruleset, step: ScheduleStep) -> str:
    assert isinstance(step, CompleteStep)
    c = step.complete
    card = "the turned card and " if c.turned_to_taker else ""
    out = (f"The deal is completed from the stock: the player who took receives {card}{c.taker} more, every other "
           f"player {c.others}.")
    if not c.turned_to_taker:
        out += " The turned card stays face up on the table."
    if c.show_bottom:
        out += " Then the stock's bottom card is shown to all, for information only."
    return out


_PROCEDURES: dict[str, Callable[[Ruleset, ScheduleStep], str]] = {
    "turn_up": _turn_up_words, "stock": _stock_words, "exchange_low_trump": _exchange_words,
    "choose_trump": _choose_trump_words, "take_or_pass": _take_or_pass_words, "complete": _complete_words}


def _bid_words(bids: BidRange) -> str:
    step = f" in steps of {bids.step}" if bids.step != 1 else ""
    extra = f", then {', '.join(str(v) for v in bids.extra)}" if bids.extra else ""
    return f"from {bids.min} to {bids.max}{step}{extra}"


def _partner_speech(speech: PartnerSpeech, lapse: str) -> str:
    back = ", or hands it back once (the asker must then bid or pass)" if speech.hand_back else ""
    return (f"A player may say `partner` at his turn: his partner at once bids or passes in his place{back}; it "
            f"counts as a speech of both, and {lapse}.")


def _auction(rs: Ruleset) -> Iterator[Line]:
    if "auction" not in rs.schedule:
        yield "No auction: the trump and the contract are fixed as the deal says (the auction section is not used).", (
            _p("schedule"),)
        return
    yield from _auction_bids(rs)
    yield from _auction_turns(rs)
    yield from _auction_all_pass(rs)
    yield from _auction_limits(rs)
    yield from _auction_hands(rs)


def _auction_bids(rs: Ruleset) -> Iterator[Line]:
    """The bids themselves: their values, steps, holds, the top bid, and the trump a bid names."""
    a = rs.auction
    yield f"Bids {_bid_words(a.bids)}, each higher than the last.", (_p("auction", "bids"),)
    if a.exact_step:
        yield "Each bid is exactly the next one above the standing bid: no jumps.", (_p("auction", "exact_step"),)
    if a.only_opponents_may_bid:
        yield "Only an opponent of the standing bidder may bid.", (_p("auction", "only_opponents_may_bid"),)
    if a.default_bidder is not None:
        yield ("The first hand holds a standing bid of 0 before anyone bids; if nobody bids, he is the bidder at "
               "0."), (_p("auction", "default_bidder"),)
    if a.hold:
        yield ("A player who speaks earlier in the order of bidding (from the first hand) may hold: bid the same "
               "as the standing bid of a player who speaks later."), (_p("auction", "hold"),)
    if a.ends_at_max_bid:
        yield f"A bid of {a.bids.max} ends the auction at once.", (_p("auction", "ends_at_max_bid"),)
    if rs.trump.chosen == "in_bid":
        nt = " or no-trumps" if rs.trump.no_trumps else ""
        yield f"Every bid names a trump suit{nt}.", (_p("trump", "chosen"), _p("trump", "no_trumps"))


def _auction_turns(rs: Ruleset) -> Iterator[Line]:
    """Who speaks first, what a pass means, and when the auction ends."""
    a = rs.auction
    first = "must bid at their first turn" if a.first_hand_must_bid else "may pass"
    yield f"The first hand speaks first and {first}.", (_p("auction", "first_hand_must_bid"),)
    doubled = rs.special.doubling is not None and rs.special.doubling.window == "in_auction"
    after = "the last bid, double or redouble" if doubled else "a bid"
    if a.pass_is_final:
        yield "A player who passes may not bid again.", (_p("auction", "pass_is_final"),)
        yield "The auction ends when every player but the highest bidder has passed.", ()
    else:
        yield "A player who passed may bid again later.", (_p("auction", "pass_is_final"),)
        standing = " (the standing bidder's own passes do not count)" if a.default_bidder is not None else ""
        yield f"The auction ends when all the other players have passed in a row after {after}{standing}.", (
            _p("auction", "default_bidder"), _p("special", "doubling", "window"))


def _auction_all_pass(rs: Ruleset) -> Iterator[Line]:
    """What happens when every player passes (nothing to say when nobody can pass throughout)."""
    a = rs.auction
    if a.default_bidder is not None or (a.first_hand_must_bid and a.if_all_pass == "redeal"):
        pass  # nobody can pass throughout: there is a standing bid, or the first hand must bid
    elif a.if_all_pass == "redeal":
        who = "the deal passes to the next player" if rs.match.next_dealer.after_all_pass == "next" else \
            "the same dealer deals again"
        yield f"If every player passes, {who}.", (
            _p("auction", "if_all_pass"), _p("match", "next_dealer", "after_all_pass"))
    else:
        forced = a.bids.min if a.dealer_forced_bid is None else a.dealer_forced_bid
        yield f"If all the others pass, the dealer must bid {forced}, which ends the auction.", (
            _p("auction", "if_all_pass"), _p("auction", "dealer_forced_bid"))


def _auction_limits(rs: Ruleset) -> Iterator[Line]:
    """Limits on a player's bids: over his partner, over himself, after his first bid or speech; partner speech."""
    a = rs.auction
    po = a.partner_overcall
    if po is not None and (po.forbidden or po.min is not None):
        when = " when the player who spoke just before you passed" if po.only_after_a_pass else ""
        what = "is not allowed" if po.forbidden else f"needs at least {po.min}"
        yield f"Overbidding your own partner's standing bid {what}{when}.", (_p("auction", "partner_overcall"),)
    if not a.may_raise_own_bid:
        yield "A player may not bid over his own standing bid (his partner may).", (
            _p("auction", "may_raise_own_bid"),)
    if a.second_bid_min is not None:
        yield f"A player's second and later bids must be at least {a.second_bid_min}.", (
            _p("auction", "second_bid_min"),)
    if a.after_first_speech_min is not None:
        yield (f"Once a player has spoken (a bid, a pass, or a speech his partner made for him), his bids are at "
               f"least {a.after_first_speech_min}."), (_p("auction", "after_first_speech_min"),)
    if a.partner_speech is not None:
        yield _partner_speech(a.partner_speech, "the partner's own next turn lapses: neither a bid nor a pass, so "
                              "the auction ends only once every player but the holder has passed since the standing "
                              "bid, and a player whose turn lapsed is asked again when it comes round"), (
            _p("auction", "partner_speech"),)


def _auction_hands(rs: Ruleset) -> Iterator[Line]:
    """Rules that depend on the cards held: one-suited hands, pointless hands."""
    a = rs.auction
    if a.one_suit_hand_may_not_bid != "nobody":
        who = "The first hand" if a.one_suit_hand_may_not_bid == "first_hand" else "Nobody"
        verb = "may not bid" if who == "The first hand" else "may bid"
        yield f"{who} {verb} while holding cards of one suit only.", (_p("auction", "one_suit_hand_may_not_bid"),)
    r = a.pointless_redeal
    if r is None:
        return
    what = "carry no points" if not r.max_points else f"total at most {r.max_points} points"
    if r.automatic:
        whose = "the first hand's cards" if r.seats == 1 else f"the cards of any of the first {r.seats} players"
        text = f"If {whose} {what} when the auction starts, the same dealer deals again at once."
    else:
        who = "The first hand" if r.seats == 1 else f"Each of the first {r.seats} players"
        text = f"{who} may ask for a new deal at their first turn if their cards {what}."
        if a.partner_speech is not None:
            text += " A `partner` speech is a first speech of both partners: after it, no redeal."
    yield text, (_p("auction", "pointless_redeal"),)


def _second_auction(rs: Ruleset) -> Iterator[Line]:
    sa = rs.second_auction
    if sa is None:
        return
    w = _Words(rs)
    sec = ("second_auction",)
    yield (f"Bids {_bid_words(sa.bids)}, each higher than the standing bid (the contract of the first auction "
           "to begin with); its holder speaks first, then round the table."), (_p(*sec, "bids"), _p(*sec, "first"))
    if sa.turns == "once":
        yield "Every player speaks once.", (_p(*sec, "turns"),)
    else:
        yield ("A player who passed may bid again later; it ends when all the others have passed in a row after "
               "the last bid (with no bid, once every player has passed)."), (_p(*sec, "turns"),)
    yield ("The holder of the top bid at the end holds the contract; a new holder takes the trump step again: the "
           "trump card laid so far returns to its owner's hand and he lays one from his full hand."), ()
    refold = {"when_bidding": "A holder who bid again in this auction and stays holder lays his trump card anew "
                              "(it may be the same card).",
              "when_marked": "A holder who stays holder keeps his trump card, unless one of his speeches in this "
                             "auction was marked change (`bid N change`, `pass change`): then he lays it anew.",
              "never": "A holder who stays holder keeps his trump card."}
    yield refold[sa.holder_refolds], (_p(*sec, "holder_refolds"),)
    if sa.partner_speech is not None:
        yield _partner_speech(sa.partner_speech, "the partner's own turn in this auction lapses"), (
            _p(*sec, "partner_speech"),)
    yield (f"A contract is of round 2 when a bid of this auction stands, else of round 1 ({w.bidders} and the "
           "bid stay)."), ()


def _trump(rs: Ruleset) -> Iterator[Line]:
    t = rs.trump
    yield _trump_choice(rs)
    yield from _trump_instead(rs)
    yield from _trump_opening(rs)
    if t.shown_at_first_lead and t.concealed:
        yield ("The trump is shown to all as the first card of trick 1 is led, and counts from that card on; a "
               "trump card laid face down returns to its owner's hand."), (_p("trump", "shown_at_first_lead"),)
    if t.no_trumps and t.no_trumps_ranking == "reversed":
        order = " ".join(reversed(rs.deck.ranks))
        yield f"In a no-trumps hand the ranks run the other way: {order} from high to low.", (
            _p("trump", "no_trumps_ranking"),)
    yield from _trump_modes(rs)


def _trump_choice(rs: Ruleset) -> Line:
    """How the trump is fixed and made known."""
    t = rs.trump
    paths = (_p("trump", "chosen"), _p("trump", "declared_as"), _p("trump", "concealed"))
    if t.chosen == "in_bid":
        nt = "; after a no-trumps bid the highest card of the led suit wins" if t.no_trumps else ""
        return f"The final bid's suit is trump, known to all as soon as the auction ends{nt}.", paths
    if not t.concealed:
        return "The final bidder announces the trump suit face up; trumps count from the first trick.", paths
    if t.declared_as == "card":
        return ("The final bidder lays a card of the trump suit face down (the indicator); it is not part of "
                "their hand until the trump is exposed, when it joins it."), paths
    return "The final bidder names the trump suit secretly and keeps all their cards.", paths


def _trump_instead(rs: Ruleset) -> Iterator[Line]:
    """What the bidder may do instead of choosing a suit: no-trumps, the seventh card, the last card, a redeal."""
    t = rs.trump
    if t.no_trumps and t.chosen == "after_auction":
        secret = ", kept secret like a suit until it is exposed" if t.concealed else ""
        yield f"The final bidder may choose no-trumps instead of a suit (`trump NT`){secret}.", (
            _p("trump", "no_trumps"),)
    if t.seventh_card:
        yield ("The bidder may instead take the seventh card dealt to them (`trump seventh`): it is laid aside "
               "face down as the indicator, and its suit is trump."), (_p("trump", "seventh_card"),)
    if t.last_card is not None:
        when = (" when the cards they hold then are all of different suits" if t.last_card.only_when_suits_differ
                else "")
        hidden = ", known only to them until it is shown" if t.concealed else ""
        yield (f"The bidder may instead say `trump last`{when}: the suit of the last card dealt to them is trump "
               f"(the card stays in their hand){hidden}."), (_p("trump", "last_card"),)
    if t.may_redeal is not None:
        yield (f"Instead of choosing the trump, a bidder whose cards total at most {t.may_redeal.max_points} points "
               "may ask for a new deal (`redeal`)."), (_p("trump", "may_redeal"),)


def _trump_opening(rs: Ruleset) -> Iterator[Line]:
    o = rs.trump.opening
    if o is not None and o.by_choice:
        duty = "; having opened, on lead to trick 1 he must lead a trump if he holds one" if o.lead_trump_after \
            else ""
        yield ("Before trick 1 the holder of a concealed trump says `open` (the folded card rejoins his hand and the "
               f"trump suit is shown) or `pass` (it stays concealed){duty}."), (
            _p("trump", "opening", "by_choice"), _p("trump", "opening", "lead_trump_after"))
    if o is not None and o.after_trick is not None:
        yield (f"A contract of {o.from_bid} or more still concealed at the end of trick {o.after_trick} is opened "
               "then: the folded card is shown and rejoins the hand."), (
            _p("trump", "opening", "after_trick"), _p("trump", "opening", "from_bid"))


def _trump_modes(rs: Ruleset) -> Iterator[Line]:
    """The named trump modes (trump.modes) and the multipliers by trump suit (trump.suit_multipliers)."""
    t = rs.trump
    where = "a bid may name" if t.chosen == "in_bid" else "the trump may be"
    for i, md in enumerate(t.modes):
        yield _mode(rs, md, where), (_p("trump", "modes", i),)
    by_suit = [f"{v} when {su} is trump" for su, v in t.suit_multipliers.items() if v != 1]
    if by_suit:
        yield f"The hand's score is multiplied by {', '.join(by_suit)}.", (_p("trump", "suit_multipliers"),)


def _mode(rs: Ruleset, md: TrumpMode, where: str) -> str:
    points = ", ".join(f"{r} {v}" for r, v in md.points.items() if v and r in rs.deck.ranks) or "none"
    kind = ("every suit plays as trumps: nobody can trump, and the duties in trumps apply to the suit led"
            if md.trumps == "all" else "there is no trump suit")
    times = f"; the hand's score is multiplied by {md.multiplier}" if md.multiplier != 1 else ""
    after = " (after the suits, in this order)" if rs.trump.chosen == "in_bid" else ""
    return (f"Instead of a suit {where} `{md.name}`{after}: {kind}; in every suit the ranks go "
            f"{' '.join(md.ranks)} from high to low and the card points are {points}, other ranks 0{times}.")


def _play(rs: Ruleset) -> Iterator[Line]:
    calls = rs.trump.concealed and not rs.trump.shown_at_first_lead and not rs.play.blind_cut
    caller = " except a caller, as below" if calls and rs.play.reveal.caller_must_trump else ""
    if rs.play.obligations is not None:
        yield from obligation_lines(rs)
    else:
        yield (f"Follow suit if you can; otherwise play any card unless a rule below says otherwise. Nobody is "
               f"obliged to trump{caller}."), ()
    yield "The highest trump wins the trick, else the highest card of the suit led.", ()
    if rs.trump.concealed and rs.play.blind_cut:
        yield from _blind_cut(rs)
    elif rs.trump.concealed and not rs.trump.shown_at_first_lead:
        yield from _concealed(rs)
    yield from _play_restrictions(rs)


def _play_restrictions(rs: Ruleset) -> Iterator[Line]:
    """The single rules on leads, discards and undertrumps, and the cards laid face up."""
    if rs.play.exhausted_trumps:
        yield ("Exhausted trumps: a bidder who led a trump that no other player followed must lead trumps from "
               "then on while he holds any (not in special contracts)."), (_p("play", "exhausted_trumps"),)
    seen = "led" if rs.play.suit_counts_as_led_when == "led" else "played (led or thrown)"
    for i, rank in enumerate(rs.play.no_discard_before_suit_led):
        yield (f"A void player may not discard a {rank} of a suit not yet {seen}, unless holding nothing else "
               "(trumping with it is allowed)."), (
            _p("play", "no_discard_before_suit_led", i), _p("play", "suit_counts_as_led_when"))
    if rs.play.must_not_undertrump:
        yield ("A player who cannot follow may not play a trump lower than one already in the trick, unless "
               "holding nothing else."), (_p("play", "must_not_undertrump"),)
    if rs.play.exposed_after_deal == "bidders_partner":
        partners = "partners lay" if max(len(t) for t in rs.table.teams) > 2 else "partner lays"
        yield (f"Once every card is dealt and the bidder is known, the bidder's {partners} his cards face up for "
               "everyone to see, to the end of the hand; he still chooses his own plays."), (
            _p("play", "exposed_after_deal"),)
    yield from said_lines(rs.play, ("play",))


def _concealed(rs: Ruleset) -> Iterator[Line]:
    r, b = rs.play.reveal, rs.play.bidder_while_concealed
    rv, bw = ("play", "reveal"), ("play", "bidder_while_concealed")
    compulsory = r.call == "compulsory_first_void"
    if not compulsory:
        yield ("While the trump is concealed, a player who cannot follow suit may discard, or first call for the "
               "trump, which exposes it."), (_p(*rv, "call"),)
    elif b.when_trump_suit_led == "must_call":
        yield ("While the trump is concealed, every player who cannot follow suit, the bidder included, must "
               "call for it, which exposes it."), (_p(*rv, "call"), _p(*bw, "when_trump_suit_led"))
    else:
        yield ("While the trump is concealed, every player who cannot follow suit must call for it, which "
               "exposes it; the bidder too when a plain suit is led."), (_p(*rv, "call"),)
    must = "must play a trump if they hold one" if r.caller_must_trump else "need not trump"
    yield f"Once it is exposed, the caller {must}.", (_p(*rv, "caller_must_trump"),)
    retro = "count as trumps" if r.retroactive else "do not count as trumps"
    yield f"Trump-suit cards played to the trick before the exposure {retro}.", (_p(*rv, "retroactive"),)
    if has_indicator_card(rs):
        yield _last_trick(rs), (_p(*rv, "last_trick_forces_exposure"),)
    lead = ("may not lead the trump suit while holding other suits; such a forced lead"
            if b.lead_trump_suit == "only_when_nothing_else" else "may lead the trump suit; such a lead")
    yield f"The bidder {lead} does not expose the trump, and {_trump_card_power(rs)}.", (
        _p(*bw, "lead_trump_suit"), _p(*rv, "retroactive"))
    yield _trump_suit_led(rs), (_p(*bw, "when_trump_suit_led"),)
    if not compulsory:  # a compulsory call leaves the bidder no other choice when a plain suit is led
        yield _bidder_void(rs), (_p(*bw, "void_in_plain_suit"), _p(*rv, "call"))


def _blind_cut(rs: Ruleset) -> Iterator[Line]:
    b = rs.play.bidder_while_concealed
    bw = ("play", "bidder_while_concealed")
    yield ("While the trump is concealed a player who cannot follow suit plays a card face down; there is no call. "
           "At the end of the trick the face-down cards are looked at: trumps among them are turned up and the "
           "highest trump wins, the folded card is shown and rejoins its owner's hand and the trump is open from "
           "the next trick; with no trump among them the highest card of the suit led wins and the face-down "
           "cards stay face down for good (their points go with the trick; only the bidder sees them)."), (
        _p("play", "blind_cut"),)
    leads = {"only_when_nothing_else": "may not lead the trump suit while holding other suits",
             "free": "may lead the trump suit from his hand",
             "not_to_first_trick": "may not lead the trump suit to trick 1 (unless he holds nothing else), and may "
                                   "after it"}
    yield (f"The bidder {leads[b.lead_trump_suit]}; the folded card is never led: he plays it face down to cut, "
           "or as his last card, exposed as it is played."), (_p(*bw, "lead_trump_suit"),)
    if b.void_in_plain_suit == "discard_plain_or_call_and_play_indicator":
        void = ("cuts with the folded card or plays a card of another plain suit face down, never a trump from his "
                "hand (holding only trumps, he must cut with the folded card)")
    else:
        void = "plays any card face down, or cuts with the folded card"
    yield f"A bidder who cannot follow a plain suit {void}.", (_p(*bw, "void_in_plain_suit"),)
    led = ("plays a plain card, never the folded card" if b.when_trump_suit_led == "follow_or_discard"
           else "plays any card, the folded card included")
    yield f"When the trump suit is led and the bidder cannot follow from his hand, he {led}.", (
        _p(*bw, "when_trump_suit_led"),)


def _only_seventh(rs: Ruleset) -> bool:
    """The indicator card exists only when the bidder takes the seventh card (else a suit is named)."""
    return rs.trump.declared_as == "suit"


def _play_indicator(rs: Ruleset, otherwise: str) -> str:
    """What a bidder who called must play when the call was to play the indicator card."""
    if not has_indicator_card(rs):
        return otherwise
    if _only_seventh(rs):
        return f"play the seventh card if it is the indicator, else {otherwise.removeprefix('play ')}"
    return "play the indicator"


def _last_trick(rs: Ruleset) -> str:
    if _only_seventh(rs):
        start = ("If the seventh card is the indicator and the trump is still concealed at the last trick, it is "
                 "the bidder's last card")
    else:
        start = "If the trump is still concealed at the last trick, the indicator is the bidder's last card"
    if rs.play.reveal.last_trick_forces_exposure:
        return f"{start}: it is exposed as it is played and is a trump in that trick."
    annulled = " (so the hand is annulled)" if rs.annul.trump_never_exposed else ""
    return (f"{start}: played without a call, it is an ordinary card with no trump power and the trump is never "
            f"exposed{annulled}; a bidder who cannot follow a plain suit may call first, making it an exposed "
            "trump.")


def _trump_suit_led(rs: Ruleset) -> str:
    start = "When another player leads the trump suit and the bidder cannot follow from hand, the bidder"
    how = rs.play.bidder_while_concealed.when_trump_suit_led
    if how == "follow_or_discard":
        return f"{start} discards and may not call."
    # after the call the indicator has joined the hand: the only card of the led suit, so it must follow
    then = _play_indicator(rs, "play any card")
    if how == "may_call_and_play_indicator":
        return f"{start} may discard, or call and then {then}."
    return f"{start} must call and then {then}."


def _bidder_void(rs: Ruleset) -> str:
    void = rs.play.bidder_while_concealed.void_in_plain_suit
    must = "play a trump if they hold one" if rs.play.reveal.caller_must_trump else "play any card"
    start = "A bidder who cannot follow a plain suit may"
    if void == "discard_plain_or_call_and_play_indicator":
        return (f"{start} discard a card of another plain suit (holding none, they must call), or call and then "
                f"{_play_indicator(rs, must)}.")
    if void == "discard_any_or_call_and_play_any_trump":
        return (f"{start} discard any card (a card of the trump suit: {_trump_card_power(rs)}), or call and "
                "then play a trump (any card if they hold none).")
    return (f"{start} discard any card (a card of the trump suit: {_trump_card_power(rs)}), or call and then "
            f"{_play_indicator(rs, must)}.")


def _raise(rs: Ruleset) -> Iterator[Line]:
    if rs.raise_ is None:
        return
    w = _Words(rs)
    partners = "each of the bidder's partners" if max(len(t) for t in rs.table.teams) > 2 else "the bidder's partner"
    who = ", then ".join("the bidder" if x == "bidder" else partners for x in rs.raise_.by)
    each = " each" if len(rs.raise_.by) > 1 else ""
    yield (f"After the full deal {who} may{each} raise once, to at least {rs.raise_.min} and above the "
           "standing bid."), (_p("raise"),)
    if rs.raise_.others_may_raise:
        who = "another player" if w.alone else "a player of another team"
        yield (f"Then every other player in turn may raise too; {who} who raises highest becomes the bidder "
               "and chooses a new trump."), (_p("raise", "others_may_raise"),)


def _special(rs: Ruleset) -> Iterator[Line]:
    s = rs.special
    if s.pair is not None:
        yield from _pair(rs)
    for i, c in enumerate(s.contracts):
        yield _declaration(rs, c), (_p("special", "contracts", i),)
    if s.melds is not None:
        yield from (_compulsory_melds(rs) if s.melds.compulsory else _melds(rs))
    for i, cl in enumerate(s.claims):
        if cl.claims == "remaining_tricks_by_side":
            yield from _remaining_claim(rs, cl, i)
        else:
            yield _claim(rs, cl), (_p("special", "claims", i),)
    if s.all_tricks is not None:
        yield from _sweep(rs, s.all_tricks)
    if s.doubling is not None:
        yield from _doubling(rs)
    if s.concede is not None:
        yield _concede(s.concede)


def _sweep(rs: Ruleset, sweep: AllTricks) -> Iterator[Line]:
    w = _Words(rs)
    yield f"If {w.bidders} wins every trick, the score is multiplied by {sweep.multiplier}.", (
        _p("special", "all_tricks"),)
    if sweep.surrender is not None:
        m = sweep.surrender.refused_loss_multiplier
        yield (f"Until {w.bidders} loses a trick, {w.an_opponent} may offer to surrender at their turn to "
               "play; if the bidder accepts, the hand counts as made at the single score; if refused, losing "
               f"a trick costs {w.bidders} {m} times the failed score."), (
            _p("special", "all_tricks", "surrender"),)


def _concede(concede: Concede) -> Line:
    moments = {"after_first_auction": "instead of laying the trump card after the first auction",
               "after_second_auction": "instead of laying it anew after the second auction (a holder who "
                                       "keeps it concedes in play)",
               "in_play": "at any of his turns to play while his side has not reached its target"}
    when = "; ".join(moments[x] for x in concede.when)
    return (f"The contract holder may concede (`concede`) {when}: play stops and the contract counts as "
            "failed, scored as a contract of the round that fixed it."), (_p("special", "concede"),)


def _remaining_claim(rs: Ruleset, c: Claim, i: int) -> Iterator[Line]:
    w = _Words(rs)
    path = _p("special", "claims", i)
    stop = "play stops" if c.stops_play else "play goes on"
    yield (f"{c.name} (`declare {c.name}`): at his turn to play, before his card, a player of a side that has won "
           "every trick so far (either side) may claim every remaining trick for his side, once per side; "
           f"{stop}."), (path,)
    r = c.rewards
    if c.certainty == "provable":
        yield ("The claim must be certain from what the caller knows - his cards, the cards played and shown to him, "
               "the voids shown (a bidder who laid a concealed trump also saw the face-down cards) - whatever the "
               "unseen cards and however the others play, his partner's choices included; while the trump is "
               "concealed nothing counts as certain."), (_p(*path, "certainty"),)
        if c.first_moment:
            yield ("It must come at his side's first moment: the first turn to play at which either of its players "
                   "could be certain. A later claim is late; a side that wins every trick without claiming, though "
                   "such a moment came, is scored as if it claimed wrongly."), (_p(*path, "first_moment"),)
    how = "is added to the side's result of the hand" if r.on_time_score == "adds" else "is the side's result"
    before = f", made before trick {r.on_time_before_trick} begins" if r.on_time_before_trick else ""
    also = " (made later, the hand scores as usual)" if r.on_time_before_trick else ""
    yield (f"A correct claim{before}: {_signed(r.on_time)} {how} (for {w.an_opponent}'s side, its result is what the "
           f"failed contract pays it){also}. Early, late or never made, the tricks still won: the side scores "
           f"{_signed(r.wrong_but_won)}; a trick lost after the claim: {_signed(r.failed)}; in place of the hand's "
           "score, the other side the opposite. When both sides are at fault in one hand (one lost a trick after "
           "claiming, the other won the rest with a wrong or missing claim), each answers for its own fault and "
           "the two results add."), (_p(*path, "rewards"),)


def _compulsory_melds(rs: Ruleset) -> Iterator[Line]:
    md = rs.special.melds
    assert md is not None
    cards = " and ".join(md.ranks)
    when = []
    if "side_won_a_trick" in md.when:
        when.append("his side has won a trick")
    if "trump_exposed" in md.when:
        when.append("the trump is known to all")
    cond = " and ".join(when) or "it is his turn"
    yield (f"Melds ({md.name}): {cards} of one suit in one hand, worth {md.trump_value} in trumps and "
           f"{md.plain_value} in another suit, are shown by the engine at the holder's first turn to play at which "
           f"{cond}, both cards still in his hand; each suit once, several per hand; none in special contracts."), (
        _p("special", "melds"),)
    if "melds" in rs.scoring.target_adjustments:
        yield _meld_target(md), (_p("scoring", "target_adjustments"), _p("special", "melds", "target_bounds"))


def _meld_target(md: Meld) -> str:
    bounds = "" if md.target_bounds is None else (
        f"; the target is the bid moved by the sum of the {md.name}s shown, kept within "
        f"{md.target_bounds[0]}-{md.target_bounds[1]} once, on that sum, so the order of showing never matters")
    return (f"A {md.name} shown by the counting side lowers its target by its value, one shown by the other side "
            f"raises it{bounds}.")


_SWEEP_TEST = ("a sure sweep: at no-trumps, leading, every card he holds outranks all the cards of its suit he "
               "lacks or has above it at least as many of his own cards of that suit as he lacks")


def _declaration(rs: Ruleset, c: SpecialContract) -> str:
    """One declaration: who, when, on what cards, what it undertakes, how it is played, what it is worth."""
    w = _Words(rs)
    team = "the declarer" if w.alone else "the declarer's team"
    when = _declaration_when(rs, c, _declaration_who(rs, c))
    if not c.played:
        return (f"{c.name} (`declare {c.name}`): {when}; he lays his cards face up and the hand ends without play, "
                f"{team} scoring {_signed(c.made)} in place of the hand's score.")
    trumps = _declaration_trumps(rs, c)
    partner = "" if w.alone else _declaration_partner(rs, c)
    if c.must_win == "declarer":
        undertaking = "every trick from then on himself" if c.window == "before_trick" else "every trick himself"
    else:
        undertaking = "every trick for his side"
    lead = "" if c.window == "before_trick" or (c.open_trump and c.trumps != "none") else ", leading the first trick"
    stop = _declaration_stop(rs, c, team, w.alone)
    stake = _stake(rs, c.made, c.failed or 0, team)
    return (f"{c.name} (`declare {c.name}`): {when}; he undertakes to win {undertaking}, {trumps}{lead}{partner}"
            f"{stop}; {stake}, in place of the hand's score.")


def _declaration_who(rs: Ruleset, c: SpecialContract) -> str:
    """Who may make the declaration."""
    if c.who == "sole_winner":
        return "a player who has won every trick so far himself"
    if c.who == "bidder":
        return "the bidder"
    if c.window != "after_full_deal":
        return "any player"
    d = rs.special.declarations
    first = "the first hand" if d.first == "first_hand" else "the bidder"
    if d.priority == "first_declared":
        return f"any player (the first to declare, asked in turn from {first})"
    return (f"any player (asked once round from {first}; a declaration by the bidder's side closes the "
            "window, one by an opponent stands unless a later player of the bidder's side declares too)")


def _declaration_when(rs: Ruleset, c: SpecialContract, who: str) -> str:
    """When it is declared, and on which cards it may or may not be."""
    if c.window == "second_auction":
        when = (f"at his turn in the second auction {who} may declare it instead of a number: it outranks every "
                "number and ends the round, and he lays the trump card as a new holder")
    elif c.window == "first_auction":
        when = (f"at his turn in the first auction {who} may declare it instead of a number: it outranks every "
                "number and ends the auction")
        if c.deal == "stops":
            when += f", and no more cards are dealt (the hand is played on the first {cards_before(rs, 'auction')})"
    elif c.window == "before_trick":
        when = f"before leading trick {c.trick}, {who} may declare it"
    else:
        when = f"after the full deal {who} may declare it"
    if c.sure_sweep == "forbidden":
        when += ", but not with " + _SWEEP_TEST
    elif c.sure_sweep == "required":
        when += ", holding " + _SWEEP_TEST
    if c.barred_with_one_suit:
        when += ", but not with cards all of one suit"
    return when


def _declaration_trumps(rs: Ruleset, c: SpecialContract) -> str:
    """The trump and rank order the declared hand is played with."""
    trumps = {"none": "without trumps", "keep": "with the trump as it stands",
              "first_card_led": "with the suit of the first card he leads as trump (a trump card laid face down "
                                "returns unseen to its owner's hand)"}[c.trumps]
    if c.ranking == "reversed":
        trumps += f", the ranks running {' '.join(reversed(rs.deck.ranks))} from high to low for the hand"
    if c.open_trump and c.trumps == "keep":
        trumps = ("with the trump open from the start (the folded card returns to his hand at once), leading a "
                  "trump to trick 1")
    return trumps


def _declaration_partner(rs: Ruleset, c: SpecialContract) -> str:
    """What the declarer's partner or partners do (a game with partners)."""
    partners = "partners" if max(len(t) for t in rs.table.teams) > 2 else "partner"
    if c.partner == "sits_out":
        return "; his partners lay their cards aside" if partners == "partners" else \
            "; his partner lays his cards aside"
    if c.partner == "dummy":
        whose = "partners'" if partners == "partners" else "partner's"
        return (f"; his {whose} cards lie face up and he plays them himself (written with their seat), a "
                "trick they win counting as his side's")
    if partners == "partners":
        return "; his partners play their own cards, and a trick one of them wins counts as lost" \
            if c.must_win == "declarer" else "; his partners play their own cards"
    return "; his partner plays his own cards, and a trick he wins counts as lost" \
        if c.must_win == "declarer" else "; his partner plays his own cards"


def _declaration_stop(rs: Ruleset, c: SpecialContract, team: str, alone: bool) -> str:
    """When play stops, a trick lost to the own partner, and the parts of the game switched off."""
    stop = "; play stops at the first trick lost" if c.stops_at_first_loss else ""
    if c.failed_to_partner is not None and not alone:
        to_partner = _stake(rs, 0, c.failed_to_partner, team).split("; ")[-1].removeprefix("failed, ")
        stop += f"; lost to a trick won by his own partner, {to_partner}"
    if c.switches_off:
        stop += "; no " + " and no ".join(c.switches_off) + " in it"
    return stop


def _melds(rs: Ruleset) -> Iterator[Line]:
    md = rs.special.melds
    assert md is not None
    tricks = " or ".join(str(t) for t in md.after_tricks)
    cards = "+".join(md.ranks)
    more = "" if md.extra is None else (f"; with the {md.extra.rank} of the suit too, {md.extra.plain_value} "
                                        f"({md.extra.trump_value} in trumps)")
    yield (f"Right after their side wins trick {tricks}, before the next lead, the trick's winner and then each "
           f"partner may show {md.name} still in their hand (`show {md.name} SUIT`), several, each suit once a hand: "
           f"{cards} of one suit, worth {md.plain_value} ({md.trump_value} in trumps){more}."), (
        _p("special", "melds"),)
    if "melds" in rs.scoring.target_adjustments:
        yield _meld_target(md), (_p("scoring", "target_adjustments"), _p("special", "melds", "target_bounds"))


def _claim(rs: Ruleset, c: Claim) -> str:
    who = {"unbeaten_side": "a player whose side has won every trick so far",
           "side_showed_meld": "a player whose side has shown a meld"}[c.who]
    tests = ["he wins the last trick himself"]
    if c.needs_lost_trick:
        tests.append("his side has lost a trick")
    if c.melds_beat_opponents_by is not None:
        tests.append(f"his side's melds plus {c.melds_beat_opponents_by} exceed the opponents' card points (from "
                     "their tricks) plus their melds")
    r = c.rewards
    made = f"his side scores {r.on_time}"
    if r.on_time_by_counting_side is not None:
        made += f" ({r.on_time_by_counting_side} on the counting side)"
    barred = "" if c.barred_within is None else (f", not for a side {c.barred_within} or fewer short of winning "
                                                 "the match")
    target = "" if c.match_target_after is None else (f" Once it has been claimed the match is played to "
                                                      f"{c.match_target_after}.")
    score = "replaces the hand's score" if r.on_time_score == "replaces" else "is added to the hand's score"
    tested = (", ".join(tests[:-1]) + " and " if len(tests) > 1 else "") + tests[-1]
    return (f"{c.name} (`declare {c.name}`): at his turn in the last trick, before playing, {who} may claim "
            f"it{barred} (one claim a hand). It succeeds if {tested}: {made}; otherwise the opponents score "
            f"{-r.failed}. Its value {score}.{target}")


def _capture(rs: Ruleset, b: CaptureBonus) -> str:
    w = _Words(rs)
    unit = "card points" if b.unit == "card_points" else "game points"
    if b.amount == 1:
        unit = unit[:-1]
    if b.trigger == "last_trick":
        what = "The side that wins the last trick"
    else:
        n = len(rs.deck.suits) * rs.deck.copies
        what = f"A side whose tricks hold all {_NUMBERS.get(n, str(n))} {_PLURAL[b.rank or 'J']}"
    counts = " (they count toward the contract)" if b.unit == "card_points" else ", whatever the contract did"
    if b.kind == "transfer":
        return f"{what} takes {b.amount} {unit} from {w.others if w.paired else 'the other side'}{counts}."
    return f"{what} scores {b.amount} more {unit}{counts}."


def _pair(rs: Ruleset) -> Iterator[Line]:
    pair = rs.special.pair
    assert pair is not None
    w = _Words(rs)
    when = _pair_moment(pair, w)
    yield (f"Pair: a player holding {' and '.join(pair.ranks)} of trumps may show them at their turn to play"
           f"{when}; once per {w.side}, and not in a special contract."), (_p("special", "pair", "ranks"),)
    if not pair.needs_trump_exposed and rs.trump.concealed:
        yield ("While the trump is concealed only the bidder may show the pair, and showing it exposes the "
               "trump."), (_p("special", "pair", "needs_trump_exposed"),)
    for i, band in enumerate(pair.bidding_team):
        lo, hi = band.bids
        effect = "no pair" if band.adjust is None else f"target {_signed(band.adjust)}"
        bids = f"bid {lo}" if lo == hi else f"bids {lo}-{hi}"
        yield f"Shown by {w.bidders} at {bids}: {effect}.", (_p("special", "pair", "bidding_team", i),)
    yield f"Shown by {w.an_opponent}: target {_signed(pair.opponents)}.", (_p("special", "pair", "opponents"),)
    lo, hi = pair.target_bounds or (rs.auction.bids.min, rs.auction.bids.max)
    yield f"The target stays within {lo}-{hi}.", (_p("special", "pair", "target_bounds"),)


def _pair_moment(pair: Pair, w: _Words) -> str:
    """When the pair may be shown, in words (empty: at any turn to play)."""
    needs = [text for text, on in (
        ("the trump is exposed", pair.needs_trump_exposed),
        (f"their {w.side} has won a trick", pair.needs_won_trick and not pair.right_after_winning),
        (f"their {w.side} won the trick just played", pair.right_after_winning)) if on]
    return f" once {' and '.join(needs)}" if needs else ""


def _doubling(rs: Ruleset) -> Iterator[Line]:
    d = rs.special.doubling
    assert d is not None
    steps = _doubling_steps(rs, d)
    yield _doubling_window(d, steps)
    yield from _doubling_options(rs, d)


def _doubling_side(rs: Ruleset, d: Doubling, st: DoublingStep) -> str:
    """Who says a doubling step: in the auction, by the standing bid; after it, by the contract."""
    w = _Words(rs)
    if d.window == "in_auction":
        return "an opponent of the standing bid" if st.by == "opponents" else (
            "the standing bidder" if w.alone else "a player of the standing bid's side")
    return w.an_opponent if st.by == "opponents" else w.bidders


def _doubling_steps(rs: Ruleset, d: Doubling) -> list[str]:
    """Each step in words, with what the steps so far make in all."""
    steps: list[str] = []
    product = 1
    added = 0
    for st in d.steps:
        side = _doubling_side(rs, d, st)
        if st.adds is not None:
            added += st.adds
            in_all = f", +{added} in all" if added != st.adds else ""
            steps.append(f"{side} may {st.name} (the paid side receives {st.adds} more{in_all})")
            continue
        product *= st.multiplier
        in_all = f", x{product} in all" if product != st.multiplier else ""
        steps.append(f"{side} may {st.name} (x{st.multiplier}{in_all})")
    return steps


def _doubling_window(d: Doubling, steps: list[str]) -> Line:
    in_auction = d.window == "in_auction"
    if in_auction and d.closes_auction:
        return (f"In the auction, at their turn, {', then '.join(steps)}. After the first of them nobody bids "
                "again: the players entitled to the next step say it or pass, each once, and the auction ends with "
                "it or their passes."), (_p("special", "doubling", "steps"), _p("special", "doubling", "window"),
                                         _p("special", "doubling", "closes_auction"))
    if in_auction:
        return (f"In the auction, at their turn, {', then '.join(steps)}; each once per bid. A higher bid cancels "
                "them, and the auction goes on."), (_p("special", "doubling", "steps"),
                                                    _p("special", "doubling", "window"))
    when = "After the trump is chosen" if d.window == "after_trump" else "After every other step, just before "\
        "the first lead"
    return f"{when}, {', then '.join(steps)}.", (_p("special", "doubling", "steps"),
                                                 _p("special", "doubling", "window"))


def _doubling_options(rs: Ruleset, d: Doubling) -> Iterator[Line]:
    """The automatic double, the cap and the fixed stake."""
    if d.auto_double is not None:
        yield (f"Bids of {d.auto_double.from_bid} or more are worth x{d.auto_double.multiplier} from the "
               "start."), (_p("special", "doubling", "auto_double"),)
    if d.cap is not None:
        yield f"The multiplier never goes above x{d.cap}: a step that would pass it is not offered.", (
            _p("special", "doubling", "cap"),)
    if d.fixed_stake is not None:
        f = d.fixed_stake
        instead = next((st.name for st in d.steps[1:] if st.by == "bidding_team"), "")
        cond = (f" while no match points are showing (every score still at {rs.match.start})"
                if f.needs_no_score_showing else "")
        yield (f"After a double, the bidder may say {f.name} instead of {instead}{cond}: the hand is then worth "
               f"{f.value} either way."), (_p("special", "doubling", "fixed_stake"),)


def _scoring(rs: Ruleset) -> Iterator[Line]:
    sc = rs.scoring
    if sc.method == "banked":   # points banked by each side: engine/rules/explain_banked.py
        yield from banked_lines(rs)
        return
    w = _Words(rs)
    credited = w.others if w.paired else w.each_other
    how = {"bidding_team": f"Only {w.bidders}'s score moves.",
           "opponents_credited": f"A made contract scores for {w.bidders}, a failed one for {credited}.",
           "exchange": ("The losing side pays the winning side." if w.paired else
                        f"The stake is exchanged between {w.bidders} and {w.each_other} separately, so stakes "
                        "are conserved.")}
    yield how[sc.method], (_p("scoring", "method"),)
    yield from _target(rs, w)
    for i, band in enumerate(sc.bands):
        lo, hi = band.bids
        bids = f"Bid {lo}" if lo == hi else f"Bids {lo}-{hi}"
        if band.round is not None:
            bids += f" fixed in round {band.round}"
        who = "the bidder" if w.alone else "the bidders"
        yield f"{bids}: {_stake(rs, band.made, band.failed, who)}.", (
            _p("scoring", "bands", i), _p("scoring", "method"))
    yield from _larger_losses(rs, w)


def _target(rs: Ruleset, w: _Words) -> Iterator[Line]:
    """Whose card points count against what target."""
    sc = rs.scoring
    target = "the bid" if sc.target is None else str(sc.target)
    if sc.target is not None and "call" in sc.target_adjustments:
        target += ", less the bid"
    if "melds" in sc.target_adjustments:
        target += " (moved by melds, as below)" if rs.special.melds is not None else ""
    if sc.counted_by == "opponents":
        yield (f"{w.others.capitalize()} count their card points against a target of {target}: the contract is "
               "made when they stay below it."), (_p("scoring", "counted_by"), _p("scoring", "target"),
                                                  _p("scoring", "target_adjustments"))
    elif sc.target is not None:
        yield f"{w.bidders.capitalize()} must take {target} card points.", (
            _p("scoring", "target"), _p("scoring", "target_adjustments"))


def _larger_losses(rs: Ruleset, w: _Words) -> Iterator[Line]:
    """Losses beyond the band's: below half the bid, short of it by a lot."""
    sc = rs.scoring
    if sc.below_half_loss_multiplier > 1:
        yield (f"Taking less than half the bid in card points multiplies the loss by "
               f"{sc.below_half_loss_multiplier}."), (_p("scoring", "below_half_loss_multiplier"),)
    if sc.shortfall_loss is not None:
        sl = sc.shortfall_loss
        loss = "as many game points as the bid" if sl.loss == "bid" else f"{sl.loss} game points"
        yield (f"Falling short of the bid by {sl.at_least} card points or more, {w.bidders} loses {loss} "
               "instead."), (_p("scoring", "shortfall_loss"),)


def _match(rs: Ruleset) -> Iterator[Line]:
    m = rs.match
    unit = _Words(rs).unit
    yield f"Every {unit} starts at {m.start}.", (_p("match", "start"),)
    yield from match_lines(rs, unit)
    if m.win_at is not None and m.deals is None and not m.ends_mid_deal:
        end = (" at the end of a deal wins the match; if several do, the highest" if rs.scoring.method == "banked"
               else " wins the match")
        yield f"A {unit} reaching {m.win_at}{end}.", (_p("match", "win_at"),)
    if m.lose_at is not None and m.deals is None and rs.scoring.method != "banked":
        yield f"A {unit} at {m.lose_at} or below loses the match.", (_p("match", "lose_at"),)
    if m.sets is not None:
        yield (f"Scores are kept in sets: a {unit} reaching +{m.sets.at} opens a red set, -{m.sets.at} a black one, "
               f"and its score returns to 0; sets of one colour open on every side cancel one for one. A {unit} "
               f"with {m.sets.win_sets} red sets open wins the match."), (_p("match", "sets"),)
    yield from _next_dealer(rs, unit)


def _next_dealer(rs: Ruleset, unit: str) -> Iterator[Line]:
    """Who deals after a scored hand, and after one that is not scored."""
    nd = rs.match.next_dealer
    nd_path = ("match", "next_dealer")
    if nd.after_hand == "next":
        yield "After a scored hand the deal passes to the next player (first hand).", (_p(*nd_path, "after_hand"),)
    else:
        yield (f"After a scored hand the dealer deals again while his {unit}'s score is below another {unit}'s; "
               "otherwise the deal passes to the next player."), (_p(*nd_path, "after_hand"),)
    yield _unscored_dealer(rs)


def _unscored_dealer(rs: Ruleset) -> Line:
    """Who deals after a hand that is not scored, by how it ended."""
    nd = rs.match.next_dealer
    nd_path = ("match", "next_dealer")
    kinds = {"after_all_pass": "an all-pass", "after_void": "a hand annulled because the bidding side held every "
             "trump", "after_redeal": "a redeal someone asked for", "after_annul": "any other annulled hand"}
    au = rs.auction
    if au.default_bidder is not None or au.first_hand_must_bid:  # nobody can pass throughout
        del kinds["after_all_pass"]
    unscored = "(every player passed, or annulled)" if "after_all_pass" in kinds else "(annulled)"
    passes = [what for key, what in kinds.items() if getattr(nd, key) == "next"]
    paths = tuple(_p(*nd_path, key) for key in kinds)
    if not passes:
        return f"After a hand that is not scored {unscored} the same dealer deals again.", paths
    if len(passes) == len(kinds):
        return f"After a hand that is not scored {unscored} the deal passes on too.", paths
    return (f"After {', '.join(passes[:-1]) + ' or ' if len(passes) > 1 else ''}{passes[-1]} the deal passes "
            "on; after any other hand that is not scored the same dealer deals again."), paths


def _annul(rs: Ruleset) -> Iterator[Line]:
    a = rs.annul
    if a.one_hand_holds_all_of is not None:
        n = len(rs.deck.suits) * rs.deck.copies
        rank = _PLURAL[a.one_hand_holds_all_of]
        yield f"A player holds all {_NUMBERS.get(n, str(n))} {rank} after the full deal.", (
            _p("annul", "one_hand_holds_all_of"),)
    if a.bidding_team_held_all_trumps:
        who = "the bidder" if rs.table.bidder_plays_alone else "the bidding team"
        if a.held_all_trumps_checked == "at_end":
            text = f"At the end, {who} turns out to have held every trump."
        else:
            text = f"Once every step is done, before the first lead: {who} was dealt every trump."
            if any(c.trumps == "first_card_led" for c in rs.special.contracts):
                text += (" In a special contract whose trump is the first card led, this is checked as that card "
                         "is led.")
        yield text, (_p("annul", "bidding_team_held_all_trumps"), _p("annul", "held_all_trumps_checked"))
    if a.trump_never_exposed:
        yield "The trump is never exposed.", (_p("annul", "trump_never_exposed"),)
    if a.pointless_hand_may_redeal:
        yield "A player whose cards carry no points after the full deal shows them and asks for a new deal.", (
            _p("annul", "pointless_hand_may_redeal"),)


SECTIONS = (("Players and teams", _table), ("Cards and points", _deck), ("Deal", _schedule),
            ("Auction", _auction), ("Trump", _trump), ("Play", _play), ("Raise", _raise),
            ("Second auction", _second_auction), ("Special contracts", _special), ("Melds", combination_lines),
            ("Scoring", _scoring),
            ("Match", _match), ("Annulled hands (no score; who deals next: see Match)", _annul))


def _origin_note(report: Report, paths: tuple[KeyPath, ...]) -> str:
    notes: list[str] = []
    for path in paths:
        o = report.origins.get(path)
        note = f"{o.file}:{o.key_line or o.line}" if o else "default"
        if note not in notes:
            notes.append(note)
    return f"  [{', '.join(notes)}]" if notes else ""


def show(report: Report, origin: bool = False) -> str:
    rs = report.ruleset
    assert rs is not None
    out = _heading(report, rs)
    for title, section in SECTIONS:
        if rs.table.bidder_plays_alone and section is _table:
            title = "Players"
        lines = list(section(rs))
        if lines:
            out += ["", title]
            out += [f"  {text}" + (_origin_note(report, paths) if origin else "") for text, paths in lines]
    return "\n".join(out) + "\n"


def _heading(report: Report, rs: Ruleset) -> list[str]:
    """The name and description, the files it is built from, its sources and notes."""
    out = [f"{rs.name}: {one_line(rs.description)}"]
    if len(report.chain) > 1:
        out.append("Built from: " + " <- ".join(one_line(f) for f in report.chain))
    out.extend(f"Source: {one_line(s)}" for s in rs.sources)
    out.extend(f"Note: {one_line(n)}" for n in rs.notes)
    return out


# ---------------------------------------------------------------------------------------------- diff
def _flow(value: Any) -> str:
    """A compact, YAML-like rendering of a value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    return str(value)


def _changes(a: Any, b: Any, path: str, out: list[str]) -> None:
    """Walk both sides; a mapping on both sides is compared key by key, anything else as a whole."""
    if isinstance(a, dict) and isinstance(b, dict):
        _map_changes(a, b, path, out)
    elif a != b:
        out.append(f"{path}: {_flow(a)} -> {_flow(b)}")


def _map_changes(a: dict[str, Any], b: dict[str, Any], path: str, out: list[str]) -> None:
    for key in list(a) + [k for k in b if k not in a]:
        sub = f"{path}.{key}" if path else str(key)
        if key not in a or key not in b:
            old = _flow(a[key]) if key in a else "(not set)"
            new = _flow(b[key]) if key in b else "(not set)"
            out.append(f"{sub}: {old} -> {new}")
        else:
            _changes(a[key], b[key], sub, out)


def rules_data(rs: Ruleset) -> dict[str, Any]:
    """The resolved rules as plain data with every default filled in, metadata left out."""
    data = rs.model_dump(mode="json", by_alias=True)
    for key in METADATA:
        data.pop(key, None)
    return data


def diff(a: Ruleset, b: Ruleset) -> list[str]:
    """`path: old -> new` for every rule that differs between two resolved rulesets."""
    out: list[str] = []
    _changes(rules_data(a), rules_data(b), "", out)
    return out
