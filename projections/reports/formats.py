"""Rendering a report (``model.build_report``) as text, Markdown, CSV or JSON.

Each renderer is a pure function of the report: the same report gives the
same string, whatever the clock or the hash seed.
"""

from __future__ import annotations

import csv
import io
from typing import Any, Iterable, Iterator

import msgspec
from msgspec import UNSET

from gamelog.domain.games import GAMES
from gamelog.domain.messages import severity_counts, signed
from gamelog.domain.phrases import NOT_RECORDED
from gamelog.domain.timing import duration
from gamelog.projections.reports.documents import MeasureChange, Period, Report, Standings, encode
from gamelog.projections.reports.safe import clean, csv_cell, markdown
from gamelog.projections.reports.terminal import WIDTH, Style, label, plain, severity_color, table, wrap


def _change(change: MeasureChange) -> str:
    """A change and the total after it (none for a measure the log's source does not record: not known)."""
    total = "" if change.value is None else f" = {change.value}"
    return f"{change.subject} {label(change.measure)} {signed(change.delta)}{total}"


def _title(report: Report) -> str:
    return f"{report.game} {report.id!r}: {', '.join(report.players)}"


def _result(report: Report) -> str:
    r = report.result
    if not r.finished:
        return "not finished"
    who = f"{r.winner} won" if r.winner else "no winner"
    return f"{who} at line {r.line} ({r.rule}: {r.reason})"


def _time(report: Report) -> str:
    """The time of play in words: the game's length, then each player's; "not recorded" where the log has no
    ``at`` (never zero)."""
    time = report.time
    if time is UNSET or time.length_seconds is None:
        return "not recorded"
    players = ", ".join(f"{p.player} {duration(p.seconds)}" for p in time.players)
    return f"{duration(time.length_seconds)}" + (f"; per player: {players}" if players else "")


def _period_time(report: Report, period: Period) -> str:
    """``; 4 min 10 s``: the period's time where the log records it, else nothing."""
    time = report.time
    if time is UNSET or period.number == 0:
        return ""
    spans = time.rounds if report.by == "round" else time.turns
    seconds = next((s.seconds for s in spans if s.number == period.number), None)
    return f"; {duration(seconds)}" if seconds is not None else ""


def _agreement(report: Report) -> list[str]:
    """The result's state, where the report has it."""
    return [] if report.agreement is UNSET else [report.agreement]


def _counts(report: Report) -> str:
    counts = msgspec.structs.asdict(report.findings)
    return severity_counts(counts) if any(counts.values()) else "none"


def _period_name(report: Report, period: Period) -> str:
    if period.number == 0:
        return "Before the first " + report.by
    return f"{report.by.capitalize()} {period.number}" + (f": {', '.join(period.players)}" if period.players else "")


def _board_title(report: Report) -> str:
    """What the game's board counts (``Measures.board``): the title its chart has."""
    board = GAMES[report.game].measures.board
    return board.title if board else "Board"


def _unrecorded(report: Report) -> frozenset[str]:
    """The standings' measures the log's source does not record: shown as "not recorded", never as a number."""
    return frozenset(report.not_recorded) if report.not_recorded is not UNSET else frozenset()


def _standing_rows(report: Report, standings: Standings) -> tuple[list[str], list[list[str]]]:
    measures = list(next(iter(standings.values())).keys()) if standings else []
    unknown = _unrecorded(report)
    return ["player", *measures], [[p, *(NOT_RECORDED if m in unknown else str(v) for m, v in row.items())]
                                   for p, row in standings.items()]


def _joined(lines: Iterable[str]) -> Iterator[str]:
    """The pieces of ``"\\n".join(lines)``, one a line, without holding the lines."""
    first = True
    for line in lines:
        yield line if first else "\n" + line
        first = False


def render_text(report: Report, style: Style = plain, width: int = WIDTH) -> str:
    """The report for a terminal, whole: :func:`text_pieces` joined."""
    return "".join(text_pieces(report, report.periods, style, width))


def text_pieces(report: Report, periods: Iterable[Period], style: Style = plain, width: int = WIDTH) -> Iterator[str]:
    """The report for a terminal, every line at most ``width`` wide (wrapped with a hanging indent), piece by piece.

    ``report`` gives what comes before the periods, ``periods`` the periods
    (``report.periods``, or ``model.report_periods`` as they are read).
    ``style`` is ``click.style`` on a terminal, plain otherwise; it is applied
    to each wrapped line, so styling never counts toward the width. User text
    is cleaned of control characters (``safe.clean``).
    """
    return _joined(_text_lines(report, periods, style, width))


def _text_lines(report: Report, periods: Iterable[Period], style: Style, width: int) -> Iterator[str]:
    def add(text: str, indent: int | str = 0, hanging: int | None = None, **styles: Any) -> None:
        out.extend(style(part, **styles) if styles else part for part in wrap(clean(text), width, indent, hanging))

    out: list[str] = []
    add(_title(report), bold=True)
    add(f"Result: {_result(report)}", hanging=8)
    add(f"Findings: {_counts(report)}", hanging=10)
    for agreement in _agreement(report):
        add(f"Agreement: {agreement}", hanging=11)
    add(f"Time: {_time(report)}", hanging=6)
    out.append("")
    for period in periods:
        add(f"{_period_name(report, period)} (lines {period.first_line}-{period.last_line}{_period_time(report, period)})",
            hanging=2, bold=True)
        for line in period.lines:
            text = line.text + ("  [void]" if line.voided else "")
            add(text, f"  {line.line:>5}  ", **({"dim": True} if line.voided else {}))
            for change in line.changes:
                add(f"{_change(change)}  [{change.rule}] {change.reason}", 9, 11)
            for f in line.findings:
                add(f"! {f.severity} {f.rule}: {f.message}", 9, 11, fg=severity_color(f.severity))
        header, rows = _standing_rows(report, period.standings)
        out += table([label(h) for h in header], [[clean(c) for c in r] for r in rows], width)
        if period.board:
            add(f"{_board_title(report)}: " + ", ".join(f"{c} {n}" for c, n in period.board.items()), 2, 4)
        out.append("")
        yield from out
        out.clear()
    yield from out


def render_markdown(report: Report) -> str:
    """The report in Markdown, whole: :func:`markdown_pieces` joined."""
    return "".join(markdown_pieces(report, report.periods))


def markdown_pieces(report: Report, periods: Iterable[Period]) -> Iterator[str]:
    """A Markdown document that renders on a forge: a heading per turn or round, tables for standings; piece by piece.

    Every piece of user text is escaped (``safe.markdown``): no ``|``,
    newline or HTML tag from a log reaches the document as markup.
    """
    return _joined(_markdown_lines(report, periods))


def _markdown_lines(report: Report, periods: Iterable[Period]) -> Iterator[str]:
    yield from [f"# {markdown(_title(report))}", "", f"- **Result:** {markdown(_result(report))}",
                f"- **Findings:** {_counts(report)}",
                *(f"- **Agreement:** {markdown(a)}" for a in _agreement(report)),
                f"- **Time:** {markdown(_time(report))}", ""]
    for period in periods:
        out = [f"## {markdown(_period_name(report, period) + _period_time(report, period).replace('; ', ', ', 1))}", "", "| line | player | what happened | changes | findings |",
               "| ---: | --- | --- | --- | --- |"]
        for line in period.lines:
            what = markdown(line.text) + (" *(void)*" if line.voided else "")
            # Rule IDs are gamelog's own, never the log's: they need no escaping.
            changes = "<br>".join(markdown(_change(c)) + f" ({c.rule})" for c in line.changes)
            findings = "<br>".join(f"**{f.severity}** `{f.rule}`: {markdown(f.message)}" for f in line.findings)
            out.append(f"| {line.line} | {markdown(line.player)} | {what} | {changes} | {findings} |")
        header, rows = _standing_rows(report, period.standings)
        out += ["", "| " + " | ".join(markdown(label(h)) for h in header) + " |",
                "| " + " | ".join(["---"] + ["---:"] * (len(header) - 1)) + " |"]
        out += ["| " + " | ".join(markdown(c) for c in r) + " |" for r in rows]
        if period.board:
            out += ["", f"{markdown(_board_title(report))}: " + ", ".join(f"{markdown(c)} {n}" for c, n in period.board.items())]
        out.append("")
        yield from out


def render_csv(report: Report) -> str:
    """The report as CSV, whole: :func:`csv_pieces` joined."""
    return "".join(csv_pieces(report, report.periods))


def csv_pieces(report: Report, periods: Iterable[Period]) -> Iterator[str]:
    """One row per player per turn or round, with a header row; a period's rows at a time.

    A cell of user text that a spreadsheet would read as a formula starts
    with ``'`` (``safe.csv_cell``).
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    measures = list(next(iter(report.opening.values())).keys()) if report.opening else []
    writer.writerow(["game", "id", report.by, "first_line", "last_line", "player", "acted", *measures, "violations", "warnings", "unverifiable"])
    unknown = _unrecorded(report)  # an empty cell: the source does not record it
    for period in periods:
        for player, row in period.standings.items():
            mine = [f for line in period.lines for f in line.findings if f.player == player]
            writer.writerow(map(csv_cell, [
                report.game, report.id, period.number, period.first_line, period.last_line, player,
                int(player in period.players), *("" if m in unknown else v for m, v in row.items()),
                *(sum(1 for f in mine if f.severity == s) for s in ("violation", "warning", "unverifiable"))]))
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue()


def render_json(report: Report) -> str:
    """The report itself, as one JSON document."""
    return encode(report, indent=1) + "\n"


_NO_PERIODS = '"periods": []'


def json_pieces(report: Report, periods: Iterable[Period]) -> Iterator[str]:
    """:func:`render_json` of ``report`` with ``periods`` as its periods, a period at a time (the same bytes).

    ``report`` holds no periods (and no ``states``, which only the HTML report
    reads): its JSON holds the empty ``periods`` (then only what follows them, such as ``version``), opened instead,
    and each period is encoded alone and indented to its depth (its strings hold
    no raw newline: JSON escapes them).
    """
    if report.periods or report.states is not UNSET:
        raise ValueError("json_pieces takes a report without periods or states (model.report_head)")
    head = encode(report, indent=1)
    at = head.rfind(_NO_PERIODS)
    if at < 0:
        raise ValueError("the report's JSON holds no empty periods to fill")
    tail = head[at + len(_NO_PERIODS):]
    yield head[:at + len(_NO_PERIODS) - len("[]")]
    sep = "[\n  "
    for period in periods:
        yield sep + encode(period, indent=1).replace("\n", "\n  ")
        sep = ",\n  "
    yield ("[]" if sep.startswith("[") else "\n ]") + tail + "\n"
