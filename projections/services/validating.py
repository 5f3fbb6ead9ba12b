"""Validate logs: every input error and every rule finding of each; nothing stored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import msgspec

from gamelog.domain.engine import VIOLATION
from gamelog.domain.errors import InputError
from gamelog.projections.reports.documents import FileCheck
from gamelog.projections.reports.validation import check_file

from .inputs import STDIN, export_hint, input_name, open_input


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


def _hinted(check: FileCheck, path: str) -> FileCheck:
    """The check, its one error told what the file looks like when it is no log but another tool's export."""
    if len(check.errors) != 1 or check.errors[0].line is None:
        return check
    error = check.errors[0]
    (hinted,) = export_hint([InputError(error.line, error.message, error.path)], path)
    if hinted.message == error.message:
        return check
    return msgspec.structs.replace(check, errors=[msgspec.structs.replace(error, message=hinted.message)])
