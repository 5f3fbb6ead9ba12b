"""The HTML report's charts, as inline SVG: step lines of a score over the lines of the log, and a heat strip of counts.

Everything is drawn in a fixed coordinate space (``viewBox``) that the page
scales to its width. Numbers are written with one decimal, so the same data
always gives the same bytes. Nothing here knows a game: names, colours,
patterns and labels come from the caller.
"""

from __future__ import annotations

import math

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from gamelog.domain.measures import PATTERNS

PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442")
"""Okabe and Ito's eight colours ("Color Universal Design", 2008), told apart under every common colour blindness;
the yellow, faint on white, comes last."""

TEXT_CONTRAST = 4.5
"""The least contrast of a colour used as text against the page's white (WCAG 2, 1.4.3: text of normal size)."""


def _luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2's relative luminance of an sRGB colour (each channel 0 to 255)."""
    linear = [c / 12.92 if c <= .03928 else ((c + .055) / 1.055) ** 2.4 for c in (v / 255 for v in rgb)]
    return .2126 * linear[0] + .7152 * linear[1] + .0722 * linear[2]


def readable(colour: str) -> str:
    """``colour`` (``#rrggbb``) as text on white: itself when it reads at :data:`TEXT_CONTRAST` to 1, else the same
    hue darkened just enough (the Okabe-Ito orange, sky blue and yellow, a table's gold). A line or a marker keeps
    the colour itself (a graphic needs 3 to 1); the name beside it is written in this one. Any other CSS colour is
    returned as it is."""
    if len(colour) != 7 or not colour.startswith("#"):
        return colour
    rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    scale = 1.0
    while (1.05 / (_luminance(tuple(c * scale for c in rgb)) + .05)) < TEXT_CONTRAST:
        scale -= .01  # darkened a step at a time: the hue stays, the name stays told apart from its neighbours'
    return "#" + "".join(f"{round(c * scale):02x}" for c in rgb)


MARKERS = ("circle", "square", "triangle", "diamond", "down", "plus")
"""Each series' marker shape, so that players are told apart by more than colour."""

WIDTH = 1000
"""The charts' width in their own units; the page scales them to its width."""


@dataclass
class Series:
    """One line of a step chart: a value at every position, and a marker (with its tooltip) where it changes."""

    name: str
    colour: str
    marker: str
    values: list[int]
    notes: dict[int, str] = field(default_factory=dict)
    """Position -> the tooltip of the marker drawn there (what happened, in words, and the value)."""


def nice_ticks(low: int, high: int, most: int = 6) -> list[int]:
    """Round tick values covering ``low``..``high``: a step of 1, 2 or 5 times a power of ten, at most ``most`` steps."""
    low, high = min(low, 0), max(high, low + 1)
    step = 1
    while True:
        for multiple in (1, 2, 5):
            size = step * multiple
            first, last = (low // size) * size, -(-high // size) * size  # floor and ceiling
            if (last - first) // size <= most:
                return list(range(first, last + 1, size))
        step *= 10


def spread(wanted: Mapping[str, float], gap: float, lowest: float, highest: float) -> dict[str, float]:
    """Label heights as near as can be to ``wanted`` (name -> y), at least ``gap`` apart, between ``lowest`` and
    ``highest`` (SVG's y grows downwards) when there is room: labels that never overlap."""
    order = sorted(wanted, key=lambda name: (wanted[name], name))
    placed: list[float] = []
    for name in order:
        y = max(wanted[name], lowest)
        placed.append(y if not placed else max(y, placed[-1] + gap))
    # Pushed past the bottom: move the labels up from the last, each no nearer than the gap.
    for i in range(len(placed) - 1, -1, -1):
        ceiling = highest if i == len(placed) - 1 else placed[i + 1] - gap
        placed[i] = min(placed[i], ceiling)
    return dict(zip(order, placed))


def marker(shape: str, x: float, y: float, colour: str, size: float = 4.5, extra: str = "", body: str = "") -> str:
    """One marker of ``shape`` (one of :data:`MARKERS`) centred on (x, y), with ``extra`` attributes and ``body``."""
    s = size
    if shape == "circle":
        element = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s:.1f}"'
    elif shape == "square":
        element = f'<rect x="{x - s * .85:.1f}" y="{y - s * .85:.1f}" width="{s * 1.7:.1f}" height="{s * 1.7:.1f}"'
    else:
        points = {
            "triangle": [(0, -1.15), (1.05, .8), (-1.05, .8)],
            "down": [(0, 1.15), (1.05, -.8), (-1.05, -.8)],
            "diamond": [(0, -1.25), (1.1, 0), (0, 1.25), (-1.1, 0)],
            "plus": [(-.35, -1.1), (.35, -1.1), (.35, -.35), (1.1, -.35), (1.1, .35), (.35, .35), (.35, 1.1),
                     (-.35, 1.1), (-.35, .35), (-1.1, .35), (-1.1, -.35), (-.35, -.35)],
        }[shape]
        element = '<polygon points="' + " ".join(f"{x + dx * s:.1f},{y + dy * s:.1f}" for dx, dy in points) + '"'
    element += f' fill="{colour}" stroke="#fff" stroke-width="1"{extra}'
    tag = element.split(" ", 1)[0][1:]
    return f"{element}>{body}</{tag}>" if body else f"{element}/>"


def pattern_defs() -> str:
    """An invisible SVG defining every pattern of :data:`PATTERNS` (``url(#pattern-NAME)``), once per page."""
    ink = 'stroke="#000" stroke-opacity=".45" fill="none"'
    tiles = {
        "stripes": f'<path d="M-1,1 l2,-2 M0,8 l8,-8 M7,9 l2,-2" {ink} stroke-width="1.3"/>',
        "dots": '<circle cx="4" cy="4" r="1.5" fill="#000" fill-opacity=".45"/>',
        "grid": f'<path d="M0,.5H8 M0,4.5H8 M.5,0V4 M4.5,4V8" {ink}/>',
        "checks": '<path d="M0,0h4v4h-4z M4,4h4v4h-4z" fill="#fff" fill-opacity=".45"/>',
        "waves": f'<path d="M0,4 Q2,1 4,4 T8,4" {ink} stroke-width="1.1"/>',
    }
    defs = "".join(f'<pattern id="pattern-{name}" width="8" height="8" patternUnits="userSpaceOnUse">{tiles[name]}</pattern>'
                   for name in PATTERNS if name in tiles)
    return f'<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>{defs}</defs></svg>'


def swatch(colour: str, pattern: str, x: float, y: float, size: float) -> str:
    """A square of ``colour`` with ``pattern`` drawn over it (SVG)."""
    square = f'<rect x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" height="{size:.1f}"'
    over = "" if pattern == "plain" else f'{square} fill="url(#pattern-{pattern})"/>'
    return f'{square} fill="{colour}" stroke="#555" stroke-width=".5"/>{over}'


@dataclass(frozen=True)
class Frame:
    """A step chart's size in its own units: the width, height and margins, its text's size, how many y ticks at
    most, whether each series' end is labelled with its name (else its value only: the page lists the names)."""

    width: int = WIDTH
    height: int = 380
    left: int = 66
    right: int = 150
    top: int = 14
    bottom: int = 56
    text: int = 15
    most_ticks: int = 6
    names_at_ends: bool = True


TICK_DROP = 7
"""How far below the plot's bottom, past a line of text, the x axis's labels stand: clear of the lowest y label."""

WIDE = Frame()
"""The desktop's chart: 1000 units wide, drawn at 0.75 to 1.25 of its size (its text 11 px or more)."""

NARROW = Frame(width=360, height=260, left=38, right=40, top=12, bottom=48, text=13, most_ticks=4, names_at_ends=False)
"""A phone's chart: 360 units wide, drawn near its own size, with fewer ticks; its names in a legend below."""


DESCENT = .3
"""How far below its baseline a line of text reaches, in ems (a rotated title's reach beside its axis)."""


def text_width(text: str, size: float, bold: bool = False) -> float:
    """About how wide ``text`` is drawn at ``size`` px in the page's sans-serif: an em's 0.65 a character (0.7 in
    bold), a little more than digits and most letters take, so that a margin sized by it holds the text."""
    return len(text) * size * (.7 if bold else .65)


def positions_x(count: int, left: float, plot_width: float, bands: Sequence[int] | None) -> list[float]:
    """The x of positions 0..count-1 (0 the setup): evenly spaced, or, given ``bands`` (the first position of each
    period, ascending, the first 1), each period an equal band with its positions spread across it, its last at
    the band's right end (as a chart by round shows the state after each round)."""
    if not bands:
        dx = plot_width / max(count - 1, 1)
        return [left + i * dx for i in range(count)]
    band = plot_width / len(bands)
    ends = [*bands[1:], count]
    xs = [float(left)]
    for b, (start, end) in enumerate(zip(bands, ends)):
        xs.extend(left + band * (b + (k + 1) / (end - start)) for k in range(end - start))
    return xs


def step_chart(series: Sequence[Series], ticks: Sequence[tuple[int, str]], goal: tuple[int, str] | None,
               y_title: str, x_title: str, label: str, frame: Frame = WIDE,
               bands: Sequence[tuple[int, str]] | None = None) -> str:
    """A step chart of ``series`` over positions 0..n (one per line of the log, 0 the setup).

    ``ticks`` are (position, label) marks on the x axis (a turn's or round's
    first line), thinned where they would crowd (the later one is kept); ``goal`` is (value, its
    name), drawn dashed. With ``bands`` ((first position, label) of each period) the x axis is by period
    instead: each period an equal band labelled in its middle, its lines spread across it (``ticks`` unused).
    Series with equal values are drawn a little apart,
    so that none hides another. Each series' end is labelled with its name
    and last value (its value only in a ``frame`` without names), the labels moved apart so that they never overlap. The
    ``cursor`` line is where the replay stands (placed by the page's script:
    ``data-x0`` and ``data-dx`` give the x of a position, or ``data-band`` and ``data-starts`` by period).
    """
    f = frame
    height, top, bottom, width = f.height, f.top, f.bottom, f.width
    positions = max((len(s.values) for s in series), default=1)
    values = [v for s in series for v in s.values] + ([goal[0]] if goal else [])
    y_ticks = nice_ticks(min(values, default=0), max(values, default=1), f.most_ticks)
    if y_ticks[-1] == max(values, default=0):
        y_ticks.append(2 * y_ticks[-1] - y_ticks[-2])  # room above the top line for its labels
    low, high = y_ticks[0], y_ticks[-1]
    # The margins hold what is written in them: the y axis's title beside its widest tick label (a net worth of
    # 4 digits), and each series' end label, its marker and its text (bold), whatever their length.
    title_right = f.text + 3 + DESCENT * f.text
    left = max(f.left, math.ceil(title_right + 3 + text_width(max(map(str, y_ticks), key=len), f.text) + 6))
    ends_text = [f"{s.name} {s.values[-1]}" if f.names_at_ends else str(s.values[-1]) for s in series if s.values]
    right = max(f.right, math.ceil(20 + max((text_width(t, f.text, bold=True) for t in ends_text), default=0) + 4))
    plot_width = width - left - right
    starts = [start for start, _ in bands] if bands else None
    xs = positions_x(positions, left, plot_width, starts)
    x = lambda i: xs[i]
    y = lambda v: top + (height - top - bottom) * (high - v) / (high - low)
    plot_bottom = height - bottom
    if bands:
        band = plot_width / len(bands)
        where = f'data-x0="{left}" data-band="{band:.4f}" data-starts="{" ".join(str(s) for s in starts)}"'
    else:
        where = f'data-x0="{left}" data-dx="{plot_width / max(positions - 1, 1):.4f}"'
    kind = "wide" if frame.names_at_ends else "narrow"
    parts = [f'<svg class="chart score {kind}" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}" '
             f'{where} style="font-size:{f.text}px">']
    for v in y_ticks:
        parts.append(f'<line class="grid" x1="{left}" y1="{y(v):.1f}" x2="{width - right}" y2="{y(v):.1f}"/>'
                     f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>')
    gap = f.text * 2
    if bands:
        every = max(1, math.ceil(gap / band))
        for b, (_, text) in enumerate(bands):
            if b:
                parts.append(f'<line class="grid" x1="{left + b * band:.1f}" y1="{top}" x2="{left + b * band:.1f}" '
                             f'y2="{plot_bottom}"/>')
            if (len(bands) - 1 - b) % every == 0:  # crowded: every few bands labelled, the last always
                parts.append(f'<text x="{left + (b + .5) * band:.1f}" y="{plot_bottom + f.text + TICK_DROP}" '
                             f'text-anchor="middle">{escape(text)}</text>')
    else:
        last_label = None
        for position, text in sorted(ticks, reverse=True):
            if last_label is not None and last_label - x(position) < gap:
                continue  # too near the next labelled tick to be read: the later period keeps its label
            last_label = x(position)
            parts.append(f'<line class="grid" x1="{x(position):.1f}" y1="{top}" x2="{x(position):.1f}" y2="{plot_bottom}"/>'
                         f'<text x="{x(position):.1f}" y="{plot_bottom + f.text + TICK_DROP}" text-anchor="middle">{escape(text)}</text>')
    parts.append(f'<line class="axis" x1="{left}" y1="{plot_bottom}" x2="{width - right}" y2="{plot_bottom}"/>'
                 f'<line class="axis" x1="{left}" y1="{top}" x2="{left}" y2="{plot_bottom}"/>'
                 f'<text class="title" x="{left + plot_width / 2:.1f}" y="{height - 8}" text-anchor="middle">'
                 f'{escape(x_title)}</text>'
                 f'<text class="title" transform="translate({f.text + 3} {top + (plot_bottom - top) / 2:.1f}) rotate(-90)" '
                 f'text-anchor="middle">{escape(y_title)}</text>')
    if goal:
        parts.append(f'<line class="goal" x1="{left}" y1="{y(goal[0]):.1f}" x2="{width - right}" y2="{y(goal[0]):.1f}"/>'
                     f'<text class="goal-label" x="{left + 6}" y="{y(goal[0]) - 5:.1f}">{escape(goal[1])}</text>')
    count = len(series)
    offset = {s.name: (i - (count - 1) / 2) * 2.5 * height / 380 for i, s in enumerate(series)}
    for s in series:
        at = lambda i: y(s.values[i]) + offset[s.name]
        points = [(x(0), at(0))]
        for i in range(1, len(s.values)):
            if s.values[i] != s.values[i - 1]:
                points += [(x(i), at(i - 1)), (x(i), at(i))]
        points.append((x(len(s.values) - 1), at(len(s.values) - 1)))
        parts.append(f'<polyline class="series" data-name="{escape(s.name)}" fill="none" stroke="{s.colour}" '
                     f'stroke-width="2" points="{" ".join(f"{px:.1f},{py:.1f}" for px, py in points)}"/>')
    size = 4.5 if frame.names_at_ends else 4
    for s in series:
        for i, note in sorted(s.notes.items()):
            # The narrow chart's markers go where the wide one's do; their words are the wide one's tooltips.
            title = f"<title>{escape(note)}</title>" if frame.names_at_ends else ""
            parts.append(marker(s.marker, x(i), y(s.values[i]) + offset[s.name], s.colour, size=size,
                                extra=f' class="marker" data-position="{i}"', body=title))
    ends = spread({s.name: y(s.values[-1]) + offset[s.name] for s in series}, f.text + 3, top + 4, plot_bottom)
    for s in series:
        label_y = ends[s.name]
        name = f"{escape(s.name)} {s.values[-1]}" if frame.names_at_ends else str(s.values[-1])
        parts.append(marker(s.marker, width - right + 12, label_y, s.colour, size=size)
                     + f'<text class="end" x="{width - right + 20}" y="{label_y + 4:.1f}" fill="{readable(s.colour)}">'
                       f'{name}</text>')
    parts.append(f'<line class="cursor" x1="{left}" y1="{top}" x2="{left}" y2="{plot_bottom}" visibility="hidden"/></svg>')
    return "".join(parts)


def legend(series: Sequence[Series]) -> str:
    """Each series' marker, name and last value, as an HTML list (beside the narrow chart, which has no room for them)."""
    items = "".join(f'<li><svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">{marker(s.marker, 7, 7, s.colour, 5)}'
                    f'</svg> <span style="color:{readable(s.colour)}">{escape(s.name)}</span> {s.values[-1]}</li>' for s in series)
    return f'<ul class="legend narrow">{items}</ul>'


@dataclass
class Row:
    """One subject of a heat strip: its name, colour and pattern."""

    name: str
    colour: str
    pattern: str


def heat_strip(rows: Sequence[Row], columns: Sequence[tuple[int, str, Mapping[str, int]]], x_title: str,
               label: str, what: str, fixed: bool = False) -> str:
    """A table of counts as SVG: a row per subject (its swatch and name), a column per period (its number, its
    label, the counts after it). Each cell shows its count, shaded by it; its tooltip says ``subject, after
    WHAT LABEL: count``. The ``cursor`` outlines the replay's period (``data-columns`` lists each column's number).
    ``fixed``: drawn at its own size in pixels (cells wide enough to read), for a box that scrolls (a phone's)."""
    left, top, row_height, bottom = 120, 22, 26, 30
    cell = 28.0 if fixed else min(56.0, (WIDTH - left - 10) / max(len(columns), 1))
    width = round(left + cell * len(columns) + 10) if fixed else WIDTH
    height = top + row_height * len(rows) + bottom
    most = max([count for _, _, counts in columns for count in counts.values()] + [1])
    numbers = " ".join(str(number) for number, _, _ in columns)
    size = f'width="{width}" height="{height}" ' if fixed else ""
    parts = [f'<svg class="chart strip {"narrow" if fixed else "wide"}" viewBox="0 0 {width} {height}" {size}role="img" '
             f'aria-label="{escape(label)}" data-x0="{left}" data-dx="{cell:.4f}" data-columns="{numbers}" style="font-size:13px">']
    for c, (_, text, _) in enumerate(columns):
        if cell >= 18 or c % 2 == 0:
            parts.append(f'<text x="{left + (c + .5) * cell:.1f}" y="{top - 7}" text-anchor="middle">{escape(text)}</text>')
    for r, row in enumerate(rows):
        row_y = top + r * row_height
        parts.append(swatch(row.colour, row.pattern, 8, row_y + 5, 16)
                     + f'<text x="32" y="{row_y + 18}">{escape(row.name)}</text>')
        for c, (_, text, counts) in enumerate(columns):
            count = counts.get(row.name, 0)
            box = f'x="{left + c * cell + 1:.1f}" y="{row_y + 1}" width="{cell - 2:.1f}" height="{row_height - 2}"'
            shade = .2 + .8 * count / most if count else 0
            over = f'<rect {box} fill="url(#pattern-{row.pattern})"/>' if count and row.pattern != "plain" else ""
            parts.append(f'<g class="cell"><title>{escape(row.name)}, after {escape(what)} {escape(text)}: {count}</title>'
                         f'<rect {box} fill="{row.colour}" fill-opacity="{shade:.2f}" stroke="#ddd"/>{over}'
                         f'<text x="{left + (c + .5) * cell:.1f}" y="{row_y + 17}" text-anchor="middle" '
                         f'class="{"count" if count else "count none"}">{count}</text></g>')
    parts.append(f'<text class="title" x="{left + len(columns) * cell / 2:.1f}" y="{height - 8}" text-anchor="middle">'
                 f'{escape(x_title)}</text>'
                 f'<rect class="cursor" x="{left}" y="{top - 20}" width="{cell:.1f}" '
                 f'height="{row_height * len(rows) + 22}" visibility="hidden"/></svg>')
    return "".join(parts)
