"""The shared encodings (engine/adapters/encoding.py) and the resampled worlds (engine/adapters/resample.py), on
every shipped rule file, without any extra installed."""

from __future__ import annotations

import random

import pytest

from engine import load_game
from engine.adapters.encoding import ActionSpace, Observation, hands_from_order, hands_to_order, infostate_key
from engine.adapters.resample import WorldDrawer, resample
from engine.play.combinations import NOT_COMPARED
from engine.play.state import State
from engine.play.view import View
from tests.rulefile_sets import PLAYED

# the score-only overlays see and play every hand as their base files (tests/test_rulefile_sets.py)
SHIPPED = PLAYED


def random_states(ruleset: str, hands: int, seed: int) -> list[State]:
    """Every state of `hands` random hands (copies), the deals from seeds."""
    game = load_game(ruleset)
    space = ActionSpace(game)
    rng = random.Random(seed)
    out = []
    for i in range(hands):
        st = game.new_hand(i % game.n, seed=seed * 1000 + i)
        while True:
            out.append(st.clone())
            if st.to_act < 0:
                break
            space.apply(st, rng.choice(space.legal(st)))
    return out


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_state_encoding_is_the_view_encoding(ruleset: str) -> None:
    game = load_game(ruleset)
    obs = Observation(game)
    for st in random_states(ruleset, 12, 1):
        for seat in range(game.n):
            v = st.view(seat)
            assert isinstance(v, View)
            assert obs.encode_state(st, seat) == obs.encode(v), (ruleset, st.phase_name, seat)


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_fast_legal_indices_and_apply_agree_with_the_actions(ruleset: str) -> None:
    game = load_game(ruleset)
    space = ActionSpace(game)
    for st in random_states(ruleset, 8, 2):
        if st.to_act < 0:
            continue
        idx = space.legal(st)
        assert sorted(space.legal_fast(st)) == idx
        for i in idx:   # applying an index is applying its action
            a, b = st.clone(), st.clone()
            space.apply(a, i)
            b.apply(space.action(st.to_act, i))
            assert [str(x) for x in a.history] == [str(x) for x in b.history]


@pytest.mark.parametrize("ruleset", ["twenty-eight", "fifty-six", "twenty-eight-3p", "twenty-eight-6p"])
def test_pack_order_round_trips(ruleset: str) -> None:
    game = load_game(ruleset)
    for dealer in range(game.n):
        hands = game.shuffled_deal(dealer + 5, dealer)
        order = hands_to_order(game, hands, dealer)
        assert hands_from_order(game, order, dealer) == hands


def test_swapping_other_seats_cards_changes_no_observation_of_the_seat() -> None:
    """Every seat's encodings and information state key are blind to a swap of two other seats' cards while
    neither card has been seen (swapped in the deal, the same actions replayed)."""
    for ruleset in SHIPPED:
        game = load_game(ruleset)
        if game.stock_size or game.n < 3:   # a stock's deal and two players: tests/test_properties.py's swap
            continue
        obs = Observation(game)
        space = ActionSpace(game)
        rng = random.Random(3)
        for i in range(6):
            st = game.new_hand(i % game.n, seed=i)
            while st.to_act >= 0 and rng.random() < 0.9:
                space.apply(st, rng.choice(space.legal(st)))
            for seat in range(game.n):
                others = [s for s in range(game.n) if s != seat]
                a, b = rng.sample(others, 2)
                ka, kb = len(st.dealt[a]) - 1, len(st.dealt[b]) - 1   # the last cards dealt: the latest seen
                ca, cb = st.dealt[a][ka], st.dealt[b][kb]
                if not (st.hands[a] >> ca & 1 and st.hands[b] >> cb & 1) or ca in (st.indicator,) or cb in (
                        st.indicator,):
                    continue
                dealt = [list(h) for h in st.dealt]
                dealt[a][ka], dealt[b][kb] = cb, ca
                twin = game.new_hand(st.dealer, hands=dealt, stock=list(st.stock) or None)
                try:
                    for x in st.history:
                        twin.apply(x)
                except Exception:   # noqa: BLE001 - the swap made a past action illegal: not the same table
                    continue
                if twin.status != st.status or twin.to_act != st.to_act or twin.meld_suits != st.meld_suits:
                    continue        # the swap changed the hand itself (a deal annulled for who holds what, or a
                    #                 meld the engine showed: public once shown)
                assert obs.encode_state(twin, seat) == obs.encode_state(st, seat)
                assert infostate_key(twin, seat) == infostate_key(st, seat)
                va, vb = st.view(seat), twin.view(seat)
                assert isinstance(va, View) and isinstance(vb, View)
                assert obs.encode(va) == obs.encode(vb)


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_resampled_worlds_look_the_same_to_the_seat(ruleset: str) -> None:
    game = load_game(ruleset)
    rng = random.Random(4)
    failed = 0
    states = random_states(ruleset, 5, 4)
    for st in states:
        seat = st.to_act if st.to_act >= 0 else 0
        world = resample(st, seat, rng)
        if world is None:
            failed += 1
            continue
        assert world.view(seat) == st.view(seat)
        assert infostate_key(world, seat) == infostate_key(st, seat)
        assert world.dealt[seat][:st.given[seat]] == st.dealt[seat][:st.given[seat]] or game.layout.copies > 1
        # the same cards in play (with a stock, those dealt and those still in the stock)
        assert (sorted([c for h in world.dealt for c in h] + world.stock[world.stock_used:])
                == sorted([c for h in st.dealt for c in h] + st.stock[st.stock_used:]))
    assert failed == 0


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_every_hidden_card_moves_between_seats_across_worlds(ruleset: str) -> None:
    """At the first decision and after the first trick, every card the seat has not seen is dealt to more than
    one seat over 40 worlds, wherever more than one seat may hold it (a seat shown void in its suit may not)."""
    game = load_game(ruleset)
    space = ActionSpace(game)
    rng = random.Random(5)
    st = game.new_hand(0, seed=11)
    checkpoints = [st.clone()]
    while st.to_act >= 0 and len(st.tricks) < 1:
        space.apply(st, rng.choice(space.legal(st)))
    if st.to_act >= 0:
        checkpoints.append(st)
    for cp in checkpoints:
        seat = cp.to_act
        view = cp.view(seat)
        assert isinstance(view, View)
        drawer = WorldDrawer(game, view, list(cp.dealt[seat][:cp.given[seat]]))
        holders: dict[int, set[int]] = {}
        missed = 0
        for _ in range(40):
            world = drawer.draw(rng)
            if world is None:
                # a drawer does not yet read announced melds: a draw that contradicts one is refused (rare)
                assert game.rules.combinations is not None and len(cp.combos) > 0, ruleset
                missed += 1
                continue
            for s in range(game.n):
                for c in world.dealt[s]:
                    holders.setdefault(c, set()).add(s)
        seen = set(cp.dealt[seat][:cp.given[seat]])
        seen |= {c for t in cp.tricks for c in t.cards} | set(cp.trick_cards)
        if cp.combo_winner != NOT_COMPARED:    # announced melds are shown to all after trick 1
            seen |= {c for m in cp.combos for c in range(game.size) if m.cards >> c & 1}
        slots = drawer.slots
        for c in range(game.size):
            if c in seen:
                continue
            code_ids = game.code_ids[game.codes[c]]
            may = {s for s in range(game.n) if drawer.future[s] > 0 or any(slots.fixed[s] >> x & 1 for x in code_ids)
                   or (slots.need[s] > 0 and any(slots.allowed[s] >> x & 1 for x in code_ids))}
            places = set().union(*(holders.get(x, set()) for x in code_ids))
            if any(x in seen for x in code_ids):    # a double pack: the seat's own copy looks the same
                places.discard(seat)
                may.discard(seat)
            assert places <= may and (len(places) > 1 or len(may) < 2), (ruleset, game.codes[c], places, may)
        assert missed <= 4, (ruleset, missed)
