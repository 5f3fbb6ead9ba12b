"""``validate``'s report: every input error and every finding of one log, and how they read.

Nothing is stored: the log is read and decided, what a correction may need
spilled to a temporary file, so memory stays bounded on logs of any length.
"""

from __future__ import annotations

from typing import BinaryIO

from gamelog.domain.events import FindingRaised
from gamelog.domain.messages import finding, input_error, plural, severity_summary
from gamelog.domain.reader import LogReader
from gamelog.domain.replay import decide
from gamelog.projections.importing.spill import SpilledIndex
from gamelog.projections.reports.documents import FileCheck, Finding, InputErrorEntry, Validation, encode
from gamelog.projections.reports.safe import clean


def check_file(path: str, source: BinaryIO | None = None) -> FileCheck:
    """Read and decide one log, keeping only its errors and findings (constant memory): the file at ``path``, or
    ``source`` (an open binary handle, closed here) named ``path``.

    A file that cannot be read is one error with no line (``"line": null``).
    """
    try:
        handle = source if source is not None else open(path, "rb")
    except OSError as exc:
        error = InputErrorEntry(line=None, path="$", message=f"cannot read the file: {exc.strerror or exc}")
        return FileCheck(path=path, errors=[error], findings=[])
    with handle, SpilledIndex() as index:
        reader = LogReader(handle)
        findings = [_finding(e) for e in decide(reader, index) if type(e) is FindingRaised]
    errors = [InputErrorEntry(line=e.line, path=e.path, message=e.message) for e in reader.errors]
    return FileCheck(path=path, errors=errors, findings=findings)


def _finding(event: FindingRaised) -> Finding:
    return Finding(line=event.line, rule=event.rule, severity=event.severity, player=event.player, message=event.message)


def render_validation_json(checks: list[FileCheck]) -> str:
    """Every log's check as one JSON document, on one line."""
    return encode(Validation(files=checks))


def error_lines(check: FileCheck) -> list[str]:
    """The log's input errors, one a line (``FILE:LINE: ... at $.path``; ``Error: FILE: ...`` for the file itself).

    Cleaned of control characters (``safe.clean``): a message may quote the log.
    """
    return [clean(f"Error: {check.path}: {e.message}" if e.line is None else input_error(check.path, e.line, e.message, e.path))
            for e in check.errors]


def finding_lines(check: FileCheck) -> list[str]:
    """The log's findings, one a line (``FILE:LINE: severity RULE [player]: message``), then a summary."""
    out = [clean(finding(f"{check.path}:{f.line}", f.severity, f.rule, f.player, f.message)) for f in check.findings]
    if check.errors:
        summary = f"{plural(len(check.errors), 'input error')}; not a valid log"
    else:
        summary = severity_summary(f.severity for f in check.findings)
    return out + [f"{check.path}: {summary}"]
