"""The web table's protocol without a browser: Starlette's TestClient, every page a WebSocket session in one
client portal. Whole seeded matches with four people, every message each seat receives scanned (raw bytes) for
cards still held by another seat and for a concealed trump; refusals carry the engine's reasons; reconnects,
restarts, uploads, downloads, spectators, chat and the verifiable shuffle."""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx2", reason="the web test extra is not installed (pip install '.[webtest]')")

import yaml  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from engine.cli.app import app as cli  # noqa: E402
from engine.play.match import hand_seeds  # noqa: E402
from engine.web.server import Settings, build_app  # noqa: E402
from tests.web_support import check_message, choose, leaks, state_at  # noqa: E402

SEED = 20260101


def settings(db: Path, **kw: Any) -> Settings:
    """Bots without delay, people never replaced, a fixed seed, and a message budget no script of these tests
    exceeds (the default allows 60 at once and 10 a second; test_a_flood_of_messages_is_slowed_down)."""
    return Settings(db=db, new_seed=lambda: SEED, **{"bot_delay": 0.0, "grace": 600.0, "burst": 10_000,
                                                      "allowed_hosts": ("testserver",), **kw})


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(build_app(settings(tmp_path / "t.db"))) as c:
        yield c


def create(c: TestClient, **req: Any) -> dict[str, Any]:
    body = {"ruleset": "twenty-eight", "seats": [{"kind": "person"}] * 4, **req}
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


class Page:
    """One page's WebSocket: every message it receives is kept raw."""

    def __init__(self, c: TestClient, stack: ExitStack, table: str, token: str, host: str | None = None,
                 last: int | None = None) -> None:
        self.ws = stack.enter_context(c.websocket_connect(f"/ws/{table}"))
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if host:
            hello["host"] = host
        if last is not None:
            hello["last"] = last
        self.ws.send_text(json.dumps(hello))
        self.raw: list[str] = []
        self.state: dict[str, Any] = {}

    def receive(self) -> dict[str, Any]:
        raw = self.ws.receive_text()
        self.raw.append(raw)
        msg: dict[str, Any] = json.loads(raw)
        if msg["type"] == "state":
            self.state = msg
        return msg

    def until(self, n: int) -> dict[str, Any]:
        """Receive until the state numbered at least n."""
        while not self.state or self.state["n"] < n:
            self.receive()
        return self.state

    def send(self, **msg: Any) -> None:
        self.ws.send_text(json.dumps(msg))

    def answer(self) -> dict[str, Any]:
        """The next message that is not a state (a refusal or an error)."""
        while True:
            msg = self.receive()
            if msg["type"] != "state":
                return msg


def server_table(c: TestClient, table_id: str) -> Any:
    return c.app.state.server.tables[table_id].table  # type: ignore[attr-defined]


def play_match(c: TestClient, made: dict[str, Any], stack: ExitStack, rng: random.Random,
               until_hand: int | None = None) -> tuple[list[Page], Any]:
    """Four people play through the pages (each answers only its own decisions) to the end of the match, or
    until hand `until_hand` starts."""
    tid = made["table"]
    pages = [Page(c, stack, tid, t, made["host"] if i == 0 else None) for i, t in enumerate(made["seats"])]
    table = server_table(c, tid)
    for p in pages:
        p.until(table.version)
    before = table.version
    pages[0].send(type="host", do="start")
    pages[0].until(before + 1)
    while table.status == "playing":
        for p in pages:
            p.until(table.version)
        if until_hand is not None and table.hand_number >= until_hand and table.state is not None:
            break
        if table.summary_open:
            number = table.hand_number
            for p in pages:
                p.send(type="next")
            while not (pages[0].state["hand"] and pages[0].state["table"]["hand"] > number):
                pages[0].receive()     # the next hand is dealt once everyone has read the summary
            for p in pages:
                p.until(pages[0].state["n"])
            continue
        seat = table.state.to_act
        action = choose(pages[seat].state, rng.randrange(1000))
        assert action is not None, pages[seat].state["hand"]
        before = table.version
        pages[seat].send(type="act", action=action)
        pages[seat].until(before + 1)
    for p in pages:
        p.until(table.version)
    return pages, table


@pytest.mark.parametrize(("ruleset", "hands"), [("twenty-eight", 3), ("twenty-nine", 3), ("fifty-six", 1),
                                                ("thani", 2)])
def test_four_people_play_a_match_and_no_message_shows_a_hidden_card(client: TestClient, ruleset: str,
                                                                      hands: int) -> None:
    from engine.play.compile import load_game
    n = load_game(ruleset).n
    made = create(client, ruleset=ruleset, seats=[{"kind": "person"}] * n, max_hands=hands, spectators=True)
    with ExitStack() as stack:
        pages, table = play_match(client, made, stack, random.Random(ruleset))
        watcher = Page(client, stack, made["table"], made["watch"])
        watcher.until(table.version)
    assert table.status == "over" and 1 <= len(table.finished) <= hands   # the hand limit, or decided sooner
    checked = concealed = 0
    for seat, page in enumerate(pages):
        for raw in page.raw:
            msg = check_message(raw, table, seat)
            checked += 1
            hand = msg.get("hand")
            if hand and hand["view"]["trump_concealed"] and hand["view"]["trump"] is None:
                concealed += 1
    assert checked > 40 * len(table.finished)
    if ruleset != "fifty-six":       # fifty-six plays with the trump face up
        assert concealed > 10        # the dangerous moments really happened
    final = pages[0].state
    assert final["summary"] is not None and final["table"]["seed"] == str(SEED)


def test_every_message_of_a_table_with_bots_is_clean_too(client: TestClient) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"},
             {"kind": "bot", "bot": "pimc:4"}]
    made = create(client, seats=seats, max_hands=2, spectators=True)
    with ExitStack() as stack:
        me = Page(client, stack, made["table"], made["seats"][0], made["host"])
        watcher = Page(client, stack, made["table"], made["watch"])
        table = server_table(client, made["table"])
        me.until(table.version)
        before = table.version
        me.send(type="host", do="start")
        me.until(before + 1)
        k = 0
        while table.status == "playing":
            msg = me.receive()
            if msg["type"] != "state":
                continue
            if msg["summary"] is not None and table.summary_open:
                me.send(type="next")
            action = choose(msg, k)
            if action is not None and msg["n"] == table.version:
                k += 1
                me.send(type="act", action=action)
        me.until(table.version)
        watcher.until(table.version)
    assert table.status == "over"
    for raw in me.raw:
        check_message(raw, table, 0)
    spectated = 0
    for raw in watcher.raw:
        msg = check_message(raw, table, -1)
        if msg.get("hand"):
            assert msg["hand"]["view"]["hand"] == [] and msg["hand"]["decision"] is None
            spectated += 1
    assert spectated > 10


def test_a_wrong_token_opens_nothing(client: TestClient) -> None:
    made = create(client)
    with ExitStack() as stack:
        bad = Page(client, stack, made["table"], "not-a-token")
        msg = bad.receive()
        assert msg == {"type": "error", "reason": "no such table, or not your link"}
        watch = Page(client, stack, made["table"], made["watch"])   # spectators not allowed at this table
        assert watch.receive()["reason"] == "no such table, or not your link"
        other = Page(client, stack, "no-such-table", made["seats"][0])
        assert other.receive()["type"] == "error"
    r = client.get(f"/api/tables/{made['table']}/hands.jsonl", headers={"x-jacknine-token": "nope"})
    assert r.status_code == 403


def test_moves_are_refused_with_the_engine_reason(client: TestClient) -> None:
    made = create(client)
    with ExitStack() as stack:
        pages = [Page(client, stack, made["table"], t, made["host"] if i == 0 else None)
                 for i, t in enumerate(made["seats"])]
        table = server_table(client, made["table"])
        pages[0].until(table.version)
        pages[0].send(type="host", do="start")
        for p in pages:
            p.until(table.version)
        first = table.state.to_act                       # seat 1 opens (dealer 0)
        other = (first + 1) % 4
        pages[other].send(type="act", action="bid 16")
        assert pages[other].answer()["reason"] == f"it is not your turn (seat {first} is to play)"
        pages[first].send(type="act", action="pass")
        assert pages[first].answer()["reason"] == "the first hand must open the bidding"
        pages[first].send(type="act", action="bid 99")
        assert pages[first].answer()["reason"] == "bids go up to 28"
        pages[first].send(type="act", action="trump hearts")
        assert "did you mean 'trump H'?" in pages[first].answer()["reason"]
        pages[first].send(type="act", action="bid 16", seat=other)
        assert pages[first].answer() == {"type": "error",
                                         "reason": "act: unknown field 'seat' (the seat is your link's)"}
        pages[first].send(type="host", do="stop")
        assert pages[first].answer()["reason"] == "only the host may do that"
        assert table.state.history == []                # nothing was changed by any of it
        # play on to the first trick and try a card that does not follow suit
        while table.state.phase_name != "play" or not table.state.trick_cards:
            seat = table.state.to_act
            pages[seat].until(table.version)
            before = table.version
            pages[seat].send(type="act", action=choose(pages[seat].state, 1))
            pages[seat].until(before + 1)
        seat = table.state.to_act
        page = pages[seat].until(table.version)
        reasons = page["hand"]["reasons"]
        refused = [card for card, why in reasons.items() if why]
        assume = refused[0] if refused else None
        if assume is not None:
            pages[seat].send(type="act", action=f"play {assume}")
            assert pages[seat].answer()["reason"] == reasons[assume]


def test_a_page_that_reconnects_gets_the_same_view(client: TestClient) -> None:
    made = create(client, max_hands=2)
    with ExitStack() as stack:
        pages, table = play_match(client, made, stack, random.Random(3), until_hand=1)
        while len(table.state.history) < 9:          # mid-hand
            seat = table.state.to_act
            pages[seat].until(table.version)
            before = table.version
            pages[seat].send(type="act", action=choose(pages[seat].state, 2))
            pages[seat].until(before + 1)
        for p in pages:
            p.until(table.version)
        before = pages[2].state
    with ExitStack() as stack:
        again = Page(client, stack, made["table"], made["seats"][2])
        snap = again.until(table.version)
        assert snap["hand"] == before["hand"] and snap["table"]["scores"] == before["table"]["scores"]
        resumed = Page(client, stack, made["table"], made["seats"][2], last=table.version)
        assert resumed.receive() == {"type": "resumed", "n": table.version}


def test_a_restart_over_the_same_database_resumes_every_table(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with TestClient(build_app(settings(db))) as c:
        made = create(c, max_hands=3)
        bots = create(c, seats=[{"kind": "person"}] + [{"kind": "bot"}] * 3, max_hands=3)
        with ExitStack() as stack:
            pages, table = play_match(c, made, stack, random.Random(5), until_hand=2)
            while len(table.state.history) < 7:
                seat = table.state.to_act
                pages[seat].until(table.version)
                before = table.version
                pages[seat].send(type="act", action=choose(pages[seat].state, 4))
                pages[seat].until(before + 1)
            for p in pages:
                p.until(table.version)
            before = [p.state for p in pages]
            version = table.version
            history = [str(a) for a in table.state.history]
            records = c.get(f"/api/tables/{made['table']}/hands.jsonl",
                            headers={"x-jacknine-token": made["seats"][1]}).text
    with TestClient(build_app(settings(db))) as c:
        server = c.app.state.server  # type: ignore[attr-defined]
        assert set(server.tables) == {made["table"], bots["table"]} and not server.broken
        table = server.tables[made["table"]].table
        assert table.version == version and [str(a) for a in table.state.history] == history
        with ExitStack() as stack:
            for seat, token in enumerate(made["seats"]):
                page = Page(c, stack, made["table"], token)
                snap = page.until(version)
                assert snap["hand"] == before[seat]["hand"]
                assert snap["table"]["scores"] == before[seat]["table"]["scores"]
        assert c.get(f"/api/tables/{made['table']}/hands.jsonl",
                     headers={"x-jacknine-token": made["seats"][1]}).text == records


def test_records_before_the_end_carry_no_seed_and_the_save_waits(client: TestClient) -> None:
    made = create(client, max_hands=3)
    with ExitStack() as stack:
        pages, table = play_match(client, made, stack, random.Random(8), until_hand=2)
    head = {"x-jacknine-token": made["seats"][3]}
    lines = client.get(f"/api/tables/{made['table']}/hands.jsonl", headers=head).text.splitlines()
    assert len(lines) == 1 and "seed" not in json.loads(lines[0]) and "hands" in json.loads(lines[0])
    r = client.get(f"/api/tables/{made['table']}/save.yaml", headers=head)
    assert r.status_code == 409 and "holds the seed" in r.text


def test_a_stopped_match_downloads_a_save_that_resumes_in_the_terminal(client: TestClient, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    made = create(client, max_hands=4)
    with ExitStack() as stack:
        pages, table = play_match(client, made, stack, random.Random(9), until_hand=2)
        while len(table.state.history) < 6:
            seat = table.state.to_act
            pages[seat].until(table.version)
            before = table.version
            pages[seat].send(type="act", action=choose(pages[seat].state, 5))
            pages[seat].until(before + 1)
        pages[0].until(table.version)
        before = table.version
        pages[0].send(type="host", do="stop")
        stopped = pages[0].until(before + 1)
    assert stopped["table"]["status"] == "stopped" and stopped["table"]["seed"] == str(SEED)
    r = client.get(f"/api/tables/{made['table']}/save.yaml", headers={"x-jacknine-token": made["seats"][2]})
    assert r.status_code == 200
    save = tmp_path / "web.yaml"
    save.write_text(r.text)
    data = yaml.safe_load(r.text)
    assert data["seat"] == 2 and data["seed"] == SEED and data["hands"][-1].get("status") is None
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    res = CliRunner().invoke(cli, ["play", "--resume", str(save)], input="1\n" * 3000)
    assert res.exit_code == 0, res.output
    assert "resumed" in res.output and "at hand 2" in res.output
    assert "match stopped at the hand limit after 4 hands" in res.output or "match over after" in res.output
    assert yaml.safe_load(save.read_text())["status"] == "over"


def test_the_seed_is_committed_at_the_start_and_every_deal_follows_from_it(client: TestClient) -> None:
    made = create(client, max_hands=2)
    assert made["commitment"] == hashlib.sha256(str(SEED).encode()).hexdigest()
    with ExitStack() as stack:
        pages, table = play_match(client, made, stack, random.Random(2))
        first = pages[1].raw[0]
        assert str(SEED) not in first and made["commitment"] in first       # committed, not told
        for page in pages:
            assert all(str(SEED) not in raw for raw in page.raw[:-3])         # revealed only at the end
    final = pages[1].state["table"]
    assert final["seed"] == str(SEED) and final["commitment"] == made["commitment"]
    assert [d["seed"] for d in final["deals"]] == [str(s) for s in hand_seeds(SEED, 2)]
    summary_hands = {f.number: f.record["hands"] for f in table.finished}
    for deal in final["deals"]:
        res = CliRunner().invoke(cli, ["deal", "-r", "twenty-eight", "--seed", str(deal["seed"]), "--dealer",
                                       str(deal["dealer"]), "--record"])
        assert res.exit_code == 0
        assert yaml.safe_load(res.output)["hands"] == summary_hands[deal["hand"]]


def test_uploaded_house_rules_are_checked_with_the_validate_messages(client: TestClient) -> None:
    base = "schema_version: 1\nname: base\nextends: twenty-eight\ndescription: ours\nmatch: {win_at: 3}\n"
    house = ("schema_version: 1\nname: house\nextends: ./base.yaml\ndescription: house\nauction:\n"
             "  pass_is_final: true\n")
    r = client.post("/api/validate", json={"files": {"base.yaml": base, "house.yaml": house}, "main": "house.yaml"})
    assert r.status_code == 200 and r.json() == {"problems": [], "players": 4}
    made = create(client, upload={"files": {"base.yaml": base, "house.yaml": house}, "main": "house.yaml"},
                  max_hands=1)
    table = server_table(client, made["table"])
    assert table.ruleset == "house.yaml" and table.game.rules.match.win_at == 3
    head = {"x-jacknine-token": made["seats"][0]}
    assert client.get(f"/api/tables/{made['table']}/base.yaml", headers=head).text == base
    bad = "schema_version: 1\nname: bad\nextends: twenty-eight\ndescription: x\nplay:\n  reveal:\n    calll: optional\n"
    r = client.post("/api/validate", json={"files": {"bad.yaml": bad}, "main": "bad.yaml"})
    assert r.status_code == 422
    assert r.json()["problems"] == ["bad.yaml:7:5: play.reveal.calll: unknown key (did you mean 'call'?)"]
    r = client.post("/api/tables", json={"upload": {"files": {"bad.yaml": bad}, "main": "bad.yaml"}})
    assert r.status_code == 422 and r.json()["problems"][0].startswith("bad.yaml:7:5: play.reveal.calll")


@pytest.mark.parametrize("ref", ["/etc/passwd", "../../rulesets/twenty-eight.yaml", "..", "~/x.yaml",
                                 "rulesets/twenty-eight.yaml", "./other.yaml", "house.yaml"])
def test_an_upload_may_not_extend_a_path_on_the_server(client: TestClient, ref: str) -> None:
    house = f"schema_version: 1\nname: house\nextends: {ref}\ndescription: x\n"
    r = client.post("/api/validate", json={"files": {"house.yaml": house}, "main": "house.yaml"})
    assert r.status_code == 422
    [problem] = r.json()["problems"]
    assert problem.startswith("house.yaml:3:10: extends: an uploaded rule file may extend only a shipped game or "
                              "another file uploaded with it, not ")
    assert "/tmp" not in problem and "jacknine-serve" not in problem


@pytest.mark.parametrize(("files", "message"), [
    ({"../x.yaml": "schema_version: 1"}, "'../x.yaml': a rule file's name is letters"),
    ({"a.yaml": "x" * (1 << 20 | 1)}, "a.yaml: larger than 1 MiB"),
    ({"a.yaml": "schema_version: 1\nname: [1\n"}, "a.yaml:3:1: YAML syntax error"),
    ({"a.yaml": "schema_version: 1\nname: !!python/object/apply:os.system [ls]\n"}, "a.yaml:2:7: unsupported YAML tag"),
])
def test_hostile_uploads_are_refused_in_one_line(client: TestClient, files: dict[str, str], message: str) -> None:
    r = client.post("/api/validate", json={"files": files, "main": next(iter(files))})
    assert r.status_code in (400, 422) and r.json()["problems"][0].startswith(message)


def test_spectators_see_the_public_view_only_while_allowed(client: TestClient) -> None:
    made = create(client, max_hands=1)
    with ExitStack() as stack:
        host = Page(client, stack, made["table"], made["seats"][0], made["host"])
        table = server_table(client, made["table"])
        host.until(table.version)
        before = table.version
        host.send(type="host", do="spectators", allow=True)
        host.until(before + 1)
        watcher = Page(client, stack, made["table"], made["watch"])
        snap = watcher.until(table.version)
        assert snap["you"] == {"seat": None}
        watcher.send(type="act", action="pass")
        assert watcher.answer()["reason"] == "spectators do not play"
        watcher.send(type="chat", text="hello")
        assert watcher.answer()["reason"] == "spectators only watch"
        before = table.version
        host.send(type="host", do="spectators", allow=False)
        host.until(before + 1)
    with ExitStack() as stack:
        late = Page(client, stack, made["table"], made["watch"])
        assert late.receive()["type"] == "error"


def test_chat_is_stored_escaped_and_bounded(client: TestClient) -> None:
    made = create(client)
    with ExitStack() as stack:
        page = Page(client, stack, made["table"], made["seats"][1])
        table = server_table(client, made["table"])
        page.until(table.version)
        before = table.version
        page.send(type="chat", text="hi <b>all</b>\x1b[2J\u202e ok")
        snap = page.until(before + 1)
        assert snap["chat"][-1] == {"seat": 1, "name": "you", "text": "hi <b>all</b> ok"}
        page.send(type="chat", text="x" * 301)
        assert "at most 300 characters" in page.answer()["reason"]
    store = client.app.state.server.store  # type: ignore[attr-defined]
    assert ("chat", "hi <b>all</b> ok") in store.db.execute("SELECT kind, body FROM log").fetchall()


@pytest.mark.parametrize(("raw", "reason"), [
    ("{", "not a JSON message"),
    ("[1]", "a message is a JSON object with a 'type'"),
    ('{"type": "shout"}', "unknown message type 'shout'"),
    ('{"type": "act"}', "act: action is missing"),
    ('{"type": "act", "action": 5}', "act: action has the wrong type"),
    ('{"type": "chat", "text": "' + "x" * 5000 + '"}', "message too long"),
    ("[" * 3000 + "]" * 3000, "message too long"),
    ('{"type": "host", "do": "format-disk"}', "host: unknown request"),
    ('{"type": "ping", "n": NaN}', "NaN is not a number"),
])
def test_messages_the_server_cannot_read_get_one_line(client: TestClient, raw: str, reason: str) -> None:
    made = create(client)
    with ExitStack() as stack:
        page = Page(client, stack, made["table"], made["seats"][0])
        page.ws.send_text(raw)
        answer = page.answer()
        assert answer["type"] == "error" and answer["reason"].startswith(reason)


def test_a_flood_of_messages_is_slowed_down(tmp_path: Path) -> None:
    with TestClient(build_app(settings(tmp_path / "t.db", burst=20))) as c, ExitStack() as stack:
        made = create(c)
        page = Page(c, stack, made["table"], made["seats"][0])
        for _ in range(60):
            page.send(type="ping")
        answers = [page.answer() for _ in range(60)]
        assert {"type": "error", "reason": "too many messages: slow down"} in answers
        assert sum(a["type"] == "pong" for a in answers) < 40


def test_the_table_count_is_limited(tmp_path: Path) -> None:
    with TestClient(build_app(settings(tmp_path / "t.db", max_tables=2))) as c:
        create(c)
        create(c)
        r = c.post("/api/tables", json={"ruleset": "twenty-eight"})
        assert r.status_code == 400 and "limit of 2 tables" in r.json()["problems"][0]


@pytest.mark.parametrize(("req", "message"), [
    ({"ruleset": "/etc/passwd"}, "no shipped rule file named '/etc/passwd'"),
    ({"ruleset": "twenty-eight", "seats": [{"kind": "bot", "bot": "cmd:rm -rf /"}] * 4},
     "seats[0]: a web table seats only built-in bots, never an outside program"),
    ({"ruleset": "twenty-eight", "seats": [{"kind": "bot", "bot": "search:100000"}] * 4},
     "seats[0]: bot 'search:100000': at most 256 worlds"),
    ({"ruleset": "twenty-eight", "seed": 5}, "unknown field 'seed'"),
    ({"ruleset": "twenty-eight", "max_hands": 10000}, "max_hands: a whole number from 1 to 500"),
])
def test_a_table_request_is_checked(client: TestClient, req: dict[str, Any], message: str) -> None:
    r = client.post("/api/tables", json=req)
    assert r.status_code in (400, 422) and r.json()["problems"][0].startswith(message)


def test_the_leak_scan_finds_what_it_looks_for() -> None:
    """The scan itself can fail: a message naming another seat's card or the concealed trump is caught."""
    from engine.play.compile import load_game
    from engine.web.table import SeatSpec, Table

    game = load_game("twenty-eight")
    table = Table("t", game, "twenty-eight", SEED, [SeatSpec("person")] * 4, 1)
    table.apply(__import__("engine.web.table", fromlist=["Entry"]).Entry("start"))
    state = table.state
    while state.trump < 0:
        state.apply(state.legal_actions()[0])
    seat = (state.folder + 1) % 4
    other = game.codes[next(c for c in range(game.size) if state.hands[(seat + 1) % 4] >> c & 1)]
    suit = game.layout.suits[state.trump]
    now = state_at(table, 1, len(state.history))
    assert leaks(f'{{"hand":["{other}"]}}', now, seat) == [other]
    assert leaks(f'"trump":"{suit}"', now, seat)
    assert leaks('{"hand":["XX"]}', now, seat) == []


def test_a_bot_plays_for_a_person_who_is_away_and_the_takeover_is_announced(tmp_path: Path) -> None:
    with TestClient(build_app(settings(tmp_path / "t.db", grace=0.3))) as c, ExitStack() as stack:
        made = create(c, seats=[{"kind": "person"}, {"kind": "bot"}, {"kind": "person", "name": "Gone"},
                                {"kind": "bot"}], max_hands=1)
        host = Page(c, stack, made["table"], made["seats"][0], made["host"])
        table = server_table(c, made["table"])
        host.until(table.version)
        before = table.version
        host.send(type="host", do="start")
        host.until(before + 1)
        k = 0
        def bot_played_for_seat_2() -> bool:
            hand = host.state.get("hand") or {}
            return any(h.startswith("2 ") for h in hand.get("view", {}).get("history", [])) or \
                host.state.get("summary") is not None
        while not (any("seat 2 is away" in n for n in host.state.get("notices", [])) and bot_played_for_seat_2()):
            msg = host.receive()
            action = choose(msg, k) if msg["type"] == "state" and msg["n"] == table.version else None
            if action is not None:
                k += 1
                host.send(type="act", action=action)
        assert "seat 2 is away: a bot plays for them until they return" in host.state["notices"]
        back = Page(c, stack, made["table"], made["seats"][2])
        while not any(n == "seat 2 is back" for n in back.receive().get("notices", [])):
            pass
        for raw in host.raw:
            check_message(raw, table, 0)
        # the host gives a seat to a bot: its person's page is told and closed (tests/test_web_faults.py)
        before = table.version
        host.send(type="host", do="seat", seat=2, bot="random")
        host.until(before + 1)
        assert table.seats[2].kind == "bot" and table.seats[2].bot == "random"
        assert back.answer()["reason"] == ("the host has given this seat to someone else: this link no longer "
                                           "opens it")


def test_refusals_name_no_hidden_card_either(client: TestClient) -> None:
    """Every refusal a seat gets for each card it holds, checked like the states."""
    made = create(client, max_hands=1)
    with ExitStack() as stack:
        pages, table = play_match(client, made, stack, random.Random(11), until_hand=1)
        while table.state.phase_name != "play" or not table.state.trick_cards:
            seat = table.state.to_act
            pages[seat].until(table.version)
            before = table.version
            pages[seat].send(type="act", action=choose(pages[seat].state, 3))
            pages[seat].until(before + 1)
        seat = table.state.to_act
        page = pages[seat].until(table.version)
        now = state_at(table, 1, len(table.state.history))
        version = table.version
        refused = 0
        for card in [c for c in page["hand"]["view"]["hand"] if page["hand"]["reasons"].get(c)] + \
                ["JS", "9H", "AD", "TC", "7S"]:
            if card in page["hand"]["reasons"] and not page["hand"]["reasons"][card]:
                continue    # playable: it would move the table on
            pages[seat].send(type="act", action=f"play {card}")
            answer = pages[seat].answer()
            assert answer["type"] == "refused" and table.version == version
            said = json.dumps(answer, ensure_ascii=False).replace(card, "")   # the card it typed, said back
            assert not leaks(said, now, seat), answer
            refused += 1
        assert refused >= 4
