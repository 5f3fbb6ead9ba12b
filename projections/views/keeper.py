"""Keeping the views up to date with the store, or building them for one log in memory.

The views are an eventsourcing projection of the store's notification log:
:class:`ViewKeeper` pulls notifications after its tracking position, folds
them (``projections.views.folder``) and writes the view rows and the new tracking
record in one transaction, so an interrupted catch-up resumes where it
stopped and never counts an event twice. eventsourcing's ``ProjectionRunner``
needs subscriptions, which its SQLite recorder lacks, hence the pull loop; on
PostgreSQL the same views can also be kept by a ``ProjectionRunner``
(``projections.views.runner``), sharing this tracking record.

What differs between databases (the tracking recorder, the views' SQL on each,
the lock views writers share) is the store's backend's (``projections.store.backends``).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from gamelog.projections.importing.importer import AlongsideFailed
from gamelog.projections.store.application import (GameStore, StoreBusy, StoreDamaged, StoreError, VersionCollision,
                                                   game_uuid, header_rules)
from gamelog.projections.store.backends import scratch_database
from gamelog.projections.store.backends.base import PortableCursor
from gamelog.projections.store.mapper import DecodeFailed
from gamelog.projections.views.derivation import DERIVATION, derived_by, record
from gamelog.projections.views.folder import KEPT, SCHEMA, TABLES, ViewFolder
from gamelog.projections.views.sums import add_part

VIEWS = GameStore.name
"""The tracking name of the views: the application they follow (one position: they are written together)."""
PAGE = 5000
REBUILD = "run `gamelog projections rebuild`"
"""What repairs damaged views (nothing there is an event: a rebuild derives them all again)."""


def views_damaged(what: str) -> StoreDamaged:
    """The error for views (or their tracking position) that disagree with the store: a rebuild repairs them."""
    return StoreDamaged(f"the views are damaged: {what}; {REBUILD} to derive them again")

@dataclass(frozen=True)
class ViewStatus:
    """Where the views stand against the store's notification log."""

    position: int
    head: int

    @property
    def behind(self) -> int:
        return self.head - self.position


class ViewKeeper:
    """Brings the views of a store up to date, reports their position, rebuilds them.

    On a store the user may not write (``GameStore.read_only``) nothing is
    written: views that are up to date are read as they are, and views that are
    behind (or absent) are folded again, from the whole store, into a private
    temporary database that :meth:`connection` then reads.
    """

    def __init__(self, store: GameStore):
        """Raises StoreError when the views' tables cannot be created."""
        self.store = store
        self.backend = store.backend
        self._private: Any = None  # the scratch database a read-only store's views are folded into
        self.tracking = self.backend.tracking_recorder(VIEWS)
        if not store.read_only:
            self.backend.create_tracked_tables(self.tracking, self._create_views)

    def _create_views(self) -> None:
        with self.transaction() as cursor:
            # The views' lock first, as every views writer takes it: creating an index (PostgreSQL locks its table,
            # even when the index is there) while another process folds into those tables would otherwise lock
            # them in another order, and the two could deadlock.
            self.backend.lock_views(cursor)
            create_views(cursor)
            if derived_by(cursor) is None and not self.backend.tracking_position(self.tracking, VIEWS):
                record(cursor)  # new views: this gamelog derives them from the first event

    @property
    def tracking_name(self) -> str:
        """The tracking table's name (the library's: ``tracking`` on SQLite, ``gamelog_tracking`` on PostgreSQL)."""
        return self.backend.tracking_table_name(VIEWS)

    @property
    def library_row(self) -> str:
        """The tracking table's row the library keeps for itself (its record of the table's migration)."""
        return self.tracking.table_migration_identifier

    @property
    def tracking_table(self) -> str:
        """The tracking table's name as SQL (schema-qualified where the backend has schemas)."""
        return self.backend.table(self.tracking_name)

    @contextmanager
    def transaction(self, durable: bool = True) -> Iterator[PortableCursor]:
        """A write transaction on the store, through a cursor the views' SQL runs on (``durable``: see
        ``GameStore.transaction``)."""
        with self.store.transaction(durable) as cursor:
            yield self.backend.views_cursor(cursor, KEPT)

    @contextmanager
    def connection(self) -> Iterator[PortableCursor]:
        """A read transaction's cursor on the views (``with keeper.connection() as cursor``)."""
        if self._private is not None:
            yield PortableCursor(self._private.cursor())
            return
        with self.store.reading() as cursor:
            yield self.backend.views_cursor(cursor, KEPT)

    def position(self) -> int:
        """The views' tracking position: the last notification folded (0 when a read-only store has no views)."""
        try:
            return self.backend.tracking_position(self.tracking, VIEWS)
        except StoreError:
            if self.store.read_only:
                return 0  # the tables were never created, and cannot be now
            raise

    def status(self) -> ViewStatus:
        return ViewStatus(self.position(), self.store.last_position())

    def catch_up(self, progress: Callable[[int], None] | None = None, states: "_States | None" = None) -> int:
        """Fold every notification after the tracking position; return how many were folded.

        ``states``, given, also folds each event into its game's state (a rebuild's catalog, in the same pass).

        Raises :class:`~projections.store.application.StoreDamaged`, naming
        the event, when a stored event cannot be read, and saying to rebuild
        the views when they cannot be folded further: their position past the
        store's last event, a game's running context unreadable, an event
        folded again (the views hold more than their position says).
        """
        if self.store.read_only:
            return self._fold_privately(progress)
        self._derive_anew_if_earlier()
        folded = 0
        position = self.position()
        head = self.store.last_position()
        if position > head:
            raise views_damaged(f"their position {position} is past the store's last event {head}")
        while True:
            page = self._notifications(position)
            if not page:
                if folded:
                    self._settle()
                return folded
            # Only the views and their position: a crash may lose the page's commit whole, and it is folded again.
            with self.store.transaction(durable=False) as raw:
                self.backend.lock_views(raw)
                # Another process may have folded this page since it was read. This
                # transaction holds the lock every views writer takes, so the position
                # read now (on another connection) is the latest committed one.
                latest = self.backend.tracking_position(self.tracking, VIEWS)
                if latest != position:
                    position = latest
                    if states is not None:
                        states.complete = False  # another writer folded a page: these states miss it
                    continue
                self._fold_kept(raw, page, states)
                position = page[-1][0]
                self.backend.move_tracking(self.tracking, raw, VIEWS, position)  # same transaction as the rows
            folded += len(page)
            if progress:
                progress(len(page))

    def derivation(self) -> int | None:
        """The number of the way the stored views were derived (``projections.views.derivation``); None when they
        keep none (derived before it was kept, or never created on a read-only store)."""
        try:
            with self.connection() as cursor:
                return derived_by(cursor)
        except StoreError:
            return None

    def derived_earlier(self) -> bool:
        """Whether the stored views are what an earlier gamelog derived: another number, or none where the views
        have folded events (views that have folded nothing are any gamelog's)."""
        found = self.derivation()
        return found != DERIVATION and (found is not None or self.position() > 0)

    def _derive_anew_if_earlier(self) -> None:
        """Views an earlier gamelog derived are emptied (the next pages fold the whole store again) and this one's
        number recorded; new views get the number. Read first, so a keeper that finds its own number writes nothing."""
        if self.derivation() == DERIVATION:
            return
        with self.transaction() as cursor:
            self.backend.lock_views(cursor)
            found = derived_by(cursor)
            if found == DERIVATION:
                return  # another keeper did it meanwhile
            if self.backend.tracking_position(self.tracking, VIEWS) or found is not None:
                for table in TABLES:
                    cursor.execute(f"DELETE FROM {table}")
                cursor.execute(f"DELETE FROM {self.tracking_table} WHERE application_name <> ?", (self.library_row,))
            record(cursor)

    def alongside(self, raw: Any) -> "FoldAlong | None":
        """What folds an import's events into the views in the import's own transaction (``raw``, its cursor,
        which holds the store's write lock), or None when the views are not at the store's last event (the
        catch-up after the import folds what they miss, with the import's events), were derived by an earlier
        gamelog (the catch-up derives them anew) or cannot be read.

        Takes the lock an append takes (PostgreSQL: no other writer's event can come before the import's),
        then the lock every views writer takes; raises StoreBusy when another writer holds one too long.
        """
        if self.store.read_only:
            return None
        self.backend.lock_events(raw)
        self.backend.lock_views(raw)
        try:
            position = self.backend.tracking_position_in(self.tracking, raw, VIEWS)
            if position != self.backend.last_position_in(raw):
                return None
            cursor = self.backend.views_cursor(raw, KEPT)
            found = derived_by(cursor)
            if found is None and position == 0:
                record(cursor)  # new views: this gamelog's from their first event
            elif found != DERIVATION:
                return None  # an earlier gamelog's: the catch-up after the import derives them anew
            folder = ViewFolder(cursor)
        except StoreBusy:
            raise
        except (StoreError, KeyError, TypeError, ValueError):  # the catch-up says what is wrong with the views
            return None
        return FoldAlong(self, raw, folder)

    def _settle(self) -> None:
        """Bring the sums up to date with every game the pages folded (``ViewFolder.settle_pending``), in a
        transaction of their own that holds the views' lock."""
        with self.store.transaction(durable=False) as raw:
            self.backend.lock_views(raw)
            try:
                ViewFolder(self.backend.views_cursor(raw, KEPT)).settle_pending()
            except (KeyError, TypeError, ValueError) as exc:
                raise views_damaged("a game's running context in view_context is not one gamelog wrote") from exc

    def _fold_kept(self, raw: Any, page: list[tuple[int, str, int, str, bytes]], states: "_States | None") -> None:
        """Fold one page into the store's own views on ``raw`` (a write transaction's cursor).

        Views that cannot take the page (a context that is not one, a row
        already there) are damage a rebuild repairs: raises StoreDamaged.
        """
        try:
            folder = ViewFolder(self.backend.views_cursor(raw, KEPT))
        except (KeyError, TypeError, ValueError) as exc:
            raise views_damaged("a game's running context in view_context is not one gamelog wrote") from exc
        try:
            self._fold_page(folder, page, states)
        except (StoreDamaged, StoreBusy):
            raise
        except Exception as exc:
            translated = self.backend.translate(exc)
            if translated is not None and not isinstance(translated, VersionCollision):
                raise translated from exc
            raise views_damaged(f"folding the store's events from position {page[0][0]} failed ({exc}): "
                                "the views hold more than their position says") from exc

    def _fold_page(self, folder: ViewFolder, page: list[tuple[int, str, int, str, bytes]],
                   states: "_States | None" = None) -> None:
        """Fold one page of notifications and flush; raises StoreDamaged naming an event that cannot be read."""
        decode = self.store.mapper.decode_payload
        for notification_id, originator, version, topic, state in page:
            try:
                event = decode(topic, state)
            except DecodeFailed as exc:
                raise self._damaged(folder, originator, version, f"cannot be read: {exc}") from exc
            held = folder.contexts.get(originator)
            if held is None:
                try:
                    held = folder.context(originator)
                except (KeyError, TypeError, ValueError) as exc:
                    raise views_damaged("a game's running context in view_context is not one gamelog wrote") from exc
            if held is None and header_rules(event) is None:
                raise self._damaged(folder, originator, version, "is the first of its game but not a header")
            if version == 1 and held is not None:
                game = held.get("id")
                raise views_damaged(f"they hold the game {game!r} already, before its first event at position "
                                    f"{notification_id} is folded (the views are ahead of their position, or hold a "
                                    "game whose events were deleted)")
            folder.fold(originator, event)
            if states is not None:
                states.fold(originator, version, event)
        folder.flush(settled=False)  # the catch-up settles the sums once, at its end

    @staticmethod
    def _damaged(folder: ViewFolder, originator: str, version: int, what: str) -> StoreDamaged:
        game = folder.contexts.get(originator, {}).get("id")
        name = f"game {game!r}" if game else f"the stored game {originator}"
        hint = f"`gamelog verify {game}`" if game else "`gamelog verify`"
        return StoreDamaged(f"event {version} of {name} {what}; {hint} names every damaged event", game, version)

    def _fold_privately(self, progress: Callable[[int], None] | None) -> int:
        """On a read-only store: nothing if the stored views are up to date, else fold them all into a private database."""
        if self._private is not None:
            return 0
        status = self.status()
        if status.head and status.behind == 0 and self.derivation() == DERIVATION:
            return 0
        # A temporary database on disk (SQLite's "" name), deleted when closed: it
        # holds the views of the whole store, which need not fit in memory.
        self._private = scratch_database("")
        cursor = self._private.cursor()
        create_views(cursor)
        folder = ViewFolder(cursor)
        folded, position = 0, 0
        while page := self._notifications(position):
            self._fold_page(folder, page)
            position = page[-1][0]
            folded += len(page)
            if progress:
                progress(len(page))
        folder.settle_pending()
        self._private.commit()
        return folded

    def _notifications(self, after: int) -> list[tuple[int, str, int, str, bytes | None]]:
        """(notification id, aggregate ID as hex, version, topic, state) of the next page of the store's log."""
        return self.store.notifications(after, PAGE)

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        """Empty the views and fold the whole notification log again; write the catalog's derived columns again.

        What ``verify`` finds altered in the views, their tracking position or
        the catalog (``projections.store.catalog``), this repairs. The catalog
        is derived in the same pass as the views (each game's state folded
        beside them), rather than by reading every game again; when that pass
        cannot vouch for a game (another writer folded a page meanwhile, or a
        game's events are not in version order or not all of its kinds) the
        catalog is derived from the games' histories as before. Raises
        StoreReadOnly on a store the user may not write.
        """
        from gamelog.projections.store.catalog import repair_catalog, rows_without_events  # the domain's engines

        with self.transaction(durable=False) as cursor:
            for table in TABLES:
                cursor.execute(f"DELETE FROM {table}")
            # The views' table: any position but the library's own record of the table's version is a stray.
            cursor.execute(f"DELETE FROM {self.tracking_table} WHERE application_name <> ?", (self.library_row,))
        states = _States()
        folded = self.catch_up(progress, states)
        if not states.complete or not states.write_catalog(self.store):
            repair_catalog(self.store)
        orphans = rows_without_events(self.store)
        if orphans:
            shown = ", ".join(repr(game_id) for game_id in orphans)
            raise StoreDamaged(f"the catalog lists {shown} but none of the events are stored (the views and the "
                               f"rest of the catalog are rebuilt); `gamelog verify {orphans[0]}` says more",
                               orphans[0])
        return folded


class FoldAlong:
    """The views folded in an import's own write transaction, from the events it writes (already decoded: they
    are not read back), and their position moved to its last event when it finishes; what a catch-up after
    the import would write, in the import's transaction rather than in transactions of its own after it.

    The import commits its events and their views together, or neither: killed, it leaves the views where
    they were, at the store's last event. Made by :meth:`ViewKeeper.alongside` (an
    ``projections.importing.importer.Alongside``).
    """

    def __init__(self, keeper: ViewKeeper, raw: Any, folder: ViewFolder):
        self.keeper = keeper
        self.raw = raw
        self.folder = folder
        self._unwritten = 0  # events folded since the folder last wrote its rows

    def fold(self, game_id: str, first_version: int, events: list[Any]) -> None:
        """Fold events of ``game_id`` just appended; raises AlongsideFailed when the views cannot take them
        (they hold the game before its header, or lack it after), as a catch-up would say they are damaged."""
        originator = game_uuid(game_id).hex
        folder = self.folder
        try:
            if (folder.context(originator) is not None) != (first_version > 1):
                raise AlongsideFailed(f"the views {'hold' if first_version == 1 else 'lack'} the game {game_id!r}")
            for event in events:
                folder.fold(originator, event)
            self._unwritten += len(events)
            if self._unwritten >= PAGE:
                folder.flush(settled=False)  # rows a page at a time, as a catch-up writes them; sums at the end
                self._unwritten = 0
        except (StoreBusy, AlongsideFailed):
            raise
        except Exception as exc:  # a row already there...: views a rebuild repairs, which the catch-up will say
            raise AlongsideFailed(f"the views cannot take the import's events: {exc}") from exc

    def fold_rows(self, game_id: str, first_version: int, rows: list[tuple[int, str, bytes]]) -> None:
        """Fold sealed rows (version, topic, state) of ``game_id`` just inserted (an archive's, decided elsewhere)."""
        decode = self.keeper.store.mapper.decode_payload
        try:
            events = [decode(topic, state) for _, topic, state in rows]
        except DecodeFailed as exc:
            raise AlongsideFailed(f"an event of the game {game_id!r} cannot be read: {exc}") from exc
        self.fold(game_id, first_version, events)

    def take(self, game_id: str, chunks: Iterable[tuple[str, list[Any]]]) -> None:
        """Write the views of the new game ``game_id`` as :class:`ApartViews` folded them (``chunks``: its
        ``(table, rows)`` pages, :meth:`ApartViews.pages`): what folding its events here would write, since the
        store's views hold nothing of it. Raises AlongsideFailed when they hold it already."""
        try:
            if self.folder.context(game_uuid(game_id).hex) is not None:
                raise AlongsideFailed(f"the views hold the game {game_id!r}")
            cursor = self.folder.cursor
            for table, rows in chunks:
                if table == "view_stat_sums":
                    add_part(cursor, rows)
                elif rows:
                    cursor.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
        except (StoreBusy, AlongsideFailed):
            raise
        except Exception as exc:
            raise AlongsideFailed(f"the views cannot take the game {game_id!r}: {exc}") from exc

    def finish(self) -> None:
        """Write the rows and sums folded, and move the views' position to the import's last event, in its
        transaction; raises AlongsideFailed."""
        backend = self.keeper.backend
        try:
            self.folder.flush()
            backend.move_tracking(self.keeper.tracking, self.raw, VIEWS, backend.last_position_in(self.raw))
        except StoreBusy:
            raise
        except Exception as exc:
            raise AlongsideFailed(f"the views cannot take the import's events: {exc}") from exc


class ApartViews:
    """The views of one new game folded apart from any store, into a private temporary database: an archive's
    worker folds the game it decides, and the writer copies the rows (:meth:`FoldAlong.take`) instead of
    folding the events itself. The rows are those a fold in the store would write (the same folder, the game
    alone), and its part of the sums is its ``view_stat_sums`` rows."""

    def __init__(self, game_id: str):
        self.originator = game_uuid(game_id).hex
        self._connection: Any = scratch_database("")  # a temporary file, deleted when closed: a game of any size
        cursor = self._connection.cursor()
        create_views(cursor)
        self._folder = ViewFolder(cursor)
        self._unwritten = 0

    def fold(self, events: list[Any]) -> None:
        """Fold the game's next events (its header first)."""
        for event in events:
            self._folder.fold(self.originator, event)
        self._unwritten += len(events)
        if self._unwritten >= PAGE:
            self._folder.flush(settled=False)
            self._unwritten = 0

    def pages(self, size: int = PAGE) -> Iterator[tuple[str, list[tuple]]]:
        """Settle the game's sums, then each table's rows in the order they were written, ``size`` at a time."""
        self._folder.flush()
        cursor = self._connection.cursor()
        for table in TABLES:
            cursor.execute(f"SELECT * FROM {table} ORDER BY rowid")
            while rows := cursor.fetchmany(size):
                yield table, rows

    def close(self) -> None:
        self._connection.close()


class _States:
    """Each game's state, folded from the notification log beside the views: a rebuild's catalog in one pass.

    ``complete`` turns False when a game's events did not arrive as its
    history would give them (from its header, versions one after another, each
    of its game's kinds): then the catalog is derived from the histories instead.
    """

    def __init__(self) -> None:
        self.complete = True
        self._engines: dict[str, Any] = {}  # aggregate ID (hex) -> the engine folding it (no history kept)
        self._versions: dict[str, int] = {}
        self._kinds: dict[str, frozenset[type]] = {}

    def fold(self, originator: str, version: int, event: Any) -> None:
        if not self.complete:
            return
        engine = self._engines.get(originator)
        if engine is None:
            rules = header_rules(event)
            if rules is None or version != 1:
                self.complete = False
                return
            self._engines[originator] = rules.engine.from_history([event], history=False)
            self._kinds[originator] = frozenset(rules.stored_types)
        elif version != self._versions[originator] + 1 or type(event) not in self._kinds[originator]:
            self.complete = False
            return
        else:
            engine.apply(event)
        self._versions[originator] = version

    def write_catalog(self, store: GameStore) -> bool:
        """Write each game's derived catalog columns where they differ; False (nothing written) when it cannot vouch.

        Keeps each row's ``versions`` and ``fingerprint`` (the import's record),
        as ``projections.store.catalog.repair_catalog`` does.
        """
        from gamelog.projections.store.application import game_uuid
        from gamelog.projections.store.catalog import summarise

        ids = store.stored_game_ids()  # raises StoreDamaged, as the histories' reading would
        if len(ids) != len(self._engines) or any(game_uuid(i).hex not in self._engines for i in ids):
            return False
        records, kept = store.import_records(), store.readable_games()
        for game_id in ids:
            originator = game_uuid(game_id).hex
            versions, fingerprint = records.get(game_id) or (self._versions[originator], store.head(game_id).hex())
            derived = summarise(self._engines[originator].state, versions, fingerprint)
            if kept.get(game_id) != derived:
                with store.transaction() as cursor:
                    store.save_summary(cursor, derived)
        return True


def create_views(cursor: Any) -> None:
    """Create the view tables where they are missing."""
    for statement in SCHEMA:
        cursor.execute(statement)


def views_in_memory(events: Iterable[Any], *, snapshots: bool = True) -> Any:
    """The views of one game's events (a log file read in memory), in an in-memory database (a DB-API connection).

    ``snapshots=False``: without replay snapshots (``ViewFolder``), which only a store's replay reads."""
    connection: Any = scratch_database(":memory:")
    cursor = connection.cursor()
    create_views(cursor)
    folder = ViewFolder(cursor, snapshots=snapshots)
    for event in events:
        folder.fold("log", event)
    folder.flush()
    connection.commit()
    return connection


@contextmanager
def derived_views(events: Iterable[Any], *, sums: bool = True, snapshots: bool = True) -> Iterator[Any]:
    """The views of one game's events, folded into a private temporary database on disk (a game of any size).

    The folder writes a page of rows at a time, as a catch-up does. ``sums=False`` leaves the statistics' sums
    across games unsettled (a report reads none of them; a long game's part of them is as long as the game);
    ``snapshots=False``, the replay snapshots (``ViewFolder``), which only a store's replay reads.
    """
    connection: Any = scratch_database("")  # a temporary file, deleted when closed
    try:
        cursor = connection.cursor()
        create_views(cursor)
        folder = ViewFolder(cursor, snapshots=snapshots)
        for n, event in enumerate(events, 1):
            folder.fold("log", event)
            if n % PAGE == 0:
                folder.flush(settled=False)
        folder.flush(settled=sums)
        yield cursor
    finally:
        connection.close()
