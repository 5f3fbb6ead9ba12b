"""Where a game comes from: a log file read in memory, or a game kept in a store; and the store itself.

GAME, as every command takes it (docs/cli.md), is decided here and nowhere
else: ``-`` is a log read from standard input (once, as bytes); an existing
file is a log, read and decided in memory (nothing stored); anything else is
the ``id`` of a stored game. Given ``source_format`` (``--from``), the file is
that tool's export, read as the log it converts to. A store is a SQLite
file path or a ``postgresql://`` URL.
"""

from __future__ import annotations

import os
from contextlib import ExitStack, contextmanager
from functools import cached_property
from itertools import chain
from typing import Any, BinaryIO, Iterator, TextIO

from gamelog.domain.engine import GameState
from gamelog.domain.errors import InputError, LogInvalid
from gamelog.domain.games import GAMES
from gamelog.domain.reader import LogReader
from gamelog.domain.replay import decide
from gamelog.projections.importing.spill import SpilledIndex
from gamelog.projections.reports.model import ContextDamaged, GameNotInViews
from gamelog.projections.reports.states import LineNotInHistory
from gamelog.projections.store.application import (DEFAULT_STORE, TURN_SLACK, GameStore, GameSummary, StoreDamaged,
                                                   StoreError)
from gamelog.projections.store.backends import backend_class, scheme
from gamelog.projections.store.verify import fingerprint_of
from gamelog.projections.views.folder import KEPT
from gamelog.projections.views.keeper import ViewKeeper, derived_views, views_damaged, views_in_memory
from gamelog.projections.views.snapshots import nearest_snapshot

from .errors import BadInput, GameNotFound, StoreMissing, UnsupportedStore
from .inputs import STDIN, export_hint, opened_source
from .progress import STEP, Advance, Progress, over_lines

__all__ = ["DEFAULT_STORE", "STORE_ENV", "LogFile", "LogStream", "Source", "StoredGame", "check_file_given",
           "check_store_location", "is_log_file",
           "open_game", "open_game_store", "opened_game_store", "read_log_file", "reading_views", "store_exists",
           "streamed_log"]

STORE_ENV = "GAMELOG_STORE"
"""The environment variable naming the store when no ``--store`` is given."""

def check_store_location(location: str) -> str:
    """``location`` when a store backend takes it (``projections.store.backends``); raises
    :class:`UnsupportedStore` for a URL none takes (rather than taking ``ftp://host/db`` for a SQLite file's name)."""
    try:
        backend_class(location)
    except StoreError:
        raise UnsupportedStore(f"unsupported URL scheme {scheme(location)!r} in {location!r}: give a SQLite file "
                               "path or a postgresql://user@host:port/db URL") from None
    return location


def store_exists(location: str) -> bool:
    """Whether there may be a store at ``location``: a PostgreSQL URL, or a SQLite file that exists."""
    return "://" in location or os.path.exists(location)


def open_game_store(location: str, *, must_exist: bool = False) -> GameStore:
    """The store at ``location``; the caller closes it. With ``must_exist``, a SQLite file that does not exist is
    :class:`StoreMissing` rather than created by reading it. Raises the store's errors (``StoreError``...)."""
    if must_exist and not store_exists(location):
        raise StoreMissing(f"no store at {location} (import a log first, or name one with --store)")
    return GameStore(location)


@contextmanager
def opened_game_store(location: str, *, must_exist: bool = False) -> Iterator[GameStore]:
    """:func:`open_game_store` for a ``with`` block: closed (its connections returned) at the end."""
    store = open_game_store(location, must_exist=must_exist)
    try:
        yield store
    finally:
        store.close()


class LogFile:
    """A log read and decided in memory: its history, and the views of it built when first asked for."""

    def __init__(self, name: str, game: str, events: list[Any], errors: list[InputError] | None = None):
        self.name = name
        """The log as the user named it."""
        self.game = game
        """The game's name in the registry (``domain.games.GAMES``)."""
        self.events = events
        self.errors: list[InputError] = list(errors or [])
        """The log's input errors, when it was read without ``strict`` (a strict read raises them)."""
        self.id: str = events[0].event.id

    def history(self, *, turn: int | None = None) -> list[Any]:
        """Every event of the game, the header's first (``turn``: :meth:`StoredGame.history`'s hint, not needed here)."""
        return self.events

    def resumed(self, **point: int | None) -> None:
        """A log file's replay folds its events in memory from the header (:meth:`StoredGame.resumed`): None."""
        return None

    @cached_property
    def _views(self) -> Any:
        return views_in_memory(self.events, snapshots=False)  # a log file is replayed from its events in memory

    @contextmanager
    def views(self) -> Iterator[Any]:
        """A cursor on the views of this game, folded in memory (once)."""
        yield self._views.cursor()

    def fingerprint(self) -> str:
        """The fingerprint this log's game would have once imported."""
        return fingerprint_of(self.id, self.events)

    def not_in_views(self) -> GameNotFound:
        return GameNotFound(f"no game {self.id!r} in the views of {self.name}")


class StoredGame:
    """A game kept in a store, read as it is asked for: its catalog row, its history, its views."""

    def __init__(self, store: GameStore, game_id: str, location: str):
        self.store = store
        self.id = game_id
        self.name = game_id
        self.location = location

    def not_found(self) -> GameNotFound:
        where = f" (in {self.location})" if self.location else ""
        return GameNotFound(f"no log file or stored game named {self.id!r}{where}")

    def not_in_views(self) -> StoreError:
        """What it means that the views hold no game of this id: the catalog lists it, so the views are damaged
        (``StoreDamaged``, saying to rebuild them); else :class:`GameNotFound`."""
        self.summary  # raises GameNotFound, or StoreDamaged for a game stored without its catalog row
        return views_damaged(f"they hold no game {self.id!r}, which the catalog lists")

    @cached_property
    def summary(self) -> GameSummary:
        """The game's catalog row; raises :class:`GameNotFound`, and ``StoreDamaged`` when the game's events are
        stored but its catalog row is not."""
        summary = self.store.summary(self.id)
        if summary is None:
            if self.store.has_game(self.id):
                raise StoreDamaged(f"the catalog (gamelog_games) has no row for game {self.id!r}, whose events are "
                                   "stored; run `gamelog projections rebuild` to derive it again")
            raise self.not_found()
        return summary

    @property
    def game(self) -> str:
        return self.summary.game

    def history(self, *, turn: int | None = None, first_page: int | None = None) -> Iterator[Any]:
        """Every stored event of the game, read as it goes (``turn``: the caller reads to the end of that turn,
        and ``first_page``: how many events the first read reads, hints of how much to read at once); raises
        :class:`GameNotFound`, and ``StoreDamaged`` when the catalog lists the game but none of its events can be
        read."""
        history = self.store.history(self.summary.id, turn=turn, first_page=first_page)
        first = next(history, None)  # raises StoreDamaged when it cannot be read
        if first is None:
            raise StoreDamaged(f"the catalog lists game {self.id!r} but none of its events are stored; "
                               f"`gamelog verify {self.id}` says more")
        return chain([first], history)

    def resumed(self, *, line: int | None = None, turn: int | None = None,
                round: int | None = None) -> tuple[Any, GameState, Iterator[Any]] | None:
        """Where a replay to that point (the end when none is given) may start instead of the header: (the
        header's event, the state restored from the views' last replay snapshot before the point, the stored
        events after it), or None when there is no such snapshot, the views are not this gamelog's derivation,
        or the snapshot cannot be read: then the replay folds the history from the header.

        The views are not brought up to date (a snapshot is of events that never change); raises
        :class:`GameNotFound`, and ``StoreDamaged`` for the game's header or a later event that cannot be read.
        """
        summary = self.summary
        try:
            with self.store.reading() as raw:
                found = nearest_snapshot(self.store.backend.views_cursor(raw, KEPT), summary.id, summary.versions,
                                         line=line, turn=turn, round=round)
        except (StoreError, TypeError, ValueError):
            # No views (a store never caught up, read-only), or a row that is not one gamelog wrote (verify
            # names it): the history from the header.
            return None
        if found is None:
            return None
        version, data, following = found
        header = next(self.history(first_page=1))
        try:
            state = GAMES[summary.game].engine.STATE.resumed(header.event, header.line, data)
        except (ValueError, KeyError, AttributeError):
            return None
        # To a point: up to the next snapshot past it (about EVERY events; the point is before it, but for the end
        # of a turn that began before it), then a page at a time; to the end, every event after it, so.
        rest = self.store.history(summary.id, after=version, header=header,
                                  first_page=None if following is None else following - version + TURN_SLACK)
        return header, state, rest

    @contextmanager
    def views(self) -> Iterator[Any]:
        """A cursor on the store's views, brought up to date first.

        What is read from the views is derived from the game's events, so each of them is read first: one that
        cannot be read (or none at all) raises ``StoreDamaged`` rather than a report made of views that hide it.
        Raises :class:`GameNotFound`, and ``StoreDamaged`` for views that cannot be brought up to date.
        """
        for _ in self.history():  # raises StoreDamaged naming the first event that cannot be read
            pass
        keeper = ViewKeeper(self.store)
        keeper.catch_up()
        with keeper.connection() as cursor:
            yield cursor

    def fingerprint(self) -> str:
        """The head of the game's hash chain, as the catalog recorded it."""
        return self.summary.fingerprint


class LogStream:
    """A log file read as it is asked for, holding none of its events: its views folded into a temporary database on
    disk as it was read (:func:`streamed_log`), its history decided again from the file each time it is asked for.
    What a report of a long log file reads, in memory that does not grow with the log."""

    def __init__(self, name: str, path: str, game: str, game_id: str, cursor: Any, source_format: str | None = None):
        self.name = name
        self.path = path
        self.game = game
        self.id = game_id
        self.source_format = source_format
        """The tool the file is an export of (converted again each time it is read), None for a log."""
        self._cursor = cursor

    def resumed(self, **point: int | None) -> None:
        """A log file's replay folds its events from the header (:meth:`StoredGame.resumed`): None."""
        return None

    def history(self) -> Iterator[Any]:
        """Every event of the game, the header's first, decided again from the file as they are read."""
        with opened_source(self.path, source_format=self.source_format) as (handle, _, _), SpilledIndex() as index:
            yield from decide(LogReader(handle), index)

    @contextmanager
    def views(self) -> Iterator[Any]:
        """A cursor on the views of this game, folded when the log was read."""
        yield self._cursor

    def not_in_views(self) -> GameNotFound:
        return GameNotFound(f"no game {self.id!r} in the views of {self.name}")


@contextmanager
def streamed_log(path: str, source_format: str | None = None, progress: Progress | None = None) -> Iterator[LogStream]:
    """The log file at ``path`` (not ``-``: standard input is read once) as a :class:`LogStream` for the block: read
    and decided once, its views folded into a temporary database as it is read, removed at the end. With
    ``source_format``, the file is that tool's export (converted in memory each time it is read).

    Raises :class:`~gamelog.domain.errors.LogInvalid` with every input error (nothing is reported of a bad log), and
    :class:`BadInput` for a file that cannot be read (or converted). ``progress``, given, shows a large log being
    read."""
    first: list[Any] = []

    def remembered(events: Iterator[Any]) -> Iterator[Any]:
        for event in events:
            if not first:
                first.append(event)
            yield event

    # The line index on disk (as an import's): what a correction needs of every line is not held either.
    with (opened_source(path, source_format=source_format) as (handle, name, real), SpilledIndex() as index,
          ExitStack() as held):
        reader = LogReader(handle)
        with over_lines(progress, path, "reading", source_format) as advance:  # the display ends once read; the views stay
            cursor = held.enter_context(derived_views(_telling(remembered(decide(reader, index)), reader, advance),
                                                      sums=False, snapshots=False))  # a report reads no sums
        if reader.errors or not first:
            raise LogInvalid(name, export_hint(reader.errors, real))
        yield LogStream(name, path, reader.header.game, first[0].event.id, cursor, source_format)


Source = LogFile | StoredGame | LogStream
"""A game, wherever it came from."""


@contextmanager
def reading_views(source: Source) -> Iterator[None]:
    """Read the views of ``source`` in the block: views that do not hold the game, or hold what its events do
    not give (a running context that is not one, a line no event has), are the store's damage for a stored game
    (``StoreDamaged``, saying to rebuild them), :class:`GameNotFound` when the game is not stored."""
    try:
        yield
    except GameNotInViews:
        raise source.not_in_views() from None
    except (ContextDamaged, LineNotInHistory) as exc:
        if isinstance(source, StoredGame):
            raise views_damaged(str(exc)) from exc
        raise


def read_log_file(source: str | os.PathLike[str] | BinaryIO | TextIO, name: str | None = None, *,
                  on_error: str = "raise", source_format: str | None = None,
                  advance: Advance | None = None) -> LogFile:
    """Read and decide a log in memory: a file path, or an open handle, binary or text (``name`` names it in messages;
    by default the path, or the handle's ``name``); with ``source_format``, that tool's export, converted first
    (:func:`~.inputs.opened_source`).

    ``on_error`` says what an input error does: ``"raise"`` (the CLI's way) reads the whole log, then raises
    :class:`~gamelog.domain.errors.LogInvalid` with every one; ``"stop"`` raises it at the first, reading no
    further; ``"keep"`` keeps them on the returned log's ``errors`` (its history is what the valid lines make),
    raising only when not even the header can be read. ``advance``, given, is told the line reached as the log is
    read. Raises :class:`BadInput` for a file that cannot be read (or, with ``source_format``, converted).
    """
    if on_error not in ("raise", "stop", "keep"):
        raise ValueError(f"on_error is 'raise', 'stop' or 'keep', not {on_error!r}")
    events: list[Any] = []
    with opened_source(source, name, source_format=source_format) as (handle, name, path):
        reader = LogReader(handle)
        for event in _telling(decide(reader), reader, advance):
            if reader.errors and on_error == "stop":
                break
            events.append(event)
    if reader.errors and (on_error != "keep" or not events):
        errors = reader.errors[:1] if on_error == "stop" else reader.errors
        raise LogInvalid(name, export_hint(errors, path))
    return LogFile(name, reader.header.game, events, reader.errors)


def _telling(events: Iterator[Any], reader: LogReader, advance: Advance | None) -> Iterator[Any]:
    """The events decided from ``reader``'s lines, ``advance`` told the line reached every :data:`STEP` lines."""
    if advance is None:
        yield from events
        return
    told = 0
    for event in events:
        yield event
        if reader.line - told >= STEP:
            told = reader.line
            advance(told)


def is_log_file(game: str) -> bool:
    """Whether GAME names a log file (an existing file, or ``-``: standard input) rather than a stored game."""
    return game == STDIN or os.path.isfile(game)


def check_not_missing(game: str, location: str) -> None:
    """Raise :class:`BadInput` (``no such log file``) when GAME, which names no file, reads as one (``.jsonl``,
    ``.json``) and there is no store at ``location`` to hold a game of that id: the user meant a file."""
    if game.endswith((".jsonl", ".json")) and not store_exists(location):
        raise BadInput(f"no such log file: {game}")


def check_file_given(game: str, source_format: str | None) -> None:
    """Raise :class:`BadInput` when ``source_format`` (``--from``) is given and GAME names no file: an export is a
    file, never a stored game."""
    if source_format is not None and not is_log_file(game):
        raise BadInput(f"no such export file: {game} (--from {source_format} reads a file, not a stored game)")


@contextmanager
def open_game(game: str, location: str, source_format: str | None = None,
              progress: Progress | None = None) -> Iterator[Source]:
    """GAME resolved: ``-`` (standard input) or an existing file is read as a log (the store is not opened); anything else is a stored
    game's id in the store at ``location``, which must exist. The store is closed at the end of the block. With
    ``source_format`` (``--from``), GAME is a file, that tool's export, read as the log it converts to.

    Raises :class:`BadInput` (a log that cannot be read or converted, an export file that does not exist, or
    ``no such log file`` for a missing ``.jsonl`` when there is no store either),
    :class:`~gamelog.domain.errors.LogInvalid`, and ``StoreMissing``; a stored game's parts raise
    :class:`GameNotFound` when first asked for. ``progress``, given, shows a large log being read.
    """
    check_file_given(game, source_format)
    if is_log_file(game):
        with over_lines(progress, game, "reading", source_format) as advance:
            log = read_log_file(game, source_format=source_format, advance=advance)
        yield log
        return
    check_not_missing(game, location)
    with opened_game_store(location, must_exist=True) as store:
        yield StoredGame(store, game, location)

