"""Generated rule files that validate, each played by every bot: no such file may crash or hang a bot.

A seeded generator writes house rules: a shipped file extended with a random handful of the rule language's
options, each option taken as it stands in another shipped file: a section's key and its value (the blind cut,
`trump.last_card`, a doubling window, marriages, a second auction, a redeal rule, trump modes, ...), a key one
level further down (`play.obligations.overtrump`, `scoring.banked.ties`, ...) or a whole section (a schedule with a
turned card taken or passed, a trump chosen or pushed, a stock; compared melds; a trump marriage; banked
scoring). A file the loader refuses is counted and dropped (a refusal must be one `file:line:column: why` line a
problem, and the loader must not fail otherwise); every file that validates is played for a few hands at a table
of every bot (random, heuristic, pimc, search and ismcts, small budgets, seats rotating from hand to hand), each
file in its own process under a time limit. Crashes (one line each, grouped) and files over the limit are reported.

    python benchmarks/rulefile_fuzz.py --files 300 --hands 2 --seed 0 --timeout 120

The test suite runs the same generator on a few files (tests/test_rulefile_generator.py).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import re
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import _installed  # noqa: F401
import yaml

ROOT = Path(__file__).resolve().parents[1]
# sections whose keys are the language's options, each key taken alone, and a mapping's keys one level down too
# (`play.obligations.overtrump`, `scoring.banked.ties`, `special.doubling.window`, ...)
SECTIONS = ("auction", "second_auction", "raise", "trump", "play", "special", "scoring", "annul", "match", "deck",
            "table", "combinations", "trump_marriage")
# sections also taken whole, as another file states them (a schedule with its turned card or trump choice, the
# melds compared between sides, a whole way of scoring, ...)
WHOLE = ("schedule", "combinations", "trump_marriage", "scoring", "play", "trump", "special", "auction", "match")
# keys that make another game rather than a house rule (the pack, the table): kept from the base
KEPT = {("deck", "suits"), ("deck", "ranks"), ("deck", "copies"), ("table", "players"), ("table", "teams")}
BOTS = ("random", "heuristic", "pimc:2", "search:2", "ismcts:2")

Option = tuple[tuple[str, ...], Any]


def _options() -> list[Option]:
    """(path, value) of every option a shipped file states: a section's key, a key of a mapping under it, or a
    whole section."""
    from engine.rules.load import shipped_rulesets

    out: list[Option] = []
    seen: set[str] = set()

    def add(path: tuple[str, ...], value: Any) -> None:
        mark = json.dumps([path, value], sort_keys=True, default=str)
        if mark not in seen:
            seen.add(mark)
            out.append((path, value))

    for _, path in sorted(shipped_rulesets().items()):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for section in WHOLE:
            if data.get(section) is not None:
                add((section,), data[section])
        for section in SECTIONS:
            body = data.get(section)
            if not isinstance(body, dict):
                continue
            for key, value in body.items():
                if (section, key) in KEPT:
                    continue
                add((section, key), value)
                if isinstance(value, dict):
                    for sub, inner in value.items():
                        add((section, key, sub), inner)
    return out


def _put(overlay: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    """Set `path` in the overlay (a mapping met on the way is kept, anything else replaced)."""
    node = overlay
    for key in path[:-1]:
        if not isinstance(node.get(key), dict):
            node[key] = {}
        node = node[key]
    node[path[-1]] = value


REFUSAL = re.compile(r"[^\n]+\.ya?ml:\d+:\d+: [^\n]+")   # file:line:column: why (and a hint): a line a problem


def generate(seed: int, count: int, folder: Path, max_tries: int | None = None,
             faults: list[str] | None = None) -> Iterator[tuple[Path, int]]:
    """`count` generated files that validate, written in `folder`: (path, files refused before it). A refusal
    that is not one `file:line:column: why` line a problem, or a loader that fails otherwise, is added to `faults` (the
    file is kept)."""
    from engine.errors import JacknineError
    from engine.play.compile import load_game
    from engine.rules.load import shipped_rulesets

    rng = random.Random(seed)
    bases = sorted(shipped_rulesets())
    options = _options()
    made = refused = tries = 0
    limit = max_tries if max_tries is not None else 50 * count
    while made < count and tries < limit:
        tries += 1
        base = rng.choice(bases)
        overlay: dict[str, Any] = {"schema_version": 1, "name": f"fuzz-{seed}-{tries}",
                                   "description": f"generated: {base} with random options", "extends": base}
        for opt_path, value in rng.sample(options, rng.randint(1, 4)):
            _put(overlay, opt_path, value)
        path = folder / f"fuzz-{seed}-{tries}.yaml"
        path.write_text(yaml.safe_dump(overlay, sort_keys=False), encoding="utf-8")
        try:
            load_game(path)
        except JacknineError as e:
            refused += 1
            if all(REFUSAL.fullmatch(line) for line in str(e).splitlines() or [""]):
                path.unlink()
            elif faults is not None:
                faults.append(f"{path.name}: unclear refusal: {str(e)[:200]!r}")
            continue
        except Exception as e:  # noqa: BLE001 - a loader crash is a finding
            refused += 1
            if faults is not None:
                where = traceback.extract_tb(e.__traceback__)[-1]
                faults.append(f"{path.name}: loader crash: {type(e).__name__}: {str(e)[:200]} "
                              f"({Path(where.filename).name}:{where.lineno})")
            continue
        made += 1
        yield path, refused
        refused = 0


def play_file(path: Path, hands: int, seed: int = 0) -> list[str]:
    """Play `hands` hands of the file, every bot at the table (seats rotate from hand to hand); every action is
    applied through the engine, which refuses an illegal one. Returns what each hand ended as."""
    from engine.play.compile import load_game
    from engine.sim import play_hands

    game = load_game(path)
    out: list[str] = []
    for h in range(hands):
        specs = [BOTS[(h * game.n + s) % len(BOTS)] for s in range(game.n)]
        for _, _, state in play_hands(game, specs, seed, h, 1):
            if state.status == "in_progress":
                raise AssertionError("a hand was left in progress")
            out.append(state.status)
    return out


def _child(path: str, hands: int, seed: int, queue: Any) -> None:
    try:
        play_file(Path(path), hands, seed)
        queue.put(("ok", ""))
    except BaseException as e:  # noqa: BLE001 - every failure is the finding
        where = traceback.extract_tb(e.__traceback__)[-1]
        queue.put(("crash", f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''} "
                            f"({Path(where.filename).name}:{where.lineno})"))


def run_one(path: Path, hands: int, seed: int, timeout: float) -> tuple[str, str, float]:
    """(ok | crash | hang, what, seconds) of one file played in its own process."""
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    start = time.perf_counter()
    proc = ctx.Process(target=_child, args=(str(path), hands, seed, queue))
    proc.start()
    proc.join(timeout)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return "hang", f"over {timeout:g} s", time.perf_counter() - start
    seconds = time.perf_counter() - start
    if queue.empty():
        return "crash", f"the process ended with code {proc.exitcode}", seconds
    kind, what = queue.get()
    return kind, what, seconds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=20, help="generated files that validate to play (default 20)")
    ap.add_argument("--hands", type=int, default=2, help="hands per file (default 2: the seats rotate through "
                    "the bots, so every bot plays at a table of three or more)")
    ap.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per file before it counts as a hang "
                    "(default 120)")
    ap.add_argument("--keep", type=Path, default=None, help="write the generated files (and a list of the "
                    "failing ones) in this folder instead of a temporary one")
    ap.add_argument("--minutes", type=float, default=0.0, help="stop starting new files after this many minutes "
                    "(default 0: no limit)")
    ap.add_argument("--json", action="store_true", help="print only the figures (JSON), not a line per file")
    args = ap.parse_args(argv)
    if args.files < 1 or args.hands < 1 or args.timeout <= 0:
        print("rulefile_fuzz: --files, --hands and --timeout must be positive", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        figures: Counter[str] = Counter()
        findings: Counter[str] = Counter()
        failing: list[str] = []
        seconds: list[float] = []
        start = time.perf_counter()
        loader_faults: list[str] = []
        for path, refused in generate(args.seed, args.files, folder, faults=loader_faults):
            figures["refused by the loader"] += refused
            while loader_faults:
                what = loader_faults.pop()
                figures["loader faults"] += 1
                findings[what.split(": ", 1)[1][:120]] += 1
                failing.append(what)
                if not args.json:
                    print(what, flush=True)
            figures["validated"] += 1
            kind, what, took = run_one(path, args.hands, args.seed, args.timeout)
            seconds.append(took)
            figures[kind] += 1
            if kind != "ok":
                findings[f"{kind}: {what}"] += 1
                failing.append(f"{path.name}: {kind}: {what}")
                if args.keep:
                    (folder / "failing.txt").write_text("\n".join(failing) + "\n", encoding="utf-8")
            if not args.json:
                print(f"{path.name}: {kind} {what} ({took:.1f} s)", flush=True)
            if args.minutes and time.perf_counter() - start > 60 * args.minutes:
                break
        total = time.perf_counter() - start
    out = {"files_tried": figures["validated"] + figures["refused by the loader"], **figures,
           "hands_per_file": args.hands, "bots": list(BOTS), "seconds": round(total, 1),
           "slowest_file_seconds": round(max(seconds, default=0.0), 1), "findings": dict(findings)}
    print(json.dumps(out, indent=2))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
