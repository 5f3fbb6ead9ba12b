"""Validate logs: every input error and every rule finding of each; nothing stored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import msgspec

from gamelog.domain.engine import VIOLATION
from gamelog.domain.errors import InputError
from gamelog.projections.reports.documents import FileCheck
from gamelog.projections.reports.validation import CheckedLog, check_file, check_log

from .inputs import STDIN, export_hint, input_name, open_input
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


def validate(paths: Iterable[str]) -> Validated:
    """Read and decide each log (constant memory; ``-`` is standard input), keeping its input errors and findings.
    Raises nothing for a log that cannot be read: that is its one error."""
    return Validated([_hinted(check_file(input_name(path), open_input(path)) if path == STDIN else check_file(path),
                              path) for path in paths])


def validate_each(paths: Iterable[str], progress: Progress | None = None) -> Iterator[CheckedLog]:
    """Each log read and decided in turn, its findings spooled (:func:`validate` in bounded memory, however many
    findings): a caller reads each log's findings, then asks for the next, which closes the one before.
    ``progress``, given, shows a large log being checked. Raises nothing for a log that cannot be read: that is
    its one error."""
    for path in paths:
        checked = check_log(input_name(path), open_input(path)) if path == STDIN else _checked(path, progress)
        with checked:
            checked.errors = _hinted_errors(checked.errors, path)
            yield checked


def _checked(path: str, progress: Progress | None) -> CheckedLog:
    """The log file at ``path`` read and decided, ``progress`` showing it when it is large."""
    with over_lines(progress, path, "checking") as advance:
        try:
            handle = None if advance is None else open_input(path)
        except OSError:
            handle = None  # check_log says why it cannot be read
        return check_log(path, None if handle is None else LinesRead(handle, advance))  # type: ignore[arg-type]


def _hinted(check: FileCheck, path: str) -> FileCheck:
    """The check, its one error told what the file looks like when it is no log but another tool's export."""
    errors = _hinted_errors(check.errors, path)
    return check if errors is check.errors else msgspec.structs.replace(check, errors=errors)


def _hinted_errors(errors: list, path: str) -> list:
    """The errors, the one error of a file told what it looks like when it is no log but another tool's export."""
    if len(errors) != 1 or errors[0].line is None:
        return errors
    error = errors[0]
    (hinted,) = export_hint([InputError(error.line, error.message, error.path)], path)
    if hinted.message == error.message:
        return errors
    return [msgspec.structs.replace(error, message=hinted.message)]
