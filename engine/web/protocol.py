"""The messages between the web page and the server.

Server to page: one `state` message per change, self-contained (a page that missed some, or reconnects, needs only
the newest), numbered by the table's change count; `refused` (the engine's reason, to the one connection that
asked); `error` (a message the server could not read; with `closed: true` the server then closes the page for
good: its seat was given to someone else, or spectators were sent away); `links` (to the host's pages only: every
seat's link token, None for a bot's seat, and the spectators'). Each `state` is built for one audience - a seat,
from that seat's `View` alone, or a spectator, from the public view - so nothing in it is another seat's card or a
trump the audience may not know; every seat's cards appear only in the summary of a hand that has ended.

Page to server: `hello` (the token, and the last number seen), `act` (an action in notation without the seat:
the seat is the token's), `next` (the summary was read), `chat`, `host` (host requests) and `ping`. Read strictly:
a bounded size, known types and keys only, exact value types."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.cards import SUIT_NAMES, SUIT_SYMBOLS
from engine.play.banked import banked_words
from engine.play.base import UNDECIDED
from engine.play.match import hand_seeds
from engine.play.rules import STEP_AUCTION
from engine.play.state import State
from engine.play.view import View, build_view, hand_order, public_history, write_suit
from engine.table.cues import new_cards, winning_seat
from engine.table.decisions import decision
from engine.table.events import described
from engine.table.hints import card_reasons
from engine.table.melds import meld_lines
from engine.table.seats import relation, seat_label
from engine.text import printable
from engine.web.table import BOT, OVER, STOPPED, Finished, Table, commitment

SPECTATOR = -1
MAX_MESSAGE = 4096           # bytes of one message from a page; the longest legal one is far shorter
MAX_CHAT = 300               # characters of one chat line
MAX_NAME = 24
CHAT_SHOWN = 50


class ProtocolError(Exception):
    """A message from a page that is not understood; the reason is sent back, nothing is changed."""


@dataclass
class Presence:
    """Who is here, from the server's connections: seats with a page open, seats a bot is playing for while
    their person is away, and notices to show (takeovers and returns)."""

    connected: set[int] = field(default_factory=set)
    away: set[int] = field(default_factory=set)
    notices: list[str] = field(default_factory=list)
    grace_left: dict[int, float] = field(default_factory=dict)   # seat -> seconds before a bot plays for it


# ------------------------------------------------------------------------------------------------ to the page
def suit_words(letter: str) -> str:
    if letter == "NT":
        return "no trumps"
    return f"{SUIT_SYMBOLS[letter]} {SUIT_NAMES[letter]}" if letter in SUIT_SYMBOLS else letter


def public_view(state: State) -> View:
    """What a spectator may see: the public history (every concealed trump choice blanked), no hand, no trump
    while it is concealed, no choices. Built from the view of a seat that did not choose the trump, private parts
    removed."""
    other = next(s for s in range(state.n) if s != state.folder)
    view = build_view(state, other)
    return replace(view, seat=SPECTATOR, hand=0, indicator=None, legal=(),
                   history=public_history(state, SPECTATOR), trump=None if state.concealed else view.trump)


def _view_of(state: State, seat: int) -> View:
    return public_view(state) if seat == SPECTATOR else build_view(state, seat)


def _names(table: Table) -> list[str]:
    return [spec.name for spec in table.seats]


def _who(table: Table, me: int, teams: Sequence[Sequence[int]], direction: str) -> Callable[[int], str]:
    names = _names(table)

    def who(seat: int) -> str:
        if me == SPECTATOR:
            return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"
        return seat_label(me, seat, table.game.n, teams, direction, names)
    return who


def _events(view: View, who: Callable[[int], str], doubling: Sequence[str]) -> list[dict[str, Any]]:
    def partner_of(seat: int) -> str:
        team = next((t for t in view.teams if seat in t), (seat,))
        others = [s for s in team if s != seat]
        return who(others[0]) if len(others) == 1 else "their partner"
    return [{"i": e.index, "seat": e.action.seat, "verb": e.action.verb, "text": e.text}
            for e in described(view, who, suit_words, doubling, partner_of)]


def _melds(view: View, who: Callable[[int], str]) -> list[str]:
    """The melds announced (kind and value; their cards once shown, and whether they score), the trump marriage
    announced, each side's meld points: lines of the announcements panel (none for files without melds)."""
    return meld_lines(view, who, lambda team: "team " + "+".join(str(s) for s in team))


def _hand(table: Table, state: State, seat: int, direction: str) -> dict[str, Any]:
    view = _view_of(state, seat)
    who = _who(table, seat, view.teams, direction)
    doubling = table.game.doubling_names
    asked = decision(view.phase, view.legal, doubling) if view.legal else None
    out: dict[str, Any] = {
        "view": view.to_dict(),
        "decision": asked.to_dict() if asked is not None else None,
        "reasons": card_reasons(state, seat) if seat != SPECTATOR else {},
        "winning": winning_seat(state, seat),
        "new": sorted(new_cards(state, seat)) if seat != SPECTATOR else [],
        "events": _events(view, who, doubling),
    }
    melds = _melds(view, who)
    if melds:       # (only where the file has melds: other messages stay what they were)
        out["melds"] = melds
    return out


def _summary(table: Table, f: Finished, seat: int, direction: str) -> dict[str, Any]:
    """A finished hand for everyone: every seat's cards as dealt, the tricks, the trump, the outcome."""
    state = f.state
    g = table.game
    view = build_view(state, seat if seat != SPECTATOR else 0)
    data = view.to_dict()
    who = _who(table, seat, view.teams, direction)
    known = state.trump if state.trump != UNDECIDED else None    # the hand is over: its trump is no secret
    trump = write_suit(g, known)
    out: dict[str, Any] = {
        "number": f.number,
        "status": f.status,
        "dealer": state.dealer,
        "hands": {str(s): [g.codes[c] for c in hand_order(g, sum(1 << c for c in cards))]
                  for s, cards in enumerate(state.dealt)},   # by suit, strongest first
        "tricks": data["tricks"],
        "teams": data["teams"],
        "card_points": data["card_points"],
        "bidder": view.bidder, "bid": view.bid, "target": view.target, "special": view.special,
        "multiplier": view.multiplier,
        "trump": trump,
        "made": state.made,
        "why": banked_words(state),   # a banked hand: how it came out, in words ("" otherwise)
        "annulled_because": state.annul_reason if f.status == "annulled" else "",
        "score_change": f.score_change,
        "events": _events(replace(view, trump=known, trump_concealed=False), who, g.doubling_names),
        "ready": sorted(table.ready),
    }
    melds = _melds(view, who)
    if melds:
        out["melds"] = melds
    return out


def snapshot(table: Table, seat: int, presence: Presence, direction: str = "") -> dict[str, Any]:
    """The `state` message for one audience (a seat, or SPECTATOR)."""
    state = table.state
    teams = state.hand_teams if state is not None else table.game.rules.table.teams
    return {
        "type": "state",
        "n": table.version,
        "table": _table_info(table, seat, presence, direction, teams),
        "you": {"seat": seat if seat != SPECTATOR else None},
        "hand": _hand(table, state, seat, direction) if state is not None else None,
        "summary": _shown_summary(table, seat, direction),
        "chat": [{"seat": s, "name": _who(table, seat, teams, direction)(s) if s >= 0 else "host", "text": t}
                 for s, t in table.chat[-CHAT_SHOWN:]],
        "notices": presence.notices[-10:],
    }


def _seat_entry(table: Table, s: int, seat: int, presence: Presence, direction: str, teams: Sequence[Sequence[int]],
                names: Sequence[str]) -> dict[str, Any]:
    """Seat `s` as the audience `seat` sees it: who sits there, whether connected, and where from his chair."""
    n = table.game.n
    spec = table.seats[s]
    return {
        "seat": s, "name": spec.name, "kind": spec.kind, "bot": spec.bot if spec.kind == BOT else "",
        "connected": s in presence.connected, "away": s in presence.away,
        "grace_left": round(presence.grace_left[s], 1) if s in presence.grace_left else None,
        "relation": relation(seat, s, n, teams, direction) if seat != SPECTATOR else "",
        "label": seat_label(seat, s, n, teams, direction, names) if seat != SPECTATOR else
        (spec.name or f"seat {s}"),
    }


def _table_info(table: Table, seat: int, presence: Presence, direction: str,
                teams: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The table part of the state message: the game, the match so far, the seats."""
    g = table.game
    names = _names(table)
    seats = [_seat_entry(table, s, seat, presence, direction, teams, names) for s in range(len(table.seats))]
    revealed = table.seed_revealed
    return {
        "id": table.table_id, "game": printable(g.rules.name), "description": printable(g.rules.description),
        "ruleset": table.ruleset, "players": g.n, "status": table.status, "hand": table.hand_number,
        "max_hands": table.max_hands, "teams": [list(t) for t in g.rules.table.teams],
        "scores": list(table.match.scores),
        "commitment": commitment(table.seed), "seed": str(table.seed) if revealed else None,
        "deals": _deals(table) if revealed else [], "spectators": table.spectators, "seats": seats,
        "winners": list(table.match.winners) if table.status == OVER else [],
        "doubling": list(g.doubling_names),
        "direction": direction or "counter-clockwise",
        "auction": STEP_AUCTION in g.rules.schedule,     # false: the trump is taken or chosen, never bid for
        "open_trump": not g.rules.trump.concealed,       # the trump is face up from the start (no exposure to tell)
    }


def _shown_summary(table: Table, seat: int, direction: str) -> dict[str, Any] | None:
    """The last hand's summary, while it is open, or once the match is over or stopped between hands."""
    last = table.finished[-1] if table.finished else None
    if last is None or not (table.summary_open or table.status in (OVER, STOPPED) and table.state is None):
        return None
    return _summary(table, last, seat, direction)


def _deals(table: Table) -> list[dict[str, Any]]:
    """Each hand's deal seed and dealer, once the match seed is revealed: `jacknine deal --seed S --dealer D`.
    The seed is sent as decimal text: a web table's deal seeds are 128 bits, more than a JavaScript number holds."""
    seeds = hand_seeds(table.seed, table.hand_number)
    dealers = [f.state.dealer for f in table.finished] + ([table.state.dealer] if table.state is not None else [])
    return [{"hand": i + 1, "seed": str(s), "dealer": d} for i, (s, d) in enumerate(zip(seeds, dealers, strict=True))]


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


# ------------------------------------------------------------------------------------------------ from the page
_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hello": {"token": str, "last": int, "host": str},
    "act": {"action": str},
    "next": {},
    "chat": {"text": str},
    "host": {"do": str, "seat": int, "bot": str, "allow": bool},
    "ping": {},
}
_REQUIRED = {"hello": ("token",), "act": ("action",), "chat": ("text",), "host": ("do",)}
HOST_REQUESTS = ("start", "stop", "seat", "spectators")


def _no_constants(name: str) -> Any:
    raise ProtocolError(f"{name} is not a number")


def _decoded(raw: str | bytes) -> dict[str, Any]:
    """A bounded JSON object with a textual 'type' (no NaN or Infinity)."""
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError(f"message too long ({len(raw)} bytes; at most {MAX_MESSAGE})")
    try:
        data = json.loads(raw, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        raise ProtocolError("not a JSON message") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("a message is a JSON object with a 'type'")
    return data


def _check_field(kind: str, fields: dict[str, type | tuple[type, ...]], key: str, value: object) -> None:
    """One field of a message: known for its type, of its type (a bool is no number), a number in range."""
    want = fields.get(key)
    if want is None:
        raise ProtocolError(f"{kind}: unknown field {key[:20]!r}" + (" (the seat is your link's)" if
                                                                   key == "seat" and kind == "act" else ""))
    if not isinstance(value, want) or (want is int and isinstance(value, bool)):
        raise ProtocolError(f"{kind}: {key} has the wrong type")
    if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value < 1 << 53:
        raise ProtocolError(f"{kind}: {key} is out of range")


def parse_message(raw: str | bytes) -> dict[str, Any]:
    """A page's message, checked; ProtocolError saying what is wrong otherwise."""
    data = _decoded(raw)
    kind = data["type"]
    fields = _FIELDS.get(kind)
    if fields is None:
        raise ProtocolError(f"unknown message type {kind[:20]!r} (known: {', '.join(_FIELDS)})")
    for key, value in data.items():
        if key != "type":
            _check_field(kind, fields, key, value)
    for key in _REQUIRED.get(kind, ()):
        if key not in data:
            raise ProtocolError(f"{kind}: {key} is missing")
    if kind == "host" and data["do"] not in HOST_REQUESTS:
        raise ProtocolError(f"host: unknown request (known: {', '.join(HOST_REQUESTS)})")
    return data


def chat_text(text: str) -> str:
    """A chat line as stored and shown: printable characters only, one line, bounded."""
    clean = " ".join(printable(text).split())
    if not clean:
        raise ProtocolError("chat: nothing to say")
    if len(clean) > MAX_CHAT:
        raise ProtocolError(f"chat: at most {MAX_CHAT} characters")
    return clean


def person_name(text: str) -> str:
    return " ".join(printable(text).split())[:MAX_NAME]
