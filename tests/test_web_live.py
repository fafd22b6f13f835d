"""The web table over real sockets on loopback: `jacknine serve` started as a command and played by WebSocket
clients, and a real browser - Debian's Chromium driven by Playwright - where two phones and two desktops play a
match to its end by tapping, invited from the host's table page, a spectator watches, the hand is on screen
without scrolling, and the accessibility tree never names another seat's card. Screenshots are kept under
test-artifacts/screenshots/ (JACKNINE_ARTIFACTS moves it); with JACKNINE_DOC_SHOTS=1 the README's are rewritten
under docs/screenshots/."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")
websockets = pytest.importorskip("websockets", reason="the web extra is not installed (pip install '.[web]')")

from engine.play.compile import load_game  # noqa: E402
from engine.web.table import Entry, Table  # noqa: E402
from tests.web_support import card_words, check_message, choose, hidden_cards, leaks, state_at  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
MATCH_SEED = 1 << 127 | 1      # a web table's seed has its top bit set (engine.web.server.Settings)
STEP_SECONDS = 60     # how long one step may take (a page showing a state, the server applying a tap): only a
#                       broken step waits this long, so a loaded machine gets time without weakening any check
ARTIFACTS = Path(os.environ.get("JACKNINE_ARTIFACTS", ROOT / "test-artifacts")) / "screenshots"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        data: dict[str, Any] = json.load(r)
    return data


def get(base: str, path: str, token: str) -> str:
    req = urllib.request.Request(base + path, headers={"x-jacknine-token": token})
    with urllib.request.urlopen(req, timeout=30) as r:
        return str(r.read().decode())


# ------------------------------------------------------------------------------ the command, WebSocket clients
@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", "from engine.cli.app import main; main()", "serve", "--port",
                             str(port), "--db", str(tmp_path / "t.db"), "--bot-delay", "0", "--grace", "600"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line == f"jacknine serve: the lobby is at http://127.0.0.1:{port}/ (tables kept in " \
                       f"{tmp_path / 't.db'}; Ctrl-C stops)\n"
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/api/options", timeout=5).close()
                break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        assert proc.wait(timeout=20) in (0, -15)


async def _seat_client(url: str, token: str, seat: int, log: list[tuple[int, str]], done: asyncio.Event,
                       host: str | None = None) -> None:
    async with websockets.connect(url, max_size=1 << 20) as ws:
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if host:
            hello["host"] = host
        await ws.send(json.dumps(hello))
        k = seat
        answered = -1      # a page acts at most once per state number (a person taps once)
        while not done.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 30)
            except TimeoutError:
                last = json.loads(log[-1][1])
                raise AssertionError(f"seat {seat} heard nothing for 30 s; the last message: {str(last)[:1500]}") \
                    from None
            log.append((seat, str(raw)))
            msg = json.loads(raw)
            if msg["type"] != "state":
                continue
            if msg["table"]["status"] == "waiting" and host:
                await ws.send(json.dumps({"type": "host", "do": "start"}))
            if msg["table"]["status"] == "over":
                done.set()
                return
            if msg["n"] == answered:
                continue
            answered = msg["n"]
            if msg["summary"] is not None and msg["table"]["status"] == "playing":
                await ws.send(json.dumps({"type": "next"}))
            action = choose(msg, k)
            if action is not None:
                k += 1
                await ws.send(json.dumps({"type": "act", "action": action}))


def test_jacknine_serve_plays_a_match_with_websocket_clients(served: str) -> None:
    made = post(served, "/api/tables", {"ruleset": "twenty-nine", "seats": [{"kind": "person"}] * 4,
                                        "max_hands": 2})
    url = served.replace("http", "ws") + f"/ws/{made['table']}"
    log: list[tuple[int, str]] = []

    async def main() -> None:
        done = asyncio.Event()
        await asyncio.wait_for(asyncio.gather(*(
            _seat_client(url, t, i, log, done, made["host"] if i == 0 else None)
            for i, t in enumerate(made["seats"]))), 120)
    asyncio.run(main())
    # every message checked against the hands as they stood, rebuilt from the records published at the end
    records = [json.loads(line) for line in get(served, f"/api/tables/{made['table']}/hands.jsonl",
                                                made["seats"][0]).splitlines()]
    assert len(records) == 2 and all("seed" in r for r in records)
    table = _table_from_records("twenty-nine", records)
    for seat, raw in log:
        check_message(raw, table, seat)
    assert len(log) > 100


def _table_from_records(ruleset: str, records: list[dict[str, Any]]) -> Table:
    """A stand-in table whose finished hands are the records (for state_at)."""
    from engine.play.actions import Action
    from engine.web.table import Finished, SeatSpec

    game = load_game(ruleset)
    table = Table("t", game, ruleset, 0, [SeatSpec("person")] * game.n, len(records))
    for i, rec in enumerate(records):
        dealt = [[game.code_ids[c][0] for c in rec["hands"][str(s)].split()] for s in range(game.n)]
        state = game.new_hand(rec["dealer"], hands=dealt)
        for a in rec["actions"]:
            state.apply(Action.parse(a))
        table.finished.append(Finished(i + 1, state, rec["status"], rec["score_change"], rec))
    return table


# ------------------------------------------------------------------------------------------------ the browser
def _browser_missing() -> str | None:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install '.[webtest]')"
    if not CHROMIUM.exists():
        return "Debian's chromium is not installed (/usr/bin/chromium; apt-get install chromium)"
    return None


@pytest.fixture
def browser() -> Iterator[Any]:
    missing = _browser_missing()
    if missing:
        if os.environ.get("JACKNINE_REQUIRE_BROWSER"):
            pytest.fail(f"the browser tests must run here: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield b
        finally:
            b.close()


class ThreadServer:
    """The app served by uvicorn on loopback from a thread of this process, so the test can read the tables."""

    def __init__(self, db: Path, seed: int = MATCH_SEED) -> None:
        import uvicorn

        from engine.web.server import Settings, build_app

        self.port = free_port()
        # a fixed match seed: the same deals every run, so a test's path through the hand is the same every run
        self.app = build_app(Settings(db=db, bot_delay=0.0, grace=600.0, burst=10_000, new_seed=lambda: seed))
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.05)
        assert self.server.started
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def table(self, table_id: str) -> Table:
        server = self.app.state.server  # type: ignore[attr-defined]
        table: Table = server.tables[table_id].table
        return table


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _settled(pages: list[Any], version: int) -> None:
    """Wait until every page shows the table's latest state (the page keeps its number in the title's data)."""
    for page in pages:
        page.wait_for_function("v => window.jacknineLast !== undefined && window.jacknineLast >= v", arg=version,
                               timeout=STEP_SECONDS * 1000)


def _no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"horizontal scroll: {width}px"


def _small_targets(page: Any) -> list[str]:
    return list(page.evaluate("""() => [...document.querySelectorAll('button, select, input, summary')]
        .filter(e => e.offsetParent !== null)
        .filter(e => { const r = e.getBoundingClientRect(); return r.width < 44 || r.height < 44; })
        .map(e => (e.getAttribute('aria-label') || e.textContent || e.tagName).trim().slice(0, 30))"""))


def _hand_on_screen(page: Any) -> None:
    """The whole hand is inside the viewport, and the page does not scroll (the hand is never below the fold)."""
    view = page.viewport_size
    boxes = page.evaluate("""() => [...document.querySelectorAll('#hand button.card')].map(b => {
        const r = b.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })""")
    assert boxes, "no card of the hand on the page"
    for left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0 and right <= view["width"] and bottom <= view["height"], \
            (view, left, top, right, bottom)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= view["height"], f"the page scrolls: {height}px in a {view['height']}px window"


DOC_SHOTS = ROOT / "docs" / "screenshots"
CARD_EDGE = {"x": 14, "y": 30}    # where a finger taps a card of the hand: its corner (the next card may overlap
#                                   the rest of it)


def doc_shot(page: Any, name: str) -> None:
    """A screenshot for the README (docs/screenshots/, committed); with JACKNINE_DOC_SHOTS unset, only into the
    test artifacts (a test run leaves the checkout as it was)."""
    shot(page, name)
    if os.environ.get("JACKNINE_DOC_SHOTS"):
        DOC_SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOC_SHOTS / f"{name}.png"))


@pytest.mark.browser
def test_two_phones_and_two_desktops_play_a_match_to_its_end_by_tapping(browser: Any, tmp_path: Path) -> None:
    """The host creates the table in the lobby and invites the others from the table page (every seat's link,
    with Copy and a QR code); two phones (390x844) and two desktops (1280x800) play a one-hand match to its end
    by tapping, a spectator watching. At every step no page's accessibility tree names a card its seat may not
    see, and the acting page shows its whole hand without scrolling."""
    with ThreadServer(tmp_path / "t.db") as srv:
        phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
        desk = {"viewport": {"width": 1280, "height": 800}, "has_touch": True}
        errors: list[str] = []
        pages = []
        for options in (desk, phone, desk, phone):       # seats 0 (the host) to 3
            page = browser.new_context(**options).new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            pages.append(page)
        host = pages[0]
        host.goto(srv.base + "/")
        host.wait_for_selector("#seat-list li")
        _no_horizontal_scroll(host)
        for i, name in enumerate(("Asha", "Bala", "Chitra", "Dev")):
            host.get_by_label(f"Seat {i}: person or bot").select_option("person")
            host.get_by_label(f"Seat {i}: name").fill(name)
        host.get_by_label("Stop after at most this many hands").fill("1")
        host.get_by_label("Allow spectators").check()
        host.get_by_role("button", name="Create the table").tap()
        host.get_by_role("link", name="Seat 0 (you, the host)").tap()
        host.wait_for_selector("#host .invite a")
        table_id = host.url.split("/t/")[1].split("#")[0]
        table = srv.table(table_id)
        # the invitations on the host's table page: a link per seat, Copy and a QR code
        invites = host.locator("#host .invite a")
        assert invites.count() == 5       # four seats and the spectators
        links = [invites.nth(i).get_attribute("href") for i in range(4)]
        host.get_by_role("button", name="Show a QR code of the link: Seat 1 · Bala").tap()
        host.wait_for_selector("#host svg.qr path")
        shot(host, "desktop-invitations")
        for seat in (1, 2, 3):
            pages[seat].goto(links[seat])
        watcher = browser.new_context(**phone).new_page()
        watcher.goto(invites.nth(4).get_attribute("href"))
        everyone = pages + [watcher]
        _settled(everyone, table.version)
        # the table's version is already 1 here (opening it to spectators was its first entry): wait for the
        # server to apply the start itself, not for a version the pages already had (on a loaded machine the
        # loop below once found no hand yet and stopped at once: "the match did not end")
        before = table.version
        host.get_by_role("button", name="Start the match").tap()
        _server_took_it(table, before, "the host's start")
        assert table.state is not None, table.status
        shots: set[str] = set()
        checked = 0
        # one tap per action: a hand of twenty-eight is at most a few dozen; the bound only stops a loop that
        # makes no progress (each step has its own time budget, so a slow machine only takes longer)
        for _ in range(200):
            if table.state is None:
                break
            _settled(everyone, table.version)
            state = table.state
            seat = state.controller
            phase = state.phase_name
            step = len(state.history)
            now = state_at(table, table.hand_number, step)
            for s, page in enumerate(everyone):
                me = s if s < 4 else -1
                tree = page.locator("body").aria_snapshot()
                named = [card_words(c) for c in hidden_cards(now, me) if card_words(c) in tree]
                assert not named, (me, named)
                assert not leaks(tree, now, me), (me, leaks(tree, now, me))
                checked += 1
            page = pages[seat]
            size = "phone" if page.viewport_size["width"] < 500 else "desktop"
            _hand_on_screen(page)
            before_tap = table.version
            moment = ""
            if phase == "auction" and step >= 2:      # a few calls made: the seats show them
                moment = "auction"
            elif phase == "play" and state.trick_cards:
                moment = "mid-trick"
            if moment and f"{size}-{moment}" not in shots:
                shots.add(f"{size}-{moment}")
                _no_horizontal_scroll(page)
                assert not _small_targets(page), _small_targets(page)
                doc_shot(page, f"{size}-{moment}")
                refused = page.locator('#hand button.card[aria-disabled="true"]')
                if moment == "mid-trick" and size == "phone" and refused.count():
                    # a card that may not be played (aria-disabled, which Playwright will not tap unforced): its
                    # reason appears by the hand
                    refused.first.tap(position=CARD_EDGE, force=True)
                    reason = page.locator("#refusal")
                    assert reason.inner_text().strip(), "no reason shown"
                    box, view = reason.bounding_box(), page.viewport_size
                    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= view["height"]
                    assert table.version == before_tap
                    shot(page, "phone-refusal")
                    shots.add("phone-refusal")
            before = table.version
            _tap_a_choice(page, phase)
            _server_took_it(table, before, f"seat {seat} in the {phase} at step {step}")
        assert table.state is None and table.status == "over", \
            f"the match did not end: status {table.status}, {len(table.finished)} hands finished"
        _settled(everyone, table.version)
        for page in pages[:2]:
            page.wait_for_selector("dialog[open]")
            summary = page.locator("dialog").inner_text()
            assert "Hand 1 is over" in summary and "Score change" in summary and "The match is over" in summary
            assert re.search(r"(You|\w+ \(\w+\)) bid \d+: needed \d+ card points, took \d+ — (made|failed)\.",
                             summary), summary
        doc_shot(host, "desktop-hand-end")
        doc_shot(pages[1], "phone-hand-end")
        assert checked > 100 and {"phone-auction", "desktop-auction", "phone-mid-trick", "desktop-mid-trick",
                                  "phone-refusal"} <= shots
        assert not errors


def _server_took_it(table: Table, before: int, what: str) -> None:
    """Wait until the server has applied the tapped action. A tap returns before its message is handled; without
    this wait the loop read the old state, found the same seat to act and tapped again on a page that had since
    re-rendered for the next seat (a random deal decided whether that race was lost)."""
    deadline = time.monotonic() + STEP_SECONDS
    while table.version <= before:
        assert time.monotonic() < deadline, f"the server never applied the tap of {what}"
        time.sleep(0.02)


def _tap_a_choice(page: Any, phase: str) -> None:
    """Tap what a player would: a highlighted card, pass in most auctions, the first suit of a bid, else the
    first action button."""
    decision = page.locator("#decision")
    cards = page.locator("#hand button.card.legal")
    if phase == "auction":
        passing = decision.get_by_role("button", name="pass", exact=True)
        if passing.count():
            passing.tap()
            return
        decision.locator(".picker button.primary, .suit-row button").first.tap()
        return
    if cards.count():
        cards.first.tap(position=CARD_EDGE)
        return
    others = decision.locator(".actions button")
    if others.count():
        others.first.tap()
        return
    decision.locator(".picker button.primary, .suit-row button").first.tap()


def _to_the_face_down_last_card(table: Table) -> int:
    """Play the table's hand on the server (passing where allowed, else the first card) until the bidder's only
    card left is the one laid face down as trump; return the bidder. MATCH_SEED's first deal gets there."""
    table.apply(Entry("start"))
    while (state := table.state) is not None:
        seat = state.to_act
        if state.concealed and state.indicator >= 0 and seat == state.folder and state.hands[seat] == 0:
            return seat
        legal = state.legal_actions()
        plays = [a for a in legal if a.notation.startswith("play")]
        passing = [a for a in legal if a.notation == "pass"]
        table.apply(Entry("act", seat, (passing or plays or legal)[0].notation))
    raise AssertionError("the hand ended before the bidder was left with only the face-down trump card")


@pytest.mark.browser
def test_the_face_down_trump_card_can_be_tapped_when_it_is_the_last_card(browser: Any, tmp_path: Path) -> None:
    """The card laid as trump is not in the view's hand but in its indicator; when the rules make it the card to
    play, the hand panel must offer it (the page once showed an empty hand and no way to play)."""
    with ThreadServer(tmp_path / "t.db") as srv:
        made = post(srv.base, "/api/tables", {"ruleset": "twenty-eight", "seats": [{"kind": "person"}] * 4})
        table = srv.table(made["table"])
        bidder = _to_the_face_down_last_card(table)
        card = table.game.codes[table.state.indicator]
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        page.goto(f"{srv.base}/t/{made['table']}#seat={made['seats'][bidder]}")
        _settled([page], table.version)
        playable = page.locator("#hand button.card.legal")
        assert playable.count() == 1
        assert playable.first.get_attribute("aria-label") == f"{card_words(card)}, your face-down trump card, playable"
        shot(page, "phone-face-down-last-card")
        before = table.version
        playable.first.tap()
        _server_took_it(table, before, "the face-down trump card")
        assert str(table.state.history[-1] if table.state else table.finished[-1].state.history[-1]) \
            == f"{bidder} play {card}"


@pytest.mark.browser
def test_the_typed_notation_works_from_the_keyboard_and_refusals_are_shown(browser: Any, tmp_path: Path) -> None:
    with ThreadServer(tmp_path / "t.db") as srv:
        made = post(srv.base, "/api/tables", {"ruleset": "twenty-eight", "seats": [{"kind": "person"}] * 4,
                                               "start": True})
        table = srv.table(made["table"])
        seat = table.state.to_act
        page = browser.new_page(viewport={"width": 360, "height": 740})
        page.goto(f"{srv.base}/t/{made['table']}#seat={made['seats'][seat]}")
        page.wait_for_selector("#decision h2")
        _no_horizontal_scroll(page)
        shot(page, "phone-360-auction")
        page.get_by_role("button", name="More").click()     # on a phone the typed line is in the side panel
        page.locator("#typed-input").fill("pass")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.getElementById('refusal').textContent.length > 0")
        assert page.locator("#refusal").inner_text() == "the first hand must open the bidding"
        before = table.version
        page.locator("#typed-input").fill("bid 17")
        page.keyboard.press("Enter")
        _server_took_it(table, before, "the typed bid")
        assert [str(a) for a in table.state.history] == [f"{seat} bid 17"]
        assert re.search(r"\bJack of|\bNine of|\bAce of|\bTen of|\bKing of|\bQueen of|\bEight of|\bSeven of",
                         page.locator("#hand").aria_snapshot())     # the seat's own cards are named in words


@pytest.mark.browser
def test_the_fifty_six_auction_is_a_number_picker_and_a_suit_row(browser: Any, tmp_path: Path) -> None:
    with ThreadServer(tmp_path / "t.db") as srv:
        made = post(srv.base, "/api/tables", {"ruleset": "fifty-six", "seats": [{"kind": "person"}] * 6,
                                               "start": True})
        table = srv.table(made["table"])
        seat = table.state.to_act
        legal = [a.notation for a in table.state.legal_actions()]
        assert len(legal) > 100                                  # the engine lists every bid ...
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        page.goto(f"{srv.base}/t/{made['table']}#seat={made['seats'][seat]}")
        page.wait_for_selector("#decision .suit-row button")
        assert page.locator("#decision button").count() <= 12    # ... the page offers a picker and five suits
        shot(page, "phone-fifty-six-auction")
        lowest = int(legal[1].split()[1])
        page.get_by_role("button", name="higher bid", exact=True).tap()
        page.get_by_role("button", name="higher bid", exact=True).tap()
        before = table.version
        page.get_by_role("button", name=f"bid {lowest + 2} hearts").tap()
        _server_took_it(table, before, "the tapped bid")
        assert [str(a) for a in table.state.history] == [f"{seat} bid {lowest + 2} H"]


# ------------------------------------------------------------------------------ the European (Jass) group
class Seats:
    """The other seats of a browser test, played over the WebSocket as their pages would (the server then sends
    the page under test each change as it happens)."""

    def __init__(self, srv: ThreadServer, made: dict[str, Any], stack: ExitStack) -> None:
        from websockets.sync.client import connect

        self.table = srv.table(made["table"])
        self.conns: dict[int, Any] = {}
        for seat, token in enumerate(made["seats"]):
            # max_queue=None: what the server sends these seats is kept unread, never pushing back on it
            ws = stack.enter_context(connect(srv.base.replace("http", "ws") + f"/ws/{made['table']}",
                                             max_size=1 << 20, max_queue=None))
            ws.send(json.dumps({"type": "hello", "token": token}))
            self.conns[seat] = ws

    def act(self, seat: int, notation: str) -> None:
        before = self.table.version
        self.conns[seat].send(json.dumps({"type": "act", "action": notation}))
        _server_took_it(self.table, before, f"seat {seat}: {notation}")



def _jass_choice(table: Table) -> str:
    """What the test's players do: take the turned card, announce their melds, else the first legal action."""
    assert table.state is not None
    legal = [a.notation for a in table.state.legal_actions()]
    return next((a for a in legal if a == "take" or a.startswith("announce")), legal[0])


BELOTE_SEED = 1 << 127 | 8    # belote's first deal: seat 1 takes the 9S, both sides announce a run of three (the
#                               other side's scores), seat 2 holds the King and Queen of trumps


@pytest.mark.browser
def test_a_belote_hand_shows_the_turned_card_the_melds_and_the_marriage_and_nothing_hidden(
        browser: Any, tmp_path: Path) -> None:
    """A desktop plays seat 1 of a belote hand (take and announce by tapping; the other seats over the WebSocket):
    the turned card lies face up in the middle, the melds are announced, then shown and compared after trick 1,
    the trump marriage is announced when its second card is played, and the summary says it all. No message the
    page received carries another seat's card or the stock's undealt cards."""
    with ThreadServer(tmp_path / "t.db", seed=BELOTE_SEED) as srv:
        made = post(srv.base, "/api/tables", {"ruleset": "belote", "seats": [{"kind": "person"}] * 4,
                                               "start": True, "max_hands": 1})
        table = srv.table(made["table"])
        me = 1
        assert table.state is not None and table.state.controller == me
        dealt = state_at(table, 1, 0)
        assert len(hidden_cards(dealt, me)) == 15 + 11     # three hands of 5, 11 in the stock
        undealt = table.game.codes[dealt.stock[-1]]
        assert leaks(f'"{undealt}"', dealt, me) == [undealt]    # the scan below would see a stock card
        frames: list[str] = []
        page = browser.new_page(viewport={"width": 1280, "height": 800}, has_touch=True)
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
        page.goto(f"{srv.base}/t/{made['table']}#seat={made['seats'][me]}")
        with ExitStack() as stack:
            others = Seats(srv, made, stack)
            _settled([page], table.version)
            turned = table.game.codes[table.state.turned]
            page.locator("#trick").get_by_role("img", name=f"Turned up: {card_words(turned)}").wait_for()
            _hand_on_screen(page)
            doc_shot(page, "desktop-belote-take-or-pass")
            for what in ("take", "announce"):         # tapped by the player
                before = table.version
                page.locator("#decision").get_by_role("button", name=re.compile(f"^{what}")).first.tap()
                _server_took_it(table, before, what)
            assert [str(a) for a in table.state.history] == ["1 take", "1 announce"]
            while table.state is not None and not table.state.marriages:
                others.act(table.state.controller, _jass_choice(table))
            _settled([page], table.version)
            box = page.locator("#announcements")
            assert "you announced sequence of 3 (20): JS TS 9S - does not score" in box.inner_text()
            assert "seat 2 (right) announced sequence of 3 (20): KC QC JC - scores" in box.inner_text()
            assert "seat 2 (right): belote (20)" in box.inner_text()
            assert "seat 2 (right): belote (20)" in page.locator("#ticker").inner_text()
            assert "you chose the trump" in page.locator("#contract").inner_text()
            doc_shot(page, "desktop-belote-melds")
            while table.state is not None:
                others.act(table.state.controller, _jass_choice(table))
            _settled([page], table.version)
            page.wait_for_selector("dialog[open]")
            summary = page.locator("dialog").inner_text()
            assert "belote (20)" in summary and "does not score" in summary, summary
            assert "You chose the trump — failed." in summary and "bid 0" not in summary, summary
            assert summary.count("you announced sequence of 3 (20)") == 1, summary
            doc_shot(page, "desktop-belote-hand-end")
    states = [f for f in frames if '"type":"state"' in f.replace(" ", "")]
    assert len(states) > 30
    for raw in states:
        check_message(raw, table, me)


@pytest.mark.browser
def test_a_klaberjass_table_seats_two_face_to_face_and_shows_the_stock_card_only(browser: Any, tmp_path: Path) -> None:
    """Two players: the other sits opposite (at the top), the turned card lies in the middle, and once the deal is
    completed the stock's bottom card is shown while the rest of the stock never reaches the page."""
    with ThreadServer(tmp_path / "t.db") as srv:
        made = post(srv.base, "/api/tables", {"ruleset": "klaberjass", "seats": [{"kind": "person"}] * 2,
                                               "start": True, "max_hands": 1})
        table = srv.table(made["table"])
        me = 0
        frames: list[str] = []
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
        page.goto(f"{srv.base}/t/{made['table']}#seat={made['seats'][me]}")
        with ExitStack() as stack:
            others = Seats(srv, made, stack)
            _settled([page], table.version)
            assert table.state is not None
            turned = table.game.codes[table.state.turned]
            page.locator("#trick").get_by_role("img", name=f"Turned up: {card_words(turned)}").wait_for()
            plates = page.locator("#seats li")
            assert plates.count() == 2 and "opposite" in plates.nth(1).inner_text()
            box, view = plates.nth(1).bounding_box(), page.viewport_size
            assert box is not None and box["y"] + box["height"] < view["height"] / 3     # at the top of the table
            while table.state is not None and table.state.phase_name != "play":
                others.act(table.state.controller, _jass_choice(table))
            for _ in range(3):
                others.act(table.state.controller, _jass_choice(table))
            _settled([page], table.version)
            _hand_on_screen(page)
            assert "The stock's bottom card:" in page.locator("#contract").inner_text()
            doc_shot(page, "phone-klaberjass")
            state = state_at(table, 1, len(table.state.history))
            assert len(state.stock) - state.stock_used >= 10       # cards the page must never be sent
    states = [f for f in frames if '"type":"state"' in f.replace(" ", "")]
    assert len(states) > 3
    for raw in states:
        check_message(raw, table, me)


def test_playwright_is_pinned_to_the_release_of_debians_chromium() -> None:
    """Playwright drives the Chromium of its own release (never `playwright install` here): the pin in pyproject
    must follow Debian's chromium package, major version for major version."""
    missing = _browser_missing()
    if missing:
        if os.environ.get("JACKNINE_REQUIRE_BROWSER"):
            pytest.fail(f"the browser tests must run here: {missing}")
        pytest.skip(missing)
    import playwright

    pin = re.search(r'"playwright==([0-9.]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pin is not None, "pyproject.toml pins Playwright (webtest extra)"
    from importlib.metadata import version

    assert version("playwright") == pin.group(1)
    browsers = json.loads((Path(playwright.__file__).parent / "driver" / "package" / "browsers.json").read_text())
    wanted = next(b["browserVersion"] for b in browsers["browsers"] if b["name"] == "chromium")
    have = subprocess.run([str(CHROMIUM), "--version"], capture_output=True, text=True, timeout=60).stdout
    found = re.search(r"(\d+)\.\d+\.\d+\.\d+", have)
    assert found is not None, have
    assert found.group(1) == wanted.split(".")[0], f"Debian's {have.strip()}; Playwright {pin.group(1)} drives {wanted}"
