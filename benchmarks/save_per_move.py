"""What one move costs the table's save at a long match: the save of a match of HANDS finished hands (default
2,000, the table's limit) plus one hand in progress is written as after a move, whole (every hand dumped again, as
before the hands' text was kept) and with the finished hands' text kept (what the table does).

    python3 benchmarks/save_per_move.py [HANDS] [MOVES]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import _installed  # noqa: F401

from engine import load_game
from engine.record import record_of
from engine.table.save import MatchSave, SaveLock, hand_yaml, write_atomic


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("hands", nargs="?", type=int, default=2000, help="finished hands in the match's save")
    ap.add_argument("moves", nargs="?", type=int, default=20, help="moves timed")
    args = ap.parse_args()
    hands, moves = args.hands, args.moves
    game = load_game("twenty-eight")
    rng = random.Random(1)
    records = []
    for i in range(hands):
        state = game.new_hand(i % game.n, seed=i)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        rec = record_of(state, seed=i).to_dict()
        rec["ruleset"] = "twenty-eight"
        records.append(rec)
    current = game.new_hand(0, seed=hands)
    texts = [hand_yaml(r) for r in records]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.yaml"
        lock = SaveLock()
        for label, kept in (("whole dump", None), ("finished hands kept", texts)):
            start = time.perf_counter()
            for _ in range(moves):
                current.apply(current.legal_actions()[0]) if not current.is_terminal else None
                rec = record_of(current, seed=hands).to_dict()
                save = MatchSave("twenty-eight", 0, 1, "heuristic", 2000, [*records, rec], [0, 0])
                write_atomic(path, save.to_yaml(kept), lock)
            per_move = (time.perf_counter() - start) / moves
            print(f"{label}: {per_move * 1000:.1f} ms per move at {hands} hands "
                  f"({path.stat().st_size / 1e6:.1f} MB save)")
        lock.release()


if __name__ == "__main__":
    main()
