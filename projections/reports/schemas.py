"""The JSON Schemas ``gamelog schema NAME`` prints: of the log format, and of each JSON document the commands print."""

from __future__ import annotations

from typing import Any, Union

import msgspec

from gamelog.domain.events import MAX_AMOUNT, MAX_LINES, MAX_PLAYERS, MAX_QUANTITY, MAX_TOTAL
from gamelog.domain.games import GAMES
from gamelog.domain.strict_json import MAX_DEPTH
from gamelog.projections.reports.documents import NAMES, document_type

SCHEMAS = ("log", *NAMES)
"""Every name ``schema`` takes: ``log`` (the default), then the documents in the order of their commands."""


def log_schema() -> dict:
    """The JSON Schema of log format v1: per game, its header and its events.

    Each game's header is tagged ``"type": "game"``, so the games cannot share
    one tagged union; each game gets a definition of its own (its types named
    ``GAME.Type``), and a line is valid when it fits one game's. Every
    integer has its range (``minimum``, ``maximum``: ``domain.events``); what
    JSON Schema cannot say of a line (no key twice in an object, the nesting
    and line limits) the description says.
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
        "description": (
            "The first line is the game header; the header's `game` says which definition the other lines follow. "
            f"Every integer is bounded: an amount (credits, a price, a cost, VP, points) by {MAX_AMOUNT:,}, "
            f"a quantity by {MAX_QUANTITY:,}, a line number by {MAX_LINES:,}, a goal or a stated score by {MAX_TOTAL:,} "
            f"(so that no total passes 2**63 - 1). A log has at most {MAX_LINES:,} lines, a game at most {MAX_PLAYERS} "
            "players; "
            f"a key appears at most once in an object; arrays and objects nest at most {MAX_DEPTH} deep."
        ),
        "anyOf": games_refs,
        "$defs": definitions,
    }


def document_schema(name: str) -> dict:
    """The JSON Schema of the document ``name`` (one of ``documents.NAMES``), generated from its Structs.

    Every object allows added fields (no ``additionalProperties: false``): a
    document gains fields within its version (docs/cli.md, "Compatibility"),
    and a program checking it with this schema must keep working.
    """
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            **_open(msgspec.json.schema(document_type(name)))}


def _open(node: Any) -> Any:
    """The schema with every ``additionalProperties: false`` taken out, at any depth."""
    if isinstance(node, dict):
        return {key: _open(value) for key, value in node.items()
                if not (key == "additionalProperties" and value is False)}
    if isinstance(node, list):
        return [_open(value) for value in node]
    return node


def schema_of(name: str) -> dict:
    """The JSON Schema ``gamelog schema NAME`` prints; raises KeyError for a name not in :data:`SCHEMAS`."""
    return log_schema() if name == "log" else document_schema(name)
