"""The typed View: facts (masks, card ids, `Action`s, suit indexes) that agree with the state, a concealed trump
blanked for the others, a double pack's copies numbered as the view shows them, and an optional fact left out of
the JSON while it is unset (how the view grows without changing what outside bots receive)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

from engine.bots.base import make_bot
from engine.play.actions import Action
from engine.play.compile import load_game
from engine.play.game import NO_TRUMP, Game
from engine.play.state import State
from engine.play.view import CARD_LIST, View, fact, to_json


def _positions(game: Game, hands: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    bots = [make_bot("random", game, seed + s) for s in range(game.n)]
    out = []
    for i in range(hands):
        st = game.new_hand(i % game.n, seed=rng.getrandbits(32))
        while st.to_act >= 0:
            out.append(st.clone())
            st.apply(bots[st.to_act].choose(None, st.legal_actions()))
        out.append(st)
    return out


def test_the_view_holds_facts_that_agree_with_the_state() -> None:
    game = load_game("twenty-nine")
    checked = concealed = 0
    for st in _positions(game, 6, 1):
        for seat in range(game.n):
            v = st.view(seat)
            assert isinstance(v, View)
            assert v.hand == st.hands[seat]                   # a single pack: the state's own ids
            assert all(isinstance(a, Action) for a in v.history) and len(v.history) == len(st.history)
            assert list(v.legal) == (list(st.legal_actions()) if seat == st.to_act else [])
            for t, rec in zip(v.tricks, st.tricks, strict=True):
                assert (t.leader, list(t.seats), list(t.cards), t.winner, t.points) == \
                    (rec.leader, rec.seats, rec.cards, rec.winner, rec.points)
            assert list(v.trick.cards) == st.trick_cards
            if st.concealed and seat != st.high_bidder:
                concealed += 1
                assert v.trump is None and v.indicator is None
                for a, real in zip(v.history, st.history, strict=True):
                    if real.verb == "trump" and real.arg != "seventh":
                        assert a.seat == real.seat and a.verb == "trump" and a.arg == ""
                    else:
                        assert a is real
            elif st.trump >= NO_TRUMP:
                assert v.trump == st.trump
            if st.concealed and seat == st.high_bidder and st.indicator >= 0:
                assert v.indicator == st.indicator
            checked += 1
    assert checked > 100 and concealed > 20


def test_a_double_packs_copies_are_numbered_as_the_view_shows_them() -> None:
    """Two positions that differ only in which copy of a card a seat holds give equal views."""
    game = load_game("fifty-six")
    st = game.new_hand(0, seed=4)
    seat = 1
    dealt = [list(h) for h in st.dealt]
    # give seat 1 the other copy of each card it holds whose twin another seat holds
    swaps = 0
    for i, c in enumerate(dealt[seat]):
        twin = c ^ 1   # copies have adjacent ids
        for other in range(game.n):
            if other != seat and twin in dealt[other]:
                j = dealt[other].index(twin)
                dealt[seat][i], dealt[other][j] = twin, c
                swaps += 1
                break
    assert swaps
    twin_state = game.new_hand(0, hands=dealt)
    assert st.hands[seat] != twin_state.hands[seat]
    assert st.view(seat) == twin_state.view(seat)
    assert st.view(seat).to_dict() == twin_state.view(seat).to_dict()


@dataclass(frozen=True, kw_only=True)
class _Meld:
    seat: int = fact()
    cards: tuple[int, ...] = fact(CARD_LIST)


@dataclass(frozen=True, kw_only=True)
class _Grown:
    """A record grown the way the View grows: an optional fact at the end."""

    seat: int = fact()
    melds: tuple[_Meld, ...] = fact(optional=True, default=())


def test_an_optional_fact_is_written_only_when_set() -> None:
    game = load_game("twenty-eight")
    assert to_json(game, _Grown(seat=2)) == {"seat": 2}
    grown = _Grown(seat=2, melds=(_Meld(seat=1, cards=(0, 1)),))
    assert to_json(game, grown) == {"seat": 2, "melds": [{"seat": 1, "cards": [game.codes[0], game.codes[1]]}]}


# Text that bots and the table may still take apart - none of it comes from a View.
NOT_VIEW_TEXT = {
    ("engine/bots/program.py", 'rsplit(b")", 1)[1].split()'),  # a process's /proc stat line
    ("engine/bots/keeper.py", 'rsplit(b")", 1)[1].split()'),   # the keeper's /proc stat line
    ("engine/bots/registry.py", 'spec.split(":")'),          # a bot name
    ("engine/bots/registry.py", 'where.partition(":")'),     # the registry's own module:Class
    ("engine/bots/registry.py", 'text.split(",")'),          # a list of bot names
    ("engine/bots/program.py", "_buf.partition("),           # an outside program's output
    ("engine/bots/external.py", "shlex.split(command)"),     # the command line of an outside bot
    ("engine/bots/external.py", "text.split()"),             # an outside bot's answer
    ("engine/table/prompt.py", "t.split()"),                 # what the player typed
    ("engine/table/session.py", "probe.rpartition("),        # a save's field path
    ("engine/table/session.py", "str(cards[seat]).split()"),  # a save's cards
    ("engine/table/session.py", "str(stock).split()"),        # a save's stock
}


def test_no_bot_and_no_table_code_takes_view_text_apart() -> None:
    root = Path(__file__).resolve().parents[1]
    found = set()
    for folder in ("engine/bots", "engine/table"):
        for path in sorted((root / folder).glob("*.py")):
            rel = path.relative_to(root).as_posix()
            for line in path.read_text(encoding="utf-8").splitlines():
                if re.search(r"\.(r?partition|split)\(", line):
                    known = [snippet for f, snippet in NOT_VIEW_TEXT if f == rel and snippet in line]
                    assert known, f"{rel}: {line.strip()}"
                    found.add((rel, known[0]))
    assert found == NOT_VIEW_TEXT   # the list names nothing that is gone


def test_the_compiled_view_maker_sets_every_field() -> None:
    """Compiled, `build_view` fills a View field by field (engine/play/view.py `_make_view`, `_trick_view`) instead
    of the dataclass's generated __init__: each must set every field of its record, in the record's order, and
    take each as a parameter of the same name (a field added to View and not there would be left unset)."""
    import dataclasses
    import inspect

    from engine.play import view as view_module

    for maker, record, var in ((view_module._make_view, View, "v"), (view_module._trick_view, view_module.TrickView,
                                                                      "t")):
        names = [f.name for f in dataclasses.fields(record)]
        assert list(inspect.signature(maker).parameters) == names
        native = inspect.getsource(maker).split(f"{var} = {record.__name__}.__new__({record.__name__})")[1]
        sets = re.findall(rf"^    {var}\.(\w+) = (\w+)  # type: ignore\[misc\]$", native, re.M)
        assert sets == [(n, n) for n in names]
