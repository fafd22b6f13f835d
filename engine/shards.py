"""Tournament shards: one JSON line per deal, so a run split into pieces (`tournament --deals A:B --out FILE`, on
as many machines as there are pieces) is merged into the exact report of one run (`tournament merge FILE...`).

A shard file is a header line, then one line per deal:

    {"jacknine_shard": "tournament", "version": "0.1.0 (digest)", "ruleset": "twenty-nine", "ref": "twenty-nine",
     "rules": "<digest of the compiled rules>", "bots": ["search", "pimc"], "seed": 1, "seatings_per_deal": 2,
     "deals": [0, 5000]}
    {"index": 0, "score": [0.5, -0.5], "contracts": [1, 1], "made": [1, 0], "annulled": 0, ...}

Shards merge when they were made by the same jacknine from the same compiled rules with the same bots and seed,
and no deal is in two of them. Shard files are read as untrusted input: regular files only, each line at most
64 KiB, every field checked against what a run can write (deal numbers below `MAX_DEALS`, as `--deals` allows; at
most two seatings per team of a table of at most `MAX_PLAYERS`; no more contracts than seatings, no more made than
contracts; scores, decisions and seconds within `MAX_SCORE`, `MAX_DECISIONS` and `MAX_SECONDS` a deal, so every
sum stays finite; texts without control or format characters), and a problem is one line naming the file and line.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

from engine import safefile
from engine.errors import UnreadableError
from engine.executor import engine_version
from engine.play.game import Game
from engine.rules.model import MAX_PLAYERS
from engine.text import escaped, quoted
from engine.tournament import DealResult, seatings, summarise_results

KIND = "tournament"
MAX_LINE = 64 * 1024
MAX_INCIDENTS = 10_000     # incident texts kept per bot and deal (a deal has a few hundred decisions)
MAX_TEXT = 2000
MAX_NAME = 200             # a header's version, ruleset, ref and rules digest
MAX_DEALS = 10**9          # deal numbers are below this (what `--deals A:B` accepts)
MAX_SEATINGS = 2 * MAX_PLAYERS   # two seatings per team at most, a team per seat at most
MAX_SCORE = 10**6          # game points of one deal, either way (a hand scores a few, doubled a few times)
MAX_DECISIONS = 10**6      # decisions of one bot in one deal (a hand has a few hundred)
MAX_SECONDS = 10**6        # seconds of one bot in one deal (eleven days)


def rules_digest(game: Game) -> str:
    """A digest of the compiled rules (what decides every result), not of the file's text or name."""
    return hashlib.sha256(repr(game.rules).encode()).hexdigest()[:24]


def header(game: Game, specs: list[str], seed: int, start: int, stop: int) -> dict[str, Any]:
    return {"jacknine_shard": KIND, "version": engine_version(), "ruleset": game.rules.name, "ref": game.ref,
            "rules": rules_digest(game), "bots": list(specs), "seed": seed,
            "seatings_per_deal": len(seatings(game)), "deals": [start, stop]}


def write_header(sink: IO[str], head: dict[str, Any]) -> None:
    sink.write(json.dumps(head) + "\n")


def write_row(sink: IO[str], r: DealResult) -> None:
    sink.write(json.dumps(asdict(r)) + "\n")
    sink.flush()


# --------------------------------------------------------------------------------------------- reading
class _Bad(Exception):
    pass


def _int(x: object, what: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or x < lo or (hi is not None and x > hi):
        raise _Bad(f"{what} must be a whole number of at least {lo}" + (f" and at most {hi:,}" if hi is not None
                                                                          else ""))
    return x


def _number(x: object, what: str, lo: int, hi: int) -> float:
    if isinstance(x, bool) or not isinstance(x, int | float) or not (math.isfinite(x) and lo <= x <= hi):
        raise _Bad(f"{what} must be a number from {lo:,} to {hi:,}")
    return float(x)


def _text(x: object, what: str, limit: int = MAX_NAME) -> str:
    """A text shown as it is: refused when longer than `limit` or holding a character a terminal could act on."""
    if not isinstance(x, str):
        raise _Bad(f"the header's {what} must be a text")
    if len(x) > limit or escaped(x, limit) != x:
        raise _Bad(f"the header's {what} {quoted(x)} is not a plain text of at most {limit} characters "
                   "(no control or format characters)")
    return x


def _pair(row: dict[str, Any], key: str, kind: str, hi: int = 0) -> list[Any]:
    v = row.get(key)
    if not isinstance(v, list) or len(v) != 2:
        raise _Bad(f"{key} must be a list of two values (one per bot)")
    if kind == "int":
        return [_int(x, key, 0, hi) for x in v]
    if kind == "score":
        return [_number(x, key, -hi, hi) for x in v]
    if kind == "float":
        return [_number(x, key, 0, hi) for x in v]
    out = []
    for texts in v:
        if not isinstance(texts, list) or len(texts) > MAX_INCIDENTS or not all(
                isinstance(t, str) and len(t) <= MAX_TEXT for t in texts):
            raise _Bad(f"{key} must be two lists of short texts")
        out.append(list(texts))
    return out


ROW_KEYS = {"index", "score", "contracts", "made", "annulled", "decisions", "seconds", "max_seconds", "incidents"}
HEADER_KEYS = {"jacknine_shard", "version", "ruleset", "ref", "rules", "bots", "seed", "seatings_per_deal", "deals"}


def _row(data: object, seatings: int) -> DealResult:
    """A deal row, every number within what a deal of `seatings` seatings can have."""
    if not isinstance(data, dict):
        raise _Bad("a deal row is a JSON object")
    unknown = sorted(set(data) - ROW_KEYS)
    missing = sorted(ROW_KEYS - set(data))
    if unknown or missing:
        raise _Bad(f"a deal row has exactly the keys {', '.join(sorted(ROW_KEYS))} "
                   f"({'unknown: ' + ', '.join(map(repr, unknown)) if unknown else 'missing: ' + ', '.join(missing)})")
    r = DealResult(index=_int(data["index"], "index", 0, MAX_DEALS - 1),
                   score=_pair(data, "score", "score", MAX_SCORE),
                   contracts=_pair(data, "contracts", "int", seatings), made=_pair(data, "made", "int", seatings),
                   annulled=_int(data["annulled"], "annulled", 0, seatings),
                   decisions=_pair(data, "decisions", "int", MAX_DECISIONS),
                   seconds=_pair(data, "seconds", "float", MAX_SECONDS),
                   max_seconds=_pair(data, "max_seconds", "float", MAX_SECONDS),
                   incidents=_pair(data, "incidents", "texts"))
    for b in (0, 1):
        if r.made[b] > r.contracts[b]:
            raise _Bad(f"made {r.made[b]} is more than the {r.contracts[b]} contracts")
        if r.max_seconds[b] > r.seconds[b]:
            raise _Bad(f"max_seconds {r.max_seconds[b]:g} (one decision) is more than seconds {r.seconds[b]:g} "
                       "(all of them)")
    return r


def _header(data: object) -> dict[str, Any]:
    if not isinstance(data, dict) or data.get("jacknine_shard") != KIND:
        raise _Bad("not a tournament shard: its first line must be the header that `jacknine tournament --deals "
                   "A:B --out FILE` writes")
    unknown = sorted(set(data) - HEADER_KEYS)
    missing = sorted(HEADER_KEYS - set(data))
    if unknown:
        raise _Bad(f"the header has unknown keys: {', '.join(map(repr, unknown))}")
    if missing:
        raise _Bad(f"the header has no {', '.join(missing)}")
    for key in ("version", "ruleset", "rules"):
        _text(data[key], key)
    if data["ref"] is not None:
        _text(data["ref"], "ref")
    bots = data["bots"]
    if not isinstance(bots, list) or len(bots) != 2:
        raise _Bad("the header's bots are two names")
    for b in bots:
        _text(b, "bots", MAX_TEXT)
    _int(data["seed"], "seed")
    _int(data["seatings_per_deal"], "seatings_per_deal (two per team at most, of at most "
         f"{MAX_PLAYERS} players)", 1, MAX_SEATINGS)
    deals = data["deals"]
    if not isinstance(deals, list) or len(deals) != 2:
        raise _Bad("the header's deals are [first, end]")
    a, b = _int(deals[0], "the header's deals", 0, MAX_DEALS), _int(deals[1], "the header's deals", 0, MAX_DEALS)
    if b < a:
        raise _Bad("the header's deals end before they start")
    return data


def read_shard(path: Path) -> tuple[dict[str, Any], Iterator[DealResult]]:
    """The header of a shard file and its deals (read as they are iterated). UnreadableError, as FILE:LINE: what
    is wrong, for anything but a shard."""
    source = escaped(str(path))
    lines = _lines(path, source)
    first = next(lines, None)
    if first is None:
        raise UnreadableError(source, "empty file, not a tournament shard")
    number, data = first
    try:
        head = _header(data)
    except _Bad as e:
        raise UnreadableError(source, str(e), number) from None

    def deals() -> Iterator[DealResult]:
        lo, hi = head["deals"]
        for number, data in lines:
            try:
                r = _row(data, head["seatings_per_deal"])
                if not lo <= r.index < hi:
                    raise _Bad(f"deal {r.index} is outside the shard's deals {lo}:{hi}")
            except _Bad as e:
                raise UnreadableError(source, str(e), number) from None
            yield r

    return head, deals()


def _lines(path: Path, source: str) -> Iterator[tuple[int, object]]:
    with safefile.open_regular(path, source, "tournament shard") as f:
        number = 0
        while True:
            line = f.readline(MAX_LINE + 1)
            if not line:
                return
            number += 1
            if len(line) > MAX_LINE:
                raise UnreadableError(source, "line is longer than 64 KiB; a deal row is a few hundred bytes", number)
            if not line.strip():
                continue
            try:
                yield number, json.loads(safefile.decode_text(line, f"{source}:{number}"))
            except (ValueError, RecursionError):
                raise UnreadableError(source, "not a JSON object", number) from None


SAME = ("version", "rules", "bots", "seed", "seatings_per_deal")


def merge(paths: Iterable[Path]) -> tuple[dict[str, Any], list[str]]:
    """The report of the deals in the shard files, exactly as one run over them reports it, and notes on what the
    shards leave out (gaps between their deals)."""
    first: dict[str, Any] | None = None
    first_name = ""
    results: list[DealResult] = []
    seen: set[int] = set()
    ranges: list[tuple[int, int]] = []
    for path in paths:
        head, deals = read_shard(path)
        source = escaped(str(path))
        if first is None:
            first, first_name = head, source
        else:
            for key in SAME:
                if head[key] != first[key]:
                    raise UnreadableError(source, f"not from the same run as {first_name}: its {key} is "
                                          f"{_shown(head[key])}, there {_shown(first[key])}")
        ranges.append((head["deals"][0], head["deals"][1]))
        for r in deals:
            if r.index in seen:
                raise UnreadableError(source, f"deal {r.index} is in another shard too (or twice in this one)")
            seen.add(r.index)
            results.append(r)
    if first is None:
        raise UnreadableError("merge", "no shard file given")
    report = summarise_results(first["ruleset"], first["seatings_per_deal"], first["bots"], first["seed"], results)
    return report, _gaps(seen, ranges)


def _shown(x: object) -> str:
    return escaped(json.dumps(x), 200)


def _gaps(seen: set[int], ranges: list[tuple[int, int]]) -> list[str]:
    """The deals between the first shard's start and the last one's end that no shard has, as runs A:B (worked
    out from the deals present, never by listing the missing ones: a header may span a billion deals)."""
    notes = []
    lo = min(a for a, _ in ranges)
    hi = max(b for _, b in ranges)
    runs: list[tuple[int, int]] = []
    missing = 0
    nxt = lo
    for i in [*sorted(seen), hi]:     # every deal present lies in lo..hi-1 (each in its own shard's range)
        if i > nxt:
            missing += i - nxt
            if len(runs) <= 5:
                runs.append((nxt, i))
        nxt = i + 1
    if missing:
        shown = ", ".join(f"{a}:{b}" for a, b in runs[:5]) + (" ..." if len(runs) > 5 else "")
        notes.append(f"deals missing between {lo} and {hi}: {shown} ({missing} deals)")
    return notes
