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

1. ``SQLiteTrackingRecorder._insert_tracking(c, tracking)`` and
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

2. ``SQLiteTrackingRecorder._max_tracking_id(application_name, c)`` and
   ``PostgresTrackingRecorder._max_tracking_id(application_name, curs)``, by :func:`max_tracking_id_in`: the
   views' position read again inside an entry's write transaction, on its own connection
   (``projections.views.keeper``'s ``alongside``). The public ``max_tracking_id`` reads it on a second connection
   of the pool while the transaction holds the first: with as many entries at once as the pool has connections,
   each held one and waited for a second, and the recorder stalled until the pool's timeout (issue 38: 500 and 503
   after 30 s on PostgreSQL). No request holds two connections.

Beside the private names, one function here does what a private step of the library does, with the recorder's
public attributes (:data:`COPIED_ATTRIBUTES`, checked by the same test module):
:func:`copy_events_in`, PostgreSQL's append. An import is atomic: all of a log's batches and its catalog row commit
together or not at all (``projections.store.backends.postgres``), so the recorder's public ``insert_events``, which
commits each call on its own connection, cannot write them. The library's private step for a batch in an open
transaction (``PostgresApplicationRecorder._insert_stored_events``, which gamelog called until issue 24) takes the
events table's lock, notifies the channel and inserts an array of composite values that psycopg adapts in Python,
about two thirds of a PostgreSQL import; :func:`copy_events_in` takes the same lock (the recorder's
``lock_table_statements``), writes the rows by ``COPY`` and notifies the same channel, on the import's cursor.

Measured with ``GAMELOG_TEST_POSTGRES=postgresql://postgres@127.0.0.1:5432/test
python tests/benchmarks/bench_library.py --events 20000 --runs 5`` (medians of
interleaved runs, each in a child process of its own; PostgreSQL 15 on the same
machine, 2 cores shared with other work, so the ratios matter more than the
absolute figures). The public alternatives are slower as well as not atomic, so
the private names stay:

=========================================  ====================  ====================  =======
20,000 stored events                       private (gamelog)     public alternative    public
=========================================  ====================  ====================  =======
SQLite, views rebuilt (1: tracking)        1.53 s, 28,035 ev/s   1.81 s, 23,694 ev/s   +18 %
PostgreSQL, import (before COPY)           7.10 s,  2,817 ev/s   8.23 s,  2,430 ev/s   +16 %
PostgreSQL, views rebuilt (1: tracking)    9.60 s,  4,457 ev/s   10.89 s, 3,928 ev/s   +13 %
PostgreSQL, runner per event (1: tracking) 13.3 ms               16.9 ms               +27 %
=========================================  ====================  ====================  =======

No longer used: ``PostgresApplicationRecorder._insert_stored_events`` (see :func:`copy_events_in`); and these,
because the public API does the same at a small cost:

* ``SQLiteConnection._sqlite_conn`` and ``SQLiteConnectionPool._create_connection``,
  for ``PRAGMA synchronous``: the store's pool sets it through the connection's
  public ``cursor()`` the first time its public ``get_connection`` hands a
  connection out (a set lookup per checkout).
* ``SQLiteApplicationRecorder._insert_events`` (a batched override): gamelog never
  calls the recorder's ``insert_events``; its SQLite appends run the recorder's
  public ``insert_events_statement`` on the import's cursor.
* ``_max_tracking_id`` elsewhere than inside an open write transaction (the runner, the keeper's catch-up): the
  public ``max_tracking_id`` reads it on a connection of its own, which sees the latest commit all the same. Same
  benchmark, one read: SQLite 144 µs public against 13 µs on the open cursor, once per 5,000-event page (a page
  folds in about 180 ms: +0.07 %); PostgreSQL 1.31 ms against 0.86 ms, once per page for the keeper (+0.04 %) and
  once per event for the runner (13.3 ms an event: +3.4 %).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable, Iterable
from uuid import UUID

from eventsourcing.persistence import Tracking
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
    PrivateName("eventsourcing.sqlite:SQLiteTrackingRecorder", "_insert_tracking",
                "self, c, tracking", "insert_tracking_in",
                "write the views' position in the transaction that writes their rows (public insert_tracking commits its own)"),
    PrivateName("eventsourcing.postgres:PostgresTrackingRecorder", "_insert_tracking",
                "self, curs, tracking", "insert_tracking_in",
                "write the views' position in the transaction that writes their rows (public insert_tracking commits its own)"),
    PrivateName("eventsourcing.sqlite:SQLiteTrackingRecorder", "_max_tracking_id",
                "self, application_name, c", "max_tracking_id_in",
                "read the views' position on the open write transaction's connection (public max_tracking_id takes a second)"),
    PrivateName("eventsourcing.postgres:PostgresTrackingRecorder", "_max_tracking_id",
                "self, application_name, curs", "max_tracking_id_in",
                "read the views' position on the open write transaction's connection (public max_tracking_id takes a second)"),
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


COPIED_ATTRIBUTES = ("lock_table_statements", "channel_name", "events_table_name")
"""The PostgreSQL application recorder's public attributes :func:`copy_events_in` (and :func:`lock_events_in`)
read, to do what its private insert step does (``tests/test_library_contract.py`` checks they are there, and what
they hold)."""


def copy_events_in(recorder: Any, cursor: Any, originator_id: UUID, rows: Iterable[tuple[int, str, bytes]]) -> None:
    """Insert a game's events on PostgreSQL by ``COPY``, inside the caller's open transaction (``cursor``).

    ``recorder`` is the store's ``PostgresApplicationRecorder``; ``rows`` are (version, topic, state). What the
    recorder's own insert step does, in its order of effects: the events table's lock (its
    ``lock_table_statements``: notification IDs commit in the order they are issued), the rows, in order (their
    notification IDs follow it), and the notification of its channel (delivered at commit). Psycopg adapts
    eventsourcing's array of composite values in Python, most of a PostgreSQL import's time; ``COPY`` in binary
    sends the rows as they are (``backends.copy_format`` packs them). Nothing is visible until the caller commits. Raises psycopg's ``UniqueViolation``
    (now or at commit) when another writer stored one of these versions.
    """
    from psycopg import sql  # only a PostgreSQL store comes here (psycopg is the postgres extra's)

    # Read here, not at the module's top: the backends import this module (a cycle when this one is read first).
    from gamelog.projections.store.backends.copy_format import binary_rows

    lock_events_in(recorder, cursor)
    table = sql.SQL("{}.{}").format(sql.Identifier(recorder.datastore.schema), sql.Identifier(recorder.events_table_name))
    with cursor.copy(sql.SQL("COPY {} (originator_id, originator_version, topic, state) FROM STDIN (FORMAT BINARY)")
                     .format(table)) as copy:
        copy.write(binary_rows(originator_id, rows))  # the whole batch, packed in one pass (copy_format)
    cursor.execute(sql.SQL("NOTIFY {}").format(sql.Identifier(recorder.channel_name)))


def lock_events_in(recorder: Any, cursor: Any) -> None:
    """Take the events table's lock on PostgreSQL as the recorder's insert step takes it (its
    ``lock_table_statements``: its lock timeout, then the lock), inside the caller's open transaction (``cursor``).

    :func:`copy_events_in` takes it before its rows; an import that folds the views in its transaction takes it
    first, so that no other writer's event can come before its own. Raises psycopg's error for a lock timeout.
    """
    for statement in recorder.lock_table_statements:
        cursor.execute(statement, prepare=True)


def max_tracking_id_in(recorder: Any, cursor: Any, application_name: str) -> int | None:
    """The tracking position of ``application_name`` read inside the caller's open transaction (``cursor``), on
    SQLite or PostgreSQL: a write that reads it holds one connection, not two. ``recorder`` as below."""
    return recorder._max_tracking_id(application_name, cursor)


def insert_tracking_in(recorder: Any, cursor: Any, tracking: Tracking) -> None:
    """Move a tracking record inside the caller's open transaction (``cursor``), on SQLite or PostgreSQL.

    ``recorder`` is a ``SQLiteTrackingRecorder`` or ``PostgresTrackingRecorder``.
    Raises eventsourcing's ``IntegrityError`` when the record is already at or
    past ``tracking.notification_id`` (the library's single-row tracking).
    """
    recorder._insert_tracking(cursor, tracking)
