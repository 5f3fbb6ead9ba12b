"""The HTML report: one self-contained page (inline CSS, SVG and script; no network), the same bytes for the same game.

It shows the standings (best score first, the winner marked, each player in
their colour at the table where the log says it, with their side and where
their score comes from, a count the source does not record as "not
recorded"); every finding, linking to its line; a step chart of the score
(as the game counts it) over every line of the log (by round, each round an
equal band, in a game of rounds), one line and marker shape per player, a
marker with a tooltip at each change, and the goal named as the game names
it (its :class:`~domain.measures.Measures`); the game's board, when it has
one, as a heat strip of its counts after each turn; a replay that scrubs
through every line (:mod:`projections.reports.scrubber`), when the report
holds the states; and the log, turn by turn, with findings highlighted and
their rule IDs.

It reads from a phone's 360 px to a desktop: each chart is drawn twice, at a
desktop's scale and at a phone's own (:data:`~projections.reports.charts.NARROW`),
and a media query shows the one whose text is at least 11 px; tables scroll
inside their box, their cells wrapping between words only; on a phone the
standings and the score chart come first (the declared result and the
findings after the replay, before the log); a print stylesheet keeps the
charts and the log.

A long log's page keeps every k-th line (:mod:`projections.reports.sampling`) and says so; the page is written in
pieces (:func:`html_pieces`), the replay's data a position at a time as the states are folded.
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape
from itertools import chain

import msgspec
from msgspec import UNSET

from gamelog.domain.games import GAMES
from gamelog.domain.measures import Board, Measures
from gamelog.domain.messages import signed
from gamelog.domain.phrases import NOT_RECORDED, StatePhrases, state_words
from gamelog.domain.replay_document import Replay
from gamelog.projections.reports.charts import (MARKERS, NARROW, PALETTE, WIDE, Row, Series, heat_strip, legend,
                                                pattern_defs, step_chart)
from gamelog.projections.reports.documents import Line, Report, Standings
from gamelog.projections.reports.formats import (_agreement, _change, _counts, _period_name, _period_time, _result,
                                                  _time, _title)
from gamelog.projections.reports.reconcile_formats import html_section
from gamelog.projections.reports.sampling import MARKER_BUDGET, Sample, sample_report
from gamelog.projections.reports.scrubber import CONTROLS, NOTES_TOGGLE, PANEL, SCRIPT, replay_pieces
from gamelog.projections.reports.stylesheet import CSS
from gamelog.projections.reports.terminal import label


def _lines(report: Report) -> list[tuple[int, Line]]:
    """Every line of the report in order, with its period's number: position i + 1 on the charts and the slider."""
    return [(period.number, line) for period in report.periods for line in period.lines]


def score_series(report: Report, measures: Measures, colours: list[str] | None = None) -> list[Series]:
    """Each player's score at every position (0 the setup, then after each line), with a note where a line changed it.

    The score moves by the deltas of the line's changes of the score's
    measures, from the opening standings: the views' own numbers. ``colours``
    gives each player's colour (the palette's by default).
    """
    return sampled_series(sample_report(report), measures, colours)


def sampled_series(sample: Sample, measures: Measures, colours: list[str] | None = None) -> list[Series]:
    """:func:`score_series` at the sample's kept lines: the score after each, and a note where it moved since the
    kept line before (naming the lines it stands for when they are more than one)."""
    report = sample.report
    words = label(report.score)
    lines = sample.kept()
    colours = colours or player_colours(report.players, {})
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
        series.append(Series(player, colours[i], MARKERS[i % len(MARKERS)], values, notes))
    most = max(1, MARKER_BUDGET // max(len(series), 1))
    for one in series:
        if len(one.notes) > most:
            one.notes = dict(thinned(sorted(one.notes.items()), most))
    return series


def player_colours(players: list[str], table: dict[str, str]) -> list[str]:
    """Each player's colour: their colour at the table where the log says it (``table``), told apart from the
    others; the palette's (one not taken) otherwise."""
    taken: set[str] = set()
    chosen: dict[str, str] = {}
    for player in players:
        colour = table.get(player)
        if colour and colour not in taken:
            chosen[player] = colour
            taken.add(colour)
    spare = iter([c for c in PALETTE if c not in taken] + list(PALETTE))
    return [chosen.get(player) or next(spare) for player in players]


def _score_chart(report: Report, measures: Measures, series: list[Series]) -> str:
    """The score of each player after every line, as steps, with a marker where a line changed it: one chart for a
    desktop, one for a phone (the page shows the one that fits). A game played in rounds has rounds on its x axis."""
    words = label(report.score)
    goal = (report.goal, measures.goal_label(report.goal)) if report.goal else None
    ticks = [(0, "start")]
    bands = []
    position = 1
    for period in report.periods:
        if period.number:
            ticks.append((position, str(period.number)))
        bands.append((position, str(period.number) if period.number else "setup"))
        position += len(period.lines)
    by_round = report.by == "round" and bands
    x_title = (f"{report.by} by {report.by} (the lines of each spread across it)" if by_round
               else f"the log, line by line ({report.by} numbers at their first line)")
    chart_label = f"{words} of each player after every line of the log"
    return "".join(step_chart(series, ticks, goal, y_title=words, x_title=x_title if frame is WIDE else
                              (f"{report.by}s" if by_round else f"lines ({report.by}s marked)"),
                              label=chart_label, frame=frame, bands=bands if by_round else None)
                   for frame in (WIDE, NARROW)) + legend(series)


STRIP_COLUMNS = 120
"""The most periods the board's strip shows (past it, evenly spaced ones and the last): a cell stays readable."""


def thinned(items: list, most: int) -> list:
    """At most ``most`` of ``items``, evenly spaced, the last among them; all of them when they are fewer."""
    if len(items) <= most:
        return items
    step = -(-len(items) // most)
    kept = items[::step]
    return kept if (len(items) - 1) % step == 0 else [*kept[:most - 1], items[-1]]


def _board_strip(report: Report, board: Board) -> str:
    """The board's counts after each turn (or round), a row per subject: scaled to a desktop's width, or at its own
    size in a box that scrolls on a phone."""
    rows = [Row(s, board.colours[s], board.patterns.get(s, "plain")) for s in board.subjects]
    columns = [(p.number, str(p.number) if p.number else "before", p.board) for p in report.periods if p.board is not None]
    columns = thinned(columns, STRIP_COLUMNS)
    wide = heat_strip(rows, columns, x_title=f"after each {report.by}", label=board.title, what=report.by)
    narrow = heat_strip(rows, columns, x_title=f"after each {report.by}", label=board.title, what=report.by, fixed=True)
    return f'{wide}<div class="scroll narrow">{narrow}</div>'


class Players:
    """What the page says of each player beyond the log: who they play, their colour, the measures not recorded."""

    def __init__(self, report: Report, phrases: StatePhrases, final: Replay | None):
        document = msgspec.to_builtins(final) if final is not None else None
        self.sides = {p: phrases.side(document, p) for p in report.players} if document else {}
        table = {p: c for p in report.players if document and (c := phrases.colour(document, p))}
        self.colours = dict(zip(report.players, player_colours(report.players, table)))
        self.unrecorded = frozenset(report.not_recorded) if report.not_recorded is not UNSET else frozenset()
        self.side_name = phrases.side_name
        self.details = {p: d for p in report.players if document and (d := phrases.score_detail(document, p))}


def _standings_table(standings: Standings, players: Players, score: str, winner: str | None = None,
                     final: bool = False) -> str:
    """The standings, best score first (the winner first, marked), each player in their colour, with their side
    (a faction) under their name; the ``final`` ones say where each score comes from, when the game says it."""
    if not standings:
        return ""
    measures = list(next(iter(standings.values())).keys())
    head = "".join(f"<th>{escape(label(m))}</th>" for m in measures)
    order = sorted(standings, key=lambda p: (p != winner, -standings[p][score]))
    rows = []
    for p in order:
        mark = ' <span class="won">(winner)</span>' if p == winner else ""
        side = players.sides.get(p)
        who = (f'<td><span class="dot" style="background:{players.colours.get(p, "#fff")}"></span>{escape(p)}{mark}'
               + (f'<span class="side">{escape(side)}</span>' if side else "") + "</td>")
        cells = "".join(f"<td>{NOT_RECORDED if m in players.unrecorded else v}</td>" for m, v in standings[p].items())
        if final and players.details:
            cells += f'<td class="text">{escape(players.details.get(p, ""))}</td>'

        rows.append(("<tr class=\"won\">" if p == winner else "<tr>") + f"{who}{cells}</tr>")
    who = f"player ({escape(players.side_name)})" if any(players.sides.get(p) for p in standings) else "player"
    if final and players.details:
        head += f'<th class="text">{escape(label(score))} from</th>'

    return f'<div class="scroll"><table class="standings"><tr><th>{who}</th>{head}</tr>{"".join(rows)}</table></div>'


def _findings(report: Report) -> str:
    """Every finding of the game, each linking to its line (``#line=N``): violations and warnings listed, the
    unverifiable ones folded; at most :data:`MOST_LISTED` of each, the rest in the log below."""
    found: dict[str, list[tuple[int, str]]] = {s: [] for s in ("violation", "warning", "unverifiable")}
    for _, line in _lines(report):
        for f in line.findings:
            found.setdefault(f.severity, []).append((line.line, f'<li class="{f.severity}"><a href="#line={line.line}">'
                                                     f'line {line.line}</a> {f.severity} <span class="rule">'
                                                     f'{escape(f.rule)}</span>: {escape(f.message)}</li>'))
    if not any(found.values()):
        return ""

    def listed(items: list[tuple[int, str]]) -> str:
        more = len(items) - MOST_LISTED
        return ('<ol class="found">' + "".join(item for _, item in items[:MOST_LISTED]) + "</ol>"
                + (f'<p class="quiet">and {more} more in the log below.</p>' if more > 0 else ""))

    loud = sorted(found["violation"] + found["warning"], key=lambda item: item[0])
    out = [f'<h2 id="findings">Findings</h2>']
    if loud:
        out.append(listed(loud))
    if found["unverifiable"]:
        n = len(found["unverifiable"])
        out.append(f"<details{'' if loud else ' open'}><summary>{n} unverifiable finding{'s' if n != 1 else ''} "
                   f"(what the log cannot show either way)</summary>{listed(found['unverifiable'])}</details>")
    return "".join(out)


MOST_LISTED = 200
"""Findings of one kind listed at the top of the page; the log below holds them all."""


def _log_pieces(report: Report, players: Players) -> Iterator[str]:
    """The log, a period at a time."""
    out: list[str] = []
    position = 0
    for period in report.periods:
        out.append(f"<h3>{escape(_period_name(report, period) + _period_time(report, period).replace('; ', ', ', 1))}"
                   f"</h3><div class=\"scroll\"><table class=\"log\">"
                   "<tr><th>line</th><th>player</th><th>what happened</th><th>changes</th><th>findings</th></tr>")
        for line in period.lines:
            position += 1
            worst = next((s for s in ("violation", "warning", "unverifiable") if any(f.severity == s for f in line.findings)), "")
            text = escape(line.text)
            changes = "<br>".join(escape(_change(c)) + f' <span class="rule">{escape(c.rule)}</span>' for c in line.changes)
            findings = "<br>".join(f'{f.severity} <span class="rule">{escape(f.rule)}</span>: {escape(f.message)}' for f in line.findings)
            out.append(f'<tr class="{worst}" data-position="{position}"><td>{line.line}</td><td>{escape(line.player or "")}</td>'
                       f'<td class="{"void" if line.voided else ""}">{text}</td><td>{changes}</td><td>{findings}</td></tr>')
        out.append("</table></div>" + _standings_table(period.standings, players, report.score))
        yield "".join(out)
        out = []


def _replay(sample: Sample, board: Board | None, phrases: StatePhrases) -> tuple[str, str, Iterator[str]]:
    """The replay's controls, its panel, and its data and script (last in the page: it finds every element it
    moves), the data written a position at a time as the states are read; nothing when the sample holds no states."""
    if sample.states is None:
        return "", "", iter(())
    # The header's state is the one before the first turn: period 0's column, if the board has one.
    title = board.title if board else None
    lines = sample.kept()
    data = replay_pieces(sample.states, lines, 0, board, sample.report.by, _change,
                         lambda document: state_words(phrases, document, title))
    notes = any(line.type == "note" for _, line in lines)
    script = chain(['<script type="application/json" id="replay-data">'], data, [f"</script><script>{SCRIPT}</script>"])
    return CONTROLS.format(last=len(lines), notes=NOTES_TOGGLE if notes else ""), PANEL, script


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
    return html_section(report.reconciliation)


def render_html(report: Report) -> str:
    """The whole page as one string."""
    return "".join(html_pieces(sample_report(report)))


def html_pieces(sample: Sample) -> Iterator[str]:
    """The page in pieces, written as they come: the head, the charts, the log a period at a time, then the
    replay's data a position at a time (as ``sample.states`` is read)."""
    report = sample.report
    final = report.periods[-1].standings if report.periods else report.opening
    rules = GAMES[report.game]
    measures = rules.measures
    board = measures.board
    players = Players(report, rules.state_phrases, sample.final)
    series = sampled_series(sample, measures, [players.colours[p] for p in report.players])
    controls, panel, script = _replay(sample, board, rules.state_phrases)
    strip = f"<h3>{escape(board.heading)}</h3>{_board_strip(report, board)}" if board else ""
    counts = escape(_counts(report))
    findings = _findings(report)
    linked = f'<a href="#findings">{counts}</a>' if findings else counts
    yield (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
           f'<meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,">'
           f'<title>{escape(_title(report))}</title><style>{CSS}</style></head><body class="report">{pattern_defs()}'
           f"<h1>{escape(_title(report))}</h1>"
           f"<p><b>Result:</b> {escape(_result(report))}<br><b>Findings:</b> {linked}"
           + "".join(f"<br><b>Agreement:</b> {escape(a)}" for a in _agreement(report))
           + f"<br><b>Time:</b> {escape(_time(report))}</p>"
           f"<h2>Standings</h2>{_standings_table(final, players, report.score, report.result.winner, final=True)}"
           f'<div class="aside">{_declared(report)}{findings}</div>'
           f'<h2 id="replay">The game, line by line</h2>{_coarse(sample)}{controls}'
           f"<h3>{escape(label(report.score))} of each player</h3>{_score_chart(report, measures, series)}{strip}"
           f'{panel}<div class="logs"><h2>The log, {report.by} by {report.by}</h2>')
    yield from _log_pieces(report, players)
    yield "</div>"
    yield from script
    yield "</body></html>\n"
