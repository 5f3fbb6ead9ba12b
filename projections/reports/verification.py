"""``verify``'s documents, from ``projections.store.verify``'s verdicts, and how they read."""

from __future__ import annotations

from gamelog.projections.reports.documents import LogMatch, Problem, Verification, encode
from gamelog.projections.reports.safe import clean
from gamelog.projections.store.verify import SHORT, Verdict


def verification(verdict: Verdict) -> Verification:
    """The verdict on a stored game's history as a document."""
    return Verification(game=verdict.game_id, intact=verdict.intact, versions=verdict.versions, fingerprint=verdict.fingerprint,
                        problems=[Problem(version=p.version, kind=p.kind, message=p.message, table=p.table)
                                  for p in verdict.problems])


def render_verification_json(document: Verification) -> str:
    """The verification as one JSON document, on one line."""
    return encode(document)


def render_verification_text(document: Verification) -> str:
    """Each problem on a line of its own (an event's, or a derived table's), then the verdict; each line cleaned
    of control characters (a game's id is the log's: it may hold a terminal's escapes)."""
    out = [f"{document.game}: {_where(p)}{p.kind}: {p.message}" for p in document.problems]
    if document.intact:
        out.append(f"{document.game}: intact, {document.versions} stored events, fingerprint {document.fingerprint[:SHORT]}")
    elif any(p.version or p.kind != "derived" for p in document.problems):
        out.append(f"{document.game}: the stored history was altered ({len(document.problems)} problem(s))")
    else:
        out.append(f"{document.game}: the stored events are intact, but what is derived from them was altered "
                   f"({len(document.problems)} problem(s)); `gamelog projections rebuild` derives it again")
    return "\n".join(clean(line) for line in out)


def render_log_file_text(path: str, document: Verification) -> str:
    """A log file's fingerprint in one line, then, if it differs from the one kept, why (cleaned of control
    characters)."""
    out = [f"{path}: game {document.game!r}, {document.versions} stored events, fingerprint {document.fingerprint[:SHORT]}"]
    out += [f"{path}: {p.message}" for p in document.problems]
    return "\n".join(clean(line) for line in out)


def _where(problem: Problem) -> str:
    return f"event {problem.version}: " if problem.version else ""


def log_match(log: str, against: str, difference: str | None) -> LogMatch:
    """Whether the log file ``log`` still matches the stored game ``against`` (``difference``: None when it does)."""
    return LogMatch(log=log, against=against, matches=difference is None, difference=difference)


def render_log_match_json(document: LogMatch) -> str:
    """The comparison as one JSON document, on one line."""
    return encode(document)


def render_log_match_text(document: LogMatch) -> str:
    """One line, cleaned of control characters: the log matches the stored game, or what differs."""
    if document.matches:
        return clean(f"{document.log} matches the stored game {document.against!r}")
    return clean(f"{document.log} differs from the stored game {document.against!r}: {document.difference}")
