"""The search bot on a wide auction (five players alone, 307 bids each naming a trump suit or no trump: 1,535 bid
actions a turn): the auction policy its rollouts play reads a few of a turn's actions, not all of them, so a
searched bid costs about what it costs in a shipped game; and it chooses exactly as the full reading does.
The seconds per hand are shown by benchmarks/search_wide.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, SupportsIndex

import pytest

from engine import load_game
from engine.bots.info import read_view
from engine.bots.policy import plain_speeches, state_knowledge
from engine.bots.search import SearchBot, contract_candidates
from engine.play.actions import Action
from engine.play.base import AUCTION
from engine.play.game import Game
from engine.play.state import State

WIDE = Path(__file__).resolve().parents[1] / "benchmarks" / "rules" / "five-wide-suits.yaml"


class Counting(tuple):  # type: ignore[type-arg]
    """A tuple of legal actions that counts the actions read from it."""

    reads = 0

    def __iter__(self) -> Iterator[Any]:
        for x in tuple.__iter__(self):
            Counting.reads += 1
            yield x

    def __getitem__(self, i: SupportsIndex | slice) -> Any:  # type: ignore[override]
        got = tuple.__getitem__(self, i)
        Counting.reads += len(got) if isinstance(i, slice) else 1
        return got


def _first_auction_state(game: Game, seed: int) -> State:
    st = game.new_hand(0, seed=seed)
    assert st.phase == AUCTION
    return st


def test_the_wide_file_offers_1535_bids_a_turn() -> None:
    game = load_game(WIDE)
    legal = _first_auction_state(game, 1).legal_actions()
    assert sum(a.verb == "bid" for a in legal) == 307 * 5


def test_an_auction_speech_of_the_policy_reads_a_few_actions() -> None:
    game = load_game(WIDE)
    policy = SearchBot(game, 1).policy
    for seed in range(5):
        st = _first_auction_state(game, seed)
        for _ in range(6):      # a few turns in, the standing bid rising
            legal = st.legal_actions()
            Counting.reads = 0
            choice = policy.choose(state_knowledge(st, st.to_act), Counting(legal))
            # the speeches before the bids, one value's suits, and the bids at the edges of the score bands found
            # by bisection: a few dozen of the 1,540 actions
            assert Counting.reads <= 3 + game.bids_per_value + 40, Counting.reads
            st.apply(choice if choice.verb == "bid" else next(a for a in legal if a.verb == "bid"))


def test_a_searched_bid_on_the_wide_auction_reads_a_bounded_number_of_actions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every action the search's rollouts read from the turns' legal actions, in one searched auction decision:
    about 575,000 when each speech read every bid; now a few thousand."""
    game = load_game(WIDE)
    bot = SearchBot(game, 3)
    st = _first_auction_state(game, 2)
    view = st.view(st.to_act)
    legal = st.legal_actions()
    seen = read_view(game, view)
    fallback = legal[0]
    candidates = contract_candidates(game, bot.policy, seen, legal, fallback)
    assert len(candidates) <= 2 + game.bids_per_value
    plain = State.legal_actions

    def counted(self: State) -> tuple[Action, ...]:
        return Counting(plain(self))

    monkeypatch.setattr(State, "legal_actions", counted)
    Counting.reads = 0
    bot.search(seen, candidates, 8, fallback)
    assert Counting.reads <= 40_000, Counting.reads


@pytest.mark.parametrize("ruleset", ["twenty-eight", "fifty-six", "thunee", "three-hundred-and-four", str(WIDE)])
def test_the_short_reading_chooses_as_the_full_one(ruleset: str) -> None:
    """Where the auction offers only a redeal, a pass and bids, the policy's choice equals what it chose reading
    every action (the special speeches weighed on top, none of which such an auction offers)."""
    game = load_game(ruleset)
    policy = SearchBot(game, 1).policy
    rng = random.Random(7)
    compared = 0
    for hand in range(12):
        st = game.new_hand(hand % game.n, seed=hand)
        while st.to_act >= 0 and st.phase == AUCTION:
            legal = st.legal_actions()
            k = state_knowledge(st, st.to_act)
            policy.plain_auction = False        # every action read, every bid weighed
            full = policy.special.bid(k, legal, policy.auction.bid(k, plain_speeches(legal)))
            policy.plain_auction = True
            assert policy.choose(k, legal) == full
            compared += 1
            st.apply(full if rng.random() < 0.6 else legal[rng.randrange(len(legal))])
    assert compared >= 12


@pytest.mark.parametrize("ruleset", ["twenty-nine", "fifty-six", "thunee", str(WIDE), "banded"])
def test_weighing_the_band_edges_chooses_as_weighing_every_bid(ruleset: str, monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    """The new auction weighs only the first and last bid of each stretch scored by one band (a bid's worth moves
    one way within a band): its choice equals weighing every bid. `banded`: the wide file with bands that pay more
    for higher bids, so the best bid is often not the lowest."""
    from engine.bots.bidding import AuctionRules

    if ruleset == "banded":
        (tmp_path / "wide.yaml").write_text(WIDE.read_text(encoding="utf-8"), encoding="utf-8")
        (tmp_path / "banded.yaml").write_text(
            "schema_version: 1\nname: banded\ndescription: higher bids pay more\nextends: ./wide.yaml\n"
            "scoring:\n  bands:\n    - {bids: [14, 59], made: 1, failed: -1}\n"
            "    - {bids: [60, 119], made: 6, failed: -1}\n    - {bids: [120, 320], made: 20, failed: -1}\n",
            encoding="utf-8")
        ruleset = str(tmp_path / "banded.yaml")
    game = load_game(ruleset)
    policy = SearchBot(game, 1).policy
    edges = AuctionRules.band_edges
    rng = random.Random(11)
    compared = 0
    for hand in range(12):
        st = game.new_hand(hand % game.n, seed=100 + hand)
        while st.to_act >= 0 and st.phase == AUCTION:
            legal = st.legal_actions()
            k = state_knowledge(st, st.to_act)
            short = policy.auction.bid(k, plain_speeches(legal))
            monkeypatch.setattr(AuctionRules, "band_edges", lambda self, bids: list(range(len(bids))))
            full = policy.auction.bid(k, plain_speeches(legal))
            monkeypatch.setattr(AuctionRules, "band_edges", edges)
            assert short == full
            compared += 1
            st.apply(short if rng.random() < 0.6 else legal[rng.randrange(len(legal))])
    assert compared >= 12
