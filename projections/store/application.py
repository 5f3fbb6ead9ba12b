"""The event store: an eventsourcing application holding one aggregate per game.

A game's aggregate ID is derived from its header's ``id`` (``uuid5``), so a
second import of the same game finds the first and two importers of a new game
collide on version 1 instead of creating two. Events are the domain's msgspec
Structs, stored through :class:`~projections.store.mapper.StructMapper`.

The default store is a SQLite file (``gamelog.sqlite``), opened in WAL mode by
eventsourcing; this module also sets ``PRAGMA synchronous=FULL`` on every
connection and checks that it took, so a committed import survives a crash.
A ``postgresql://user:password@host:port/db`` URL selects eventsourcing's
PostgreSQL module instead; ``?schema=NAME`` keeps the tables in that schema
(created if absent), so several stores can share one database.

Beside the events, a small catalog table (``gamelog_games``) lists the stored
games; it is written in the same transaction as the events it summarises.

A store the user may not write (a read-only file, or a file in a read-only
folder) is opened read-only: everything that reads works, and a write stops with
:class:`StoreReadOnly`. Stored bytes that cannot be read (an event that does not
decode, a topic that is not one of the registered games' event classes, a
damaged SQLite page) raise :class:`StoreDamaged`, naming the event.

Writers wait for each other: an import holds the write lock (SQLite's database
lock, PostgreSQL's lock on the events table) until it commits, and another
writer waits up to ``lock_timeout`` seconds (``GAMELOG_LOCK_TIMEOUT``, 60 by
default) before giving up with :class:`StoreBusy`. Readers never wait, and
never see an uncommitted import.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator, NamedTuple
from urllib.parse import parse_qs, quote, unquote, urlparse
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import Application
from eventsourcing.persistence import DatabaseError, MapperDeserialisationError, OperationalError, StoredEvent
from eventsourcing.sqlite import (
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteCursor,
    SQLiteFactory,
    SQLiteTransaction,
)

from gamelog.projections.store.chain import GENESIS, StoredLink, event_hash, link, open_sealed, seal
from gamelog.projections.store.library import insert_events_in
from gamelog.projections.store.mapper import StructMapper, encoded

DEFAULT_STORE = "gamelog.sqlite"
SYNCHRONOUS = "FULL"
_SYNCHRONOUS_CODES = {"OFF": 0, "NORMAL": 1, "FULL": 2, "EXTRA": 3}
GAME_NAMESPACE = uuid5(NAMESPACE_URL, "https://gamelog.invalid/games")
PAGE = 1000
LOCK_TIMEOUT = 60
"""Seconds a writer waits for another writer's lock (``GAMELOG_LOCK_TIMEOUT`` overrides)."""


class StoreError(Exception):
    """Raised when the store cannot be opened or is not what gamelog expects."""


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


_DAMAGE = ("malformed", "not a database", "disk i/o error", "database corrupt")


def is_damage(exc: BaseException) -> bool:
    """Whether a database error means the store's file is damaged (SQLite's "database disk image is malformed")."""
    text = str(exc).lower()
    return isinstance(exc, (sqlite3.DatabaseError, DatabaseError)) and any(word in text for word in _DAMAGE)


SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
"""A ``?schema=`` name: a letter or ``_``, then letters, digits or ``_``; at most 63 (PostgreSQL's limit)."""


def game_uuid(game_id: str) -> UUID:
    """The aggregate ID of the game whose header says ``"id": game_id``."""
    return uuid5(GAME_NAMESPACE, game_id)


def is_postgres(store: str) -> bool:
    """Whether ``store`` names a PostgreSQL database rather than a SQLite file."""
    return store.startswith(("postgresql://", "postgres://"))


class _DurablePool(SQLiteConnectionPool):
    """SQLite connections with ``PRAGMA synchronous`` set, and checked, on each.

    The pragma is per connection and the pool has no public hook for a new
    one, so it is set the first time the pool hands a connection out (through
    the connection's public ``cursor()``; see ``projections.store.library``).
    Raises :class:`StoreError` when SQLite does not take it.
    """

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._durable: weakref.WeakSet[SQLiteConnection] = weakref.WeakSet()

    def get_connection(self, timeout: float | None = None, *, is_writer: bool | None = None) -> SQLiteConnection:
        connection = super().get_connection(timeout, is_writer=is_writer)
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


class _ImmediateTransaction(SQLiteTransaction):
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
        self.datastore.pool = _DurablePool(db_name=old.db_name, lock_timeout=old.lock_timeout)
        old.close()


@dataclass(frozen=True)
class GameSummary:
    """A catalog row: what ``gamelog games`` lists."""

    id: str
    game: str
    players: list[str]
    events: int
    last_line: int
    finished: bool
    winner: str | None
    versions: int = 0
    fingerprint: str = ""


_CATALOG = (
    "CREATE TABLE IF NOT EXISTS {table} ("
    "id TEXT PRIMARY KEY, originator_id TEXT NOT NULL, game TEXT NOT NULL, players TEXT NOT NULL, "
    "events BIGINT NOT NULL, last_line BIGINT NOT NULL, finished INTEGER NOT NULL, winner TEXT, "
    "versions BIGINT NOT NULL, fingerprint TEXT NOT NULL)"
)
_UPSERT = (
    "INSERT INTO {table} (id, originator_id, game, players, events, last_line, finished, winner, versions, fingerprint) "
    "VALUES ({marks}) ON CONFLICT (id) DO UPDATE SET originator_id = excluded.originator_id, game = excluded.game, "
    "players = excluded.players, events = excluded.events, "
    "last_line = excluded.last_line, finished = excluded.finished, winner = excluded.winner, "
    "versions = excluded.versions, fingerprint = excluded.fingerprint"
)
_SELECT_PAGE = ("SELECT originator_version, topic, state, {position} FROM {table} WHERE originator_id = {mark} "
                "AND originator_version > {mark} ORDER BY originator_version LIMIT {mark}")


class _Row(NamedTuple):
    """A stored event as read: what replay and verification need of it, and its place in the notification log."""

    originator_version: int
    topic: str
    state: bytes | None
    notification_id: int


_SELECT_GAMES = "SELECT id, game, players, events, last_line, finished, winner, versions, fingerprint FROM {table} ORDER BY id"


@dataclass(frozen=True)
class _Dialect:
    """The catalog's SQL for one backend: table name (schema-qualified on PostgreSQL) and placeholders."""

    catalog: str
    mark: str

    def sql(self, template: str) -> str:
        return template.format(table=self.catalog, marks=", ".join([self.mark] * 10))


def _lock_timeout(lock_timeout: float | None) -> int:
    """The lock timeout in whole seconds (both backends take whole seconds); raises StoreError."""
    if lock_timeout is None:
        raw = os.environ.get("GAMELOG_LOCK_TIMEOUT", "").strip() or str(LOCK_TIMEOUT)
        try:
            lock_timeout = float(raw)
        except ValueError:
            raise StoreError(f"GAMELOG_LOCK_TIMEOUT must be a number of seconds, not {raw!r}") from None
    return max(1, round(lock_timeout))


def store_env(store: str, lock_timeout: float | None = None) -> dict[str, str]:
    """The eventsourcing environment for a store given as a path or a ``postgresql://`` URL.

    A URL's ``?schema=NAME`` becomes ``POSTGRES_SCHEMA``. Raises
    :class:`StoreError` for a bad ``GAMELOG_LOCK_TIMEOUT`` or a schema name
    that is not a plain SQL identifier (checked before anything is created).
    """
    timeout = str(_lock_timeout(lock_timeout))
    if is_postgres(store):
        url = urlparse(store)
        query = parse_qs(url.query)
        schema = query.get("schema", [""])[-1]
        if schema and not SCHEMA_NAME.fullmatch(schema):
            raise StoreError(f"?schema={schema!r} is not a schema name gamelog takes: use letters, digits and _ "
                             "(not first), at most 63 characters")
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": unquote(url.path.lstrip("/")) or "postgres",
            "POSTGRES_HOST": url.hostname or "localhost",
            "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            "POSTGRES_SCHEMA": schema,
            "POSTGRES_LOCK_TIMEOUT": timeout,
            # An import computes each batch between statements; the library's 5 s
            # default would end a transaction whose client is merely slow.
            "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": "60",
        }
    return {"PERSISTENCE_MODULE": f"{__name__}:DurableSQLiteFactory", "SQLITE_DBNAME": store,
            "SQLITE_LOCK_TIMEOUT": timeout}


def _read_only_name(path: str) -> str | None:
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


def _prepare_postgres(env: dict[str, str]) -> bool:
    """Create the schema if absent; return whether gamelog's tables already exist there.

    Existing tables are not created again, because the library's ``CREATE INDEX
    IF NOT EXISTS`` waits for the lock an import holds, so opening a store would
    wait for the import. Raises :class:`StoreError` when the database is unreachable.
    """
    import psycopg  # only a PostgreSQL store needs it (the eventsourcing[postgres] extra)

    schema = env["POSTGRES_SCHEMA"] or "public"
    try:
        with psycopg.connect(dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
                             user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"], connect_timeout=5,
                             autocommit=True) as conn:
            # The library names the events table after the application: gamelog_events.
            exists = conn.execute("SELECT to_regclass(%s) IS NOT NULL AND to_regclass(%s) IS NOT NULL",
                                  (f'"{schema}".gamelog_events', f'"{schema}".gamelog_games')).fetchone()[0]
            if not exists:
                try:
                    conn.execute(psycopg.sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(psycopg.sql.Identifier(schema)))
                except psycopg.errors.UniqueViolation:
                    pass  # another process created it at the same moment
            return bool(exists)
    except psycopg.Error as exc:
        raise StoreError(f"cannot reach PostgreSQL: {exc}".strip()) from exc


class GameStore(Application):
    """The stored games: read a game's history, append to it, list the catalog."""

    name = "gamelog"

    def __init__(self, store: str = DEFAULT_STORE, *, lock_timeout: float | None = None):
        """Open (creating if needed) the store at a SQLite path or a ``postgresql://`` URL.

        ``lock_timeout`` is how long, in seconds, a write waits for another
        writer. Raises :class:`StoreError` when the store cannot be opened.
        """
        self.location = store
        env = store_env(store, lock_timeout)
        self.postgres = is_postgres(store)
        read_only_name = None if self.postgres else _read_only_name(store)
        self.read_only = read_only_name is not None
        if self.read_only:
            env["SQLITE_DBNAME"] = read_only_name
            env["CREATE_TABLE"] = "false"
        if self.postgres:
            if _prepare_postgres(env):
                env["CREATE_TABLE"] = "false"
            schema = '"' + (env["POSTGRES_SCHEMA"] or "public") + '"'
            self.dialect = _Dialect(f"{schema}.gamelog_games", "%s")
        else:
            self.dialect = _Dialect("gamelog_games", "?")
        try:
            super().__init__(env=env)
            if not self.read_only:
                # A plain transaction: when the table exists this writes nothing, so
                # opening a store never waits for an import's write lock.
                with self.recorder.datastore.transaction(commit=True) as cursor:
                    cursor.execute(self.dialect.sql(_CATALOG))
        except StoreError:
            raise
        except Exception as exc:  # eventsourcing raises several kinds for a bad location
            if is_damage(exc):
                raise StoreDamaged(f"the store {store} is damaged: {exc}") from exc
            raise StoreError(f"cannot open the store {store}: {exc}") from exc

    def construct_mapper(self) -> StructMapper:
        return StructMapper()

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """A write transaction: committed on normal exit, rolled back on any exception.

        On SQLite it holds the write lock from the start (see
        :class:`_ImmediateTransaction`). Raises eventsourcing's
        ``OperationalError`` when another writer keeps the lock past the lock
        timeout, and :class:`StoreReadOnly` on a store opened read-only.
        """
        if self.read_only:
            raise StoreReadOnly(f"the store {self.location} is read-only for you (you may not write the file or its "
                                "folder): nothing can be stored or updated there")
        if self.postgres:
            with self.recorder.datastore.transaction(commit=True) as cursor:
                yield cursor
            return
        datastore = self.recorder.datastore
        with datastore.get_connection(commit=True) as conn:
            with _ImmediateTransaction(conn, commit=True) as cursor, cursor:
                yield cursor

    def append(self, cursor: Any, game_id: str, first_version: int, payloads: list[Any], previous: bytes) -> bytes:
        """Insert a game's events, numbered from ``first_version``, inside an open :meth:`transaction`.

        Each event is sealed with its chain hash (``projections.store.chain``),
        following ``previous``, the chain hash of the event before the first;
        returns the chain hash after the last. Raises eventsourcing's
        ``IntegrityError`` (at once, or when the transaction commits) when
        another writer stored one of these versions.
        """
        rows, head = sealed_rows(first_version, payloads, previous)
        self.insert_rows(cursor, game_id, rows)
        return head

    def insert_rows(self, cursor: Any, game_id: str, rows: list[tuple[int, str, bytes]]) -> None:
        """Insert sealed rows (version, topic, sealed state: :func:`sealed_rows`) of a game inside an open transaction.

        Raises eventsourcing's ``IntegrityError`` (at once, or when the
        transaction commits) when another writer stored one of these versions.
        """
        uid = game_uuid(game_id)
        # The recorder's own insert_events commits a transaction per call; an import
        # writes many batches in one transaction, so it inserts on the open cursor.
        if self.postgres:
            insert_events_in(self.recorder, cursor, [StoredEvent(uid, v, t, st) for v, t, st in rows])
        else:
            hexed = uid.hex
            cursor.executemany(self.recorder.insert_events_statement, [(hexed, v, t, st) for v, t, st in rows])

    def head(self, game_id: str) -> bytes:
        """The chain hash of a game's last stored event (``GENESIS`` for a game not stored).

        Raises :class:`StoreDamaged` when that event is not a sealed event.
        """
        uid = game_uuid(game_id)
        mark = self.dialect.mark
        latest = self._read(f"SELECT originator_version, state FROM {self.events_table} WHERE originator_id = {mark} "
                            "ORDER BY originator_version DESC LIMIT 1", (uid if self.postgres else uid.hex,))
        if not latest:
            return GENESIS
        try:
            return open_sealed(latest[0]["state"])[0]
        except Exception as exc:  # NULL, or bytes that are not a sealed event
            version = latest[0]["originator_version"]
            raise StoreDamaged(f"event {version} of game {game_id!r} cannot be read ({exc}); "
                               f"`gamelog verify {game_id}` names every damaged event", game_id, version) from exc

    def stored_links(self, game_id: str) -> Iterator[StoredLink]:
        """A game's stored events as they are in the store (sealed bytes), in version order."""
        for stored in self._pages(game_id):
            yield StoredLink(stored.originator_version, stored.topic, stored.state, stored.notification_id)

    def save_summary(self, cursor: Any, summary: GameSummary) -> None:
        """Write a game's catalog row inside an open :meth:`transaction`."""
        cursor.execute(self.dialect.sql(_UPSERT),
                       (summary.id, game_uuid(summary.id).hex, summary.game, json.dumps(summary.players),
                        summary.events, summary.last_line, int(summary.finished), summary.winner,
                        summary.versions, summary.fingerprint))

    def _pages(self, game_id: str) -> Iterator[Any]:
        """A game's stored events (version, topic, state), in version order, a page at a time."""
        uid = game_uuid(game_id)
        version = 0
        while True:
            page = self._page(uid, version)
            yield from page
            if len(page) < PAGE:
                return
            version = page[-1].originator_version

    def _page(self, uid: UUID, after: int) -> list[_Row]:
        """One page of a game's events, as they are (the recorder would build a UUID and a StoredEvent for each,
        a third of the time of replaying a game, and does not give the notification ID)."""
        if self.postgres:
            sql = _SELECT_PAGE.format(position="notification_id", table=self.events_table, mark="%s")
            return [_Row(r["originator_version"], r["topic"], None if r["state"] is None else bytes(r["state"]),
                         r["notification_id"]) for r in self._read(sql, (uid, after, PAGE))]
        sql = _SELECT_PAGE.format(position="rowid", table=self.recorder.events_table_name, mark="?")
        return [_Row(*row) for row in self._read(sql, (uid.hex, after, PAGE))]

    def history(self, game_id: str) -> Iterator[Any]:
        """The stored events of a game, decoded, in order.

        Raises :class:`StoreDamaged`, naming the event, when one cannot be
        decoded (its bytes, NULL, a topic that is no registered game's event
        class), when the first is not a header, or when an event is not of
        its game's kinds (``stored_types``).
        """
        decode = self.mapper.decode_payload
        allowed: set[type] = set()
        for stored in self._pages(game_id):
            version = stored.originator_version
            try:
                event = decode(stored.topic, stored.state)
            except MapperDeserialisationError as exc:
                raise self._damaged(game_id, version, f"cannot be read: {exc}") from exc
            if not allowed:
                rules = header_rules(event)
                if rules is None:
                    raise self._damaged(game_id, version, "is not the game's header, which every history starts with")
                allowed = set(rules.stored_types)
            elif type(event) not in allowed:
                raise self._damaged(game_id, version, f"is a {stored.topic}, which is not an event of its game")
            yield event

    @staticmethod
    def _damaged(game_id: str, version: int, what: str) -> StoreDamaged:
        return StoreDamaged(f"event {version} of game {game_id!r} {what}; "
                            f"`gamelog verify {game_id}` names every damaged event", game_id, version)

    def _read(self, statement: str, params: tuple = ()) -> list[Any]:
        """Rows of one read-only statement (rows index by column name on both backends).

        Raises :class:`StoreDamaged` when SQLite finds its file damaged.
        """
        try:
            with self.recorder.datastore.transaction(commit=False) as cursor:
                cursor.execute(statement, params)
                return cursor.fetchall()
        except (sqlite3.DatabaseError, DatabaseError) as exc:
            if is_damage(exc):
                raise StoreDamaged(f"the store {self.location} is damaged: {exc}") from exc
            raise

    def games(self) -> list[GameSummary]:
        """Every stored game, by id."""
        return [self._summary(r) for r in self._read(self.dialect.sql(_SELECT_GAMES))]

    def summary(self, game_id: str) -> GameSummary | None:
        """The catalog row of one game, or None."""
        mark = self.dialect.mark
        rows = self._read(self.dialect.sql(_SELECT_GAMES).replace(" ORDER BY id", f" WHERE id = {mark}"), (game_id,))
        return self._summary(rows[0]) if rows else None

    def _summary(self, r: Any) -> GameSummary:
        try:
            players = json.loads(r["players"])
        except ValueError as exc:
            raise StoreDamaged(f"the catalog row of game {r['id']!r} is damaged: its players are not JSON") from exc
        return GameSummary(r["id"], r["game"], players, r["events"], r["last_line"],
                           bool(r["finished"]), r["winner"], r["versions"], r["fingerprint"])

    @property
    def events_table(self) -> str:
        """The events table's name as SQL (schema-qualified on PostgreSQL)."""
        if self.postgres:
            return f'"{self.recorder.datastore.schema}"."{self.recorder.events_table_name}"'
        return self.recorder.events_table_name

    def count_events(self, game_id: str | None = None) -> int:
        """How many events are stored: of one game, or of every game."""
        if game_id is None:
            rows = self._read(f"SELECT COUNT(*) AS n FROM {self.events_table}")
        else:
            uid = game_uuid(game_id)
            rows = self._read(f"SELECT COUNT(*) AS n FROM {self.events_table} WHERE originator_id = {self.dialect.mark}",
                              (uid if self.postgres else uid.hex,))
        return rows[0]["n"]

    def notifications(self, after: int, limit: int) -> list[tuple[int, str, int, str, bytes | None]]:
        """(notification id, aggregate ID as hex, version, topic, state) of the store's log after ``after``.

        The rows as they are: the recorder would build a UUID per row, and on
        PostgreSQL fails on a NULL state instead of letting it be named.
        """
        if self.postgres:
            rows = self._read(f"SELECT notification_id, originator_id, originator_version, topic, state FROM "
                              f"{self.events_table} WHERE notification_id > %s ORDER BY notification_id LIMIT %s",
                              (after, limit))
            return [(r["notification_id"], r["originator_id"].hex, r["originator_version"], r["topic"],
                     None if r["state"] is None else bytes(r["state"])) for r in rows]
        rows = self._read(f"SELECT rowid, originator_id, originator_version, topic, state FROM {self.events_table} "
                          "WHERE rowid > ? ORDER BY rowid LIMIT ?", (after, limit))
        return [tuple(row) for row in rows]

    def stored_game_ids(self) -> list[str]:
        """The id of every game with stored events, read from its first event (the header), sorted.

        Raises :class:`StoreDamaged` when a first event cannot be read or is not its aggregate's header.
        """
        mark = self.dialect.mark
        rows = self._read(f"SELECT originator_id, topic, state FROM {self.events_table} WHERE originator_version = {mark}", (1,))
        ids = []
        for row in rows:
            uid = row["originator_id"] if isinstance(row["originator_id"], UUID) else UUID(row["originator_id"])
            try:
                game_id = self.mapper.decode_payload(row["topic"], row["state"]).event.id
            except (MapperDeserialisationError, AttributeError) as exc:
                raise StoreDamaged(f"the first event of the stored game {uid} is not a header it can read ({exc}); "
                                   "`gamelog verify` on that game names the damage") from exc
            if game_uuid(game_id) != uid:
                raise StoreDamaged(f"the first event of the stored game {uid} records the header of {game_id!r}, "
                                   "another game's")
            ids.append(game_id)
        return sorted(ids)

    def has_game(self, game_id: str) -> bool:
        return self.count_events(game_id) > 0


def sealed_rows(first_version: int, payloads: list[Any], previous: bytes) -> tuple[list[tuple[int, str, bytes]], bytes]:
    """The stored rows (version, topic, sealed state) of events numbered from ``first_version``, and the chain head after them.

    Each is sealed with its chain hash following ``previous``, the chain hash
    of the event before the first. Pure: an archive import seals in worker
    processes and one writer inserts (:meth:`GameStore.insert_rows`).
    """
    rows = []
    for version, payload in enumerate(payloads, first_version):
        topic, state = encoded(payload)
        previous = link(previous, event_hash(topic, state))
        rows.append((version, topic, seal(previous, state)))
    return rows, previous


def header_rules(event: Any) -> Any:
    """The rules of the game whose header ``event`` records, or None when it records no header."""
    from gamelog.domain.games import GAMES  # the store's read side only: the mapper resolves topics through it too

    header = getattr(event, "event", None)
    rules = GAMES.get(getattr(header, "game", None))  # type: ignore[arg-type]
    return rules if rules is not None and isinstance(header, rules.header_type) else None
