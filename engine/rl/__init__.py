"""Reinforcement-learning environments for every rule file (install from a checkout: `pip install '.[rl]'`).

    import engine.rl
    env = engine.rl.env(ruleset="twenty-nine")            # PettingZoo AEC, one hand per episode
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0])
        env.step(action)

    learner = engine.rl.SingleSeatEnv(ruleset="twenty-nine", opponents="heuristic")   # Gymnasium, one seat
    venv = engine.rl.VectorEnv(num_hands=256)  # the default rule file: N hands from one array of actions

`env(ruleset=..., reward="hand" | "tricks", match=False, dealer=None, max_hands=1000, render_mode=None)` follows
PettingZoo's factory convention and returns the environment itself (`JackNineEnv`, no wrappers: it checks the
order of calls and the legality of actions on its own). See engine/rl/aec.py, engine/rl/single.py and
engine/rl/vector.py.
"""

from __future__ import annotations

from typing import Any

try:
    from engine.rl.aec import JackNineEnv
    from engine.rl.single import SingleSeatEnv
    from engine.rl.vector import VectorEnv
except ImportError as e:  # pettingzoo or gymnasium missing
    raise ImportError(f"engine.rl needs the 'rl' extra: pip install '.[rl]' (from a checkout) ({e})") from None

__all__ = ["JackNineEnv", "SingleSeatEnv", "VectorEnv", "env", "raw_env"]


def env(**options: Any) -> JackNineEnv:
    """The AEC environment for `ruleset=` (a shipped name, a rule file's path or a compiled `Game`)."""
    return JackNineEnv(**options)


raw_env = env
