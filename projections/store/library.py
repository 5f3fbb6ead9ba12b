"""The one module that uses eventsourcing's private (``_``-prefixed) names, each with its reason.

gamelog is written against eventsourcing 9.5's public API. Where that API has
no way to do what gamelog must, the private name is called here, and only
here: the rest of gamelog calls the functions below. :data:`PRIVATE_NAMES`
lists each name with the signature it had when it was written against, and
``tests/test_library_contract.py`` checks every entry against the installed
library and exercises each function on a real SQLite store (and PostgreSQL
when ``GAMELOG_TEST_POSTGRES`` names one), so a library upgrade that changes
one fails there, naming it.

What the public API lacks is the same in each case: its writing methods
(``insert_events``, ``insert_tracking``) open and commit a transaction of their
own, and gamelog needs them inside a transaction it holds open.

1. ``PostgresApplicationRecorder._insert_stored_events(curs, stored_events)``,
   by :func:`insert_events_in`. An import is atomic: all of a log's batches
   and its catalog row commit together or not at all (``projections.store.backends.postgres``).
   The public ``insert_events`` commits each call on its own connection, so an
   import written with it could stop half stored, its catalog row apart. The
   private step is the library's own: it takes the events table's lock (so
   notification IDs commit in order), notifies listeners (the
   ``ProjectionRunner``) and inserts, on the cursor given. On SQLite the store
   needs nothing private: it runs the recorder's public ``insert_events_statement``.
2. ``SQLiteTrackingRecorder._insert_tracking(c, tracking)`` and
   ``PostgresTrackingRecorder._insert_tracking(curs, tracking)``, by
   :func:`insert_tracking_in`. The views' rows and their tracking record are
   written in one transaction (``projections.store.backends.base``, for
   ``projections.views.keeper``; ``projections.store.backends.postgres``, for
   ``projections.views.runner``), so a catch-up cut short resumes where it
   stopped and never folds an event twice: folding a page again is not
   harmless (its lines are in ``view_lines`` already, whose primary key stops
   the catch-up, and its changes would count twice). The public
   ``insert_tracking`` would commit the position after the rows, and a crash
   in between leaves the page folded but not tracked. The library's own tests of a projection's view (its PostgreSQL
   event counters) call this method the same way, inside
   ``datastore.transaction(commit=True)``.

Measured with ``GAMELOG_TEST_POSTGRES=postgresql://postgres@127.0.0.1:5432/test
python tests/benchmarks/bench_library.py --events 20000 --runs 5`` (medians of
interleaved runs, each in a child process of its own; PostgreSQL 15 on the same
machine, 2 cores shared with other work, so the ratios matter more than the
absolute figures). The public alternatives are slower as well as not atomic, so
the private names stay:

=========================================  ====================  ====================  =======
20,000 stored events                       private (gamelog)     public alternative    public
=========================================  ====================  ====================  =======
SQLite, views rebuilt (2: tracking)        1.53 s, 28,035 ev/s   1.81 s, 23,694 ev/s   +18 %
PostgreSQL, import (1: events)             7.10 s,  2,817 ev/s   8.23 s,  2,430 ev/s   +16 %
PostgreSQL, views rebuilt (2: tracking)    9.60 s,  4,457 ev/s   10.89 s, 3,928 ev/s   +13 %
PostgreSQL, runner per event (2: tracking) 13.3 ms               16.9 ms               +27 %
=========================================  ====================  ====================  =======

No longer used, because the public API does the same at a small cost:

* ``SQLiteConnection._sqlite_conn`` and ``SQLiteConnectionPool._create_connection``,
  for ``PRAGMA synchronous``: the store's pool sets it through the connection's
  public ``cursor()`` the first time its public ``get_connection`` hands a
  connection out (a set lookup per checkout).
* ``SQLiteApplicationRecorder._insert_events`` (a batched override): gamelog never
  calls the recorder's ``insert_events``; its SQLite appends run the recorder's
  public ``insert_events_statement`` on the import's cursor.
* ``SQLiteTrackingRecorder._max_tracking_id`` and ``PostgresTrackingRecorder._max_tracking_id``:
  the views' position, read again once the write transaction holds the lock
  every views writer takes (SQLite's write lock, PostgreSQL's advisory lock).
  The public ``max_tracking_id`` reads it on a connection of its own, which
  sees the latest commit all the same. Same benchmark, one read: SQLite 144 µs
  public against 13 µs on the open cursor, once per 5,000-event page (a page
  folds in about 180 ms: +0.07 %); PostgreSQL 1.31 ms against 0.86 ms, once
  per page for the keeper (+0.04 %) and once per event for the runner
  (13.3 ms an event: +3.4 %).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from eventsourcing.persistence import StoredEvent, Tracking
from eventsourcing.utils import resolve_topic


@dataclass(frozen=True)
class PrivateName:
    """One private name of eventsourcing that gamelog uses: where it is, its signature, who calls it, why."""

    owner: str
    """The library class holding it, as a topic (``module:Class``)."""
    name: str
    parameters: str
    """Its parameters when gamelog was written against it (see :func:`parameters`)."""
    used_by: str
    """The function of this module that calls it."""
    reason: str

    @property
    def qualname(self) -> str:
        return f"{self.owner.split(':')[1]}.{self.name}"


PRIVATE_NAMES: tuple[PrivateName, ...] = (
    PrivateName("eventsourcing.postgres:PostgresApplicationRecorder", "_insert_stored_events",
                "self, curs, stored_events, **kwargs", "insert_events_in",
                "insert a batch of events inside the import's own transaction (public insert_events commits its own)"),
    PrivateName("eventsourcing.sqlite:SQLiteTrackingRecorder", "_insert_tracking",
                "self, c, tracking", "insert_tracking_in",
                "write the views' position in the transaction that writes their rows (public insert_tracking commits its own)"),
    PrivateName("eventsourcing.postgres:PostgresTrackingRecorder", "_insert_tracking",
                "self, curs, tracking", "insert_tracking_in",
                "write the views' position in the transaction that writes their rows (public insert_tracking commits its own)"),
)


def parameters(function: Callable[..., Any]) -> str:
    """A function's parameters as written in its ``def``, without annotations or defaults: ``"self, c, tracking"``."""
    out = []
    for parameter in inspect.signature(function).parameters.values():
        prefix = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}.get(parameter.kind, "")
        out.append(prefix + parameter.name)
    return ", ".join(out)


def resolve(entry: PrivateName) -> Any:
    """The library's attribute that ``entry`` names; raises ``AttributeError`` when it is gone."""
    return getattr(resolve_topic(entry.owner), entry.name)


def insert_events_in(recorder: Any, cursor: Any, stored_events: Sequence[StoredEvent]) -> None:
    """Insert events on PostgreSQL inside the caller's open transaction (``cursor``).

    ``recorder`` is the store's ``PostgresApplicationRecorder``. Takes the
    events table's lock, notifies subscribers and inserts; nothing is visible
    until the caller commits. Raises eventsourcing's ``IntegrityError`` (now or
    at commit) when another writer stored one of these versions.
    """
    recorder._insert_stored_events(cursor, stored_events)


def insert_tracking_in(recorder: Any, cursor: Any, tracking: Tracking) -> None:
    """Move a tracking record inside the caller's open transaction (``cursor``), on SQLite or PostgreSQL.

    ``recorder`` is a ``SQLiteTrackingRecorder`` or ``PostgresTrackingRecorder``.
    Raises eventsourcing's ``IntegrityError`` when the record is already at or
    past ``tracking.notification_id`` (the library's single-row tracking).
    """
    recorder._insert_tracking(cursor, tracking)
