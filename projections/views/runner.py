"""The views as an eventsourcing ``Projection``, for a ``ProjectionRunner`` on PostgreSQL.

A long-running process can keep the views current as games are imported,
instead of each import catching up (``projections.views.keeper``):

    runner = ProjectionRunner(application_class=StoreApplication, projection_class=GameViews,
                              view_class=ViewRecorder, env=store_env("postgresql://..."))

The runner subscribes to the store (PostgreSQL's LISTEN/NOTIFY) and hands each
event to :class:`GameViews`, which folds it with the same ``ViewFolder``; the
backend's recorder (``projections.store.backends.postgres``) writes the rows
and the tracking record in one transaction. The tracking record is the one
``ViewKeeper`` keeps, so either may run, or both.
"""

from __future__ import annotations

from typing import Any

from gamelog.projections.store.application import GameStore, StoreApplication
from gamelog.projections.store.backends.base import PortableCursor
from gamelog.projections.store.backends.postgres import ViewsProjection, ViewsRecorder
from gamelog.projections.views.folder import KEPT, SCHEMA, ViewFolder

__all__ = ["GameViews", "StoreApplication", "ViewRecorder"]


class ViewRecorder(ViewsRecorder):
    """The views' tables on PostgreSQL with their tracking record: what a ``GameViews`` projection writes."""

    views_tables = tuple(KEPT)
    views_schema = tuple(SCHEMA)

    def fold_event(self, cursor: PortableCursor, originator_hex: str, event: Any) -> None:
        folder = ViewFolder(cursor)
        folder.fold(originator_hex, event)
        folder.flush()


class GameViews(ViewsProjection[ViewRecorder]):
    """The views of every stored game, kept by a ``ProjectionRunner``."""

    name = GameStore.name  # so the runner's tracking table is the keeper's: gamelog_tracking
