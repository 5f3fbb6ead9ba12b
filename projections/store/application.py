"""The event store: an eventsourcing application holding one aggregate per game.

A game's aggregate ID is derived from its header's ``id`` (``uuid5``), so a
second import of the same game finds the first and two importers of a new game
collide on version 1 instead of creating two. Events are the domain's msgspec
Structs, stored through :class:`~projections.store.mapper.StructMapper`.

Where the store lives is its backend's business (``projections.store.backends``,
chosen once from the location: a SQLite file's path, the default
``gamelog.sqlite``, or a ``postgresql://user:password@host:port/db`` URL, with
``?schema=NAME`` to keep the tables in that schema). This module speaks only
to the backend's interface: no SQLite or PostgreSQL here.

Beside the events, a small catalog table (``gamelog_games``) lists the stored
games; it is written in the same transaction as the events it summarises.

The store raises only gamelog's errors (``projections.store.errors``). A store
the user may not write (a read-only file, or a file in a read-only folder) is
opened read-only: everything that reads works, and a write stops with
:class:`StoreReadOnly`. Stored bytes that cannot be read (an event that does not
decode, a topic that is not one of the registered games' event classes, a
damaged SQLite page) raise :class:`StoreDamaged`, naming the event.

Writers wait for each other: an import holds the write lock until it commits,
and another writer waits up to ``lock_timeout`` seconds
(``GAMELOG_LOCK_TIMEOUT``, 60 by default) before giving up with
:class:`StoreBusy`; two writers of the same event version collide with
:class:`VersionCollision`. Readers never wait, and never see an uncommitted import.
"""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from itertools import count
from dataclasses import dataclass
from typing import Any, Callable, Iterator, NamedTuple, Sequence
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import Application
from eventsourcing.persistence import MapperDeserialisationError

from gamelog.domain.events import TurnFinished
from gamelog.projections.store.backends import backend_class, backend_for
from gamelog.projections.store.backends.base import LOCK_TIMEOUT
from gamelog.projections.store.chain import GENESIS, StoredLink, open_sealed, sealed_chain
from gamelog.projections.store.errors import (NotAStore, StoreBusy, StoreDamaged, StoreError, StoreReadOnly,
                                              VersionCollision)
from gamelog.projections.store.mapper import StructMapper, encoded, encoded_topic

__all__ = ["DEFAULT_STORE", "LOCK_TIMEOUT", "GameStore", "GameSummary", "StoreApplication", "StoreBusy",
           "NotAStore", "StoreDamaged", "StoreError", "StoreReadOnly", "VersionCollision", "game_uuid", "header_rules",
           "is_postgres", "sealed_rows", "store_env"]

DEFAULT_STORE = "gamelog.sqlite"
GAME_NAMESPACE = uuid5(NAMESPACE_URL, "https://gamelog.invalid/games")
PAGE = 1000
TURN_SLACK = 16
"""Events read past the one that ends a turn (``history(turn=)``): the rest of its line, and the next line's first."""
FIRST_PAGE_MOST = 4 * PAGE
"""The most rows ``history(turn=)`` reads at once to reach a turn's end: a turn far into a long game is reached a
page at a time, as any history is read (at 1,000,000 lines, one query to a middle turn held 190 MB)."""


def game_uuid(game_id: str) -> UUID:
    """The aggregate ID of the game whose header says ``"id": game_id``."""
    return uuid5(GAME_NAMESPACE, game_id)


def is_postgres(store: str) -> bool:
    """Whether ``store`` names a PostgreSQL database rather than a SQLite file (False for a scheme no backend takes)."""
    try:
        return backend_class(store).name == "postgresql"
    except StoreError:
        return False


def store_env(store: str, lock_timeout: float | None = None) -> dict[str, str]:
    """The eventsourcing environment for a store given as a path or a URL (its backend's).

    Raises :class:`StoreError` for a bad ``GAMELOG_LOCK_TIMEOUT``, a scheme no
    backend takes, or a ``?schema=`` name that is not a plain SQL identifier
    (checked before anything is created).
    """
    return backend_for(store, lock_timeout).environment()


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
    versions: int = 0
    fingerprint: str = ""


CATALOG = "gamelog_games"
_CATALOG_COLUMNS = "id, originator_id, game, players, events, last_line, finished, winner, versions, fingerprint"
_CREATE_CATALOG = (
    "CREATE TABLE IF NOT EXISTS {table} ("
    "id TEXT PRIMARY KEY, originator_id TEXT NOT NULL, game TEXT NOT NULL, players TEXT NOT NULL, "
    "events BIGINT NOT NULL, last_line BIGINT NOT NULL, finished INTEGER NOT NULL, winner TEXT, "
    "versions BIGINT NOT NULL, fingerprint TEXT NOT NULL)"
)
SECRETS = "gamelog_secrets"
"""The table of the secrets a store keeps for its servers (the recorder's host secret): made on first use."""
_CREATE_SECRETS = "CREATE TABLE IF NOT EXISTS {table} (name TEXT PRIMARY KEY, value TEXT NOT NULL)"
ENTRY_KEYS = "gamelog_entry_keys"
"""The table of the clients' idempotency keys of the entries they stored, with the answer each had: made on first use."""
_CREATE_ENTRY_KEYS = ("CREATE TABLE IF NOT EXISTS {table} (game TEXT NOT NULL, key TEXT NOT NULL, answer TEXT, "
                      "PRIMARY KEY (game, key))")
_UPSERT = (
    "INSERT INTO {table} (" + _CATALOG_COLUMNS + ") "
    "VALUES ({marks}) ON CONFLICT (id) DO UPDATE SET originator_id = excluded.originator_id, game = excluded.game, "
    "players = excluded.players, events = excluded.events, "
    "last_line = excluded.last_line, finished = excluded.finished, winner = excluded.winner, "
    "versions = excluded.versions, fingerprint = excluded.fingerprint"
)
_SELECT_GAMES = "SELECT id, game, players, events, last_line, finished, winner, versions, fingerprint FROM {table}"


_COLUMNS = ("originator_version", "topic", "state")


class _Row(NamedTuple):
    """A stored event as read: what replay and verification need of it, and its place in the notification log."""

    originator_version: int
    topic: str
    state: bytes | None
    notification_id: int


class GameStore(Application):
    """The stored games: read a game's history, append to it, list the catalog.

    Every public method raises only gamelog's errors (``projections.store.errors``).
    """

    name = "gamelog"

    def __init__(self, store: str = DEFAULT_STORE, *, lock_timeout: float | None = None):
        """Open (creating if needed) the store at a SQLite path or a ``postgresql://`` URL.

        ``lock_timeout`` is how long, in seconds, a write waits for another
        writer. Raises :class:`StoreError` when the store cannot be opened
        (:class:`StoreDamaged` when its file is damaged).
        """
        self.location = store
        self.backend = backend_for(store, lock_timeout)
        self._writing = threading.local()  # this thread's open write transaction: what its reads use meanwhile
        env = self.backend.environment()
        self.backend.prepare(env)
        self.read_only = self.backend.read_only
        try:
            super().__init__(env=env)
            self.backend.bind(self.recorder)
            if not self.read_only:
                # A plain transaction: when the table exists this writes nothing, so
                # opening a store never waits for an import's write lock.
                with self.recorder.datastore.transaction(commit=True) as cursor:
                    cursor.execute(self._sql(_CREATE_CATALOG))
        except StoreError:
            raise
        except Exception as exc:  # the library raises several kinds for a bad location
            translated = self.backend.translate(exc)
            if isinstance(translated, (StoreDamaged, StoreBusy)):
                raise translated from exc
            raise StoreError(f"cannot open the store {store}: {exc}") from exc
        finally:
            self.backend.prepared()  # the tables exist now (or never will): another creator may look

    def construct_mapper(self) -> StructMapper:
        return StructMapper()

    def _sql(self, template: str) -> str:
        """A catalog statement in the backend's dialect."""
        return template.format(table=self.backend.table(CATALOG), marks=", ".join([self.backend.mark] * 10))

    @contextmanager
    def transaction(self, durable: bool = True) -> Iterator[Any]:
        """A write transaction's cursor: committed on normal exit, rolled back on any exception.

        It holds the write lock from the start. Raises :class:`StoreBusy` when
        another writer keeps the lock past the lock timeout,
        :class:`VersionCollision` (now or at commit) when another writer stored
        the same event version first, and :class:`StoreReadOnly` on a store
        opened read-only; what the body raises passes as it is, unless it is
        the database's (then it is one of gamelog's errors). ``durable=False``
        for a transaction that writes only the views and their position (the
        backend's ``writing``: its commit may be lost in a crash, whole).
        """
        if self.read_only:
            raise StoreReadOnly(f"the store {self.location} is read-only for you (you may not write the file or its "
                                "folder): nothing can be stored or updated there")
        with self.backend.writing(durable) as cursor:
            self._writing.cursor = cursor
            try:
                yield cursor
            finally:
                self._writing.cursor = None

    @property
    def connections(self) -> int:
        """The most connections the store's pool gives at once: what as many threads may hold, each one (a read
        inside a write transaction reads on the transaction's own, never a second)."""
        pool = self.recorder.datastore.pool
        return getattr(pool, "max_size", None) or pool.pool_size + pool.max_overflow

    @contextmanager
    def reading(self) -> Iterator[Any]:
        """A read transaction's cursor (rows index by column name); raises StoreError, StoreDamaged."""
        with self.backend.reading() as cursor:
            yield cursor

    def append(self, cursor: Any, game_id: str, first_version: int, payloads: list[Any], previous: bytes) -> bytes:
        """Insert a game's events, numbered from ``first_version``, inside an open :meth:`transaction`.

        Each event is sealed with its chain hash (``projections.store.chain``),
        following ``previous``, the chain hash of the event before the first;
        returns the chain hash after the last. The transaction raises
        :class:`VersionCollision` (at once, or when it commits) when another
        writer stored one of these versions.
        """
        rows, head = sealed_rows(first_version, payloads, previous)
        self.insert_rows(cursor, game_id, rows)
        return head

    def insert_rows(self, cursor: Any, game_id: str, rows: list[tuple[int, str, bytes]]) -> None:
        """Insert sealed rows (version, topic, sealed state: :func:`sealed_rows`) of a game inside an open transaction.

        The transaction raises :class:`VersionCollision` (at once, or when it
        commits) when another writer stored one of these versions.
        """
        with self.backend.errors():
            self.backend.insert_rows(cursor, game_uuid(game_id), rows)

    def head(self, game_id: str) -> bytes:
        """The chain hash of a game's last stored event (``GENESIS`` for a game not stored).

        Raises :class:`StoreDamaged` when that event is not a sealed event.
        """
        mark = self.backend.mark
        latest = self._read(f"SELECT originator_version, state FROM {self.events_table} WHERE originator_id = {mark} "
                            "ORDER BY originator_version DESC LIMIT 1", (self.backend.originator(game_uuid(game_id)),))
        if not latest:
            return GENESIS
        try:
            return open_sealed(self.backend.state(latest[0]["state"]))[0]
        except Exception as exc:  # NULL, or bytes that are not a sealed event
            version = latest[0]["originator_version"]
            raise StoreDamaged(f"event {version} of game {game_id!r} cannot be read ({exc}); "
                               f"`gamelog verify {game_id}` names every damaged event", game_id, version) from exc

    def stored_links(self, game_id: str) -> Iterator[StoredLink]:
        """A game's stored events as they are in the store (sealed bytes), in version order."""
        for stored in self._pages(game_id):
            yield StoredLink(stored.originator_version, stored.topic, stored.state, stored.notification_id)

    def save_summary(self, cursor: Any, summary: GameSummary) -> None:
        """Write a game's catalog row inside an open :meth:`transaction`."""
        with self.backend.errors():
            cursor.execute(self._sql(_UPSERT),
                           (summary.id, game_uuid(summary.id).hex, summary.game, json.dumps(summary.players),
                            summary.events, summary.last_line, int(summary.finished), summary.winner,
                            summary.versions, summary.fingerprint))

    def _pages(self, game_id: str) -> Iterator[_Row]:
        """A game's stored events (version, topic, state), in version order, a page at a time."""
        uid = self.backend.originator(game_uuid(game_id))
        mark, state = self.backend.mark, self.backend.state
        # The rows as they are: the recorder would build a UUID and a StoredEvent for each,
        # a third of the time of replaying a game, and does not give the notification ID.
        sql = (f"SELECT originator_version, topic, state, {self.backend.position_column} AS position FROM {self.events_table} "
               f"WHERE originator_id = {mark} AND originator_version > {mark} ORDER BY originator_version LIMIT {mark}")
        version = 0
        while True:
            page = [_Row(r["originator_version"], r["topic"], state(r["state"]), r["position"])
                    for r in self._read(sql, (uid, version, PAGE))]
            yield from page
            if len(page) < PAGE:
                return
            version = page[-1].originator_version

    def history(self, game_id: str, *, turn: int | None = None, after: int = 0, header: Any = None,
                first_page: int | None = None) -> Iterator[Any]:
        """The stored events of a game, decoded, in order.

        ``turn`` says the caller reads to the end of that turn (``replay --turn``): the events up to it are read
        in one query, the rest only if the caller goes on. A hint of how much to read at once; the events are
        the same. ``first_page``, another such hint: how many rows the first query reads.

        ``after``: only the events after that version (a replay resuming from a snapshot); ``header``, the
        game's first event, which says what its events may be, is then required.

        Raises :class:`StoreDamaged`, naming the event, when one cannot be
        decoded (its bytes, NULL, a topic that is no registered game's event
        class), when the first is not a header, or when an event is not of
        its game's kinds (``stored_types``).
        """
        decode, decode_sealed = self.mapper.decode_payload, self.mapper.decode_sealed
        allowed: set[type] = set()
        if after:
            rules = header_rules(header)
            if rules is None:
                raise ValueError("history(after=) needs the game's header event")
            allowed = set(rules.stored_types)
        if first_page is None:
            first_page = PAGE
            if turn is not None and (ends := self._turn_finished(game_id, turn)) is not None:
                first_page = min(ends - after + TURN_SLACK, FIRST_PAGE_MOST)
        for versions, topics, states in self._row_pages(game_id, first_page, after):
            events = decode_sealed(topics, states)  # the whole page at once, or None: then row by row, below
            if events:
                if not allowed and (rules := header_rules(events[0])) is not None:
                    allowed = set(rules.stored_types)
                if allowed.issuperset(map(type, events)):
                    yield from events
                    continue
            for version, topic, state in zip(versions, topics, states):
                try:
                    event = decode(topic, state)
                except MapperDeserialisationError as exc:
                    raise self._damaged(game_id, version, f"cannot be read: {exc}") from exc
                if type(event) not in allowed:
                    if not allowed:
                        rules = header_rules(event)
                        if rules is None:
                            raise self._damaged(game_id, version, "is not the game's header, which every history starts with")
                        allowed = set(rules.stored_types)
                    else:
                        raise self._damaged(game_id, version, f"is a {topic}, which is not an event of its game")
                yield event

    def _row_pages(self, game_id: str, first_page: int = PAGE,
                   after: int = 0) -> Iterator[tuple[Sequence[int], Sequence[str], Sequence[Any]]]:
        """A game's stored rows after version ``after``, in version order, as three columns (versions, topics,
        states): ``first_page`` rows, then pages growing to :data:`PAGE`."""
        uid = self.backend.originator(game_uuid(game_id))
        mark, state = self.backend.mark, self.backend.state
        sql = (f"SELECT originator_version, topic, state FROM {self.events_table} "
               f"WHERE originator_id = {mark} AND originator_version > {mark} ORDER BY originator_version LIMIT {mark}")
        version, size = after, max(first_page, 1)
        while True:
            versions, topics, states = self.backend.read_columns(sql, (uid, version, size), _COLUMNS)
            if not self.backend.bytes_states:
                states = list(map(state, states))
            yield versions, topics, states
            if len(versions) < size:
                return
            version = versions[-1]
            size = PAGE if size >= PAGE else min(PAGE, 4 * max(size, TURN_SLACK))

    def _turn_finished(self, game_id: str, turn: int) -> int | None:
        """The version of the first stored event that ends turn ``turn``, found by its bytes: a hint, None when
        it is not found so (the event as msgspec writes it names its turn before its rule)."""
        mark, topic = self.backend.mark, encoded_topic(TurnFinished)
        rows = self._read(f"SELECT originator_version, state FROM {self.events_table} WHERE originator_id = {mark} "
                          f"AND topic = {mark} AND {self.backend.contains('state')} ORDER BY originator_version LIMIT 1",
                          (self.backend.originator(game_uuid(game_id)), topic, b'"turn":%d,' % turn))
        try:  # the bytes may be elsewhere in the event (a player's name): its turn says
            found = rows and self.mapper.decode_payload(topic, self.backend.state(rows[0]["state"]))
        except MapperDeserialisationError:
            return None  # read as it comes by history, which names it
        return rows[0]["originator_version"] if found and found.turn == turn else None

    @staticmethod
    def _damaged(game_id: str, version: int, what: str) -> StoreDamaged:
        return StoreDamaged(f"event {version} of game {game_id!r} {what}; "
                            f"`gamelog verify {game_id}` names every damaged event", game_id, version)

    def _read(self, statement: str, params: tuple = ()) -> list[Any]:
        """Rows of one read-only statement (rows index by column name on every backend).

        Raises :class:`StoreDamaged` when the database finds its file damaged, StoreError on any other failure.
        """
        writing = getattr(self._writing, "cursor", None)
        if writing is not None:  # inside this thread's write transaction: its own connection, never a second
            with self.backend.errors():
                writing.execute(statement, params)
                return writing.fetchall()
        with self.backend.reading() as cursor:
            cursor.execute(statement, params)
            return cursor.fetchall()

    def kept_secret(self, name: str, made: Callable[[], str], *, anew: bool = False) -> str:
        """The secret the store keeps under ``name``: the first call (on any process) keeps what ``made`` gives,
        every later one reads it back, so every process on the store, before and after a restart, has the same.
        ``anew`` keeps a new one from ``made`` in its place. Raises :class:`StoreReadOnly` when none is kept and the
        store may not be written, and the store's errors."""
        table, mark = self.backend.table(SECRETS), self.backend.mark
        read = f"SELECT value FROM {table} WHERE name = {mark}"
        if self.read_only:
            try:
                rows = self._read(read, (name,))
            except StoreError:
                rows = []
            if rows and not anew:
                return rows[0]["value"]
        keep = (f"INSERT INTO {table} (name, value) VALUES ({mark}, {mark}) ON CONFLICT (name) DO "
                + ("UPDATE SET value = excluded.value" if anew else "NOTHING"))
        with self.transaction() as cursor:  # two processes at once: the first one's is kept, the second reads it
            cursor.execute(_CREATE_SECRETS.format(table=table))
            cursor.execute(keep, (name, made()))
            cursor.execute(read, (name,))
            return cursor.fetchone()["value"]

    def entry_key(self, game_id: str, key: str) -> tuple[bool, str | None]:
        """Take the client's idempotency ``key`` of an entry to ``game_id``: (True, None) when it is new (taken
        now: :meth:`keep_entry_answer` or :meth:`release_entry_key` follows), else (False, the answer the entry it
        was taken for had: None while that entry is being decided). Raises the store's errors."""
        table, mark = self.backend.table(ENTRY_KEYS), self.backend.mark
        try:
            with self.transaction() as cursor:
                cursor.execute(_CREATE_ENTRY_KEYS.format(table=table))
                cursor.execute(f"SELECT answer FROM {table} WHERE game = {mark} AND key = {mark}", (game_id, key))
                row = cursor.fetchone()
                if row is not None:
                    return False, row["answer"]
                cursor.execute(f"INSERT INTO {table} (game, key, answer) VALUES ({mark}, {mark}, NULL)",
                               (game_id, key))
                return True, None
        except VersionCollision:  # the same key taken at the same moment by a second sending: that one decides
            return False, None

    def keep_entry_answer(self, game_id: str, key: str, answer: str) -> None:
        """Keep the answer of the entry ``key`` was taken for (:meth:`entry_key`)."""
        table, mark = self.backend.table(ENTRY_KEYS), self.backend.mark
        with self.transaction() as cursor:
            cursor.execute(f"UPDATE {table} SET answer = {mark} WHERE game = {mark} AND key = {mark}",
                           (answer, game_id, key))

    def release_entry_key(self, game_id: str, key: str) -> None:
        """Let ``key`` go (:meth:`entry_key`): its entry stored nothing, so a resend is decided anew."""
        table, mark = self.backend.table(ENTRY_KEYS), self.backend.mark
        with self.transaction() as cursor:
            cursor.execute(f"DELETE FROM {table} WHERE game = {mark} AND key = {mark}", (game_id, key))

    def games(self) -> list[GameSummary]:
        """Every stored game, by id."""
        return [self._summary(r) for r in self._read(self._sql(_SELECT_GAMES) + " ORDER BY id")]

    def summary(self, game_id: str) -> GameSummary | None:
        """The catalog row of one game, or None."""
        rows = self._read(self._sql(_SELECT_GAMES) + f" WHERE id = {self.backend.mark}", (game_id,))
        return self._summary(rows[0]) if rows else None

    def import_records(self) -> dict[str, tuple[int, str]]:
        """Each catalog row's record of its import, ``(versions, fingerprint)``, by game id.

        What a repair keeps of a row (``projections.store.catalog``), read even
        where the row's derived columns are damaged.
        """
        rows = self._read(f"SELECT id, versions, fingerprint FROM {self.backend.table(CATALOG)}")
        return {r["id"]: (r["versions"], r["fingerprint"]) for r in rows}

    def readable_games(self) -> dict[str, GameSummary | None]:
        """Every catalog row by id; None for a row whose derived columns cannot be read (its players not JSON)."""
        rows: dict[str, GameSummary | None] = {}
        for r in self._read(self._sql(_SELECT_GAMES)):
            try:
                rows[r["id"]] = self._summary(r)
            except StoreDamaged:
                rows[r["id"]] = None
        return rows

    def _summary(self, r: Any) -> GameSummary:
        try:
            players = json.loads(r["players"])
        except ValueError as exc:
            raise StoreDamaged(f"the catalog row of game {r['id']!r} is damaged: its players are not JSON") from exc
        return GameSummary(r["id"], r["game"], players, r["events"], r["last_line"],
                           bool(r["finished"]), r["winner"], r["versions"], r["fingerprint"])

    @property
    def events_table(self) -> str:
        """The events table's name as SQL (schema-qualified where the backend has schemas)."""
        return self.backend.events_table

    def count_events(self, game_id: str | None = None) -> int:
        """How many events are stored: of one game, or of every game."""
        if game_id is None:
            rows = self._read(f"SELECT COUNT(*) AS n FROM {self.events_table}")
        else:
            rows = self._read(f"SELECT COUNT(*) AS n FROM {self.events_table} WHERE originator_id = {self.backend.mark}",
                              (self.backend.originator(game_uuid(game_id)),))
        return rows[0]["n"]

    def last_position(self) -> int:
        """The last stored event's place in the store's notification log (0 for an empty store)."""
        return self.backend.last_position()

    def listen(self) -> Any:
        """What waits for any process to store an event (PostgreSQL's LISTEN/NOTIFY: ``wait(timeout)``,
        ``close()``), or None where the database tells no one (SQLite: read :meth:`last_position` every so often).
        Raises :class:`StoreError` when the database cannot be reached."""
        return self.backend.listen()

    def moved_since(self, after: int) -> dict[str, int]:
        """The games with events stored after position ``after`` of the notification log: each one's aggregate ID
        (hex) and the last position it reached. One row a game, however many events it gained."""
        position, mark = self.backend.position_column, self.backend.mark
        rows = self._read(f"SELECT originator_id, MAX({position}) AS position FROM {self.events_table} "
                          f"WHERE {position} > {mark} GROUP BY originator_id", (after,))
        return {self.backend.originator_hex(r["originator_id"]): r["position"] for r in rows}

    def notifications(self, after: int, limit: int) -> list[tuple[int, str, int, str, bytes | None]]:
        """(notification id, aggregate ID as hex, version, topic, state) of the store's log after ``after``.

        The rows as they are: the recorder would build a UUID per row, and on
        PostgreSQL fails on a NULL state instead of letting it be named.
        """
        position, mark = self.backend.position_column, self.backend.mark
        rows = self._read(f"SELECT {position} AS position, originator_id, originator_version, topic, state FROM {self.events_table} "
                          f"WHERE {position} > {mark} ORDER BY {position} LIMIT {mark}", (after, limit))
        return self.backend.notification_rows(rows)

    def stored_game_ids(self) -> list[str]:
        """The id of every game with stored events, read from its first event (the header), sorted.

        Raises :class:`StoreDamaged` when a first event cannot be read or is not its aggregate's header.
        """
        rows = self._read(f"SELECT originator_id, topic, state FROM {self.events_table} "
                          f"WHERE originator_version = {self.backend.mark}", (1,))
        ids = []
        for row in rows:
            uid = UUID(self.backend.originator_hex(row["originator_id"]))
            try:
                game_id = self.mapper.decode_payload(row["topic"], self.backend.state(row["state"])).event.id
            except (MapperDeserialisationError, AttributeError) as exc:
                raise StoreDamaged(f"the first event of the stored game {uid} is not a header it can read ({exc}); "
                                   "`gamelog verify` on that game names the damage") from exc
            if game_uuid(game_id) != uid:
                raise StoreDamaged(f"the first event of the stored game {uid} records the header of {game_id!r}, "
                                   "another game's")
            ids.append(game_id)
        return sorted(ids)

    def has_game(self, game_id: str) -> bool:
        return self.count_events(game_id) > 0


class StoreApplication(GameStore):
    """The store as eventsourcing's ``ProjectionRunner`` constructs its application: from the library's
    environment (:func:`store_env`), for reading its events only."""

    name = GameStore.name  # the same tables as the store's, and the same tracking name

    def __init__(self, env: Any = None):
        Application.__init__(self, env=env)


def sealed_rows(first_version: int, payloads: list[Any], previous: bytes) -> tuple[list[tuple[int, str, bytes]], bytes]:
    """The stored rows (version, topic, sealed state) of events numbered from ``first_version``, and the chain head after them.

    Each is sealed with its chain hash following ``previous``, the chain hash
    of the event before the first. Pure: an archive import seals in worker
    processes and one writer inserts (:meth:`GameStore.insert_rows`).
    """
    pairs = [encoded(payload) for payload in payloads]
    sealed, head = sealed_chain(previous, pairs)
    return [(version, topic, state) for version, (topic, _), state in zip(count(first_version), pairs, sealed)], head


def header_rules(event: Any) -> Any:
    """The rules of the game whose header ``event`` records, or None when it records no header."""
    from gamelog.domain.games import GAMES  # the store's read side only: the mapper resolves topics through it too

    header = getattr(event, "event", None)
    rules = GAMES.get(getattr(header, "game", None))  # type: ignore[arg-type]
    return rules if rules is not None and isinstance(header, rules.header_type) else None
