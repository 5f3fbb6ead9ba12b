"""The PostgreSQL backend: a store in a database, named by a ``postgresql://user:password@host:port/db`` URL.

eventsourcing's PostgreSQL module holds the events; ``?schema=NAME`` keeps
gamelog's tables in that schema (created if absent), so several stores can
share one database. An import holds the lock on the events table until it
commits; another writer waits up to the lock timeout. The views' writers
take turns through a transaction-scoped advisory lock (:data:`ADVISORY_LOCK`).

For a long-running process, :class:`ViewsRecorder` and :class:`ViewsProjection`
let eventsourcing's ``ProjectionRunner`` keep the views as games are imported
(PostgreSQL's LISTEN/NOTIFY; ``projections.views.runner`` says what the views are).

Needs psycopg (the ``eventsourcing[postgres]`` extra); only a PostgreSQL store imports this module.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, ClassVar, Iterable, Iterator, TypeVar
from urllib.parse import parse_qs, unquote, urlparse
from uuid import UUID

import psycopg
from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.projection import Projection

from gamelog.projections.store.backends.base import Backend, PortableCursor, view_tables
from gamelog.projections.store.errors import StoreBusy, StoreError
from gamelog.projections.store.library import copy_events_in, insert_tracking_in, lock_events_in

ADVISORY_LOCK = 0x67616D656C6F67  # "gamelog": the lock views writers take turns on
CREATE_LOCK = 0x676C  # "gl", with the schema's hashtext: the lock processes creating a store's tables take turns on
SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
"""A ``?schema=`` name: a letter or ``_``, then letters, digits or ``_``; at most 63 (PostgreSQL's limit).

It is folded to lower case, as PostgreSQL folds a name it is given unquoted."""
SYSTEM_SCHEMAS = frozenset({"information_schema"})
"""PostgreSQL's own schemas (with every ``pg_`` one): never a store's."""


def adapter(schema: str, tables: Iterable[str]) -> Any:
    """A function turning the views' SQLite-flavoured SQL into PostgreSQL's: ``%s`` placeholders, tables in ``schema``."""
    pattern = view_tables(tables)

    def adapt(sql: str) -> str:
        return pattern.sub(f'"{schema}".\\1', sql).replace("?", "%s")

    return adapt


class PostgresBackend(Backend):
    """A store in a PostgreSQL database (in the URL's ``?schema=``, else ``public``)."""

    name = "postgresql"
    mark = "%s"
    position_column = "notification_id"

    def contains(self, column: str) -> str:
        return f"position({self.mark} in {column}) > 0"
    _creating: Any = None  # the connection holding the creation lock, between prepare() and prepared()

    def environment(self) -> dict[str, str]:
        """The library's environment; raises StoreError for a schema name that is not a plain SQL identifier, or
        names one of PostgreSQL's own schemas once folded to lower case."""
        url = urlparse(self.location)
        given = parse_qs(url.query).get("schema", [""])[-1]
        if given and not SCHEMA_NAME.fullmatch(given):
            raise StoreError(f"?schema={given!r} is not a schema name gamelog takes: use letters, digits and _ "
                             "(not first), at most 63 characters")
        # PostgreSQL folds an unquoted name to lower case, and the library quotes it in some
        # statements and not in others: the name is folded once, here, so every statement names one schema.
        schema = given.lower()
        if schema in SYSTEM_SCHEMAS or schema.startswith("pg_"):
            raise StoreError(f"?schema={given!r} is one of PostgreSQL's own schemas: name a schema of gamelog's")
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": unquote(url.path.lstrip("/")) or "postgres",
            "POSTGRES_HOST": url.hostname or "localhost",
            "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            "POSTGRES_SCHEMA": schema,
            "POSTGRES_LOCK_TIMEOUT": str(self.lock_timeout),
            # An import computes each batch between statements; the library's 5 s
            # default would end a transaction whose client is merely slow.
            "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": "60",
        }

    def prepare(self, env: dict[str, str]) -> None:
        """Create the schema if absent; when gamelog's tables exist there already, do not create them again.

        Existing tables are not created again, because the library's ``CREATE INDEX
        IF NOT EXISTS`` waits for the lock an import holds, so opening a store would
        wait for the import. When they are missing, this process takes the schema's
        creation lock (:data:`CREATE_LOCK`, held until :meth:`prepared`) and looks
        again: two processes creating one store's tables at once collide in
        PostgreSQL's catalog (``pg_type_typname_nsp_index``), so they take turns,
        and the second finds the tables there. Raises StoreBusy when the lock is
        held past the lock timeout, StoreError when the database is unreachable.
        """
        self.schema = env["POSTGRES_SCHEMA"] or "public"
        conn = None
        try:
            conn = psycopg.connect(dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
                                   user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"], connect_timeout=5,
                                   autocommit=True)
            exists = self._tables_exist(conn)
            if not exists:
                conn.execute(psycopg.sql.SQL("SET lock_timeout = {}").format(
                    psycopg.sql.Literal(f"{self.lock_timeout}s")))
                conn.execute("SELECT pg_advisory_lock(%s, hashtext(%s))", (CREATE_LOCK, self.schema))
                self._creating = conn  # held until the library has created the tables: prepared() lets go
                exists = self._tables_exist(conn)
                if not exists:
                    conn.execute(psycopg.sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(
                        psycopg.sql.Identifier(self.schema)))
        except psycopg.Error as exc:
            if conn is not None:
                conn.close()
            self._creating = None
            if self.is_lock_timeout(exc):
                raise StoreBusy(f"the store {self.location} stayed locked by another process creating it "
                                "(waited the lock timeout)") from exc
            raise StoreError(f"cannot reach PostgreSQL: {exc}".strip()) from exc
        if self._creating is None:
            conn.close()
        if exists:
            env["CREATE_TABLE"] = "false"

    def _tables_exist(self, conn: Any) -> bool:
        # The library names the events table after the application: gamelog_events.
        return conn.execute("SELECT to_regclass(%s) IS NOT NULL AND to_regclass(%s) IS NOT NULL",
                            (f'"{self.schema}".gamelog_events', f'"{self.schema}".gamelog_games')).fetchone()[0]

    def listen(self) -> Listener:
        """A connection of its own, listening on the events table's channel, which every write notifies (the
        library's insert, and ``copy_events_in``): PostgreSQL's LISTEN/NOTIFY. Raises StoreError when the database
        is unreachable."""
        env = self.environment()
        try:
            conn = psycopg.connect(dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
                                   user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"], connect_timeout=5,
                                   autocommit=True)
            conn.execute(psycopg.sql.SQL("LISTEN {}").format(psycopg.sql.Identifier(self.recorder.channel_name)))
        except psycopg.Error as exc:
            raise StoreError(f"cannot reach PostgreSQL: {exc}".strip()) from exc
        return Listener(conn)

    def prepared(self) -> None:
        """Let go of the creation lock :meth:`prepare` took, if it took it (closing its connection releases it)."""
        conn, self._creating = self._creating, None
        if conn is not None:
            conn.close()

    def bind(self, recorder: Any) -> None:
        super().bind(recorder)
        self.schema = recorder.datastore.schema or "public"

    @contextmanager
    def writing(self, durable: bool = True) -> Iterator[Any]:
        with self.errors(), self.recorder.datastore.transaction(commit=True) as cursor:
            if not durable:  # this transaction's commit only: it returns before its WAL is flushed
                cursor.execute("SET LOCAL synchronous_commit = off")
            yield cursor

    def driver_errors(self) -> tuple[type[BaseException], ...]:
        return (psycopg.Error,)

    def is_lock_timeout(self, exc: BaseException) -> bool:
        return "lock timeout" in str(exc).lower()

    def is_collision(self, exc: BaseException) -> bool:
        return isinstance(exc, psycopg.errors.UniqueViolation)

    def table(self, name: str) -> str:
        return f'"{self.schema}"."{name}"'

    def originator(self, uid: UUID) -> UUID:
        return uid

    def originator_hex(self, stored: Any) -> str:
        return stored.hex

    def insert_rows(self, cursor: Any, uid: UUID, rows: list[tuple[int, str, bytes]]) -> None:
        # The recorder's own insert_events commits a transaction per call; an import
        # writes many batches in one transaction, so it copies them on the open cursor.
        copy_events_in(self.recorder, cursor, uid, rows)

    def tracking_recorder(self, application_name: str) -> PostgresTrackingRecorder:
        return PostgresTrackingRecorder(self.recorder.datastore,
                                        tracking_table_name=self.tracking_table_name(application_name))

    def tracking_table_name(self, application_name: str) -> str:
        return f"{application_name}_tracking"  # as the library's factory names it, so a ProjectionRunner shares it

    def views_cursor(self, cursor: Any, tables: Iterable[str]) -> PortableCursor:
        return PortableCursor(cursor, adapter(self.schema, tables))

    def lock_views(self, cursor: Any) -> None:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK,))

    def lock_events(self, cursor: Any) -> None:
        lock_events_in(self.recorder, cursor)  # as an append takes it: its lock timeout, then the events table's lock


class Listener:
    """A connection that LISTENs on a store's channel: :meth:`wait` returns when any process stored an event."""

    def __init__(self, conn: Any):
        self._conn = conn

    def wait(self, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for a notification; whether one came (every one come is taken).
        Raises StoreError when the connection is lost."""
        try:
            return any(True for _ in self._conn.notifies(timeout=timeout, stop_after=1))
        except psycopg.Error as exc:
            raise StoreError(f"lost PostgreSQL's notifications: {exc}".strip()) from exc

    def close(self) -> None:
        self._conn.close()


class ViewsRecorder(PostgresTrackingRecorder):
    """Views with their tracking record, written by eventsourcing's ``ProjectionRunner``.

    A subclass names the views' tables (``views_tables``), the statements
    creating them (``views_schema``), and folds one event into them
    (:meth:`fold_event`); this class writes the rows and the tracking record in
    one transaction, taking the lock ``ViewKeeper`` takes, so either may run, or both.
    """

    views_tables: ClassVar[tuple[str, ...]] = ()
    views_schema: ClassVar[tuple[str, ...]] = ()

    def views_cursor(self, cursor: Any) -> PortableCursor:
        return PortableCursor(cursor, adapter(self.datastore.schema or "public", self.views_tables))

    def create_table(self) -> None:
        super().create_table()
        with self.datastore.transaction(commit=True) as cursor:
            adapted = self.views_cursor(cursor)
            for statement in self.views_schema:
                adapted.execute(statement)

    def fold_event(self, cursor: PortableCursor, originator_hex: str, event: Any) -> None:
        """Fold one stored event (of the game ``originator_hex``) into the views, on ``cursor``."""
        raise NotImplementedError(f"{type(self).__name__} must say how an event folds into its views")

    def fold(self, envelope: Any, tracking: Tracking) -> None:
        """Fold one stored event into the views and move the tracking record, in one transaction."""
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK,))  # as ViewKeeper does
            # The advisory lock is held: the position read now is the latest committed one.
            if (self.max_tracking_id(tracking.application_name) or 0) >= tracking.notification_id:
                return  # a ViewKeeper folded it already
            self.fold_event(self.views_cursor(cursor), envelope.originator_id.hex, envelope.payload)
            insert_tracking_in(self, cursor, tracking)  # same transaction as the rows


TViews = TypeVar("TViews", bound=ViewsRecorder)


class ViewsProjection(Projection[TViews]):
    """A projection whose view is a :class:`ViewsRecorder`: each event is folded by it."""

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.view.fold(domain_event, tracking)
