"""One check for every rank the model holds, driven by the model's types: a field, a list item or a map key typed
`Rank` must be a rank of the deck, wherever it stands. A list marked with `RankList` (engine/rules/model.py) also
names each rank once, or every rank of the deck. A new field typed with Rank is checked here with no code of its
own; its checks across other fields (what the ranks mean together) stay with its mechanism.

A map keyed by rank may give 0 to a rank outside the deck: mappings merge along `extends`, so a house rule that
drops a rank can only zero what its parent gave it, never remove it.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from engine.rules.messages import Finding
from engine.rules.model import Rank, RankList, Ruleset
from engine.rules.yamlpos import KeyPath, dotted

RANKS: KeyPath = ("deck", "ranks")
PLAIN = RankList()


class _Deck:
    """The deck's ranks, as the messages name them."""

    def __init__(self, ranks: list[str]) -> None:
        self.ranks = ranks
        self.members = frozenset(ranks)
        self.where = f"deck.ranks is {' '.join(ranks)}"


def ranks_of_the_deck(rs: Ruleset) -> Iterator[Finding]:
    """Every rank of the ruleset against the deck, in the order of the model's fields."""
    yield from _model(rs, (), _Deck(list(rs.deck.ranks)))


# ------------------------------------------------------------------------------ the model, read by type
def _is_rank(tp: Any) -> bool:
    return tp is Rank or (typing.get_origin(tp) is typing.Literal and tp == Rank)


def _strip(tp: Any, mark: RankList) -> tuple[Any, RankList]:
    """The type under Annotated and Optional, and the RankList marker met on the way (the nearest wins)."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp, *meta = typing.get_args(tp)
            mark = next((m for m in meta if isinstance(m, RankList)), mark)
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp, mark
            tp = args[0]
        else:
            return tp, mark


def _holds_rank(tp: Any) -> bool:
    """Whether a value of this type can hold a Rank anywhere (models followed through their fields)."""
    tp, _ = _strip(tp, PLAIN)
    if _is_rank(tp):
        return True
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return bool(_rank_fields(tp))
    return any(_holds_rank(a) for a in typing.get_args(tp) if a is not type(None) and a is not Ellipsis)


@functools.cache
def _rank_fields(cls: type[BaseModel]) -> tuple[tuple[str, str, Any, RankList], ...]:
    """The fields of a model class that can hold a rank: name, key in the file, type, marker."""
    out = []
    for name, f in cls.model_fields.items():
        if _holds_rank(f.annotation):
            mark = next((m for m in f.metadata if isinstance(m, RankList)), PLAIN)
            out.append((name, f.alias or name, f.annotation, mark))
    return tuple(out)


def _model(m: BaseModel, path: KeyPath, deck: _Deck) -> Iterator[Finding]:
    for name, key, tp, mark in _rank_fields(type(m)):
        yield from _value(getattr(m, name), tp, (*path, key), mark, deck)


def _value(value: Any, tp: Any, path: KeyPath, mark: RankList, deck: _Deck) -> Iterator[Finding]:
    if isinstance(value, BaseModel):
        return _model(value, path, deck)
    tp, mark = _strip(tp, mark)
    if value is None:
        return iter(())
    if _is_rank(tp):
        return _outside(value, path, mark, deck)
    if isinstance(value, list | tuple):
        return _items(value, tp, path, mark, deck)
    if isinstance(value, dict):
        return _map(value, tp, path, deck)
    return iter(())


def _items(value: list[Any] | tuple[Any, ...], tp: Any, path: KeyPath, mark: RankList,
           deck: _Deck) -> Iterator[Finding]:
    """A list (one item type) or a tuple (one type per place)."""
    types_ = typing.get_args(tp)[:1] if typing.get_origin(tp) is list else typing.get_args(tp)
    if typing.get_origin(tp) is list and _is_rank(_strip(types_[0], mark)[0]):
        yield from _rank_list(list(value), path, mark, deck)
        return
    for i, v in enumerate(value):
        yield from _value(v, types_[min(i, len(types_) - 1)], (*path, i), PLAIN, deck)


def _map(value: dict[Any, Any], tp: Any, path: KeyPath, deck: _Deck) -> Iterator[Finding]:
    key, item = typing.get_args(tp)
    if _is_rank(_strip(key, PLAIN)[0]):
        yield from _rank_keys(value, path, deck)
    if _holds_rank(item):
        for k, v in value.items():
            yield from _value(v, item, (*path, k), PLAIN, deck)


# ---------------------------------------------------------------------------------------- the findings
def _outside(rank: str, path: KeyPath, mark: RankList, deck: _Deck) -> Iterator[Finding]:
    if rank not in deck.members:
        yield Finding(path, f"rank {rank} is not in the deck ({deck.where})", depends=(RANKS,),
                      hint=mark.outside_hint)


def _rank_list(ranks: list[str], path: KeyPath, mark: RankList, deck: _Deck) -> Iterator[Finding]:
    if mark.empty and not ranks:
        yield Finding(path, mark.empty, hint=mark.empty_hint)
    seen: set[str] = set()
    for i, r in enumerate(ranks):
        if not mark.deck and r not in deck.members:
            yield from _outside(r, (*path, i), mark, deck)
        elif mark.once and r in seen:
            yield Finding((*path, i), mark.twice.format(rank=r), hint=mark.twice_hint)
        seen.add(r)
    if mark.every:
        yield from _missing(seen, path, mark, deck)


def _missing(named: set[str], path: KeyPath, mark: RankList, deck: _Deck) -> Iterator[Finding]:
    missing = [r for r in deck.ranks if r not in named]
    if missing:
        words = mark.missing.format(ranks=" ".join(missing), are="is" if len(missing) == 1 else "are")
        yield Finding(path, f"{words} ({deck.where})", depends=(RANKS,), hint=mark.missing_hint)


def _rank_keys(table: dict[str, Any], path: KeyPath, deck: _Deck) -> Iterator[Finding]:
    """A key outside the deck is a problem unless its value is 0. A map an overlay merges into (none inside a
    list, which an overlay replaces whole) is fixed by zeroing the key in the overlay."""
    merged = not any(isinstance(p, int) for p in path)
    for r, value in table.items():
        if r not in deck.members and value:
            fix = (f"also set {dotted((*path, r))}: 0 in this file (points of a rank outside the deck can be "
                   "zeroed, not removed)") if merged else ""
            yield Finding((*path, r), f"rank {r} is not in the deck ({deck.where})", "key", depends=(RANKS,),
                          fix=fix)
