"""The SQLite backend: a store in one file (``gamelog.sqlite``), the default.

eventsourcing's SQLite module opens the file in WAL mode; the factory here
gives it a pool that also sets ``PRAGMA synchronous=FULL`` on every
connection and checks that it took, so a committed import survives a crash.
A write transaction takes the write lock when it begins (``BEGIN
IMMEDIATE``), so writers wait their turn for up to the lock timeout. A file
the user may not write (or in a folder they may not write) is opened read-only.

Also here: the scratch databases the views are folded into when they cannot
be written to the store (:func:`scratch_database`), which are SQLite whatever
the store's backend.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import weakref
from contextlib import closing, contextmanager
from typing import Any, Iterable, Iterator, Sequence
from urllib.parse import quote
from uuid import UUID

from eventsourcing.persistence import ConnectionUnavailableError, DatabaseError, OperationalError
from eventsourcing.sqlite import (
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteCursor,
    SQLiteFactory,
    SQLiteTrackingRecorder,
    SQLiteTransaction,
)

from gamelog.projections.store.backends.base import Backend, PortableCursor
from gamelog.projections.store.errors import NotAStore, StoreBusy, StoreError

try:
    import fcntl
except ImportError:  # not on Windows: creating a store there is not serialised
    fcntl = None  # type: ignore[assignment]

SYNCHRONOUS = "FULL"
_SYNCHRONOUS_CODES = {"OFF": 0, "NORMAL": 1, "FULL": 2, "EXTRA": 3}
_DAMAGE = ("malformed", "not a database", "disk i/o error", "database corrupt")


def is_damage(exc: BaseException) -> bool:
    """Whether a database error means the store's file is damaged (SQLite's "database disk image is malformed")."""
    text = str(exc).lower()
    return isinstance(exc, (sqlite3.DatabaseError, DatabaseError)) and any(word in text for word in _DAMAGE)


class DurablePool(SQLiteConnectionPool):
    """SQLite connections with ``PRAGMA synchronous`` set, and checked, on each.

    The pragma is per connection and the pool has no public hook for a new
    one, so it is set the first time the pool hands a connection out (through
    the connection's public ``cursor()``; see ``projections.store.library``).
    Raises :class:`StoreError` when SQLite does not take it.
    """

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._durable: weakref.WeakSet[SQLiteConnection] = weakref.WeakSet()
        self._writers = threading.Lock()
        """Held by the thread that asked for the writer connection, from before it joins the pool's queue until it
        returns it. The pool's queue holds its place while it waits for the writer, so a second writer waiting
        there would keep the first one's reads inside its write transaction (the views' position, the stored
        game's head) from any connection: both would wait for each other until the lock timeout. A second
        writer waits here instead, out of the queue."""

    def get_connection(self, timeout: float | None = None, *, is_writer: bool | None = None) -> SQLiteConnection:
        if is_writer is True and not self._writers.acquire(timeout=self.pool_timeout if timeout is None else timeout):
            raise ConnectionUnavailableError("Timed out waiting for return of writer")
        try:
            connection = super().get_connection(timeout, is_writer=is_writer)
        except BaseException:
            if is_writer is True:
                self._writers.release()
            raise
        if connection not in self._durable:
            try:
                with connection.cursor() as raw:
                    raw.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
                    got = raw.execute("PRAGMA synchronous").fetchone()[0]
                if got != _SYNCHRONOUS_CODES[SYNCHRONOUS]:
                    raise StoreError(f"SQLite refused PRAGMA synchronous={SYNCHRONOUS} (it reports {got})")
            except BaseException:
                self.put_connection(connection)
                raise
            self._durable.add(connection)
        return connection

    def put_connection(self, conn: SQLiteConnection) -> None:
        writer = conn.is_writer is True
        try:
            super().put_connection(conn)
        finally:
            if writer:
                self._writers.release()


class ImmediateTransaction(SQLiteTransaction):
    """A SQLite write transaction that takes the write lock when it begins (``BEGIN IMMEDIATE``).

    The library's plain ``BEGIN`` takes it at the first write; a transaction
    that has read by then and finds another writer's commit newer than its
    snapshot fails at once with "database is locked", without waiting. Taking
    the lock first makes every writer wait its turn (up to the lock timeout).
    Raises eventsourcing's ``OperationalError`` when the wait times out.
    """

    def __enter__(self) -> SQLiteCursor:
        cursor = self.connection.cursor()
        try:
            cursor.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise OperationalError(exc) from exc
        return cursor


class DurableSQLiteFactory(SQLiteFactory):
    """eventsourcing's SQLite module, with the durable connection pool above."""

    def __init__(self, env: Any):
        super().__init__(env)
        old = self.datastore.pool
        # A writer of this process waits for another of its threads' writes as long as for another process's
        # (the lock timeout), not the pool's own 5 s: two devices' entries at once are both decided.
        self.datastore.pool = DurablePool(db_name=old.db_name, lock_timeout=old.lock_timeout,
                                          pool_timeout=float(old.lock_timeout or 5))
        old.close()


def read_only_name(path: str) -> str | None:
    """The SQLite URI to read an existing store the user may not write, or None when they may write it.

    A read-only file is opened with ``mode=ro``. In a folder the user may not
    write, SQLite cannot create the WAL's ``-shm`` file that a WAL reader
    needs, so the file is opened ``immutable`` unless a ``-wal`` file is there
    (then its readers use it). Root may write anything: never read-only.
    """
    if not os.path.isfile(path):
        return None
    folder = os.path.dirname(os.path.abspath(path))
    file_ok, folder_ok = os.access(path, os.W_OK), os.access(folder, os.W_OK)
    if file_ok and folder_ok:
        return None
    mode = "immutable=1" if not folder_ok and not os.path.exists(path + "-wal") else "mode=ro"
    return f"file:{quote(os.path.abspath(path))}?{mode}"


SQLITE_HEADER = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file."""

EVENTS_TABLE = "stored_events"
"""The table every gamelog store has (eventsourcing's events)."""


def check_a_store(path: str) -> None:
    """Raise :class:`NotAStore` when ``path`` is a file that is not a SQLite database (its first bytes say so), or a
    SQLite database holding tables but none of gamelog's: a README given as ``--store`` is not a damaged store.

    A missing or empty file is a store yet to be made; a file that cannot be read here is left to SQLite to say why.
    """
    if os.path.isdir(path):
        raise NotAStore(f"{path} is a folder, not a gamelog store (give a SQLite file's path)")
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except OSError:
        return
    if not head:
        return
    if head != SQLITE_HEADER:
        raise NotAStore(f"{path} is not a gamelog store: it is not a SQLite database")
    try:
        with closing(sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True, timeout=1)) as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error:
        return  # damaged, locked: opening it says which
    # A table of gamelog's left (the catalog, a view) with the events gone is a damaged store, not another database.
    ours = {t for t in tables if t == EVENTS_TABLE or t.startswith(("gamelog_", "view_"))}
    if tables and not ours:
        raise NotAStore(f"{path} is not a gamelog store: a SQLite database without gamelog's tables")


def scratch_database(name: str = "") -> sqlite3.Connection:
    """A private SQLite database: ``""`` a temporary file deleted when closed (any size), ``":memory:"`` in memory."""
    return sqlite3.connect(name)


class SQLiteBackend(Backend):
    """A store in a SQLite file: the location is its path."""

    name = "sqlite"
    mark = "?"
    position_column = "rowid"
    bytes_states = True  # a BLOB comes as bytes (see state())

    def environment(self) -> dict[str, str]:
        return {"PERSISTENCE_MODULE": f"{__name__}:DurableSQLiteFactory", "SQLITE_DBNAME": self.location,
                "SQLITE_LOCK_TIMEOUT": str(self.lock_timeout)}

    _creating: Any = None  # the new file's descriptor holding its creation lock, between prepare() and prepared()

    def prepare(self, env: dict[str, str]) -> None:
        """Open a file the user may not write read-only; take a new (or empty) file's creation lock.

        Processes creating one store at once take turns: SQLite's switch of a
        new file to WAL fails at once ("database is locked"), without waiting
        the lock timeout, when another connection is making the same switch.
        The lock is ``flock`` on the file (SQLite's own locks are ``fcntl``
        ones, which it does not touch), held until :meth:`prepared`. Raises
        StoreBusy when it is held past the lock timeout.
        """
        check_a_store(self.location)
        name = read_only_name(self.location)
        self.read_only = name is not None
        if name is not None:
            env["SQLITE_DBNAME"] = name
            env["CREATE_TABLE"] = "false"
        elif fcntl is not None and self._is_new():
            self._creating = self._creation_lock()

    def _is_new(self) -> bool:
        """Whether the store's file is still to be made: absent, or empty (another process has just created it)."""
        if self.location == ":memory:" or self.location.startswith("file:"):
            return False
        try:
            return os.path.getsize(self.location) == 0
        except OSError:
            return True

    def _creation_lock(self) -> int | None:
        """The descriptor of the store's file, locked (``flock``) for creating it; None when it cannot be opened
        (the library then says why)."""
        try:
            fd = os.open(self.location, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:
            return None
        deadline = time.monotonic() + self.lock_timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(fd)
                    raise StoreBusy(f"the store {self.location} stayed locked by another process creating it "
                                    "(waited the lock timeout)") from None
                time.sleep(0.02)

    def prepared(self) -> None:
        fd, self._creating = self._creating, None
        if fd is not None:
            os.close(fd)  # releases the flock

    @contextmanager
    def writing(self, durable: bool = True) -> Iterator[Any]:
        with self.errors(), self.recorder.datastore.get_connection(commit=True) as conn:
            if durable:
                with ImmediateTransaction(conn, commit=True) as cursor, cursor:
                    yield cursor
                return
            # In WAL mode, NORMAL syncs at checkpoints, not at each commit; the commits stay in order, so a
            # later durable commit makes this one durable too. The connection is FULL again after it.
            with conn.cursor() as raw:
                raw.execute("PRAGMA synchronous=NORMAL")
            try:
                with ImmediateTransaction(conn, commit=True) as cursor, cursor:
                    yield cursor
            finally:
                with conn.cursor() as raw:
                    raw.execute(f"PRAGMA synchronous={SYNCHRONOUS}")

    def driver_errors(self) -> tuple[type[BaseException], ...]:
        return (sqlite3.Error,)

    def is_damage(self, exc: BaseException) -> bool:
        return is_damage(exc)

    def is_lock_timeout(self, exc: BaseException) -> bool:
        return "database is locked" in str(exc).lower()

    def is_collision(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError)

    def table(self, name: str) -> str:
        return name

    def originator(self, uid: UUID) -> str:
        return uid.hex

    def originator_hex(self, stored: Any) -> str:
        return stored

    @staticmethod
    def state(stored: Any) -> bytes | None:
        return stored  # sqlite3 gives a BLOB as bytes already

    def read_columns(self, statement: str, params: tuple, names: tuple[str, ...]) -> list[Sequence[Any]]:
        with self.reading() as cursor:
            # Plain tuples, transposed in one C call: the library's connections make a sqlite3.Row of each row
            # (a fifth of reading a page of a history), and the columns are known by position here.
            raw = cursor.sqlite_cursor
            raw.row_factory = None
            raw.execute(statement, params)
            rows = raw.fetchall()
        return list(zip(*rows)) if rows else [() for _ in names]

    def notification_rows(self, rows: list[Any]) -> list[tuple[int, str, int, str, bytes | None]]:
        # SQLite keeps the aggregate ID as hex and a state as bytes already: each row is its columns, in order.
        return [tuple(r) for r in rows]

    def insert_rows(self, cursor: Any, uid: UUID, rows: list[tuple[int, str, bytes]]) -> None:
        # The recorder's own insert_events commits a transaction per call; an import
        # writes many batches in one transaction, so it inserts on the open cursor.
        hexed = uid.hex
        cursor.executemany(self.recorder.insert_events_statement, [(hexed, v, t, st) for v, t, st in rows])

    def tracking_recorder(self, application_name: str) -> SQLiteTrackingRecorder:
        return SQLiteTrackingRecorder(self.recorder.datastore)

    def tracking_table_name(self, application_name: str) -> str:
        return "tracking"  # the library's one tracking table, whatever the application

    def views_cursor(self, cursor: Any, tables: Iterable[str]) -> PortableCursor:
        # eventsourcing's cursor wraps sqlite3's (its connection opens another cursor in the same transaction).
        return PortableCursor(cursor, connection=getattr(cursor, "sqlite_cursor", cursor).connection)
