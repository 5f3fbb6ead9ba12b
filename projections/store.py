"""The event store: an eventsourcing application holding one aggregate per game.

A game's aggregate ID is derived from its header's ``id`` (``uuid5``), so a
second import of the same game finds the first and two importers of a new game
collide on version 1 instead of creating two. Events are the domain's msgspec
Structs, stored through :class:`~projections.mapper.StructMapper`.

The default store is a SQLite file (``gamelog.sqlite``), opened in WAL mode by
eventsourcing; this module also sets ``PRAGMA synchronous=FULL`` on every
connection and checks that it took, so a committed import survives a crash.
A ``postgresql://`` URL selects eventsourcing's PostgreSQL module instead.

Beside the events, a small catalog table (``gamelog_games``) lists the stored
games; it is written in the same transaction as the events it summarises.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator
from urllib.parse import unquote, urlparse
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import Application
from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool, SQLiteFactory

from projections.mapper import Envelope, StructMapper

DEFAULT_STORE = "gamelog.sqlite"
SYNCHRONOUS = "FULL"
_SYNCHRONOUS_CODES = {"OFF": 0, "NORMAL": 1, "FULL": 2, "EXTRA": 3}
GAME_NAMESPACE = uuid5(NAMESPACE_URL, "https://gamelog.invalid/games")
PAGE = 1000


class StoreError(Exception):
    """Raised when the store cannot be opened or is not what gamelog expects."""


def game_uuid(game_id: str) -> UUID:
    """The aggregate ID of the game whose header says ``"id": game_id``."""
    return uuid5(GAME_NAMESPACE, game_id)


class _DurablePool(SQLiteConnectionPool):
    """SQLite connections with ``PRAGMA synchronous`` set, and checked, on each."""

    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        raw = connection._sqlite_conn  # eventsourcing keeps the sqlite3 connection here
        raw.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
        got = raw.execute("PRAGMA synchronous").fetchone()[0]
        if got != _SYNCHRONOUS_CODES[SYNCHRONOUS]:
            raise StoreError(f"SQLite refused PRAGMA synchronous={SYNCHRONOUS} (it reports {got})")
        return connection


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


_CATALOG = (
    "CREATE TABLE IF NOT EXISTS gamelog_games ("
    "id TEXT PRIMARY KEY, originator_id TEXT NOT NULL, game TEXT NOT NULL, players TEXT NOT NULL, "
    "events INTEGER NOT NULL, last_line INTEGER NOT NULL, finished INTEGER NOT NULL, winner TEXT)"
)
_UPSERT = (
    "INSERT INTO gamelog_games (id, originator_id, game, players, events, last_line, finished, winner) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET events = excluded.events, "
    "last_line = excluded.last_line, finished = excluded.finished, winner = excluded.winner"
)


def store_env(store: str) -> dict[str, str]:
    """The eventsourcing environment for a store given as a path or a ``postgresql://`` URL."""
    if store.startswith(("postgresql://", "postgres://")):
        url = urlparse(store)
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": url.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": url.hostname or "localhost",
            "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
        }
    return {"PERSISTENCE_MODULE": f"{__name__}:DurableSQLiteFactory", "SQLITE_DBNAME": store}


class GameStore(Application):
    """The stored games: read a game's history, append to it, list the catalog."""

    name = "gamelog"

    def __init__(self, store: str = DEFAULT_STORE):
        self.location = store
        try:
            super().__init__(env=store_env(store))
        except Exception as exc:  # eventsourcing raises several kinds for a bad location
            raise StoreError(f"cannot open the store {store}: {exc}") from exc
        with self.transaction() as cursor:
            cursor.execute(_CATALOG)

    def construct_mapper(self) -> StructMapper:
        return StructMapper()

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """A write transaction: committed on normal exit, rolled back on any exception."""
        with self.recorder.datastore.transaction(commit=True) as cursor:
            yield cursor

    def append(self, cursor: Any, envelopes: list[Envelope]) -> None:
        """Insert events inside an open :meth:`transaction` (so a whole log commits at once)."""
        stored: list[StoredEvent] = [self.mapper.to_stored_event(e) for e in envelopes]
        # The recorder's own insert_events opens a transaction per call; an import
        # writes many batches in one transaction, so it uses the per-cursor step.
        self.recorder._insert_events(cursor, stored)

    def save_summary(self, cursor: Any, summary: GameSummary) -> None:
        """Write a game's catalog row inside an open :meth:`transaction`."""
        cursor.execute(_UPSERT, (summary.id, game_uuid(summary.id).hex, summary.game, json.dumps(summary.players),
                                 summary.events, summary.last_line, int(summary.finished), summary.winner))

    def history(self, game_id: str) -> Iterator[Any]:
        """The stored events of a game, in order, read a page at a time."""
        uid = game_uuid(game_id)
        version = 0
        while True:
            page = self.recorder.select_events(uid, gt=version, limit=PAGE)
            for stored in page:
                yield self.mapper.to_domain_event(stored).payload
            if len(page) < PAGE:
                return
            version = page[-1].originator_version

    def games(self) -> list[GameSummary]:
        """Every stored game, by id."""
        with self.recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute("SELECT id, game, players, events, last_line, finished, winner FROM gamelog_games ORDER BY id")
            rows = cursor.fetchall()
        return [GameSummary(r[0], r[1], json.loads(r[2]), r[3], r[4], bool(r[5]), r[6]) for r in rows]

    def has_game(self, game_id: str) -> bool:
        return bool(self.recorder.select_events(game_uuid(game_id), limit=1))
