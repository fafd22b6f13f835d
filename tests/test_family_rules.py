"""Targeted checks of the family's mechanisms through the public API (engine.load_game, State, Match).

Worked examples E6 and E8 of RULES.md, the lone bidder's temporary team, three teams of two, tables paid
between teams, scores credited to the opponents, the 'C' condition on match scores, and `jacknine show` /
`jacknine simulate` on every shipped rule file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import Action, Game, IllegalActionError, Match, State, load_game
from engine.record import read_record, replay
from tests.rulefile_sets import SAME_PLAY_AS

FAMILY = Path(__file__).parent / "hands" / "family"

SHIPPED = sorted(p.stem for p in (Path(__file__).resolve().parents[1] / "rulesets").glob("*.yaml"))


def deal(game: Game, hands: dict[int, str], dealer: int, actions: list[str],
         match_scores: list[int] | None = None) -> State:
    """A hand from written cards (a double pack's repeated code takes the next copy), then the actions."""
    codes = [hands[s].split() for s in range(game.n)]
    ids = game.layout.parse_cards([c for h in codes for c in h])
    per_seat, pos = [], 0
    for h in codes:
        per_seat.append(ids[pos:pos + len(h)])
        pos += len(h)
    state = game.new_hand(dealer, hands=per_seat, match_scores=match_scores)
    for a in actions:
        state.apply(Action.parse(a))
    return state


def replayed(name: str) -> State:
    return replay(read_record(FAMILY / f"{name}.yaml")).state


# ------------------------------------------------------------------------------------------ decks
FIFTY_SIX = {0: "9S QS 9H QH 9D 9D TC QC", 1: "JS JS 9H QH AD KD JC QC", 2: "9S KS AH KH AD TD KC 9C",
             3: "AS TS JH JH TD QD 9C AC", 4: "AS KS AH TH KD QD JC TC", 5: "TS QS TH KH JD JD AC KC"}
E6_AUCTION = ["0 pass", "1 bid 30 S", "2 pass", "3 pass", "4 pass", "5 pass", "0 pass"]


def test_e6_fifty_six_equal_cards_first_played_wins() -> None:
    game = load_game("fifty-six")
    state = deal(game, FIFTY_SIX, 5, E6_AUCTION + [f"{s} play {c}" for s, c in
                                                   enumerate("TC JC KC 9C JC AC".split())])
    trick = state.result.tricks[0]
    assert (trick.winner, trick.points) == (1, 10)          # seat 1's JC came before seat 4's
    assert state.result.card_points == [0, 10]


def test_fifty_six_bid_names_an_open_trump() -> None:
    game = load_game("fifty-six")
    state = deal(game, FIFTY_SIX, 5, E6_AUCTION)
    assert Action(1, "bid", "30 S") in state.history
    assert state.trump_suit_code() == "S" and not state.concealed


FORTY = {0: "3S JH 7D KC 8C 7C", 1: "JS 3H JD JC QS QH", 2: "9S 9H 3D 3C 8S 8H", 3: "AS AH 9D 9C TS QD",
         4: "KD 7S TH AD AC 7H", 5: "KS KH TD TC 8D QC"}
FORTY_AUCTION = ["0 pass", "1 pass", "2 pass", "3 pass", "4 bid 20", "5 pass", "0 pass", "1 pass", "2 pass",
                 "3 pass", "4 trump KD"]


@pytest.mark.parametrize(("cards", "winner"), [
    ("3S JS 9S AS 7S KS", 0),   # E8: the Three first, so it beats the Jack
    ("JH 3H 9H AH TH KH", 0),   # the Jack first, so it beats the Three
])
def test_e8_forty_three_and_jack_tie(cards: str, winner: int) -> None:
    game = load_game("forty")
    state = deal(game, FORTY, 5, FORTY_AUCTION)
    if cards.startswith("JH"):
        for s, c in enumerate("3S JS 9S AS 7S KS".split()):
            state.apply(Action(s, "play", c))
    for s, c in enumerate(cards.split()):
        state.apply(Action(s, "play", c))
    trick = state.result.tricks[-1]
    assert (trick.winner, trick.points) == (winner, 9 if cards.startswith("3S") else 10)


def test_forty_second_bid_and_one_suit_first_hand() -> None:
    game = load_game("forty")
    state = deal(game, FORTY, 5, ["0 bid 20", "1 bid 21", "2 pass", "3 pass", "4 pass", "5 pass"])
    with pytest.raises(IllegalActionError, match="at least 30"):
        state.apply(Action(0, "bid", "29"))
    state.apply(Action(0, "bid", "30"))
    one_suit = FORTY | {0: "3S 8S TS KC 8C 7C", 2: "9S 9H 3D 3C JH 8H", 3: "AS AH 9D 9C 7D QD"}
    first = deal(game, one_suit, 5, [])
    assert [a.notation for a in first.legal_actions()] == ["pass"]


# ------------------------------------------------------------------------------------------ tables
def test_three_player_lone_bidder_against_a_temporary_team() -> None:
    state = replayed("twenty-eight-3p-lone-failed")
    assert state.result.teams == [[0, 2], [1]]
    assert state.result.game_points == [0, -3]
    match = Match(state.game)
    assert match.scores == [0, 0, 0]                         # the match score is kept per player
    assert match.to_match_points(state) == [0, -3, 0]        # only the lone bidder's score moves


def test_six_player_three_teams_of_two() -> None:
    state = replayed("twenty-eight-6p-failed")
    assert state.result.teams == [[0, 3], [1, 4], [2, 5]]
    assert state.result.game_points == [0, -2, 0]
    assert Match(state.game).to_match_points(state) == [0, -2, 0]


# ------------------------------------------------------------------------------------------ scoring
def test_fifty_six_tables_start_at_twelve_and_change_hands() -> None:
    state = replayed("fifty-six-suit-bid-failed")              # team 0,2,4 fails 40 S: pays 3 tables
    match = Match(state.game)
    assert match.scores == [12, 12]
    match.record_hand(state)
    assert match.scores == [9, 15] and not match.is_over


@pytest.mark.parametrize(("before", "over"), [([3, 21], False), ([2, 22], True)])
def test_fifty_six_team_that_cannot_pay_loses(before: list[int], over: bool) -> None:
    state = replayed("fifty-six-suit-bid-failed")
    match = Match(state.game)
    match.scores = list(before)
    match.record_hand(state)
    assert match.is_over is over                              # 3 tables paid from 3 is fine, from 2 not
    if over:
        assert match.winners == [1]


def test_forty_failure_is_credited_to_the_opponents() -> None:
    state = replayed("forty-tie-and-credit")
    assert state.made is False and state.bidder == 4
    match = Match(state.game)
    match.record_hand(state)
    assert match.scores == [0, 2]                             # the bidders lose nothing; opponents +2
    match.scores = [0, 4]
    match.record_hand(state)
    assert match.is_over and match.winners == [1]             # first to 6


def test_flat_scoring_ends_at_six() -> None:
    state = replayed("twenty-eight-flat-25-failed")
    match = Match(state.game)
    match.scores = [0, -5]
    match.record_hand(state)
    assert match.scores == [0, -6] and match.is_over and match.winners == [0]


TWENTY_NINE = {1: "JS 9S JD 9D AS TS AD TD", 2: "KS 7S KD 7D JH 9H JC 9C", 3: "QS 8S QD 8D AH TH AC TC",
               0: "KH QH 8H 7H KC QC 8C 7C"}


@pytest.mark.parametrize(("scores", "c_allowed"), [([0, 0], True), ([1, 0], False), ([0, -2], False)])
def test_odisha_c_needs_no_score_showing(scores: list[int], c_allowed: bool) -> None:
    game = load_game("odisha")
    state = deal(game, TWENTY_NINE, 0, ["1 bid 16", "2 pass", "3 pass", "0 pass", "1 trump S", "2 double"],
                 match_scores=scores)
    assert (Action(1, "C") in state.legal_actions()) is c_allowed


def test_gorakhpur_auto_double_cap() -> None:
    game = load_game("gorakhpur")
    state = deal(game, TWENTY_NINE, 0, ["1 bid 21", "2 pass", "3 pass", "0 pass", "1 trump S", "2 double"])
    assert state.multiplier == 4 and state.phase_name == "play"


# ------------------------------------------------------------------------------------------ every file
@pytest.mark.parametrize("name", SHIPPED)
def test_show_and_simulate_every_shipped_file(name: str) -> None:
    runner = CliRunner()
    from engine.cli.app import app

    shown = runner.invoke(app, ["show", name])
    assert shown.exit_code == 0, shown.output
    assert name in shown.stdout
    # (CI's budget: the bots' smoke run of every file is 100 hands - the random-hand properties play 2000 of each;
    # an overlay that changes only scores plays every hand as its base, tests/test_rulefile_sets.py, and simulates
    # a few to show its own scores)
    hands = 30 if name in SAME_PLAY_AS else 100
    sim = runner.invoke(app, ["simulate", "--ruleset", name, "--hands", str(hands), "--seed", "1", "--json"])
    assert sim.exit_code == 0, sim.output
    stats = json.loads(sim.stdout)
    assert stats["hands"] == hands and stats["complete"] + stats["annulled"] == hands
    assert stats["complete"] > 0


# ------------------------------------------------------------------------------ issue 14's auction games
def _random_hands(name: str, count: int, seed: int = 7) -> list[State]:
    """Finished hands of random legal play (random players pass half the time they may)."""
    import random

    game = load_game(name)
    rng = random.Random(seed)
    out = []
    for i in range(count):
        state = game.new_hand(i % game.n, seed=i)
        while not state.is_terminal:
            legal = state.legal_actions()
            passing = [a for a in legal if a.verb == "pass"]
            state.apply(passing[0] if passing and rng.random() < 0.5 else legal[int(rng.random() * len(legal))])
        out.append(state)
    return out


@pytest.mark.parametrize("name", ["fifty-six-8p", "fifty-six-4p", "fifty-six-double", "twenty-eight-kerala",
                                  "twenty-eight-kerala-3p"])
def test_exchanged_stakes_are_conserved(name: str) -> None:
    """The loser pays the winner: every scored hand moves the match scores by nothing in all - with a lone
    bidder too, who exchanges the stake with each opponent."""
    moved = 0
    for state in _random_hands(name, 300):
        if state.status == "complete":
            change = Match(state.game).to_match_points(state)
            assert sum(change) == 0, (name, change)
            moved += any(change)
    assert moved > 100


@pytest.mark.parametrize("name", ["twenty-eight-kerala", "twenty-eight-kerala-3p"])
def test_kerala_contracts_are_scored_by_their_round(name: str) -> None:
    low, high = (18, 22) if name.endswith("3p") else (20, 24)
    rounds = {1: 0, 2: 0}
    for state in _random_hands(name, 400):
        if state.status != "complete" or state.special is not None:
            continue
        r = state.contract_round
        rounds[r] += 1
        band = state.game.band_for(state.bid, r)
        assert band is not None and band.round == r
        if r == 2:
            assert state.bid >= high                        # a second-auction bid is at least 24 (22 for three)
        value = max(state.game_points, key=abs)
        if state.conceded:
            assert state.made is False
        if r == 1 and state.bid <= low and not state.conceded:
            assert abs(value) in (1, 2)                     # 1, or 1 from each of two opponents
    assert rounds[1] > 20 and rounds[2] > 20


def test_fifty_six_doubling_adds_tables_and_a_higher_bid_cancels_it() -> None:
    seen = {0: 0, 1: 0, 2: 0}
    for state in _random_hands("fifty-six-4p", 400):
        if state.status != "complete":
            continue
        seen[state.added] += 1
        band = state.game.band_for(state.bid)
        assert band is not None
        expected = (band.made + state.added) if state.made else (band.failed - state.added)
        assert state.game_points[state.hand_team_of[state.bidder]] == expected
        # the doubling steps said since the last bid are what counts
        steps = 0
        for a in state.history:
            if a.verb == "bid":
                steps = 0
            elif a.verb in ("double", "redouble"):
                steps += 1
        assert state.added == steps
    assert all(seen.values()), seen


def _match_of(name: str, seed: int, max_hands: int = 300) -> Match:
    import random

    game = load_game(name)
    rng = random.Random(seed)
    match = Match(game, seed=seed, max_hands=max_hands)
    while not match.is_over:
        state = match.new_hand()
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
        match.record_hand(state)
    return match


def test_sets_open_at_six_cancel_and_three_red_win() -> None:
    game = load_game("sets")
    match = Match(game)
    team0 = replayed("sets-hand-made")            # +1 pip to team 0
    team1 = replayed("sets-hand-failed")          # -1 pip to team 1
    for _ in range(5):
        match.record_hand(team0)
    def sets(*pairs: tuple[int, int]) -> list[dict[str, int]]:
        return [{"red": r, "black": b} for r, b in pairs]

    assert match.scores == [5, 0] and match.sets == sets((0, 0), (0, 0))
    match.record_hand(team0)
    assert match.scores == [0, 0] and match.sets == sets((1, 0), (0, 0))   # +6: a red set, pips back to 0
    for _ in range(6):
        match.record_hand(team1)
    assert match.sets == sets((1, 0), (0, 1))
    match.sets = sets((1, 1), (1, 0))
    match.scores = [5, 0]
    match.record_hand(team0)
    assert match.sets == sets((1, 1), (0, 0))                              # red on both sides cancels
    match.sets = sets((2, 0), (0, 0))
    match.scores = [5, 0]
    assert not match.is_over
    match.record_hand(team0)
    assert match.sets == sets((3, 0), (0, 0)) and match.is_over and match.winners == [0]
    # played out, a match ends with three red sets, and no score ever reaches six
    for seed in range(3):
        m = _match_of("sets", seed)
        assert all(-6 < s < 6 for s in m.scores)
        if m.decided:
            assert max(st["red"] for st in m.sets) == 3


def test_dealer_rotation_by_how_the_hand_ended() -> None:
    for name in ("twenty-eight-kerala", "fifty-six-8p", "fifty-six-4p"):
        m = _match_of(name, 3, max_hands=60)
        for before, after in zip(m.hands, m.hands[1:], strict=False):
            passed = before.status == "complete"            # 56 and Kerala: the deal passes after a scored hand,
            assert after.dealer == ((before.dealer + 1) % m.game.n if passed else before.dealer)   # else stays
