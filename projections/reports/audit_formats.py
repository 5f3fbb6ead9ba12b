"""Rendering an audit (``audit.build_audit``) and a what-if (``whatif.compare``) as text, Markdown or JSON.

Pure functions of their document, like the report's renderers (``formats``).
A finding reads as everywhere else (``domain.messages``).
"""

from __future__ import annotations

from msgspec import UNSET

from domain.messages import finding, severity_summary, signed
from projections.reports.documents import Audit, Result, ScoreEntry, Standings, WhatIf, encode
from projections.store.verify import SHORT


def _score_name(score: str) -> str:
    return score.replace("_", " ")


def _entries_text(entries: list[ScoreEntry], indent: str) -> list[str]:
    return [f"{indent}line {e.line:>5}  {signed(e.points):>7}  = {e.total:<7} {e.source} [{e.rule}]" for e in entries]


def render_audit_json(audit: Audit) -> str:
    """The audit as one JSON document."""
    return encode(audit, indent=1)


def render_audit_text(audit: Audit) -> str:
    """Every finding with its rule text and the log's words, the corrections, the scores; one player's derivation."""
    summary = severity_summary(f.severity for f in audit.findings)
    out = [f"audit of {audit.game} {audit.id!r} (fingerprint {audit.fingerprint[:SHORT]}): {summary}"]
    for f in audit.findings:
        out.append(finding(f"line {f.line}", f.severity, f.rule, f.player, f.message))
        out.append(f"    rule: {f.rule_text}")
        if f.log:
            out.append(f"    log:  {f.log}")
        if f.moot_by is not UNSET:
            out.append(f"    moot: since the correction at line {f.moot_by}, the log decided again no longer raises it")
        if f.derivation is not UNSET:  # a CLAIM: even an empty derivation says how the score stood
            out.append(f"    the log's {_score_name(audit.score)} up to line {f.line}:")
            out += _entries_text(f.derivation, "      ")
    for c in audit.corrections:
        out.append(f"correction at line {c.line}: voids line {c.voids} ({c.reason}): {c.voided_line}")
    out.append(f"{_score_name(audit.score)}: " + ", ".join(f"{p} {s.total}" for p, s in audit.scores.items()))
    if len(audit.scores) == 1:
        (player, score), = audit.scores.items()
        out.append(f"how {player}'s {_score_name(audit.score)} of {score.total} was made:")
        out += _entries_text(score.entries, "  ")
    return "\n".join(out)


def _md(text: str | None) -> str:
    return (text or "").replace("|", "\\|")


def render_audit_markdown(audit: Audit) -> str:
    """The findings as a table, the corrections as a list, and each player's score entries as a table."""
    out = [f"# Audit of {audit.game} `{audit.id}`", "", f"Fingerprint: `{audit.fingerprint}`", "",
           "| line | severity | rule | player | finding | rule text | log |", "| ---: | --- | --- | --- | --- | --- | --- |"]
    for f in audit.findings:
        moot = "" if f.moot_by is UNSET else f" (moot since the correction at line {f.moot_by})"
        out.append(f"| {f.line} | {f.severity} | `{f.rule}` | {_md(f.player)} | {_md(f.message)}{moot} | "
                   f"{_md(f.rule_text)} | {_md(f.log)} |")
    if audit.corrections:
        out += ["", "## Corrections", ""] + [f"- line {c.line} voids line {c.voids} ({_md(c.reason)}): {_md(c.voided_line)}"
                                             for c in audit.corrections]
    for player, score in audit.scores.items():
        out += ["", f"## {player}: {_score_name(audit.score)} {score.total}", "", "| line | points | total | source | rule |",
                "| ---: | ---: | ---: | --- | --- |"]
        out += [f"| {e.line} | {signed(e.points)} | {e.total} | {_md(e.source)} | `{e.rule}` |" for e in score.entries]
    return "\n".join(out)


def render_what_if_json(diff: WhatIf) -> str:
    """The what-if as one JSON document."""
    return encode(diff, indent=1)


def render_what_if_text(diff: WhatIf) -> str:
    """What changes: findings that go and come, standings that differ, the end (markdown prints this too)."""
    which = f"line{'s' if len(diff.without) > 1 else ''} {', '.join(map(str, diff.without))}"
    out = [f"what if {which} of {diff.game} {diff.id!r} had not counted:"]
    for label, findings in (("findings that go", diff.findings_gone), ("findings that come", diff.findings_new)):
        for f in findings:
            out.append(f"  {label}: " + finding(f"line {f.line}", f.severity, f.rule, None, f.message))
    for s in diff.standings:
        out.append(f"  {_score_name(diff.score)} after {s.number}: {_standing(s.actual, diff.score)}  ->  "
                   f"{_standing(s.what_if, diff.score)}")
    actual, what_if = diff.result.actual, diff.result.what_if
    out.append(f"  end: {_end(actual)}  ->  {_end(what_if)}" + ("  (the winner changes)" if diff.winner_changes else ""))
    if len(out) == 2 and not diff.winner_changes:
        out.insert(1, "  nothing else changes")
    return "\n".join(out)


def _standing(standings: Standings | None, score: str) -> str:
    if standings is None:
        return "(no such period)"
    return ", ".join(f"{p} {row[score]}" for p, row in standings.items())


def _end(result: Result) -> str:
    return f"{result.winner or 'no winner'} ({result.reason})" if result.finished else "not finished"
