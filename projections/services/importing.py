"""Import logs into a store: plain logs, several at once, or other tools' exports converted first.

Each log is imported whole or not at all (``projections.importing``); what
became of it is a value (:class:`LogImported`), handed out as soon as it is
known. Interrupted (Ctrl-C), :meth:`Importer.interrupted` says exactly what
was stored, what was not, and where the views stand (:class:`Interruption`).
Each import folds its events into the views in its own transaction when they
are up to date with the store (``ViewKeeper.alongside``); a catch-up at the end
folds whatever they missed before (another writer's events).
"""

from __future__ import annotations

import os
from contextlib import closing, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from gamelog.domain.conversion import Summary
from gamelog.domain.errors import LogInvalid
from gamelog.domain.messages import plural
from gamelog.projections.importing.archive import import_logs
from gamelog.projections.importing.importer import ImportInterrupted, ImportResult, Outcome, import_log
from gamelog.projections.store.application import GameStore
from gamelog.projections.views.keeper import ViewKeeper

from .converting import convert_file
from .progress import Progress, count_lines, is_large
from .inputs import STDIN, export_hint, input_name, read_input
from .sources import opened_game_store
from .superseding import superseding

__all__ = ["ImportResult", "Importer", "Interruption", "LogConverted", "LogImported", "Outcome", "count_lines"]

@dataclass(frozen=True)
class LogConverted:
    """An export converted (``--from``), before its log is imported: what the conversion made of it."""

    path: str
    source_format: str
    summary: Summary


@dataclass(frozen=True)
class LogImported:
    """What became of one log: its import's ``result``, or None when nothing of it was stored for its input
    errors (``errors``, each ``FILE:LINE: ...``) or because it could not be read (``failure`` says why)."""

    path: str
    result: ImportResult | None
    errors: tuple[str, ...] = ()
    failure: str | None = None
    superseded: int = 0
    """Stored lines of an earlier export of the game that this later one voided (``correction`` lines)."""

    @property
    def malformed(self) -> bool:
        return self.result is None

    @property
    def conflict(self) -> bool:
        return self.result is not None and self.result.outcome is Outcome.CONFLICT


@dataclass(frozen=True)
class Interruption:
    """What an interrupted import stored and did not.

    ``path`` is the log begun last (None before the first); ``inside`` is
    whether the interrupt came inside its import, which then ``stored``
    (its result, committed before the interrupt) or did not (None); ``told``
    whether its outcome had been handed out already. ``untouched`` are the
    logs not begun; ``behind`` how many events the views are behind, or
    ``views_unreadable`` why that could not be read.
    """

    path: str | None
    inside: bool
    stored: ImportResult | None
    told: bool
    untouched: list[str]
    behind: int | None
    views_unreadable: str | None = None


class Importer:
    """Imports logs into one store in order, handing out what became of each (:meth:`outcomes`)."""

    def __init__(self, store: GameStore, logs: Sequence[str], *, source_format: str | None = None,
                 game_id: str | None = None, progress: Progress | None = None):
        """``source_format`` names the tool the files are exports of (converted, then imported), ``game_id`` the
        game's id for them (default: taken from the export); ``progress`` shows the import of a large log."""
        self.store = store
        self.logs = list(logs)
        self.source_format = source_format
        self.game_id = game_id
        self.progress = progress
        self._begun: list[str] = []
        self._told: set[str] = set()

    @classmethod
    @contextmanager
    def opened(cls, store: str, logs: Sequence[str], **options: Any) -> Iterator[Importer]:
        """An importer into the store at ``store`` (created when missing), closed at the end of the block."""
        with opened_game_store(store) as opened:
            yield cls(opened, logs, **options)

    def outcomes(self) -> Iterator[LogConverted | LogImported]:
        """Import each log in turn (its views folded with it), handing out what became of it; then bring the views
        up to date.

        Raises :class:`~.errors.BadInput` for an export that cannot be
        converted (the logs after it are not imported), ``StoreBusy`` when
        another writer held the store too long, and
        :class:`~projections.importing.importer.ImportInterrupted` (a
        KeyboardInterrupt) on Ctrl-C: :meth:`interrupted` says what was stored.
        """
        self._keeper = ViewKeeper(self.store)
        with closing(self._runs()) as runs:
            for path, run in runs:
                self._begun.append(path)  # finished, or interrupted: what is stored of it is said either way
                if self.source_format is not None:
                    converted = convert_file(path, self.source_format, self.game_id)
                    yield LogConverted(input_name(path), self.source_format, converted.summary)
                    outcome = self._import_converted(path, converted.log)
                else:
                    outcome = self._import(path, run)
                yield outcome
                self._told.add(path)
        self._keeper.catch_up()  # what the views missed before the imports, if anything (each import folds its own)

    def _runs(self) -> Iterator[tuple[str, Callable[[], ImportResult] | None]]:
        """Each log with the call that imports it: several plain logs are decided in worker processes, one a
        core."""
        if self.source_format is None and len(self.logs) > 1 and (os.cpu_count() or 1) > 1 and STDIN not in self.logs:
            yield from import_logs(self.store, self.logs, along=self._keeper.alongside)
            return
        for path in self.logs:
            yield path, (None if self.source_format is not None else lambda path=path: self._import_file(path))

    def _import_file(self, path: str) -> ImportResult:
        if path == STDIN:
            return import_log(self.store, read_input(path), input_name(path), along=self._keeper.alongside)
        shown = self.progress is not None and is_large(path)
        with open(path, "rb") as handle, \
                (self.progress(count_lines(path), f"importing {path}") if shown else nullcontext(None)) as advance:
            return import_log(self.store, handle, path, advance, along=self._keeper.alongside)

    @staticmethod
    def _import(given: str, run: Callable[[], ImportResult]) -> LogImported:
        path = input_name(given)
        try:
            return LogImported(path, run())
        except OSError as exc:
            return LogImported(path, None, failure=f"{path}: {exc.strerror or exc}")
        except LogInvalid as invalid:
            invalid = LogInvalid(invalid.filename, export_hint(invalid.errors, given))
            return LogImported(path, None, tuple(invalid.lines()),
                               f"{path}: {plural(len(invalid.errors), 'input error')}; nothing stored")

    def _import_converted(self, path: str, log: bytes) -> LogImported:
        """Import a converted export; a later export of a stored game extends it (:mod:`.superseding`)."""
        path = input_name(path)
        try:
            superseded = superseding(self.store, log, path)
            return LogImported(path, import_log(self.store, superseded.log, f"{path} (converted)",
                                                along=self._keeper.alongside),
                               superseded=superseded.voided)
        except LogInvalid as invalid:
            return LogImported(path, None, tuple(invalid.lines()))

    def interrupted(self, interrupt: KeyboardInterrupt) -> Interruption:
        """What the import interrupted by ``interrupt`` stored, did not store, and where the views stand."""
        path = self._begun[-1] if self._begun else None
        inside = isinstance(interrupt, ImportInterrupted)
        stored = interrupt.result if isinstance(interrupt, ImportInterrupted) else None
        untouched = self.logs[len(self._begun):]
        try:
            behind: int | None = ViewKeeper(self.store).status().behind
        except Exception as exc:  # the store itself failed mid-way: say so rather than guess
            return Interruption(path, inside, stored, path in self._told, untouched, None, str(exc))
        return Interruption(path, inside, stored, path in self._told, untouched, behind)
