"""Resolved rules as text a player can hold against their table (`show`), and `diff` between two rulesets.

Every sentence is built from the values it states and remembers their paths, so `show --origin` can say which
file of an `extends` chain set them ("default" when no file did).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.rules.checks import cards_per_player, deck_size, total_points
from engine.rules.load import Report
from engine.rules.model import Ruleset
from engine.rules.yamlpos import KeyPath

Line = tuple[str, tuple[KeyPath, ...]]
METADATA = ("schema_version", "name", "extends", "description", "sources", "notes")
_STEP = {"auction": "Auction.", "trump": "The bidder chooses the trump.",
         "raise": "The bidding team may raise the contract."}
_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight"}
_PLURAL = {"J": "Jacks", "9": "Nines", "A": "Aces", "T": "Tens", "K": "Kings", "Q": "Queens", "8": "Eights",
           "7": "Sevens", "6": "Sixes", "5": "Fives", "4": "Fours", "3": "Threes", "2": "Twos"}


def _p(*parts: str | int) -> KeyPath:
    return tuple(parts)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _seats(team: list[int]) -> str:
    return "+".join(str(s) for s in team)


# ---------------------------------------------------------------------------------------------- show
def _table(rs: Ruleset) -> Iterator[Line]:
    t = rs.table
    way = "counter-clockwise" if t.direction == "counterclockwise" else "clockwise"
    yield f"{t.players} players; play goes {way} (seat 1 plays after seat 0).", (_p("table", "players"),
                                                                                   _p("table", "direction"))
    if t.bidder_plays_alone:
        yield "The final bidder plays alone against all the others; scores are kept per player.", (
            _p("table", "bidder_plays_alone"),)
    else:
        teams = " against ".join(_seats(team) for team in t.teams)
        yield f"Teams (seats): {teams}.", (_p("table", "teams"),)
    leader = "the player after the dealer (first hand)" if t.first_lead == "first_hand" else "the bidder"
    yield f"The first trick is led by {leader}.", (_p("table", "first_lead"),)


def _deck(rs: Ruleset) -> Iterator[Line]:
    d = rs.deck
    copies = " (two copies of each card)" if d.copies == 2 else ""
    yield (f"{deck_size(rs)} cards{copies}: ranks {' '.join(d.ranks)} from high to low, "
           f"suits {' '.join(d.suits)}."), (_p("deck", "ranks"), _p("deck", "suits"), _p("deck", "copies"))
    points = ", ".join(f"{r} {v}" for r, v in d.points.items() if v)
    yield f"Card points: {points}; other ranks 0.", (_p("deck", "points"),)
    if d.last_trick_bonus:
        yield f"Winning the last trick is worth {d.last_trick_bonus} more.", (_p("deck", "last_trick_bonus"),)
    yield f"{total_points(rs)} points in all.", (_p("deck", "points"), _p("deck", "last_trick_bonus"))
    for g, group in enumerate(d.rank_ties):
        yield f"{' and '.join(group)} rank equal: of two in one trick the first played wins.", (
            _p("deck", "rank_ties", g),)
    if d.copies == 2:
        yield "Of two identical cards in one trick the first played wins.", (_p("deck", "copies"),)


def _schedule(rs: Ruleset) -> Iterator[Line]:
    for i, step in enumerate(rs.schedule):
        text = _STEP[step] if isinstance(step, str) else f"Deal {step.deal} cards to each player."
        yield f"{i + 1}. {text}", (_p("schedule", i),)
    yield f"Each player holds {cards_per_player(rs)} cards; every card is dealt.", (_p("schedule"),)


def _auction(rs: Ruleset) -> Iterator[Line]:
    a = rs.auction
    step = f" in steps of {a.bids.step}" if a.bids.step != 1 else ""
    yield f"Bids from {a.bids.min} to {a.bids.max}{step}, each higher than the last.", (
        _p("auction", "bids"),)
    if a.hold:
        yield ("A player who spoke earlier in the round may hold: bid the same as a later player's bid."), (
            _p("auction", "hold"),)
    if a.ends_at_max_bid:
        yield f"A bid of {a.bids.max} ends the auction at once.", (_p("auction", "ends_at_max_bid"),)
    if rs.trump.chosen == "in_bid":
        nt = " or no-trumps" if rs.trump.no_trumps else ""
        yield f"Every bid names a trump suit{nt}.", (_p("trump", "chosen"), _p("trump", "no_trumps"))
    first = "must bid at their first turn" if a.first_hand_must_bid else "may pass"
    yield f"The first hand speaks first and {first}.", (_p("auction", "first_hand_must_bid"),)
    final = "A player who passes may not bid again." if a.pass_is_final else (
        "A player who passed may bid again later.")
    yield final, (_p("auction", "pass_is_final"),)
    yield "The auction ends when every other player has passed in a row after a bid.", ()
    if a.if_all_pass == "redeal":
        yield "If everybody passes, the hand is dealt again.", (_p("auction", "if_all_pass"),)
    else:
        forced = a.bids.min if a.dealer_forced_bid is None else a.dealer_forced_bid
        yield f"If everybody passes, the dealer must bid {forced}, which ends the auction.", (
            _p("auction", "if_all_pass"), _p("auction", "dealer_forced_bid"))
    po = a.partner_overcall
    if po is not None and (po.forbidden or po.min is not None):
        when = " when the player who spoke just before you passed" if po.only_after_a_pass else ""
        what = "is not allowed" if po.forbidden else f"needs at least {po.min}"
        yield f"Overbidding your own partner's standing bid {what}{when}.", (_p("auction", "partner_overcall"),)
    if a.second_bid_min is not None:
        yield f"A player's second and later bids must be at least {a.second_bid_min}.", (
            _p("auction", "second_bid_min"),)
    if a.one_suit_hand_may_not_bid != "nobody":
        who = "The first hand" if a.one_suit_hand_may_not_bid == "first_hand" else "Nobody"
        yield f"{who} may bid while holding cards of one suit only" + (
            "." if who == "Nobody" else " - they may not."), (_p("auction", "one_suit_hand_may_not_bid"),)
    r = a.pointless_redeal
    if r is not None:
        who = "The first hand" if r.seats == 1 else f"Each of the first {r.seats} players"
        how = "the hand is dealt again automatically" if r.automatic else "may ask for a new deal"
        yield f"{who}, if their first cards carry no points: {how}.", (_p("auction", "pointless_redeal"),)


def _trump(rs: Ruleset) -> Iterator[Line]:
    t = rs.trump
    paths = (_p("trump", "chosen"), _p("trump", "declared_as"), _p("trump", "concealed"))
    if t.chosen == "in_bid":
        nt = "; after a no-trumps bid the highest card of the led suit wins" if t.no_trumps else ""
        yield f"The final bid's suit is trump, known to all from the first lead{nt}.", paths
    elif t.no_trumps:
        yield "The final bidder may choose no-trumps instead of a suit (`trump NT`).", (_p("trump", "no_trumps"),)
    elif not t.concealed:
        yield "The final bidder announces the trump suit face up; trumps count from the first trick.", paths
    elif t.declared_as == "card":
        yield ("The final bidder lays a card of the trump suit face down (the indicator); it is not part of "
               "their hand until the trump is exposed."), paths
    else:
        yield "The final bidder names the trump suit secretly and keeps all their cards.", paths
    if t.seventh_card:
        yield "The bidder may instead take the seventh card dealt to them as the indicator.", (
            _p("trump", "seventh_card"),)
    if t.no_trumps and t.no_trumps_ranking == "reversed":
        order = " ".join(reversed(rs.deck.ranks))
        yield f"In a no-trumps hand the ranks run the other way: {order} from high to low.", (
            _p("trump", "no_trumps_ranking"),)


def _play(rs: Ruleset) -> Iterator[Line]:
    yield "Follow suit if you can; otherwise play any card. Nobody is obliged to trump.", ()
    yield "The highest trump wins the trick, else the highest card of the suit led.", ()
    if rs.trump.concealed:
        yield from _concealed(rs)
    seen = "led" if rs.play.suit_counts_as_led_when == "led" else "played (led or thrown)"
    for i, rank in enumerate(rs.play.no_discard_before_suit_led):
        yield (f"A void player may not discard a {rank} of a suit not yet {seen} (trumping with it is "
               "allowed)."), (_p("play", "no_discard_before_suit_led", i), _p("play", "suit_counts_as_led_when"))
    if rs.play.must_not_undertrump:
        yield ("A player who cannot follow may not play a trump lower than one already in the trick, unless "
               "holding nothing else."), (_p("play", "must_not_undertrump"),)


def _concealed(rs: Ruleset) -> Iterator[Line]:
    r, b = rs.play.reveal, rs.play.bidder_while_concealed
    rv = ("play", "reveal")
    if r.call == "optional":
        yield "While the trump is concealed, a player who cannot follow suit may call for it.", (
            _p(*rv, "call"),)
    else:
        yield "While the trump is concealed, the first player who cannot follow suit must call for it.", (
            _p(*rv, "call"),)
    must = "must play a trump if they hold one" if r.caller_must_trump else "need not trump"
    yield f"Once it is exposed, the caller {must}.", (_p(*rv, "caller_must_trump"),)
    retro = "count as trumps" if r.retroactive else "do not count as trumps"
    yield f"Trump-suit cards played to the trick before the exposure {retro}.", (_p(*rv, "retroactive"),)
    if rs.trump.declared_as == "card" and r.last_trick_forces_exposure:
        yield "A concealed indicator is the bidder's last card: it is exposed as it is played.", (
            _p(*rv, "last_trick_forces_exposure"),)
    bw = ("play", "bidder_while_concealed")
    if b.lead_trump_suit == "only_when_nothing_else":
        yield ("The bidder may not lead the trump suit while holding other suits (such a forced lead has no "
               "trump power and does not expose the trump)."), (_p(*bw, "lead_trump_suit"),)
    led = {"follow_or_discard": "the bidder follows from hand or discards, and may not call",
           "may_call_and_play_indicator": "the bidder may call and play the indicator",
           "must_call": "the bidder, unable to follow from hand, must expose the trump"}
    yield f"When another player leads the trump suit, {led[b.when_trump_suit_led]}.", (
        _p(*bw, "when_trump_suit_led"),)
    void = {"discard_plain_or_call_and_play_indicator":
            "discard a card of another plain suit, or call and play the indicator",
            "discard_any_or_call_and_play_any_trump": "discard any card, or call and play any trump",
            "discard_any_or_call_and_play_indicator":
            "discard any card (a trump-suit card has no trump power), or call and play the indicator"}
    yield f"A bidder void in a plain suit that is led may {void[b.void_in_plain_suit]}.", (
        _p(*bw, "void_in_plain_suit"),)


def _raise(rs: Ruleset) -> Iterator[Line]:
    if rs.raise_ is None:
        return
    who = ", then ".join("the bidder" if w == "bidder" else "the bidder's partner" for w in rs.raise_.by)
    yield (f"After the full deal {who} may each raise once, to at least {rs.raise_.min} and above the "
           "standing bid."), (_p("raise"),)
    if rs.raise_.others_may_raise:
        yield ("Then every other player in turn may raise too; a player of another team who raises highest "
               "becomes the bidder and chooses a new trump."), (_p("raise", "others_may_raise"),)


def _special(rs: Ruleset) -> Iterator[Line]:
    s = rs.special
    if s.pair is not None:
        yield from _pair(rs)
    for i, c in enumerate(s.contracts):
        who = "The bidder" if c.who == "bidder" else "Any player"
        partner = "their partner's cards are laid aside" if c.partner == "sits_out" else "their partner plays"
        trumps = "without trumps" if c.trumps == "none" else "with the chosen trump"
        yield (f"{c.name} (`declare {c.name}`): {who} may play to win every trick, after the full deal, "
               f"{trumps}; {partner}; made {_signed(c.made)}, failed {_signed(c.failed)}."), (
            _p("special", "contracts", i),)
    if s.all_tricks is not None:
        yield f"Winning every trick multiplies the score by {s.all_tricks.multiplier}.", (
            _p("special", "all_tricks"),)
        if s.all_tricks.surrender is not None:
            m = s.all_tricks.surrender.refused_loss_multiplier
            yield (f"The opponents may offer to surrender; if refused, a lost trick costs the bidders {m} "
                   "times."), (_p("special", "all_tricks", "surrender"),)
    if s.doubling is not None:
        yield from _doubling(rs)


def _pair(rs: Ruleset) -> Iterator[Line]:
    pair = rs.special.pair
    assert pair is not None
    needs = [w for w, on in (("the trump is exposed", pair.needs_trump_exposed),
                             ("their team has won a trick", pair.needs_won_trick and not pair.right_after_winning),
                             ("their team won the trick just played", pair.right_after_winning)) if on]
    when = f" once {' and '.join(needs)}" if needs else ""
    yield (f"Pair: a player holding {' and '.join(pair.ranks)} of trumps may show them at their turn"
           f"{when}."), (_p("special", "pair", "ranks"),)
    for i, band in enumerate(pair.bidding_team):
        lo, hi = band.bids
        effect = "no pair" if band.adjust is None else f"target {_signed(band.adjust)}"
        yield f"Shown by the bidding team at bids {lo}-{hi}: {effect}.", (
            _p("special", "pair", "bidding_team", i),)
    yield f"Shown by an opponent: target {_signed(pair.opponents)}.", (_p("special", "pair", "opponents"),)
    lo, hi = pair.target_bounds or (rs.auction.bids.min, rs.auction.bids.max)
    yield f"The target stays within {lo}-{hi}.", (_p("special", "pair", "target_bounds"),)


def _doubling(rs: Ruleset) -> Iterator[Line]:
    d = rs.special.doubling
    assert d is not None
    steps = ", then ".join(f"{'an opponent' if st.by == 'opponents' else 'the bidding team'} may {st.name} "
                           f"(x{st.multiplier})" for st in d.steps)
    yield f"After the trump is chosen, {steps}.", (_p("special", "doubling", "steps"),)
    if d.auto_double is not None:
        yield (f"Bids of {d.auto_double.from_bid} or more are worth x{d.auto_double.multiplier} from the "
               "start."), (_p("special", "doubling", "auto_double"),)
    if d.cap is not None:
        yield f"The multiplier never goes above x{d.cap}.", (_p("special", "doubling", "cap"),)
    if d.fixed_stake is not None:
        f = d.fixed_stake
        cond = " when no match points are showing" if f.needs_no_score_showing else ""
        yield (f"After a double, the bidding team may say {f.name}{cond}: the hand is then worth {f.value} "
               "either way."), (_p("special", "doubling", "fixed_stake"),)


def _scoring(rs: Ruleset) -> Iterator[Line]:
    sc = rs.scoring
    how = {"bidding_team": "Only the bidding team's score moves: made adds, failed subtracts.",
           "opponents_credited": "Made: the bidders score; failed: the opponents score that much.",
           "exchange": "The losing side pays the winning side."}
    yield how[sc.method], (_p("scoring", "method"),)
    for i, band in enumerate(sc.bands):
        lo, hi = band.bids
        bids = f"Bid {lo}" if lo == hi else f"Bids {lo}-{hi}"
        yield f"{bids}: made {_signed(band.made)}, failed {_signed(band.failed)}.", (
            _p("scoring", "bands", i),)
    if sc.below_half_loss_multiplier > 1:
        yield (f"Taking less than half the bid multiplies the loss by {sc.below_half_loss_multiplier}."), (
            _p("scoring", "below_half_loss_multiplier"),)


def _match(rs: Ruleset) -> Iterator[Line]:
    m = rs.match
    yield f"Every team starts at {m.start}.", (_p("match", "start"),)
    if m.win_at is not None:
        yield f"A team reaching {m.win_at} wins the match.", (_p("match", "win_at"),)
    if m.lose_at is not None:
        yield f"A team at {m.lose_at} or below loses the match.", (_p("match", "lose_at"),)


def _annul(rs: Ruleset) -> Iterator[Line]:
    a = rs.annul
    if a.one_hand_holds_all_of is not None:
        n = len(rs.deck.suits) * rs.deck.copies
        rank = _PLURAL[a.one_hand_holds_all_of]
        yield f"A player holds all {_NUMBERS.get(n, str(n))} {rank} after the full deal.", (
            _p("annul", "one_hand_holds_all_of"),)
    if a.bidding_team_held_all_trumps:
        yield "At the end, the bidding team turns out to have held every trump.", (
            _p("annul", "bidding_team_held_all_trumps"),)
    if a.trump_never_exposed:
        yield "The trump is never exposed.", (_p("annul", "trump_never_exposed"),)
    if a.pointless_hand_may_redeal:
        yield "A player whose cards carry no points after the full deal asks for it.", (
            _p("annul", "pointless_hand_may_redeal"),)


SECTIONS = (("Players and teams", _table), ("Cards and points", _deck), ("Deal", _schedule),
            ("Auction", _auction), ("Trump", _trump), ("Play", _play), ("Raise", _raise),
            ("Special contracts", _special), ("Scoring", _scoring), ("Match", _match),
            ("Annulled hands (no score; the same dealer deals again)", _annul))


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
    out = [f"{rs.name}: {rs.description}"]
    if len(report.chain) > 1:
        out.append("Built from: " + " <- ".join(report.chain))
    out.extend(f"Source: {s}" for s in rs.sources)
    out.extend(f"Note: {n}" for n in rs.notes)
    for title, section in SECTIONS:
        lines = list(section(rs))
        if not lines:
            continue
        out += ["", title]
        out += [f"  {text}" + (_origin_note(report, paths) if origin else "") for text, paths in lines]
    return "\n".join(out) + "\n"


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
        for key in list(a) + [k for k in b if k not in a]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in a or key not in b:
                old = _flow(a[key]) if key in a else "(not set)"
                new = _flow(b[key]) if key in b else "(not set)"
                out.append(f"{sub}: {old} -> {new}")
            else:
                _changes(a[key], b[key], sub, out)
    elif a != b:
        out.append(f"{path}: {_flow(a)} -> {_flow(b)}")


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
