"""What a log's line may hold, read from the game's types: so that an input error says what would be right.

The reader (``domain.reader``) knows that a field is unknown or a value is outside its set; this module knows,
from the Structs of the log format (a game's ``GameEvents``), which fields the object at fault takes and which
values its field allows, to name them in the message: the field meant (``did you mean `X`?``), the fields a line
of that type takes, the values a field may hold. Nothing here raises: what cannot be told from the types (a path
through a dict, a line whose ``type`` is unknown) is None.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, Union

import msgspec

from gamelog.domain.events import Recorded
from gamelog.domain.games import GameRules
from gamelog.domain.messages import did_you_mean, in_words, quote
from gamelog.domain.strict_json import step

ANY_LINE = frozenset(Recorded.__struct_fields__)
"""The fields any line may have (``at``, ``source``): named after a line's own."""

TAG = "type"
"""The field that names a line's type (``Recorded``'s tag field): no field a person chooses, so never suggested."""


def event_types(rules: GameRules) -> dict[str, type]:
    """The game's line types after the header, by the ``type`` each line writes."""
    return {cls.__struct_config__.tag: cls for cls in rules.events.recorded}


def line_type(rules: GameRules, header: bool, kind: Any) -> type | None:
    """The Struct of one line: the game's header for the header line, else the event type its ``type`` names (None
    when it names none)."""
    if header:
        return rules.events.header
    return event_types(rules).get(kind) if isinstance(kind, str) else None


def _unwrapped(annotation: Any) -> Any:
    """``annotation`` without ``Annotated`` (its constraints say nothing of the shape)."""
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    return annotation


def _choices(annotation: Any) -> list[Any]:
    """The members of a union (``X | None``), or the annotation alone."""
    annotation = _unwrapped(annotation)
    if typing.get_origin(annotation) in (Union, types.UnionType):
        return [_unwrapped(a) for a in typing.get_args(annotation)]
    return [annotation]


def _field(cls: type, name: str) -> msgspec.structs.FieldInfo | None:
    return next((f for f in msgspec.structs.fields(cls) if f.encode_name == name), None)


def _at(cls: type, steps: list[str | int]) -> list[Any]:
    """What the value at ``steps`` inside an object of ``cls`` may be: the types its annotation allows."""
    found: list[Any] = [cls]
    for key in steps:
        following: list[Any] = []
        for option in found:
            if isinstance(key, int):
                if typing.get_origin(option) in (list, tuple):
                    following += _choices(typing.get_args(option)[0])
            elif isinstance(option, type) and issubclass(option, msgspec.Struct):
                if (field := _field(option, key)) is not None:
                    following += _choices(field.type)
        found = [option for option in following if option is not type(None)]
    return found


def struct_at(cls: type, steps: list[str | int]) -> type | None:
    """The Struct of the object at ``steps`` inside an object of ``cls`` (``["setup"]``: the header's setup);
    None when the path leads to no one Struct."""
    structs = [t for t in _at(cls, steps) if isinstance(t, type) and issubclass(t, msgspec.Struct)]
    return structs[0] if len(structs) == 1 else None


def allowed_values(cls: type, steps: list[str | int]) -> list[Any] | None:
    """The values of a set (a ``Literal``) the field at ``steps`` inside an object of ``cls`` may hold (beside an
    object, for a field that takes either); None when its type holds no such set."""
    values = [value for option in _at(cls, steps) if typing.get_origin(option) is Literal
              for value in typing.get_args(option)]
    return values or None


def _in_declared_order(cls: type) -> list[msgspec.structs.FieldInfo]:
    """``cls``'s fields (its tag aside), each class's before its subclasses' (``player`` first), as the log
    format's tables list them: msgspec puts a base's keyword-only fields last."""
    declared = [name for c in reversed(cls.__mro__) for name in vars(c).get("__annotations__", {})]
    fields = [f for f in msgspec.structs.fields(cls) if f.encode_name != TAG]
    return sorted(fields, key=lambda f: declared.index(f.name) if f.name in declared else len(declared))


def fields_taken(cls: type) -> str:
    """The fields an object of ``cls`` takes, in words, the required ones first: ``has player and voids, and may
    have at and source``."""
    fields = _in_declared_order(cls)
    required = in_words([f.encode_name for f in fields if f.required])
    optional = in_words([f.encode_name for f in fields if not f.required and f.name not in ANY_LINE]
                        + [f.encode_name for f in fields if not f.required and f.name in ANY_LINE])
    if not optional:
        return f"has {required}"
    return f"has {required}, and may have {optional}" if required else f"may have {optional}"


def unknown_field(cls: type, steps: list[str | int], field: str) -> str:
    """The message of an unknown ``field`` in the object at ``steps`` (inside an object of ``cls``): the field
    closest to it, when one is close, and every field that object takes."""
    where = struct_at(cls, steps)
    named = f"unknown field {quote(field)}"
    if where is None:
        return named
    guess = did_you_mean(field, [f.encode_name for f in msgspec.structs.fields(where) if f.encode_name != TAG])
    tag = where.__struct_config__.tag
    what = f"`{_path(steps)[2:]}`" if steps else "the header" if tag == "game" else f"a {tag} line"
    return f"{named}{': ' + guess if guess else ''} ({what} {fields_taken(where)})"


def bad_value(cls: type, steps: list[str | int], shown: str, value: Any) -> str | None:
    """The message of a value (``shown``: as the message quotes it) outside the set its field allows, naming the
    closest member and every member in words; None when the field's type holds no set."""
    allowed = allowed_values(cls, steps)
    if allowed is None:
        return None
    guess = did_you_mean(value, [a for a in allowed if isinstance(a, str)]) if isinstance(value, str) else None
    guessed = f": {guess}" if guess else ""
    listed = in_words([str(a) for a in allowed], "or")
    if not steps or not isinstance(steps[-1], str):  # an item of a list: the list's name says what it holds
        return f"{shown} may not stand in `{_path(steps)[2:]}`{guessed} (its values: {listed})"
    noun = steps[-1].replace("_", " ")
    a = "an" if noun[:1] in "aeiou" else "a"
    return f"{shown} is not {a} {noun}{guessed} ({a} {noun} is {listed})"


def _path(steps: list[str | int]) -> str:
    return "$" + "".join(f"[{s}]" if isinstance(s, int) else step(s) for s in steps)
