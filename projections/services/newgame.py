"""A new game's header, for a person who writes a log by hand: ``gamelog new GAME-KIND --players A,B,C``.

The header is built from the form the recorder's new-game page fills (``recording.header_forms``: the game's
header type read field by field), so it holds every field that page asks for, each setup field at its default
unless given; it is then read exactly as a log's first line is, so what is printed is a valid header.
"""

from __future__ import annotations

import datetime
import json
from typing import Any, Mapping

import msgspec

from gamelog.domain.errors import LogInvalid
from gamelog.domain.games import GAMES
from gamelog.domain.reader import LogReader

from .errors import BadInput
from .recording import header_forms

__all__ = ["NEW", "game_kinds", "new_header"]

NEW = "new"
"""How the header is named in its input errors' messages (``new:1: ...``): it is no file yet."""


def game_kinds() -> list[str]:
    """Every game gamelog knows, as a header's ``game`` names it, sorted."""
    return sorted(GAMES)


def _setup_value(text: str) -> Any:
    """A ``--setup`` value: JSON where it reads as JSON (``14``, ``["a", "b"]``, ``{"Ann": "x"}``), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def new_header(game: str, players: list[str], game_id: str | None = None,
               setup: Mapping[str, str] | None = None, today: datetime.date | None = None) -> bytes:
    """The header line (JSON, no newline) of a new ``game`` played by ``players`` in seat order: ``game_id`` (by
    default ``GAME-DATE``), ``at`` today (``today``), and every setup field, at its default unless ``setup``
    gives it (``{"vp_goal": "14"}``: each value JSON where it reads as JSON, else text; ``{"factions.Ann": "Hacan"}``
    one player's entry of a field by player).

    Raises :class:`BadInput` for a game gamelog does not know or a setup field the game does not have (each
    naming the ones there are), and :class:`~gamelog.domain.errors.LogInvalid` for a header that is not valid
    (a player named twice, a setup value out of range), as a log's first line would be.
    """
    if game not in GAMES:
        raise BadInput(f"no game {game!r}; the games are: {', '.join(game_kinds())}")
    fields = {field.name: field for field in header_forms()[game].fields}
    day = (today or datetime.date.today()).isoformat()
    header: dict[str, Any] = {"type": "game", "game": game, "id": game_id or f"{game}-{day}", "players": players,
                              "at": day}
    chosen = dict(setup or {})
    group = fields.get("setup")
    if group is not None:
        known = [field.name for field in group.fields]
        unknown = sorted({name.split(".")[0] for name in chosen} - set(known))
        if unknown:
            raise BadInput(f"{game} has no setup field {', '.join(unknown)}; its setup fields are: {', '.join(known)}")
        header["setup"] = dict(group.default or {})
        for name, value in chosen.items():  # factions.Ann=Hacan: one player's entry of a field by player
            field, _, player = name.partition(".")
            if player:
                header["setup"][field] = {**(header["setup"].get(field) or {}), player: _setup_value(value)}
            else:
                header["setup"][field] = _setup_value(value)
    elif chosen:
        raise BadInput(f"{game} has no setup")
    line = msgspec.json.encode(header)
    reader = LogReader(line + b"\n")
    if reader.header is None or reader.errors:
        raise LogInvalid(NEW, reader.errors)
    return line
