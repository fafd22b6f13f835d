"""The search bot: deterministic for a seed (in any process), legal in every shipped ruleset and in house rules, its
sampled worlds never contradict the seat's view, its contract search returns legal actions, and the model of the
other seats agrees with the heuristic it models."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.bots.base import BotOptions, check_bot_spec, known_bots, make_bot
from engine.bots.info import read_view
from engine.bots.model import (
    SIDE_SECOND,
    SIDE_SECOND_GUARDED,
    SIDE_THIRD,
    SIDE_TOP,
    TRUMP_UNITS,
    HandModel,
    model_for,
)
from engine.bots.pimc import PimcBot
from engine.bots.search import SearchBot, contract_candidates, play_candidates
from engine.bots.worlds import Sampler
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.play.view import View
from tests.rulefile_sets import PLAYED

ROOT = Path(__file__).resolve().parents[1]
HOUSE_RULES = {
    # a house rule of its own name, and one that reuses a shipped name with other cards and rules
    "our-29.yaml": "schema_version: 1\nname: our-29\nextends: twenty-nine\ndescription: our Twenty-Nine\n"
                   "play:\n  no_discard_before_suit_led: [J]\n",
    "sixes.yaml": "schema_version: 1\nname: twenty-eight\nextends: twenty-eight\ndescription: our 28 with sixes\n"
                  "deck:\n  ranks: [J, '9', A, T, K, '6', '8', '7']\n",
}


@pytest.fixture
def house(tmp_path: Path) -> dict[str, Game]:
    out = {}
    for name, text in HOUSE_RULES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        out[name] = load_game(tmp_path / name)
    return out


def _decisions(game: Game, hands: int, seed: int, bot: str = "heuristic") -> list[tuple[State, View]]:
    """(state, view of the seat to act) at every decision with a choice, in hands the given bots play."""
    rng = random.Random(seed)
    bots = [make_bot(bot, game, seed + s) for s in range(game.n)]
    out = []
    for i in range(hands):
        st = game.new_hand(i % game.n, seed=rng.getrandbits(32))
        while st.to_act >= 0:
            view = st.view(st.to_act)
            assert isinstance(view, View)
            legal = st.legal_actions()
            if len(legal) > 1:
                out.append((st.clone(), view))
            st.apply(bots[st.to_act].choose(view, legal))
    return out


def _play_whole_hands(game: Game, spec: str, hands: int) -> None:
    bots = [make_bot(spec, game, s) for s in range(game.n)]
    for i in range(hands):
        st = game.new_hand(i % game.n, seed=300 + i)
        while st.to_act >= 0:
            view = st.view(st.to_act)
            assert isinstance(view, View)
            st.apply(bots[st.to_act].choose(view, st.legal_actions()))   # apply() refuses an illegal action
        assert st.status in ("complete", "annulled")


def test_the_registry_names_pimc_and_search() -> None:
    assert {"pimc", "search"} <= set(known_bots())
    game = load_game("twenty-eight")
    assert isinstance(make_bot("pimc", game), PimcBot)
    assert isinstance(make_bot("search", game), SearchBot)
    pimc = make_bot("pimc:7", game)
    assert isinstance(pimc, PimcBot) and pimc.worlds == 7
    search = make_bot("search:5", game)
    assert isinstance(search, SearchBot) and search.worlds == 5
    for bad in ("pimc:0", "pimc:x", "heuristic:2", "pimc:1234567", "search:8:8", "pimc:never:never", "search:"):
        with pytest.raises(ValueError, match="takes only '"):
            check_bot_spec(bad)
    both = make_bot("search:never:12", game)
    assert isinstance(both, SearchBot) and both.worlds == 12 and both.policy.never
    assert not make_bot("search", game).policy.never  # type: ignore[attr-defined]


@pytest.mark.parametrize("ruleset", PLAYED)   # (the score-only overlays play as their bases: test_rulefile_sets)
def test_search_plays_legally_in_every_shipped_ruleset(ruleset: str) -> None:
    _play_whole_hands(load_game(ruleset), "search:3", 1)


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_search_plays_legally_in_house_rules(name: str, house: dict[str, Game]) -> None:
    game = house[name]
    _play_whole_hands(game, "search:3", 2)
    _play_whole_hands(game, "pimc:3", 1)


def test_search_is_deterministic_for_a_seed() -> None:
    game = load_game("twenty-nine")
    for st, view in _decisions(game, 2, 9)[::5]:
        legal = st.legal_actions()
        picks = {str(make_bot("search:6", game, 42).choose(view, legal)) for _ in range(2)}
        assert len(picks) == 1


def test_search_chooses_alike_in_another_process() -> None:
    """Nothing hangs on hashing or memory addresses: a fresh interpreter with another hash seed chooses alike."""
    script = (
        "import json, random\n"
        "from engine.bots.base import make_bot\n"
        "from engine.play.compile import load_game\n"
        "out = []\n"
        "for name in ('twenty-eight', 'twenty-nine'):\n"
        "    game = load_game(name)\n"
        "    bots = [make_bot('search', game, 11 + s) for s in range(game.n)]\n"
        "    st = game.new_hand(1, seed=77)\n"
        "    while st.to_act >= 0:\n"
        "        a = bots[st.to_act].choose(st.view(st.to_act), st.legal_actions())\n"
        "        out.append(str(a))\n"
        "        st.apply(a)\n"
        "print(json.dumps(out))\n"
    )
    runs = []
    for hash_seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
                              env={"PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT), "PATH": ""})
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
    assert len(runs[0]) > 60


@pytest.mark.parametrize("ruleset", ["twenty-eight", "twenty-nine", "fifty-six", "seventh-card", "twenty-eight-3p",
                                     "no-jack-discard", "single-hand", "open-trump", "our-29.yaml", "sixes.yaml"])
def test_sampled_worlds_never_contradict_the_view(ruleset: str, house: dict[str, Game]) -> None:
    """Every world the inference keeps shows the seat exactly its view (hand, hand sizes, history with hidden
    arguments blanked, tricks) and gives the other seats only cards the seat cannot see, none of a suit they
    showed void in - in the auction (cards still to come dealt too) and in the play, trump concealed or not."""
    game = house[ruleset] if ruleset in house else load_game(ruleset)
    model = model_for(game)
    rng = random.Random(5)
    checked = phases = 0
    seen_phases: set[str] = set()
    for st, view in _decisions(game, 3, 11)[::2]:
        seat = st.to_act
        seen = read_view(game, view)
        kept = Sampler(game, seen, model).sample(rng, 6, 12)
        for world, weight in kept:
            assert weight >= 1
            assert world.view(seat) == view
            for s in range(game.n):
                if s == seat:
                    continue
                assert not world.hands[s] & seen.hand
                assert not world.hands[s] & seen.played
                for suit in range(game.nsuits):
                    if seen.voids[s] >> suit & 1:
                        assert not world.hands[s] & game.suit_masks[suit], (s, suit)
            checked += 1
        if kept and view.phase not in seen_phases:
            seen_phases.add(view.phase)
            phases += 1
    assert checked >= 20
    assert "play" in seen_phases and "auction" in seen_phases


def test_inference_reads_the_auction() -> None:
    """An opponent of the bidder, first to play, deals the bidder a stronger hand when the bids and passes weigh
    the worlds than when they do not."""
    game = load_game("twenty-eight")
    model = model_for(game)
    bots = [make_bot("heuristic", game, s) for s in range(game.n)]
    rng = random.Random(3)
    gaps = []
    for i in range(24):
        st = game.new_hand(i % game.n, seed=5000 + i)
        while st.to_act >= 0 and not (st.phase_name == "play" and st.hand_team_of[st.to_act] !=
                                      st.hand_team_of[st.bidder]):
            view = st.view(st.to_act)
            assert isinstance(view, View)
            st.apply(bots[st.to_act].choose(view, st.legal_actions()))
        if st.to_act < 0:
            continue
        view = st.view(st.to_act)
        assert isinstance(view, View)
        bidder = st.bidder
        means = []
        for weigh in (True, False):
            sampler = Sampler(game, read_view(game, view), model, play_weight=False, contract_weight=weigh)
            kept = sampler.sample(rng, 40, 120)
            total = sum(k for _, k in kept)
            means.append(sum(k * model.best_trump(w.hands[bidder], False)[1] for w, k in kept) / total)
        gaps.append(means[0] - means[1])
    assert len(gaps) >= 10
    assert sum(gaps) / len(gaps) > 0.15, gaps
    assert sum(g > 0 for g in gaps) > len(gaps) / 2


def _units(game: Game, hand: int, trump: int) -> float:
    """The hand evaluation as first written (per card, by rank position from the top): the reference."""
    top = max(game.strength)
    cards = [c for c in range(game.size) if hand >> c & 1]
    held_top = {game.suit_of[c] for c in cards if top - game.strength[c] == 0}
    units = 0.0
    for c in cards:
        s, r = game.suit_of[c], top - game.strength[c]
        if s == trump:
            units += TRUMP_UNITS[min(r, len(TRUMP_UNITS) - 1)]
        elif r == 0:
            units += SIDE_TOP * (1.3 if trump < 0 else 1.0)
        elif r == 1:
            units += SIDE_SECOND_GUARDED if s in held_top else SIDE_SECOND
        elif r == 2:
            units += SIDE_THIRD
    return units


def test_hand_model_evaluates_as_the_reference() -> None:
    game = load_game("fifty-six")
    m = HandModel(game)
    rng = random.Random(2)
    for _ in range(200):
        hand = 0
        for c in rng.sample(range(game.size), 8):
            hand |= 1 << c
        for trump in range(-1, game.nsuits):
            assert m.units(hand, trump) == pytest.approx(_units(game, hand, trump), abs=1e-9)
        for allow_nt in (False, True):
            # compared in hundredths, as the model adds them: hands of equal worth tie exactly
            options = [(round(100 * _units(game, hand, s)), (hand & game.suit_masks[s]).bit_count(), s)
                       for s in range(game.nsuits)]
            if allow_nt:
                options.append((round(100 * _units(game, hand, -1)) - 100, 0, -1))
            u, _, s = max(options)
            assert m.best_trump(hand, allow_nt) == (s, u / 100)


@pytest.mark.parametrize("ruleset", ["twenty-eight", "twenty-nine", "fifty-six", "seventh-card", "double-redouble",
                                     "thani", "single-hand", "twenty-eight-3p", "sixes.yaml"])
def test_contract_search_returns_legal_actions(ruleset: str, house: dict[str, Game]) -> None:
    """Every auction and contract step, searched whatever the heuristic thinks of it, comes back legal."""
    game = house[ruleset] if ruleset in house else load_game(ruleset)
    bot = SearchBot(game, 1, BotOptions(worlds=3))
    phases = set()
    for st, view in _decisions(game, 4, 21):
        if view.phase == "play":
            continue
        legal = st.legal_actions()
        seen = read_view(game, view)
        fallback = legal[0]
        candidates = contract_candidates(game, bot.policy, seen, legal, fallback)
        assert candidates and all(a in legal for a in candidates)
        assert bot.search(seen, candidates, 3, fallback) in legal
        assert bot.choose(view, legal) in legal
        phases.add(view.phase)
    assert "auction" in phases


@pytest.mark.parametrize("ruleset", ["twenty-eight", "fifty-six", "no-jack-discard"])
def test_equivalent_cards_are_searched_once(ruleset: str) -> None:
    """Of cards nothing can separate (same suit and points, same standing under a discard rule, no card another
    seat may hold between them) one is tried, the heuristic's choice among them; every other action is kept."""
    game = load_game(ruleset)
    pruned = 0
    for st, view in _decisions(game, 4, 31):
        if view.phase != "play":
            continue
        legal = st.legal_actions()
        seen = read_view(game, view)
        for fallback in (legal[0], legal[-1]):
            kept = play_candidates(game, seen, legal, fallback)
            assert fallback in kept and set(kept) <= set(legal)
            assert [a for a in legal if a in kept] == kept          # in the legal actions' order
            card = {a: next(c for c in game.code_ids[a.arg] if st.hands[st.to_act] >> c & 1)
                    for a in legal if a.verb == "play"}
            for a in legal:
                if a in kept:
                    continue
                pruned += 1
                assert a.verb == "play"
                twins = [b for b in kept if b.verb == "play" and _alike(game, seen, card[a], card[b])]
                assert twins, a
    assert pruned >= 10


def _alike(game: Game, seen: object, a: int, b: int) -> bool:
    from engine.bots.info import Seen

    assert isinstance(seen, Seen)
    if game.suit_of[a] != game.suit_of[b] or game.points[a] != game.points[b]:
        return False
    lo, hi = sorted((seen.strength[a], seen.strength[b]))
    return not any(seen.unknown >> c & 1 and game.suit_of[c] == game.suit_of[a] and lo < seen.strength[c] < hi
                   for c in range(game.size))
