"""The JSON Schemas ``gamelog schema NAME`` prints: of the log format, and of each JSON document the commands print."""

from __future__ import annotations

from typing import Union

import msgspec

from domain.games import GAMES
from projections.reports.documents import NAMES, document_type

SCHEMAS = ("log", *NAMES)
"""Every name ``schema`` takes: ``log`` (the default), then the documents in the order of their commands."""


def log_schema() -> dict:
    """The JSON Schema of log format v1: per game, its header and its events.

    Each game's header is tagged ``"type": "game"``, so the games cannot share
    one tagged union; each game gets a definition of its own (its types named
    ``GAME.Type``), and a line is valid when it fits one game's.
    """
    definitions: dict = {}
    games_refs = []
    for name in GAMES:
        rules = GAMES[name]
        types = (rules.header_type, *rules.event_types)
        (ref,), components = msgspec.json.schema_components(
            [Union[types]], ref_template=f"#/$defs/{name}.{{name}}")  # a runtime union, for msgspec
        definitions.update({f"{name}.{key}": value for key, value in components.items()})
        definitions[name] = {"title": f"a line of a {name} log", **ref}
        games_refs.append({"$ref": f"#/$defs/{name}"})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "gamelog recorded log, format v1: one object per line (JSON Lines)",
        "description": "The first line is the game header; the header's `game` says which definition the other lines follow.",
        "anyOf": games_refs,
        "$defs": definitions,
    }


SCHEMAS = ("log", *NAMES)
"""What ``gamelog schema NAME`` knows: the log format, and each JSON document the commands print."""


def document_schema(name: str) -> dict:
    """The JSON Schema of the document ``name`` prints (``projections.reports.documents``)."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **msgspec.json.schema(document_type(name))}


def document_schema(name: str) -> dict:
    """The JSON Schema of the document ``name`` (one of ``documents.NAMES``), generated from its Structs."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **msgspec.json.schema(document_type(name))}


def schema_of(name: str) -> dict:
    """The JSON Schema ``gamelog schema NAME`` prints; raises KeyError for a name not in :data:`SCHEMAS`."""
    return log_schema() if name == "log" else document_schema(name)
