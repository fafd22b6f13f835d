"""Match-level rules of issue 14's files, driven through the public `Match` API with fixed deals.

Each match is a sequence of the hand-worked records of tests/hands/more, turned round the table where the dealer
must move (a record's seats, dealer and actions all shift together, so its outcome is the same with the teams
renamed): before each hand the test checks that the match's dealer is the dealer MORE-GAMES.md gives, and after
it the scores it gives. The rules, from MORE-GAMES.md:

- 304: 10 stones each, the winner gains and the loser loses the stones of a hand; 20 wins (the other is then at
  0). The deal passes on after every hand, after an all-pass and after spoilt trumps; the same dealer deals after
  a low-point redeal.
- Thunee: the dealer keeps the deal while his team has fewer balls than the other and passes it once level or
  ahead; a void deal or a trumper's redeal is dealt again by the same dealer. Match to 12 balls; once a Khanaak
  has been called the target is 13. Double is not for a team one ball short of the target.
- Kerala: 20 stakes each (each player for three), exchanged; the match ends when a team (a player) has lost all.
- Fifty-Six for eight and four: 12 tables each; a team that cannot pay loses; an all-pass is dealt again.
- sets (on twenty-nine): at +6 a team opens a red set, at -6 a black one, and its pips return to 0; equal-coloured
  open sets on both sides cancel one for one; three red sets open win the match. The API these tests need for it:
  `Match.sets`, one {"red": R, "black": B} per match team (the open sets), with `Match.scores` the pips.

A test is skipped only while its rule file is not shipped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine import Match, load_game
from engine.record import read_record_text, replay
from engine.rules.load import shipped_rulesets

MORE = Path(__file__).parent / "hands" / "more"
SHIPPED = set(shipped_rulesets())


def needs(name: str) -> None:
    if name not in SHIPPED:
        pytest.skip(f"ruleset {name} is not shipped yet")


def record(stem: str, turn: int = 0) -> dict[str, Any]:
    """A record of tests/hands/more, its seats turned `turn` places round the table."""
    data = yaml.safe_load((MORE / f"{stem}.yaml").read_text(encoding="utf-8"))
    n = len(data["hands"])
    hands = data["hands"]
    items = sorted(hands.items()) if isinstance(hands, dict) else list(enumerate(hands))
    data["hands"] = {(seat + turn) % n: cards for seat, cards in items}
    data["hands"] = dict(sorted(data["hands"].items()))
    data["dealer"] = (data["dealer"] + turn) % n
    data["actions"] = [f"{(int(a.split()[0]) + turn) % n} {a.split(' ', 1)[1]}" for a in data["actions"]]
    return data


def outcome(stem: str) -> dict[str, Any]:
    return json.loads((MORE / f"{stem}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def play(match: Match, data: dict[str, Any]) -> None:
    """Deal the record's hand as the match's next hand and book it."""
    assert match.dealer == data["dealer"], f"the match's dealer is {match.dealer}, the rules give {data['dealer']}"
    rp = replay(read_record_text(yaml.safe_dump(data, sort_keys=False)), match.game)
    assert rp.error is None, rp.error
    assert rp.state.is_terminal, "the record does not finish its hand"
    match.record_hand(rp.state)


# --------------------------------------------------------------------------------------------- 304
def test_304_stones_and_dealer() -> None:
    needs("three-hundred-and-four")
    m = Match(load_game("three-hundred-and-four"), first_dealer=3)
    assert m.scores == [10, 10]
    play(m, record("304-all-pass-no-hand"))                 # dealer 3, all pass: the deal passes on
    assert m.scores == [10, 10]
    play(m, record("304-low-points-redeal", 1))             # dealer 0, first hand's redeal: same dealer
    assert m.dealer == 0
    play(m, record("304-pcc-made", 1))                      # PCC +4 for seats 1 and 3
    assert m.scores == [6, 14]
    play(m, record("304-spoilt-trumps", 2))                 # dealer 1, void: the deal passes on
    assert m.scores == [6, 14]
    play(m, record("304-pcc-made", 3))                      # dealer 2, PCC +4 for seats 1 and 3
    assert m.scores == [2, 18] and not m.decided
    play(m, record("304-failed-200-folded-card-last"))      # dealer 3, +3 to seats 1 and 3
    assert m.scores == [-1, 21]
    assert m.decided and m.winners == [1]


# ------------------------------------------------------------------------------------------- Thunee
def test_thunee_dealer_stays_while_behind_and_khanaak_raises_the_target() -> None:
    needs("thunee")
    m = Match(load_game("thunee"), first_dealer=0)
    play(m, record("thunee-void-deal"))                     # void: same dealer
    play(m, record("thunee-trumper-redeal"))                # the trumper's redeal: same dealer
    play(m, record("thunee-trumpers-hold"))                 # 1 ball to {1,3}: dealer 0's team is behind, he stays
    assert m.scores == [0, 1] and m.dealer == 0
    play(m, record("thunee-counting-exactly-105"))          # 1 ball to {0,2}: level, the deal passes on
    assert m.scores == [1, 1] and m.dealer == 1
    play(m, record("thunee-made", 1))                       # Thunee: 4 balls to {0,2}; dealer 1's team behind
    assert m.scores == [5, 1] and m.dealer == 1
    play(m, record("thunee-khanaak-trumpers-3", 1))         # Khanaak: 3 balls to {0,2}; the target becomes 13
    assert m.scores == [8, 1] and m.dealer == 1
    play(m, record("thunee-partner-catch", 1))              # partner catch: 8 balls to {1,3}, now ahead: passes
    assert m.scores == [8, 9] and m.dealer == 2
    play(m, record("thunee-lost-to-opponent", 2))           # 4 balls to {0,2}: 12, which no longer wins
    assert m.scores == [12, 9] and not m.decided and m.dealer == 3
    play(m, record("thunee-trumpers-hold", 3))              # 1 ball to {0,2}: 13
    assert m.scores == [13, 9] and m.decided and m.winners == [0]


def test_thunee_match_to_12_without_khanaak() -> None:
    needs("thunee")
    m = Match(load_game("thunee"), first_dealer=0)
    m.scores = [11, 0]
    play(m, record("thunee-counting-exactly-105"))          # 1 ball to {0,2}: 12 wins
    assert m.decided and m.winners == [0]


def test_thunee_no_double_one_ball_short() -> None:
    needs("thunee")
    game = load_game("thunee")
    data = record("thunee-last-trick-calls-offered")
    cards = [game.layout.parse_cards(data["hands"][s].split()) for s in range(4)]
    for short, offered in (([11, 0], False), ([10, 0], True)):
        state = game.new_hand(dealer=data["dealer"], hands=cards, match_scores=short)
        for text in data["actions"]:
            state.apply(next(a for a in state.legal_actions() if str(a) == text))
        assert ("declare double" in [a.notation for a in state.legal_actions()]) is offered, short


# ------------------------------------------------------------------------------------------- Kerala
def test_kerala_stakes() -> None:
    needs("twenty-eight-kerala")
    m = Match(load_game("twenty-eight-kerala"), first_dealer=3)
    assert m.scores == [20, 20]
    play(m, record("kerala-round-2-failed"))                # round 2 failed: -3 / +3; the first hand deals next
    assert m.scores == [17, 23] and m.dealer == 0
    play(m, record("kerala-round-2-made-folded-last", 1))   # round 2 made: +2 to seats 1 and 3
    assert m.scores == [15, 25] and not m.decided
    m.scores = [2, 38]
    play(m, record("kerala-round-2-failed", 2))             # -3: seats 0 and 2 have lost all their stake
    assert m.scores == [-1, 41] and m.decided and m.winners == [1]


def test_kerala_three_player_stakes_are_conserved() -> None:
    needs("twenty-eight-kerala-3p")
    m = Match(load_game("twenty-eight-kerala-3p"), first_dealer=2)
    assert m.scores == [20, 20, 20]
    play(m, record("kerala3-round-1-made-1-each"))          # seat 0 +2, seats 1 and 2 -1 each
    assert m.scores == [22, 19, 19] and m.dealer == 0
    play(m, record("kerala3-new-declarer-concedes", 1))     # seat 2 concedes round 2: -4, seats 0 and 1 +2
    assert m.scores == [24, 21, 15] and sum(m.scores) == 60
    m.scores = [40, 19, 1]
    play(m, record("kerala3-concede-after-round-1", 2))     # seat 2 concedes round 1: -2, the others +1
    assert m.scores == [41, 20, -1] and m.decided


# ---------------------------------------------------------------------------------------- Fifty-Six
@pytest.mark.parametrize(("name", "stem", "dealer"), [("fifty-six-8p", "fifty-six-8p-made-28-exactly", 7),
                                                      ("fifty-six-4p", "fifty-six-4p-made-28-nt", 3)])
def test_fifty_six_tables(name: str, stem: str, dealer: int) -> None:
    needs(name)
    game = load_game(name)
    m = Match(game, first_dealer=dealer)
    assert m.scores == [12, 12]
    data = record(stem)
    passes = dict(data, actions=[f"{(dealer + 1 + k) % game.n} pass" for k in range(game.n)])
    play(m, passes)                                         # every player passes: the same dealer deals again
    assert m.scores == [12, 12] and m.dealer == dealer
    play(m, data)                                           # made 28: +1 / -1
    assert m.scores == [13, 11]
    m.scores = [23, 1]
    # turned one seat, the failed contract is seats 1, 3, ...'s, who cannot pay
    play(m, record(stem.replace("made-28-exactly", "failed-29").replace("made-28-nt", "doubled-failed"), 1))
    assert m.decided and m.winners == [0] and m.scores[1] < 0


# -------------------------------------------------------------------------------------------- sets
def _sets(m: Match) -> list[dict[str, int]]:
    sets = getattr(m, "sets", None)
    assert sets is not None, "the sets overlay needs Match.sets: one {'red': R, 'black': B} per team (open sets)"
    return [dict(s) for s in sets]


def test_sets_open_cancel_and_win() -> None:
    needs("sets")
    m = Match(load_game("sets"), first_dealer=3)

    def cycle(first: str, second: str) -> None:
        for turn, stem in ((0, first), (1, second), (2, first), (3, second)):
            if not m.decided:
                play(m, record(stem, turn))

    # team 0 makes 28 at dealers 3 and 1 (+1), team 1 fails at dealers 0 and 2 (-1): after twelve hands team 0
    # has gained six pips (a red set) and team 1 lost six (a black set), both back at 0 pips
    for _ in range(3):
        cycle("sets-hand-made", "sets-hand-failed")
    assert m.scores == [0, 0]
    assert _sets(m) == [{"red": 1, "black": 0}, {"red": 0, "black": 1}]
    # now team 1 makes (+1 at dealers 0 and 2) and team 0 fails (-1 at dealers 3 and 1): team 1 opens a red set,
    # which cancels team 0's, and team 0 a black one, which cancels team 1's
    for _ in range(3):
        cycle("sets-hand-failed", "sets-hand-made")
    assert _sets(m) == [{"red": 0, "black": 0}, {"red": 0, "black": 0}] and not m.decided
    # three red sets open win: team 0 gains six pips three times, the third at the 35th hand from here (team 1
    # meanwhile opens two black sets)
    before = len(m.hands)
    for _ in range(9):
        cycle("sets-hand-made", "sets-hand-failed")
    assert m.decided and len(m.hands) - before == 35
    assert m.winners == [0] and _sets(m) == [{"red": 3, "black": 0}, {"red": 0, "black": 2}]
