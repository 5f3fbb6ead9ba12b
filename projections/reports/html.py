"""The HTML report: one self-contained page (inline CSS, SVG and script; no network), the same bytes for the same game.

It shows the standings; a step chart of the score (as the game counts it) over
every line of the log, one line and marker shape per player, a marker with a
tooltip at each change, and the goal named as the game names it (its
:class:`~domain.measures.Measures`); the game's board, when it has one, as a
heat strip of its counts after each turn; a replay that scrubs through every
line (:mod:`projections.reports.scrubber`), when the report holds the states;
and the log, turn by turn, with findings highlighted and their rule IDs.
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape
from itertools import chain

from msgspec import UNSET

from gamelog.domain.games import GAMES
from gamelog.domain.measures import Board, Measures
from gamelog.domain.messages import signed
from gamelog.projections.reports.charts import MARKERS, PALETTE, Row, Series, heat_strip, pattern_defs, step_chart
from gamelog.projections.reports.documents import Report, Standings
from gamelog.projections.reports.formats import _change, _counts, _period_name, _result, _title
from gamelog.projections.reports.sampling import MARKER_BUDGET, Sample, sample_report
from gamelog.projections.reports.scrubber import CONTROLS, PANEL, SCRIPT, replay_pieces

CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em auto;padding:0 1.5em;color:#222;max-width:80em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}
td:first-child,th:first-child{text-align:left}.log td,.log th{text-align:left;vertical-align:top}
.violation{background:#fde2e2}.warning{background:#fff4d6}.unverifiable{background:#e4f0fb}
.void{text-decoration:line-through;color:#888}.rule{font-family:monospace;font-weight:bold;white-space:nowrap}
svg.chart{display:block;width:100%;height:auto;margin:.3em 0 1em}svg text{font-size:13px;fill:#333}
svg .grid{stroke:#e4e4e4}svg .axis{stroke:#888}svg text.title{font-size:14px;fill:#555}
svg .goal{stroke:#444;stroke-dasharray:7 5}svg .goal-label{font-weight:bold;paint-order:stroke;stroke:#fff;stroke-width:4px}
svg text.end{font-weight:bold}svg .marker{cursor:pointer}svg .marker:hover{stroke:#000;stroke-width:2}
svg .cursor{stroke:#000;stroke-width:1.5;fill:none;pointer-events:none}
svg text.count{font-weight:bold;paint-order:stroke;stroke:#fff;stroke-width:3px}svg text.none{fill:#aaa;font-weight:normal}
.controls{position:sticky;top:0;z-index:1;background:#fff;padding:.5em 0;display:flex;gap:.4em;align-items:center;
border-bottom:1px solid #ddd}.controls input{flex:1}.controls button{font-size:1em;min-width:2.2em}
.now{display:grid;grid-template-columns:minmax(16em,1fr) 3fr;gap:1.5em;align-items:start}
.now .findings{padding-left:1.2em}.now .findings li{padding:.1em .3em}.quiet{color:#777}
#state-now th{text-align:left;font-weight:normal;color:#555}#state-now td{text-align:left}
.swatch{vertical-align:-1px;margin-right:.25em;outline:1px solid #555}
tr.current td{outline:2px solid #000;outline-offset:-2px}tr[data-position]{cursor:pointer}
"""


def score_series(report: Report, measures: Measures) -> list[Series]:
    """Each player's score at every position (0 the setup, then after each line), with a note where a line changed it.

    The score moves by the deltas of the line's changes of the score's
    measures, from the opening standings: the views' own numbers.
    """
    return sampled_series(sample_report(report), measures)


def sampled_series(sample: Sample, measures: Measures) -> list[Series]:
    """:func:`score_series` at the sample's kept lines: the score after each, and a note where it moved since the
    kept line before (naming the lines it stands for when they are more than one)."""
    report = sample.report
    words = report.score.replace("_", " ")
    lines = sample.kept()
    series = []
    for i, player in enumerate(report.players):
        values, notes = sample.scores[player], {}
        for position, (_, line) in enumerate(lines, 1):
            total, delta = values[position], values[position] - values[position - 1]
            if delta and sample.since[position - 1] == line.line:
                notes[position] = f"{player}, line {line.line}: {line.text}. {words} {total} ({signed(delta)})"
            elif delta:
                lines_since = f"{sample.since[position - 1]}–{line.line}"
                notes[position] = f"{player}, lines {lines_since}: {words} {total} ({signed(delta)})"
        series.append(Series(player, PALETTE[i % len(PALETTE)], MARKERS[i % len(MARKERS)], values, notes))
    most = max(1, MARKER_BUDGET // max(len(series), 1))
    for s in series:
        if len(s.notes) > most:
            s.notes = dict(thinned(sorted(s.notes.items()), most))
    return series


def _score_chart(sample: Sample, measures: Measures) -> str:
    """The score of each player after every line, as steps, with a marker where a line changed it."""
    report = sample.report
    words = report.score.replace("_", " ")
    series = sampled_series(sample, measures)
    ticks = [(0, "start")]
    position = 1
    for period in report.periods:
        if period.number:
            ticks.append((position, str(period.number)))
        position += len(period.lines)
    goal = (report.goal, measures.goal_label(report.goal)) if report.goal else None
    return step_chart(series, ticks, goal, y_title=words, x_title=f"the log, line by line ({report.by} numbers at their first line)",
                      label=f"{words} of each player after every line of the log")


def _board_strip(report: Report, board: Board) -> str:
    """The board's counts after each turn (or round), a row per subject."""
    rows = [Row(s, board.colours[s], board.patterns.get(s, "plain")) for s in board.subjects]
    columns = [(p.number, str(p.number) if p.number else "before", p.board) for p in report.periods if p.board is not None]
    columns = thinned(columns, STRIP_COLUMNS)
    return heat_strip(rows, columns, x_title=f"after each {report.by}", label=board.title, what=report.by)


def _standings_table(standings: Standings) -> str:
    measures = list(next(iter(standings.values())).keys())
    head = "".join(f"<th>{escape(m.replace('_', ' '))}</th>" for m in measures)
    rows = "".join(f"<tr><td>{escape(p)}</td>" + "".join(f"<td>{v}</td>" for v in row.values()) + "</tr>"
                   for p, row in standings.items())
    return f"<table><tr><th>player</th>{head}</tr>{rows}</table>"


STRIP_COLUMNS = 120
"""The most periods the board's strip shows (past it, evenly spaced ones and the last): a cell stays readable."""


def thinned(items: list, most: int) -> list:
    """At most ``most`` of ``items``, evenly spaced, the last among them; all of them when they are fewer."""
    if len(items) <= most:
        return items
    step = -(-len(items) // most)
    kept = items[::step]
    return kept if (len(items) - 1) % step == 0 else [*kept[:most - 1], items[-1]]


def _log_pieces(report: Report) -> Iterator[str]:
    """The log, a period at a time."""
    out: list[str] = []
    position = 0
    for period in report.periods:
        out.append(f"<h3>{escape(_period_name(report, period))}</h3><table class=\"log\">"
                   "<tr><th>line</th><th>player</th><th>what happened</th><th>changes</th><th>findings</th></tr>")
        for line in period.lines:
            position += 1
            worst = next((s for s in ("violation", "warning", "unverifiable") if any(f.severity == s for f in line.findings)), "")
            text = escape(line.text)
            changes = "<br>".join(escape(_change(c)) + f' <span class="rule">{escape(c.rule)}</span>' for c in line.changes)
            findings = "<br>".join(f'{f.severity} <span class="rule">{escape(f.rule)}</span>: {escape(f.message)}' for f in line.findings)
            out.append(f'<tr class="{worst}" data-position="{position}"><td>{line.line}</td><td>{escape(line.player or "")}</td>'
                       f'<td class="{"void" if line.voided else ""}">{text}</td><td>{changes}</td><td>{findings}</td></tr>')
        out.append("</table>" + _standings_table(period.standings))
        yield "".join(out)
        out = []


def _replay(sample: Sample, board: Board | None) -> tuple[str, str, Iterator[str]]:
    """The replay's controls, its panel, and its data and script (last in the page: it finds every element it
    moves), the data written a position at a time as the states are read; nothing when the sample holds no states."""
    if sample.states is None:
        return "", "", iter(())
    # The header's state is the one before the first turn: period 0's column, if the board has one.
    lines = sample.kept()
    data = replay_pieces(sample.states, lines, 0, board, sample.report.by, _change)
    script = chain(['<script type="application/json" id="replay-data">'], data, [f"</script><script>{SCRIPT}</script>"])
    return CONTROLS.format(last=len(lines)), PANEL, script


def _coarse(sample: Sample) -> str:
    """What the page says when it shows fewer lines than the log has; nothing when it shows them all."""
    if not sample.coarse():
        return ""
    shown = sum(len(period.lines) for period in sample.report.periods)
    return (f'<p class="coarse" id="coarse"><b>A long log, shown every {sample.step:,} lines:</b> of its '
            f"{sample.lines:,} lines the chart, the replay and the log below show {shown:,}: every {sample.step:,}th "
            f"line, the last, and lines with a finding. The score is counted from every line. "
            f"<code>gamelog report --format text</code> lists every line, <code>gamelog replay --line N</code> "
            f"shows the state after any.</p>")


def _declared(report: Report) -> str:
    """The declared result set against the computed one, when the log declares one (``reconcile``)."""
    if report.reconciliation is UNSET:
        return ""
    from gamelog.projections.reports.reconcile_formats import html_section  # it imports this module's CSS

    return html_section(report.reconciliation)


def render_html(report: Report) -> str:
    """The whole page as one string."""
    return "".join(html_pieces(sample_report(report)))


def html_pieces(sample: Sample) -> Iterator[str]:
    """The page in pieces, written as they come: the head, the charts, the log a period at a time, then the
    replay's data a position at a time (as ``sample.states`` is read)."""
    report = sample.report
    final = report.periods[-1].standings if report.periods else report.opening
    measures = GAMES[report.game].measures
    board = measures.board
    controls, panel, script = _replay(sample, board)
    strip = f"<h3>{escape(board.heading)}</h3>{_board_strip(report, board)}" if board else ""
    yield (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
           f'<meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,">'
           f"<title>{escape(_title(report))}</title><style>{CSS}</style></head><body>{pattern_defs()}"
           f"<h1>{escape(_title(report))}</h1>"
           f"<p><b>Result:</b> {escape(_result(report))}<br><b>Findings:</b> {escape(_counts(report))}</p>"
           f"<h2>Standings</h2>{_standings_table(final)}{_declared(report)}"
           f"<h2>The game, line by line</h2>{_coarse(sample)}{controls}"
           f"<h3>{escape(report.score.replace('_', ' '))} of each player</h3>{_score_chart(sample, measures)}{strip}"
           f"{panel}<h2>The log, {report.by} by {report.by}</h2>")
    yield from _log_pieces(report)
    yield from script
    yield "</body></html>\n"
