"""`jacknine serve`: the web server (Starlette). Pages and their assets, a small JSON API to create tables and
download their files, and one WebSocket per page through which the table is played.

Everything a table does happens on the event loop, one change at a time: a change is applied to the `Table`,
appended to the database log, and each connection is sent a fresh `state` built for its audience (the seat of
its token, or a spectator). Bots decide in executors (`engine.web.bots`), never on the loop.

Limits: request bodies, messages and chat lines are bounded; each connection has a message budget (a token bucket);
the server holds at most `max_tables` tables; an upload is read by the strict rule-file reader and may extend only
a shipped game or another file uploaded with it. Nothing a client sends names a file to read or a program to run."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
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


@dataclass(eq=False)   # one per page: compared and hashed by identity
class Connection:
    ws: WebSocket
    seat: int                   # a seat, or SPECTATOR
    host: bool
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

    def presence(self) -> Presence:
        return Presence(self.connected(), set(self.away), self.notices)


class Server:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.db)
        self.scratch = Path(tempfile.mkdtemp(prefix="jacknine-serve-"))
        self.pool = BotPool(settings.workers)
        self.tables: dict[str, Runtime] = {}
        self.broken: dict[str, str] = {}
        for stored in self.store.tables():
            try:
                self.tables[stored.table_id] = self._restore(stored)
            except (Refused, JacknineError, UploadError, ValueError) as e:
                self.broken[stored.table_id] = str(e)

    # --- tables -----------------------------------------------------------------------------------------
    def _game(self, table_id: str, ruleset: str, files: dict[str, str]) -> Game:
        if files:
            return load_upload(files, ruleset, self.scratch / table_id)
        if ruleset not in shipped_rulesets():
            raise UploadError([f"no shipped rule file named {ruleset!r}"])
        return load_game(ruleset)

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

    def create(self, request: dict[str, Any]) -> dict[str, Any]:
        """A new table from the lobby's request; UploadError or ValueError saying what is wrong."""
        if len(self.tables) >= self.settings.max_tables:
            raise ValueError(f"this server already holds its limit of {self.settings.max_tables} tables")
        allowed = {"ruleset", "upload", "seats", "max_hands", "spectators", "start"}
        unknown = set(request) - allowed
        if unknown:
            raise ValueError(f"unknown field {sorted(unknown)[0][:20]!r}")
        files, ruleset = _requested_rules(request)
        table_id = secrets.token_urlsafe(12)
        game = self._game(table_id, ruleset, files)
        seats = _requested_seats(request.get("seats"), game.n)
        max_hands = request.get("max_hands", MAX_HANDS)
        if not isinstance(max_hands, int) or isinstance(max_hands, bool) or not 1 <= max_hands <= MAX_HANDS:
            raise ValueError(f"max_hands: a whole number from 1 to {MAX_HANDS}")
        spectators = request.get("spectators", False)
        start = request.get("start", False)
        if not isinstance(spectators, bool) or not isinstance(start, bool):
            raise ValueError("spectators and start are true or false")
        seed = self.settings.new_seed()
        host, watch = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        tokens = [secrets.token_urlsafe(24) for _ in range(game.n)]
        self.store.add_table(table_id, ruleset, files, seed, max_hands, [s.to_dict() for s in seats], digest(host),
                             [digest(t) for t in tokens], digest(watch))
        table = Table(table_id, game, ruleset, seed, seats, max_hands)
        rt = self._runtime(table, digest(host), [digest(t) for t in tokens], digest(watch), files)
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
        presence = rt.presence()
        built: dict[int, str] = {}
        for conn in list(rt.connections):
            text = built.get(conn.seat)
            if text is None:
                text = built[conn.seat] = protocol.encode(protocol.snapshot(rt.table, conn.seat, presence,
                                                                            rt.direction))
            conn.pending = text
            conn.wake.set()

    def snapshot_for(self, rt: Runtime, seat: int) -> str:
        return protocol.encode(protocol.snapshot(rt.table, seat, rt.presence(), rt.direction))

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
                if {s for s in rt.connected() if table.seats[s].kind == PERSON} - table.ready:
                    return   # a person is reading the summary: their 'next' wakes the driver
                await asyncio.sleep(delay)
                if table.summary_open and table.status == PLAYING:
                    self._apply(rt, Entry("deal"))
                continue
            seat = table.to_act()
            if seat is None:
                return
            now = time.monotonic()
            if not self._plays_for(rt, seat, now):
                left = rt.left_at.get(seat)
                if left is not None and seat not in rt.connected():   # away, within the grace period
                    rt.timer = asyncio.get_running_loop().call_later(
                        max(0.0, left + self.settings.grace - now) + 0.01, rt.wake.set)
                return   # the person's move (or the grace timer) wakes the driver
            if table.seats[seat].kind == PERSON and seat not in rt.away:
                rt.away.add(seat)
                rt.notices.append(f"seat {seat} is away: a bot plays for them until they return")
                self.broadcast(rt)
            version = table.version
            if delay:
                await asyncio.sleep(delay)
                if table.version != version:
                    continue
            state = table.state
            assert state is not None
            spec, hand = table.seats[seat].bot, len(table.finished)
            notation = await self.pool.choose(
                spec, table.game, (table.table_id, hand, seat, spec), bot_seed(table.seed, hand, seat, -1),
                bot_seed(table.seed, hand, seat, len(state.history)), build_view(state, state.to_act),  # a dummy's seat
                state.legal_actions())
            if table.version != version or not self._plays_for(rt, seat, time.monotonic()):
                continue   # the table moved on meanwhile, or the person came back
            self._apply(rt, Entry("act", seat, notation))

    def _apply(self, rt: Runtime, entry: Entry) -> None:
        rt.table.apply(entry)
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
        if conn.seat != SPECTATOR and conn.seat not in rt.connected():
            rt.left_at[conn.seat] = time.monotonic()
        self.broadcast(rt)
        self.kick(rt)

    def handle(self, rt: Runtime, conn: Connection, msg: dict[str, Any]) -> None:
        """One message from a page; Refused or ProtocolError say why it was not taken."""
        kind = msg["type"]
        table = rt.table
        if kind == "ping":
            conn.send(protocol.encode({"type": "pong", "n": table.version}))
        elif kind == "hello":
            raise ProtocolError("hello: already said")
        elif kind == "act":
            if conn.seat == SPECTATOR:
                raise Refused("spectators do not play")
            if table.seats[conn.seat].kind != PERSON:
                raise Refused("a bot plays this seat now")
            self.change(rt, Entry("act", conn.seat, msg["action"].strip()))
        elif kind == "next":
            if conn.seat == SPECTATOR or not table.summary_open:
                return
            table.ready.add(conn.seat)
            self.broadcast(rt)
            self.kick(rt)
        elif kind == "chat":
            if conn.seat == SPECTATOR and not conn.host:
                raise Refused("spectators only watch")
            self.change(rt, Entry("chat", conn.seat, protocol.chat_text(msg["text"])))
        elif kind == "host":
            if not conn.host:
                raise Refused("only the host may do that")
            self._host(rt, msg)

    def _host(self, rt: Runtime, msg: dict[str, Any]) -> None:
        do = msg["do"]
        table = rt.table
        if do == "start":
            if table.status != WAITING:
                raise Refused("the match has already started")
            self.change(rt, Entry("start"))
        elif do == "stop":
            self.change(rt, Entry("stop"))
        elif do == "spectators":
            allow = msg.get("allow")
            if not isinstance(allow, bool):
                raise ProtocolError("host: spectators needs allow: true or false")
            self.change(rt, Entry("spectators", -1, "1" if allow else "0"))
        elif do == "seat":
            seat, bot = msg.get("seat"), msg.get("bot", "")
            if not isinstance(seat, int) or not 0 <= seat < table.game.n:
                raise ProtocolError("host: seat needs a seat number")
            if bot:
                try:
                    bot = check_table_bot(bot)
                except ValueError as e:
                    raise Refused(str(e)) from None
                self.change(rt, Entry("seat", seat, f"{BOT} {bot}"))
            else:
                self.change(rt, Entry("seat", seat, PERSON))

    def close(self) -> None:
        for rt in self.tables.values():
            if rt.task is not None:
                rt.task.cancel()
            if rt.timer is not None:
                rt.timer.cancel()
        self.pool.close()
        self.store.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


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


def _requested_seats(raw: Any, players: int) -> list[SeatSpec]:
    if raw is None:
        return [SeatSpec(PERSON)] + [SeatSpec(BOT) for _ in range(players - 1)]
    if not isinstance(raw, list) or len(raw) != players:
        raise ValueError(f"seats: one entry per seat ({players})")
    out = []
    for i, s in enumerate(raw):
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
        out.append(SeatSpec(s["kind"], bot, protocol.person_name(name)))
    return out


# ---------------------------------------------------------------------------------------------------- the app
def _static_dir() -> Path:
    return Path(str(resources.files("engine.web") / "static"))


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
        try:
            yield
        finally:
            server.close()

    static = _static_dir()

    async def lobby(request: Request) -> Response:
        return FileResponse(static / "index.html")

    async def table_page(request: Request) -> Response:
        return FileResponse(static / "table.html")

    async def options(request: Request) -> Response:
        games = []
        for name in shipped_rulesets():
            g = load_game(name)
            games.append({"name": name, "players": g.n, "description": g.rules.description})
        bots = [b for b in known_bots() if not b.startswith("cmd:")]
        return JSONResponse({"rulesets": games, "bots": bots})

    async def validate(request: Request) -> Response:
        server = server_box["server"]
        try:
            body = await _json_body(request)
            files, main = _requested_rules({"upload": body})
        except ValueError as e:
            return JSONResponse({"problems": [str(e)]}, status_code=400)
        folder = server.scratch / ("check-" + secrets.token_hex(8))
        try:
            problems = check_upload(files, main, folder)
            players = load_game(folder / main).n if not problems else None
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if problems:
            return JSONResponse({"problems": problems}, status_code=422)
        return JSONResponse({"problems": [], "players": players})

    async def create(request: Request) -> Response:
        server = server_box["server"]
        try:
            body = await _json_body(request)
            if not isinstance(body, dict):
                raise ValueError("the request is a JSON object")
            made = server.create(body)
        except UploadError as e:
            return JSONResponse({"problems": e.problems}, status_code=422)
        except ValueError as e:
            return JSONResponse({"problems": [str(e)]}, status_code=400)
        return JSONResponse(made, status_code=201)

    async def download(request: Request) -> Response:
        server = server_box["server"]
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
        await ws.accept()
        rt = server.tables.get(ws.path_params["table"])
        try:
            first = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
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
        conn = Connection(ws, found[0], found[1], burst=settings.burst, rate=settings.rate,
                          tokens=settings.burst)
        if hello.get("last") == rt.table.version:
            conn.send(protocol.encode({"type": "resumed", "n": rt.table.version}))
        server.connect(rt, conn)   # sends a fresh state to everyone, this page included
        if hello.get("last") == rt.table.version:
            conn.pending = None    # nothing changed since the page's last message
        writer = asyncio.get_running_loop().create_task(_writer(conn))
        try:
            while True:
                raw = await ws.receive_text()
                if not conn.allow():
                    if conn.over > CLOSE_AFTER:
                        await ws.close(1008)
                        break
                    conn.send(protocol.encode({"type": "error", "reason": "too many messages: slow down"}))
                    continue
                try:
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
        Route("/api/tables/{table}/{what}", download),
        WebSocketRoute("/ws/{table}", socket),
        Mount("/static", StaticFiles(directory=static), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def _writer(conn: Connection) -> None:
    """Sends a connection its messages: direct ones in order, then the newest state (a slow page skips states,
    never falls behind)."""
    try:
        while True:
            await conn.wake.wait()
            conn.wake.clear()
            while conn.direct:
                await conn.ws.send_text(conn.direct.popleft())
            if conn.pending is not None:
                text, conn.pending = conn.pending, None
                await conn.ws.send_text(text)
    except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
        if conn.ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await conn.ws.close()
