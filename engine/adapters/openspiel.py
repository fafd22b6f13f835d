"""OpenSpiel adapter: every rule file as a Python `pyspiel.Game` (install with `pip install 'jacknine[openspiel]'`).

    from engine.adapters.openspiel import register
    register()                                   # once; imports pyspiel
    game = pyspiel.load_game("python_jacknine", {"ruleset": "twenty-nine"})

Chance nodes deal the pack one card at a time (outcome = card id); players then act through a fixed action index
space (`encoding.ActionSpace`) with legal-action masks. Observation tensors and strings come from the acting seat's
`View`, so nothing hidden leaks. Returns are the game points of each player's team for the hand (zero for an
annulled hand). pyspiel is imported only when `register()` is called."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from engine.adapters.encoding import (
    ActionSpace,
    Observation,
    deal_length,
    hands_from_order,
    max_actions,
    utility_bound,
)
from engine.play.actions import Action
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.play.view import View
from engine.rules.load import DEFAULT_RULESET

GAME_NAME = "python_jacknine"
DEFAULT_PARAMS: dict[str, Any] = {"ruleset": DEFAULT_RULESET, "dealer": 0}


@lru_cache(maxsize=32)
def _compiled(ruleset: str) -> tuple[Game, ActionSpace, Observation]:
    g = load_game(ruleset)
    return g, ActionSpace(g), Observation(g)


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
                "history": [str(a) for a in st.history]}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.ruleset = data["ruleset"]
        self.state = None
        if "dealt" in data:
            g = _compiled(self.ruleset)[0]
            self.state = g.new_hand(data["dealer"], hands=data["dealt"], match_scores=data["match_scores"])
            for text in data["history"]:
                self.state.apply(Action.parse(text))


class _Setup:
    """What a state needs of its game, rebuilt from the game's parameters."""

    def __init__(self, params: dict[str, Any]) -> None:
        p = {**DEFAULT_PARAMS, **params}
        self.ruleset = str(p["ruleset"])
        self.dealer = int(p["dealer"])
        self.engine_game, self.space, self.obs = _compiled(self.ruleset)


@lru_cache(maxsize=32)
def _setup(params: tuple[tuple[str, Any], ...]) -> _Setup:
    return _Setup(dict(params))


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
            self.order: list[int] = []       # the pack as dealt so far (chance outcomes)
            self.hand = _Hand(str(self.params.get("ruleset", DEFAULT_PARAMS["ruleset"])))

        @property
        def state(self) -> State | None:
            return self.hand.state

        @property
        def _g(self) -> _Setup:
            return _setup(tuple(sorted(self.params.items())))

        def current_player(self) -> int:
            if self.state is None:
                return int(pyspiel.PlayerId.CHANCE)
            if self.state.is_terminal:
                return int(pyspiel.PlayerId.TERMINAL)
            return self.state.to_act

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
            g = self._g.engine_game
            if self.state is None:
                self.order.append(action)
                if len(self.order) == deal_length(g):
                    self.hand.state = g.new_hand(self._g.dealer, hands=hands_from_order(g, self.order, self._g.dealer))
                return
            self.state.apply(self._g.space.action(self.state.to_act, action))

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
        """OpenSpiel's Python observer interface: `tensor`, `dict`, `set_from`, `string_from`."""

        def __init__(self, game: Any, iig_obs_type: Any) -> None:
            enc = self.enc = _setup(tuple(sorted(game.get_parameters().items()))).obs
            self.tensor = np.zeros(enc.size, np.float32)
            self.dict = {name: self.tensor[enc.offsets[name]: enc.offsets[name] + width] for name, width in enc.parts}

        def set_from(self, state: JackNineState, player: int) -> None:
            v = state.view(player)
            self.tensor.fill(0.0)
            if v is not None:
                self.tensor[:] = self.enc.encode(v)

        def string_from(self, state: JackNineState, player: int) -> str:
            v = state.view(player)
            return json.dumps(v.to_dict(), sort_keys=True) if v is not None else f"dealing {len(state.order)}"

    pyspiel.register_game(game_type, JackNineGame)
    return GAME_NAME
