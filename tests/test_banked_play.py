"""Banked scoring played: whole hands of the test files in tests/rulefiles/banked (open-trump with Belote-like card
points) replayed and scored against a plain count of their tricks; the same deal under two files differing in one
field; matches of a number of deals, over a target in points, with a tie held over, and ending mid-deal."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from engine.cli.app import app
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.match import Match
from engine.play.state import State
from engine.record import read_record_text, record_of, replay, report

FILES = Path(__file__).parent / "rulefiles" / "banked"
TOTAL = 130   # the test files' card points: 30 a suit, 10 for the last trick


@cache
def game(name: str) -> Game:
    return load_game(FILES / f"{name}.yaml")


def played(g: Game, seed: int, dealer: int = 0, scores: list[int] | None = None) -> State:
    """A hand of seeded random play."""
    rng = random.Random(seed)
    s = g.new_hand(dealer, seed=seed, match_scores=scores)
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    return s


def expected(rep: dict[str, Any], coinche: bool) -> tuple[bool, list[int]]:
    """The banked score counted from the report alone (a second, plain reading of the test files' rules)."""
    team_of = {s: t for t, team in enumerate(rep["teams"]) for s in team}
    pts = [0, 0]
    for t in rep["tricks"]:
        pts[team_of[t["winner"]]] += t["points"]
    winners = {team_of[t["winner"]] for t in rep["tricks"]}
    if len(winners) == 1:   # a sweep counts 250 card points
        (sweep,) = winners
        pts = [250 if t == sweep else 0 for t in (0, 1)]
    c = rep["contract"]
    takers, bid = c["team"], c["bid"]
    defenders = 1 - takers
    made = pts[takers] > pts[defenders] and (not coinche or pts[takers] >= bid) and (
        len(winners) != 1 or takers in winners)
    out = [0, 0]
    if coinche and c.get("multiplier", 1) > 1:
        out[takers if made else defenders] = (160 + bid) * c["multiplier"]
    elif made:
        out = list(pts)
        if coinche:
            out[takers] += bid
    else:
        out[defenders] = 160 + bid if coinche else sum(pts)
    if coinche:
        out = [(p + 5) // 10 * 10 for p in out]
    return made, out


def test_whole_hands_score_as_a_plain_count_of_their_tricks() -> None:
    seen: set[tuple[str, bool, bool]] = set()
    for name, coinche in (("banked-open", False), ("banked-open-coinche", True)):
        g = game(name)
        for seed in range(40):
            s = played(g, seed, dealer=seed % 4)
            if s.status != "complete":
                continue
            rec = read_record_text(json.dumps(record_of(s, seed=seed).to_dict()), base_dir=FILES)
            rep = report(replay(rec, g))
            made, points = expected(rep, coinche)
            assert (rep["contract"]["made"], rep["game_points"]) == (made, points), (name, seed)
            seen.add((name, made, rep["contract"].get("multiplier", 1) > 1))
    # both outcomes came up, a failed coinche contract and a doubled one (random bids seldom make coinche's)
    assert {("banked-open", True, False), ("banked-open", False, False), ("banked-open-coinche", False, False)} <= seen
    assert any(doubled for _, _, doubled in seen)


def test_replay_json_reports_what_each_side_banks(tmp_path: Path) -> None:
    g = game("banked-open")
    s = played(g, 1)
    path = tmp_path / "hand.yaml"
    rec = record_of(s, seed=1).to_dict()
    rec["ruleset"] = str(FILES / "banked-open.yaml")
    path.write_text(yaml.safe_dump(rec))
    out = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert out.exit_code == 0, out.output
    rep = json.loads(out.stdout)
    assert rep["game_points"] == s.game_points and sum(rep["card_points"]) == TOTAL
    assert rep["contract"]["made"] == s.made


def _tie_seed(g: Game) -> int:
    for seed in range(400):
        s = played(g, seed)
        if s.status == "complete" and s.team_points == [65, 65]:
            return seed
    raise AssertionError("no tied deal in 400 seeds")


def test_twins_a_tie_is_dedans_or_held_over_for_the_next_deal() -> None:
    base, litige = game("banked-open"), game("banked-open-litige")
    seed = _tie_seed(base)
    a, b = played(base, seed), played(litige, seed)
    assert a.history == b.history and a.team_points == b.team_points == [65, 65]
    defenders = 1 - a.hand_team_of[a.bidder]
    assert a.game_points[defenders] == TOTAL and a.held_over == 0
    assert b.game_points[defenders] == 65 and b.game_points[1 - defenders] == 0 and b.held_over == 65
    assert a.made is False and b.made is False


def test_litige_the_held_points_go_to_the_next_deals_winner() -> None:
    g = game("banked-open-litige")
    tie = played(g, _tie_seed(g))
    m = Match(g, seed=0)
    m.record_hand(tie)
    assert m.held == 65 and sum(m.scores) == 65
    nxt = next(s for s in (played(g, seed) for seed in range(50)) if s.status == "complete" and s.held_over == 0)
    winner_team = nxt.hand_team_of[nxt.bidder] if nxt.made else 1 - nxt.hand_team_of[nxt.bidder]
    outcome = m.record_hand(nxt)
    assert m.held == 0
    assert outcome.game_points[winner_team] == nxt.game_points[winner_team] + 65
    assert outcome.game_points[1 - winner_team] == nxt.game_points[1 - winner_team]


def test_a_match_of_deals_ends_after_that_many_scored_deals_and_may_be_drawn() -> None:
    g = game("banked-open-litige")
    assert g.rules.match.deals == 4 and g.rules.match.win_at is None
    m = Match(g, seed=3)
    rng = random.Random(3)
    while not m.is_over:
        s = m.new_hand()
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
        m.record_hand(s)
    assert sum(h.status == "complete" for h in m.hands) == 4
    assert m.winners == [i for i, x in enumerate(m.scores) if x == max(m.scores)]
    m.scores = [300, 300]
    assert m.winners == [0, 1]   # equal totals: a draw


def test_over_the_target_at_the_end_of_a_deal_the_higher_wins() -> None:
    m = Match(game("banked-open"), seed=0)
    m.scores = [510, 530]
    assert m.decided and m.winners == [1]
    m.scores = [530, 530]
    assert m.winners == [0, 1]


def test_ends_mid_deal_the_deal_stops_at_the_credit_that_reaches_the_target() -> None:
    g = game("banked-open-mid-deal")
    stopped = 0
    for seed in range(20):
        s = played(g, seed, scores=[295, 0])
        if s.status != "complete":   # annulled (one player held every Jack)
            continue
        taken, upto = 0, 0
        while taken < 5 and upto < len(s.tricks):   # team 0's points, trick by trick, until it has 5
            t = s.tricks[upto]
            taken += t.points if s.hand_team_of[t.winner] == 0 else 0
            upto += 1
        if taken >= 5 and upto < s.hand_tricks:   # the deal stopped right after the trick that reached 300
            assert len(s.tricks) == upto and s.banked_stop == 3
            assert s.game_points[0] == taken
            stopped += 1
    assert stopped >= 5
    # without the rule the same deal plays to the end
    s = played(g, 0, scores=[0, 0])
    assert len(s.tricks) == s.hand_tricks and s.banked_stop == 0


def test_ends_mid_deal_in_a_match_the_side_that_reached_wins_alone() -> None:
    g = game("banked-open-mid-deal")
    for seed in range(6):
        m = Match(g, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            s = m.new_hand()
            while not s.is_terminal:
                s.apply(rng.choice(s.legal_actions()))
            m.record_hand(s)
        assert len(m.winners) == 1 and max(m.scores) >= 300 and min(m.scores) < 300


def test_the_trump_multiplier_on_the_state_multiplies_everything_banked() -> None:
    """The trump suit's or mode's multiplier (state.trump_multiplier, set when the trump is fixed) multiplies what
    each side banks; the same play with it left at 1 banks the plain points."""
    g = game("banked-open")
    plain = played(g, 1)
    rng = random.Random(1)
    s = g.new_hand(0, seed=1)
    while not s.is_terminal:
        if s.trump >= 0:
            s.trump_multiplier = 3
        s.apply(rng.choice(s.legal_actions()))
    assert s.history == plain.history and plain.game_points != [0, 0]
    assert s.game_points == [3 * p for p in plain.game_points]
    assert s.clone().trump_multiplier == 3
