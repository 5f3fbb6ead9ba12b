"""Rendering a replayed state (``replay``'s document, built by the game's ``state.document()``) as text or JSON.

The text is generic over every game's document (no game is named here): it
says where the game stands in a sentence, puts each player's counts in one
aligned table (players as columns), tells each player's lists and holdings
in sentences or small tables, then the game's own fields the same way.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from gamelog.domain.replay_document import Replay
from gamelog.projections.reports.documents import encode
from gamelog.projections.reports.safe import clean
from gamelog.projections.reports.terminal import WIDTH, label, table, wrap

SHARED = ("id", "line", "turn", "round", "finished", "winner", "players", "end", "voided_lines", "game")
"""The fields every game's document has, told in the opening sentences rather than field by field."""

_IDENTIFIER = re.compile(r"[a-z]+(?:_[a-z]+)+")


def render_replay_json(document: Replay) -> str:
    """The state as one JSON document, on one line."""
    return encode(document)


def render_replay_text(document: Replay, width: int = WIDTH) -> str:
    """Where the game stands, the players' counts as a table, their holdings, then the game's own fields.

    Every line is at most ``width`` wide; user text is cleaned of control
    characters (``safe.clean``).
    """
    out: list[str] = []
    say = lambda text, indent=0, hanging=None: out.extend(wrap(clean(text), width, indent, hanging))
    say(f"{document.game} {document.id!r} {_where(document)}")
    say(_status(document), hanging=2)
    if document.voided_lines:
        say("Voided lines: " + ", ".join(map(str, document.voided_lines)) + ".", hanging=2)
    players = msgspec.to_builtins(document.players)
    out.append("")
    out += _players_table(players, width)
    out.append("")
    details = [_field(f"{name}, {label(key)}", value, width, "  ")
               for name, fields in players.items() for key, value in fields.items() if not _is_scalar(value) and value]
    out += [line for lines in details for line in lines] + ([""] if details else [])
    extra = {k: v for k, v in msgspec.to_builtins(document).items() if k not in SHARED and v is not None}
    for key, value in extra.items():
        name = label(key)
        out += _field(name[0].upper() + name[1:], value, width, "")
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)


def _where(document: Replay) -> str:
    counts = [f"turn {document.turn}" if document.turn else "", f"round {document.round}" if document.round else ""]
    counted = ", ".join(c for c in counts if c)
    return f"after line {document.line}" + (f" ({counted})" if counted else "")


def _status(document: Replay) -> str:
    end = document.end
    if not document.finished or end is msgspec.UNSET or end is None:
        return "Not finished."
    who = f"{document.winner} won" if document.winner else "no winner"
    return f"Finished at line {end.line}: {who} ({end.rule}: {end.reason})."


def _players_table(players: dict[str, dict[str, Any]], width: int) -> list[str]:
    """Each player's counts and single values, one row per field, one column per player."""
    keys = list(dict.fromkeys(k for fields in players.values() for k, v in fields.items() if _is_scalar(v)))
    if not keys:
        return []
    rows = [[label(k), *(_text(fields.get(k)) for fields in players.values())] for k in keys]
    return table(["", *(clean(p) for p in players)], rows, width)


def _field(title: str, value: Any, width: int, indent: str) -> list[str]:
    """One field as a sentence (a value, a list, a mapping of values) or a titled table (a list or mapping of records)."""
    records = _records(value)
    if records is not None:
        header, rows = records
        return [*wrap(clean(title) + ":", width, indent), *table(header, rows, width, indent + "  ")]
    return wrap(f"{clean(title)}: {_text(value)}", width, indent, len(indent) + 2)


def _records(value: Any) -> tuple[list[str], list[list[str]]] | None:
    """A list of objects (columns: their keys) or a mapping to objects (first column: the key) as a table."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        keys = list(dict.fromkeys(k for v in value for k in v))
        return [label(keys[0]), *(label(k) for k in keys[1:])], [[_text(v.get(k)) for k in keys] for v in value]
    if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
        keys = list(dict.fromkeys(k for v in value.values() for k in v))
        return ["", *(label(k) for k in keys)], [[clean(name), *(_text(v.get(k)) for k in keys)]
                                                 for name, v in value.items()]
    return None


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, (list, dict))


def _text(value: Any) -> str:
    """A value in words: yes/no, a dash for nothing, ``an_identifier`` as ``an identifier``, lists with commas."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return clean(value.replace("_", " ") if _IDENTIFIER.fullmatch(value) else value)
    if isinstance(value, dict):
        return ", ".join(f"{label(clean(str(k)))} {_text(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value) or "none"
    return str(value)
