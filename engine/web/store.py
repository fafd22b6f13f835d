"""The server's database: stdlib sqlite3 in WAL mode. A table is its settings plus an append-only log of entries
(actions, deals, chat, seat changes); at start-up every table is rebuilt by replaying its log, so a restart
resumes every table where it was.

Tokens are stored as SHA-256 digests only: the database alone does not let anyone sit at a seat."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.web.table import Entry

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    ruleset TEXT NOT NULL,        -- a shipped name, or the main uploaded file's name
    files TEXT NOT NULL,          -- JSON: uploaded rule files {name: text}
    seed TEXT NOT NULL,           -- the match seed (decimal): secret until the match ends
    max_hands INTEGER NOT NULL,
    seats TEXT NOT NULL,          -- JSON: [{kind, bot, name}] as created
    host_hash TEXT NOT NULL,
    seat_hashes TEXT NOT NULL,    -- JSON: [sha256 of each seat's token]
    watch_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class StoredTable:
    table_id: str
    ruleset: str
    files: dict[str, str]
    seed: int
    max_hands: int
    seats: list[dict[str, str]]
    host_hash: str
    seat_hashes: list[str]
    watch_hash: str
    entries: list[Entry]
    last_at: float            # when its newest entry (or the table) was written (time.time())


class Store:
    """One SQLite file; every write is committed at once (WAL: readers never wait, a crash loses nothing that
    was committed)."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        self._next: dict[str, int] = {}

    def close(self) -> None:
        self.db.close()

    def add_table(self, table_id: str, ruleset: str, files: dict[str, str], seed: int, max_hands: int,
                  seats: list[dict[str, str]], host_hash: str, seat_hashes: list[str], watch_hash: str) -> None:
        self.db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (table_id, time.time(), ruleset, json.dumps(files), str(seed), max_hands, json.dumps(seats),
                         host_hash, json.dumps(seat_hashes), watch_hash))
        self._next[table_id] = 0

    def append(self, table_id: str, entry: Entry) -> None:
        seq = self._next.get(table_id)
        if seq is None:
            row = self.db.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM log WHERE table_id = ?",
                                  (table_id,)).fetchone()
            seq = int(row[0])
        self.db.execute("INSERT INTO log VALUES (?, ?, ?, ?, ?, ?)",
                        (table_id, seq, time.time(), entry.kind, entry.seat, entry.body))
        self._next[table_id] = seq + 1

    def set_seat_hashes(self, table_id: str, seat_hashes: list[str]) -> None:
        """The seats' token digests after the host changed a seat (a new link, or none for a bot)."""
        self.db.execute("UPDATE tables SET seat_hashes = ? WHERE id = ?", (json.dumps(seat_hashes), table_id))

    def remove(self, table_id: str) -> None:
        """Forget a table and its log (an ended table, once it has expired)."""
        self.db.execute("DELETE FROM log WHERE table_id = ?", (table_id,))
        self.db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
        self._next.pop(table_id, None)

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM tables").fetchone()[0])

    def tables(self) -> list[StoredTable]:
        """Every table with its log, oldest first."""
        out: list[StoredTable] = []
        for row in self.db.execute("SELECT id, ruleset, files, seed, max_hands, seats, host_hash, seat_hashes, "
                                   "watch_hash, created FROM tables ORDER BY created").fetchall():
            logged = self.db.execute("SELECT kind, seat, body, at FROM log WHERE table_id = ? ORDER BY seq",
                                     (row[0],)).fetchall()
            entries = [Entry(kind, seat, body) for kind, seat, body, _ in logged]
            files: Any = json.loads(row[2])
            out.append(StoredTable(row[0], row[1], dict(files), int(row[3]), int(row[4]), json.loads(row[5]),
                                   row[6], json.loads(row[7]), row[8], entries,
                                   float(logged[-1][3]) if logged else float(row[9])))
            self._next[row[0]] = len(entries)
        return out
