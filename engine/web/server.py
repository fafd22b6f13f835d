"""`jacknine serve`: the web server (Starlette). Pages and their assets, a small JSON API to create tables and
download their files, and one WebSocket per page through which the table is played.

Everything a table does happens on the event loop, one change at a time: a change is applied to the `Table`,
appended to the database log, and each connection is sent a fresh `state` built for its audience (the seat of
its token, or a spectator). Bots decide in executors (`engine.web.bots`), never on the loop.

Limits: request bodies, messages and chat lines are bounded; each connection has a message budget (a token bucket);
the server holds at most `max_tables` tables in play (an ended table stops counting, and is forgotten `expire`
seconds after its end); an upload is read by the strict rule-file reader, off the event loop and only a few at once,
and may extend only a shipped game or another file uploaded with it. Nothing a client sends names a file to read or
a program to run.

Cross-site requests: the API takes JSON only (`Content-Type: application/json`, which a page of another site cannot
send without the browser asking first), and every request and WebSocket must name this server as its Host (an IP
address, localhost, or a name given with `--allow-host`: a DNS name rebound to this machine is refused) and, when it
says its Origin, come from a page of this same server.

Links: the host's token is the key from which every seat's link is derived (an HMAC of the table and the seat's
generation), so the host's page can show every link at any time while the database keeps digests only. When the
host gives a seat to a bot its link stops working at once and its pages are closed; seating a person there again
makes a new link."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import ipaddress
import json
import secrets
import shutil
import tempfile
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from engine.bots.base import known_bots
from engine.errors import JacknineError
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.view import build_view
from engine.rules.load import shipped_rulesets
from engine.table.seats import table_direction
from engine.web import protocol
from engine.web.bots import BotPool, check_table_bot
from engine.web.protocol import SPECTATOR, Presence, ProtocolError
from engine.web.store import Store, StoredTable, digest
from engine.web.table import (
    BOT,
    PERSON,
    PLAYING,
    WAITING,
    Entry,
    Refused,
    SeatSpec,
    Table,
    bot_seed,
    commitment,
)
from engine.web.uploads import UploadError, check_upload, load_upload

MAX_BODY = 3 << 20           # a request body: two rule files of 1 MiB and their JSON
MAX_HANDS = 500              # a web match: fewer hands than would expose the deal-seed generator
BUCKET = 60                  # messages a connection may send at once ...
REFILL = 10.0                # ... and per second after that
CLOSE_AFTER = 100            # messages over budget before the connection is closed
HELLO_TIMEOUT = 10.0
MAX_QR_TEXT = 400            # characters of a link drawn as a QR code


@dataclass
class Settings:
    db: Path
    max_tables: int = 200
    bot_delay: float = 0.7       # seconds a bot waits before acting at a table with people (so they can follow)
    grace: float = 45.0          # seconds a person may be away before a bot plays for them
    workers: int = 2
    # a secret match seed of 128 bits, its top bit set so that every hand's deal seed is 128 bits too (see
    # engine.play.match.deal_seed_bits); tests fix it
    new_seed: Callable[[], int] = field(default=lambda: secrets.randbits(127) | 1 << 127, repr=False)
    burst: int = BUCKET          # messages a page may send at once, then `rate` per second
    rate: float = REFILL
    allowed_hosts: tuple[str, ...] = ()   # Host names served besides IP addresses and localhost
    expire: float = 3600.0       # seconds an ended table (and its downloads) is kept after its end
    uploads: int = 2             # uploads checked at once; more are told to try again


@dataclass(eq=False)   # one per page: compared and hashed by identity
class Connection:
    ws: WebSocket
    seat: int                   # a seat, or SPECTATOR
    host: bool
    host_token: str | None = None   # the host's token, when this page is the host's (it derives the seat links)
    closing: bool = False       # send what is queued, then close
    pending: str | None = None  # the newest state not yet sent (an older one is simply replaced)
    direct: deque[str] = field(default_factory=lambda: deque(maxlen=16))
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    burst: int = BUCKET
    rate: float = REFILL
    tokens: float = BUCKET
    stamp: float = field(default_factory=time.monotonic)
    over: int = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.over += 1
        return False

    def send(self, text: str) -> None:
        self.direct.append(text)
        self.wake.set()

    def drop(self, reason: str) -> None:
        """Tell the page why, then close it; it receives nothing else."""
        self.pending = None
        self.direct.clear()
        self.send(protocol.encode({"type": "error", "reason": reason, "closed": True}))
        self.closing = True


@dataclass
class Runtime:
    """A table and what the server keeps beside it: tokens, connections, presence, the bot's pending move."""

    table: Table
    host_hash: str
    seat_hashes: list[str]
    watch_hash: str
    files: dict[str, str]
    direction: str
    connections: set[Connection] = field(default_factory=set)
    left_at: dict[int, float] = field(default_factory=dict)    # seat -> when its last page closed
    away: set[int] = field(default_factory=set)
    notices: list[str] = field(default_factory=list)
    task: asyncio.Task[None] | None = None      # the table's driver (bots and dealing)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    timer: asyncio.TimerHandle | None = None    # wakes the driver when an away person's grace period ends
    ended_at: float | None = None               # time.time() when the match ended or was stopped

    def audience_of(self, token: str, host: str | None) -> tuple[int, bool] | None:
        """(seat or SPECTATOR, host rights) for the tokens, or None when they open nothing."""
        is_host = host is not None and hmac.compare_digest(digest(host), self.host_hash)
        d = digest(token)
        for seat, h in enumerate(self.seat_hashes):
            if hmac.compare_digest(d, h):
                return seat, is_host
        if hmac.compare_digest(d, self.host_hash):
            return SPECTATOR, True
        if hmac.compare_digest(d, self.watch_hash) and self.table.spectators:
            return SPECTATOR, is_host
        return None

    def connected(self) -> set[int]:
        return {c.seat for c in self.connections if c.seat != SPECTATOR}

    def presence(self, grace: float = 0.0) -> Presence:
        connected, now = self.connected(), time.monotonic()
        left = {s: max(0.0, at + grace - now) for s, at in self.left_at.items()
                if s not in connected and s not in self.away and self.table.seats[s].kind == PERSON}
        return Presence(connected, set(self.away), self.notices, left)


class Server:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.db)
        self.scratch = Path(tempfile.mkdtemp(prefix="jacknine-serve-"))
        self.pool = BotPool(settings.workers)
        self.tables: dict[str, Runtime] = {}
        self.broken: dict[str, str] = {}
        self.checking = 0          # uploads being checked now
        for stored in self.store.tables():
            try:
                rt = self.tables[stored.table_id] = self._restore(stored)
                if rt.table.ended:
                    rt.ended_at = stored.last_at
            except (Refused, JacknineError, UploadError, ValueError) as e:
                self.broken[stored.table_id] = str(e)
        self.sweep()

    # --- uploads, off the event loop ------------------------------------------------------------------
    async def off_loop(self, work: Callable[[], Any]) -> Any:
        """`work()` (reading and checking uploaded rule files) in a thread, at most `uploads` at once; Busy when
        that many are being checked already."""
        if self.checking >= self.settings.uploads:
            raise Busy("the server is checking other uploads: try again in a moment")
        self.checking += 1
        try:
            return await asyncio.to_thread(work)
        finally:
            self.checking -= 1

    # --- ended tables ---------------------------------------------------------------------------------
    def live(self) -> int:
        """Tables that count against the limit: those not ended."""
        return sum(1 for rt in self.tables.values() if not rt.table.ended)

    def sweep(self, now: float | None = None) -> None:
        """Forget every table ended at least `expire` seconds ago: its pages closed, its log deleted."""
        now = time.time() if now is None else now
        for table_id, rt in list(self.tables.items()):
            if rt.ended_at is not None and now - rt.ended_at >= self.settings.expire:
                self._forget(table_id)

    def make_room(self) -> None:
        """Before a new table: at most twice the limit are held (tables made and stopped at once must not fill
        the memory), the longest ended forgotten first."""
        ended = sorted((rt.ended_at, table_id) for table_id, rt in self.tables.items() if rt.ended_at is not None)
        for _, table_id in ended:
            if len(self.tables) < 2 * self.settings.max_tables:
                break
            self._forget(table_id)

    def _forget(self, table_id: str) -> None:
        rt = self.tables.pop(table_id)
        for conn in list(rt.connections):
            conn.drop("this table has ended and is closed now")
        rt.connections.clear()
        if rt.task is not None:
            rt.task.cancel()
        if rt.timer is not None:
            rt.timer.cancel()
        self.store.remove(table_id)
        shutil.rmtree(self.scratch / table_id, ignore_errors=True)

    # --- tables -----------------------------------------------------------------------------------------
    def _game(self, table_id: str, ruleset: str, files: dict[str, str]) -> Game:
        if files:
            return load_upload(files, ruleset, self.scratch / table_id)
        if ruleset not in shipped_rulesets():
            raise UploadError([f"no shipped rule file named {ruleset!r}"])
        return load_game(ruleset)

    async def create_checked(self, request: dict[str, Any]) -> dict[str, Any]:
        """`create`, with an upload's files read and checked off the event loop."""
        if self.live() >= self.settings.max_tables:
            self.sweep()
            raise ValueError(f"this server already holds its limit of {self.settings.max_tables} tables")
        files, ruleset = _requested_rules(request)
        table_id = secrets.token_urlsafe(12)
        game = None
        if files:
            game = await self.off_loop(lambda: load_upload(files, ruleset, self.scratch / table_id))
        return self.create(request, table_id, game)

    def _runtime(self, table: Table, host_hash: str, seat_hashes: list[str], watch_hash: str,
                 files: dict[str, str]) -> Runtime:
        rt = Runtime(table, host_hash, seat_hashes, watch_hash, files, table_direction(table.game))
        table.log = lambda entry: self.store.append(table.table_id, entry)
        now = time.monotonic()
        for seat in table.people():
            rt.left_at[seat] = now   # away until their page opens (the grace period starts now)
        return rt

    def _restore(self, stored: StoredTable) -> Runtime:
        game = self._game(stored.table_id, stored.ruleset, stored.files)
        seats = [SeatSpec(s["kind"], s["bot"], s["name"]) for s in stored.seats]
        table = Table(stored.table_id, game, stored.ruleset, stored.seed, seats, stored.max_hands)
        for entry in stored.entries:
            table.apply(entry, replaying=True)
        return self._runtime(table, stored.host_hash, stored.seat_hashes, stored.watch_hash, stored.files)

    def create(self, request: dict[str, Any], table_id: str | None = None, game: Game | None = None) \
            -> dict[str, Any]:
        """A new table from the lobby's request (its game already loaded, or loaded here); UploadError or
        ValueError saying what is wrong."""
        self.sweep()
        if self.live() >= self.settings.max_tables:
            raise ValueError(f"this server already holds its limit of {self.settings.max_tables} tables")
        unknown = set(request) - {"ruleset", "upload", "seats", "max_hands", "spectators", "start"}
        if unknown:
            raise ValueError(f"unknown field {sorted(unknown)[0][:20]!r}")
        self.make_room()
        files, ruleset = _requested_rules(request)
        table_id = table_id or secrets.token_urlsafe(12)
        if game is None:
            game = self._game(table_id, ruleset, files)
        seats = _requested_seats(request.get("seats"), game.n)
        max_hands, spectators, start = _requested_terms(request)
        seed = self.settings.new_seed()
        host = secrets.token_urlsafe(24)
        watch = link_token(host, table_id, "watch")
        tokens = _seat_tokens(host, table_id, seats)
        hashes = [digest(t) if t is not None else "" for t in tokens]
        self.store.add_table(table_id, ruleset, files, seed, max_hands, [s.to_dict() for s in seats], digest(host),
                             hashes, digest(watch))
        table = Table(table_id, game, ruleset, seed, seats, max_hands)
        rt = self._runtime(table, digest(host), hashes, digest(watch), files)
        self.tables[table_id] = rt
        if spectators:
            table.apply(Entry("spectators", -1, "1"))
        if start:
            table.apply(Entry("start"))
            self.kick(rt)
        return {"table": table_id, "host": host, "seats": tokens, "watch": watch,
                "commitment": commitment(seed)}

    # --- changes and messages ---------------------------------------------------------------------------
    def change(self, rt: Runtime, entry: Entry) -> None:
        self._apply(rt, entry)
        self.kick(rt)

    def broadcast(self, rt: Runtime) -> None:
        presence = rt.presence(self.settings.grace)
        built: dict[int, str] = {}
        for conn in list(rt.connections):
            text = built.get(conn.seat)
            if text is None:
                text = built[conn.seat] = protocol.encode(protocol.snapshot(rt.table, conn.seat, presence,
                                                                            rt.direction))
            conn.pending = text
            conn.wake.set()

    def snapshot_for(self, rt: Runtime, seat: int) -> str:
        return protocol.encode(protocol.snapshot(rt.table, seat, rt.presence(self.settings.grace), rt.direction))

    def kick(self, rt: Runtime) -> None:
        """Wake the table's driver: a bot may have to move, or the next hand to be dealt."""
        if rt.task is None or rt.task.done():
            rt.task = asyncio.get_running_loop().create_task(self._driver(rt))
        rt.wake.set()

    def _has_people(self, rt: Runtime) -> bool:
        return any(spec.kind == PERSON for spec in rt.table.seats)

    def _plays_for(self, rt: Runtime, seat: int, now: float) -> bool:
        """Whether a bot plays this seat now: a bot seat, or a person away for longer than the grace period."""
        spec = rt.table.seats[seat]
        if spec.kind == BOT:
            return True
        if seat in rt.connected():
            return False
        left = rt.left_at.get(seat)
        return left is not None and now - left >= self.settings.grace

    async def _driver(self, rt: Runtime) -> None:
        """One per table, for as long as the server runs: whenever woken, moves the table on as far as bots
        and dealing can take it."""
        while True:
            await rt.wake.wait()
            rt.wake.clear()
            try:
                await self._advance(rt)
            except Refused:
                pass   # the table moved on under the bot's feet; the next wake looks again

    async def _advance(self, rt: Runtime) -> None:
        table = rt.table
        delay = self.settings.bot_delay if self._has_people(rt) else 0.0
        while table.status == PLAYING:
            if table.summary_open:
                if not await self._after_summary(rt, delay):
                    return   # a person is reading the summary: their 'next' wakes the driver
                continue
            seat = table.to_act()
            if seat is None or not self._bot_plays(rt, seat):
                return   # the person's move (or the grace timer) wakes the driver
            await self._bot_move(rt, seat, delay)

    async def _after_summary(self, rt: Runtime, delay: float) -> bool:
        """The summary between hands: the next deal after the delay, unless a person still reads it (False)."""
        table = rt.table
        if {s for s in rt.connected() if table.seats[s].kind == PERSON} - table.ready:
            return False
        await asyncio.sleep(delay)
        if table.summary_open and table.status == PLAYING:
            self._apply(rt, Entry("deal"))
        return True

    def _bot_plays(self, rt: Runtime, seat: int) -> bool:
        """Whether a bot plays `seat` now (a person past the grace period is said to be away); else, for a person
        away within the grace period, a timer wakes the driver when it ends."""
        table = rt.table
        now = time.monotonic()
        if not self._plays_for(rt, seat, now):
            left = rt.left_at.get(seat)
            if left is not None and seat not in rt.connected():   # away, within the grace period
                rt.timer = asyncio.get_running_loop().call_later(
                    max(0.0, left + self.settings.grace - now) + 0.01, rt.wake.set)
            return False
        if table.seats[seat].kind == PERSON and seat not in rt.away:
            rt.away.add(seat)
            rt.notices.append(f"seat {seat} is away: a bot plays for them until they return")
            self.broadcast(rt)
        return True

    async def _bot_move(self, rt: Runtime, seat: int, delay: float) -> None:
        """The bot's action at `seat`, after the delay; dropped when the table moved on meanwhile, or the person
        came back."""
        table = rt.table
        version = table.version
        if delay:
            await asyncio.sleep(delay)
            if table.version != version:
                return
        state = table.state
        assert state is not None
        spec, hand = table.seats[seat].bot, len(table.finished)
        notation = await self.pool.choose(
            spec, table.game, (table.table_id, hand, seat, spec), bot_seed(table.seed, hand, seat, -1),
            bot_seed(table.seed, hand, seat, len(state.history)), build_view(state, state.to_act),  # a dummy's seat
            state.legal_actions())
        if table.version != version or not self._plays_for(rt, seat, time.monotonic()):
            return
        self._apply(rt, Entry("act", seat, notation))

    def _apply(self, rt: Runtime, entry: Entry) -> None:
        rt.table.apply(entry)
        if rt.table.ended and rt.ended_at is None:
            rt.ended_at = time.time()
            with contextlib.suppress(RuntimeError):   # no loop: a table changed outside the server (tests)
                asyncio.get_running_loop().call_later(self.settings.expire + 0.01, self.sweep)
        self.broadcast(rt)

    def links(self, rt: Runtime, host_token: str) -> str:
        """The `links` message for the host's pages: every seat's token (None for a bot seat) and the
        spectators' token, derived from the host's token."""
        table = rt.table
        seats = [link_token(host_token, table.table_id, f"seat {s} {table.seat_changes[s]}")
                 if spec.kind == PERSON else None for s, spec in enumerate(table.seats)]
        return protocol.encode({"type": "links", "seats": seats, "watch": link_token(host_token, table.table_id,
                                                                                     "watch")})

    def reseat(self, rt: Runtime, seat: int, host_token: str) -> None:
        """After the host changed `seat`: a new link for a person, none for a bot; the seat's open pages closed
        (a person replaced by a bot sees that hand no longer; the host's own page stays, as a spectator's); the
        host's pages sent the links again."""
        table = rt.table
        if table.seats[seat].kind == PERSON:
            rt.seat_hashes[seat] = digest(link_token(host_token, table.table_id,
                                                     f"seat {seat} {table.seat_changes[seat]}"))
        else:
            rt.seat_hashes[seat] = ""
        self.store.set_seat_hashes(table.table_id, rt.seat_hashes)
        for conn in list(rt.connections):
            if conn.seat != seat:
                continue
            if conn.host:
                conn.seat = SPECTATOR
            else:
                rt.connections.discard(conn)
                conn.drop("the host has given this seat to someone else: this link no longer opens it")
        if seat not in rt.connected():
            rt.left_at[seat] = time.monotonic()
        for conn in rt.connections:
            if conn.host_token is not None:
                conn.send(self.links(rt, conn.host_token))
        self.broadcast(rt)

    def connect(self, rt: Runtime, conn: Connection) -> None:
        rt.connections.add(conn)
        if conn.seat != SPECTATOR:
            rt.left_at.pop(conn.seat, None)
            if conn.seat in rt.away:
                rt.away.discard(conn.seat)
                rt.notices.append(f"seat {conn.seat} is back")
        self.broadcast(rt)
        self.kick(rt)

    def disconnect(self, rt: Runtime, conn: Connection) -> None:
        rt.connections.discard(conn)
        if self.tables.get(rt.table.table_id) is not rt:
            return    # the table has been forgotten meanwhile
        if conn.seat != SPECTATOR and conn.seat not in rt.connected():
            rt.left_at[conn.seat] = time.monotonic()
        self.broadcast(rt)
        self.kick(rt)

    def handle(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        """One message from a page; Refused or ProtocolError say why it was not taken."""
        handlers: dict[str, Callable[[Runtime, Connection, dict[str, Any]], None]] = {
            "ping": self._ping, "hello": self._hello_again, "act": self._act, "next": self._next,
            "chat": self._chat, "host": self._host}
        handler = handlers.get(msg["type"])
        if handler is not None:
            handler(rt, conn, msg)

    def _ping(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        conn.send(protocol.encode({"type": "pong", "n": rt.table.version}))

    def _hello_again(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        raise ProtocolError("hello: already said")

    def _act(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        if conn.seat == SPECTATOR:
            raise Refused("spectators do not play")
        if rt.table.seats[conn.seat].kind != PERSON:
            raise Refused("a bot plays this seat now")
        self.change(rt, Entry("act", conn.seat, msg["action"].strip()))

    def _next(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        if conn.seat == SPECTATOR or not rt.table.summary_open:
            return
        rt.table.ready.add(conn.seat)
        self.broadcast(rt)
        self.kick(rt)

    def _chat(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        if conn.seat == SPECTATOR and not conn.host:
            raise Refused("spectators only watch")
        self.change(rt, Entry("chat", conn.seat, protocol.chat_text(msg["text"])))

    def _host(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        if not conn.host:
            raise Refused("only the host may do that")
        requests: dict[str, Callable[[Runtime, Connection, dict[str, Any]], None]] = {
            "start": self._host_start, "stop": self._host_stop, "spectators": self._host_spectators,
            "seat": self._host_seat}
        request = requests.get(msg["do"])
        if request is not None:
            request(rt, conn, msg)

    def _host_start(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        if rt.table.status != WAITING:
            raise Refused("the match has already started")
        self.change(rt, Entry("start"))

    def _host_stop(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        self.change(rt, Entry("stop"))

    def _host_spectators(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        allow = msg.get("allow")
        if not isinstance(allow, bool):
            raise ProtocolError("host: spectators needs allow: true or false")
        if not allow:
            for other in list(rt.connections):
                if other.seat == SPECTATOR and not other.host:
                    rt.connections.discard(other)
                    other.drop("the host has closed the table to spectators")
        self.change(rt, Entry("spectators", -1, "1" if allow else "0"))

    def _host_seat(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        seat, bot = msg.get("seat"), msg.get("bot", "")
        if not isinstance(seat, int) or not 0 <= seat < rt.table.game.n:
            raise ProtocolError("host: seat needs a seat number")
        if bot:
            try:
                bot = check_table_bot(bot)
            except ValueError as e:
                raise Refused(str(e)) from None
            self.change(rt, Entry("seat", seat, f"{BOT} {bot}"))
        else:
            self.change(rt, Entry("seat", seat, PERSON))
        if conn.host_token is not None:
            self.reseat(rt, seat, conn.host_token)

    def close(self) -> None:
        for rt in self.tables.values():
            if rt.task is not None:
                rt.task.cancel()
            if rt.timer is not None:
                rt.timer.cancel()
        self.pool.close()
        self.store.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


class Busy(Exception):
    """Too many uploads are being checked: the request may be sent again in a moment."""


def link_token(host_token: str, table_id: str, label: str) -> str:
    """A link's token, derived from the host's: `label` is `watch`, or `seat S G` (G counts the host's changes
    of seat S, so each change makes a new link)."""
    mac = hmac.new(host_token.encode("utf-8", "replace"), f"{table_id} {label}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode("ascii")


def _seat_tokens(host: str, table_id: str, seats: list[SeatSpec]) -> list[str | None]:
    """Each person's seat link token at a new table (None for a bot's seat)."""
    return [link_token(host, table_id, f"seat {s} 0") if spec.kind == PERSON else None for s, spec in enumerate(seats)]


def _requested_rules(request: dict[str, Any]) -> tuple[dict[str, str], str]:
    upload = request.get("upload")
    if upload is not None:
        if not isinstance(upload, dict) or set(upload) - {"files", "main"} or \
                not isinstance(upload.get("files"), dict) or not isinstance(upload.get("main"), str) or \
                not all(isinstance(k, str) and isinstance(v, str) for k, v in upload["files"].items()):
            raise ValueError("upload: {files: {name: text}, main: name}")
        return dict(upload["files"]), upload["main"]
    ruleset = request.get("ruleset")
    if not isinstance(ruleset, str):
        raise ValueError("ruleset: the name of a shipped game (or an upload)")
    return {}, ruleset


def _requested_terms(request: dict[str, Any]) -> tuple[int, bool, bool]:
    """(max_hands, spectators, start) of a new table's request."""
    max_hands = request.get("max_hands", MAX_HANDS)
    if not isinstance(max_hands, int) or isinstance(max_hands, bool) or not 1 <= max_hands <= MAX_HANDS:
        raise ValueError(f"max_hands: a whole number from 1 to {MAX_HANDS}")
    spectators = request.get("spectators", False)
    start = request.get("start", False)
    if not isinstance(spectators, bool) or not isinstance(start, bool):
        raise ValueError("spectators and start are true or false")
    return max_hands, spectators, start


def _requested_seats(raw: Any, players: int) -> list[SeatSpec]:
    if raw is None:
        return [SeatSpec(PERSON)] + [SeatSpec(BOT) for _ in range(players - 1)]
    if not isinstance(raw, list) or len(raw) != players:
        raise ValueError(f"seats: one entry per seat ({players})")
    return [_requested_seat(i, s) for i, s in enumerate(raw)]


def _requested_seat(i: int, s: Any) -> SeatSpec:
    """One seat of the request: a person or a bot (the heuristic by default), and a name."""
    if not isinstance(s, dict) or set(s) - {"kind", "bot", "name"} or s.get("kind") not in (PERSON, BOT):
        raise ValueError(f"seats[{i}]: {{kind: person or bot, bot: NAME, name: TEXT}}")
    bot = s.get("bot", "heuristic")
    name = s.get("name", "")
    if not isinstance(bot, str) or not isinstance(name, str):
        raise ValueError(f"seats[{i}]: bot and name are text")
    try:
        bot = check_table_bot(bot or "heuristic")
    except ValueError as e:
        raise ValueError(f"seats[{i}]: {e}") from None
    return SeatSpec(s["kind"], bot, protocol.person_name(name))


# ---------------------------------------------------------------------------------------------------- the app
def _static_dir() -> Path:
    return Path(str(resources.files("engine.web") / "static"))


def _foreign(headers: Any, allowed: tuple[str, ...]) -> str | None:
    """Why a request or WebSocket does not come from a page of this server (None when it does): its Host must be
    an IP address, localhost or an allowed name; its Origin, when given, that same host."""
    host = headers.get("host", "")
    try:
        name = urlsplit("//" + host).hostname or ""
    except ValueError:
        return "this server does not answer to that Host"
    try:
        ipaddress.ip_address(name)
    except ValueError:
        if name != "localhost" and name not in allowed:
            return f"this server does not answer to the name {name[:40]!r} (jacknine serve --allow-host)"
    origin = headers.get("origin")
    if origin is not None:
        try:
            netloc = urlsplit(origin).netloc
        except ValueError:
            netloc = ""
        if netloc.lower() != host.lower():
            return "requests from pages of another site are refused"
    return None


def _refused_request(request: Request, settings: Settings, body: bool = True) -> Response | None:
    """A refusal when the request comes from another site, or (with a body) is not JSON; None to go on."""
    why = _foreign(request.headers, settings.allowed_hosts)
    if why is not None:
        return JSONResponse({"problems": [why]}, status_code=403)
    if body:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return JSONResponse({"problems": ["the request's Content-Type must be application/json"]},
                                status_code=415)
    return None


async def _json_body(request: Request) -> Any:
    size = 0
    chunks = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ValueError(f"request larger than {MAX_BODY >> 20} MiB")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks), parse_constant=lambda c: None)
    except (ValueError, RecursionError):
        raise ValueError("the request is not JSON") from None


def _table_for(server: Server, request: Request) -> tuple[Runtime, int, bool]:
    rt = server.tables.get(request.path_params["table"])
    token = request.headers.get("x-jacknine-token", "")
    found = rt.audience_of(token, token) if rt is not None else None
    if rt is None or found is None:
        raise PermissionError
    return rt, found[0], found[1]


def build_app(settings: Settings) -> Starlette:
    server_box: dict[str, Server] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server = Server(settings)
        server_box["server"] = server
        app.state.server = server
        for rt in server.tables.values():
            server.kick(rt)
            if rt.ended_at is not None:   # an ended table restored: forgotten when its time is up
                asyncio.get_running_loop().call_later(
                    max(0.0, rt.ended_at + settings.expire - time.time()) + 0.01, server.sweep)
        try:
            yield
        finally:
            server.close()

    static = _static_dir()

    async def lobby(request: Request) -> Response:
        return _refused_request(request, settings, body=False) or FileResponse(static / "index.html")

    async def table_page(request: Request) -> Response:
        return _refused_request(request, settings, body=False) or FileResponse(static / "table.html")

    async def options(request: Request) -> Response:
        refused = _refused_request(request, settings, body=False)
        if refused is not None:
            return refused
        games = []
        for name in shipped_rulesets():
            g = load_game(name)
            games.append({"name": name, "players": g.n, "description": g.rules.description})
        bots = [b for b in known_bots() if not b.startswith("cmd:")]
        return JSONResponse({"rulesets": games, "bots": bots})

    async def validate(request: Request) -> Response:
        server = server_box["server"]
        refused = _refused_request(request, settings)
        if refused is not None:
            return refused
        try:
            body = await _json_body(request)
            files, main = _requested_rules({"upload": body})
        except ValueError as e:
            return JSONResponse({"problems": [str(e)]}, status_code=400)
        folder = server.scratch / ("check-" + secrets.token_hex(8))

        def check() -> tuple[list[str], int | None]:
            try:
                problems = check_upload(files, main, folder)
                return problems, load_game(folder / main).n if not problems else None
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        try:
            problems, players = await server.off_loop(check)
        except Busy as e:
            return JSONResponse({"problems": [str(e)]}, status_code=503, headers={"retry-after": "2"})
        if problems:
            return JSONResponse({"problems": problems}, status_code=422)
        return JSONResponse({"problems": [], "players": players})

    async def create(request: Request) -> Response:
        server = server_box["server"]
        refused = _refused_request(request, settings)
        if refused is not None:
            return refused
        try:
            body = await _json_body(request)
            if not isinstance(body, dict):
                raise ValueError("the request is a JSON object")
            made = await server.create_checked(body)
        except Busy as e:
            return JSONResponse({"problems": [str(e)]}, status_code=503, headers={"retry-after": "2"})
        except UploadError as e:
            return JSONResponse({"problems": e.problems}, status_code=422)
        except ValueError as e:
            return JSONResponse({"problems": [str(e)]}, status_code=400)
        return JSONResponse(made, status_code=201)

    async def qr(request: Request) -> Response:
        """A link drawn as a QR code: its modules, one string of 0 and 1 per row (the page draws them)."""
        refused = _refused_request(request, settings)
        if refused is not None:
            return refused
        try:
            body = await _json_body(request)
            text = body.get("text") if isinstance(body, dict) else None
            if not isinstance(text, str) or not 0 < len(text) <= MAX_QR_TEXT:
                raise ValueError(f"text: a link of at most {MAX_QR_TEXT} characters")
        except ValueError as e:
            return JSONResponse({"problems": [str(e)]}, status_code=400)
        import segno

        code = segno.make(text, error="m", micro=False)
        return JSONResponse({"rows": ["".join("1" if m else "0" for m in row) for row in code.matrix]})

    async def download(request: Request) -> Response:
        server = server_box["server"]
        refused = _refused_request(request, settings, body=False)
        if refused is not None:
            return refused
        try:
            rt, seat, _ = _table_for(server, request)
        except PermissionError:
            return PlainTextResponse("no such table, or not your link", status_code=403)
        what = request.path_params["what"]
        table = rt.table
        try:
            if what == "save.yaml":
                text = table.save_for(seat if seat != SPECTATOR else 0).to_yaml()
            elif what == "hands.jsonl":
                text = "".join(json.dumps(r) + "\n" for r in table.records())
            elif what in rt.files:
                text = rt.files[what]
            else:
                return PlainTextResponse("no such file", status_code=404)
        except Refused as e:
            return PlainTextResponse(e.reason, status_code=409)
        return PlainTextResponse(text, headers={"content-disposition": f'attachment; filename="{what}"'})

    async def socket(ws: WebSocket) -> None:
        server = server_box["server"]
        if _foreign(ws.headers, settings.allowed_hosts) is not None:
            await ws.close(1008)    # before the handshake is accepted: the page sees its connection refused
            return
        await ws.accept()
        rt = server.tables.get(ws.path_params["table"])
        try:
            first = await asyncio.wait_for(_receive_text(ws), HELLO_TIMEOUT)
            if first is None:
                raise ProtocolError("binary frames are not understood: messages are JSON text")
            hello = protocol.parse_message(first)
            if hello["type"] != "hello":
                raise ProtocolError("say hello first")
        except (TimeoutError, ProtocolError, WebSocketDisconnect, KeyError) as e:
            with contextlib.suppress(Exception):
                await ws.send_text(protocol.encode({"type": "error", "reason": str(e) or "say hello first"}))
                await ws.close(1008)
            return
        found = rt.audience_of(hello["token"], hello.get("host")) if rt is not None else None
        if rt is None or found is None:
            await ws.send_text(protocol.encode({"type": "error", "reason": "no such table, or not your link"}))
            await ws.close(1008)
            return
        host_token = next((t for t in (hello.get("host"), hello["token"])
                           if t and hmac.compare_digest(digest(t), rt.host_hash)), None)
        conn = Connection(ws, found[0], found[1], host_token, burst=settings.burst, rate=settings.rate,
                          tokens=settings.burst)
        if hello.get("last") == rt.table.version:
            conn.send(protocol.encode({"type": "resumed", "n": rt.table.version}))
        if host_token is not None:
            conn.send(server.links(rt, host_token))
        server.connect(rt, conn)   # sends a fresh state to everyone, this page included
        if hello.get("last") == rt.table.version:
            conn.pending = None    # nothing changed since the page's last message
        writer = asyncio.get_running_loop().create_task(_writer(conn))
        try:
            while not conn.closing:
                raw = await _receive_text(ws)
                if conn.closing:
                    break
                if not conn.allow():
                    if conn.over > CLOSE_AFTER:
                        await ws.close(1008)
                        break
                    conn.send(protocol.encode({"type": "error", "reason": "too many messages: slow down"}))
                    continue
                try:
                    if raw is None:
                        raise ProtocolError("binary frames are not understood: messages are JSON text")
                    server.handle(rt, conn, protocol.parse_message(raw))
                except ProtocolError as e:
                    conn.send(protocol.encode({"type": "error", "reason": str(e)}))
                except Refused as e:
                    conn.send(protocol.encode({"type": "refused", "n": rt.table.version, "reason": e.reason}))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            writer.cancel()
            server.disconnect(rt, conn)

    routes = [
        Route("/", lobby),
        Route("/t/{table}", table_page),
        Route("/api/options", options),
        Route("/api/validate", validate, methods=["POST"]),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/qr", qr, methods=["POST"]),
        Route("/api/tables/{table}/{what}", download),
        WebSocketRoute("/ws/{table}", socket),
        Mount("/static", StaticFiles(directory=static), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def _receive_text(ws: WebSocket) -> str | None:
    """The next message's text; None for a binary frame. WebSocketDisconnect when the page has gone."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if isinstance(text, str) else None


async def _writer(conn: Connection) -> None:
    """Sends a connection its messages: direct ones in order, then the newest state (a slow page skips states,
    never falls behind)."""
    try:
        while True:
            await conn.wake.wait()
            conn.wake.clear()
            while conn.direct:
                await conn.ws.send_text(conn.direct.popleft())
            if conn.closing:
                await conn.ws.close(1008)
                return
            if conn.pending is not None:
                text, conn.pending = conn.pending, None
                await conn.ws.send_text(text)
    except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
        if conn.ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await conn.ws.close()
