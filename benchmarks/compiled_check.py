"""Check an installed jacknine (e.g. the mypyc-compiled build) against the golden records, then time it.

    python3 benchmarks/compiled_check.py REPO_DIR [HANDS] [--require-compiled]

Run it from outside the repository so that the installed package is imported, not the sources. Every golden
record under REPO_DIR/tests/hands must replay to its expected report; clones must stay independent; every game's
rule records (compiled too) must survive pickling, as tournaments send them to worker processes; the `pimc` and
`search` bots (whose rollouts and sampled worlds are compiled too) must choose what the sources choose at the same
positions, the sources being run in a child process; the API contract of tests/api_contract.py (bad arguments
refused with the same error, pickling) must hold here as it holds for the sources; the work of a tournament must
travel to worker processes (the compiled rules pickled, the game rebuilt from them) and give the report of one
process; then the random self-play rate is printed as JSON. Exits 1 on any difference.

    python3 benchmarks/compiled_check.py REPO_DIR --api-only

runs the API contract alone.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import _installed  # noqa: F401

import engine.play.state
from engine import load_game
from engine.bots.base import make_bot
from engine.play.view import View
from engine.record import read_record, replay, report
from engine.rules.load import shipped_rulesets
from engine.sim import bench


def _pinned(expected: object, got: object) -> bool:
    """`got` has every key `expected` gives, with its value (lists element by element; other keys are free)."""
    if isinstance(expected, dict):
        return isinstance(got, dict) and all(k in got and _pinned(v, got[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(got, list) and len(got) == len(expected) and all(
            _pinned(e, a) for e, a in zip(expected, got, strict=True))
    return expected == got


def main() -> int:
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        return 0
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        print("usage: compiled_check.py REPO_DIR [HANDS] [--require-compiled | --api-only] (see --help)",
              file=sys.stderr)
        return 2
    repo = Path(args[0])
    if "--api-only" in sys.argv:
        return 1 if api_contract(repo) else 0
    hands = int(args[1]) if len(args) > 1 else 20000
    failures = 0
    compiled = not engine.play.state.__file__.endswith(".py")
    if "--require-compiled" in sys.argv and not compiled:
        print(f"not compiled: {engine.play.state.__file__}", file=sys.stderr)
        failures += 1
    records = sorted((repo / "tests" / "hands").rglob("*.yaml"))
    shipped = set(shipped_rulesets())
    for rec_path in records:
        expected_path = rec_path.with_suffix(".json")
        if not expected_path.is_file():
            continue
        rec = read_record(rec_path)
        pinned_only = rec_path.parent.name == "more"   # the referee's records pin some keys, not the whole report
        if pinned_only and rec.ruleset not in shipped:
            continue                                   # a game not shipped yet
        got = report(replay(rec))
        expected = json.loads(expected_path.read_text(encoding="utf-8"))
        if not (_pinned(expected, got) if pinned_only else got == expected):
            failures += 1
            print(f"differs: {rec_path}", file=sys.stderr)
    rng = random.Random(5)
    for name in shipped_rulesets():
        game = load_game(name)
        if pickle.loads(pickle.dumps(game.rules)) != game.rules:
            failures += 1
            print(f"rule records do not survive pickling: {name}", file=sys.stderr)
        for i in range(50):
            state = game.new_hand(i % game.n, seed=i)
            while not state.is_terminal:
                twin = state.clone()
                action = rng.choice(state.legal_actions())
                state.apply(action)
                twin.apply(action)
                if twin.history != state.history or twin.hands != state.hands:
                    failures += 1
                    print(f"clone differs: {name} seed {i}", file=sys.stderr)
                    break
    here = {"bots": bot_choices(), "facts": compiled_facts()}
    env = dict(os.environ, PYTHONPATH=str(repo))
    sources = subprocess.run([sys.executable, __file__, "--bot-choices"], env=env, capture_output=True, text=True,
                             check=False)
    if sources.returncode != 0 or json.loads(sources.stdout or "null") != here:
        failures += 1
        theirs = json.loads(sources.stdout or "null") or {}
        differ = [k for k in here["facts"] if theirs.get("facts", {}).get(k) != here["facts"][k]]
        print(f"bots, the sweep prover or the environments differ from the sources ({', '.join(differ) or 'bots'}): "
              f"{sources.stderr[-500:]}", file=sys.stderr)
    failures += workers_check()
    failures += api_contract(repo)
    result = bench(load_game("twenty-eight"), hands)
    result["compiled"] = compiled
    result["records_checked"] = len(records)
    print(json.dumps(result))
    return 1 if failures else 0


def api_contract(repo: Path) -> int:
    """The checks of tests/api_contract.py against the installed build: the number that fail (each printed)."""
    sys.path.insert(0, str(repo / "tests"))   # the tests folder only: `engine` stays the installed one
    import api_contract

    found = api_contract.failures()
    for line in found:
        print(f"API contract: {line}", file=sys.stderr)
    return len(found)


def workers_check() -> int:
    """The compiled rules pickle and rebuild the same game, and two worker processes give one process's report."""
    from engine.play.game import Game
    from engine.tournament import run, without_timings

    bad = 0
    for name in ("twenty-eight", "twenty-nine"):
        game = load_game(name)
        rules = pickle.loads(pickle.dumps(game.rules))
        one = without_timings(run(game, ["pimc:4", "heuristic"], 6, seed=2))
        rebuilt = without_timings(run(Game(rules, game.ref), ["pimc:4", "heuristic"], 6, seed=2))
        two = without_timings(run(game, ["pimc:4", "heuristic"], 6, seed=2, workers=2))
        if rules != game.rules or rebuilt != one or two != one:
            bad += 1
            print(f"work sent to workers differs: {name}", file=sys.stderr)
    return bad


def bot_choices() -> list[str]:
    """What `pimc` and `search` choose at every decision with a choice of two heuristic-played hands of
    twenty-eight and twenty-nine."""
    out: list[str] = []
    for name in ("twenty-eight", "twenty-nine"):
        game = load_game(name)
        players = [make_bot("heuristic", game, s) for s in range(game.n)]
        searchers = {spec: make_bot(spec, game, 1) for spec in ("pimc", "search")}
        for h in range(2):
            state = game.new_hand(h, seed=900 + h)
            while not state.is_terminal:
                view = state.view(state.to_act)
                assert isinstance(view, View)
                legal = state.legal_actions()
                if len(legal) > 1:
                    out.extend(f"{spec} {bot.choose(view, legal)}" for spec, bot in searchers.items())
                state.apply(players[state.to_act].choose(view, legal))
    return out


def compiled_facts() -> dict[str, object]:
    """What the modules compiled since the search bots (the View, the heuristic, the sweep prover and the claims'
    grading, the observation encoder and the vector runners) give, to compare with the sources: heuristic
    self-play reports, the prover's answers and positions at every turn to play of random hands (the positions
    of tests/test_sweep_prover.py), and the observations of seeded runs of both learning environments."""
    import engine.play.sweep_proof as sweep_proof
    from engine.sim import simulate

    out: dict[str, object] = {}
    for name in ("twenty-eight", "three-hundred-and-four", "thunee"):
        game = load_game(name)
        out[f"heuristic {name}"] = simulate(game, 30, 9, ["heuristic"] * game.n).to_dict()
    for name in ("three-hundred-and-four", "thunee"):
        game = load_game(name)
        answers: list[object] = []
        for seed in range(15):
            rng = random.Random(seed)
            s = game.new_hand(seed % game.n, seed=seed)
            while s.to_act >= 0:
                legal = s.legal_actions()
                if s.phase_name == "play" and any(a.verb == "play" for a in legal):
                    answers.append(list(sweep_proof.bounded_sweep(s, s.to_act, True, 20_000)))
                s.apply(rng.choice(legal))
        out[f"sweep {name}"] = answers
    try:
        import numpy as np

        import engine.rl
    except ImportError:
        return out
    for name in ("twenty-eight", "three-hundred-and-four"):
        venv = engine.rl.VectorEnv(ruleset=name, num_hands=8)
        pick = np.random.default_rng(1)
        obs, masks, _ = venv.reset(seed=3)
        sums: list[float] = []
        for _ in range(150):
            obs, masks, rewards, _, _ = venv.step(np.argmax(masks * pick.random(masks.shape), axis=1))
            sums.append(round(float(obs.astype(np.float64).sum() + rewards.sum()), 4))
        out[f"vector {name}"] = sums
        aec = engine.rl.env(ruleset=name)
        aec.reset(seed=3)
        rng = random.Random(3)
        seen: list[float] = []
        for _hand in range(6):
            for _agent in aec.agent_iter():
                ob, _, term, trunc, _ = aec.last()
                seen.append(round(float(ob["observation"].astype(np.float64).sum()), 4))
                aec.step(None if term or trunc else rng.choice(list(np.flatnonzero(ob["action_mask"]))))
            aec.reset()
        out[f"aec {name}"] = seen
    return out


if __name__ == "__main__":
    if "--bot-choices" in sys.argv:
        print(json.dumps({"bots": bot_choices(), "facts": compiled_facts()}))
        sys.exit(0)
    sys.exit(main())
