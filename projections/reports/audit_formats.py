"""Rendering an audit (``audit.build_audit``) and a what-if (``whatif.compare``) as text, Markdown or JSON.

Pure functions of their document, like the report's renderers (``formats``).
A finding reads as everywhere else (``domain.messages``).
"""

from __future__ import annotations

from msgspec import UNSET

from domain.messages import finding, severity_summary, signed
from projections.reports.documents import Audit, Result, ScoreEntry, Standings, StandingsChange, WhatIf, encode
from projections.reports.safe import clean, markdown
from projections.reports.terminal import WIDTH, label, wrap
from projections.store.verify import SHORT


def _score_name(score: str) -> str:
    return label(score)


def _entries_text(entries: list[ScoreEntry], indent: str, width: int) -> list[str]:
    return [text for e in entries
            for text in wrap(clean(f"{e.source} [{e.rule}]"), width,
                             f"{indent}line {e.line:>5}  {signed(e.points):>7}  = {e.total:<7} ")]


def render_audit_json(audit: Audit) -> str:
    """The audit as one JSON document."""
    return encode(audit, indent=1)


def render_audit_text(audit: Audit, width: int = WIDTH) -> str:
    """Every finding with its rule text and the log's words, the corrections, the scores; one player's derivation.

    Every line is at most ``width`` wide (wrapped with a hanging indent); user
    text is cleaned of control characters (``safe.clean``).
    """
    out: list[str] = []

    def say(text: str, indent: int | str = 0, hanging: int | None = None) -> None:
        out.extend(wrap(clean(text), width, indent, hanging))

    say(f"audit of {audit.game} {audit.id!r} (fingerprint {audit.fingerprint[:SHORT]}): "
        f"{severity_summary(f.severity for f in audit.findings)}", hanging=2)
    for f in audit.findings:
        say(finding(f"line {f.line}", f.severity, f.rule, f.player, f.message), hanging=4)
        say(f.rule_text, "    rule: ")
        if f.log:
            say(f.log, "    log:  ")
        if f.moot_by is not UNSET:
            say(f"since the correction at line {f.moot_by}, the log decided again no longer raises it", "    moot: ")
        if f.derivation is not UNSET:  # a CLAIM: even an empty derivation says how the score stood
            say(f"the log's {_score_name(audit.score)} up to line {f.line}:", 4, 6)
            out.extend(_entries_text(f.derivation, "      ", width))
    for c in audit.corrections:
        say(f"correction at line {c.line}: voids line {c.voids} ({c.reason}): {c.voided_line}", hanging=2)
    say(f"{_score_name(audit.score)}: " + ", ".join(f"{p} {s.total}" for p, s in audit.scores.items()), hanging=2)
    if len(audit.scores) == 1:
        (player, score), = audit.scores.items()
        say(f"how {player}'s {_score_name(audit.score)} of {score.total} was made:", hanging=2)
        out.extend(_entries_text(score.entries, "  ", width))
    return "\n".join(out)


def _md(text: str | None) -> str:
    return markdown(text)


def render_audit_markdown(audit: Audit) -> str:
    """The findings as a table, the corrections as a list, and each player's score entries as a table."""
    out = [f"# Audit of {audit.game} {_md(audit.id)}", "", f"Fingerprint: `{audit.fingerprint}`", "",
           "| line | severity | rule | player | finding | rule text | log |", "| ---: | --- | --- | --- | --- | --- | --- |"]
    for f in audit.findings:
        moot = "" if f.moot_by is UNSET else f" (moot since the correction at line {f.moot_by})"
        out.append(f"| {f.line} | {f.severity} | `{f.rule}` | {_md(f.player)} | {_md(f.message)}{moot} | "
                   f"{_md(f.rule_text)} | {_md(f.log)} |")
    if audit.corrections:
        out += ["", "## Corrections", ""] + [f"- line {c.line} voids line {c.voids} ({_md(c.reason)}): {_md(c.voided_line)}"
                                             for c in audit.corrections]
    for player, score in audit.scores.items():
        out += ["", f"## {_md(player)}: {_score_name(audit.score)} {score.total}", "", "| line | points | total | source | rule |",
                "| ---: | ---: | ---: | --- | --- |"]
        out += [f"| {e.line} | {signed(e.points)} | {e.total} | {_md(e.source)} | `{e.rule}` |" for e in score.entries]
    return "\n".join(out)


def render_what_if_json(diff: WhatIf) -> str:
    """The what-if as one JSON document."""
    return encode(diff, indent=1)


def render_what_if_text(diff: WhatIf, width: int = WIDTH) -> str:
    """What changes: findings that go and come, standings that differ, the end (markdown prints this too).

    Every line is at most ``width`` wide; user text is cleaned (``safe.clean``).
    """
    out: list[str] = []

    def say(text: str, indent: int | str = 0, hanging: int | None = None) -> None:
        out.extend(wrap(clean(text), width, indent, hanging))

    which = f"line{'s' if len(diff.without) > 1 else ''} {', '.join(map(str, diff.without))}"
    say(f"what if {which} of {diff.game} {diff.id!r} had not counted:", hanging=2)
    for name, findings in (("findings that go", diff.findings_gone), ("findings that come", diff.findings_new)):
        for f in findings:
            say(f"{name}: " + finding(f"line {f.line}", f.severity, f.rule, None, f.message), 2, 4)
    for s in diff.standings:
        say(f"{_score_name(diff.score)} after {_period(s)}: {_standing(s.actual, diff.score)}  ->  "
            f"{_standing(s.what_if, diff.score)}", 2, 4)
    actual, what_if = diff.result.actual, diff.result.what_if
    say(f"end: {_end(actual)}  ->  {_end(what_if)}" + ("  (the winner changes)" if diff.winner_changes else ""), 2, 4)
    if not diff.findings_gone and not diff.findings_new and not diff.standings and not diff.winner_changes:
        out.insert(1, "  nothing else changes")
    return "\n".join(out)


def _period(change: StandingsChange) -> str:
    """``turn 6`` or ``round 6``, as the report grouped."""
    return f"turn {change.turn}" if change.turn is not UNSET else f"round {change.round}"


def _standing(standings: Standings | None, score: str) -> str:
    if standings is None:
        return "(no such period)"
    return ", ".join(f"{p} {row[score]}" for p, row in standings.items())


def _end(result: Result) -> str:
    return f"{result.winner or 'no winner'} ({result.reason})" if result.finished else "not finished"
