"""Importing a log into the store: atomic, idempotent and incremental.

* **Atomic**: all of a log's new events, and its catalog row, are written in
  one transaction; an input error anywhere in the file, a conflict or any
  failure rolls it back, leaving the store as it was.
* **Idempotent**: the same log again adds nothing (``already imported``).
* **Incremental**: a log that has grown adds only its new lines.
* A log that differs from the stored game at an earlier line is refused whole
  (``conflict``), naming the first line that differs.
* A log of a header and no event line yet is a game like any other: its
  header's events and its catalog row are stored (``imported``, 0 events).
* Interrupted (Ctrl-C), an import raises :class:`ImportInterrupted`, which says
  whether the log was stored: the interrupt may come after the commit.

The log is read once, line by line, and written in batches inside the single
transaction, so memory stays flat however long the log is.

Concurrent importers: two of the same game both find it absent (or both at the
same version), and the second to write collides on an event version
(:class:`~projections.store.errors.VersionCollision`), its transaction rolled
back; it then reads its log again against what the first stored, as if it had
come second: an identical log is ``already imported``, a longer one adds its
new lines, one that differs is a ``conflict``. Importers of different games take turns at the store's
write lock; one that waits longer than the store's lock timeout stops with
:class:`~projections.store.errors.StoreBusy`, storing nothing.
"""

from __future__ import annotations

import enum
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO, Callable, Iterable, Iterator, Protocol

from gamelog.domain.engine import Engine
from gamelog.domain.history import EventIndex
from gamelog.domain.errors import LogInvalid
from gamelog.domain.reader import LogReader
from gamelog.projections.importing.spill import SpilledIndex
from gamelog.projections.store.application import GameStore
from gamelog.projections.store.errors import StoreBusy, VersionCollision
from gamelog.projections.store.catalog import summarise

BATCH = 1000


class Outcome(enum.Enum):
    IMPORTED = "imported"
    ALREADY_IMPORTED = "already imported"
    CONFLICT = "conflict"


@dataclass(frozen=True)
class ImportResult:
    """What happened to one log: its outcome, the game, how many event lines were added."""

    outcome: Outcome
    game_id: str
    events: int = 0
    first_line: int | None = None
    last_line: int | None = None
    message: str = ""


class ImportInterrupted(KeyboardInterrupt):
    """Raised when an import is interrupted (Ctrl-C): ``result`` is what was stored (committed), None for nothing."""

    def __init__(self, filename: str, result: ImportResult | None):
        super().__init__(filename)
        self.filename = filename
        self.result = result


class _Commit:
    """How far an import got: the result it was committing (and the chain head it wrote), and whether it committed."""

    def __init__(self) -> None:
        self.result: ImportResult | None = None
        self.head: bytes | None = None
        self.done = False

    def stored(self, store: GameStore) -> ImportResult | None:
        """What is stored of this import: its result when the commit happened (checked in the store when unsure)."""
        if self.done:
            return self.result
        if self.result is None or self.head is None:
            return None  # interrupted before the commit began: rolled back
        # Interrupted during the commit: the store says whether it happened.
        return self.result if store.head(self.result.game_id) == self.head else None


class Alongside(Protocol):
    """What folds the events an import writes in the import's own transaction (the views:
    ``projections.views.keeper.FoldAlong``), so that they are up to date when it commits, and not before."""

    def fold(self, game_id: str, first_version: int, events: list[Any]) -> None:
        """Fold the events of ``game_id`` just appended, numbered from ``first_version``; raises AlongsideFailed."""

    def fold_rows(self, game_id: str, first_version: int, rows: list[tuple[int, str, bytes]]) -> None:
        """Fold sealed rows (version, topic, state) of ``game_id`` just inserted (decided in another process)."""

    def take(self, game_id: str, chunks: Iterable[tuple[str, list[Any]]]) -> None:
        """Write the views of the new game ``game_id`` as folded elsewhere (an archive's worker), as (table, rows)
        chunks, instead of folding its events; raises AlongsideFailed."""

    def finish(self) -> None:
        """Write what is folded, before the import commits; raises AlongsideFailed."""


Along = Callable[[Any], "Alongside | None"]
"""Given an import's write cursor, once its transaction holds the store's write lock: what folds its events
alongside, or None (then nothing does, and the views catch up after the import, as they would after another
writer's)."""


class AlongsideFailed(Exception):
    """Raised by an :class:`Alongside` that cannot fold what it is given (views a rebuild must repair): the
    import is done again without it, and what the views' catch-up then says of them stands."""


class _Conflict(Exception):
    """The log differs from the stored game; ``message`` names the first line that differs."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def import_log(store: GameStore, source: bytes | BinaryIO, filename: str,
               progress: Callable[[int], None] | None = None, along: Along | None = None) -> ImportResult:
    """Append a log's new events to the store.

    Raises :class:`~domain.errors.LogInvalid` (nothing stored) when the log
    has input errors, and :class:`~projections.store.errors.StoreBusy` (nothing
    stored) when another writer held the store's lock past its lock timeout.
    Raises :class:`ImportInterrupted` on Ctrl-C, saying what was stored.
    Returns the outcome otherwise; ``progress`` is called with the current
    line number after each batch written. ``along`` folds the events written
    in the same transaction (:data:`Along`; not for a stream that cannot be
    read again, as a fold that fails means importing again without it).
    """
    commit = _Commit()
    start = None if isinstance(source, (bytes, bytearray, memoryview)) or not source.seekable() else source.tell()
    again = start is not None or isinstance(source, (bytes, bytearray, memoryview))  # the log can be read again
    try:
        try:
            return _import_along(store, source, start, filename, progress, commit, along if again else None)
        except LostRace as lost:
            # Another import of the game was stored first: read the log again against what it stored, so an
            # identical log is "already imported", a longer one adds its new lines, a different one a conflict.
            if not again:
                return lost.result  # a stream that cannot be read again
            _rewind(source, start)
            try:
                return _import_along(store, source, start, filename, progress, commit, along)
            except LostRace as lost_again:
                return lost_again.result
    except KeyboardInterrupt:
        raise ImportInterrupted(filename, commit.stored(store)) from None


def _rewind(source: bytes | BinaryIO, start: int | None) -> None:
    if start is not None:
        source.seek(start)  # type: ignore[union-attr]


def _import_along(store: GameStore, source: bytes | BinaryIO, start: int | None, filename: str,
                  progress: Callable[[int], None] | None, commit: _Commit, along: Along | None) -> ImportResult:
    """The import, with ``along`` folding its events; done again without it when that fold fails (its transaction
    rolled back: nothing of the first attempt is stored)."""
    try:
        return _import(store, source, filename, progress, commit, along)
    except AlongsideFailed:
        if along is None:
            raise
        _rewind(source, start)
        return _import(store, source, filename, progress, commit, None)


def _import(store: GameStore, source: bytes | BinaryIO, filename: str, progress: Callable[[int], None] | None,
            commit: _Commit, along: Along | None = None) -> ImportResult:
    reader = LogReader(source)
    if reader.header is None:
        raise LogInvalid(filename, reader.errors)
    game_id = reader.header.id
    try:
        with store_errors(store, filename, game_id), SpilledIndex() as index:  # bounded memory on logs of any length
            engine, version, pending = _resume(store, reader, index)
            return _append(store, reader, filename, engine, version, pending, progress, commit, along)
    except _Conflict as conflict:
        for _ in reader.events():  # an invalid log is reported as invalid, not as a conflict
            pass
        if reader.errors:
            raise LogInvalid(filename, reader.errors) from None
        return ImportResult(Outcome.CONFLICT, game_id, message=conflict.message)


class LostRace(Exception):
    """Another import of the same game was stored first (they collided on an event version); ``result`` says so."""

    def __init__(self, result: ImportResult):
        super().__init__(result.message)
        self.result = result


@contextmanager
def store_errors(store: GameStore, filename: str, game_id: str) -> Iterator[None]:
    """Say what the store's errors during an import mean for this log.

    Raises :class:`LostRace` for a version collision (the transaction is
    rolled back: a conflict, nothing stored) and
    :class:`~projections.store.errors.StoreBusy`, naming the log, when another
    writer held the lock past the lock timeout; other errors pass as they are.
    """
    try:
        yield
    except VersionCollision:
        raise LostRace(ImportResult(
            Outcome.CONFLICT, game_id,
            message=f"another import of game {game_id!r} was stored first; import again to add what is new")) from None
    except StoreBusy as busy:
        raise StoreBusy(f"{filename}: {busy}; nothing stored, import again") from busy


def _resume(store: GameStore, reader: LogReader, index: EventIndex) -> tuple[Engine, int, Iterator[tuple[int, Any]]]:
    """Fold the stored game while checking that the log repeats it line for line.

    Returns the engine at the end of the stored history, the number of stored
    events, and the log's remaining (new) lines. Raises :class:`_Conflict`.
    """
    header, rules = reader.header, reader.rules
    history = store.history(header.id)
    first = next(history, None)
    if first is None:
        return rules.engine(header, reader.header_line, index=index), 0, reader.events()
    engine = rules.engine.from_history([first], index)
    _check_header(engine, header, reader.header_line)
    incoming = reader.events()
    version = 1
    for event in history:
        version += 1
        engine.apply(event)
        if isinstance(event, rules.engine.LINE_RECORDED):
            got = next(incoming, None)
            if got is None:
                raise _Conflict(f"the stored game {header.id!r} has line {event.line}, which this log lacks")
            if got != (event.line, event.event):
                line = min(got[0], event.line)
                raise _Conflict(f"line {line} differs from the stored game {header.id!r}")
    return engine, version, incoming


def _append(store: GameStore, reader: LogReader, filename: str, engine: Engine, version: int,
            pending: Iterator[tuple[int, Any]], progress: Callable[[int], None] | None,
            commit: _Commit | None = None, along: Along | None = None) -> ImportResult:
    """Decide the new lines and write them, with the catalog row, in one transaction.

    The catalog row is written whenever events are: a header-only log's too.
    A game stored without its row (as older gamelog stored a header-only
    log) gets it now. ``along`` (:data:`Along`) folds the events written, in the same transaction.
    """
    commit = commit or _Commit()
    header = reader.header
    added, first_new, last_new = 0, None, None
    with store.transaction() as cursor:
        head = store.head(header.id)  # inside the transaction: no other writer can move it now
        folding = along(cursor) if along is not None else None
        batch = engine.header_events() if version == 0 else []
        written = version  # the version of the last event handed to the store
        for line, event in pending:
            batch.extend(engine.record(line, event))
            added, last_new = added + 1, line
            first_new = first_new or line
            if len(batch) >= BATCH:
                head = store.append(cursor, header.id, written + 1, batch, head)
                if folding is not None:
                    folding.fold(header.id, written + 1, batch)
                written, batch = written + len(batch), []
                if progress:
                    progress(reader.line)
        if reader.errors:
            raise LogInvalid(filename, reader.errors)  # rolls the transaction back
        if added:
            batch.extend(engine.finish_log())
        if batch:
            head = store.append(cursor, header.id, written + 1, batch, head)
            if folding is not None:
                folding.fold(header.id, written + 1, batch)
            written += len(batch)
        if folding is not None and written > version:
            folding.finish()
        if written > version or store.summary(header.id) is None:
            store.save_summary(cursor, summarise(engine.state, written, head.hex()))
        if written > version:
            commit.result = ImportResult(Outcome.IMPORTED, header.id, added, first_new, last_new)
            commit.head = head
        else:
            commit.result = ImportResult(Outcome.ALREADY_IMPORTED, header.id)
    commit.done = True
    if progress:
        progress(reader.line)
    return commit.result


def _check_header(engine: Engine, header: Any, header_line: int) -> None:
    stored = engine.state
    if stored.header.game != header.game:
        raise _Conflict(f"the stored game {header.id!r} is a {stored.header.game} game, this log is {header.game}")
    if stored.header_line != header_line or not stored.header.same_game(header):
        raise _Conflict(f"line {header_line}: the header differs from the stored game {header.id!r}")


def append_decided(store: GameStore, engine: Engine, version: int, events: list[Any], first_line: int,
                   last_line: int, along: Along | None = None, head: bytes | None = None) -> tuple[ImportResult, bytes]:
    """Write ``events``, decided by ``engine`` (now at their end) for the lines ``first_line`` to ``last_line``
    after the ``version`` stored events of its game the caller holds decided: in one transaction, numbered from
    ``version + 1``, with the game's catalog row; nothing is decided again. ``head``: the chain hash of the event at
    ``version``, when the caller holds it (else it is read). Returns the result and the chain hash after the events.

    When another writer stored an event of the game after ``version``, the write collides on the event version and
    is rolled back: the result is a ``conflict`` (nothing stored), and the caller's engine is no longer the stored
    game's. ``along`` folds the events in the same transaction; when it fails, they are written without it. Raises
    :class:`~projections.store.errors.StoreBusy` when another writer held the store's lock past its lock timeout.
    """
    game_id = engine.state.header.id

    def write(along: Along | None) -> ImportResult:
        nonlocal head
        with store.transaction() as cursor:
            # Read inside the transaction when not given: no other writer can move it now. A head held that is no
            # longer the last is of an event another writer followed: the write collides on its version.
            previous = store.head(game_id) if head is None else head
            folding = along(cursor) if along is not None else None
            head = store.append(cursor, game_id, version + 1, events, previous)
            if folding is not None:
                folding.fold(game_id, version + 1, events)
                folding.finish()
            store.save_summary(cursor, summarise(engine.state, version + len(events), head.hex()))
        lines = sum(1 for event in events if type(event) is engine.LINE_RECORDED)
        return ImportResult(Outcome.IMPORTED, game_id, lines, first_line, last_line)

    given = head
    try:
        with store_errors(store, "entry", game_id):
            try:
                return write(along), head
            except AlongsideFailed:
                head = given
                return write(None), head
    except LostRace as lost:
        return lost.result, given
