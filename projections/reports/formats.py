"""Rendering a report (``model.build_report``) as text, Markdown, CSV or JSON.

Each renderer is a pure function of the report: the same report gives the
same string, whatever the clock or the hash seed.
"""

from __future__ import annotations

import csv
import io
from typing import Any, Callable

import msgspec

from domain.messages import signed
from projections.reports.documents import Change, Period, Report, Standings, encode

Style = Callable[..., str]


def _plain(text: str, **_: Any) -> str:
    return text


def _change(change: Change) -> str:
    return f"{change.subject} {change.measure.replace('_', ' ')} {signed(change.delta)} = {change.value}"


def _title(report: Report) -> str:
    return f"{report.game} {report.id!r}: {', '.join(report.players)}"


def _result(report: Report) -> str:
    r = report.result
    if not r.finished:
        return "not finished"
    who = r.winner or "no winner"
    return f"{who} won at line {r.line} ({r.rule}: {r.reason})"


def _counts(report: Report) -> str:
    return ", ".join(f"{n} {severity}" for severity, n in msgspec.structs.asdict(report.findings).items())


def _period_name(report: Report, period: Period) -> str:
    if period.number == 0:
        return "Before the first " + report.by
    return f"{report.by.capitalize()} {period.number}" + (f": {', '.join(period.players)}" if period.players else "")


def _standing_rows(report: Report, standings: Standings) -> tuple[list[str], list[list[str]]]:
    measures = list(next(iter(standings.values())).keys()) if standings else []
    return ["player", *measures], [[p, *(str(v) for v in row.values())] for p, row in standings.items()]


def _aligned(header: list[str], rows: list[list[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    fmt = lambda r: indent + "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    return [fmt(header), *(fmt(r) for r in rows)]


def render_text(report: Report, style: Style = _plain) -> str:
    """Aligned tables for a terminal; ``style`` is ``click.style`` on a terminal, plain otherwise."""
    out = [style(_title(report), bold=True), f"result: {_result(report)}", f"findings: {_counts(report)}", ""]
    for period in report.periods:
        out.append(style(f"{_period_name(report, period)} (lines {period.first_line}-{period.last_line})", bold=True))
        for line in period.lines:
            text = f"  {line.line:>5}  {line.text}" + ("  [void]" if line.voided else "")
            out.append(style(text, dim=True) if line.voided else text)
            for change in line.changes:
                out.append(f"         {_change(change)}  [{change.rule}] {change.reason}")
            for f in line.findings:
                colour = {"violation": "red", "warning": "yellow"}.get(f.severity, "cyan")
                out.append(style(f"         ! {f.severity} {f.rule}: {f.message}", fg=colour))
        header, rows = _standing_rows(report, period.standings)
        out += _aligned(header, rows)
        if period.forum:
            out.append("  forum: " + ", ".join(f"{c} {n}" for c, n in period.forum.items()))
        out.append("")
    return "\n".join(out)


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(report: Report) -> str:
    """A Markdown document that renders on a forge: a heading per turn or round, tables for standings."""
    out = [f"# {_md_escape(_title(report))}", "", f"- **Result:** {_md_escape(_result(report))}",
           f"- **Findings:** {_counts(report)}", ""]
    for period in report.periods:
        out += [f"## {_md_escape(_period_name(report, period))}", "", "| line | player | what happened | changes | findings |",
                "| ---: | --- | --- | --- | --- |"]
        for line in period.lines:
            what = _md_escape(line.text) + (" *(void)*" if line.voided else "")
            changes = "<br>".join(_md_escape(_change(c)) + f" ({c.rule})" for c in line.changes)
            findings = "<br>".join(f"**{f.severity}** `{f.rule}`: {_md_escape(f.message)}" for f in line.findings)
            out.append(f"| {line.line} | {line.player or ''} | {what} | {changes} | {findings} |")
        header, rows = _standing_rows(report, period.standings)
        out += ["", "| " + " | ".join(header) + " |", "| " + " | ".join(["---"] + ["---:"] * (len(header) - 1)) + " |"]
        out += ["| " + " | ".join(r) + " |" for r in rows]
        if period.forum:
            out += ["", "Forum: " + ", ".join(f"{c} {n}" for c, n in period.forum.items())]
        out.append("")
    return "\n".join(out)


def render_csv(report: Report) -> str:
    """One row per player per turn or round, with a header row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    measures = list(next(iter(report.opening.values())).keys()) if report.opening else []
    writer.writerow(["game", "id", report.by, "first_line", "last_line", "player", "acted", *measures, "violations", "warnings", "unverifiable"])
    for period in report.periods:
        for player, row in period.standings.items():
            mine = [f for line in period.lines for f in line.findings if f.player == player]
            writer.writerow([report.game, report.id, period.number, period.first_line, period.last_line, player,
                             int(player in period.players), *row.values(),
                             *(sum(1 for f in mine if f.severity == s) for s in ("violation", "warning", "unverifiable"))])
    return buffer.getvalue()


def render_json(report: Report) -> str:
    """The report itself, as one JSON document."""
    return encode(report, indent=1) + "\n"
