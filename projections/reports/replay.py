"""Rendering a replayed state (``replay``'s document, built by the game's ``state.document()``) as text or JSON."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.documents import Replay
from projections.reports.documents import encode


def render_replay_json(document: Replay) -> str:
    """The state as one JSON document, on one line."""
    return encode(document)


def render_replay_text(document: Replay) -> str:
    """Where the game stands, then each player's non-empty fields, one a line, then the Forum if the game has one."""
    where = f"line {document.line}" + (f", turn {document.turn}" if document.turn else "") + (
        f", round {document.round}" if document.round else "")
    lines = [f"{document.game} {document.id!r} after {where}"]
    if document.finished:
        lines.append(f"finished: winner {document.winner or 'undecided'} ({document.end.reason})")
    for name, player in msgspec.to_builtins(document.players).items():
        lines.append(f"  {name}")
        for key, value in player.items():
            if value in (None, [], {}):
                continue
            lines.append(f"    {key:<20} {_value(value)}")
    if document.forum is not None:
        lines.append("  forum: " + _value(document.forum))
    return "\n".join(lines)


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "; ".join(_value(v) for v in value)
    return str(value)
