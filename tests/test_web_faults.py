"""The web faults of issue 24, each shown by a test that failed before its fix: uploads checked off the event loop
and only a few at once; ended tables stop counting against the limit and are forgotten; a JSON-only API that
refuses other sites (Origin) and other names (Host), the WebSocket too; closing to spectators drops them; a person
replaced by a bot stops receiving the seat (and a new link for a person seated again); a binary frame answered
with an error; reserved file names refused. Also: the host's page is sent every seat's link at any time."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx2", reason="the web test extra is not installed (pip install '.[webtest]')")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

import engine.web.server as web_server  # noqa: E402
from engine.web.server import Settings, build_app  # noqa: E402

HOUSE = "schema_version: 1\nname: house\nextends: twenty-eight\ndescription: ours\nmatch: {win_at: 3}\n"


def settings(db: Path, **kw: Any) -> Settings:
    return Settings(db=db, new_seed=lambda: 1 << 127 | 5,
                    **{"bot_delay": 0.0, "grace": 600.0, "burst": 10_000, "allowed_hosts": ("testserver",), **kw})


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(build_app(settings(tmp_path / "t.db"))) as c:
        yield c


def create(c: TestClient, **req: Any) -> dict[str, Any]:
    r = c.post("/api/tables", json={"ruleset": "twenty-eight", "seats": [{"kind": "person"}] * 4, **req})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def hello(c: TestClient, stack: ExitStack, table: str, token: str, host: str | None = None) -> Any:
    ws = stack.enter_context(c.websocket_connect(f"/ws/{table}"))
    msg: dict[str, Any] = {"type": "hello", "token": token}
    if host:
        msg["host"] = host
    ws.send_text(json.dumps(msg))
    return ws


def until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.receive_text())
        if msg["type"] == kind:
            return msg


def server_of(c: TestClient) -> Any:
    return c.app.state.server  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------------------------ uploads
def test_an_upload_is_checked_off_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    on_loop: list[bool] = []

    def running() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    real_check, real_load = web_server.check_upload, web_server.load_upload
    monkeypatch.setattr(web_server, "check_upload", lambda *a: on_loop.append(running()) or real_check(*a))
    monkeypatch.setattr(web_server, "load_upload", lambda *a: on_loop.append(running()) or real_load(*a))
    upload = {"files": {"house.yaml": HOUSE}, "main": "house.yaml"}
    assert client.post("/api/validate", json=upload).status_code == 200
    create(client, upload=upload)
    assert on_loop == [False, False]     # once for validate, once for the table


def test_only_a_few_uploads_are_checked_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started, gate = threading.Event(), threading.Event()
    real = web_server.check_upload

    def slow(*a: Any) -> list[str]:
        started.set()
        gate.wait(10)
        return real(*a)
    monkeypatch.setattr(web_server, "check_upload", slow)
    upload = {"files": {"house.yaml": HOUSE}, "main": "house.yaml"}
    with TestClient(build_app(settings(tmp_path / "t.db", uploads=1))) as c:
        first: list[int] = []
        t = threading.Thread(target=lambda: first.append(c.post("/api/validate", json=upload).status_code))
        t.start()
        assert started.wait(10)
        r = c.post("/api/validate", json=upload)       # the one allowed check is still running
        gate.set()
        t.join(20)
        assert r.status_code == 503 and r.json()["problems"] == [
            "the server is checking other uploads: try again in a moment"]
        assert first == [200]
        assert c.post("/api/validate", json=upload).status_code == 200


def test_reserved_names_are_refused_for_uploads(client: TestClient) -> None:
    for name in ("save.yaml", "Save.yml"):
        r = client.post("/api/validate", json={"files": {name: HOUSE}, "main": name})
        assert r.status_code == 422
        assert r.json()["problems"] == [f"{name}: the name of the table's match save; call the rule file "
                                        "something else"]


# ------------------------------------------------------------------------------------------------ ended tables
def test_ended_tables_stop_counting_and_are_forgotten(tmp_path: Path) -> None:
    with TestClient(build_app(settings(tmp_path / "t.db", max_tables=1, expire=3600))) as c, ExitStack() as stack:
        made = create(c, start=True)
        host = hello(c, stack, made["table"], made["seats"][0], made["host"])
        until(host, "state")
        host.send_text(json.dumps({"type": "host", "do": "stop"}))
        while server_of(c).tables[made["table"]].table.status != "stopped":
            until(host, "state")
        again = create(c)                                    # the stopped table no longer counts
        r = c.post("/api/tables", json={"ruleset": "twenty-eight"})
        assert r.status_code == 400 and "limit of 1 tables" in r.json()["problems"][0]
        # its downloads stay until it expires
        head = {"x-jacknine-token": made["seats"][0]}
        assert c.get(f"/api/tables/{made['table']}/save.yaml", headers=head).status_code == 200
        server_of(c).sweep(now=server_of(c).tables[made["table"]].ended_at + 3600)
        assert made["table"] not in server_of(c).tables and again["table"] in server_of(c).tables
        assert c.get(f"/api/tables/{made['table']}/save.yaml", headers=head).status_code == 403
        assert server_of(c).store.count() == 1
        with pytest.raises(WebSocketDisconnect):
            until(host, "never")                             # its page was told and closed


def test_a_restart_forgets_tables_that_ended_long_ago(tmp_path: Path) -> None:
    with TestClient(build_app(settings(tmp_path / "t.db"))) as c:
        made = create(c, start=True)
        with ExitStack() as stack:
            host = hello(c, stack, made["table"], made["seats"][0], made["host"])
            host.send_text(json.dumps({"type": "host", "do": "stop"}))
            while server_of(c).tables[made["table"]].table.status != "stopped":
                until(host, "state")
        kept = create(c)
    with TestClient(build_app(settings(tmp_path / "t.db", expire=0))) as c:
        assert set(server_of(c).tables) == {kept["table"]}


# ------------------------------------------------------------------------------------------------ other sites
def test_the_api_takes_json_only(client: TestClient) -> None:
    body = json.dumps({"ruleset": "twenty-eight"})
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {"content-type": kind} if kind else {}
        for path in ("/api/tables", "/api/validate"):
            r = client.post(path, content=body, headers=headers)
            assert r.status_code == 415, (path, kind)
            assert r.json()["problems"] == ["the request's Content-Type must be application/json"]
    assert server_of(client).tables == {}
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 201


@pytest.mark.parametrize("headers", [{"origin": "https://evil.example"}, {"origin": "null"},
                                     {"origin": "http://testserver.evil.example"}, {"host": "rebound.example"},
                                     {"host": "rebound.example", "origin": "http://rebound.example"}])
def test_requests_from_other_sites_or_names_are_refused(client: TestClient, headers: dict[str, str]) -> None:
    r = client.post("/api/tables", json={"ruleset": "twenty-eight"}, headers=headers)
    assert r.status_code == 403
    assert server_of(client).tables == {}
    assert client.get("/api/options", headers=headers).status_code == 403
    made = create(client)
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{made['table']}", headers=headers) as ws:
        ws.send_text(json.dumps({"type": "hello", "token": made["seats"][0]}))
        ws.receive_text()


def test_pages_of_this_server_are_served(client: TestClient) -> None:
    same = {"origin": "http://testserver"}
    assert create(client)
    assert client.post("/api/tables", json={"ruleset": "twenty-eight"}, headers=same).status_code == 201
    for host in ("127.0.0.1:8000", "[::1]:8000", "localhost:8000", "192.168.1.20:8000"):
        r = client.get("/api/options", headers={"host": host, "origin": f"http://{host}"})
        assert r.status_code == 200, host


# ------------------------------------------------------------------------------------------------ who receives what
def test_closing_the_table_to_spectators_drops_the_spectators(client: TestClient) -> None:
    made = create(client, spectators=True)
    with ExitStack() as stack:
        host = hello(client, stack, made["table"], made["seats"][0], made["host"])
        until(host, "state")
        watcher = hello(client, stack, made["table"], made["watch"])
        until(watcher, "state")
        host.send_text(json.dumps({"type": "host", "do": "spectators", "allow": False}))
        told = json.loads(watcher.receive_text())
        assert told == {"type": "error", "reason": "the host has closed the table to spectators", "closed": True}
        with pytest.raises(WebSocketDisconnect):
            watcher.receive_text()


def test_a_person_replaced_by_a_bot_stops_receiving_the_seat(client: TestClient) -> None:
    made = create(client, start=True)
    tid = made["table"]
    with ExitStack() as stack:
        host = hello(client, stack, tid, made["seats"][0], made["host"])
        links = until(host, "links")
        assert links["seats"] == made["seats"] and links["watch"] == made["watch"]
        person = hello(client, stack, tid, made["seats"][2])
        assert until(person, "state")["you"]["seat"] == 2
        host.send_text(json.dumps({"type": "host", "do": "seat", "seat": 2, "bot": "random"}))
        assert until(host, "links")["seats"][2] is None
        msgs = []
        with pytest.raises(WebSocketDisconnect):
            while True:     # (a state here is the seat's hand still sent: fail at once rather than wait on)
                msgs.append(json.loads(person.receive_text()))
                assert msgs[-1]["type"] == "error", f"the replaced person still receives: {str(msgs[-1])[:200]}"
        assert msgs[-1]["reason"] == "the host has given this seat to someone else: this link no longer opens it"
        assert all(m.get("hand") is None or m["you"]["seat"] == 2 for m in msgs) and len(msgs) == 1
    with ExitStack() as stack:
        old = hello(client, stack, tid, made["seats"][2])
        assert until(old, "error")["reason"] == "no such table, or not your link"
    with ExitStack() as stack:
        host = hello(client, stack, tid, made["seats"][0], made["host"])
        until(host, "links")
        host.send_text(json.dumps({"type": "host", "do": "seat", "seat": 2}))
        new = until(host, "links")["seats"][2]
        assert new not in (None, made["seats"][2])
        back = hello(client, stack, tid, new)
        assert until(back, "state")["you"]["seat"] == 2
    with ExitStack() as stack:
        old = hello(client, stack, tid, made["seats"][2])
        assert until(old, "error")["reason"] == "no such table, or not your link"


def test_a_host_who_gives_his_own_seat_to_a_bot_watches_on(client: TestClient) -> None:
    made = create(client, start=True)
    with ExitStack() as stack:
        host = hello(client, stack, made["table"], made["seats"][0], made["host"])
        until(host, "links")
        host.send_text(json.dumps({"type": "host", "do": "seat", "seat": 0, "bot": "heuristic"}))
        assert until(host, "links")["seats"][0] is None
        while (msg := until(host, "state"))["table"]["seats"][0]["kind"] != "bot":
            pass
        assert msg["you"]["seat"] is None and msg["hand"]["view"]["hand"] == []


def test_a_binary_frame_is_answered_with_an_error(client: TestClient) -> None:
    made = create(client)
    with ExitStack() as stack:
        ws = stack.enter_context(client.websocket_connect(f"/ws/{made['table']}"))
        ws.send_bytes(b'{"type": "hello"}')
        assert json.loads(ws.receive_text())["reason"] == "binary frames are not understood: messages are JSON text"
    with ExitStack() as stack:
        ws = hello(client, stack, made["table"], made["seats"][1])
        until(ws, "state")
        ws.send_bytes(b"\x00\x01")
        assert until(ws, "error")["reason"] == "binary frames are not understood: messages are JSON text"
        ws.send_text(json.dumps({"type": "ping"}))
        assert until(ws, "pong")["type"] == "pong"     # the connection lives on


def test_each_state_says_how_long_before_a_bot_plays_for_a_seat_that_is_away(client: TestClient) -> None:
    """The page's countdown: a person whose page is not open has `grace_left` seconds (the server's grace period,
    600 s here) before a bot plays for them; a seat with its page open, or a bot's, has none."""
    made = create(client, start=True, seats=[{"kind": "person"}] * 3 + [{"kind": "bot"}])
    with ExitStack() as stack:
        me = hello(client, stack, made["table"], made["seats"][0])
        seats = until(me, "state")["table"]["seats"]
    assert seats[0]["grace_left"] is None and seats[3]["grace_left"] is None
    assert all(500 < s["grace_left"] <= 600 for s in seats[1:3])


def test_tables_made_and_stopped_at_once_do_not_pile_up(tmp_path: Path) -> None:
    """Ended tables stop counting against the limit, but at most twice the limit are held: the longest ended are
    forgotten first."""
    with TestClient(build_app(settings(tmp_path / "t.db", max_tables=2))) as c:
        made = []
        for _ in range(5):
            made.append(create(c, start=True)["table"])
            rt = server_of(c).tables[made[-1]]
            rt.table.apply(web_server.Entry("stop"))
            rt.ended_at = time.time() + len(made)     # ended in this order, a moment ago
        create(c)
        assert len(server_of(c).tables) <= 4 and made[0] not in server_of(c).tables
        assert made[-1] in server_of(c).tables
