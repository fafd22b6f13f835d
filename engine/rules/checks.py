"""Checks across fields that the models alone cannot express, one small function each.

Each check yields `Finding`s: the path that holds the problem, a message, and the other paths the finding
read (`depends`). The loader turns the path into the file, line and column that set the value, or, when that
value was inherited and a dependency was set further down the `extends` chain, into the place of that
dependency. Checks run only on a Ruleset that the models accepted, so types are already right.

Some checks bound the size of a game: the engine builds tables per player, per bid and per card, so a file
that multiplies those beyond what any game of the family needs is refused before anything is built.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from engine.play.rules import SEVENTH_CARD
from engine.rules.checks_ranks import ranks_of_the_deck
from engine.rules.messages import Finding
from engine.rules.model import (
    Band,
    BidRange,
    ChooseTrumpStep,
    Claim,
    Complete,
    CompleteStep,
    DealStep,
    Doubling,
    PairBand,
    Ruleset,
    ScheduleStep,
    SpecialContract,
    StepName,
    TakeOrPass,
    TakeOrPassStep,
    TrumpOpening,
    TurnUpStep,
)
from engine.rules.yamlpos import KeyPath, dotted

Check = Callable[[Ruleset], Iterator[Finding]]

# Bounds on what multiplies (the family's largest shipped files: 15 bids in tens from 160, eight players, bids
# naming one of 5 trumps). The deck needs none beyond its types (4 suits x 13 ranks x 2 copies): the
# engine's tables grow with the cards, never with the holdings of a suit.
MAX_BIDS = 500
MAX_BID_ACTIONS = 10_000  # players x bids x trump choices named in a bid

# The paths checks depend on, named once.
PLAYERS = ("table", "players")
TEAMS = ("table", "teams")
ALONE = ("table", "bidder_plays_alone")
SUITS, RANKS, COPIES = ("deck", "suits"), ("deck", "ranks"), ("deck", "copies")
POINTS, BONUS = ("deck", "points"), ("deck", "last_trick_bonus")
CAPTURES = ("special", "capture_bonuses")
SCHEDULE = ("schedule",)
BID_MIN, BID_MAX, BID_STEP = ("auction", "bids", "min"), ("auction", "bids", "max"), ("auction", "bids", "step")
BID_RANGE = (BID_MIN, BID_MAX)
CHOSEN, DECLARED, CONCEALED = ("trump", "chosen"), ("trump", "declared_as"), ("trump", "concealed")
NO_TRUMPS, SEVENTH = ("trump", "no_trumps"), ("trump", "seventh_card")
RAISE = ("raise",)
SECOND = ("second_auction",)
DECK_POINTS = (SUITS, RANKS, COPIES, POINTS, BONUS, CAPTURES, ("deck", "trump_points"), ("trump", "modes"))
DECK_SIZE = (SUITS, RANKS, COPIES)


def bonus_points(rs: Ruleset) -> int:
    """Every per-hand bonus together: what a hand's tricks are worth beyond their cards' points. The one sum of
    the bonuses: `validate` and `show` count it here, and the compile step hands it to `Game.points_per_hand`,
    which bots, encodings and tools read. A new per-hand bonus is added here (and its path to DECK_POINTS).
    Capture bonuses in card points count (a transfer moves points between the sides and adds none)."""
    return rs.deck.last_trick_bonus + sum(b.amount for b in rs.special.capture_bonuses
                                          if b.unit == "card_points" and b.kind == "bonus")


def total_points(rs: Ruleset) -> int:
    """Card points in the whole deck plus every bonus: the most a contract can ask for (where the trump suit or a
    trump mode counts apart, the largest total over the trump choices)."""
    deck = rs.deck
    ranks = set(deck.ranks)
    suits, copies = len(deck.suits), deck.copies
    plain = sum(deck.points.get(r, 0) for r in ranks)
    totals = [plain * suits * copies]
    if deck.trump_points is not None:
        trump = sum(deck.trump_points.get(r, 0) for r in ranks)
        totals.append((plain * (suits - 1) + trump) * copies)
    totals.extend(sum(md.points.get(r, 0) for r in ranks) * suits * copies for md in rs.trump.modes)
    return max(totals) + bonus_points(rs)


def deck_size(rs: Ruleset) -> int:
    return len(rs.deck.suits) * len(rs.deck.ranks) * rs.deck.copies


def dealt_per_player(rs: Ruleset) -> int:
    """Cards each player receives from the deal steps (a turned-card game completes the hands later)."""
    return sum(step.deal for step in rs.schedule if isinstance(step, DealStep))


def complete_step(rs: Ruleset) -> Complete | None:
    return next((s.complete for s in rs.schedule if isinstance(s, CompleteStep)), None)


def cards_per_player(rs: Ruleset) -> int:
    """Cards each player holds once the deal is complete."""
    c = complete_step(rs)
    return dealt_per_player(rs) + (0 if c is None else c.others)


def step_name(step: ScheduleStep) -> str:
    """A schedule step's name: the word, or the mapping step's key (`deal` for a packet)."""
    if isinstance(step, str):
        return step
    if isinstance(step, DealStep):
        return "deal"
    if isinstance(step, CompleteStep):
        return "complete"
    if isinstance(step, TakeOrPassStep):
        return "take_or_pass"
    if isinstance(step, TurnUpStep):
        return "turn_up"
    return "choose_trump"


def cards_used(rs: Ruleset) -> int:
    """Cards the deal gives out in all (the turned card counted where the taker picks it up)."""
    n = rs.table.players
    c = complete_step(rs)
    extra = 0 if c is None else c.taker + (n - 1) * c.others + (1 if c.turned_to_taker else 0)
    return n * dealt_per_player(rs) + extra


def cards_before(rs: Ruleset, step: StepName) -> int | None:
    """Cards each player holds when `step` comes (None: no such step)."""
    held = 0
    for s in rs.schedule:
        if s == step:
            return held
        if isinstance(s, DealStep):
            held += s.deal
    return None


def bid_count(rs: Ruleset) -> int:
    """How many different bids there are: min, min + step, ... up to max, and the extra ones."""
    bids = rs.auction.bids
    return ((bids.max - bids.min) // bids.step + 1 if bids.min <= bids.max else 0) + len(bids.extra)


def auction_values(rs: Ruleset) -> list[int]:
    """Every bid of the first auction, in increasing order: min to max on the step, then the extra bids; a default
    bidder's standing 0 first."""
    bids = rs.auction.bids
    zero = [0] if rs.auction.default_bidder is not None and bids.min > 0 else []
    return zero + list(range(bids.min, bids.max + 1, bids.step)) + list(bids.extra)


def round_values(rs: Ruleset) -> dict[int, list[int]]:
    """The bids that can fix a contract, by round of bidding: the first auction's, and those of the second
    auction or of the raise (the auction's bids from the raise minimum up)."""
    out = {1: auction_values(rs)}
    sa = rs.second_auction
    if sa is not None:
        out[2] = list(range(sa.bids.min, sa.bids.max + 1, sa.bids.step)) + list(sa.bids.extra)
    elif rs.raise_ is not None:
        out[2] = [v for v in out[1] if v >= rs.raise_.min and v > 0]
    return out


def has_indicator_card(rs: Ruleset) -> bool:
    """A concealed card marks the trump: laid from hand, or the seventh card."""
    t = rs.trump
    return t.concealed and t.chosen == "after_auction" and (t.declared_as == "card" or t.seventh_card)


def top_bid(rs: Ruleset) -> int:
    """The highest bid of the first auction (an extra bid above max, if any)."""
    bids = rs.auction.bids
    return max([bids.max, *bids.extra])


def _in_bids(rs: Ruleset, value: int) -> bool:
    return rs.auction.bids.min <= value <= top_bid(rs)


def _bid_range(rs: Ruleset) -> str:
    return f"{rs.auction.bids.min}-{top_bid(rs)}"


def _bids(lo: int, hi: int) -> str:
    return f"bid {lo} is" if lo == hi else f"bids {lo}-{hi} are"


def _range_ok(rs: Ruleset) -> bool:
    """Checks that measure against the bid range wait until the range itself is sound."""
    return rs.auction.bids.min <= rs.auction.bids.max


def _alone(rs: Ruleset) -> bool:
    return rs.table.bidder_plays_alone or all(len(t) == 1 for t in rs.table.teams)


# ------------------------------------------------------------------------------------------- table
def teams_partition_seats(rs: Ruleset) -> Iterator[Finding]:
    n = rs.table.players
    seen: Counter[int] = Counter()
    for t, team in enumerate(rs.table.teams):
        if not team:
            yield Finding((*TEAMS, t), "a team needs at least one seat")
        for s, seat in enumerate(team):
            if seat >= n:
                yield Finding((*TEAMS, t, s), f"seat {seat} is not at the table (players: {n} means seats "
                              f"0-{n - 1})", depends=(PLAYERS,))
            elif seen[seat]:
                yield Finding((*TEAMS, t, s), f"seat {seat} is in more than one team")
            seen[seat] += 1
    missing = [str(s) for s in range(n) if not seen[s]]
    if missing:
        yield Finding(TEAMS, f"seat(s) {', '.join(missing)} in no team; every seat is in one", depends=(PLAYERS,))
    if len(rs.table.teams) < 2:
        yield Finding(TEAMS, "at least two teams are needed")


def lone_bidder_sits_alone(rs: Ruleset) -> Iterator[Finding]:
    if rs.table.bidder_plays_alone and any(len(team) != 1 for team in rs.table.teams):
        yield Finding(ALONE, "with bidder_plays_alone every seat is a team of its own, e.g. [[0], [1], [2]]",
                      depends=(TEAMS,))


# -------------------------------------------------------------------------------------------- deck
def deck_names_unique(rs: Ruleset) -> Iterator[Finding]:
    """The deck's suits, each once (its ranks, and every other rank list, are engine/rules/checks_ranks.py's)."""
    for i, name in enumerate(rs.deck.suits):
        if name in rs.deck.suits[:i]:
            yield Finding(("deck", "suits", i), f"{name} is listed twice")


def rank_ties_are_groups(rs: Ruleset) -> Iterator[Finding]:
    seen: set[str] = set()
    for g, group in enumerate(rs.deck.rank_ties):
        if len(set(group)) < 2:
            yield Finding(("deck", "rank_ties", g), "a tie needs at least two different ranks")
        for i, r in enumerate(group):
            if r in seen:
                yield Finding(("deck", "rank_ties", g, i), f"rank {r} is in more than one tie")
            seen.add(r)


# ------------------------------------------------------------------------------------------ schedule
def deal_fits_deck(rs: Ruleset) -> Iterator[Finding]:
    each, n, size = cards_per_player(rs), rs.table.players, deck_size(rs)
    names = [step_name(x) for x in rs.schedule]
    if "complete" in names or "turn_up" in names or "stock" in names:
        yield from _stock_fits(rs, names)
        return
    if each * n != size:
        deck = rs.deck
        yield Finding(SCHEDULE,
                      f"the deal gives {n} players {each} cards each ({each * n} cards) but the deck has "
                      f"{size} ({len(deck.suits)} suits x {len(deck.ranks)} ranks x {deck.copies} "
                      f"{'copy' if deck.copies == 1 else 'copies'}); "
                      "every card is dealt", depends=(PLAYERS, *DECK_SIZE))


def _stock_fits(rs: Ruleset, names: list[str]) -> Iterator[Finding]:
    """A deal with a turned card or a stock: what it gives out fits the deck, and the hands come out equal."""
    size, used = deck_size(rs), cards_used(rs)
    c = complete_step(rs)
    if c is not None:
        yield from _hands_come_out_equal(c, names.index("complete"))
    given = used + (_turned_from_stock(rs, names) if c is None or not c.turned_to_taker else 0)
    if given + (1 if c is not None and c.show_bottom else 0) > size:
        yield Finding(SCHEDULE, f"the deal needs {given} cards (the turned card included) but the deck has {size}",
                      depends=(PLAYERS, *DECK_SIZE))
    elif used < size and "stock" not in names:
        yield Finding(SCHEDULE, f"the deal gives out {used} of the deck's {size} cards: say `stock` in the schedule "
                      "to leave the rest undealt", depends=(PLAYERS, *DECK_SIZE), hint=" (add the step: - stock)")


def _turned_from_stock(rs: Ruleset, names: list[str]) -> int:
    """1 when a turn_up step turns the stock's next card (not the dealer's own)."""
    turn = next((x.turn_up for x in rs.schedule if isinstance(x, TurnUpStep)), None)
    return 1 if "turn_up" in names and (turn is None or turn.card == "stock") else 0


def _hands_come_out_equal(c: Complete, at: int) -> Iterator[Finding]:
    """The complete step gives the taker (the turned card counted) as many cards as each other player."""
    taker = c.taker + (1 if c.turned_to_taker else 0)
    if taker != c.others:
        yield Finding((*SCHEDULE, at, "complete"), f"the taker would receive {taker} cards"
                      f"{' (the turned card and ' + str(c.taker) + ' more)' if c.turned_to_taker else ''} and "
                      f"each other player {c.others}: the hands must come out equal",
                      hint=f" (e.g. taker: {c.others - 1 if c.turned_to_taker else c.others})")


def _deal_procedure_steps(rs: Ruleset, at: dict[str, int]) -> Iterator[Finding]:
    """The turned card, take or pass, complete, choose_trump, exchange: each where it can work."""
    yield from _trump_fixing_steps(at)
    yield from _turned_card_steps(rs, at)
    yield from _deal_step_options(rs, at)
    ff = rs.table.first_forehand
    if ff is not None:
        card = ff.holder_of.replace("10", "T")
        if card[:-1] not in rs.deck.ranks or card[-1] not in rs.deck.suits:
            yield Finding(("table", "first_forehand", "holder_of"), f"{ff.holder_of} is not a card of the deck",
                          depends=DECK_SIZE)


def _trump_fixing_steps(at: dict[str, int]) -> Iterator[Finding]:
    """One way of fixing the trump: an auction, take_or_pass or choose_trump."""
    for name in ("take_or_pass", "choose_trump"):
        if name in at and "auction" in at:
            yield Finding((*SCHEDULE, at[name]), f"{name} and auction are two ways of fixing the trump: keep one",
                          fix="also override schedule (without auction)")
    if "take_or_pass" in at and "choose_trump" in at:
        yield Finding((*SCHEDULE, at["choose_trump"]), "take_or_pass and choose_trump both fix the trump: keep one")


def _turned_card_steps(rs: Ruleset, at: dict[str, int]) -> Iterator[Finding]:
    """The order of the steps around the turned card: turn_up, take_or_pass, complete, exchange_low_trump."""
    deals = [i for i, x in enumerate(rs.schedule) if isinstance(x, DealStep)]
    if "turn_up" in at and (not deals or at["turn_up"] < deals[0]):
        yield Finding((*SCHEDULE, at["turn_up"]), "turn_up comes after a deal step (the first packets)")
    if "take_or_pass" in at and ("turn_up" not in at or at["take_or_pass"] < at["turn_up"]):
        yield Finding((*SCHEDULE, at["take_or_pass"]), "take_or_pass needs a turn_up step before it (the card "
                      "taken or passed)", hint=" (add - turn_up before it)")
    yield from _steps_after_taking(at, deals)


def _steps_after_taking(at: dict[str, int], deals: list[int]) -> Iterator[Finding]:
    """complete after take_or_pass and last of the deal; exchange_low_trump after the turned card and the trump."""
    if "complete" in at:
        yield from _complete_step_place(at, deals)
    if "exchange_low_trump" in at:
        yield from _exchange_step_place(at)


def _complete_step_place(at: dict[str, int], deals: list[int]) -> Iterator[Finding]:
    if "take_or_pass" not in at or at["complete"] < at["take_or_pass"]:
        yield Finding((*SCHEDULE, at["complete"]), "complete needs a take_or_pass step before it (it deals by "
                      "who took)")
    if deals and deals[-1] > at["complete"]:
        yield Finding((*SCHEDULE, deals[-1]), "no deal step after complete: complete ends the deal")


def _exchange_step_place(at: dict[str, int]) -> Iterator[Finding]:
    fixed = [at[x] for x in ("take_or_pass", "choose_trump", "auction") if x in at]
    if "turn_up" not in at:
        yield Finding((*SCHEDULE, at["exchange_low_trump"]), "exchange_low_trump needs a turn_up step (the card "
                      "the lowest trump is exchanged for)", hint=" (add - turn_up after the first packets)")
    elif not fixed or at["exchange_low_trump"] < max(fixed):
        yield Finding((*SCHEDULE, at["exchange_low_trump"]), "exchange_low_trump comes after the trump is fixed")


def _deal_step_options(rs: Ruleset, at: dict[str, int]) -> Iterator[Finding]:
    """The options of the steps: schmeiss, the dealer's own turned card, the dealer's choice, the push."""
    top = next((x.take_or_pass for x in rs.schedule if isinstance(x, TakeOrPassStep)), None)
    if top is not None and top.schmeiss and rs.table.players != 2:
        yield Finding((*SCHEDULE, at["take_or_pass"], "take_or_pass", "schmeiss"), "schmeiss is an offer to the "
                      "one other player: only with two players", depends=(PLAYERS,))
    yield from _dealers_own_turned_card(rs, at)
    yield from _deal_step_choices(rs, at, top)


def _dealers_own_turned_card(rs: Ruleset, at: dict[str, int]) -> Iterator[Finding]:
    """complete and exchange_low_trump need the turned card of the stock, not the dealer's own."""
    turn = next((x.turn_up for x in rs.schedule if isinstance(x, TurnUpStep)), None)
    step = next((x for x in ("complete", "exchange_low_trump") if x in at), None)
    if turn is not None and turn.card == "dealer_last" and step is not None:
        yield Finding((*SCHEDULE, at[step]), f"{step} works with a turned card of the stock; here the turned card "
                      "is the dealer's own (turn_up: {card: dealer_last})")


def _deal_step_choices(rs: Ruleset, at: dict[str, int], top: TakeOrPass | None) -> Iterator[Finding]:
    """The dealer's choice after all pass, and the push to a partner."""
    if top is not None and top.if_all_pass == "first_hand_names" and top.dealer_must_choose:
        yield Finding((*SCHEDULE, at["take_or_pass"], "take_or_pass", "dealer_must_choose"), "with if_all_pass: "
                      "first_hand_names there is no second round for the dealer to choose in")
    ch = next((x.choose_trump for x in rs.schedule if isinstance(x, ChooseTrumpStep)), None)
    if ch is not None and ch.may_push and any(len(t) != 2 for t in rs.table.teams):
        yield Finding((*SCHEDULE, at["choose_trump"], "choose_trump", "may_push"), "push passes the choice to the "
                      "partner: every team must be two players", depends=(TEAMS,))


def auction_given(rs: Ruleset) -> Iterator[Finding]:
    """An auction step needs the auction section: only files without one may leave it out."""
    if "auction" in rs.schedule and "auction" not in rs.model_fields_set:
        yield Finding(SCHEDULE, "the schedule holds an auction step but the file has no auction section",
                      hint=" (add `auction: {bids: {min: ..., max: ...}}`, or take the auction step out)")


def schedule_steps(rs: Ruleset) -> Iterator[Finding]:
    names: list[tuple[int, str]] = [(i, step_name(s)) for i, s in enumerate(rs.schedule)
                                    if not isinstance(s, DealStep)]
    seen = {name for _, name in names}
    yield from _steps_once(names)
    chooses = "take_or_pass" in seen or "choose_trump" in seen
    if "auction" not in seen and not chooses:
        yield Finding(SCHEDULE, "the schedule needs an auction step (or take_or_pass, or choose_trump)")
    if not rs.schedule or not isinstance(rs.schedule[0], DealStep):
        yield Finding((*SCHEDULE, 0), "the schedule starts with a deal: nobody can bid without cards")
    at = {name: i for i, name in reversed(names)}
    yield from _deal_procedure_steps(rs, at)
    yield from _schedule_trump_step(rs, at, chooses)
    yield from _schedule_sections(rs, at)
    yield from _schedule_late_bidding(rs, at)


def _steps_once(names: list[tuple[int, str]]) -> Iterator[Finding]:
    seen: set[str] = set()
    for i, name in names:
        if name in seen:
            yield Finding((*SCHEDULE, i), f"{name} appears more than once")
        seen.add(name)


def _schedule_trump_step(rs: Ruleset, at: dict[str, int], chooses: bool) -> Iterator[Finding]:
    """A trump step exactly when the trump is chosen after the auction, and after it."""
    wants_trump = rs.trump.chosen == "after_auction" and not chooses
    if wants_trump and "trump" not in at:
        yield Finding(SCHEDULE, "trump.chosen is after_auction, so the schedule needs a trump step",
                      depends=(CHOSEN,), fix="also override schedule (with a trump step after the auction)")
    if not wants_trump and "trump" in at:
        yield Finding((*SCHEDULE, at["trump"]), "no trump step with trump.chosen: in_bid (the bid names it)",
                      depends=(CHOSEN,), fix="also override schedule (without trump)")
    if "trump" in at and "auction" in at and at["trump"] < at["auction"]:
        yield Finding((*SCHEDULE, at["trump"]), "the trump step comes after the auction")


def _schedule_sections(rs: Ruleset, at: dict[str, int]) -> Iterator[Finding]:
    """The raise and second_auction steps go with their sections, and only one of the two."""
    yield from _raise_section(rs, at)
    yield from _second_auction_section(rs, at)
    if "raise" in at and "second_auction" in at:
        yield Finding((*SCHEDULE, at["second_auction"]), "a raise and a second auction are two forms of the one "
                      "round of bidding after the full deal: keep one of them", fix="also set raise: null")


def _raise_section(rs: Ruleset, at: dict[str, int]) -> Iterator[Finding]:
    if rs.raise_ is not None and "raise" not in at:
        yield Finding(RAISE, "there is a raise section but no raise step in the schedule", depends=(SCHEDULE,),
                      fix="also override raise (raise: null)")
    if rs.raise_ is None and "raise" in at:
        yield Finding((*SCHEDULE, at["raise"]), "the schedule has a raise step but there is no raise section",
                      depends=(RAISE,), hint=" (raise: {min: N})", fix="also override schedule (without raise)")


def _second_auction_section(rs: Ruleset, at: dict[str, int]) -> Iterator[Finding]:
    if rs.second_auction is not None and "second_auction" not in at:
        yield Finding(SECOND, "there is a second_auction section but no second_auction step in the schedule",
                      depends=(SCHEDULE,), fix="also override second_auction (second_auction: null)")
    if rs.second_auction is None and "second_auction" in at:
        yield Finding((*SCHEDULE, at["second_auction"]), "the schedule has a second_auction step but there is no "
                      "second_auction section", depends=(SECOND,), hint=" (second_auction: {bids: {min: N, max: M}})",
                      fix="also override schedule (without second_auction)")


def _schedule_late_bidding(rs: Ruleset, at: dict[str, int]) -> Iterator[Finding]:
    """The second auction and the raise come after the auction (and trump step) and the last deal."""
    if "second_auction" in at and at["second_auction"] < _after(rs, at, "auction", "trump"):
        yield Finding((*SCHEDULE, at["second_auction"]), "the second auction comes after the auction, the "
                      "trump step and the last deal")
    if "raise" in at and at["raise"] < _after(rs, at, "auction"):
        yield Finding((*SCHEDULE, at["raise"]), "the raise comes after the auction and the last deal")


def _after(rs: Ruleset, at: dict[str, int], *steps: str) -> int:
    """The latest place among the last deal step and these steps (0 for a step the schedule lacks)."""
    last_deal = max(i for i, s in enumerate(rs.schedule) if isinstance(s, DealStep))
    return max(last_deal, *(at.get(step, 0) for step in steps))


# ------------------------------------------------------------------------------------------- auction
def _range_fits(rs: Ruleset, section: str, bids: BidRange) -> Iterator[Finding]:
    total = total_points(rs)
    lo, hi, step = (section, "bids", "min"), (section, "bids", "max"), (section, "bids", "step")
    if bids.min > bids.max:
        yield Finding(lo, f"the lowest bid {bids.min} is above the top one, {bids.max}", depends=(hi,))
    if bids.max > total:
        yield Finding(hi, f"the highest bid {bids.max} is more than the {total} points in the game "
                      "(card points plus last_trick_bonus)", depends=DECK_POINTS)
    if (bids.max - bids.min) % bids.step:
        yield Finding(step, f"bids go up in steps of {bids.step} from {bids.min}, which never reaches "
                      f"{bids.max}", depends=(lo, hi))
    last = bids.max
    for i, value in enumerate(bids.extra):
        path = (section, "bids", "extra", i)
        if value <= last:
            yield Finding(path, f"{value} is not above {last}: extra bids go above max, each higher than the last",
                          depends=(hi,))
        elif value > total and not _sweep_bid(rs, value):
            yield Finding(path, f"{value} is more than the {total} points in the game", depends=DECK_POINTS)
        last = max(last, value)


def _sweep_bid(rs: Ruleset, value: int) -> bool:
    """A bid to win every trick (banked scoring's all_tricks.bid_from, Coinche's capot at 250): counted at its
    value, which may be above the points in the game."""
    b = rs.scoring.banked
    at = b.all_tricks if b is not None and rs.scoring.method == "banked" else None
    return at is not None and at.bid_from is not None and value >= at.bid_from


def bid_range_fits_points(rs: Ruleset) -> Iterator[Finding]:
    yield from _range_fits(rs, "auction", rs.auction.bids)
    if rs.second_auction is not None:
        yield from _range_fits(rs, "second_auction", rs.second_auction.bids)


def bids_are_bounded(rs: Ruleset) -> Iterator[Finding]:
    bids, count = rs.auction.bids, bid_count(rs)
    if count > MAX_BIDS:
        yield Finding(("auction", "bids"), f"{bids.min}-{bids.max} in steps of {bids.step} is {count} different "
                      f"bids; jacknine allows at most {MAX_BIDS} (use a larger step or a narrower range)")
        return
    choices = len(rs.deck.suits) + rs.trump.no_trumps + len(rs.trump.modes) if rs.trump.chosen == "in_bid" else 1
    actions = rs.table.players * count * choices
    if actions > MAX_BID_ACTIONS:
        named = f" x {choices} trump choices named in a bid" if choices > 1 else ""
        yield Finding(("auction", "bids"), f"{rs.table.players} players x {count} bids{named} make {actions} "
                      f"possible bids; jacknine allows at most {MAX_BID_ACTIONS}",
                      depends=(PLAYERS, CHOSEN, SUITS, NO_TRUMPS, ("trump", "modes")))


def bids_named_in_range(rs: Ruleset) -> Iterator[Finding]:
    """Minimums and thresholds elsewhere are bids, so they lie in the bid range."""
    if not _range_ok(rs):
        return
    rng = _bid_range(rs)
    overcall, doubling = rs.auction.partner_overcall, rs.special.doubling
    auto = doubling.auto_double if doubling else None
    named: list[tuple[KeyPath, int | None]] = [
        (("auction", "second_bid_min"), rs.auction.second_bid_min),
        (("auction", "partner_overcall", "min"), overcall.min if overcall else None),
        (("raise", "min"), rs.raise_.min if rs.raise_ else None),
        (("auction", "after_first_speech_min"), rs.auction.after_first_speech_min),
        (("special", "doubling", "auto_double", "from_bid"), auto.from_bid if auto else None),
    ]
    for path, value in named:
        if value is not None and not _in_bids(rs, value):
            yield Finding(path, f"{value} is outside the bid range {rng}",
                          depends=BID_RANGE if value < rs.auction.bids.min else (BID_MAX, BID_MIN))


def dealer_forced_bid_is_a_bid(rs: Ruleset) -> Iterator[Finding]:
    """The dealer's forced bid is their only legal action: it has to be one of the bids."""
    forced, bids = rs.auction.dealer_forced_bid, rs.auction.bids
    if forced is None or not _range_ok(rs):
        return
    path = ("auction", "dealer_forced_bid")
    if not _in_bids(rs, forced):
        yield Finding(path, f"{forced} is outside the bid range {_bid_range(rs)}; the dealer would have no legal "
                      "bid", depends=BID_RANGE if forced < bids.min else (BID_MAX, BID_MIN))
    elif (forced - bids.min) % bids.step:
        yield Finding(path, f"{forced} is not a bid: bids go up in steps of {bids.step} from {bids.min}; the "
                      "dealer would have no legal bid", depends=(*BID_RANGE, BID_STEP))


def partners_exist(rs: Ruleset) -> Iterator[Finding]:
    if not _alone(rs):
        return
    if rs.auction.partner_overcall is not None:
        yield Finding(("auction", "partner_overcall"), "nobody has a partner", depends=(ALONE, TEAMS),
                      hint="; set partner_overcall: null", fix="also set auction.partner_overcall: null")
    if rs.raise_ is not None and "partner" in rs.raise_.by:
        yield Finding(("raise", "by"), "nobody has a partner here, so the partner cannot raise",
                      depends=(ALONE, TEAMS), fix="also override raise.by (without partner)")
    for i, contract in enumerate(rs.special.contracts):
        if contract.partner == "sits_out":
            yield Finding(("special", "contracts", i, "partner"), "nobody has a partner here to sit out; "
                          "remove partner: sits_out", depends=(ALONE, TEAMS))
    if rs.play.exposed_after_deal == "bidders_partner":
        yield Finding(("play", "exposed_after_deal"), "the bidder has no partner here whose cards could lie face up",
                      depends=(ALONE, TEAMS), hint="; set exposed_after_deal: nobody")


def pointless_redeal_seats(rs: Ruleset) -> Iterator[Finding]:
    redeal = rs.auction.pointless_redeal
    if redeal is not None and redeal.seats > rs.table.players:
        yield Finding(("auction", "pointless_redeal", "seats"),
                      f"{redeal.seats} seats, but there are {rs.table.players} players", depends=(PLAYERS,))


def raisers_listed_once(rs: Ruleset) -> Iterator[Finding]:
    r = rs.raise_
    if r is None:
        return
    for i, who in enumerate(r.by):
        if who in r.by[:i]:
            yield Finding(("raise", "by", i), f"{who} is listed twice; each may raise once")
    if not r.by and not r.others_may_raise:
        yield Finding(("raise", "by"), "nobody may raise: list bidder and/or partner, or set others_may_raise: true")


# ---------------------------------------------------------------------------------- speeches and rounds
def _two_sides(rs: Ruleset) -> bool:
    """Every hand is played by two sides: two fixed teams, or a lone bidder against the rest."""
    return rs.table.bidder_plays_alone or len(rs.table.teams) == 2


def _one_partner_each(rs: Ruleset) -> bool:
    return not rs.table.bidder_plays_alone and all(len(t) == 2 for t in rs.table.teams)


def auction_speeches_agree(rs: Ruleset) -> Iterator[Finding]:
    a = rs.auction
    if a.exact_step and a.hold:
        yield Finding(("auction", "exact_step"), "every bid is exactly the next one above the standing bid, so "
                      "nobody can hold (equal) it", depends=(("auction", "hold"),),
                      hint="; set hold: false", fix="also set auction.hold: false")
    if a.default_bidder is not None:
        path = ("auction", "default_bidder")
        if a.first_hand_must_bid:
            yield Finding(path, "the first hand already holds a standing bid of 0, so he cannot be made to open "
                          "the bidding",
                          depends=(("auction", "first_hand_must_bid"),), hint="; set first_hand_must_bid: false",
                          fix="also set auction.first_hand_must_bid: false")
        if a.if_all_pass == "dealer_must_bid":
            yield Finding(path, "with a default bidder an auction without bids ends with him as the bidder at 0, so "
                          "the dealer is never forced to bid", depends=(("auction", "if_all_pass"),),
                          fix="also set auction.if_all_pass: redeal")
    speeches = [(("auction", "partner_speech"), a.partner_speech)]
    if rs.second_auction is not None:
        speeches.append((("second_auction", "partner_speech"), rs.second_auction.partner_speech))
    for path, speech in speeches:
        if speech is not None and not _one_partner_each(rs):
            yield Finding(path, "the partner speech needs every player to have exactly one partner",
                          depends=(TEAMS, ALONE), hint="; remove partner_speech", fix=f"also set {dotted(path)}: null")


def second_auction_fits(rs: Ruleset) -> Iterator[Finding]:
    sa = rs.second_auction
    if sa is None:
        return
    if rs.trump.chosen != "after_auction":
        yield Finding(SECOND, "a new holder at the end of the second auction lays a new trump card; with "
                      "trump.chosen: in_bid the bids name the trump, which jacknine does not support in a second "
                      "auction", depends=(CHOSEN,))


def trump_redeal_fits(rs: Ruleset) -> Iterator[Finding]:
    if rs.trump.may_redeal is not None and rs.trump.chosen != "after_auction":
        yield Finding(("trump", "may_redeal"), "the redeal is asked for at the trump step, and with trump.chosen: "
                      "in_bid there is none", depends=(CHOSEN,))


def captures_fit(rs: Ruleset) -> Iterator[Finding]:
    for i, c in enumerate(rs.special.capture_bonuses):
        path = (*CAPTURES, i)
        if c.trigger == "all_of_rank" and c.rank is None:
            yield Finding(path, "all_of_rank needs the rank whose every card the side must capture",
                          hint=" (e.g. rank: J)", anchor="value")
        elif c.trigger == "last_trick" and c.rank is not None:
            yield Finding((*path, "rank"), "the last trick needs no rank; remove it")
        if c.kind == "transfer" and not _two_sides(rs):
            yield Finding((*path, "kind"), "a transfer is taken from the other side, and here a hand has more than "
                          "two sides", depends=(TEAMS, ALONE))


def concede_fits(rs: Ruleset) -> Iterator[Finding]:
    c = rs.special.concede
    if c is None:
        return
    for i, when in enumerate(c.when):
        path = ("special", "concede", "when", i)
        if when in c.when[:i]:
            yield Finding(path, f"{when} is listed twice")
        elif when != "in_play" and rs.trump.chosen != "after_auction":
            yield Finding(path, f"{when}: the holder concedes at the trump step, and with trump.chosen: in_bid "
                          "there is none", depends=(CHOSEN,))
        elif when == "after_second_auction" and rs.second_auction is None and rs.raise_ is None:
            yield Finding(path, "there is no second auction (or raise) to concede after",
                          depends=(SECOND, RAISE))


def counting_side_fits(rs: Ruleset) -> Iterator[Finding]:
    sc = rs.scoring
    if sc.counted_by == "opponents":
        yield from _counted_by_opponents(rs)
    if "call" in sc.target_adjustments and sc.target is None:
        yield Finding(("scoring", "target_adjustments"), "the call lowers a fixed target; with none the target is "
                      "the bid itself", depends=(("scoring", "target"),), hint="; set scoring.target too")
    for i, adj in enumerate(sc.target_adjustments):
        if adj in sc.target_adjustments[:i]:
            yield Finding(("scoring", "target_adjustments", i), f"{adj} is listed twice")
    if sc.target is not None and sc.target > total_points(rs):
        yield Finding(("scoring", "target"), f"{sc.target} is more than the {total_points(rs)} points in the game",
                      depends=DECK_POINTS)


def _counted_by_opponents(rs: Ruleset) -> Iterator[Finding]:
    """The opponents' points counted: two sides, and no rule that measures the bidders' own points."""
    sc = rs.scoring
    if not _two_sides(rs):
        yield Finding(("scoring", "counted_by"), "the bidders' opponents count as one side, and here a hand "
                      "has more than two sides", depends=(TEAMS, ALONE))
    if sc.below_half_loss_multiplier > 1:
        yield Finding(("scoring", "below_half_loss_multiplier"), "the bidders' card points are not counted "
                      "here (counted_by: opponents), so half the bid is never measured",
                      depends=(("scoring", "counted_by"),))
    if sc.shortfall_loss is not None:
        yield Finding(("scoring", "shortfall_loss"), "the bidders' card points are not counted here "
                      "(counted_by: opponents), so no shortfall is measured", depends=(("scoring", "counted_by"),))


def sets_fit(rs: Ruleset) -> Iterator[Finding]:
    """With sets a score returns to 0 at +/-at: a winning or losing score beyond that is never reached."""
    m = rs.match
    if m.sets is None:
        return
    at = m.sets.at
    sets = (("match", "sets"),)
    if m.win_at is not None and m.win_at >= at:
        yield Finding(("match", "win_at"), f"with sets the score returns to 0 at +{at}, so win_at {m.win_at} is never "
                      "reached; the red sets decide the match", depends=sets, hint="; set win_at: null",
                      fix="also set match.win_at: null")
    if m.lose_at is not None and m.lose_at <= -at:
        yield Finding(("match", "lose_at"), f"with sets the score returns to 0 at -{at}, so lose_at {m.lose_at} is "
                      "never reached", depends=sets, hint="; set lose_at: null", fix="also set match.lose_at: null")
    if not -at < m.start < at:
        yield Finding(("match", "start"), f"with sets a score returns to 0 at +/-{at}; a start of {m.start} would "
                      "open a set before the first hand", depends=sets)


# --------------------------------------------------------------------------------------------- trump
def trump_options_agree(rs: Ruleset) -> Iterator[Finding]:
    trump = rs.trump
    if trump.no_trumps and trump.chosen != "in_bid" and trump.declared_as != "suit":
        yield Finding(NO_TRUMPS, "no-trumps is named in a bid (chosen: in_bid) or declared as a suit "
                      "(declared_as: suit)", depends=(CHOSEN, DECLARED))
    if trump.chosen == "in_bid" and trump.concealed:
        yield Finding(CONCEALED, "a trump named in the bid is public", depends=(CHOSEN,),
                      hint="; set concealed: false", fix="also set trump.concealed: false")
    if trump.seventh_card:
        yield from _seventh_card_fits(rs)


def _seventh_card_fits(rs: Ruleset) -> Iterator[Finding]:
    """The seventh card: a concealed indicator, dealt to the bidder after the trump step, never chosen anew."""
    trump = rs.trump
    if trump.chosen != "after_auction" or not trump.concealed:
        yield Finding(SEVENTH, "the seventh card is a concealed indicator: it needs chosen: after_auction and "
                      "concealed: true", depends=(CHOSEN, CONCEALED))
    if cards_per_player(rs) < SEVENTH_CARD:
        yield Finding(SEVENTH, f"players get only {cards_per_player(rs)} cards, so there is no seventh card",
                      depends=(SCHEDULE,))
    elif rs.second_auction is not None:
        yield Finding(SEVENTH, "after the second auction a new holder chooses the trump again with every card "
                      "dealt, so their seventh card is already in their hand and a hand would be played with "
                      "no trump", depends=(SECOND,), fix="also set second_auction: null")
    elif rs.raise_ is not None and rs.raise_.others_may_raise:
        yield Finding(SEVENTH, "after the second auction a new bidder chooses the trump again with every card "
                      "dealt, so their seventh card is already in their hand and a hand would be played with "
                      "no trump", depends=(("raise", "others_may_raise"),),
                      fix="also set raise.others_may_raise: false")
    else:
        before = cards_before(rs, "trump")
        if before is not None and before >= SEVENTH_CARD:
            yield Finding(SEVENTH, f"each player holds {before} cards before the trump step, so the bidder's "
                          "seventh card is already in their hand and a hand would be played with no trump; "
                          "deal it after the trump step", depends=(SCHEDULE,),
                          fix="also override schedule (the seventh card dealt after the trump step)")


# ------------------------------------------------------------------------------------------ specials
def contract_names_unique(rs: Ruleset) -> Iterator[Finding]:
    seen: set[str] = set()
    for i, contract in enumerate(rs.special.contracts):
        if contract.name in seen:
            yield Finding(("special", "contracts", i, "name"), f"{contract.name} is declared twice")
        seen.add(contract.name)
    doubling = rs.special.doubling
    if doubling is None:
        return
    contracts = ("special", "contracts")
    for i, step in enumerate(doubling.steps):
        if step.name in seen:
            yield Finding(("special", "doubling", "steps", i, "name"),
                          f"{step.name} is already the name of a contract or doubling step", depends=(contracts,))
        seen.add(step.name)
    if doubling.fixed_stake is not None and doubling.fixed_stake.name in seen:
        yield Finding(("special", "doubling", "fixed_stake", "name"),
                      f"{doubling.fixed_stake.name} is already the name of a contract or doubling step",
                      depends=(contracts, ("special", "doubling", "steps")))


def contract_scores_signed(rs: Ruleset) -> Iterator[Finding]:
    for i, contract in enumerate(rs.special.contracts):
        if contract.made < 0 or (contract.failed or 0) > 0:
            yield Finding(("special", "contracts", i),
                          "made is what the declarers win (0 or more), failed what they lose (0 or less)")


def declarations_fit(rs: Ruleset) -> Iterator[Finding]:
    """Each declaration's window, undertaking and certainty must be ones that can happen together."""
    tricks = cards_per_player(rs)
    first_deal = cards_before(rs, "auction") or 0
    for i, c in enumerate(rs.special.contracts):
        path = ("special", "contracts", i)
        yield from _declaration_window(rs, c, path, tricks, first_deal)
        yield from _declaration_partner(rs, c, path)
        yield from _declaration_shown(c, path)


def _declaration_window(rs: Ruleset, c: SpecialContract, path: KeyPath, tricks: int,
                        first_deal: int) -> Iterator[Finding]:
    """When it is declared: before which trick, by whom, stopping the deal, in an auction the schedule has."""
    if c.window == "before_trick":
        yield from _before_trick(c, path, tricks)
    elif c.trick is not None:
        yield Finding((*path, "trick"), "trick is the number of the trick a declaration is made before; "
                      "it needs window: before_trick", hint="; remove trick or set window: before_trick")
    if c.who == "sole_winner" and c.window != "before_trick":
        yield Finding((*path, "who"), "sole_winner is a player who has won every trick so far: it needs "
                      "window: before_trick", hint="; set who: anyone or bidder")
    if c.deal == "stops":
        yield from _deal_stops(c, path, tricks, first_deal)
    if c.window == "first_auction" and c.who != "anyone":
        yield Finding((*path, "who"), "nobody holds the contract during the first auction: a declaration "
                      "there is open to any player", hint="; set who: anyone")
    if c.window == "first_auction" and "auction" not in rs.schedule:
        yield Finding((*path, "window"), "the schedule has no auction", depends=(SCHEDULE,))


def _before_trick(c: SpecialContract, path: KeyPath, tricks: int) -> Iterator[Finding]:
    """A declaration before a trick: the trick's number, within the hand; played out."""
    if c.trick is None:
        yield Finding((*path, "window"), "a declaration before a trick needs the trick's number",
                      hint="; add trick: N (it is declared before leading trick N)")
    elif c.trick > tricks:
        yield Finding((*path, "trick"), f"there are only {tricks} tricks in a hand", depends=(SCHEDULE,))
    if not c.played:
        yield Finding((*path, "played"), "a declaration during play is played out",
                      hint="; remove played: false")


def _deal_stops(c: SpecialContract, path: KeyPath, tricks: int, first_deal: int) -> Iterator[Finding]:
    """A declaration that stops the deal: in the first auction, with cards still to deal."""
    if c.window != "first_auction":
        yield Finding((*path, "deal"), "only a declaration in the first auction can stop the deal",
                      hint="; remove deal: stops or set window: first_auction")
    elif first_deal >= tricks:
        yield Finding((*path, "deal"), "every card is dealt before the first auction: nothing is left to "
                      "stop", depends=(SCHEDULE,), hint="; remove deal: stops")


def _declaration_partner(rs: Ruleset, c: SpecialContract, path: KeyPath) -> Iterator[Finding]:
    """The declarer's partner: a dummy needs a partner and gives the side's tricks; sitting out gives none."""
    if c.partner == "dummy" and c.must_win == "declarer":
        yield Finding((*path, "must_win"), "the declarer plays his dummy's cards: the side's tricks are his",
                      hint="; set must_win: side")
    if c.partner == "dummy" and _alone(rs):
        yield Finding((*path, "partner"), "nobody has a partner here to lay down as a dummy",
                      depends=(ALONE, TEAMS))
    if c.must_win == "side" and c.partner == "sits_out":
        yield Finding((*path, "must_win"), "the partners sit out, so the declarer wins every trick his side "
                      "wins", hint="; remove must_win: side")


def _declaration_shown(c: SpecialContract, path: KeyPath) -> Iterator[Finding]:
    """A hand shown instead of played must be certain; a played one can fail; the sure-sweep test's window."""
    if not c.played:
        if c.sure_sweep != "required":
            yield Finding((*path, "played"), "a hand shown instead of played scores as made, so it must be "
                          "certain", hint="; add sure_sweep: required")
        if c.window != "after_full_deal":
            yield Finding((*path, "window"), "a hand is shown once every card is dealt",
                          hint="; remove window (after_full_deal)")
        if c.failed is not None:
            yield Finding((*path, "failed"), "a hand shown instead of played cannot fail",
                          hint="; remove failed")
    elif c.failed is None:
        yield Finding(path, "a played declaration needs failed: what the declarers lose (0 or less)",
                      hint="; add failed: -N")
    if c.sure_sweep != "any" and c.window != "after_full_deal":
        yield Finding((*path, "sure_sweep"), "the sure-sweep test reads a full hand before play: it needs "
                      "window: after_full_deal", hint="; remove sure_sweep")
    if c.stops_at_first_loss and not c.played:
        yield Finding((*path, "stops_at_first_loss"), "a hand shown instead of played has no trick to lose",
                      hint="; remove stops_at_first_loss")


def doubling_can_happen(rs: Ruleset) -> Iterator[Finding]:
    """The doubling window opens when the trump is chosen after the auction; the cap must let a step in."""
    doubling = rs.special.doubling
    if doubling is None:
        return
    path = ("special", "doubling")
    yield from _doubling_window(rs, doubling, path)
    for i, st in enumerate(doubling.steps):
        if st.adds is not None and "multiplier" in st.model_fields_set:
            yield Finding((*path, "steps", i), "a step multiplies (multiplier) or adds (adds), not both")
    if doubling.cap is not None:
        yield from _cap_lets_a_step_in(doubling, path, doubling.cap)
    stake = doubling.fixed_stake
    if stake is not None and not any(s.by == "bidding_team" for s in doubling.steps[1:]):
        yield Finding((*path, "fixed_stake"), f"the bidder says {stake.name} in a bidding_team step after the first "
                      "double, and there is none here; nobody could say it",
                      depends=((*path, "steps"),))


def _doubling_window(rs: Ruleset, doubling: Doubling, path: KeyPath) -> Iterator[Finding]:
    """The window exists, and the options said in it belong to it."""
    if rs.trump.chosen != "after_auction" and doubling.window == "after_trump":
        yield Finding(path, "doubling comes right after the trump step, and there is none with trump.chosen: "
                      "in_bid; nobody could double", depends=(CHOSEN,),
                      hint="; set window: in_auction or before_play")
    if doubling.window == "in_auction":
        yield from _after_auction_options(doubling, path)
    if doubling.closes_auction and doubling.window != "in_auction":
        yield Finding((*path, "closes_auction"), "closes_auction ends the bidding at a doubling step said in the "
                      "auction; this window is after it", depends=((*path, "window"),),
                      hint="; set window: in_auction or remove closes_auction")


def _after_auction_options(doubling: Doubling, path: KeyPath) -> Iterator[Finding]:
    for key in ("auto_double", "fixed_stake"):
        if getattr(doubling, key) is not None:
            yield Finding((*path, key), f"{key} belongs to a doubling window after the auction; in the auction "
                          "a higher bid cancels the doubling", depends=((*path, "window"),))


def _cap_lets_a_step_in(doubling: Doubling, path: KeyPath, cap: int) -> Iterator[Finding]:
    auto = doubling.auto_double.multiplier if doubling.auto_double else 1
    if cap < auto:
        yield Finding((*path, "cap"), f"the cap {cap} is below the automatic {auto}",
                      depends=((*path, "auto_double"),))
    elif cap < doubling.steps[0].multiplier:
        yield Finding((*path, "cap"), f"the cap {cap} is below the first step's "
                      f"x{doubling.steps[0].multiplier}; nobody could ever double", depends=((*path, "steps"),))


def pair_bands_cover_bids(rs: Ruleset) -> Iterator[Finding]:
    pair = rs.special.pair
    if pair is None:
        return
    every = sorted({v for values in round_values(rs).values() for v in values})
    if every:
        bands: list[tuple[int, Band | PairBand]] = list(enumerate(pair.bidding_team))
        path = ("special", "pair", "bidding_team")
        yield from _bands_inside(path, bands, "pair band", every)
        yield from _cover(path, bands, "pair band", every)
    if pair.target_bounds is not None:
        yield from _pair_bounds(rs, pair.target_bounds, every)


def _pair_bounds(rs: Ruleset, bounds: tuple[int, int], every: list[int]) -> Iterator[Finding]:
    """The pair's target bounds: the right way up, within the game's points, covering every bid."""
    low, high = bounds
    if low > high:
        yield Finding(("special", "pair", "target_bounds"), f"{low} is above {high}")
    elif high > total_points(rs):
        yield Finding(("special", "pair", "target_bounds"),
                      f"{high} is more than the {total_points(rs)} points in the game", depends=DECK_POINTS)
    elif every and (low > every[0] or high < every[-1]):
        # a bound that leaves out bids would move a contract's target past its own bid (a bid of 30 played
        # to a target of 28); mostly a bound inherited from a game whose bid range a house rule changed
        yield Finding(("special", "pair", "target_bounds"),
                      f"the target bounds {low}-{high} do not cover the bids {every[0]}-{every[-1]}: a pair "
                      f"would move a target past its bid", depends=BID_RANGE,
                      fix=f"also set special.pair.target_bounds for these bids ([{every[0]}, {every[-1]}], or "
                      "null for the bid range)")


# ------------------------------------------------------------------------------------------- scoring
def _run(values: list[int]) -> str:
    return _bids(values[0], values[-1])


def _bands_inside(path: KeyPath, bands: list[tuple[int, Band | PairBand]], what: str,
                  values: list[int]) -> Iterator[Finding]:
    """Every band is the right way up and inside the bids that exist (`values`, in increasing order)."""
    lo, hi = values[0], values[-1]
    for i, band in bands:
        a, b = band.bids
        if a > b:
            yield Finding((*path, i, "bids"), f"the {what} [{a}, {b}] is upside down; write [{b}, {a}]")
        elif a < lo or b > hi:
            yield Finding((*path, i, "bids"), f"the {what} [{a}, {b}] goes outside the bid range {lo}-{hi}",
                          depends=BID_RANGE if a < lo else (BID_MAX, BID_MIN))


def _cover(path: KeyPath, bands: list[tuple[int, Band | PairBand]], what: str, values: list[int],
           of_round: str = "") -> Iterator[Finding]:
    """Bands cover the bids that exist (`values`, in increasing order) exactly: every bid in exactly one band.
    Values off the bid step are not bids, so a band need not cover them. `bands` are (index, band) pairs, each
    the right way up (`_bands_inside`)."""
    if not values or any(b.bids[0] > b.bids[1] for _, b in bands):
        return
    expected = values[0]
    for i, band in sorted(bands, key=lambda ib: ib[1].bids):
        yield from _gap_or_overlap((*path, i, "bids"), band.bids, expected, values, what, of_round)
        expected = max(expected, band.bids[1] + 1)
    rest = [v for v in values if v >= expected]
    if rest:
        yield Finding(path, f"{_run(rest)} in no {what}{of_round}", depends=(BID_MAX, BID_MIN))


def _gap_or_overlap(path: KeyPath, bids: tuple[int, int], expected: int, values: list[int], what: str,
                    of_round: str) -> Iterator[Finding]:
    """A band (in order of its bids) against `expected`, the first bid no earlier band covers: the bids it skips,
    or those it covers again."""
    a, b = bids
    if a > expected:
        missing = [v for v in values if expected <= v < a]
        if missing:
            yield Finding(path, f"{_run(missing)} in no {what}{of_round}",
                          depends=BID_RANGE if expected == values[0] else ())
    elif a < expected:
        twice = [v for v in values if a <= v <= min(b, expected - 1)]
        if twice:
            yield Finding(path, f"{_run(twice)} in two {what}s{of_round}")


def score_bands_cover_bids(rs: Ruleset) -> Iterator[Finding]:
    """Bands cover the bids of every round of bidding; a band marked with a round covers that round's only."""
    path = ("scoring", "bands")
    if rs.scoring.method == "banked" or not rs.scoring.bands:   # checks_banked.py says what is wrong there
        return
    rounds = round_values(rs)
    every = sorted({v for values in rounds.values() for v in values})
    if not every:
        return
    yield from _bands_inside(path, list(enumerate(rs.scoring.bands)), "band", every)
    yield from _rounds_covered(rs, rounds)
    yield from _band_rounds_and_signs(rs, rounds)


def _rounds_covered(rs: Ruleset, rounds: dict[int, list[int]]) -> Iterator[Finding]:
    """Each round's bids covered by the bands for that round; the same finding for both rounds is said once."""
    path = ("scoring", "bands")
    marked = len(rounds) > 1 and any(b.round is not None for b in rs.scoring.bands)
    seen: set[tuple[KeyPath, str]] = set()
    for r, values in rounds.items():
        bands: list[tuple[int, Band | PairBand]] = [(i, b) for i, b in enumerate(rs.scoring.bands)
                                                    if b.round in (None, r)]
        of_round = f" (for a contract of round {r})" if marked else ""
        for f in _cover(path, bands, "band", values, of_round):
            if (f.path, f.message) not in seen:
                seen.add((f.path, f.message))
                yield f


def _band_rounds_and_signs(rs: Ruleset, rounds: dict[int, list[int]]) -> Iterator[Finding]:
    """A band's round exists; made is a gain and failed a loss."""
    path = ("scoring", "bands")
    for i, band in enumerate(rs.scoring.bands):
        if band.round is not None and band.round not in rounds:
            yield Finding((*path, i, "round"), "there is no second auction or raise, so every contract is fixed "
                          "in round 1", depends=(SCHEDULE,))
    for i, band in enumerate(rs.scoring.bands):
        if band.made < 0:
            yield Finding(("scoring", "bands", i, "made"), "made is what the bidders win: 0 or more")
        if band.failed > 0:
            yield Finding(("scoring", "bands", i, "failed"),
                          "failed is what the bidders lose: write it as a negative number")


def match_ends(rs: Ruleset) -> Iterator[Finding]:
    m = rs.match
    start = ("match", "start")
    if m.win_at is None and m.lose_at is None and m.sets is None and m.deals is None:
        yield Finding(("match",), "win_at and lose_at are both null: the match would never end")
    if m.win_at is not None and m.win_at <= m.start:
        yield Finding(("match", "win_at"), f"win_at {m.win_at} must be above the starting score {m.start}",
                      depends=(start,))
    if m.lose_at is not None and m.lose_at >= m.start:
        yield Finding(("match", "lose_at"), f"lose_at {m.lose_at} must be below the starting score {m.start}",
                      depends=(start,))


def annul_options(rs: Ruleset) -> Iterator[Finding]:
    if rs.annul.held_all_trumps_checked != "at_end" and not rs.annul.bidding_team_held_all_trumps:
        yield Finding(("annul", "held_all_trumps_checked"), "this says when bidding_team_held_all_trumps is "
                      "checked, and it is off", depends=(("annul", "bidding_team_held_all_trumps"),),
                      hint="; remove it, or set bidding_team_held_all_trumps: true")
    if rs.annul.trump_never_exposed and not rs.trump.concealed:
        yield Finding(("annul", "trump_never_exposed"), "the trump is never concealed here (trump.concealed)",
                      depends=(CONCEALED,))
    rank = rs.annul.one_hand_holds_all_of
    if rank is not None and rank in rs.deck.ranks:
        copies = len(rs.deck.suits) * rs.deck.copies
        each = cards_per_player(rs)
        if copies > each:
            yield Finding(("annul", "one_hand_holds_all_of"),
                          f"nobody can hold all {copies} cards of rank {rank} with {each} cards",
                          depends=(SUITS, COPIES, SCHEDULE))


def blind_cut_and_opening_fit(rs: Ruleset) -> Iterator[Finding]:
    """The blind cut and the trump's opening need a trump card laid face down after the auction."""
    t, pl = rs.trump, rs.play
    card_laid = t.concealed and t.declared_as == "card" and t.chosen == "after_auction"
    if pl.blind_cut:
        yield from _blind_cut_fits(rs, card_laid)
    if pl.bidder_while_concealed.lead_trump_suit == "not_to_first_trick" and not t.concealed:
        yield Finding(("play", "bidder_while_concealed", "lead_trump_suit"), "the trump is never concealed here: "
                      "nothing to keep from trick 1", depends=(CONCEALED,), hint="; remove lead_trump_suit")
    if t.opening is not None:
        yield from _opening_fits(rs, t.opening, card_laid)


def _blind_cut_fits(rs: Ruleset, card_laid: bool) -> Iterator[Finding]:
    if not card_laid:
        yield Finding(("play", "blind_cut"), "the blind cut is played while a trump card lies face down: it "
                      "needs trump.concealed: true, declared_as: card and chosen: after_auction",
                      depends=(CONCEALED, DECLARED, CHOSEN), hint="; remove blind_cut")
    if rs.play.reveal.call == "compulsory_first_void":
        yield Finding(("play", "reveal", "call"), "with the blind cut nobody calls for the trump: a void "
                      "player plays face down", depends=(("play", "blind_cut"),), hint="; set call: optional")
    if rs.trump.seventh_card:
        yield Finding(("play", "blind_cut"), "the blind cut turns up the folded card laid from hand; the "
                      "seventh card is not supported with it", depends=(SEVENTH,), hint="; remove seventh_card")


def _opening_fits(rs: Ruleset, o: TrumpOpening, card_laid: bool) -> Iterator[Finding]:
    if not card_laid:
        yield Finding(("trump", "opening"), "opening takes a folded trump card back into the hand: it needs "
                      "trump.concealed: true, declared_as: card and chosen: after_auction",
                      depends=(CONCEALED, DECLARED, CHOSEN), hint="; remove opening")
    if o.after_trick is not None and o.after_trick >= cards_per_player(rs):
        yield Finding(("trump", "opening", "after_trick"), f"there are {cards_per_player(rs)} tricks: opening "
                      "at the end of the last one changes nothing", depends=(SCHEDULE,),
                      hint="; choose an earlier trick")
    if o.after_trick is None and o.from_bid:
        yield Finding(("trump", "opening", "from_bid"), "from_bid says which contracts open after a trick: it "
                      "needs after_trick", hint="; add after_trick: N or remove from_bid")
    if o.from_bid > top_bid(rs):
        yield Finding(("trump", "opening", "from_bid"), f"no contract reaches {o.from_bid} (the top bid is "
                      f"{top_bid(rs)})", depends=BID_RANGE)


def second_auction_declarations_fit(rs: Ruleset) -> Iterator[Finding]:
    for i, c in enumerate(rs.special.contracts):
        path = ("special", "contracts", i)
        if c.window == "second_auction" and rs.second_auction is None:
            yield Finding((*path, "window"), "the file has no second_auction section for the declaration to be "
                          "spoken in", depends=(SECOND,), hint="; add a second_auction or choose another window")
        if c.open_trump and c.trumps == "none":
            yield Finding((*path, "open_trump"), "a contract without trumps has no trump to open",
                          hint="; remove open_trump")
        if c.open_trump and not (rs.trump.concealed and rs.trump.declared_as == "card"):
            yield Finding((*path, "open_trump"), "the trump is never concealed here: nothing to open",
                          depends=(CONCEALED, DECLARED), hint="; remove open_trump")


def claims_fit(rs: Ruleset) -> Iterator[Finding]:
    """Claims of the remaining tricks: two sides to claim for, rewards within the hand (distinct names are
    checked with the other claims, in checks_declarations)."""
    tricks = cards_per_player(rs)
    for i, c in enumerate(rs.special.claims):
        if c.claims == "remaining_tricks_by_side":
            yield from _remaining_tricks_claim(rs, i, c, tricks)


def _remaining_tricks_claim(rs: Ruleset, i: int, c: Claim, tricks: int) -> Iterator[Finding]:
    path = ("special", "claims", i)
    if any(x.claims == "remaining_tricks_by_side" for x in rs.special.claims[:i]):
        yield Finding(path, "jacknine grades one claim of the remaining tricks per file",
                      hint="; keep one claim")
    if not _two_sides(rs):
        yield Finding(path, "a claim for a side needs two sides in a hand", depends=(TEAMS, ALONE))
    r = c.rewards
    if r.on_time_before_trick is not None and r.on_time_before_trick > tricks:
        yield Finding((*path, "rewards", "on_time_before_trick"), f"there are only {tricks} tricks",
                      depends=(SCHEDULE,))
    if c.who != "unbeaten_side":
        yield Finding((*path, "who"), "the remaining tricks are claimed by a side that has won every trick so "
                      "far", hint="; set who: unbeaten_side")
    if c.first_moment and c.certainty == "none":
        yield Finding((*path, "first_moment"), "the side's first moment is the first turn at which the sweep "
                      "could be proved: it needs certainty: provable", hint="; set first_moment: false")


def melds_fit(rs: Ruleset) -> Iterator[Finding]:
    """Melds the engine shows (compulsory) have conditions and no window after tricks; melds shown by choice have
    the window and no conditions."""
    md = rs.special.melds
    if md is None:
        return
    path = ("special", "melds")
    if md.compulsory:
        if md.after_tricks:
            yield Finding((*path, "after_tricks"), "compulsory melds are shown by the engine at the holder's turn "
                          "to play, not in a window after tricks", hint="; remove after_tricks")
        if "trump_exposed" not in md.when and rs.trump.concealed:
            yield Finding((*path, "when"), "a meld's value (trumps or another suit) would give a concealed trump "
                          "away: it needs trump_exposed", depends=(CONCEALED,), hint="; add trump_exposed to when")
    else:
        if not md.after_tricks:
            yield Finding(path, "melds shown by choice need the tricks after which they may be shown",
                          hint="; add after_tricks: [N, ...] or compulsory: true")
        if md.when:
            yield Finding((*path, "when"), "when is the condition of compulsory melds", hint="; add compulsory: true")


CHECKS: tuple[Check, ...] = (
    teams_partition_seats, lone_bidder_sits_alone, deck_names_unique, ranks_of_the_deck, rank_ties_are_groups,
    deal_fits_deck, auction_given, schedule_steps, bid_range_fits_points, bids_are_bounded, bids_named_in_range,
    dealer_forced_bid_is_a_bid, partners_exist, pointless_redeal_seats, raisers_listed_once, trump_options_agree,
    contract_names_unique, contract_scores_signed, declarations_fit,
    doubling_can_happen, pair_bands_cover_bids, score_bands_cover_bids, match_ends,
    annul_options, auction_speeches_agree, second_auction_fits, trump_redeal_fits, captures_fit, concede_fits,
    counting_side_fits, sets_fit, blind_cut_and_opening_fit, second_auction_declarations_fit, claims_fit,
    melds_fit,
)


def run(rs: Ruleset) -> Iterator[Finding]:
    from engine.rules.checks_banked import BANKED_CHECKS
    from engine.rules.checks_combinations import COMBINATION_CHECKS
    from engine.rules.checks_declarations import DECLARATION_CHECKS  # (it reads this module's helpers)
    from engine.rules.checks_obligations import OBLIGATION_CHECKS
    from engine.rules.checks_trump_modes import TRUMP_MODE_CHECKS

    for check in (CHECKS + DECLARATION_CHECKS + TRUMP_MODE_CHECKS + OBLIGATION_CHECKS + BANKED_CHECKS
                  + COMBINATION_CHECKS):
        yield from check(rs)
