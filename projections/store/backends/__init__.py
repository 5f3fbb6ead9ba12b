"""The store's backends, and the registry that picks one, once, from the store's location.

A location without a URL scheme is a SQLite file's path; ``postgresql://``
(or ``postgres://``) names a PostgreSQL database. Each backend is one module
here (its eventsourcing factory and recorders, and a
:class:`~projections.store.backends.base.Backend` subclass); adding one is
that module plus one line in :data:`BACKENDS`. A backend's module is imported
only when a store of its kind is opened, so its driver is needed only then.
"""

from __future__ import annotations

import re
from typing import Any

from eventsourcing.utils import resolve_topic

from gamelog.projections.store.backends.base import Backend
from gamelog.projections.store.errors import StoreError

BACKENDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("",), "gamelog.projections.store.backends.sqlite:SQLiteBackend"),  # a path, no scheme
    (("postgresql", "postgres"), "gamelog.projections.store.backends.postgres:PostgresBackend"),
)
"""Each backend: the URL schemes it takes, and its :class:`Backend` class as a topic (``module:Class``)."""

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")


def scheme(location: str) -> str:
    """A location's URL scheme, lower case (``""`` for a path)."""
    found = _SCHEME.match(location)
    return found.group(1).lower() if found else ""


def backend_class(location: str) -> type[Backend]:
    """The backend of a store at ``location``; raises StoreError naming a scheme no backend takes."""
    wanted = scheme(location)
    for schemes, topic in BACKENDS:
        if wanted in schemes:
            return resolve_topic(topic)
    taken = ", ".join(f"{s}://" for schemes, _ in BACKENDS for s in schemes if s)
    raise StoreError(f"no store backend takes the URL scheme {wanted!r} ({wanted}://...): give a SQLite file path "
                     f"or a URL of {taken}")


def backend_for(location: str, lock_timeout: float | None = None) -> Backend:
    """The backend of a store at ``location``, set up (not yet open); raises StoreError."""
    return backend_class(location)(location, lock_timeout)


def scratch_database(name: str = "") -> Any:
    """A private SQLite database, whatever the store's backend: ``""`` a temporary file deleted when closed,
    ``":memory:"`` in memory (a DB-API connection: ``cursor()``, ``commit()``, ``close()``)."""
    from gamelog.projections.store.backends.sqlite import scratch_database as connect

    return connect(name)
