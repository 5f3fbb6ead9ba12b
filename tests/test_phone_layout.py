"""The pages on a phone (390 px wide, 844 px high, touch) in headless Chromium (``tests/browser.py``): what a new user
tripped on (issue 32, sections 1 and 2).

For the report of every example of the three games, of a real TI Assistant export (from ../shared), and for the
reconcile page (``examples/twilight-imperium-4/results.csv`` against ``complete-4p.jsonl``), the browser lays the
page out and the test reads what it drew:

* no word is broken inside a table cell: each word of each text node of a cell is laid out on one line (the client
  rectangles of a ``Range`` over the word lie on one line), so cells wrap between words only;
* no table is wider than its box unless the box scrolls sideways on its own, and no box reaches past the window;
* on a report, the score chart's top is within the first two screens (the standings and the chart come first);
* no text of a chart shown overlaps another or reaches outside its SVG's ``viewBox`` (each text element's
  ``getBBox``, through its transform, in the SVG's own units), at a phone's width and a desktop's.

The stats page of the TI4 examples and three real TI Assistant exports (22 factions) is checked alike (its
cells, its tables, its charts' text), and its chart of mean VP after each round draws six lines, each in a colour
of its own at least 3 to 1 against the page (WCAG's contrast of a graphic), the names beside them in ink of at
least 4.5 to 1 (no light-yellow name on white); its headings and columns are words, not the JSON's field names.

Skipped where Chromium is not installed, except under CI.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.browser import Browser
from tests.conftest import EXAMPLES, shared_path
from tests.test_html_browser import chromium, gamelog, page_of  # noqa: F401  (chromium: the fixture)

PHONE = (390, 844)
DESKTOP = (1280, 1000)

BROKEN_WORDS = """(function () {
    // Each word (a run of letters up to a space, or through a hyphen or slash, where a line may break) of each text
    // node of each cell shown, with the lines its glyphs are laid out on: more than one is a word broken.
    var broken = [];
    document.querySelectorAll('td, th').forEach(function (cell) {
        if (!cell.getClientRects().length) { return; }
        var walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT), node;
        while ((node = walker.nextNode())) {
            var word = /[^\\s\\-\\/]+[\\-\\/]?/g, m;
            while ((m = word.exec(node.data))) {
                var range = document.createRange(), lines = {};
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                Array.from(range.getClientRects()).forEach(function (r) { if (r.width > 0) { lines[Math.round(r.top)] = 1; } });
                if (Object.keys(lines).length > 1) { broken.push([m[0], cell.textContent]); }
            }
        }
    });
    return broken;
}())"""

WIDE_TABLES = """(function () {
    var wide = [];
    document.querySelectorAll('table').forEach(function (table) {
        if (!table.getClientRects().length) { return; }
        var box = table.parentElement, overflow = getComputedStyle(box).overflowX;
        var scrolls = overflow === 'auto' || overflow === 'scroll';
        if (table.getBoundingClientRect().width > box.clientWidth + .5 && !scrolls) {
            wide.push(['wider than its box, which does not scroll', table.textContent.slice(0, 60)]);
        }
        if (box.getBoundingClientRect().right > window.innerWidth + .5) {
            wide.push(['its box reaches past the window', table.textContent.slice(0, 60)]);
        }
    });
    return wide;
}())"""

CHART_TOP = """(function () {
    var shown = Array.from(document.querySelectorAll('svg.chart.score')).filter(function (s) {
        return s.getBoundingClientRect().width > 0; });
    return shown.length ? shown[0].getBoundingClientRect().top + window.scrollY : null;
}())"""

CHART_TEXT = """(function (charts) {
    // Every text of every chart shown, as a box in its SVG's own units (through its transform: the y axis's title
    // is rotated), against the viewBox and against each other.
    var found = {clipped: [], overlapping: [], texts: 0};
    Array.from(document.querySelectorAll(charts)).filter(function (s) {
        return s.getBoundingClientRect().width > 0; }).forEach(function (svg) {
        var view = svg.viewBox.baseVal, into = svg.getScreenCTM().inverse(), boxes = [];
        svg.querySelectorAll('text').forEach(function (text) {
            if (!text.textContent.trim()) { return; }
            var b = text.getBBox(), m = into.multiply(text.getScreenCTM()), xs = [], ys = [];
            [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]].forEach(function (p) {
                var q = new DOMPoint(p[0], p[1]).matrixTransform(m);
                xs.push(q.x);
                ys.push(q.y);
            });
            var box = {text: text.textContent, left: Math.min.apply(null, xs), right: Math.max.apply(null, xs),
                       top: Math.min.apply(null, ys), bottom: Math.max.apply(null, ys)};
            if (box.left < view.x - .5 || box.top < view.y - .5 || box.right > view.x + view.width + .5
                    || box.bottom > view.y + view.height + .5) {
                found.clipped.push([svg.getAttribute('class'), box.text, box.left, box.right, box.top, box.bottom]);
            }
            boxes.push(box);
        });
        found.texts += boxes.length;
        for (var i = 0; i < boxes.length; i++) {
            for (var j = i + 1; j < boxes.length; j++) {
                var a = boxes[i], c = boxes[j];
                var w = Math.min(a.right, c.right) - Math.max(a.left, c.left), h = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
                if (w > 1 && h > 1) { found.overlapping.push([svg.getAttribute('class'), a.text, c.text]); }
            }
        }
    });
    return found;
}(%s))"""

REPORTS = [*(f"{p.parent.name}/{p.name}" for p in sorted(EXAMPLES.glob("*/*.jsonl"))), "ti-assistant-9-8-25"]
"""The report of every example, and of a real TI Assistant export (``tests.test_html_browser.CONVERTED``)."""


def open_at(browser: Browser, page, size: tuple[int, int]) -> None:
    browser.resize(*size)
    browser.open(page)


@pytest.mark.parametrize("name", REPORTS)
def test_a_report_on_a_phone_breaks_no_word_scrolls_its_tables_and_shows_the_chart_first(chromium, tmp_path, name):
    page = page_of(name, tmp_path)
    browser = Browser(chromium, tmp_path / "profile", *PHONE)
    try:
        open_at(browser, page, PHONE)
        assert browser.evaluate(BROKEN_WORDS) == []
        assert browser.evaluate(WIDE_TABLES) == []
        top = browser.evaluate(CHART_TOP)
        assert top is not None and top < 2 * PHONE[1], top
        for size in (PHONE, DESKTOP):
            open_at(browser, page, size)
            text = browser.evaluate(CHART_TEXT % "'svg.chart'")
            assert text["texts"] > 10 and text["clipped"] == [] and text["overlapping"] == [], (size, text)
        assert browser.console == []
    finally:
        browser.close()


def test_the_reconcile_page_on_a_phone_breaks_no_word_and_scrolls_its_tables(chromium, tmp_path):
    page = tmp_path / "reconcile.html"
    gamelog("reconcile", str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"), "--declared",
            str(EXAMPLES / "twilight-imperium-4" / "results.csv"), "--format", "html", "-o", str(page))
    browser = Browser(chromium, tmp_path / "profile", *PHONE)
    try:
        open_at(browser, page, PHONE)
        # The page has the tables a person reads: the declared result (faction "Emirates of Hacan") and each
        # player's sources.
        assert browser.evaluate("document.querySelectorAll('table').length") == 5
        assert "Emirates of Hacan" in browser.evaluate("document.querySelector('table').textContent")
        assert browser.evaluate(BROKEN_WORDS) == []
        assert browser.evaluate(WIDE_TABLES) == []
        assert browser.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
        # The declared result's six columns do not fit 390 px: its box scrolls, and shows it (issue 40, section 3).
        assert browser.evaluate(WIDE_BOXES) == ["playerfactioncomputeddeclareddifferencew"]
        assert scroll_cues(browser) == []
        # What disagrees first, then what agrees.
        assert browser.evaluate("document.querySelector('.declared p').textContent") == (
            "Disagrees with the log: the scores of Ann (computed 7, declared 8) and Dee (computed 6, declared 5). "
            "Agrees: the winner (Bob); the scores of Bob and Cy.")
        assert browser.console == []
    finally:
        browser.close()


def test_the_reconcile_page_of_a_results_table_is_titled_by_the_table(chromium, tmp_path):
    store = str(tmp_path / "s.sqlite")
    gamelog("import", "--store", store, str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"))
    page = tmp_path / "reconcile.html"
    gamelog("reconcile", "--store", store, "--declared", str(EXAMPLES / "twilight-imperium-4" / "results.csv"),
            "--format", "html", "-o", str(page))
    browser = Browser(chromium, tmp_path / "profile", *PHONE)
    try:
        open_at(browser, page, PHONE)
        assert browser.evaluate("document.title") == "Reconciliation of results.csv"
        assert browser.evaluate("document.querySelector('h1').textContent") == "Reconciliation of results.csv"
        assert browser.evaluate(WIDE_BOXES) == ["playerfactioncomputeddeclareddifferencew"]
        assert browser.evaluate(WIDE_TABLES) == [] and scroll_cues(browser) == []
        assert browser.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    finally:
        browser.close()


REPORT_WORDS = """(function () {
    function shown(e) { return e.getBoundingClientRect().width > 0; }
    return {
        buttons: Array.from(document.querySelectorAll('#replay-controls button')).map(function (b) {
            return [b.textContent, b.getAttribute('aria-label')]; }),
        inks: Array.from(document.querySelectorAll('ul.legend span, svg.chart text.end')).filter(shown).map(
            function (e) {
            return [e.textContent, e.tagName === 'SPAN' ? getComputedStyle(e).color : e.getAttribute('fill')]; }),
        declared: Array.from(document.querySelectorAll('.declared table')).filter(shown).map(function (t) {
            return Array.from(t.rows[0].cells).map(function (c) { return c.textContent; }); })};
}())"""


def _rgb(colour: str) -> str:
    """``#rrggbb`` as the browser writes a computed colour."""
    return f"rgb({int(colour[1:3], 16)}, {int(colour[3:5], 16)}, {int(colour[5:7], 16)})"


def test_a_reports_declared_table_scrolls_with_a_cue_its_buttons_have_names_and_its_colours_read(chromium,
                                                                                                 tmp_path):
    """uchronia/disputed.jsonl declares a result (Ann won): the report's "Declared result" table, at 390 px."""
    page = page_of("uchronia/disputed.jsonl", tmp_path)
    browser = Browser(chromium, tmp_path / "profile", *PHONE)
    try:
        open_at(browser, page, PHONE)
        now = browser.evaluate(REPORT_WORDS)
        assert now["declared"][0] == ["player", "faction", "computed", "declared", "difference", "with adjustments"]
        assert "playerfactioncomputeddeclareddifferencew" in browser.evaluate(WIDE_BOXES)
        assert browser.evaluate(WIDE_TABLES) == [] and scroll_cues(browser) == []
        assert now["buttons"] == [["\u25c0\u25c0", "first line: the header"], ["\u25c0", "previous line"],
                                  ["\u25b6", "next line"], ["\u25b6\u25b6", "last line"]]
        # Each player's name written in their colour reads at 4.5 to 1 on the white page (WCAG 2, 1.4.3).
        assert len(now["inks"]) >= 2
        assert all(contrast(ink if ink.startswith("rgb") else _rgb(ink), "rgb(255, 255, 255)") >= 4.5
                   for _, ink in now["inks"]), now["inks"]
        assert browser.console == []
    finally:
        browser.close()


WIDE_BOXES = """(function () {
    // Each table shown that is wider than its box: the box has columns to scroll to (the table's first 40 characters).
    return Array.from(document.querySelectorAll('table')).filter(function (table) {
        return table.getClientRects().length && table.parentElement.scrollWidth > table.parentElement.clientWidth;
    }).map(function (table) { return table.textContent.slice(0, 40); });
}())"""

BOX = """(function (i, left, hidden) {
    // The box of the i-th table of WIDE_BOXES, scrolled to ``left`` and brought into view: its page coordinates
    // (of the part the screen shows).
    // ``hidden``: the table laid out but not drawn, so that a screenshot shows the box's own backgrounds only.
    var table = Array.from(document.querySelectorAll('table')).filter(function (t) {
        return t.getClientRects().length && t.parentElement.scrollWidth > t.parentElement.clientWidth; })[i];
    table.style.visibility = hidden ? 'hidden' : '';
    var box = table.parentElement;
    box.scrollLeft = left;
    box.scrollIntoView({block: 'center'});
    var r = box.getBoundingClientRect();
    // A box taller than the screen: only what the screen shows of it (a screenshot draws nothing beyond it).
    var top = Math.max(r.top, 0), bottom = Math.min(r.bottom, window.innerHeight);
    return [r.left + window.scrollX, top + window.scrollY, r.right + window.scrollX, bottom + window.scrollY];
}(%d, %d, %s))"""


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


def scroll_cues(browser: Browser) -> list[str]:
    """Each table wider than its box whose box does not show it: a shadow drawn at the edge that has columns beyond
    it (the box's column of pixels just inside that edge darker than the one inside the other edge), gone once
    that edge is reached. The table is hidden while its box is looked at (the box keeps its size and scroll): what
    is seen is the cue, not the cells under it. Returns what is wrong, one line a table."""
    wrong = []
    for i, name in enumerate(browser.evaluate(WIDE_BOXES)):
        shades = []
        for scrolled in (0, 100000):  # the start, then the end
            left, top, right, bottom = browser.evaluate(BOX % (i, scrolled, "true"))
            shades.append((mean(browser.column(left + 2, top, bottom)), mean(browser.column(right - 3, top, bottom))))
        browser.evaluate(BOX % (i, 0, "false"))
        (start_left, start_right), (end_left, end_right) = shades
        if not start_right < start_left - 10:
            wrong.append(f"{name}: no cue on the right at the start ({start_left:.0f} left, {start_right:.0f} right)")
        if not end_left < end_right - 10:
            wrong.append(f"{name}: no cue on the left at the end ({end_left:.0f} left, {end_right:.0f} right)")
    return wrong


STATS_PAGE = """(function () {
    function shown(e) { return e.getBoundingClientRect().width > 0; }
    var chart = document.querySelector('svg.lines');
    return {
        lines: Array.from(chart.querySelectorAll('polyline.series')).map(function (l) {
            return [l.dataset.name, getComputedStyle(l).stroke]; }),
        legend: Array.from(chart.nextElementSibling.querySelectorAll('li')).map(function (li) {
            return [li.textContent, getComputedStyle(li).color]; }),
        background: getComputedStyle(document.body).backgroundColor,
        said: chart.nextElementSibling.nextElementSibling.textContent,
        headings: Array.from(document.querySelectorAll('h1, h2, th')).filter(shown).map(function (e) {
            return e.textContent; })};
}())"""


def luminance(rgb: str) -> float:
    """The relative luminance (WCAG 2) of a CSS colour as the browser computes it (``rgb(R, G, B)``); a
    transparent one is the page's white."""
    values = [float(v) for v in re.findall(r"[\d.]+", rgb)]
    if len(values) == 4 and values[3] == 0:
        values = [255, 255, 255]
    linear = [c / 12.92 if c <= .03928 else ((c + .055) / 1.055) ** 2.4 for c in (v / 255 for v in values[:3])]
    return .2126 * linear[0] + .7152 * linear[1] + .0722 * linear[2]


def contrast(one: str, other: str) -> float:
    lighter, darker = sorted((luminance(one), luminance(other)), reverse=True)
    return (lighter + .05) / (darker + .05)


def stats_page_fits(browser: Browser, page) -> None:
    """The stats page at a phone's width: no word broken in a cell, no table wider than its box without its own
    scroll and its cue, no text of its chart of lines overlapping another or clipped, the page no wider than the
    window."""
    open_at(browser, page, PHONE)
    assert browser.evaluate(BROKEN_WORDS) == []
    assert browser.evaluate(WIDE_TABLES) == [] and scroll_cues(browser) == []
    text = browser.evaluate(CHART_TEXT % "'svg.lines'")
    assert text["texts"] > 5 and text["clipped"] == [] and text["overlapping"] == [], text
    assert browser.evaluate("document.documentElement.scrollWidth") <= PHONE[0]


def test_the_stats_page_on_a_phone_draws_a_few_distinguishable_lines_in_words(chromium, tmp_path):
    logs = [str(EXAMPLES / "twilight-imperium-4" / name)
            for name in ("complete-4p.jsonl", "disputed.jsonl", "disputed-no-objectives-left.jsonl")]
    for name in ("ti-assistant-9-8-25", "ti-assistant-LjnqDB", "ti-assistant-nHg8Hw"):
        logs.append(str(tmp_path / f"{name}.jsonl"))
        gamelog("convert", "--from", "ti-assistant", str(shared_path("data", "real", f"{name}.json")), "-o", logs[-1])
    page = tmp_path / "stats.html"
    gamelog("stats", *logs, "--format", "html", "-o", str(page))
    factions = {f["faction"] for f in json.loads(gamelog("stats", *logs, "--format", "json"))["factions"]}
    assert len(factions) > 6
    browser = Browser(chromium, tmp_path / "profile", *PHONE)
    try:
        stats_page_fits(browser, page)
        page_now = browser.evaluate(STATS_PAGE)
        # Six lines of the factions of most games (the Emirates of Hacan's 4 seats, the Federation of Sol's 3
        # first), each its own colour, none faint on the page; their names in the page's ink.
        names = [name for name, _ in page_now["lines"]]
        assert len(names) == 6 and names[:2] == ["Emirates of Hacan", "Federation of Sol"] and set(names) <= factions
        colours = [colour for _, colour in page_now["lines"]]
        assert len(set(colours)) == 6
        assert all(contrast(colour, page_now["background"]) >= 3 for colour in colours), colours
        assert [item.split(" (")[0].strip() for item, _ in page_now["legend"]] == names
        assert all(contrast(ink, page_now["background"]) >= 4.5 for _, ink in page_now["legend"])
        assert page_now["said"].startswith(f"6 factions of {len(factions)} drawn")
        assert all("_" not in heading for heading in page_now["headings"]), page_now["headings"]
        assert "win rate" in page_now["headings"] and "VP by source" in page_now["headings"]
        assert browser.console == []
    finally:
        browser.close()


@pytest.mark.parametrize("game", ["merchant-of-venus", "twilight-imperium-4", "uchronia"])
def test_the_stats_page_of_each_game_s_examples_fits_a_phone(chromium, tmp_path, game):
    # Merchant of Venus: net worths of 4 digits (Human's c2214) and below 0 (Bob's -110) on the chart's y axis.
    page = tmp_path / "stats.html"
    gamelog("stats", *map(str, sorted((EXAMPLES / game).glob("*.jsonl"))), "--format", "html", "-o", str(page))
    browser = Browser(chromium, tmp_path / "profile", *PHONE)
    try:
        stats_page_fits(browser, page)
        assert browser.console == []
    finally:
        browser.close()
