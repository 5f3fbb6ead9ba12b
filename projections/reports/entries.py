"""What became of one entry made at the table (``gamelog append``, the recorder's ``POST .../lines``): the
document scripts read, and its text."""

from __future__ import annotations

from gamelog.domain.replay_document import Document
from gamelog.projections.reports.documents import Finding, InputErrorEntry
from gamelog.projections.reports.safe import clean


class EntryResult(Document, kw_only=True):
    """``appended``: the entry is stored, at ``line`` (the last of its lines); ``lines``: the log's lines now;
    ``findings``: the entry's, as ``validate --format json`` gives them, and ``rules`` the text of each rule they
    cite; ``moved``: not stored because the game moved past the lines it was made against; ``errors``: the reader's
    input errors (nothing decided)."""

    appended: bool
    line: int | None = None
    lines: int
    findings: list[Finding] = []
    rules: dict[str, str] = {}
    moved: bool = False
    errors: list[InputErrorEntry] = []


def render_entry_text(result: EntryResult, name: str = "entry") -> str:
    """The result in lines: where it was stored, or why not, then each finding with its rule's text."""
    if result.errors:
        out = [f"{name}:{e.line}: {e.message} at {e.path}" for e in result.errors]
        out.append(f"{name}: not a valid line; nothing stored")
    elif result.moved:
        out = [f"not stored: the game moved on (it has {result.lines} lines now); decide the entry again"]
    elif result.appended:
        out = [f"stored as line {result.line}"]
    else:
        out = [f"not stored: line {result.line} breaks a rule (give --anyway if the table agreed)"]
    for f in result.findings:
        out.append(f"  line {f.line}: {f.severity} {f.rule}: {f.message}")
        if f.rule in result.rules:
            out.append(f"    {f.rule}: {result.rules[f.rule]}")
    return "\n".join(clean(line) for line in out)
