"""Checks across fields that the models alone cannot express, one small function each.

Each check yields `Finding`s (a path and a message); the loader turns the path into the file, line and column
that set the value. Checks run only on a Ruleset that the models accepted, so types are already right.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from engine.rules.messages import Finding
from engine.rules.model import Band, PairBand, Ruleset, StepName

Check = Callable[[Ruleset], Iterator[Finding]]


def total_points(rs: Ruleset) -> int:
    """Card points in the whole deck plus the last-trick bonus: the most a contract can ask for."""
    deck = rs.deck
    per_suit = sum(deck.points.get(r, 0) for r in set(deck.ranks))
    return per_suit * len(deck.suits) * deck.copies + deck.last_trick_bonus


def deck_size(rs: Ruleset) -> int:
    return len(rs.deck.suits) * len(rs.deck.ranks) * rs.deck.copies


def cards_per_player(rs: Ruleset) -> int:
    return sum(step.deal for step in rs.schedule if not isinstance(step, str))


def _in_bids(rs: Ruleset, value: int) -> bool:
    return rs.auction.bids.min <= value <= rs.auction.bids.max


def _bid_range(rs: Ruleset) -> str:
    return f"{rs.auction.bids.min}-{rs.auction.bids.max}"


def _bids(lo: int, hi: int) -> str:
    return f"bid {lo} is" if lo == hi else f"bids {lo}-{hi} are"


def _range_ok(rs: Ruleset) -> bool:
    """Checks that measure against the bid range wait until the range itself is sound."""
    return rs.auction.bids.min <= rs.auction.bids.max


# ------------------------------------------------------------------------------------------- table
def teams_partition_seats(rs: Ruleset) -> Iterator[Finding]:
    n = rs.table.players
    seen: Counter[int] = Counter()
    for t, team in enumerate(rs.table.teams):
        if not team:
            yield Finding(("table", "teams", t), "a team needs at least one seat")
        for s, seat in enumerate(team):
            if seat >= n:
                yield Finding(("table", "teams", t, s),
                              f"seat {seat} is not at the table (players: {n} means seats 0-{n - 1})")
            elif seen[seat]:
                yield Finding(("table", "teams", t, s), f"seat {seat} is in more than one team")
            seen[seat] += 1
    missing = [str(s) for s in range(n) if not seen[s]]
    if missing:
        yield Finding(("table", "teams"), f"seat(s) {', '.join(missing)} in no team; every seat is in one")
    if len(rs.table.teams) < 2:
        yield Finding(("table", "teams"), "at least two teams are needed")


def lone_bidder_sits_alone(rs: Ruleset) -> Iterator[Finding]:
    if rs.table.bidder_plays_alone and any(len(team) != 1 for team in rs.table.teams):
        yield Finding(("table", "bidder_plays_alone"),
                      "with bidder_plays_alone every seat is a team of its own, e.g. [[0], [1], [2]]")


# -------------------------------------------------------------------------------------------- deck
def deck_names_unique(rs: Ruleset) -> Iterator[Finding]:
    for key, names in (("ranks", rs.deck.ranks), ("suits", rs.deck.suits)):
        for i, name in enumerate(names):
            if name in names[:i]:
                yield Finding(("deck", key, i), f"{name} is listed twice")


def ranks_exist(rs: Ruleset) -> Iterator[Finding]:
    """Every rank named anywhere is one of the deck's ranks."""
    ranks = set(rs.deck.ranks)
    where = f"deck.ranks is {' '.join(rs.deck.ranks)}"
    for r in rs.deck.points:
        if r not in ranks:
            yield Finding(("deck", "points", r), f"rank {r} is not in the deck ({where})", "key")
    for g, group in enumerate(rs.deck.rank_ties):
        for i, r in enumerate(group):
            if r not in ranks:
                yield Finding(("deck", "rank_ties", g, i), f"rank {r} is not in the deck ({where})")
    for i, r in enumerate(rs.play.no_discard_before_suit_led):
        if r not in ranks:
            yield Finding(("play", "no_discard_before_suit_led", i), f"rank {r} is not in the deck ({where})")
    if rs.special.pair is not None:
        for i, r in enumerate(rs.special.pair.ranks):
            if r not in ranks:
                yield Finding(("special", "pair", "ranks", i), f"rank {r} is not in the deck ({where})")
    rank = rs.annul.one_hand_holds_all_of
    if rank is not None and rank not in ranks:
        yield Finding(("annul", "one_hand_holds_all_of"), f"rank {rank} is not in the deck ({where})")


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
    if each * n != size:
        deck = rs.deck
        yield Finding(("schedule",),
                      f"the deal gives {n} players {each} cards each ({each * n} cards) but the deck has "
                      f"{size} ({len(deck.suits)} suits x {len(deck.ranks)} ranks x {deck.copies} "
                      f"{'copy' if deck.copies == 1 else 'copies'}); "
                      "every card is dealt")


def schedule_steps(rs: Ruleset) -> Iterator[Finding]:
    names: list[tuple[int, StepName]] = [(i, s) for i, s in enumerate(rs.schedule) if isinstance(s, str)]
    seen: set[str] = set()
    for i, name in names:
        if name in seen:
            yield Finding(("schedule", i), f"{name} appears more than once")
        seen.add(name)
    if "auction" not in seen:
        yield Finding(("schedule",), "the schedule needs an auction step")
    if not rs.schedule or isinstance(rs.schedule[0], str):
        yield Finding(("schedule", 0), "the schedule starts with a deal: nobody can bid without cards")
    at = {name: i for i, name in reversed(names)}
    wants_trump = rs.trump.chosen == "after_auction"
    if wants_trump and "trump" not in at:
        yield Finding(("schedule",), "trump.chosen is after_auction, so the schedule needs a trump step")
    if not wants_trump and "trump" in at:
        yield Finding(("schedule", at["trump"]), "no trump step with trump.chosen: in_bid (the bid names it)")
    if "trump" in at and "auction" in at and at["trump"] < at["auction"]:
        yield Finding(("schedule", at["trump"]), "the trump step comes after the auction")
    if rs.raise_ is not None and "raise" not in at:
        yield Finding(("raise",), "there is a raise section but no raise step in the schedule")
    if rs.raise_ is None and "raise" in at:
        yield Finding(("schedule", at["raise"]), "a raise step needs a raise section (raise: {min: N})")
    if "raise" in at:
        last_deal = max(i for i, s in enumerate(rs.schedule) if not isinstance(s, str))
        if at["raise"] < last_deal or at["raise"] < at.get("auction", 0):
            yield Finding(("schedule", at["raise"]), "the raise comes after the auction and the last deal")


# ------------------------------------------------------------------------------------------- auction
def bid_range_fits_points(rs: Ruleset) -> Iterator[Finding]:
    bids, total = rs.auction.bids, total_points(rs)
    if bids.min > bids.max:
        yield Finding(("auction", "bids", "min"),
                      f"the lowest bid {bids.min} is above the top one, {bids.max}")
    if bids.max > total:
        yield Finding(("auction", "bids", "max"),
                      f"the highest bid {bids.max} is more than the {total} points in the game "
                      "(card points plus last_trick_bonus)")
    if (bids.max - bids.min) % bids.step:
        yield Finding(("auction", "bids", "step"),
                      f"bids go up in steps of {bids.step} from {bids.min}, which never reaches {bids.max}")


def bids_named_in_range(rs: Ruleset) -> Iterator[Finding]:
    """Minimums and thresholds elsewhere are bids, so they lie in the bid range."""
    if not _range_ok(rs):
        return
    rng = _bid_range(rs)
    overcall, doubling = rs.auction.partner_overcall, rs.special.doubling
    auto = doubling.auto_double if doubling else None
    named: list[tuple[tuple[str, ...], int | None]] = [
        (("auction", "second_bid_min"), rs.auction.second_bid_min),
        (("auction", "partner_overcall", "min"), overcall.min if overcall else None),
        (("raise", "min"), rs.raise_.min if rs.raise_ else None),
        (("special", "doubling", "auto_double", "from_bid"), auto.from_bid if auto else None),
    ]
    for path, value in named:
        if value is not None and not _in_bids(rs, value):
            yield Finding(path, f"{value} is outside the bid range {rng}")


def partners_exist(rs: Ruleset) -> Iterator[Finding]:
    alone = rs.table.bidder_plays_alone or all(len(t) == 1 for t in rs.table.teams)
    if not alone:
        return
    if rs.auction.partner_overcall is not None:
        yield Finding(("auction", "partner_overcall"), "nobody has a partner; set partner_overcall: null")
    if rs.raise_ is not None and "partner" in rs.raise_.by:
        yield Finding(("raise", "by"), "nobody has a partner here, so the partner cannot raise")


def pointless_redeal_seats(rs: Ruleset) -> Iterator[Finding]:
    redeal = rs.auction.pointless_redeal
    if redeal is not None and redeal.seats > rs.table.players:
        yield Finding(("auction", "pointless_redeal", "seats"),
                      f"{redeal.seats} seats, but there are {rs.table.players} players")


# --------------------------------------------------------------------------------------------- trump
def trump_options_agree(rs: Ruleset) -> Iterator[Finding]:
    trump = rs.trump
    if trump.no_trumps and trump.chosen != "in_bid" and trump.declared_as != "suit":
        yield Finding(("trump", "no_trumps"),
                      "no-trumps is named in a bid (chosen: in_bid) or declared as a suit (declared_as: suit)")
    if trump.chosen == "in_bid" and trump.concealed:
        yield Finding(("trump", "concealed"), "a trump named in the bid is public; set concealed: false")
    if trump.seventh_card:
        if trump.chosen != "after_auction" or not trump.concealed:
            yield Finding(("trump", "seventh_card"),
                          "the seventh card is a concealed indicator: it needs chosen: after_auction and "
                          "concealed: true")
        if cards_per_player(rs) < 7:
            yield Finding(("trump", "seventh_card"),
                          f"players get only {cards_per_player(rs)} cards, so there is no seventh card")


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
    for i, step in enumerate(doubling.steps):
        if step.name in seen:
            yield Finding(("special", "doubling", "steps", i, "name"),
                          f"{step.name} is already the name of a contract or doubling step")
        seen.add(step.name)
    if doubling.fixed_stake is not None and doubling.fixed_stake.name in seen:
        yield Finding(("special", "doubling", "fixed_stake", "name"),
                      f"{doubling.fixed_stake.name} is already the name of a contract or doubling step")


def contract_scores_signed(rs: Ruleset) -> Iterator[Finding]:
    for i, contract in enumerate(rs.special.contracts):
        if contract.made < 0 or contract.failed > 0:
            yield Finding(("special", "contracts", i),
                          "made is what the declarers win (0 or more), failed what they lose (0 or less)")


def doubling_cap(rs: Ruleset) -> Iterator[Finding]:
    doubling = rs.special.doubling
    if doubling is None or doubling.cap is None:
        return
    auto = doubling.auto_double.multiplier if doubling.auto_double else 1
    if doubling.cap < auto:
        yield Finding(("special", "doubling", "cap"), f"the cap {doubling.cap} is below the automatic {auto}")


def pair_bands_cover_bids(rs: Ruleset) -> Iterator[Finding]:
    pair = rs.special.pair
    if pair is None:
        return
    yield from _cover(rs, ("special", "pair", "bidding_team"), pair.bidding_team, "pair band")
    if len(set(pair.ranks)) != len(pair.ranks):
        yield Finding(("special", "pair", "ranks"), "a rank is listed twice")
    if pair.target_bounds is not None:
        low, high = pair.target_bounds
        if low > high:
            yield Finding(("special", "pair", "target_bounds"), f"{low} is above {high}")
        elif high > total_points(rs):
            yield Finding(("special", "pair", "target_bounds"),
                          f"{high} is more than the {total_points(rs)} points in the game")


# ------------------------------------------------------------------------------------------- scoring
def _cover(rs: Ruleset, path: tuple[str, ...], bands: list[Band] | list[PairBand], what: str
           ) -> Iterator[Finding]:
    """Bands cover the bid range exactly: every bid in exactly one band."""
    lo, hi = rs.auction.bids.min, rs.auction.bids.max
    if lo > hi:
        return
    order = sorted(range(len(bands)), key=lambda i: bands[i].bids)
    upside_down = False
    for i in order:
        a, b = bands[i].bids
        if a > b:
            upside_down = True
            yield Finding((*path, i, "bids"), f"the {what} [{a}, {b}] is upside down; write [{b}, {a}]")
        elif a < lo or b > hi:
            yield Finding((*path, i, "bids"), f"the {what} [{a}, {b}] goes outside the bid range {lo}-{hi}")
    if upside_down:
        return
    expected = lo
    for i in order:
        a, b = bands[i].bids
        if a > expected and expected <= hi:
            yield Finding((*path, i, "bids"), f"{_bids(expected, min(a - 1, hi))} in no {what}")
        elif a < expected and expected > lo:
            yield Finding((*path, i, "bids"), f"{_bids(a, min(b, expected - 1))} in two {what}s")
        expected = max(expected, b + 1)
    if expected <= hi:
        yield Finding(path, f"{_bids(expected, hi)} in no {what}")


def score_bands_cover_bids(rs: Ruleset) -> Iterator[Finding]:
    yield from _cover(rs, ("scoring", "bands"), rs.scoring.bands, "band")
    for i, band in enumerate(rs.scoring.bands):
        if band.made < 0:
            yield Finding(("scoring", "bands", i, "made"), "made is what the bidders win: 0 or more")
        if band.failed > 0:
            yield Finding(("scoring", "bands", i, "failed"),
                          "failed is what the bidders lose: write it as a negative number")


def match_ends(rs: Ruleset) -> Iterator[Finding]:
    m = rs.match
    if m.win_at is None and m.lose_at is None:
        yield Finding(("match",), "win_at and lose_at are both null: the match would never end")
    if m.win_at is not None and m.win_at <= m.start:
        yield Finding(("match", "win_at"), f"win_at {m.win_at} must be above the starting score {m.start}")
    if m.lose_at is not None and m.lose_at >= m.start:
        yield Finding(("match", "lose_at"), f"lose_at {m.lose_at} must be below the starting score {m.start}")


def annul_options(rs: Ruleset) -> Iterator[Finding]:
    if rs.annul.trump_never_exposed and not rs.trump.concealed:
        yield Finding(("annul", "trump_never_exposed"), "the trump is never concealed here (trump.concealed)")
    rank = rs.annul.one_hand_holds_all_of
    if rank is not None and rank in rs.deck.ranks:
        copies = len(rs.deck.suits) * rs.deck.copies
        each = cards_per_player(rs)
        if copies > each:
            yield Finding(("annul", "one_hand_holds_all_of"),
                          f"nobody can hold all {copies} cards of rank {rank} with {each} cards")


CHECKS: tuple[Check, ...] = (
    teams_partition_seats, lone_bidder_sits_alone, deck_names_unique, ranks_exist, rank_ties_are_groups,
    deal_fits_deck, schedule_steps, bid_range_fits_points, bids_named_in_range, partners_exist,
    pointless_redeal_seats, trump_options_agree, contract_names_unique, contract_scores_signed, doubling_cap,
    pair_bands_cover_bids, score_bands_cover_bids, match_ends, annul_options,
)


def run(rs: Ruleset) -> Iterator[Finding]:
    for check in CHECKS:
        yield from check(rs)
