"""What a game id may be on the recorder: one every route can reach, checked in this one place.

A game made through ``POST /api/games`` is refused (422, saying what is allowed) when its id could not be named in
a path: a route could never reach it again. A path's id that no game could have is no game (404) before anything
is read.
"""

from __future__ import annotations

from typing import Any

import msgspec

MAX_ID = 200
"""The longest game id: a path names it whole, and a QR code carries it."""

ALLOWED = (f"a game id is 1 to {MAX_ID} printable characters, with no '/' or '\\' and no control character, "
           "and is not '.' or '..'")
"""What an id may be, as the refusal says it."""


def why_not(game_id: str) -> str | None:
    """Why ``game_id`` cannot be reached by a route (None: it can)."""
    if not game_id or len(game_id) > MAX_ID:
        return f"the game id has {len(game_id)} characters; {ALLOWED}"
    if game_id in (".", ".."):
        return f"the game id {game_id!r} names a folder in a path; {ALLOWED}"
    bad = next((c for c in game_id if c in "/\\" or not c.isprintable() and c != " "), None)
    if bad is not None:
        return f"the game id holds {bad!r}; {ALLOWED}"
    return None


def reachable(game_id: str) -> bool:
    """Whether a path's ``game_id`` is one a game could have."""
    return why_not(game_id) is None


class _Named(msgspec.Struct):
    """A new game's header, read for its id only (the reader checks the rest)."""

    id: Any = None


def new_game_refused(header: bytes) -> str | None:
    """Why the game a header (``POST /api/games``'s body) would make could not be reached (None: it could, or the
    header is not one: the reader says why when the game is made)."""
    try:
        named = msgspec.json.decode(header, type=_Named)
    except (msgspec.DecodeError, RecursionError):
        return None
    return why_not(named.id) if isinstance(named.id, str) else None
