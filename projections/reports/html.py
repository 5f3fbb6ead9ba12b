"""The HTML report: one self-contained page (inline CSS and SVG, no network, no script).

It shows the standings, a chart of the score (net worth, or VP) over turns or
rounds with one labelled line per player and the goal or threshold drawn, the
counts of the game's board over time when it has one (its
:class:`~domain.measures.Board`, from the registry), and the per-turn log with
findings highlighted and their rule IDs.
"""

from __future__ import annotations

from html import escape
from domain.games import GAMES
from domain.measures import Board
from projections.reports.documents import Report, Standings
from projections.reports.formats import _change, _counts, _period_name, _result, _title

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
CSS = """
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:70em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}
td:first-child,th:first-child{text-align:left}.log td,.log th{text-align:left;vertical-align:top}
.violation{background:#fde2e2}.warning{background:#fff4d6}.unverifiable{background:#e4f0fb}
.void{text-decoration:line-through;color:#888}.rule{font-family:monospace;font-weight:bold}
svg text{font-size:12px}
"""


def _chart(series: dict[str, list[int]], labels: list[str], goal: int | None, title: str, css_class: str,
           colours: dict[str, str]) -> str:
    """A line chart as inline SVG: one polyline (class ``css_class``) per series, labelled at its end."""
    width, height, left, right, top, bottom = 760, 300, 50, 110, 20, 30
    top_value = max([goal or 0] + [v for values in series.values() for v in values] + [1])
    count = max(len(labels), 2)
    x = lambda i: left + i * (width - left - right) / (count - 1)
    y = lambda v: top + (height - top - bottom) * (1 - v / top_value)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" aria-label="{escape(title)}">',
             f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" stroke="#999"/>',
             f'<text x="{left - 5}" y="{y(top_value):.1f}" text-anchor="end">{top_value}</text>',
             f'<text x="{left - 5}" y="{y(0):.1f}" text-anchor="end">0</text>']
    if goal:
        parts.append(f'<line class="goal" x1="{left}" y1="{y(goal):.1f}" x2="{width - right}" y2="{y(goal):.1f}" '
                     f'stroke="#444" stroke-dasharray="6 4"/><text x="{left + 4}" y="{y(goal) - 4:.1f}">goal {goal}</text>')
    for i, label in enumerate(labels):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 10}" text-anchor="middle">{escape(label)}</text>')
    for name, values in series.items():
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(f'<polyline class="{css_class}" data-name="{escape(name)}" fill="none" stroke="{colours[name]}" stroke-width="2" points="{points}"/>')
    for name, label_y in _spread({n: y(v[-1]) for n, v in series.items() if v}).items():
        parts.append(f'<text x="{width - right + 6}" y="{label_y + 4:.1f}" fill="{colours[name]}">{escape(name)} {series[name][-1]}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _spread(ends: dict[str, float], gap: float = 14) -> dict[str, float]:
    """Label heights near each line's end, moved apart so that no two labels overlap."""
    placed: dict[str, float] = {}
    last = None
    for name, end in sorted(ends.items(), key=lambda item: (item[1], item[0])):
        at = end if last is None else max(end, last + gap)
        placed[name] = last = at
    return placed


def _score_chart(report: Report) -> str:
    score = report.score
    periods = [p for p in report.periods if p.number]
    labels = ["start"] + [str(p.number) for p in periods]
    series = {player: [report.opening[player][score]] + [p.standings[player][score] for p in periods]
              for player in report.players}
    colours = {p: COLOURS[i % len(COLOURS)] for i, p in enumerate(report.players)}
    return _chart(series, labels, report.goal, f"{score} by {report.by}", "series", colours)


def _board_chart(report: Report, board: Board) -> str:
    periods = [p for p in report.periods if p.number and p.forum]
    labels = [str(p.number) for p in periods]
    series = {s: [p.forum[s] for p in periods] for s in board.subjects}
    # The class "forum-series" is kept for every board: reports keep the same bytes as before boards were generic.
    return _chart(series, labels, None, board.title, "forum-series", board.colours)


def _standings_table(standings: Standings) -> str:
    measures = list(next(iter(standings.values())).keys())
    head = "".join(f"<th>{escape(m.replace('_', ' '))}</th>" for m in measures)
    rows = "".join(f"<tr><td>{escape(p)}</td>" + "".join(f"<td>{v}</td>" for v in row.values()) + "</tr>"
                   for p, row in standings.items())
    return f"<table><tr><th>player</th>{head}</tr>{rows}</table>"


def _log(report: Report) -> str:
    out = []
    for period in report.periods:
        out.append(f"<h3>{escape(_period_name(report, period))}</h3><table class=\"log\">"
                   "<tr><th>line</th><th>player</th><th>what happened</th><th>changes</th><th>findings</th></tr>")
        for line in period.lines:
            worst = next((s for s in ("violation", "warning", "unverifiable") if any(f.severity == s for f in line.findings)), "")
            text = escape(line.text)
            changes = "<br>".join(escape(_change(c)) + f' <span class="rule">{escape(c.rule)}</span>' for c in line.changes)
            findings = "<br>".join(f'{f.severity} <span class="rule">{escape(f.rule)}</span>: {escape(f.message)}' for f in line.findings)
            out.append(f'<tr class="{worst}"><td>{line.line}</td><td>{escape(line.player or "")}</td>'
                       f'<td class="{"void" if line.voided else ""}">{text}</td><td>{changes}</td><td>{findings}</td></tr>')
        out.append("</table>" + _standings_table(period.standings))
    return "".join(out)


def render_html(report: Report) -> str:
    """The whole page as one string."""
    final = report.periods[-1].standings if report.periods else report.opening
    board = GAMES[report.game].measures.board
    forum = f"<h2>{escape(board.heading)}</h2>{_board_chart(report, board)}" if board else ""
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(_title(report))}</title>'
            f"<style>{CSS}</style></head><body><h1>{escape(_title(report))}</h1>"
            f"<p><b>Result:</b> {escape(_result(report))}<br><b>Findings:</b> {escape(_counts(report))}</p>"
            f"<h2>Standings</h2>{_standings_table(final)}"
            f"<h2>{escape(report.score.replace('_', ' '))} by {report.by}</h2>{_score_chart(report)}{forum}"
            f"<h2>The game, {report.by} by {report.by}</h2>{_log(report)}</body></html>\n")
