"""What the store raises: gamelog's errors, whatever the backend and its driver raised.

Every backend (``projections.store.backends``) turns its library's and its
driver's exceptions into these, so nothing above the store imports
eventsourcing, sqlite3 or psycopg to catch them.
"""

from __future__ import annotations


class StoreError(Exception):
    """Raised when the store cannot be opened, read or written, or is not what gamelog expects."""


class NotAStore(StoreError):
    """Raised when the location holds something that is not a gamelog store: a file that is not a database, or a
    database of another program's (it has tables, none of them gamelog's)."""


class StoreBusy(StoreError):
    """Raised when another writer held the store's write lock for longer than the lock timeout."""


class StoreReadOnly(StoreError):
    """Raised when a store opened read-only (the user may not write it) is asked to write."""


class StoreDamaged(StoreError):
    """Raised when stored bytes cannot be read: an event that does not decode, a damaged SQLite file.

    ``game_id`` and ``version`` name the event when it is known.
    """

    def __init__(self, message: str, game_id: str | None = None, version: int | None = None):
        super().__init__(message)
        self.game_id = game_id
        self.version = version


class VersionCollision(StoreError):
    """Raised when another writer stored the same row first: an event version of the same game, or a tracking position.

    Two importers of one game both find it at the same version and both write
    the next: the second collides, and its transaction is rolled back whole.
    """
