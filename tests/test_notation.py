"""Action notation is read strictly: exactly the arguments each verb takes, ASCII digits, the format's cards and
suits (or the symbols the table prints); anything else is refused with what was expected and a suggestion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from engine.errors import IllegalActionError, RecordError
from engine.play.actions import Action
from engine.play.compile import load_game


@pytest.mark.parametrize(("text", "canonical"), [
    ("2 play JS", "2 play JS"), ("2 play q\u2665", "2 play QH"), ("2 PLAY 10d", "2 play TD"),
    ("1 trump \u2666\ufe0f", "1 trump D"), ("0 bid 30 nt", "0 bid 30 NT"), ("0 bid 30 \u2660", "0 bid 30 S"),
    ("3 trump seventh", "3 trump seventh"), ("1 show PAIR", "1 show pair"), ("1 declare thani", "1 declare thani"),
    ("1 C", "1 C"), ("0 raise 24", "0 raise 24"),
    ("2 trump obenabe", "2 trump obenabe"), ("0 bid 100 undenufe", "0 bid 100 undenufe"),
])
def test_accepted_notation_is_canonical(text: str, canonical: str) -> None:
    a = Action.parse(text)
    assert str(a) == canonical
    assert Action.parse(str(a)) == a


@pytest.mark.parametrize(("text", "message"), [
    ("1 trump hearts", "did you mean 'trump H'?"),
    ("1 trump diamonds", "did you mean 'trump D'?"),
    ("1 bid 30 clubs", "did you mean 'bid 30 C'?"),
    ("1 trump Xyzs", "'Xyzs' is not a card, a suit (S H D C), NT or a trump mode's name"),
    ("1 trump obe_nabe", "is not a card, a suit (S H D C), NT or a trump mode's name"),
    ("1 redouble 99", "redouble takes no argument"),
    ("1 pass now", "pass takes no argument"),
    ("1 bid 16 17", "'17' is not a suit (S H D C), NT or a trump mode's name"),
    ("1 bid 16 S H", "a bid is a number and at most a suit or NT"),
    ("1 bid \u00b2", "a bid is a whole number such as 16"),
    ("1 bid \u0661\u0666", "a bid is a whole number such as 16"),
    ("1 bid " + "9" * 5000, "characters"),
    ("1 bid 12345678", "far too large"),
    ("1 play", "play needs an argument"),
    ("1 play J", "is not a card"),
    ("1 show pairs", "write 'show pair'"),
    ("-1 pass", "starts with a seat number"),
    ("\u0661 pass", "starts with a seat number"),
    ("1 p@ss", "is not an action verb"),
])
def test_refused_notation_says_why(text: str, message: str) -> None:
    with pytest.raises(RecordError) as err:
        Action.parse(text)
    assert message in str(err.value)


def test_a_card_outside_the_deck_never_names_a_suit() -> None:
    """twenty-nine names the trump suit: `trump 6S` (no Sixes) is illegal, not read as `trump S`."""
    game = load_game("twenty-nine")
    state = game.new_hand(0, seed=3)
    while state.phase_name != "trump":
        state.apply(state.legal_actions()[-1] if state.to_act == state.dealer else game.action(state.to_act, "pass"))
    with pytest.raises(IllegalActionError):
        state.apply(Action.parse(f"{state.to_act} trump 6S"))
    state.apply(Action.parse(f"{state.to_act} trump S"))
    assert state.trump_suit_code() == "S"


def test_an_unknown_verb_gets_a_suggestion() -> None:
    state = load_game("twenty-eight").new_hand(0, seed=1)
    with pytest.raises(IllegalActionError, match="did you mean 'pass'"):
        state.apply(Action.parse(f"{state.to_act} paas"))


def test_records_refuse_malformed_actions(tmp_path: Path) -> None:
    rec = tmp_path / "r.yaml"
    rec.write_text("ruleset: twenty-nine\ndealer: 0\nseed: 4\nactions:\n  - 1 bid 16\n  - 2 trump hearts\n")
    res = CliRunner().invoke(app, ["replay", str(rec), "--json"])
    assert res.exit_code == 1
    report = json.loads(res.stdout)
    assert report["status"] == "illegal" and report["error"]["index"] == 1
    assert "did you mean 'trump H'?" in report["error"]["message"]
