"""``gamelog stats`` in each format: text (to a width), Markdown, JSON, CSV (one table) and HTML with charts.

Every format but JSON renders the document's tables (``statistics.tables``):
nothing here knows a game. The HTML page's charts are those the game's
statistics name (``domain.statistics.Statistics.charts``): bars (a rate, with
the games it rests on written on each), lines (a mean after each round, with
its spread as a band) and a heat map (counts by two keys).
"""

from __future__ import annotations

import csv
import io
import math
import shlex
import textwrap
from html import escape
from itertools import groupby
from urllib.parse import quote
from typing import Any, Iterable, Iterator

from gamelog.domain.messages import plural
from gamelog.domain.games import GAMES
from gamelog.projections.reports.charts import nice_ticks, text_width
from gamelog.domain.replay_document import held
from gamelog.projections.reports.documents import encode_pieces
from gamelog.projections.reports.safe import clean, csv_cell, markdown
from gamelog.projections.reports.stats_words import Words, plain
from gamelog.projections.reports.stylesheet import SCROLL_CUE
from gamelog.projections.reports.terminal import wrap
from gamelog.projections.reports.statistics import (Explanation, Table, Trace, Traced, cell_figure, report_name,
                                                    tables)

CELL = 32
"""The widest a text column is printed (a longer cell wraps onto more lines)."""


def cell(value: Any) -> str:
    """A figure as every text format writes it: ``-`` for none, a float as Python prints it once rounded, a list's
    items joined (``stats_words.plain``), cleaned for a terminal."""
    return clean(plain(value))


def _title(document: Any) -> str:
    finished = getattr(document, "finished", None)
    return f"{document.game}: {plural(document.games, 'game')}" + (f" ({finished} finished)" if finished is not None else "")


def _keys(columns: tuple[str, ...], first: tuple) -> int:
    """How many leading columns name a row (up to its first text column, ``first`` being the table's first row):
    repeated in each block of a wide table."""
    for at, _ in enumerate(columns):
        if isinstance(first[at], str):
            return at + 1
    return 1


def _blocks(widths: list[int], keys: int, width: int) -> list[list[int]]:
    """The columns of each block: the key columns, then as many others as fit ``width``."""
    blocks: list[list[int]] = []
    current = list(range(keys))
    used = sum(widths[c] + 2 for c in current)
    for column in range(keys, len(widths)):
        if used + widths[column] + 2 > width and len(current) > keys:
            blocks.append(current)
            current = list(range(keys))
            used = sum(widths[c] + 2 for c in current)
        current.append(column)
        used += widths[column] + 2
    blocks.append(current)
    return blocks


def text_table(table: Table, width: int, words: Words | None = None) -> Iterator[str]:
    """A table as text lines no wider than ``width``: a wide one is cut into blocks, its key columns in each; its
    name, columns and cells in ``words`` (the game's, :class:`~projections.reports.stats_words.Words`). A cell
    wider than its column (:data:`CELL` at most, half the width) wraps onto more lines, between words: no name is
    cut.

    The rows are gone through once for the columns' widths, then once a block: none is held (a long list's are
    read from the views each time)."""
    words = words or Words("")
    heading = words.name(table.name)
    if not table.columns:
        yield heading
        yield "  (none)"
        return
    columns = [words.name(c) for c in table.columns]
    widths = [len(c) for c in columns]
    first: tuple | None = None
    for row in table.rows:
        if first is None:
            first = row
        for i, v in enumerate(words.row(table.name, table.columns, row)):
            widths[i] = max(widths[i], min(len(clean(v)), CELL))
    yield heading
    if first is None:
        yield "  (none)"
        return
    keys = min(_keys(table.columns, first), len(widths))
    budget = max(width - 2, 20)
    widths = [min(w, max(budget // 2, 8)) for w in widths]
    numeric = [c >= keys and not isinstance(first[c], (str, list)) for c in range(len(widths))]
    for at, block in enumerate(_blocks(widths, keys, budget)):
        def rows_of(values: Iterable[str]) -> Iterator[str]:
            # Most cells fit: only a longer one is wrapped (a long list's rows are many).
            cells = [[value] if len(value) <= widths[c]
                     else textwrap.wrap(value, widths[c], break_on_hyphens=False) or [""]
                     for c, value in zip(block, values)]
            for n in range(max(len(lines) for lines in cells)):
                parts = []
                for c, lines in zip(block, cells):
                    value = lines[n] if n < len(lines) else ""
                    parts.append(value.rjust(widths[c]) if numeric[c] else value.ljust(widths[c]))
                yield ("  " + "  ".join(parts)).rstrip()
        if at:
            yield ""
        yield from rows_of(columns[c] for c in block)
        for row in table.rows:
            worded = words.row(table.name, table.columns, row)
            yield from rows_of(clean(worded[c]) for c in block)


RESULT = ("wins", "win_rate", "games")
"""The columns a table of results is sorted by, most first: who wins most, at the better rate, over more games."""


def by_result(table: Table) -> Table:
    """``table`` with its rows sorted by result (:data:`RESULT`: most wins first, then the better win rate, then
    more games; ties in the table's own order) when it has a ``wins`` column; any other table as it is."""
    if "wins" not in table.columns:
        return table
    at = [table.columns.index(c) for c in RESULT if c in table.columns]

    def key(row: tuple) -> tuple:
        return tuple(-(row[i] if isinstance(row[i], (int, float)) else -1) for i in at)

    return Table(table.name, table.columns, sorted(table.rows, key=key))


def stats_text(document: Any, width: int, only: str | None = None, brief: bool = False) -> Iterator[str]:
    """The document as text to ``width`` columns: its title, then each table (or only the table ``only``), a table
    of results (:func:`by_result`) sorted by result. ``brief``: the summary, the first table of results and the
    players' only, then a
    line naming the others in words (``--all`` prints them)."""
    yield _title(document) + "\n"
    words = Words(document.game)
    left: list[str] = []
    results = 0
    for table in tables(document):
        if only is not None and table.name != only:
            continue
        if brief and only is None and table.name != "summary":
            # The headline: who wins, by the game's first table of results and by player; the rest is named.
            if "wins" not in table.columns or results and table.name != "players":
                left.append(words.name(table.name))
                continue
            results += 1
        yield "\n"
        yield from (line + "\n" for line in text_table(by_result(table), width, words))
    if left:
        yield "\n"
        yield from (line + "\n" for line in wrap(
            f"{plural(len(left), 'more table')} (--all prints them): {'; '.join(left)}",
            width, 0, 2))


def stats_markdown(document: Any, only: str | None = None) -> Iterator[str]:
    """The document as Markdown: a heading, then each table (or the table ``only``) under its own heading."""
    yield f"# {markdown(_title(document))}\n"
    words = Words(document.game)
    for table in tables(document):
        if only is not None and table.name != only:
            continue
        yield f"\n## {markdown(words.name(table.name))}\n\n"
        written = False
        for row in table.rows:
            if not written:
                yield "| " + " | ".join(markdown(words.name(c)) for c in table.columns) + " |\n"
                yield "|" + "|".join("---" for _ in table.columns) + "|\n"
                written = True
            yield "| " + " | ".join(markdown(clean(v)) for v in words.row(table.name, table.columns, row)) + " |\n"
        if not written:
            yield "(none)\n"


def stats_json(document: Any, only: str | None = None) -> Iterator[str]:
    """The document as JSON (``gamelog schema stats``), indented by one space: a long list's rows written as they
    are read (``documents.encode_pieces``)."""
    yield from encode_pieces(document, indent=1)
    yield "\n"


def stats_csv(document: Any, only: str | None = None) -> Iterator[str]:
    """One table of the document as CSV (``only``: its name; the first list, ``factions`` or ``players``, else)."""
    found = tables(document)
    name = only or found[1].name
    table = next(t for t in found if t.name == name)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    written = False
    for row in table.rows:
        if not written:
            writer.writerow(table.columns)
            written = True
        writer.writerow(["" if v is None else csv_cell(", ".join(v) if isinstance(v, list) else v) for v in row])
        if out.tell() > 1 << 16:  # a long table's rows are written as they are read
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    if not written:  # a table of no rows: an empty header (as a list held whole, and empty, has no columns)
        writer.writerow(())
    yield out.getvalue()


# -- HTML -------------------------------------------------------------------------------------------

_STYLE = """
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:0.5rem;line-height:1.4}
h1{font-size:1.3rem}h2{font-size:1.1rem;margin-top:1.5rem}
""" + SCROLL_CUE + """
table{border-collapse:collapse;font-size:0.85rem}th,td{padding:0.2rem 0.4rem;border-bottom:1px solid #ddd;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.bar{display:flex;align-items:center;gap:0.4rem;margin:0.15rem 0;font-size:0.85rem}
.bar .label{flex:0 0 9rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.bar .track{flex:1;background:#eee;height:1.1rem;position:relative}
.bar .fill{background:#0072b2;height:100%}
.bar .value{flex:0 0 7rem;font-variant-numeric:tabular-nums}
svg.lines{width:100%;height:auto;max-height:24rem}.quiet{color:#555}
.legend{list-style:none;padding:0;margin:0.3rem 0;display:flex;flex-wrap:wrap;gap:0.2rem 0.9rem;font-size:0.85rem}
.legend svg{vertical-align:middle}
td,th{overflow-wrap:normal;word-break:normal}
.heat td{text-align:center;min-width:1.6rem}
@media (max-width:30rem){.bar{flex-wrap:wrap;gap:0 0.4rem}.bar .label{flex-basis:100%;white-space:normal}
.bar .value{flex-basis:auto}}
"""


def _rows_of(document: Any, name: str) -> tuple[Table | None]:
    for table in tables(document):
        if table.name == name:
            return table
    return None


def _column(table: Table, name: str) -> int:
    return table.columns.index(name)


def _bars(table: Table, words: Words, named: tuple[str, ...], label: str, value: str, count: str) -> str:
    """Horizontal bars of ``value`` (a rate, 0 to 1) by ``label``, each with its ``count`` of games written on it."""
    at_l, at_v, at_c = _column(table, label), _column(table, value), _column(table, count)
    parts = [f"<h2>{escape(words.name(value))} by {escape(words.name(label))}</h2>"]
    for row in table.rows:
        rate = row[at_v] or 0
        parts.append(f'<div class="bar"><span class="label">{escape(cell(row[at_l]))}</span>'
                     f'<span class="track"><span class="fill" style="display:block;width:{rate * 100:.1f}%"></span></span>'
                     f'<span class="value">{escape(clean(words.value(value, row[at_v])))} '
                     f'({plural(row[at_c], "game")})</span></div>')
    return "\n".join(parts)


LINES = 6
"""The most series a chart of lines draws of its own choosing (those of most games), beside the ones a filter names:
more are not told apart."""

LINE_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#000000", "#8c6d00", "#7a5195")
"""The lines' colours: Okabe and Ito's without their yellow, orange and sky blue (faint on white: under 3 to 1),
an ochre and a purple instead, each at least 3 to 1 against the page's white (a graphic's contrast, WCAG 1.4.11).
Names are written in the page's ink beside a swatch of the colour, never in it."""

DASHES = ("", "7 4", "2 3", "", "7 4", "2 3", "")
"""Each line's dash pattern, so that lines are told apart by more than their colour."""


def chosen_series(series: dict[str, list[tuple[int, float, float]]], games: dict[str, int],
                  named: tuple[str, ...]) -> list[str]:
    """The series a chart draws: those ``named`` (a filter's, in any case), then those of most ``games`` (ties: the
    higher last value, then by name), :data:`LINES` in all or the named ones, in the order they are drawn."""
    wanted = {name.casefold() for name in named}
    first = [name for name in series if name.casefold() in wanted]
    rest = sorted((name for name in series if name.casefold() not in wanted),
                  key=lambda name: (-games[name], -max(series[name])[1], name.casefold()))
    return first + rest[:max(LINES - len(first), 0)]


def _lines(table: Table, words: Words, named: tuple[str, ...], label: str, value: str, x: str) -> str:
    """One line of ``value`` over ``x`` for the few ``label`` that matter (:func:`chosen_series`), its spread
    (``spread`` column) drawn as a band; the page says which are drawn of how many."""
    at_l, at_v, at_x = _column(table, label), _column(table, value), _column(table, x)
    at_s = table.columns.index("spread") if "spread" in table.columns else None
    at_g = table.columns.index("games") if "games" in table.columns else None
    series: dict[str, list[tuple[int, float, float]]] = {}
    games: dict[str, int] = {}
    for row in table.rows:
        if row[at_v] is not None:
            series.setdefault(row[at_l], []).append((row[at_x], row[at_v], (row[at_s] or 0) if at_s is not None else 0))
            games[row[at_l]] = max(games.get(row[at_l], 0), row[at_g] if at_g is not None else 1)
    if not series:
        return ""
    drawn = chosen_series(series, games, named)
    xs = [p[0] for name in drawn for p in series[name]]
    low, high = min(xs), max(xs)
    # The y axis from 0 (or the lowest value: a net worth may be negative) to above the highest band.
    ticks = nice_ticks(math.floor(min(min(p[1] for name in drawn for p in series[name]), 0)),
                       math.ceil(max(p[1] + p[2] for name in drawn for p in series[name])) or 1, 4)
    bottom, top = ticks[0], ticks[-1]
    # A phone's width of units: drawn at 360 px or more, no label is below 12 px (and at most 8 labels on the x axis);
    # the left margin holds the widest y label (a net worth of 4 digits).
    width, height, pad = 360, 220, 30
    left = max(pad, math.ceil(text_width(max(map(str, ticks), key=len), 12) + 8))

    def px(v: float) -> float:
        return left + (v - low) / ((high - low) or 1) * (width - left - pad)

    def py(v: float) -> float:
        return height - pad - (v - bottom) / ((top - bottom) or 1) * (height - 2 * pad)

    heading = f"{words.name(value)} after each {words.name(x)}"
    parts = [f"<h2>{escape(heading)}</h2>",
             f'<svg class="lines" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(heading)}">',
             f'<line x1="{left}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#999"/>']
    for n in range(low, high + 1, max(1, -(-(high - low + 1) // 8))):
        parts.append(f'<text x="{px(n):.1f}" y="{height - 8}" font-size="12" text-anchor="middle">{n}</text>')
    for tick in ticks:
        parts.append(f'<text x="{left - 4}" y="{py(tick) + 4:.1f}" font-size="12" text-anchor="end">{tick}</text>'
                     f'<line x1="{left}" y1="{py(tick):.1f}" x2="{width - pad}" y2="{py(tick):.1f}" stroke="#eee"/>')
    legend = []
    for i, name in enumerate(drawn):
        colour, dash = LINE_COLOURS[i % len(LINE_COLOURS)], DASHES[i % len(DASHES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        points = sorted(series[name])
        band = [f"{px(x):.1f},{py(v + s):.1f}" for x, v, s in points] + \
               [f"{px(x):.1f},{py(max(v - s, bottom)):.1f}" for x, v, s in reversed(points)]
        parts.append(f'<polygon points="{" ".join(band)}" fill="{colour}" fill-opacity="0.12"/>')
        line = " ".join(f"{px(x):.1f},{py(v):.1f}" for x, v, _ in points)
        parts.append(f'<polyline class="series" data-name="{escape(name)}" points="{line}" fill="none" '
                     f'stroke="{colour}" stroke-width="2.5"{dashed}><title>{escape(name)}</title></polyline>')
        legend.append(f'<li><svg width="24" height="10" aria-hidden="true"><line x1="0" y1="5" x2="24" y2="5" '
                      f'stroke="{colour}" stroke-width="3"{dashed}/></svg> {escape(cell(name))} '
                      f'<span class="quiet">({plural(games[name], "game")})</span></li>')
    parts.append("</svg>")
    parts.append(f'<ul class="legend">{"".join(legend)}</ul>')
    if len(drawn) < len(series):
        kind = words.name(table.columns[at_l])
        wanted = {name.casefold() for name in named}
        first = [name for name in drawn if name.casefold() in wanted]
        said = f"{', '.join(first)} (as the filters name), then " if first else ""
        parts.append(f'<p class="quiet">{len(drawn)} {escape(kind)}s of {len(series)} drawn: {escape(said)}those of '
                     f"most games (<code>--{escape(table.columns[at_l])} NAME</code> draws another); "
                     f'<a href="#t-{escape(table.name)}">{escape(words.name(table.name))}</a> below has every one.</p>')
    return "\n".join(parts)


def _heat(table: Table, words: Words, named: tuple[str, ...], label: str, value: str, column: str) -> str:
    """A heat map: a row per ``label``, a column per ``column``, each cell's shade its ``value``."""
    at_l, at_v, at_c = _column(table, label), _column(table, value), _column(table, column)
    cells: dict[tuple[Any, Any], int] = {(row[at_l], row[at_c]): row[at_v] for row in table.rows}
    labels = sorted({k[0] for k in cells}, key=lambda s: str(s).casefold())
    columns = sorted({k[1] for k in cells})
    most = max(cells.values(), default=0) or 1
    parts = [f"<h2>{escape(words.name(value))} by {escape(words.name(label))} and {escape(words.name(column))}</h2>",
             '<div class="scroll"><table class="heat">',
             "<tr><th></th>" + "".join(f"<th>{escape(clean(words.value(column, c)))}</th>" for c in columns) + "</tr>"]
    for name in labels:
        row = [f"<th>{escape(cell(name))}</th>"]
        for c in columns:
            n = cells.get((name, c), 0)
            shade = n / most
            ink = "#fff" if shade > 0.5 else "#000"
            row.append(f'<td style="background:rgba(0,114,178,{shade:.2f});color:{ink}">{n or ""}</td>')
        parts.append("<tr>" + "".join(row) + "</tr>")
    parts.append("</table></div>")
    return "\n".join(parts)


_NUMERIC = ' class="n"'
_CHARTS = {"bars": _bars, "lines": _lines, "heat": _heat}


def stats_html(traced: Traced, only: str | None = None) -> Iterator[str]:
    """One self-contained page: the charts the game's statistics name, then every table (scrolling on a phone).

    Each figure the game's statistics link (``Statistics.links``) opens, on the same page, the games and lines it
    rests on (``traced.traces``: those of its first games in full, then how many more and the ``--explain``
    command listing them all), each game linking to its own report (``traced.reports``), at the line.
    """
    document = held(traced.document)  # the charts go through a table's rows several times: the page holds them
    title = escape(_title(document))
    yield ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
           f"<title>{title}</title><style>{_STYLE}{_TRACE_STYLE}</style></head><body>\n<h1>{title}</h1>\n")
    statistics = GAMES[document.game].statistics if document.game in GAMES else None
    words = Words(document.game)
    for kind, name, *columns in (statistics.charts if statistics is not None else ()):
        table = _rows_of(document, name)
        if table is not None and table.rows:
            yield _CHARTS[kind](table, words, traced.named, *columns) + "\n"
    anchors: dict[str, tuple[str, str]] = {}  # figure -> its section's id and table, in the order linked
    links = [link for link in (statistics.links if statistics is not None else ()) if link[2]]
    for table in tables(document):
        if only is not None and table.name != only:
            continue
        linked = {column: template for name, column, template in links if name == table.name}
        yield (f"<h2 id=\"t-{escape(table.name)}\">{escape(words.name(table.name))}</h2>\n<div class=\"scroll\"><table>\n")
        yield "<tr>" + "".join(f"<th>{escape(words.name(c))}</th>" for c in table.columns) + "</tr>\n"
        for row in table.rows:
            cells = []
            for column, v, worded in zip(table.columns, row, words.row(table.name, table.columns, row)):
                text = escape(clean(worded))
                figure = _figure_of(table, row, column, linked)
                if table.name == "summary" and column == "value":
                    figure = _figure_of(table, row, row[0], linked)
                if figure is not None and figure in traced.traces:
                    anchor, _ = anchors.setdefault(figure, (f"f{len(anchors) + 1}", table.name))
                    text = f'<a href="#{anchor}" title="the games behind {escape(figure)}">{text}</a>'
                cells.append(f"<td{_NUMERIC if not isinstance(v, str) else ''}>{text}</td>")
            yield "<tr>" + "".join(cells) + "</tr>\n"
        yield "</table></div>\n"
    if anchors:
        yield ("<h2 id=\"games\">the games behind each figure</h2>\n<p>A figure of the tables above opens here the "
               "games and lines it rests on, as <code>gamelog stats --explain FIGURE</code> lists them; a game opens "
               f"its own report (in <code>{escape(traced.reports)}/</code>), at the line.</p>\n")
        for figure, (anchor, table_name) in anchors.items():
            yield from _trace_html(traced, traced.traces[figure], anchor, table_name)
    yield "</body></html>\n"


_TRACE_STYLE = """
.trace{display:none;border-left:3px solid #0072b2;padding-left:0.5rem;margin:1rem 0}
.trace:target{display:block}.trace h3{font-size:1rem;margin:0.3rem 0;overflow-wrap:anywhere}
.trace code{overflow-wrap:anywhere}td a{color:inherit}
.games{padding-left:1.1rem;font-size:0.9rem}.games ul{padding-left:1rem;margin:0.1rem 0 0.4rem}
.games li{overflow-wrap:anywhere}.games b{font-weight:600;font-variant-numeric:tabular-nums}
"""


def _figure_of(table: Table, row: tuple, column: str, linked: dict[str, str]) -> str | None:
    """The figure a table's cell links to (``summary``: its row named ``column``), or None."""
    template = linked.get(column)
    if template is None:
        return None
    if table.name == "summary":
        return template if row[0] == column else None
    return cell_figure(template, table.columns, row)


def _report_href(traced: Traced, game: str) -> str:
    return quote(traced.reports.replace("\\", "/").rstrip("/")) + "/" + quote(report_name(game))


def _trace_html(traced: Traced, trace: Trace, anchor: str, table: str) -> Iterator[str]:
    """One figure's games and lines: those of its first games, by game, then how many more and the command that
    lists them all; a link back to its ``table``."""
    games = len({line.game for line in trace.shown})
    counted = _counted(trace.total, trace.lines, trace.games) if trace.lines else \
        "no line counts toward it in the games chosen"
    yield (f'<section class="trace" id="{anchor}"><h3>{escape(trace.figure)}</h3>\n<p>{counted} '
           f'(<a href="#t-{escape(table)}">back to {escape(Words(traced.document.game).name(table))}</a>)</p>\n')

    if trace.shown:
        # A list by game (each line's words wrap at the page's width: a table squeezed them on a phone).
        yield '<ul class="games">\n'
        for game, lines in groupby(trace.shown, key=lambda line: line.game):
            href = escape(_report_href(traced, game))
            yield f'<li><a href="{href}">{escape(clean(game))}</a><ul>'
            yield "".join(f'<li><a href="{href}#line={line.line}">line {line.line}</a> <b>{line.amount:+d}</b> '
                          f"{escape(clean(line.text))}</li>" for line in lines)
            yield "</ul></li>\n"
        yield "</ul>\n"
    if trace.games > games:
        command = f"{traced.command} --explain {shlex.quote(trace.figure)}"
        yield (f"<p>and {plural(trace.games - games, 'more game')} (the first {games} are listed): "
               f"<code>{escape(command)}</code> lists every line.</p>\n")
    yield "</section>\n"


# -- --explain -------------------------------------------------------------------------------------


def explain_text(explained: Explanation, width: int) -> Iterator[str]:
    """The lines behind a figure, as text: one per line (game, line, amount, words), then their total."""
    for said in wrap(clean(f"{explained.figure}: {_counted(explained.total, len(explained.lines), explained.games)}"),
                     width, 0, 2):
        yield said + "\n"
    for line in explained.lines:
        # Wrapped, never cut: a name in the line's words (a player's, an objective's) is read whole.
        for said in wrap(clean(line.text), width, f"  {clean(line.game)}:{line.line}  {line.amount:+d}  ", 6):
            yield said + "\n"


def explain_markdown(explained: Explanation) -> Iterator[str]:
    yield f"# {markdown(explained.figure)}\n\n{_counted(explained.total, len(explained.lines), explained.games)}\n\n"
    yield "| game | line | amount | text |\n|---|---|---|---|\n"
    for line in explained.lines:
        yield f"| {markdown(line.game)} | {line.line} | {line.amount} | {markdown(line.text)} |\n"


def explain_csv(explained: Explanation) -> Iterator[str]:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("game", "line", "amount", "text"))
    for line in explained.lines:
        writer.writerow((csv_cell(line.game), line.line, line.amount, csv_cell(line.text)))
    yield out.getvalue()


def explain_html(explained: Explanation) -> Iterator[str]:
    title = escape(explained.figure)
    yield ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
           f"<title>{title}</title><style>{_STYLE}</style></head><body>\n<h1>{title}</h1>\n"
           f"<p>{_counted(explained.total, len(explained.lines), explained.games)}</p>\n"
           "<div class=\"scroll\"><table>\n<tr><th>game</th><th>line</th><th>amount</th><th>text</th></tr>\n")
    for line in explained.lines:
        yield (f"<tr><td>{escape(line.game)}</td><td class=\"n\">{line.line}</td><td class=\"n\">{line.amount}</td>"
               f"<td>{escape(clean(line.text))}</td></tr>\n")
    yield "</table></div>\n</body></html>\n"


def _counted(total: int, lines: int, games: int) -> str:
    """What the lines behind a figure add up to, in words: ``7 from 9 lines in 2 games``, ``1 from 1 line in 1 game``."""
    return f"{total} from {plural(lines, 'line')} in {plural(games, 'game')}"
