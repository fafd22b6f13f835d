"""OpenSpiel adapter: every rule file as a Python `pyspiel.Game` (from a checkout: `pip install '.[openspiel]'`).

    from engine.adapters.openspiel import register
    register()                                   # once; imports pyspiel
    game = pyspiel.load_game("python_jacknine", {"ruleset": "twenty-nine"})

Chance nodes deal the pack one card at a time (outcome = card id); players then act through a fixed action index
space (`encoding.ActionSpace`) with legal-action masks. Observation tensors and strings hold only what the seat
sees (its `View`); the information state string is the seat's own cards in the order dealt and the public
history. Returns are the game points of each player's team for the hand (zero for an annulled hand).

`state.resample_from_infostate(player, sampler)` draws a world the player cannot tell from this one
(engine/adapters/resample.py: the bots' determinization, hidden cards dealt at random, a concealed trump drawn
among the bidder's choices, the history replayed by the engine), so OpenSpiel's Python IS-MCTS
(`open_spiel.python.algorithms.ismcts.ISMCTSBot`) searches any rule file. `RolloutEvaluator` finishes a state
with random legal actions on the engine's own state (the same uniform choices as OpenSpiel's
`RandomRolloutEvaluator`, without a pyspiel call per action). pyspiel is imported only when `register()` is
called."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from engine import load_game
from engine.adapters.encoding import (
    ActionSpace,
    Observation,
    deal_length,
    hands_from_order,
    hands_to_order,
    infostate_key,
    max_actions,
    stock_from_order,
    utility_bound,
)
from engine.adapters.resample import WorldDrawer, resample, world_drawer
from engine.play.actions import Action
from engine.play.game import Game
from engine.play.playout import random_playout
from engine.play.state import State
from engine.play.view import View
from engine.rules.load import DEFAULT_RULESET

GAME_NAME = "python_jacknine"
DEFAULT_PARAMS: dict[str, Any] = {"ruleset": DEFAULT_RULESET, "dealer": 0}


_GAMES: dict[str, tuple[Game, ActionSpace, Observation]] = {}


def _compiled(ruleset: str) -> tuple[Game, ActionSpace, Observation]:
    found = _GAMES.get(ruleset)
    if found is None:
        g = load_game(ruleset)
        found = _GAMES[ruleset] = (g, ActionSpace(g), Observation(g))
    return found


def use_game(game: Game) -> str:
    """The `ruleset` parameter under which `game`, already compiled (a worker gets its rules sent, not its file),
    is played in this process: its shipped name or path, or a name made from its rules."""
    import hashlib

    key = game.ref if game.ref is not None else f"rules:{hashlib.sha256(repr(game.rules).encode()).hexdigest()[:16]}"
    if key not in _GAMES or _GAMES[key][0].rules != game.rules:
        _GAMES[key] = (game, ActionSpace(game), Observation(game))
        _setup.cache_clear()
    return key


class _Hand:
    """Holds the engine state of a pyspiel state. pyspiel clones a Python state with `copy.deepcopy` and
    serializes it with pickle; both would copy the whole compiled game, so this holder clones with
    `State.clone()` (the game is immutable and shared) and pickles as rule file, deal and history."""

    def __init__(self, ruleset: str, state: State | None = None) -> None:
        self.ruleset = ruleset
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        return _Hand(self.ruleset, self.state.clone() if self.state is not None else None)

    def __getstate__(self) -> dict[str, Any]:
        st = self.state
        if st is None:
            return {"ruleset": self.ruleset}
        return {"ruleset": self.ruleset, "dealer": st.dealer, "dealt": st.dealt, "match_scores": st.match_scores,
                "history": [str(a) for a in st.history], "stock": st.stock or None}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.ruleset = data["ruleset"]
        self.state = None
        if "dealt" in data:
            g = _compiled(self.ruleset)[0]
            dealt = [h[:g.dealt_each] for h in data["dealt"]]
            self.state = g.new_hand(data["dealer"], hands=dealt, match_scores=data["match_scores"],
                                    stock=data.get("stock"))
            for text in data["history"]:
                self.state.apply(Action.parse(text))


class _Setup:
    """What a state needs of its game, rebuilt from the game's parameters: shared by every state of the game, so a
    copy of a state shares it and a pickle names it by the parameters."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.key = tuple(sorted(params.items()))
        p = {**DEFAULT_PARAMS, **params}
        self.ruleset = str(p["ruleset"])
        self.dealer = int(p["dealer"])
        self.engine_game, self.space, self.obs = _compiled(self.ruleset)
        self.deal_length = deal_length(self.engine_game)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _setup, (self.key,)


class _LastDrawer:
    """The world drawer of a state's last resample, kept while the state stays where it was: OpenSpiel's IS-MCTS
    resamples its root state for one player at every simulation, and the drawer reads the player's view once.
    A copy or a pickle of the state starts without it."""

    def __init__(self) -> None:
        self.key: tuple[State, int, int] | None = None
        self.drawer: WorldDrawer | None = None

    def get(self, state: State, player: int) -> WorldDrawer:
        key = self.key
        if key is None or self.drawer is None or key[0] is not state or key[1] != player \
                or key[2] != len(state.history):
            self.key = (state, player, len(state.history))
            self.drawer = world_drawer(state, player)
        return self.drawer

    def __deepcopy__(self, memo: dict[int, Any]) -> _LastDrawer:
        return _LastDrawer()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _LastDrawer, ()


@lru_cache(maxsize=32)
def _setup(params: tuple[tuple[str, Any], ...]) -> _Setup:
    return _Setup(dict(params))


class RolloutEvaluator:
    """An IS-MCTS evaluator (`evaluate`, `prior`): the returns of `n_rollouts` hands finished with uniformly random
    legal actions on the engine's state (`engine.play.playout.random_playout`), and a uniform prior."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        self.n_rollouts = n_rollouts
        self.rand = random.Random(seed).random

    def evaluate(self, state: Any) -> Any:
        import numpy as np

        st = state.state
        assert isinstance(st, State)
        total = np.zeros(st.n)
        for _ in range(self.n_rollouts):
            c = st.clone()
            random_playout(c, self.rand)
            gp = c.game_points
            total += [gp[c.hand_team_of[s]] for s in range(st.n)]
        return total / self.n_rollouts

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@lru_cache(maxsize=1)
def register() -> str:
    """Register the game with pyspiel (idempotent) and return its name."""
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]

    max_players = 6
    game_type = pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Jack-Nine family card games (jacknine rule files)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMS,
    )

    class JackNineGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            p = {**DEFAULT_PARAMS, **(params or {})}
            self.ruleset = str(p["ruleset"])
            self.dealer = int(p["dealer"])
            self.engine_game, self.space, self.obs = _compiled(self.ruleset)
            g = self.engine_game
            bound = utility_bound(g)
            info = pyspiel.GameInfo(
                num_distinct_actions=len(self.space), max_chance_outcomes=g.size, num_players=g.n,
                min_utility=-bound, max_utility=bound, utility_sum=None,
                max_game_length=deal_length(g) + max_actions(g))
            super().__init__(game_type, info, p)

        def new_initial_state(self) -> JackNineState:
            return JackNineState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            return Observer(self, iig_obs_type)

    class JackNineState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            # pyspiel may hand states a game object without this class's attributes: go by the parameters
            self.params = dict(game.get_parameters())
            self._g = _setup(tuple(sorted(self.params.items())))
            self.order: list[int] = []       # the pack as dealt so far (chance outcomes)
            self.hand = _Hand(str(self.params.get("ruleset", DEFAULT_PARAMS["ruleset"])))
            self._loading: list[int] | None = None    # while a world is loaded: the seats still to act
            self._drawer = _LastDrawer()

        @property
        def state(self) -> State | None:
            return self.hand.state

        def current_player(self) -> int:
            loading = self._loading
            if loading is not None:   # a world being written into OpenSpiel's history (see _load)
                if len(self.order) < self._g.deal_length:
                    return int(pyspiel.PlayerId.CHANCE)
                return loading[-1]
            st = self.hand.state
            if st is None:
                return int(pyspiel.PlayerId.CHANCE)
            if st.status != "in_progress":
                return int(pyspiel.PlayerId.TERMINAL)
            return st.to_act

        def is_terminal(self) -> bool:
            return self.state is not None and self.state.is_terminal

        def chance_outcomes(self) -> list[tuple[int, float]]:
            dealt = set(self.order)
            left = [c for c in range(self._g.engine_game.size) if c not in dealt]
            return [(c, 1.0 / len(left)) for c in left]

        def _legal_actions(self, player: int) -> list[int]:
            assert self.state is not None and player == self.state.to_act
            return self._g.space.legal(self.state)

        def _apply_action(self, action: int) -> None:
            setup = self._g
            loading = self._loading
            if loading is not None:
                if len(self.order) < setup.deal_length:
                    self.order.append(action)
                else:
                    loading.pop()
                return
            st = self.hand.state
            if st is None:
                # a chance outcome is a card not dealt yet: anything else would deal a card twice (or index the
                # pack from its end)
                if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < setup.engine_game.size \
                        or action in self.order:
                    raise pyspiel.SpielError(f"chance outcome {action!r} is not a card still to deal")
                self.order.append(action)
                if len(self.order) == setup.deal_length:
                    g = setup.engine_game
                    self.hand.state = g.new_hand(setup.dealer, hands=hands_from_order(g, self.order, setup.dealer),
                                                 stock=stock_from_order(g, self.order))
                return
            setup.space.apply(st, action)

        def _load(self, world: State) -> None:
            """Make this fresh state `world`: its deal and actions go into OpenSpiel's history as chance outcomes
            and actions (as if applied one by one), while the engine's state is the world itself, already played
            to that point."""
            space = self._g.space
            self._loading = [a.seat for a in reversed(world.history)]
            try:
                for c in hands_to_order(world.game, world.dealt, world.dealer) + world.stock:
                    self.apply_action(c)
                for a in world.history:
                    self.apply_action(space.of(a))
            finally:
                self._loading = None
            self.hand.state = world

        def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float] | None = None
                                    ) -> JackNineState:
            """A state `player_id` cannot tell from this one: the same information state string and observation,
            every card it cannot see dealt again at random (see engine/adapters/resample.py; when its draws find no deal
            that fits, this state itself, which fits by definition). The sampler,
            OpenSpiel's `UniformProbabilitySampler` or any callable giving floats in [0, 1), seeds the draws."""
            seed = int(probability_sampler() * (1 << 53)) if probability_sampler is not None else None
            rng = random.Random(seed)
            g = self._g.engine_game
            out = JackNineState(self.get_game())
            if self.state is None:     # still dealing: the players have seen nothing yet
                left = list(range(g.size))
                rng.shuffle(left)
                for c in left[:len(self.order)]:
                    out.apply_action(c)
                return out
            world = resample(self.state, player_id, rng, drawer=self._drawer.get(self.state, player_id))
            if world is None:     # the resampler found no other deal in its budget: this one fits the view
                same: JackNineState = self.clone()
                return same
            out._load(world)
            return out

        def _action_to_string(self, player: int, action: int) -> str:
            if player == int(pyspiel.PlayerId.CHANCE):
                g = self._g.engine_game
                copy = f"#{action % g.layout.copies + 1}" if g.layout.copies > 1 else ""
                return f"deal {g.codes[action]}{copy}"
            return f"{player} {self._g.space.names[action]}"

        def returns(self) -> list[float]:
            g = self._g.engine_game
            if self.state is None or not self.state.is_terminal:
                return [0.0] * g.n
            gp = self.state.game_points
            return [float(gp[self.state.hand_team_of[s]]) for s in range(g.n)]

        def view(self, player: int) -> View | None:
            if self.state is None:
                return None
            v = self.state.view(player)
            assert isinstance(v, View)
            return v

        def __str__(self) -> str:
            if self.state is None:
                return f"dealing: {len(self.order)} cards"
            return " ".join(str(a) for a in self.state.history) or "(no actions yet)"

    class Observer:
        """OpenSpiel's Python observer interface: `tensor`, `dict`, `set_from`, `string_from`. With perfect recall
        (the information state) the string is `encoding.infostate_key`; otherwise it is the seat's view."""

        def __init__(self, game: Any, iig_obs_type: Any) -> None:
            enc = self.enc = _setup(tuple(sorted(game.get_parameters().items()))).obs
            self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            self.tensor = np.zeros(enc.size, np.float32)
            self.dict = {name: self.tensor[enc.offsets[name]: enc.offsets[name] + width] for name, width in enc.parts}

        def set_from(self, state: JackNineState, player: int) -> None:
            self.tensor.fill(0.0)
            if state.state is not None:
                self.tensor[:] = self.enc.encode_state(state.state, player)

        def string_from(self, state: JackNineState, player: int) -> str:
            st = state.state
            if st is None:
                return f"dealing {len(state.order)}"
            if self.perfect_recall:
                return infostate_key(st, player)
            v = state.view(player)
            assert v is not None
            return json.dumps(v.to_dict(), sort_keys=True)


    pyspiel.register_game(game_type, JackNineGame)
    return GAME_NAME
