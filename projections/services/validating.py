"""Validate logs: every input error and every rule finding of each; nothing stored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import msgspec

from gamelog.domain.engine import VIOLATION
from gamelog.domain.errors import InputError
from gamelog.projections.reports.documents import FileCheck, InputErrorEntry
from gamelog.projections.reports.terminal import Style, plain
from gamelog.projections.reports.validation import (CheckedLog, check_log, error_lines, finding_lines,
                                                    validation_json_pieces)

from .errors import BadInput
from .inputs import STDIN, check_export_format, export_hint, input_name, open_input, opened_source
from .progress import LinesRead, Progress, over_lines


@dataclass(frozen=True)
class Validated:
    """Each log's check (``validate``'s document holds them), and what they add up to."""

    checks: list[FileCheck]

    @property
    def malformed(self) -> bool:
        """Whether a log has an input error (or could not be read)."""
        return any(c.errors for c in self.checks)

    @property
    def violated(self) -> bool:
        """Whether a log breaks a rule (a violation found)."""
        return any(f.severity == VIOLATION for c in self.checks for f in c.findings)


def validate(paths: Iterable[str], source_format: str | None = None) -> Validated:
    """Read and decide each log (constant memory; ``-`` is standard input), keeping its input errors and findings;
    with ``source_format``, each file is that tool's export, read as the log it converts to. Raises nothing for a
    log that cannot be read (or converted): that is its one error; :class:`~.errors.BadInput` for an unknown
    ``source_format``."""
    checks = []
    for checked in validate_each(paths, source_format):
        checks.append(FileCheck(path=checked.path, errors=checked.errors, findings=list(checked.findings())))
    return Validated(checks)


class ValidationOutput:
    """``gamelog validate``'s output, each log read as it is written: in text (:meth:`text`: each log's input
    errors, for stderr, and its findings, one a line in its severity's colour (``style``: ``click.style`` on a
    terminal), then its summary) or as one JSON document (:meth:`json_pieces`); ``malformed`` and ``violated``
    say what the logs read so far add up to. ``progress``, given, shows a large log being checked."""

    def __init__(self, paths: Iterable[str], source_format: str | None = None, *, style: Style = plain,
                 progress: Progress | None = None):
        if source_format is not None:
            check_export_format(source_format)  # before any log is read
        self._paths, self._source_format = paths, source_format
        self._style, self._progress = style, progress
        self.malformed = False
        """Whether a log read has an input error (or could not be read)."""
        self.violated = False
        """Whether a log read breaks a rule."""

    def _checked(self) -> Iterator[CheckedLog]:
        for check in validate_each(self._paths, self._source_format, self._progress):
            self.malformed = self.malformed or bool(check.errors)
            self.violated = self.violated or bool(check.counts[VIOLATION])
            yield check

    def text(self) -> Iterator[tuple[list[str], Iterator[str]]]:
        """Each log's (input errors, one a line; its findings, one a line, then a summary), read in turn."""
        for check in self._checked():
            yield error_lines(check), finding_lines(check, self._style)

    def json_pieces(self) -> Iterator[str]:
        """``validate --format json``'s document, in pieces (``gamelog schema validate``)."""
        return validation_json_pieces(self._checked())


def validate_each(paths: Iterable[str], source_format: str | None = None,
                  progress: Progress | None = None) -> Iterator[CheckedLog]:
    """Each log read and decided in turn, its findings spooled (:func:`validate` in bounded memory, however many
    findings): a caller reads each log's findings, then asks for the next, which closes the one before.
    ``source_format``: each file is that tool's export (converted in memory first). ``progress``, given, shows a
    large log being checked. Raises nothing for a log that cannot be read (or converted): that is its one error;
    :class:`~.errors.BadInput` for an unknown ``source_format``."""
    if source_format is not None:
        check_export_format(source_format)
    for path in paths:
        with _checked(path, source_format, progress) as checked:
            checked.errors = _hinted_errors(checked.errors, path)
            yield checked


def _checked(path: str, source_format: str | None, progress: Progress | None) -> CheckedLog:
    """One log's check (``-``: standard input), ``progress`` showing a large log file; with ``source_format``, the
    export converted first, which is one error with no line when it cannot be read or converted."""
    if source_format is None:
        return check_log(input_name(path), open_input(path)) if path == STDIN else _checked_file(path, progress)
    name = input_name(path)
    try:
        with opened_source(path, source_format=source_format) as (handle, converted, _):
            return check_log(converted, handle)
    except BadInput as exc:
        message = str(exc).removeprefix(f"{name}: ")
        return CheckedLog(path=name, errors=[InputErrorEntry(line=None, path="$", message=message)])


def _checked_file(path: str, progress: Progress | None) -> CheckedLog:
    """The log file at ``path`` read and decided, ``progress`` showing it when it is large."""
    with over_lines(progress, path, "checking") as advance:
        try:
            handle = None if advance is None else open_input(path)
        except OSError:
            handle = None  # check_log says why it cannot be read
        return check_log(path, None if handle is None else LinesRead(handle, advance))  # type: ignore[arg-type]


def _hinted_errors(errors: list, path: str) -> list:
    """The errors, the one error of a file told what it looks like when it is no log but another tool's export."""
    if len(errors) != 1 or errors[0].line is None:
        return errors
    error = errors[0]
    (hinted,) = export_hint([InputError(error.line, error.message, error.path)], path)
    if hinted.message == error.message:
        return errors
    return [msgspec.structs.replace(error, message=hinted.message)]
