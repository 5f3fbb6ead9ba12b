"""What a store backend provides, and what every backend shares.

A backend is one kind of database the store can live in (``sqlite``,
``postgres``). Its module holds, in eventsourcing's own pattern, the
library's factory and recorders as gamelog uses them, and a subclass of
:class:`Backend` with everything that differs between databases: the
library's environment, what is done before the library opens the store,
the write transaction, the SQL dialect of the catalog and the events, the
views' tracking recorder and their SQL, and which library and driver
exceptions mean busy, damaged or a collision. ``projections.store.application``
speaks only to this interface; the registry (``projections.store.backends``)
picks the backend once, from the store's location.
"""

from __future__ import annotations

import os
import re
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager
from operator import itemgetter
from typing import Any, Callable, ClassVar, Iterable, Iterator, Sequence
from uuid import UUID

from eventsourcing.persistence import IntegrityError, PersistenceError, Tracking

from gamelog.projections.store.errors import StoreBusy, StoreDamaged, StoreError, VersionCollision
from gamelog.projections.store.library import insert_tracking_in, max_tracking_id_in

LOCK_TIMEOUT = 60
"""Seconds a writer waits for another writer's lock (``GAMELOG_LOCK_TIMEOUT`` overrides)."""


def lock_timeout_seconds(lock_timeout: float | None) -> int:
    """The lock timeout in whole seconds (both backends take whole seconds); raises StoreError."""
    if lock_timeout is None:
        raw = os.environ.get("GAMELOG_LOCK_TIMEOUT", "").strip() or str(LOCK_TIMEOUT)
        try:
            lock_timeout = float(raw)
        except ValueError:
            raise StoreError(f"GAMELOG_LOCK_TIMEOUT must be a number of seconds, not {raw!r}") from None
    return max(1, round(lock_timeout))


class PortableCursor:
    """A DB-API cursor that runs SQLite-flavoured SQL (``?`` placeholders, bare table names) on any backend.

    ``adapt`` rewrites a statement for the backend (identity on SQLite); rows
    come back as tuples in column order on every backend.
    """

    def __init__(self, cursor: Any, adapt: Callable[[str], str] | None = None, connection: Any = None):
        """``connection``: the driver's connection the cursor is of, for :meth:`another` (the cursor's own
        ``connection`` when not given)."""
        self._cursor = cursor
        self._adapt = adapt
        self._connection = connection if connection is not None else getattr(cursor, "connection", None)

    def execute(self, sql: str, params: Any = ()) -> None:
        self._cursor.execute(self._adapt(sql) if self._adapt else sql, params)

    def executemany(self, sql: str, rows: list[tuple]) -> None:
        self._cursor.executemany(self._adapt(sql) if self._adapt else sql, rows)

    def fetchall(self) -> list[tuple]:
        return [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in self._cursor.fetchall()]

    def fetchone(self) -> tuple | None:
        row = self._cursor.fetchone()
        return None if row is None else tuple(row.values()) if isinstance(row, dict) else tuple(row)

    def fetchmany(self, size: int) -> list[tuple]:
        return [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in self._cursor.fetchmany(size)]

    def another(self) -> "PortableCursor":
        """A second cursor in this one's transaction: its rows can be read a page at a time while this one runs
        other statements. Close it when done (``close``)."""
        return _Another(self._connection.cursor(), self._adapt, self._connection)

    def close(self) -> None:
        """Nothing to close: the transaction that opened the cursor closes it."""


class _Another(PortableCursor):
    """A cursor :meth:`PortableCursor.another` opened: closing it closes the driver's cursor."""

    def close(self) -> None:
        self._cursor.close()


class Backend(ABC):
    """One kind of database a store lives in: set up by the location, bound to the library's recorder once open.

    A subclass sets the class attributes below and implements the abstract
    methods; :meth:`translate` turns its library's and driver's exceptions
    into :mod:`projections.store.errors` (every public method here raises only those).
    """

    name: ClassVar[str]
    """The backend's name, as the registry and error messages give it."""
    mark: ClassVar[str]
    """The driver's placeholder (``?``, ``%s``)."""
    position_column: ClassVar[str]
    """The events table's column holding an event's place in the notification log."""
    bytes_states: ClassVar[bool] = False
    """Whether the driver gives a ``state`` as :meth:`state` would make it already (a page of a history is then
    read without a call a row)."""

    def __init__(self, location: str, lock_timeout: float | None = None):
        """Raises StoreError for a bad ``GAMELOG_LOCK_TIMEOUT``."""
        self.location = location
        self.lock_timeout = lock_timeout_seconds(lock_timeout)
        self.read_only = False
        self.recorder: Any = None

    # --- Opening ---

    @abstractmethod
    def environment(self) -> dict[str, str]:
        """eventsourcing's environment for this store (its factory as ``PERSISTENCE_MODULE``); raises StoreError."""

    def prepare(self, env: dict[str, str]) -> None:
        """Ready the database before the library opens it (may edit ``env``, set :attr:`read_only`); raises StoreError."""

    def prepared(self) -> None:
        """Once the library has opened the store (or failed to), let go of whatever :meth:`prepare` held."""

    def bind(self, recorder: Any) -> None:
        """Take the library's application recorder, once it has opened the store."""
        self.recorder = recorder

    # --- Transactions and errors ---

    @abstractmethod
    @contextmanager
    def writing(self, durable: bool = True) -> Iterator[Any]:
        """A write transaction's raw cursor: committed on normal exit, rolled back on any exception.

        ``durable=False`` for a transaction that writes only what can be derived again (the views and their
        position, written together): its commit need not reach the disk before it returns. A crash may lose
        it, never part of it, and never a durable commit after it; the views then catch up again.
        """

    @contextmanager
    def reading(self) -> Iterator[Any]:
        """A read transaction's raw cursor (rows index by column name)."""
        with self.errors(), self.recorder.datastore.transaction(commit=False) as cursor:
            yield cursor

    def read_columns(self, statement: str, params: tuple, names: tuple[str, ...]) -> list[Sequence[Any]]:
        """The rows of one read statement as columns (one sequence a name in ``names``, each in row order), read in
        a transaction of their own: a page of a history read without a Python step a row. Raises what
        :meth:`reading` raises."""
        with self.reading() as cursor:
            cursor.execute(statement, params)
            rows = cursor.fetchall()
        return [list(map(itemgetter(name), rows)) for name in names]

    @contextmanager
    def errors(self) -> Iterator[None]:
        """Turn the library's and the driver's exceptions raised inside into gamelog's; others pass as they are."""
        try:
            yield
        except StoreError:
            raise
        except Exception as exc:
            translated = self.translate(exc)
            if translated is None:
                raise
            raise translated from exc

    def translate(self, exc: BaseException) -> StoreError | None:
        """gamelog's error for a library or driver exception, or None when ``exc`` is neither."""
        if not isinstance(exc, (PersistenceError, *self.driver_errors())):
            return None
        if self.is_damage(exc):
            return StoreDamaged(f"the store {self.location} is damaged: {exc}")
        if self.is_lock_timeout(exc):
            return StoreBusy(f"the store {self.location} stayed locked by another writer (waited the lock timeout)")
        if isinstance(exc, IntegrityError) or self.is_collision(exc):
            return VersionCollision(f"another writer stored the same rows first in the store {self.location}: {exc}")
        return StoreError(f"the store {self.location} failed: {exc}")

    @abstractmethod
    def driver_errors(self) -> tuple[type[BaseException], ...]:
        """The driver's exception classes (raised where the library does not wrap them)."""

    def is_damage(self, exc: BaseException) -> bool:
        """Whether a library or driver exception means the database file is damaged."""
        return False

    @abstractmethod
    def is_lock_timeout(self, exc: BaseException) -> bool:
        """Whether a library or driver exception means another writer held the lock past the lock timeout."""

    def is_collision(self, exc: BaseException) -> bool:
        """Whether a driver exception (not wrapped by the library) is a unique-key collision."""
        return False

    # --- The SQL dialect of the events and the catalog ---

    @abstractmethod
    def table(self, name: str) -> str:
        """A table's name as SQL (schema-qualified where the backend has schemas)."""

    @property
    def events_table(self) -> str:
        """The library's events table's name as SQL."""
        return self.table(self.recorder.events_table_name)

    def contains(self, column: str) -> str:
        """A condition: ``column`` (bytes) holds the bytes of the next parameter."""
        return f"instr({column}, {self.mark}) > 0"

    @abstractmethod
    def originator(self, uid: UUID) -> Any:
        """An aggregate ID as the events table's ``originator_id`` column takes it (a UUID or its hex)."""

    @abstractmethod
    def originator_hex(self, stored: Any) -> str:
        """An ``originator_id`` as read from the events table, as hex."""

    @staticmethod
    def state(stored: Any) -> bytes | None:
        """A ``state`` as read from the events table, as bytes (or None); see :attr:`bytes_states`."""
        return None if stored is None else bytes(stored)

    @abstractmethod
    def insert_rows(self, cursor: Any, uid: UUID, rows: list[tuple[int, str, bytes]]) -> None:
        """Insert a game's sealed rows (version, topic, state) on the cursor of an open write transaction.

        Raises the library's IntegrityError (at once or at commit: :meth:`errors`
        makes it a VersionCollision) when another writer stored one of these versions.
        """

    def listen(self) -> Any:
        """What waits for any process to store an event: an object whose ``wait(timeout)`` returns True once one
        is stored (False after ``timeout`` seconds), and ``close()``; None where the database tells no one (then
        the caller reads :meth:`last_position` every so often)."""
        return None

    def last_position(self) -> int:
        """The last event's place in the store's notification log (0 for an empty store)."""
        with self.errors():
            return self.recorder.max_notification_id() or 0

    def notification_rows(self, rows: list[Any]) -> list[tuple[int, str, int, str, bytes | None]]:
        """Rows read as ``position, originator_id, originator_version, topic, state`` (by name) as tuples of
        (position, aggregate ID as hex, version, topic, state bytes)."""
        hexed, state = self.originator_hex, self.state
        return [(r["position"], hexed(r["originator_id"]), r["originator_version"], r["topic"], state(r["state"]))
                for r in rows]

    def last_position_in(self, cursor: Any) -> int:
        """The last event's place in the notification log as the open transaction of ``cursor`` sees it (its own
        uncommitted events included)."""
        cursor.execute(f"SELECT MAX({self.position_column}) AS head FROM {self.events_table}")
        return cursor.fetchone()["head"] or 0

    def lock_events(self, cursor: Any) -> None:
        """Inside a write transaction, take the lock an append takes now rather than at the first insert (SQLite's
        write lock is held from the start already): until it commits, no other writer's event can come first."""

    # --- The views' tracking record and their SQL ---

    @abstractmethod
    def tracking_recorder(self, application_name: str) -> Any:
        """The library's tracking recorder that the views of ``application_name`` keep their position with."""

    @abstractmethod
    def tracking_table_name(self, application_name: str) -> str:
        """That recorder's table's name (unqualified), as the library names it."""

    @abstractmethod
    def views_cursor(self, cursor: Any, tables: Iterable[str]) -> PortableCursor:
        """A raw cursor of this store through which the views' SQLite-flavoured SQL on ``tables`` runs."""

    def lock_views(self, cursor: Any) -> None:
        """Inside a write transaction, take the lock every views writer takes (SQLite's write lock is held already)."""

    def tracking_position(self, tracking: Any, application_name: str) -> int:
        """The views' tracking position (0 when none is recorded)."""
        with self.errors():
            return tracking.max_tracking_id(application_name) or 0

    def tracking_position_in(self, tracking: Any, cursor: Any, application_name: str) -> int:
        """The views' tracking position as the open transaction of ``cursor`` sees it (0 when none is recorded):
        read on that transaction's connection, never a second one."""
        with self.errors():
            return max_tracking_id_in(tracking, cursor, application_name) or 0

    def move_tracking(self, tracking: Any, cursor: Any, application_name: str, position: int) -> None:
        """Move the views' tracking position inside the caller's open write transaction (the one writing their rows).

        Raises VersionCollision (through :meth:`errors`) when it is already at or past ``position``.
        """
        insert_tracking_in(tracking, cursor, Tracking(application_name, position))

    def create_tracked_tables(self, tracking: Any, create_views: Callable[[], None], attempts: int = 5) -> None:
        """Create the tracking table and (``create_views``) the view tables where they are missing.

        Two processes creating them at once can collide: on PostgreSQL,
        ``CREATE TABLE IF NOT EXISTS`` on the catalog; on either backend, both
        find the tracking table absent and both insert the library's migration
        record, the second failing with "Failed to record tracking for
        __migration__". The one that loses tries again, and finds the tables
        there. Raises StoreError when it cannot.
        """
        for attempt in range(attempts):
            try:
                with self.errors():
                    tracking.create_table()
                create_views()
                return
            except StoreError as exc:
                cause = exc.__cause__ if exc.__cause__ is not None else exc
                text = f"{exc} {cause}"
                collided = "already exists" in text or "duplicate key" in text or "__migration__" in text
                if attempt == attempts - 1 or not collided:
                    raise
                time.sleep(0.1 * (attempt + 1))


def view_tables(tables: Iterable[str]) -> re.Pattern[str]:
    """A pattern matching each of the views' table names as a word (every one: ``view_moot`` was once left out)."""
    return re.compile(r"\b(" + "|".join(tables) + r")\b")
