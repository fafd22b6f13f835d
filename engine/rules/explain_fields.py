"""What `show` says of the fields that carry their own sentence (a `Said` marker in engine/rules/model.py): a
field whose sentence needs no other rule is said from the model, with no code here or in explain.py."""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel

from engine.rules.model import Said
from engine.rules.yamlpos import KeyPath

Line = tuple[str, tuple[KeyPath, ...]]


def said_lines(section: BaseModel | None, path: KeyPath) -> Iterator[Line]:
    """The sentences of the section's fields that are set, in the model's order, each with its path."""
    if section is None:
        return
    for name, field in type(section).model_fields.items():
        said = next((m for m in field.metadata if isinstance(m, Said)), None)
        value = getattr(section, name)
        if said is not None and value:
            yield said.sentence(value), ((*path, field.alias or name),)
