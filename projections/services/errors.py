"""gamelog's application errors: what a service raises when what it was given cannot be used.

Each error's text is what the user reads after ``Error: `` (a file, a line,
what is wrong), never a traceback; the CLI maps each class to its exit code
in one table (``cli/errors.py``). The store's own errors
(``StoreError``, ``StoreBusy``, ``StoreReadOnly``, ``StoreDamaged``) come
from the floor below and pass through the services as they are;
:class:`StoreMissing` is one of them. A log with input errors raises the
reader's :class:`~gamelog.domain.errors.LogInvalid` (``errors``: each
:class:`~gamelog.domain.errors.InputError`; ``lines()``: each as
``FILE:LINE: ... at $.path``). All of them are importable from here.
"""

from __future__ import annotations

from gamelog.domain.errors import InputError, LogInvalid
from gamelog.projections.store.application import StoreBusy, StoreDamaged, StoreError, StoreReadOnly


class GamelogError(Exception):
    """The base of the services' errors: ``str(error)`` is the message for the user, one or more lines."""


class BadInput(GamelogError):
    """Raised when what the user gave cannot be used: a file that cannot be read, an unknown format, a bad option."""


class GameNotFound(BadInput):
    """Raised when GAME is neither a log file nor a stored game's id."""


class PlayerNotFound(BadInput):
    """Raised when a player asked for is not one of the game's players."""


class NotYourLine(BadInput):
    """Raised when a player's view of a game records a line of another player's (or voids one), or the public view
    records any line: only the full view (the host) may."""


class NotPlayedInRounds(BadInput):
    """Raised when a round is asked of a game that is not played in rounds; the text says what to give instead."""


class PointNotInGame(BadInput):
    """Raised when a line, turn or round asked for is not in the game's history (before its header, past its end)."""


class UnsupportedStore(BadInput):
    """Raised for a store location that is a URL gamelog cannot open (``ftp://host/db``)."""


class StoreMissing(StoreError):
    """Raised when a command that only reads the store is given a SQLite file that does not exist."""


__all__ = ["BadInput", "GameNotFound", "GamelogError", "InputError", "LogInvalid", "NotPlayedInRounds",
           "NotYourLine", "PlayerNotFound", "PointNotInGame", "StoreBusy", "StoreDamaged", "StoreError", "StoreMissing",
           "StoreReadOnly", "UnsupportedStore"]
