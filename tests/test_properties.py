"""Property tests: random legal play over every shipped rule file, checking what must hold in every hand.

Per rule file, HANDS seeded random hands are played out. In each hand: the legal-action list is never empty before
the end and empty after; the action chosen always applies; at one random step a handful of illegal actions (another
seat's action, a card not held, a wrong verb, a bid out of range) are refused with the state untouched; at the end
every card was played exactly once (a sitting-out partner's cards laid aside), the tricks' points add up to the
game's `points_per_hand` (card points plus every bonus), and writing the record and replaying it gives the same
report. Costlier checks (every legal action applies, a seat's view is blind to other seats' hidden cards) run on a
seeded subset of the hands.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalActionError
from engine.play.actions import Action
from engine.play.base import SURRENDER_ACCEPTED
from engine.play.combinations import NOT_COMPARED
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.record import Replay, read_record_text, record_of, replay, report
from engine.rules.checks import total_points
from engine.rules.load import load_ruleset, shipped_rulesets
from tests.rulefile_sets import PLAYED

RULESETS = sorted(shipped_rulesets())
HANDS = 2000          # random hands per rule file (the floor the issue sets)
EVERY_ACTION = 25     # every 25th hand: every legal action at every step is applied to a clone
REPLAY_EVERY = 4      # every 4th hand is written as a record and replayed (half of the test's time when every hand
                      # was; the record's reader and writer have their own fuzzing and golden tests)
VIEW_HANDS = 100      # hands per rule file for the view-blindness check
CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[JQKAT9876543])[SHDC](?![A-Za-z0-9])")

_games: dict[str, Game] = {}


def game(name: str) -> Game:
    if name not in _games:
        _games[name] = load_game(name)
    return _games[name]


def snapshot(s: State) -> tuple[Any, ...]:
    """Everything an illegal action must leave untouched."""
    return (list(s.history), list(s.hands), s.phase, s.to_act, list(s.trick_cards), list(s.trick_seats),
            s.status, len(s.tricks), list(s.team_points), s.concealed, s.target, s.bid, s.caller,
            [str(a) for a in s.legal_actions()])


def illegal_candidates(g: Game, s: State, rng: random.Random) -> list[Action]:
    """Random actions the rules must refuse now (any that happen to be legal are filtered out)."""
    p = s.to_act
    legal = s.legal_actions()
    other = (p + 1 + rng.randrange(g.n - 1)) % g.n
    pick = rng.choice(legal)
    held = {g.codes[c] for c in range(g.size) if s.hands[p] >> c & 1}
    not_held = sorted(set(g.codes) - held)
    verb = rng.choice(["raise", "bid", "double", "redouble", "call", "show", "redeal", "surrender", "accept",
                       "refuse", "trump", "declare", "play", "pass", "dance"])
    arg = rng.choice(["", "24", "pair", "S", "JS", "thani", "nonsense"])
    cands = [
        Action(other, pick.verb, pick.arg),
        Action(p, "play", rng.choice(not_held)),
        Action(p, verb, arg),
        Action(p, "bid", str(g.rules.auction.bid_max + 1)),
        Action(p, "bid", str(g.rules.auction.bid_min - 1)),
        Action(p, "play", "ZZ"),
    ]
    shown = {str(a) for a in legal}
    out = []
    for a in cands:
        if str(a) in shown:
            continue
        try:
            if s.normalise(a) in legal:
                continue
        except (ValueError, KeyError):
            pass
        out.append(a)
    return out


def check_refused(g: Game, s: State, rng: random.Random) -> int:
    before = snapshot(s)
    tried = 0
    for a in illegal_candidates(g, s, rng):
        with pytest.raises(IllegalActionError) as err:
            s.apply(a)
        assert err.value.reason, f"{a}: an illegal action needs a reason"
        assert snapshot(s) == before, f"{g.rules.name}: refusing {a} changed the state"
        tried += 1
    return tried


def check_end(g: Game, s: State) -> None:
    """Each card played once (or laid aside by a sitting-out partner); points add up on a complete hand."""
    played = [c for t in s.tricks for c in t.cards]
    assert len(played) == len(set(played)), f"{g.rules.name}: a card was played twice"
    assert not set(played) & {c for seat in range(g.n) if s.sitting_out >> seat & 1 for c in s.dealt[seat]}
    # a last-trick transfer is in the last trick's points and taken from the other side's
    transfer = g.rules.deck.last_trick_transfer if len(s.tricks) == g.tricks_per_hand else 0
    assert sum(t.points for t in s.tricks) == sum(s.team_points) + transfer * (len(s.team_points) - 1)
    if s.status != "complete" or s.surrender == SURRENDER_ACCEPTED or s.conceded:
        return   # annulled, or an accepted surrender or a concession ends the hand early
    sp = s.special
    if sp is not None and (not sp.played or (sp.stops_at_first_loss and (s.bidders_lost_trick or s.made is False))):
        return   # a hand shown instead of played, or a declaration stopped at its first lost trick
    if sp is not None and sp.stops_deal:   # a declaration stopped the deal: the cards dealt are all played
        given = sorted(c for seat in range(g.n) for c in s.dealt[seat][:s.given[seat]])
        assert sorted(played) == given, f"{g.rules.name}: not every card dealt was played exactly once"
        assert len(s.tricks) == s.hand_tricks < g.tricks_per_hand
        return
    aside = [c for seat in range(g.n) if s.sitting_out >> seat & 1 for c in s.dealt[seat]]
    if s.stock or s.trump_mode >= 0 or s.points_of is not g.points:
        # a stock leaves cards out of play, and the trump's own table or a mode counts the hand's own total
        assert not any(s.hands), f"{g.rules.name}: cards left in a hand at the end"
        assert not set(played) & set(s.stock[s.stock_used:]), f"{g.rules.name}: an undealt card was played"
        if not s.stock:
            assert sorted(played) == list(range(g.size)), f"{g.rules.name}: not every card was played exactly once"
        total = sum(s.points_of[c] for c in played) + g.rules.deck.last_trick_bonus
        assert sum(s.team_points) == total, f"{g.rules.name}: the tricks' points are not the cards' points"
    else:
        assert sorted(played + aside) == list(range(g.size)), \
            f"{g.rules.name}: not every card was played exactly once"
        assert sum(s.team_points) == g.points_per_hand - sum(g.points[c] for c in aside)
    assert len(s.tricks) == g.tricks_per_hand


@pytest.mark.parametrize("name", RULESETS)
def test_points_per_hand_is_what_validate_and_show_count(name: str) -> None:
    """The engine's one total of a hand's points (bots and encodings scale by it) is the model's total that
    `validate` checks bids against and `show` prints: a bonus counted in one and not the other fails here."""
    assert game(name).points_per_hand == total_points(load_ruleset(name))


def report_of_state(g: Game, s: State) -> dict[str, Any]:
    return report(Replay(g, s, None))


def play_hand(g: Game, rng: random.Random, every_action: bool) -> tuple[State, int]:
    s = g.new_hand(rng.randrange(g.n), seed=rng.getrandbits(32))
    probe = rng.randrange(60)
    refused = 0
    step = 0
    while not s.is_terminal:
        legal = s.legal_actions()
        assert legal, f"{g.rules.name}: no legal action before the end (phase {s.phase_name})"
        if every_action:
            before = snapshot(s)
            for a in legal:
                s.clone().apply(a)
            assert snapshot(s) == before, "applying to a clone changed the original"
        if step == probe:
            refused += check_refused(g, s, rng)
        s.apply(legal[rng.randrange(len(legal))])
        step += 1
    assert s.legal_actions() == ()
    return s, refused


@pytest.mark.parametrize("name", RULESETS)
def test_random_hands(name: str) -> None:
    g = game(name)
    rng = random.Random(zlib.crc32(name.encode()))
    refused = complete = 0
    for i in range(HANDS):
        s, k = play_hand(g, rng, every_action=i % EVERY_ACTION == 0)
        refused += k
        complete += s.status == "complete"
        check_end(g, s)
        if i % REPLAY_EVERY:
            continue
        # the record round trip: written, read back as text, replayed -> the same report
        rec = record_of(s)
        again = replay(read_record_text(rec.to_yaml()) if i % 200 == 0 else rec, g)
        assert again.error is None, again.error
        assert report(again) == report_of_state(g, s)
    assert complete > HANDS // 4, f"{name}: too few complete hands ({complete}) to test much"
    assert refused > HANDS, f"{name}: too few illegal actions tried ({refused})"


def test_record_round_trip_stops_anywhere() -> None:
    """A record cut off mid-hand replays to the same in-progress report (next seat and sorted legal actions)."""
    rng = random.Random(7)
    for name in RULESETS:
        g = game(name)
        for _ in range(20):
            s = g.new_hand(rng.randrange(g.n), seed=rng.getrandbits(32))
            stop = rng.randrange(50)
            while not s.is_terminal and len(s.history) < stop:
                legal = s.legal_actions()
                s.apply(legal[rng.randrange(len(legal))])
            rep = report(replay(record_of(s), g))
            assert rep == report_of_state(g, s)
            if rep["status"] == "in_progress":
                assert rep["next"]["legal"] == sorted(a.notation for a in s.legal_actions())


# --------------------------------------------------------------------------------------------- views
def hidden_codes(g: Game, s: State, seat: int) -> set[str]:
    """Codes of cards other seats still hold unseen, less any code the viewer may legitimately see."""
    seen = {g.codes[c] for c in range(g.size) if s.hands[seat] >> c & 1}
    seen |= {g.codes[c] for t in s.tricks for c in t.cards} | {g.codes[c] for c in s.trick_cards}
    seen |= {g.codes[c] for m in getattr(s, "melded", ()) for c in range(g.size) if m >> c & 1}  # shown melds
    public = 0
    for m in s.shown:    # cards every seat saw (the turned card picked up by its taker)
        public |= m
    if s.combo_winner != NOT_COMPARED:   # announced melds are shown to all after trick 1
        for cm in s.combos:
            public |= cm.cards
    seen |= {g.codes[c] for c in range(g.size) if public >> c & 1}
    if s.indicator >= 0 and (not s.concealed or seat == s.indicator_owner):
        seen.add(g.codes[s.indicator])    # exposed (face up) or the viewer's own indicator
    out: set[str] = set()
    for other in range(g.n):
        if other == seat or s.exposed >> other & 1:   # a hand lying face up is seen by everyone
            continue
        for c in range(g.size):
            if s.hands[other] >> c & 1:
                out.add(g.codes[c])
            # cards not dealt yet and a sitting-out partner's cards are unseen too
        out |= {g.codes[c] for c in s.dealt[other][s.given[other]:]}
    if s.concealed and s.indicator >= 0 and seat != s.indicator_owner:
        out.add(g.codes[s.indicator])
    return out - seen


def check_view_blind(g: Game, s: State, seat: int) -> None:
    v: Any = s.view(seat)
    d = v.to_dict()
    text = json.dumps(d)
    leaked = set(CARD.findall(text)) & hidden_codes(g, s, seat)
    assert not leaked, f"{g.rules.name}: seat {seat} can see {leaked}"
    if s.concealed and seat != s.indicator_owner:
        assert d["trump"] is None and d["indicator"] is None, f"{g.rules.name}: concealed trump shown to seat {seat}"
        for h in d["history"]:
            parts = h.split()
            assert not (parts[1] == "trump" and len(parts) > 2 and parts[2] != "seventh"), h


def swapped_deal(g: Game, dealt: list[list[int]], a: int, b: int, rng: random.Random) -> list[list[int]]:
    """The same deal with some cards exchanged between seats a and b (same positions, so the same packets)."""
    out = [list(h) for h in dealt]
    k = min(len(out[a]), len(out[b]))
    for i in rng.sample(range(k), rng.randint(1, k)):
        out[a][i], out[b][i] = out[b][i], out[a][i]
    return out


def swapped_with_stock(g: Game, dealt: list[list[int]], stock: list[int], a: int,
                       rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Seat a's cards partly exchanged with the stock's (the turned card, the stock's first, stays)."""
    out = [list(h) for h in dealt]
    stock = list(stock)
    d = g.rules.deal      # only stock cards nobody receives, and not the bottom one (it may be shown)
    used = 1 + d.complete_taker + (g.n - 1) * d.complete_others
    places = list(range(used, len(stock) - 1))
    for i in rng.sample(range(len(out[a])), min(len(out[a]), len(places), rng.randint(1, len(out[a])))):
        j = places.pop(rng.randrange(len(places)))
        out[a][i], stock[j] = stock[j], out[a][i]
    return out, stock


def public_point(s: State) -> tuple[object, ...]:
    return (s.status, s.phase, s.to_act, s.meld_suits,
            [(m.seat, m.kind, m.length, m.value, m.cards) for m in s.combos])


@pytest.mark.parametrize("name", PLAYED)   # the score-only overlays see every hand as their bases do
def test_view_blind_to_other_hands(name: str) -> None:
    g = game(name)
    rng = random.Random(zlib.crc32(b"view" + name.encode()))
    compared = 0
    for _ in range(VIEW_HANDS):
        dealer = rng.randrange(g.n)
        seat = rng.randrange(g.n)
        a, b = rng.sample([x for x in range(g.n) if x != seat], 2) if g.n > 2 else (1 - seat, 1 - seat)
        s1 = g.new_hand(dealer, seed=rng.getrandbits(32))
        if g.n > 2:
            s2 = g.new_hand(dealer, hands=swapped_deal(g, s1.dealt, a, b, rng), stock=list(s1.stock) or None)
        else:   # two players: the other seat's cards swapped with the stock's (the stock is hidden from both)
            a = b = 1 - seat
            hands, stock = swapped_with_stock(g, s1.dealt, list(s1.stock), a, rng)
            s2 = g.new_hand(dealer, hands=hands, stock=stock)
        while not s1.is_terminal:
            check_view_blind(g, s1, seat)
            # public events that depend on hidden cards (an annulment, who is asked about a pointless hand, the
            # melds announced) legitimately tell the hands apart: compare only while both stand at the same point
            if public_point(s1) != public_point(s2):
                break
            if s1.exposed >> a & 1 or s1.exposed >> b & 1:   # one of the two now lies face up: it is seen
                break
            assert s1.view(seat) == s2.view(seat), f"{name}: seat {seat}'s view depends on seats {a}/{b}'s cards"
            compared += 1
            legal = s1.legal_actions()
            act = legal[rng.randrange(len(legal))]
            if act not in s2.legal_actions():
                break
            s1.apply(act)
            s2.apply(act)
    # announced melds tell hands apart from trick 1 on (the comparison stops there more often)
    least = VIEW_HANDS * (3 if g.rules.combinations is not None or g.rules.marriage is not None else 5)
    assert compared > least, f"{name}: only {compared} views compared"


# --------------------------------------------------------------------------------------------- hypothesis
@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["twenty-eight", "twenty-nine"]), seed=st.integers(0, 2**32 - 1),
       choices=st.lists(st.integers(0, 1000), min_size=0, max_size=60))
def test_action_notation_round_trips(name: str, seed: int, choices: list[int]) -> None:
    """Any legal action's notation parses back to the same action, and a replay reaches the same state."""
    g = game(name)
    s = g.new_hand(seed % g.n, seed=seed)
    for k in choices:
        if s.is_terminal:
            break
        legal = s.legal_actions()
        a = legal[k % len(legal)]
        assert Action.parse(str(a)) == a
        s.apply(Action.parse(str(a)))
    assert report(replay(read_record_text(record_of(s).to_yaml()), g)) == report_of_state(g, s)
