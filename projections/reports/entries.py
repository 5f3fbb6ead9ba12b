"""What became of one entry made at the table (``gamelog append``, the recorder's ``POST .../lines``), in words:
the text of its document (``documents.EntryResult``)."""

from __future__ import annotations

from gamelog.projections.reports.documents import EntryResult
from gamelog.projections.reports.safe import clean
from gamelog.projections.reports.terminal import WIDTH, wrap


def render_entry_text(result: EntryResult, name: str = "entry", width: int = WIDTH) -> str:
    """The result in lines of at most ``width`` characters: its input errors (``NAME:LINE: ... at $.field``, as
    ``validate`` says them), or where it was stored or why not, then each finding, then the text of each rule they
    cite, once."""
    if result.errors:
        out = [f"{name}:{e.line}: {e.message} at {e.path}" for e in result.errors]
        return "\n".join(clean(line) for line in out)
    if result.moved:
        head = f"not stored: the game moved on (it has {result.lines} lines now); decide the entry again"
    elif result.appended:
        head = f"stored as line {result.line}"
    else:
        head = f"not stored: line {result.line} breaks a rule (give --anyway if the table agreed)"
    out = wrap(head, width)
    for f in result.findings:
        out += wrap(f"line {f.line}: {f.severity} {f.rule}: {f.message}", width, indent=2, hanging=4)
    for rule_id in dict.fromkeys(f.rule for f in result.findings):
        if rule_id in result.rules:
            out += wrap(f"{rule_id}: {result.rules[rule_id]}", width, indent=2, hanging=4)
    return "\n".join(clean(line) for line in out)
