"""Load on the web table, on loopback only, bounded in count and time: `jacknine serve` as its own process, N tables
of bots playing as fast as they can (no bot delay), and C WebSocket clients watching them as spectators. Each client
sends a ping every 200 ms and times the pong behind the table traffic; every state message is counted. Reports the
latency percentiles, the messages and hands per second, and the server's memory (resident set, sampled).

    python3 benchmarks/web_load.py                      # 50 tables of four heuristic bots, 20 clients, 60 s
    python3 benchmarks/web_load.py --tables 10 --clients 5 --seconds 20 --json
    python3 benchmarks/web_load.py --tables 10 --clients 5 --seconds 20 --uploads 4   # and 1 MB uploads meanwhile

With --uploads N, N house rules of about 1 MB each (a valid head and 100,000 values: the reader's bound) are sent
to /api/validate, two at a time, while the tables play: the pings show whether the tables wait for them.

Needs the web extra (pip install '.[web]'). Stops by itself: after --seconds, or when every table's match is over."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mib(pid: int) -> float:
    """The resident memory of the process (Linux /proc), in MiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})   # the server takes JSON only
    with urllib.request.urlopen(req, timeout=30) as r:
        data: dict[str, Any] = json.load(r)
    return data


def big_upload() -> dict[str, Any]:
    """About 1 MB of house rule: a valid head, then more values than the reader allows (it reads them all first)."""
    head = "schema_version: 1\nname: big\nextends: twenty-eight\ndescription: a big one\nx_notes:\n"
    line = "  - {a: 1, b: [1, 2]}\n"
    return {"files": {"big.yaml": head + line * ((1_000_000 - len(head)) // len(line))}, "main": "big.yaml"}


def uploader(base: str, count: int, done: list[float]) -> None:
    """Send `count` big uploads, two at a time; the seconds each took go to `done` (a refusal as busy counts)."""
    body = big_upload()

    def one() -> None:
        start = time.perf_counter()
        try:
            post(base, "/api/validate", body)
        except urllib.error.HTTPError:
            pass    # 422: the rule file's problems, or 503: busy
        done.append(time.perf_counter() - start)
    for k in range(0, count, 2):
        pair = [threading.Thread(target=one) for _ in range(min(2, count - k))]
        for t in pair:
            t.start()
        for t in pair:
            t.join()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def watcher(url: str, token: str, deadline: float, rtts: list[float], counts: dict[str, int],
                  over: set[str], table: str) -> None:
    import websockets

    async with websockets.connect(url, max_size=1 << 20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent: dict[int, float] = {}

        async def pinger() -> None:
            k = 0
            while time.monotonic() < deadline and table not in over:
                sent[k] = time.perf_counter()
                await ws.send(json.dumps({"type": "ping"}))
                k += 1
                await asyncio.sleep(0.2)

        task = asyncio.create_task(pinger())
        pongs = 0
        try:
            while time.monotonic() < deadline:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
                except TimeoutError:
                    break
                msg = json.loads(raw)
                if msg["type"] == "pong":
                    start = sent.pop(pongs, None)
                    pongs += 1
                    if start is not None:
                        rtts.append((time.perf_counter() - start) * 1000)
                elif msg["type"] == "state":
                    counts["states"] += 1
                    counts["bytes"] += len(raw)
                    if msg["table"]["status"] == "over":
                        over.add(table)
                        break
        finally:
            task.cancel()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="jacknine-load-"))
    server = subprocess.Popen([sys.executable, "-c", "from engine.cli.app import main; main()", "serve", "--port",
                               str(port), "--db", str(folder / "load.db"), "--bot-delay", "0",
                               "--max-tables", str(args.tables + 10)], cwd=ROOT, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/api/options", timeout=5).close()
                break
            except OSError:
                time.sleep(0.05)
        idle = rss_mib(server.pid)
        seats = [{"kind": "bot", "bot": args.bot}] * 4
        made = [post(base, "/api/tables", {"ruleset": args.ruleset, "seats": seats, "max_hands": args.hands,
                                           "spectators": True, "start": True}) for _ in range(args.tables)]
        start = time.monotonic()
        deadline = start + args.seconds
        rtts: list[float] = []
        counts = {"states": 0, "bytes": 0}
        over: set[str] = set()
        memory: list[float] = []

        async def sample() -> None:
            while time.monotonic() < deadline and len(over) < args.tables:
                memory.append(rss_mib(server.pid))
                await asyncio.sleep(0.5)

        clients = [watcher(f"ws://127.0.0.1:{port}/ws/{m['table']}", m["watch"], deadline, rtts, counts, over,
                           m["table"]) for m in made[:args.clients]]
        uploads: list[float] = []
        sender = threading.Thread(target=uploader, args=(base, args.uploads, uploads), daemon=True)
        sender.start()
        await asyncio.gather(sample(), *clients)
        sender.join(timeout=max(0.0, deadline + 60 - time.monotonic()))
        elapsed = time.monotonic() - start
        peak = max(memory) if memory else rss_mib(server.pid)
        hands = _hands_played(folder / "load.db")
    finally:
        server.terminate()
        server.wait(timeout=30)
    return {
        "tables": args.tables, "clients": args.clients, "bot": args.bot, "ruleset": args.ruleset,
        "seconds": round(elapsed, 1), "hands_finished": hands, "hands_per_second": round(hands / elapsed, 1),
        "pings": len(rtts),
        "ping_ms": {"p50": round(percentile(rtts, 0.50), 2), "p90": round(percentile(rtts, 0.90), 2),
                    "p99": round(percentile(rtts, 0.99), 2), "max": round(max(rtts), 2) if rtts else None,
                    "mean": round(statistics.fmean(rtts), 2) if rtts else None},
        "states_received": counts["states"], "states_per_second": round(counts["states"] / elapsed, 1),
        "mean_state_bytes": round(counts["bytes"] / max(1, counts["states"])),
        "server_rss_mib": {"idle": round(idle, 1), "peak": round(peak, 1)},
        "uploads": len(uploads), "upload_seconds_max": round(max(uploads), 2) if uploads else None,
        "cpu_count": os.cpu_count(),
    }


def _hands_played(db: Path) -> int:
    import sqlite3

    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT COUNT(*) FROM log WHERE kind IN ('deal', 'start')").fetchone()[0])
    finally:
        con.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=60.0, help="stop after this long at most")
    ap.add_argument("--hands", type=int, default=20, help="hands per table's match at most")
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--ruleset", default="twenty-eight")
    ap.add_argument("--uploads", type=int, default=0, help="1 MB house rules sent meanwhile, two at a time")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not (1 <= args.tables <= 500 and 0 <= args.clients <= args.tables and 1 <= args.seconds <= 600
            and 0 <= args.uploads <= 100):
        ap.error("tables 1-500, clients 0-tables, seconds 1-600, uploads 0-100")
    res = asyncio.run(run(args))
    if args.json:
        print(json.dumps(res))
        return
    p = res["ping_ms"]
    print(f"{res['tables']} tables of four {res['bot']} bots ({res['ruleset']}), {res['clients']} spectator clients, "
          f"{res['seconds']} s on {res['cpu_count']} cores")
    print(f"hands: {res['hands_finished']} ({res['hands_per_second']}/s); states received by the clients: "
          f"{res['states_received']} ({res['states_per_second']}/s, {res['mean_state_bytes']} bytes each)")
    print(f"ping round trip behind the traffic ({res['pings']} pings): p50 {p['p50']} ms, p90 {p['p90']} ms, "
          f"p99 {p['p99']} ms, max {p['max']} ms")
    print(f"server memory (RSS): {res['server_rss_mib']['idle']} MiB idle, {res['server_rss_mib']['peak']} MiB peak")
    if res["uploads"]:
        print(f"uploads of 1 MB sent meanwhile: {res['uploads']} (the longest answered in "
              f"{res['upload_seconds_max']} s)")


if __name__ == "__main__":
    main()
