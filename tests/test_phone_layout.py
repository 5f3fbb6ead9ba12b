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
        assert browser.console == []
    finally:
        browser.close()


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
    scroll, no text of its chart of lines overlapping another or clipped, the page no wider than the window."""
    open_at(browser, page, PHONE)
    assert browser.evaluate(BROKEN_WORDS) == []
    assert browser.evaluate(WIDE_TABLES) == []
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
