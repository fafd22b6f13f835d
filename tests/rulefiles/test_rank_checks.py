"""A new per-card property needs no code in the checks or the explain modules.

Every rank the model can hold is checked against the deck by the one check read from the model's types
(engine/rules/checks_ranks.py): the places are found here from the model's annotations, independently of the
check, so a new field typed with Rank is covered (or this test fails) without a line in a checks module. A field
marked `Said` is said by `show` from its marker (engine/rules/explain_fields.py)."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from typing import Annotated, Any

from pydantic import BaseModel, Field

from engine.rules import checks
from engine.rules.checks_ranks import ranks_of_the_deck
from engine.rules.model import Deck, Obligations, Play, Rank, RankList, Ruleset, Table, UniqueRanks
from engine.rules.yamlpos import KeyPath

DECK = ["A", "K", "Q", "J"]
OUTSIDE = "2"
KEY = object()  # stands for "some key" of a map whose keys are not ranks


def _skeleton(cls: type[BaseModel], **values: Any) -> BaseModel:
    """An unvalidated instance: the given values, defaults elsewhere, None for the other required fields."""
    required = {n: None for n, f in cls.model_fields.items() if f.is_required()}
    return cls.model_construct(**{**required, **values})


def _strip(tp: Any) -> Any:
    while True:
        if typing.get_origin(tp) is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in typing.get_args(tp):
            tp = typing.Union[tuple(a for a in typing.get_args(tp) if a is not type(None))]  # noqa: UP007
        else:
            return tp


def _sample_key(tp: Any) -> Any:
    tp = _strip(tp)
    return typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Literal else 2


def plant(tp: Any, rank: str) -> Iterator[tuple[KeyPath, Any]]:
    """Every place a Rank can stand in a value of type `tp`: its path, and a value of `tp` holding `rank` there."""
    tp = _strip(tp)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Literal and tp == Rank:
        yield (), rank
    elif isinstance(tp, type) and issubclass(tp, BaseModel):
        for name, f in tp.model_fields.items():
            for path, value in plant(f.annotation, rank):
                yield (f.alias or name, *path), _skeleton(tp, **{name: value})
    elif origin in (list, tuple):
        for i, item in enumerate(args if origin is tuple else args[:1]):
            for path, value in plant(item, rank):
                yield (i, *path), ([value] if origin is list else (*(None,) * i, value))
    elif origin is dict:
        if _strip(args[0]) == Rank:
            yield (rank,), {rank: 1}
        key = _sample_key(args[0])
        for path, value in plant(args[1], rank):
            yield (key, *path), {key: value}
    elif origin in (typing.Union, types.UnionType):
        for branch in args:
            yield from plant(branch, rank)


def _with_deck(rs: Any) -> Ruleset:
    deck: Any = rs.deck if isinstance(rs.deck, Deck) else _skeleton(Deck)
    if deck.ranks is None or deck.ranks == [OUTSIDE]:
        deck = deck.model_copy(update={"ranks": DECK})
    return typing.cast(Ruleset, rs.model_copy(update={"deck": deck}))


def test_every_rank_of_the_model_is_checked_against_the_deck() -> None:
    sites = [(path, _with_deck(rs)) for path, rs in plant(Ruleset, OUTSIDE) if path[:2] != ("deck", "ranks")]
    assert len(sites) >= 16, [p for p, _ in sites]   # the model holds at least the 16 places of today
    missed = []
    for path, rs in sites:
        found = {f.path for f in ranks_of_the_deck(rs) if f.message.startswith(f"rank {OUTSIDE} is not in the deck")}
        if path not in found:
            missed.append(path)
    assert not missed, f"ranks no check reads: {missed}"
    assert ranks_of_the_deck in checks.CHECKS


def test_a_new_field_typed_with_rank_is_checked_with_no_code() -> None:
    """A subclass stands for tomorrow's model: new per-card properties, in every shape, none with a check."""

    class Tomorrow(Obligations):
        favourite: Rank | None = None
        bonus: dict[Rank, int] = Field(default_factory=dict)
        once_each: UniqueRanks = Field(default_factory=list)
        ordered: Annotated[list[Rank], RankList(once=True, every=True)] = Field(default_factory=list)

    rs = _with_deck(_skeleton(Ruleset, play=Play(obligations=Tomorrow(
        favourite="2", bonus={"2": 5, "3": 0, "A": 1}, once_each=["A", "A", "6"], ordered=["A", "K", "Q", "A"]))))
    ob = ("play", "obligations")
    where = "(deck.ranks is A K Q J)"
    assert [(f.path, f.message) for f in ranks_of_the_deck(rs)] == [
        ((*ob, "favourite"), f"rank 2 is not in the deck {where}"),
        ((*ob, "bonus", "2"), f"rank 2 is not in the deck {where}"),   # 3: 0 is a zeroed rank, allowed
        ((*ob, "once_each", 1), "A is listed twice"),
        ((*ob, "once_each", 2), f"rank 6 is not in the deck {where}"),
        ((*ob, "ordered", 3), "A is listed twice"),
        ((*ob, "ordered"), f"every rank of the deck is ordered here, and J is missing {where}"),
    ]


def test_marked_lists_name_each_rank_once() -> None:
    """Every list the model marks `once` reports a rank given twice, at the second one."""
    marked = 0
    for path, rs in plant(Ruleset, "A"):
        parent, index = path[:-1], path[-1]
        if not isinstance(index, int) or path[:2] == ("deck", "ranks"):
            continue
        node: Any = rs
        for part in parent[:-1]:
            node = getattr(node, str(part)) if isinstance(node, BaseModel) else node[part]
        field = type(node).model_fields.get(str(parent[-1])) if isinstance(node, BaseModel) else None
        if field is None or not any(m.once for m in _marks(field.annotation, field.metadata)):
            continue
        marked += 1
        value = [*DECK, "A"]
        twice = _with_deck(_set(rs, parent, value))
        assert (*parent, len(DECK)) in {f.path for f in ranks_of_the_deck(twice) if "listed twice" in f.message}
    assert marked >= 7


def _marks(tp: Any, metadata: list[Any]) -> Iterator[RankList]:
    """The RankList markers of a field: on the field, or on an Annotated inside its Optional."""
    yield from (m for m in metadata if isinstance(m, RankList))
    for arg in typing.get_args(tp):
        if typing.get_origin(arg) is typing.Annotated:
            yield from (m for m in typing.get_args(arg)[1:] if isinstance(m, RankList))


def _set(model: Any, path: KeyPath, value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(model, BaseModel):
        name = "raise_" if head == "raise" else str(head)
        return model.model_copy(update={name: _set(getattr(model, name), rest, value)})
    if isinstance(model, list):
        return [_set(v, rest, value) if i == head else v for i, v in enumerate(model)]
    return {k: (_set(v, rest, value) if k == head else v) for k, v in model.items()}


def test_a_new_field_with_its_sentence_is_said_by_show_with_no_code() -> None:
    """A field marked with `Said` is said at the end of its section's lines: a subclass stands for tomorrow's
    obligations (the explain modules are not touched), and the sentence comes out with its path."""
    from engine.rules.explain_obligations import obligation_lines
    from engine.rules.model import Said

    class Tomorrow(Obligations):
        lowest_first: Annotated[UniqueRanks, Said("Lowest first: the {value} of trumps are played first.",
                                                  join=" and ")] = Field(default_factory=list)

    rs = _with_deck(_skeleton(Ruleset, table=_skeleton(Table, teams=[[0, 2], [1, 3]]),
                              play=Play(obligations=Tomorrow(never_forced=["J"], lowest_first=["Q", "K"]))))
    lines = list(obligation_lines(rs))
    assert lines[-2:] == [
        ("Never forced: a player whose only trumps are the J of trumps need not play them, when a trump is led or "
         "when he would have to trump; he may play any card.", (("play", "obligations", "never_forced"),)),
        ("Lowest first: the Q and K of trumps are played first.", (("play", "obligations", "lowest_first"),))]
    quiet = _with_deck(_skeleton(Ruleset, table=_skeleton(Table, teams=[[0, 2], [1, 3]]),
                                 play=Play(obligations=Tomorrow())))
    assert not any("Lowest first" in text for text, _ in obligation_lines(quiet))   # not set: not said
