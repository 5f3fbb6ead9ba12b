"""Keeping the views up to date with the store, or building them for one log in memory.

The views are an eventsourcing projection of the store's notification log:
:class:`ViewKeeper` pulls notifications after its tracking position, folds
them (``projections.views.folder``) and writes the view rows and the new tracking
record in one transaction, so an interrupted catch-up resumes where it
stopped and never counts an event twice. eventsourcing's ``ProjectionRunner``
needs subscriptions, which its SQLite recorder lacks, hence the pull loop; on
PostgreSQL the same views can also be kept by a ``ProjectionRunner``
(``projections.views.runner``), sharing this tracking record.
"""

from __future__ import annotations

import re
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from eventsourcing.persistence import Tracking
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder

from projections.store.application import GameStore
from projections.store.library import insert_tracking_in
from projections.views.folder import SCHEMA, TABLES, ViewFolder

VIEWS = GameStore.name
"""The tracking name of the views: the application they follow (one position: they are written together)."""
PAGE = 5000
_ADVISORY_LOCK = 0x67616D656C6F67  # "gamelog": the PostgreSQL lock views writers take turns on


_VIEW_TABLE = re.compile(r"\b(view_(?:lines|turns|tracks|findings|results|corrections|context))\b")


class PortableCursor:
    """A DB-API cursor that runs the views' SQLite-flavoured SQL on PostgreSQL too.

    On PostgreSQL it turns ``?`` into ``%s`` and names the view tables in the
    store's schema; on both it returns rows as tuples in column order.
    """

    def __init__(self, cursor: Any, schema: str | None):
        self._cursor = cursor
        self._schema = schema

    def execute(self, sql: str, params: Any = ()) -> None:
        if self._schema is not None:
            sql = _VIEW_TABLE.sub(f'"{self._schema}".\\1', sql).replace("?", "%s")
        self._cursor.execute(sql, params)

    def executemany(self, sql: str, rows: list[tuple]) -> None:
        if self._schema is not None:
            sql = _VIEW_TABLE.sub(f'"{self._schema}".\\1', sql).replace("?", "%s")
        self._cursor.executemany(sql, rows)

    def fetchall(self) -> list[tuple]:
        return [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in self._cursor.fetchall()]

    def fetchone(self) -> tuple | None:
        row = self._cursor.fetchone()
        return None if row is None else tuple(row.values()) if isinstance(row, dict) else tuple(row)


@dataclass(frozen=True)
class ViewStatus:
    """Where the views stand against the store's notification log."""

    position: int
    head: int

    @property
    def behind(self) -> int:
        return self.head - self.position


class ViewKeeper:
    """Brings the views of a store up to date, reports their position, rebuilds them."""

    def __init__(self, store: GameStore):
        self.store = store
        datastore = store.recorder.datastore
        if isinstance(datastore, SQLiteDatastore):
            self.schema = None
            self.tracking = SQLiteTrackingRecorder(datastore)
        else:
            from projections.views.runner import ViewRecorder  # a PostgreSQL store only

            self.schema = datastore.schema or "public"
            self.tracking = ViewRecorder(datastore, tracking_table_name=f"{VIEWS}_tracking")
        self._create_tables()

    def _create_tables(self, attempts: int = 5) -> None:
        """Create the tracking and view tables where they are missing.

        Two processes creating them at once can collide: on PostgreSQL,
        ``CREATE TABLE IF NOT EXISTS`` on the catalog; on either backend, both
        find the tracking table absent and both insert the library's migration
        record, the second failing with "Failed to record tracking for
        __migration__". The one that loses tries again, and finds the tables there.
        """
        for attempt in range(attempts):
            try:
                self.tracking.create_table()
                with self.transaction() as cursor:
                    create_views(cursor)
                return
            except Exception as exc:  # psycopg's own, or eventsourcing's wrapping of it
                text = str(exc)
                collided = "already exists" in text or "duplicate key" in text or "__migration__" in text
                if attempt == attempts - 1 or not collided:
                    raise
                time.sleep(0.1 * (attempt + 1))

    @contextmanager
    def transaction(self) -> Iterator[PortableCursor]:
        """A write transaction on the store, through a cursor the views' SQL runs on."""
        with self.store.transaction() as cursor:
            yield PortableCursor(cursor, self.schema)

    @contextmanager
    def connection(self) -> Iterator[PortableCursor]:
        """A read transaction's cursor on the views (``with keeper.connection() as cursor``)."""
        with self.store.recorder.datastore.transaction(commit=False) as cursor:
            yield PortableCursor(cursor, self.schema)

    def status(self) -> ViewStatus:
        return ViewStatus(self.tracking.max_tracking_id(VIEWS) or 0, self.store.recorder.max_notification_id() or 0)

    def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Fold every notification after the tracking position; return how many were folded."""
        folded = 0
        position = self.tracking.max_tracking_id(VIEWS) or 0
        while True:
            page = self._notifications(position)
            if not page:
                return folded
            with self.store.transaction() as raw:
                if self.schema is not None:
                    # SQLite's transaction holds the write lock from its start; on PostgreSQL,
                    # views writers take turns through a transaction-scoped advisory lock.
                    raw.execute("SELECT pg_advisory_xact_lock(%s)", (_ADVISORY_LOCK,))
                # Another process may have folded this page since it was read. This
                # transaction holds the lock every views writer takes, so the position
                # read now (on another connection) is the latest committed one.
                latest = self.tracking.max_tracking_id(VIEWS) or 0
                if latest != position:
                    position = latest
                    continue
                folder = ViewFolder(PortableCursor(raw, self.schema))
                decode = self.store.mapper.decode_payload
                for notification_id, originator, topic, state in page:
                    folder.fold(originator, decode(topic, state))
                folder.flush()
                position = page[-1][0]
                insert_tracking_in(self.tracking, raw, Tracking(VIEWS, position))  # same transaction as the rows
            folded += len(page)
            if progress:
                progress(len(page))

    def _notifications(self, after: int) -> list[tuple[int, str, str, bytes]]:
        """(notification id, aggregate ID as hex, topic, state) of the next page of the store's log."""
        if self.schema is not None:
            return [(n.id, n.originator_id.hex, n.topic, n.state) for n in
                    self.store.recorder.select_notifications(start=after, limit=PAGE, inclusive_of_start=False)]
        # On SQLite, the log's rows as they are: the recorder would build a UUID per row.
        with self.store.recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT rowid, originator_id, topic, state FROM {self.store.recorder.events_table_name} "
                           "WHERE rowid > ? ORDER BY rowid LIMIT ?", (after, PAGE))
            return [tuple(row) for row in cursor.fetchall()]

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        """Empty the views and fold the whole notification log again."""
        tracking_table = "tracking" if self.schema is None else f'"{self.schema}".gamelog_tracking'
        with self.transaction() as cursor:
            for table in TABLES:
                cursor.execute(f"DELETE FROM {table}")
            cursor.execute(f"DELETE FROM {tracking_table} WHERE application_name = ?", (VIEWS,))
        return self.catch_up(progress)


def create_views(cursor: Any) -> None:
    """Create the view tables where they are missing."""
    for statement in SCHEMA:
        cursor.execute(statement)


def views_in_memory(events: Iterable[Any]) -> sqlite3.Connection:
    """The views of one game's events (a log file read in memory), in an in-memory database."""
    connection = sqlite3.connect(":memory:")
    cursor = connection.cursor()
    create_views(cursor)
    folder = ViewFolder(cursor)
    for event in events:
        folder.fold("log", event)
    folder.flush()
    connection.commit()
    return connection


def table_dump(cursor: Any) -> dict[str, list[tuple]]:
    """Every view table's rows, sorted: for comparing two builds of the views."""
    out = {}
    for table in TABLES:
        cursor.execute(f"SELECT * FROM {table}")
        rows = [tuple(r) for r in cursor.fetchall()]
        if table == "view_context":  # the aggregate ID differs between a store and a log file
            rows = [r[1:] for r in rows]
        out[table] = sorted(rows, key=repr)
    return out
