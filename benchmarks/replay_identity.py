"""Replay reports before and after a change: the same seeded hands of every shipped rule file, played by the
bots (`simulate --out`, random by default), replayed, and their `replay --json` reports hashed file by file.

Run it on the old tree with `--write FILE`, on the new tree with `--check FILE`: any file whose reports differ is
named (exit 1). It checks that a change to the engine leaves every shipped game playing exactly as before.

    python benchmarks/replay_identity.py --hands 40 --write /tmp/before.json
    python benchmarks/replay_identity.py --hands 40 --check /tmp/before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import _installed  # noqa: F401

from engine.record import iter_records, replay, report
from engine.rules.load import shipped_rulesets


def digest(name: str, hands: int, seed: int, bots: str) -> tuple[str, int]:
    """The hash of the replay reports of `hands` hands of `name`, and the number of hands."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "hands.jsonl"
        subprocess.run([sys.executable, "-c", "from engine.cli.app import main; main()", "simulate",
                        "--ruleset", name, "--bots", bots, "--hands", str(hands), "--seed", str(seed),
                        "--out", str(out)],
                       check=True, stdout=subprocess.DEVNULL)
        h = hashlib.sha256()
        count = 0
        for rec in iter_records(out):
            h.update(json.dumps(report(replay(rec)), sort_keys=True).encode())
            count += 1
    return h.hexdigest(), count


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--hands", type=int, default=40, help="hands per rule file (default 40)")
    ap.add_argument("--seed", type=int, default=11, help="the simulation's seed (default 11)")
    ap.add_argument("--bots", default="random",
                    help="the bots at every seat (default random: a change to a bot's choices then never shows as "
                         "a change to the rules)")
    ap.add_argument("--only", nargs="*", help="these shipped files only (default: the files in --check, or all)")
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, help="write the digests to this JSON file")
    group.add_argument("--check", type=Path, help="compare with the digests in this JSON file")
    args = ap.parse_args()
    old = json.loads(args.check.read_text()) if args.check else {}
    names = args.only or (sorted(old) if old else shipped_rulesets())
    new = {}
    for name in names:
        new[name] = digest(name, args.hands, args.seed, args.bots)[0]
        mark = "" if not old else ("same" if old.get(name) == new[name] else "DIFFERENT")
        print(f"{name:40} {new[name][:16]} {mark}", flush=True)
    if args.write:
        args.write.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
        return 0
    changed = [n for n in names if old.get(n) != new[n]]
    print(f"{len(names) - len(changed)} of {len(names)} files replay the same reports"
          + (f"; different: {', '.join(changed)}" if changed else ""))
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
