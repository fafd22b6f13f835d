"""Outside bots over JSON lines: the example bot plays, and every way a program can fail is reported and covered
by the random bot without stopping the tournament."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from engine.bots.base import make_bot
from engine.bots.external import ExternalBot
from engine.play.compile import load_game
from engine.play.view import View
from engine.tournament import run

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "bots" / "lowest_card.py"
PY = shlex.quote(sys.executable)

# Each misbehaving program answers its first request properly (so the protocol works), then fails its own way.
PROGRAMS = {
    "crash": "import json,sys\nfor i, line in enumerate(sys.stdin):\n"
             "    if i == 1: sys.exit(3)\n"
             "    print(json.dumps({'action': json.loads(line)['legal'][0]}), flush=True)\n",
    "stall": "import json,sys,time\nfor i, line in enumerate(sys.stdin):\n"
             "    if i == 1: time.sleep(30)\n"
             "    print(json.dumps({'action': json.loads(line)['legal'][0]}), flush=True)\n",
    "illegal": "import json,sys\nfor line in sys.stdin:\n    print(json.dumps({'action': 'play XX'}), flush=True)\n",
    "garbage": "import sys\nfor line in sys.stdin:\n    print('hello', flush=True)\n",
    "wrong-seat": "import json,sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
                  "    print(json.dumps({'action': f\"{m['seat'] + 1} {m['legal'][0]}\"}), flush=True)\n",
}


def _program(tmp_path: Path, kind: str) -> str:
    path = tmp_path / f"{kind}.py"
    path.write_text(PROGRAMS[kind])
    return f"cmd:{PY} {shlex.quote(str(path))}"


def test_example_bot_plays_a_tournament_without_incidents() -> None:
    rep = run(load_game("twenty-eight"), [f"cmd:{PY} {shlex.quote(str(EXAMPLE))}", "random"], 3, seed=1)
    ext = rep["bots"][0]
    assert ext["incidents"] == 0, ext["incident_examples"]
    assert ext["decisions"] > 40


def test_the_protocol_accepts_a_seat_prefix_and_canonical_forms(tmp_path: Path) -> None:
    path = tmp_path / "prefix.py"
    path.write_text("import json,sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
                    "    a = m['legal'][-1].lower()\n"
                    "    print(json.dumps({'action': f\"{m['seat']} {a}\"}), flush=True)\n")
    bot = make_bot(f"cmd:{PY} {shlex.quote(str(path))}", load_game("twenty-nine"), 1)
    assert isinstance(bot, ExternalBot)
    game = load_game("twenty-nine")
    st = game.new_hand(0, seed=4)
    try:
        while st.to_act >= 0:
            view = st.view(st.to_act)
            assert isinstance(view, View)
            legal = st.legal_actions()
            assert bot.choose(view, legal) == legal[-1]
            st.apply(legal[-1])
    finally:
        bot.close()
    assert bot.incidents == []


@pytest.mark.parametrize(("kind", "reason"), [
    ("crash", "the program exited (code 3)"),
    ("stall", "no answer within 0.3 s (stalled; stopped)"),
    ("illegal", "illegal action 'play XX'"),
    ("garbage", "unreadable answer 'hello'"),
    ("wrong-seat", "answered '"),
])
def test_failures_are_reported_and_the_random_bot_stands_in(tmp_path: Path, kind: str, reason: str) -> None:
    rep = run(load_game("twenty-nine"), [_program(tmp_path, kind), "heuristic"], 1, seed=2, time_limit=0.3)
    ext = rep["bots"][0]
    assert ext["incidents"] >= 1
    assert reason in ext["incident_examples"][0]
    assert "the random bot played" in ext["incident_examples"][0]
    assert rep["hands"] == 2 and rep["bots"][0]["decisions"] > 10   # the hands were played to the end


def test_a_missing_program_is_reported_not_raised() -> None:
    rep = run(load_game("twenty-nine"), ["cmd:/nonexistent/bot --fast", "random"], 1, seed=2)
    ext = rep["bots"][0]
    assert ext["incidents"] == ext["decisions"] > 0
    assert "cannot start '/nonexistent/bot --fast'" in ext["incident_examples"][0]


def test_a_stalled_program_is_restarted_then_given_up(tmp_path: Path) -> None:
    bot = make_bot(_program(tmp_path, "stall"), load_game("twenty-nine"), 1)
    assert isinstance(bot, ExternalBot)
    bot.time_limit = 0.3
    game = load_game("twenty-nine")
    st = game.new_hand(0, seed=4)
    try:
        for _ in range(12):
            if st.to_act < 0:
                st = game.new_hand(0, seed=5)
            view = st.view(st.to_act)
            assert isinstance(view, View)
            st.apply(bot.choose(view, st.legal_actions()))
    finally:
        bot.close()
    # each start answers once and then stalls; after the last permitted restart the random bot plays for it
    assert sum("stalled" in x for x in bot.incidents) == 4
    assert any("gave up restarting" in x for x in bot.incidents)
