"""Importing many logs in one command: games decided in worker processes, one writer.

Deciding a log (reading, the rules, encoding and sealing each event) is most
of an import's time and needs nothing of the other logs, while the store has
one write lock. So :func:`import_logs` hands each log to a pool of worker
processes (one per core, ``os.cpu_count()``), which read the store's game as
it is (without writing), decide the new lines and seal them into rows, spilled
to a temporary file so that memory stays flat; the calling process alone
writes, each log's rows and catalog row in one transaction of its own, as
:func:`~projections.importing.importer.import_log` does. A worker folds a new
game's views too, into a private database (``ApartViews``), and the writer
copies their rows in the same transaction (its ``along``: the views are then
committed with the game); the game of a log it resumes, it folds from the rows.
The pool takes a moment to start, and workers may fall behind: the writer
imports itself, the ordinary way, any log no worker has begun (each log is
claimed by one process, a file in the scratch folder). The outcome per log
is the same as importing the logs one after another:

* a log whose game the store moved since its worker read it (an earlier log
  of the same command, or another importer, added to it) is imported again
  the ordinary way, in turn: the worker's rows are not written;
* so is a log that adds nothing (``already imported``), and one its worker
  could not prepare (a file it could not read: the ordinary import says why);
* input errors and conflicts are reported per log, nothing of that log stored.

Workers ignore Ctrl-C: the writer alone is interrupted, and says what it
stored (:class:`~projections.importing.importer.ImportInterrupted`).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import tempfile
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, BinaryIO, Callable, Iterator

import msgspec

from gamelog.domain.errors import InputError, LogInvalid
from gamelog.domain.reader import LogReader
from gamelog.projections.importing.importer import (
    BATCH,
    Along,
    AlongsideFailed,
    ImportInterrupted,
    ImportResult,
    LostRace,
    Outcome,
    _Commit,
    _Conflict,
    _resume,
    import_log,
    store_errors,
)
from gamelog.projections.importing.spill import SpilledIndex
from gamelog.projections.store.application import GameStore, GameSummary, sealed_rows
from gamelog.projections.store.catalog import summarise
from gamelog.projections.views.keeper import ApartViews as _Apart


@dataclass(frozen=True)
class Prepared:
    """A log decided by a worker: what to write, and what was read of the store to decide it.

    ``rows`` is the file of sealed rows (msgpack chunks of :data:`BATCH`-ish rows),
    None when there is nothing to write; ``errors`` the log's input errors;
    ``result`` a conflict found, or what writing the rows gives.
    """

    game_id: str
    head: bytes
    """The chain head of the stored game when the worker read it: the rows follow it."""
    rows: str | None = None
    summary: GameSummary | None = None
    result: ImportResult | None = None
    errors: list[InputError] | None = None
    views: str | None = None
    """A new game's views, folded by the worker (``projections.views.keeper.ApartViews``): the file of their
    (table, rows) chunks, None when the writer folds the rows itself (a game stored already)."""


_store: GameStore | None = None  # a worker's store, opened once per process


WATCH = 0.5
"""Seconds between a worker's looks at whether the importer that started it is still there."""


def _start_worker(location: str, importer: int) -> None:
    global _store
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the writer's to handle
    threading.Thread(target=_end_with, args=(importer,), name="end-with-importer", daemon=True).start()
    _store = GameStore(location)


def _end_with(importer: int) -> None:
    """End this worker once the importer ``importer`` (a process id) is gone, even killed with SIGKILL.

    A worker's parent is the pool's forkserver, not the importer, and the pool's
    queues do not close when the importer is killed: a worker waiting for its next
    log would wait for ever, keeping the forkserver and the resource tracker alive
    with it. So each worker looks, and ends; the forkserver and the resource
    tracker then end as their last user is gone.
    """
    while True:
        time.sleep(WATCH)
        if not _running(importer):
            os._exit(1)


def _running(pid: int) -> bool:
    """Whether the process ``pid`` is running (not gone, nor a zombie waiting for its parent)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # there, though not ours to signal
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True  # no /proc: the signal's answer stands


def claimed(claim: str) -> bool:
    """Take the log whose claim file is ``claim``: True for the one process (a worker, or the writer) that
    creates the file first, False for any other."""
    try:
        os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def prepare(path: str, scratch: str, claim: str | None = None) -> Prepared | None:
    """Decide one log against the store as it is; None when the ordinary import should do it (it says why), or
    when the writer took the log itself (``claim``: :func:`claimed`).

    Runs in a worker process; writes nothing to the store.
    """
    if claim is not None and not claimed(claim):
        return None  # the writer imports it (it found no worker at it)
    try:
        with open(path, "rb") as handle:
            return _prepare(_store, handle, scratch)
    except Exception:  # an unreadable file, a damaged store...: the writer's ordinary import reports it
        return None


def _prepare(store: GameStore, handle: BinaryIO, scratch: str) -> Prepared | None:
    reader = LogReader(handle)
    if reader.header is None:
        return Prepared("", b"", errors=reader.errors)
    game_id = reader.header.id
    head = store.head(game_id)
    try:
        with SpilledIndex() as index:
            engine, version, pending = _resume(store, reader, index)
            if store.head(game_id) != head:
                return None  # written meanwhile: decided in turn by the writer
            fd, rows_path = tempfile.mkstemp(prefix="rows-", dir=scratch)
            encoder = msgspec.msgpack.Encoder()
            batch = engine.header_events() if version == 0 else []
            written, added, first, last, chain = version, 0, None, None, head
            # A new game's views are folded here too, in parallel with the other workers: the writer copies them.
            views = _Apart(game_id) if version == 0 else None
            with os.fdopen(fd, "wb") as out:
                for line, event in pending:
                    batch.extend(engine.record(line, event))
                    added, last, first = added + 1, line, first or line
                    if len(batch) >= BATCH:
                        rows, chain = sealed_rows(written + 1, batch, chain)
                        _put(out, encoder.encode(rows))
                        views = _fold_apart(views, batch)
                        written, batch = written + len(batch), []
                if added:
                    batch.extend(engine.finish_log())
                if batch:
                    rows, chain = sealed_rows(written + 1, batch, chain)
                    _put(out, encoder.encode(rows))
                    views = _fold_apart(views, batch)
                    written += len(batch)
    except _Conflict as conflict:
        for _ in reader.events():  # an invalid log is reported as invalid, not as a conflict
            pass
        if reader.errors:
            return Prepared(game_id, head, errors=reader.errors)
        return Prepared(game_id, head, result=ImportResult(Outcome.CONFLICT, game_id, message=conflict.message))
    if reader.errors or written == version:
        os.remove(rows_path)
        if views is not None:
            views.close()
        if reader.errors:
            return Prepared(game_id, head, errors=reader.errors)
        return None  # nothing new: the ordinary import says so (and writes a missing catalog row)
    return Prepared(game_id, head, rows_path, summarise(engine.state, written, chain.hex()),
                    ImportResult(Outcome.IMPORTED, game_id, added, first, last), views=_views_file(views, scratch))


def _fold_apart(views: _Apart | None, events: list) -> _Apart | None:
    """Fold events into a new game's views apart; None (the writer folds the rows) once that fails."""
    if views is None:
        return None
    try:
        views.fold(events)
        return views
    except Exception:  # what cannot be folded apart the writer folds, and says what is wrong
        views.close()
        return None


def _views_file(views: _Apart | None, scratch: str) -> str | None:
    """The file of a new game's views folded apart, as (table, rows) chunks; None when there are none."""
    if views is None:
        return None
    fd, path = tempfile.mkstemp(prefix="views-", dir=scratch)
    encoder = msgspec.msgpack.Encoder()
    try:
        with os.fdopen(fd, "wb") as out:
            for page in views.pages():
                _put(out, encoder.encode(page))
    except Exception:
        os.remove(path)
        return None
    finally:
        views.close()
    return path


def _write(store: GameStore, path: str, prepared: Prepared | None, along: Along | None = None) -> ImportResult:
    """Write what a worker decided, in one transaction; the ordinary import when it cannot be written as decided.

    ``along`` folds the rows written in the same transaction (as ``import_log``'s does). Raises what
    :func:`~projections.importing.importer.import_log` raises,
    :class:`~projections.importing.importer.ImportInterrupted` on Ctrl-C too.
    """
    if prepared is not None and prepared.errors is not None:
        raise LogInvalid(path, prepared.errors)
    if prepared is not None and prepared.rows is None and prepared.result is not None:
        return prepared.result  # a conflict: stored lines never change, so it stays one
    if prepared is None or store.head(prepared.game_id) != prepared.head:
        return _ordinary(store, path, along)
    commit = _Commit()
    try:
        try:
            result = _write_prepared(store, path, prepared, commit, along)
        except AlongsideFailed:  # rolled back: written again without the views (their catch-up says what is wrong)
            result = _write_prepared(store, path, prepared, commit, None)
    except ImportInterrupted:
        raise
    except KeyboardInterrupt:
        raise ImportInterrupted(path, commit.stored(store)) from None
    return _ordinary(store, path, along) if result is None else result


def _write_prepared(store: GameStore, path: str, prepared: Prepared, commit: _Commit,
                    along: Along | None) -> ImportResult | None:
    """The rows and the catalog row in one transaction; None (nothing written) when the game moved since, or
    another importer's rows of it were stored first (a version collision)."""
    try:
        with store_errors(store, path, prepared.game_id):
            with store.transaction() as cursor:
                if store.head(prepared.game_id) != prepared.head:
                    return None  # another writer added to the game since the worker read it
                folding = along(cursor) if along is not None else None
                views = prepared.views if folding is not None else None
                with open(prepared.rows, "rb") as handle:
                    for chunk in _chunks(handle):
                        store.insert_rows(cursor, prepared.game_id, chunk)
                        if folding is not None and views is None:
                            folding.fold_rows(prepared.game_id, chunk[0][0], chunk)
                if views is not None:  # a new game's views, folded by the worker
                    with open(views, "rb") as handle:
                        folding.take(prepared.game_id, _chunks(handle, _VIEW_CHUNK))
                if folding is not None:
                    folding.finish()
                store.save_summary(cursor, prepared.summary)
                commit.result = prepared.result
                commit.head = bytes.fromhex(prepared.summary.fingerprint)
            commit.done = True
    except LostRace:
        return None  # another importer stored the game first: the ordinary import reads the log against it
    return commit.result


def _put(out: BinaryIO, blob: bytes) -> None:
    """One chunk of rows into a worker's file: its length (4 bytes), then its msgpack."""
    out.write(len(blob).to_bytes(4, "little"))
    out.write(blob)


_ROW_CHUNK = msgspec.msgpack.Decoder(list[tuple[int, str, bytes]])
_VIEW_CHUNK = msgspec.msgpack.Decoder(tuple[str, list[tuple]])


def _chunks(handle: BinaryIO, decoder: msgspec.msgpack.Decoder = _ROW_CHUNK) -> Iterator[Any]:
    """The chunks of a worker's file (of rows, or of views), one at a time."""
    while size := handle.read(4):
        yield decoder.decode(handle.read(int.from_bytes(size, "little")))


def _ordinary(store: GameStore, path: str, along: Along | None = None) -> ImportResult:
    with open(path, "rb") as handle:
        return import_log(store, handle, path, along=along)


def worker_context() -> multiprocessing.context.BaseContext:
    """How the workers start: a fresh interpreter each, never a fork of this process (a SQLite connection must not
    cross a fork, and this process holds the store's). ``forkserver`` where the platform has it (Linux, macOS:
    workers fork from a server that imported gamelog once), else ``spawn`` (Windows has no forkserver)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])  # workers fork with gamelog imported: no start-up per worker
        return context
    return multiprocessing.get_context("spawn")


def import_logs(store: GameStore, paths: list[str], workers: int | None = None,
                along: Along | None = None) -> Iterator[tuple[str, Callable[[], ImportResult]]]:
    """For each log in order, its path and the call that imports it (raising what ``import_log`` raises).

    The logs are decided ahead in worker processes; calling a log's import
    writes it (and ``along`` folds what it writes, in its transaction). Stop
    early (close the iterator) and the workers stop too.
    """
    workers = max(1, min(workers or os.cpu_count() or 1, len(paths)))
    with tempfile.TemporaryDirectory(prefix="gamelog-archive-") as scratch:
        context = worker_context()
        pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                   initargs=(store.location, os.getpid()))
        ahead = 2 * workers  # logs a worker decided or is deciding, past the one written: the disk holds little
        futures: dict[int, Future] = {}
        failed: list[BaseException] = []

        def claim(n: int) -> str:
            return os.path.join(scratch, f"claim-{n}")

        def start() -> None:
            # The first submission waits for the forkserver and the workers to start (a fresh interpreter
            # importing gamelog): in a thread of its own, while the writer imports the first logs itself.
            try:
                for n in range(min(ahead, len(paths))):
                    futures[n] = pool.submit(prepare, paths[n], scratch, claim(n))
            except BaseException as exc:  # the pool cannot start: every log is the writer's
                failed.append(exc)

        starter = threading.Thread(target=start, name="archive-pool-start", daemon=True)
        starter.start()
        submitted = min(ahead, len(paths))
        try:
            for n, path in enumerate(paths):
                if not starter.is_alive() and not failed:
                    while submitted < min(n + 1 + ahead, len(paths)):
                        futures[submitted] = pool.submit(prepare, paths[submitted], scratch, claim(submitted))
                        submitted += 1
                future = futures.pop(n, None)
                # A log no worker has begun (the workers are starting, or busy with others) the writer imports
                # itself rather than wait: the first logs while the pool starts, then any that are behind.
                if (future is None or not future.done()) and claimed(claim(n)):
                    prepared = None
                else:
                    if future is None:  # a worker took it as it was being submitted
                        starter.join()
                        future = futures.pop(n)
                    try:
                        prepared = future.result()
                    except BrokenProcessPool:  # a worker could not start (or died): the ordinary import, in turn
                        prepared = None
                try:
                    yield path, (lambda p=path, d=prepared: _write(store, p, d, along))
                finally:
                    for kept in (prepared.rows, prepared.views) if prepared is not None else ():
                        if kept is not None and os.path.exists(kept):
                            os.remove(kept)
        finally:
            starter.join()
            pool.shutdown(wait=True, cancel_futures=True)
