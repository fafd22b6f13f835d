"""Check an installed jacknine (e.g. the mypyc-compiled build) against the golden records, then time it.

    python3 benchmarks/compiled_check.py REPO_DIR [HANDS] [--require-compiled]

Run it from outside the repository so that the installed package is imported, not the sources. Every golden
record under REPO_DIR/tests/hands must replay to its expected report; clones must stay independent; then the
random self-play rate is printed as JSON. Exits 1 on any difference.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import engine.play.state
from engine import load_game
from engine.record import read_record, replay, report
from engine.rules.load import shipped_rulesets
from engine.sim import bench


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    repo = Path(args[0])
    hands = int(args[1]) if len(args) > 1 else 20000
    failures = 0
    compiled = not engine.play.state.__file__.endswith(".py")
    if "--require-compiled" in sys.argv and not compiled:
        print(f"not compiled: {engine.play.state.__file__}", file=sys.stderr)
        failures += 1
    records = sorted((repo / "tests" / "hands").rglob("*.yaml"))
    for rec_path in records:
        expected_path = rec_path.with_suffix(".json")
        if not expected_path.is_file():
            continue
        rec = read_record(rec_path)
        got = report(replay(rec))
        if got != json.loads(expected_path.read_text(encoding="utf-8")):
            failures += 1
            print(f"differs: {rec_path}", file=sys.stderr)
    rng = random.Random(5)
    for name in shipped_rulesets():
        game = load_game(name)
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
    result = bench(load_game("twenty-eight"), hands)
    result["compiled"] = compiled
    result["records_checked"] = len(records)
    print(json.dumps(result))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
