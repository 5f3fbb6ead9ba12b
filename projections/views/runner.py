"""The views as an eventsourcing ``Projection``, for a ``ProjectionRunner`` on PostgreSQL.

A long-running process can keep the views current as games are imported,
instead of each import catching up (``projections.views.keeper``):

    runner = ProjectionRunner(application_class=StoreApplication, projection_class=GameViews,
                              view_class=ViewRecorder, env=store_env("postgresql://..."))

The runner subscribes to the store (PostgreSQL's LISTEN/NOTIFY) and hands each
event to :class:`GameViews`, which folds it with the same ``ViewFolder`` and
writes the rows and the tracking record in one transaction. The tracking
record is the one ``ViewKeeper`` keeps, so either may run, or both.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.application import Application
from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.projection import Projection

from gamelog.projections.store.application import GameStore
from gamelog.projections.store.library import insert_tracking_in
from gamelog.projections.views.folder import SCHEMA, ViewFolder
from gamelog.projections.views.sql import ADVISORY_LOCK, PortableCursor


class StoreApplication(GameStore):
    """The store as the runner constructs its application: from an eventsourcing environment."""

    name = GameStore.name  # the same tables as the store's, and the same tracking name

    def __init__(self, env: Any = None):
        Application.__init__(self, env=env)


class ViewRecorder(PostgresTrackingRecorder):
    """The views' tables on PostgreSQL with their tracking record: what a ``GameViews`` projection writes."""

    def create_table(self) -> None:
        super().create_table()

        with self.datastore.transaction(commit=True) as cursor:
            adapted = PortableCursor(cursor, self.datastore.schema or "public")
            for statement in SCHEMA:
                adapted.execute(statement)

    def fold(self, envelope: Any, tracking: Tracking) -> None:
        """Fold one stored event into the views and move the tracking record, in one transaction."""

        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK,))  # as ViewKeeper does
            # The advisory lock is held: the position read now is the latest committed one.
            if (self.max_tracking_id(tracking.application_name) or 0) >= tracking.notification_id:
                return  # a ViewKeeper folded it already
            folder = ViewFolder(PortableCursor(cursor, self.datastore.schema or "public"))
            folder.fold(envelope.originator_id.hex, envelope.payload)
            folder.flush()
            insert_tracking_in(self, cursor, tracking)  # same transaction as the rows


class GameViews(Projection[ViewRecorder]):
    """The views of every stored game, kept by a ``ProjectionRunner``."""

    name = GameStore.name  # so the runner's tracking table is the keeper's: gamelog_tracking

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.view.fold(domain_event, tracking)
