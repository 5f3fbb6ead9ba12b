"""Keeping the views up to date with the store, or building them for one log in memory.

The views are an eventsourcing projection of the store's notification log:
:class:`ViewKeeper` pulls notifications after its tracking position, folds
them (``projections.views``) and writes the view rows and the new tracking
record in one transaction, so an interrupted catch-up resumes where it
stopped and never counts an event twice. eventsourcing's ``ProjectionRunner``
needs subscriptions, which its SQLite recorder lacks, hence the pull loop.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from eventsourcing.persistence import Tracking
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder

from projections.store import GameStore
from projections.views import SCHEMA, TABLES, ViewFolder

VIEWS = "gamelog-views"
"""The tracking name of the views (one position: they are written together)."""
PAGE = 1000


class ViewsUnavailable(Exception):
    """Raised when the store's kind has no view tables (views are kept on SQLite stores)."""


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
        if not isinstance(store.recorder.datastore, SQLiteDatastore):
            raise ViewsUnavailable("views and reports are kept on SQLite stores; this store is not one")
        self.store = store
        self.tracking = SQLiteTrackingRecorder(store.recorder.datastore)
        self.tracking.create_table()
        with store.transaction() as cursor:
            for statement in SCHEMA:
                cursor.execute(statement)
        self._folder: ViewFolder | None = None

    def status(self) -> ViewStatus:
        return ViewStatus(self.tracking.max_tracking_id(VIEWS) or 0, self.store.recorder.max_notification_id() or 0)

    def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Fold every notification after the tracking position; return how many were folded."""
        folded = 0
        position = self.tracking.max_tracking_id(VIEWS) or 0
        while True:
            page = self.store.recorder.select_notifications(start=position, limit=PAGE, inclusive_of_start=False)
            if not page:
                return folded
            with self.store.transaction() as cursor:
                # Another process may have folded this page since it was read: the write
                # lock is held now, so the position read here is the latest committed one.
                if (self.tracking._max_tracking_id(VIEWS, cursor) or 0) != position:
                    position = self.tracking._max_tracking_id(VIEWS, cursor) or 0
                    continue
                folder = ViewFolder(cursor)
                for notification in page:
                    envelope = self.store.mapper.to_domain_event(notification)
                    folder.fold(envelope.originator_id.hex, envelope.payload)
                folder.flush()
                position = page[-1].id
                self.tracking._insert_tracking(cursor, Tracking(VIEWS, position))  # same transaction as the rows
            folded += len(page)
            if progress:
                progress(len(page))

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        """Empty the views and fold the whole notification log again."""
        with self.store.transaction() as cursor:
            for table in TABLES:
                cursor.execute(f"DELETE FROM {table}")
            cursor.execute("DELETE FROM tracking WHERE application_name = ?", (VIEWS,))
        return self.catch_up(progress)

    def connection(self) -> Any:
        """A read transaction's cursor context on the views (``with keeper.connection() as c``)."""
        return self.store.recorder.datastore.transaction(commit=False)


def views_in_memory(events: Iterable[Any]) -> sqlite3.Connection:
    """The views of one game's events (a log file read in memory), in an in-memory database."""
    connection = sqlite3.connect(":memory:")
    cursor = connection.cursor()
    for statement in SCHEMA:
        cursor.execute(statement)
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
