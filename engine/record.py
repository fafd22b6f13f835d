"""Hand records (docs/hand-record.md): read, write, replay, and the `replay --json` report."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

import yaml

from engine import safefile, safeyaml
from engine.errors import ArgumentError, IllegalActionError, RecordError, RulesetError, UnreadableError
from engine.play.actions import Action
from engine.play.base import AUCTION, RAISE, UNDECIDED
from engine.play.compile import load_game
from engine.play.game import Game, GameTables
from engine.play.state import State
from engine.play.trump_modes import mode_name
from engine.text import escaped, quoted

MAX_RECORD_BYTES = 1 << 20


@dataclass
class HandRecord:
    """One deal and the actions taken in it. `actions` are kept as written (strings)."""

    ruleset: str
    dealer: int
    hands: list[list[str]] | None = None
    seed: int | None = None
    actions: list[str] = field(default_factory=list)
    base_dir: Path | None = None
    source: str = "<record>"
    extra: dict[str, Any] = field(default_factory=dict)
    ruleset_line: int | None = None
    stock: list[str] | None = None   # the undealt cards in order, the turned card first (games with a stock)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ruleset": self.ruleset, "dealer": self.dealer}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.hands is not None:
            out["hands"] = {i: " ".join(h) for i, h in enumerate(self.hands)}
        if self.stock is not None:
            out["stock"] = " ".join(self.stock)
        out["actions"] = list(self.actions)
        out.update(self.extra)
        return out

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_dict(), sort_keys=False, default_flow_style=False, width=120)


# --------------------------------------------------------------------------------------------- reading
WHAT = "hand record"


def read_record_text(text: str, source: str = "<record>", base_dir: Path | None = None) -> HandRecord:
    """Parse a record (YAML or JSON) with the shared safe reader (no aliases or unusual tags, bounded nesting);
    raises UnreadableError naming the line of what is wrong."""
    data, node = safeyaml.load(text, source, WHAT)
    if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
        raise UnreadableError(source, "a hand record must be a mapping with ruleset, dealer, hands and actions", 1)
    lines = {safeyaml.scalar(k, source, WHAT): v.start_mark.line + 1 for k, v in node.value}

    def bad(key: str, msg: str) -> UnreadableError:
        return UnreadableError(source, f"{key}: {msg}", lines.get(key))

    known = {"ruleset", "dealer", "hands", "seed", "actions", "stock"}
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or not ruleset:
        raise _missing_or_bad(data, "ruleset", "missing or not a name/path",
                              "missing (name a shipped rule file or a path)", source, bad)
    dealer = data.get("dealer")
    if not _is_whole(dealer):
        raise _missing_or_bad(data, "dealer", "must be a seat number", "missing", source, bad)
    hands_raw = data.get("hands")
    seed = _read_seed(data.get("seed"), hands_raw, source, bad)
    hands = None if hands_raw is None else _read_hands(hands_raw, lambda m: bad("hands", m))
    stock = _read_stock(data.get("stock"), hands, bad)
    actions = _read_actions(data.get("actions", []), bad)
    extra = {k: v for k, v in data.items() if k not in known}
    return HandRecord(ruleset, dealer, hands, seed, actions, base_dir, source, extra, lines.get("ruleset"), stock)


def _read_actions(raw: object, bad: Callable[[str, str], UnreadableError]) -> list[str]:
    actions = raw or []
    if not isinstance(actions, list):
        raise bad("actions", "must be a list of 'SEAT VERB [ARGUMENTS]'")
    return [str(a) for a in actions]


def _missing_or_bad(data: dict[str, Any], key: str, wrong: str, missing: str, source: str,
                    bad: Callable[[str, str], UnreadableError]) -> UnreadableError:
    """A required field: wrong where it stands, or missing (at line 1)."""
    return bad(key, wrong) if key in data else UnreadableError(source, f"{key}: {missing}", 1)


def _is_whole(value: object) -> TypeGuard[int]:
    """A whole number as YAML gives one (a bool is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _read_seed(seed: object, hands_raw: object, source: str, bad: Callable[[str, str], UnreadableError]) -> int | None:
    """The record's deal seed: needed without hands, a whole number, 0 or more."""
    if seed is None:
        if hands_raw is None:
            raise UnreadableError(source, "hands: missing (give every seat's cards, or a seed)", 1)
        return None
    if not _is_whole(seed):
        raise bad("seed", "must be a whole number")
    if seed < 0:  # as the API refuses it: -5 would deal as 5 does
        raise bad("seed", f"{seed} is negative; a deal seed is a whole number, 0 or more")
    return seed


def _read_stock(raw: object, hands: list[list[str]] | None,
                bad: Callable[[str, str], UnreadableError]) -> list[str] | None:
    """The undealt cards, with the hands only: 'JS 9S ...' or a list, the turned card first."""
    if raw is None:
        return None
    if hands is None:
        raise bad("stock", "goes with hands (a seeded deal makes its own stock)")
    if isinstance(raw, str):
        return raw.replace(",", " ").split()
    if isinstance(raw, list):
        return [str(x) for x in raw]
    raise bad("stock", "write the undealt cards as 'JS 9S ...' or a list, the turned card first")


def _seat_number(key: object) -> int | None:
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 6:
        return int(key)
    return None


def _seat_items(raw: object, bad: Any) -> list[tuple[int, object]]:
    """(seat, cards) of the hands field: a list, or a mapping by seat number."""
    if isinstance(raw, list):
        return list(enumerate(raw))
    if not isinstance(raw, dict):
        raise bad("must map each seat to its cards")
    items: list[tuple[int, object]] = []
    for k, v in raw.items():
        seat = _seat_number(k)
        if seat is None:
            raise bad(f"{quoted(str(k))} is not a seat number")
        items.append((seat, v))
    return items


def _read_hands(raw: object, bad: Any) -> list[list[str]]:
    items = _seat_items(raw, bad)
    items.sort(key=lambda kv: kv[0])
    if [k for k, _ in items] != list(range(len(items))):
        raise bad("seats must be numbered 0, 1, 2, ... with none missing")
    out: list[list[str]] = []
    for seat, v in items:
        if isinstance(v, str):
            out.append(v.replace(",", " ").split())
        elif isinstance(v, list):
            out.append([str(x) for x in v])
        else:
            raise bad(f"seat {seat}: write the cards as 'JS 9S ...' or a list")
    return out


def _record_file_text(path: str | Path) -> str:
    """The text of a record file: only a regular file of at most 1 MiB of UTF-8 text is read."""
    source = escaped(str(path))
    raw = safefile.read_regular(Path(path), source, WHAT, MAX_RECORD_BYTES, "1 MiB; a hand record is a few kilobytes")
    return safefile.decode_text(raw, source)


def read_record(path: str | Path) -> HandRecord:
    return read_record_text(_record_file_text(path), escaped(str(path)), Path(path).parent)


def iter_records(path: str | Path) -> Iterator[HandRecord]:
    """The records in a file, one at a time: one record (YAML or JSON, at most 1 MiB), or JSON lines - one record
    object per line, as `simulate --out` writes them - read line by line, so the file may be of any length (each
    line at most 1 MiB; its problems are reported as FILE:LINE)."""
    source = escaped(str(path))
    folder = Path(path).parent
    with safefile.open_regular(Path(path), source, WHAT) as f:
        first = f.readline(MAX_RECORD_BYTES + 1)
        second = f.readline(MAX_RECORD_BYTES + 1)
        if not (_json_line(first) and _json_line(second)):
            rest = f.read(MAX_RECORD_BYTES + 1 - len(first) - len(second))
            raw = first + second + rest
            if len(raw) > MAX_RECORD_BYTES:
                raise UnreadableError(source, "file is larger than 1 MiB; a hand record is a few kilobytes (a file "
                                      "of many records is written one JSON object per line)")
            yield read_record_text(safefile.decode_text(raw, source), source, folder)
            return
        number, line = 1, first
        while line:
            where = f"{source}:{number}"
            if len(line) > MAX_RECORD_BYTES:
                raise UnreadableError(where, "line is longer than 1 MiB; a hand record is a few kilobytes")
            if line.strip():
                yield read_record_text(safefile.decode_text(line, where), where, folder)
            number += 1
            line = second if number == 2 else f.readline(MAX_RECORD_BYTES + 1)


def _json_line(line: bytes) -> bool:
    text = line.strip()
    return text.startswith(b"{") and text.endswith(b"}")


# --------------------------------------------------------------------------------------------- playing
def game_for(record: HandRecord) -> Game:
    ref = record.ruleset
    if ("/" in ref or ref.endswith((".yaml", ".yml"))) and record.base_dir is not None \
            and not _home(ref).is_absolute():   # `~/h.yaml` is the home folder's, wherever the record is
        candidate = record.base_dir / ref
        ref = str(candidate)
    return load_game(ref)


def _home(ref: str) -> Path:
    try:
        return Path(ref).expanduser()
    except RuntimeError:  # `~someone` with no such user: as written
        return Path(ref)


def deal_for(game: Game, record: HandRecord) -> list[list[int]]:
    if not 0 <= record.dealer < game.n:
        raise UnreadableError(record.source, f"dealer: seat {record.dealer} does not exist "
                              f"({game.n} players: seats 0..{game.n - 1})")
    if record.hands is None:
        return game.shuffled_deal(record.seed, record.dealer)
    if len(record.hands) != game.n:
        given = len(record.hands)
        raise UnreadableError(record.source, f"hands: {given} seat{'s' if given != 1 else ''} given, "
                              f"the game has {game.n}")
    try:
        ids = game.layout.parse_cards([c for h in record.hands for c in h])
    except ValueError as e:
        raise UnreadableError(record.source, f"hands: {escaped(str(e), 200)}") from None
    return _split_hands(game, record, record.hands, ids)


def _split_hands(game: Game, record: HandRecord, hands: list[list[str]], ids: list[int]) -> list[list[int]]:
    """The parsed cards `ids`, seat by seat, each seat holding what the deal steps give."""
    out: list[list[int]] = []
    pos = 0
    for seat, h in enumerate(hands):
        if len(h) != game.dealt_each:
            raise UnreadableError(record.source, f"hands: seat {seat} has {len(h)} cards, "
                                  f"each player receives {game.dealt_each}"
                                  f"{' from the deal steps (the rest comes from the stock)' if game.completes else ''}")
        out.append(ids[pos:pos + len(h)])
        pos += len(h)
    return out


def stock_for(game: Game, record: HandRecord, dealt: list[list[int]]) -> list[int]:
    """The record's stock as card ids (a seeded deal's own; none where the game deals every card)."""
    if record.hands is None:
        return game.shuffled_stock(record.seed)
    if not game.stock_size:
        if record.stock:
            raise UnreadableError(record.source, "stock: this game deals every card; there is no stock")
        return []
    if record.stock is None:
        raise UnreadableError(record.source, f"stock: missing (the {game.stock_size} cards the deal leaves, in "
                              "order, the turned card first)")
    try:
        ids = game.layout.parse_cards(record.stock)
    except ValueError as e:
        raise UnreadableError(record.source, f"stock: {escaped(str(e), 200)}") from None
    try:
        return game.check_stock(ids, dealt)
    except ArgumentError as e:
        raise UnreadableError(record.source, escaped(str(e), 200)) from None


def new_hand_for(game: Game, record: HandRecord) -> State:
    """The record's deal as a new hand (its stock included)."""
    dealt = deal_for(game, record)
    return game.new_hand(record.dealer, hands=dealt, stock=stock_for(game, record, dealt))


@dataclass
class Replay:
    game: Game
    state: State
    error: dict[str, Any] | None


def replay(record: HandRecord, game: Game | None = None) -> Replay:
    """Apply the record's actions in order, stopping at the first one the rules forbid."""
    game = game or game_for(record)
    state = new_hand_for(game, record)
    for i, text in enumerate(record.actions):
        try:
            state.apply(Action.parse(text))
        except (IllegalActionError, RecordError) as e:
            return Replay(game, state, {"index": i, "action": text, "message": str(e)})
    return Replay(game, state, None)


def ruleset_reference(game: GameTables, folder: Path | None = None) -> str:
    """How a record kept in `folder` names the game's rule file: a shipped name as it is, a file by its path
    relative to the folder (absolute without one) - never by the file's `name:`, which may be a shipped one."""
    ref = game.ref
    if ref is None:
        return game.rules.name
    if "/" not in ref and "\\" not in ref:
        return ref  # a shipped name
    if folder is None:
        return ref
    try:
        rel = os.path.relpath(ref, folder.resolve())
    except (OSError, ValueError):  # a folder that cannot be resolved (a link loop), another drive: absolute
        return ref
    return rel if "/" in rel or rel.endswith((".yaml", ".yml")) else "./" + rel


def record_of(state: State, seed: int | None = None, with_hands: bool = True,
              folder: Path | None = None) -> HandRecord:
    """The record of a hand played so far (hands in the order each seat received them), to be kept in
    `folder` (for how it names a rule file that is not shipped)."""
    g = state.game
    hands = [[g.codes[c] for c in h[:g.dealt_each]] for h in state.dealt] if with_hands else None
    stock = [g.codes[c] for c in state.stock] if with_hands and g.stock_size else None
    return HandRecord(ruleset_reference(g, folder), state.dealer, hands, seed, [str(a) for a in state.history],
                      stock=stock)


def outcome_of(state: State) -> dict[str, Any]:
    """What a finished hand came to, as extra record fields: status, teams, card and game points."""
    return {"status": state.status, "teams": [list(t) for t in state.hand_teams],
            "card_points": list(state.team_points), "game_points": state.game_points}


# --------------------------------------------------------------------------------------------- report
def _contract_report(s: State) -> dict[str, Any]:
    """The report's contract: who holds it, its bid and target, and only the terms this hand has."""
    holder, rnd = s.bidder, s.contract_round
    if s.special is None and s.round >= 2 and s.phase in (AUCTION, RAISE) and 0 <= s.high_bidder != s.bidder:
        holder, rnd = s.high_bidder, s.round   # a later round under way: its standing bid is the contract
    contract: dict[str, Any] = {"bidder": holder, "team": s.hand_team_of[holder], "bid": s.bid, "target": s.target,
                                "made": s.made if s.status == "complete" else None}
    terms: tuple[tuple[str, object, bool], ...] = (
        ("special", s.special.name if s.special is not None else None, s.special is not None),
        ("multiplier", s.multiplier, s.multiplier != 1 or bool(s.fixed_stake)),
        ("stake", s.fixed_stake, bool(s.fixed_stake)),
        ("added", s.added, bool(s.added)),
        ("round", rnd, s.game.rounds_matter),     # games with a second auction, or scored by round
        ("conceded", True, bool(s.conceded)),
    )
    contract.update((key, value) for key, value, present in terms if present)
    return contract


def _trump_report(s: State) -> dict[str, Any]:
    """The report's trump: its suit and the trick it was exposed in; the mode and multiplier where they apply."""
    trump: dict[str, Any] = {"suit": s.trump_suit_code(), "exposed_in_trick": s.exposed_trick or None}
    if s.game.mode_names:    # a file with trump modes (trump.modes): which one, null for a suit or no-trumps
        trump["mode"] = mode_name(s)
    if s.trump_multiplier != 1:
        trump["multiplier"] = s.trump_multiplier
    return trump


def report(rp: Replay) -> dict[str, Any]:
    """The replay report of docs/hand-record.md (field for field)."""
    s, g = rp.state, rp.game
    status = "illegal" if rp.error else ("in_progress" if s.status == "in_progress" else s.status)
    contract = _contract_report(s) if s.bidder >= 0 else None
    trump = _trump_report(s) if s.trump != UNDECIDED else None
    nxt = {"seat": s.to_act, "legal": sorted(a.notation for a in s.legal_actions())} \
        if status == "in_progress" else None
    return _optional_fields(s, {
        "ruleset": g.rules.name,
        "status": status,
        "error": rp.error,
        "teams": [list(t) for t in s.hand_teams],
        "contract": contract,
        "trump": trump,
        "tricks": _tricks_report(s),
        "card_points": list(s.team_points),
        "game_points": s.game_points if s.status == "complete" else [0] * len(s.hand_teams),
        "next": nxt,
    })


def _tricks_report(s: State) -> list[dict[str, Any]]:
    codes = s.game.codes
    return [{"leader": t.leader, "cards": [codes[c] for c in t.cards], "winner": t.winner, "points": t.points}
            for t in s.tricks]


def _optional_fields(s: State, out: dict[str, Any]) -> dict[str, Any]:
    """The report's fields of some hands only: why it was annulled, the melds, the turned card."""
    g = s.game
    if s.status == "annulled":
        out["annulled_because"] = s.annul_reason
    if g.rules.combinations is not None or g.rules.marriage is not None:
        from engine.play.combinations import melds_report

        out["melds"] = melds_report(s)   # (only for files with melds: other reports stay what they were)
    if s.turned_card >= 0:   # games with a turned card: the card turned up (public)
        out["turned"] = g.codes[s.turned_card]
    return out


__all__ = ["HandRecord", "Replay", "iter_records", "read_record", "read_record_text", "replay", "report",
           "record_of",
           "RulesetError"]
