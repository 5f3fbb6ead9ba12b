"""The views the reports read: where they stand against the store, and rebuilding them."""

from __future__ import annotations

from gamelog.projections.views.keeper import ViewKeeper, ViewStatus

from .progress import Progress
from .sources import opened_game_store

VIEWS = ("lines", "turns", "tracks", "findings", "results", "stats")
"""The views, as ``projections status`` names them (they move together: one position)."""


def views_status(store: str) -> ViewStatus:
    """The views' position against the head of the store's notification log (the store must exist)."""
    with opened_game_store(store, must_exist=True) as opened:
        return ViewKeeper(opened).status()


def rebuild_views(store: str, progress: Progress | None = None) -> int:
    """Rebuild every view from scratch (the store must exist); returns how many events were folded.

    ``progress`` is opened over the store's events, labelled ``rebuilding views``.
    """
    with opened_game_store(store, must_exist=True) as opened:
        keeper = ViewKeeper(opened)
        if progress is None:
            return keeper.rebuild(None)
        with progress(keeper.status().head, "rebuilding views") as to:
            done = 0

            def folded_more(n: int) -> None:
                nonlocal done
                done += n
                to(done)  # type: ignore[misc]  # only called when there is a display

            return keeper.rebuild(folded_more if to else None)
