"""``validate``'s report: every input error and every finding of one log, and how they read.

Nothing is stored: the log is read and decided, keeping no history until its
first correction (a log without one is read once; one with corrections is
decided again from its header, with the history a correction needs spilled to
a temporary file). Findings are written to a spool as they are decided, and
read back as they are printed: memory stays bounded on logs of any length and
any number of findings.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Iterable, Iterator

import msgspec

from gamelog.domain.events import FindingRaised
from gamelog.domain.messages import finding, input_error, plural, severity_counts
from gamelog.domain.reader import LogReader
from gamelog.domain.replay import HistoryNeeded, decide_findings, decide_lines
from gamelog.projections.importing.spill import SpilledIndex
from gamelog.projections.reports.documents import FileCheck, Finding, InputErrorEntry, Validation, encode

from gamelog.projections.reports.safe import clean
from gamelog.projections.reports.terminal import Style, plain, severity_color

SPOOL_IN_MEMORY = 1 << 20
"""Bytes of findings kept in memory before the spool moves to a temporary file."""

_encode_finding = msgspec.json.Encoder().encode
_decode_finding = msgspec.json.Decoder(Finding).decode


@dataclass
class CheckedLog:
    """One log that ``validate`` read: its input errors, and its findings spooled (read with :meth:`findings`).

    Close it (or use it as a context manager) to remove the spool.
    """

    path: str
    errors: list[InputErrorEntry]
    counts: Counter = field(default_factory=Counter)
    """Findings by severity."""
    _spool: Any = None

    def findings(self) -> Iterator[Finding]:
        """Every finding, in the order decided (the spool read again from its start)."""
        if self._spool is None:
            return
        self._spool.seek(0)
        for line in self._spool:
            yield _decode_finding(line)

    def encoded_findings(self) -> Iterator[bytes]:
        """Every finding as compact JSON, in the order decided."""
        if self._spool is None:
            return
        self._spool.seek(0)
        for line in self._spool:
            yield line.rstrip(b"\n")

    def _add(self, found: Finding) -> None:
        if self._spool is None:
            self._spool = tempfile.SpooledTemporaryFile(SPOOL_IN_MEMORY, prefix="gamelog-findings-")
        self._spool.write(_encode_finding(found) + b"\n")
        self.counts[found.severity] += 1

    def close(self) -> None:
        """Remove the spool."""
        if self._spool is not None:
            self._spool.close()
            self._spool = None

    def __enter__(self) -> "CheckedLog":
        return self

    def __exit__(self, *args: object) -> None:
        self.close()


def check_log(path: str, source: BinaryIO | None = None) -> CheckedLog:
    """Read and decide one log, spooling its findings (bounded memory): the file at ``path``, or ``source`` (an
    open binary handle, closed here) named ``path``.

    A file that cannot be read is one error with no line (``"line": null``).
    """
    try:
        handle = source if source is not None else open(path, "rb")
    except OSError as exc:
        error = InputErrorEntry(line=None, path="$", message=f"cannot read the file: {exc.strerror or exc}")
        return CheckedLog(path=path, errors=[error])
    checked = CheckedLog(path=path, errors=[])
    with handle:
        reader = _decide(handle, checked)
    checked.errors = [InputErrorEntry(line=e.line, path=e.path, message=e.message) for e in reader.errors]
    return checked


def _decide(handle: BinaryIO, checked: CheckedLog) -> LogReader:
    """Decide the log in ``handle``, each finding into ``checked``; the reader that read it (its errors)."""
    reader = LogReader(handle)
    try:
        if handle.seekable():
            # Without a correction, nothing a correction needs is kept, nor any event but the findings.
            for e in decide_findings(reader):
                _spool_finding(e, checked)
        else:
            # A source that cannot be read again keeps it all.
            with SpilledIndex() as index:
                for _, events in decide_lines(reader, index):
                    for e in events:  # most lines find nothing: one type test an event, no call
                        if type(e) is FindingRaised:
                            _spool_finding(e, checked)
        return reader
    except HistoryNeeded as needed:
        first_correction = needed.line
    # Decided again from the header, with history: the lines before the first correction decide the same.
    handle.seek(0)
    reader = LogReader(handle)
    with SpilledIndex() as index:
        for line, events in decide_lines(reader, index):
            if line >= first_correction:
                for e in events:
                    if type(e) is FindingRaised:
                        _spool_finding(e, checked)
    return reader


def _spool_finding(e: FindingRaised, checked: CheckedLog) -> None:
    checked._add(Finding.of(e))


def check_file(path: str, source: BinaryIO | None = None) -> FileCheck:
    """Read and decide one log, keeping its errors and findings in memory (:func:`check_log`, as one document)."""
    with check_log(path, source) as checked:
        return FileCheck(path=checked.path, errors=checked.errors, findings=list(checked.findings()))


def render_validation_json(checks: list[FileCheck]) -> str:
    """Every log's check as one JSON document, on one line."""
    return encode(Validation(files=checks))


def validation_json_pieces(checks: Iterable[CheckedLog]) -> Iterator[str]:
    """:func:`render_validation_json`'s document, in pieces, each log's findings read from its spool as written."""
    yield '{"files": ['
    for n, check in enumerate(checks):
        head = encode(FileCheck(path=check.path, errors=check.errors, findings=[]))
        assert head.endswith("[]}")
        yield (", " if n else "") + head[:-2]
        for i, raw in enumerate(check.encoded_findings()):
            yield (", " if i else "") + msgspec.json.format(raw, indent=0).decode("utf-8")
        yield "]}"
    yield '], "version": 1}'


def error_lines(check: FileCheck | CheckedLog) -> list[str]:
    """The log's input errors, one a line (``FILE:LINE: ... at $.path``; ``Error: FILE: ...`` for the file itself).

    Cleaned of control characters (``safe.clean``): a message may quote the log.
    """
    return [clean(f"Error: {check.path}: {e.message}" if e.line is None else input_error(check.path, e.line, e.message, e.path))
            for e in check.errors]


def finding_lines(check: FileCheck | CheckedLog, style: Style = plain) -> Iterator[str]:
    """The log's findings, one a line (``FILE:LINE: severity RULE [player]: message``) in its severity's colour
    (``style``: ``click.style`` on a terminal), then a summary."""
    found = check.findings() if isinstance(check, CheckedLog) else check.findings
    for f in found:
        yield style(clean(finding(f"{check.path}:{f.line}", f.severity, f.rule, f.player, f.message)),
                    fg=severity_color(f.severity))
    if check.errors:
        summary = f"{plural(len(check.errors), 'input error')}; not a valid log"
    else:
        counts = check.counts if isinstance(check, CheckedLog) else Counter(f.severity for f in check.findings)
        summary = severity_counts(counts)
    yield f"{check.path}: {summary}"
