"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``), driven through the DevTools protocol.

For one example of each game the test opens the report from a file, moves
the replay to three lines (by the keyboard, by dragging the slider and
clicking a step button, by a key pressed on the page), reads the state the
page shows and compares it, cell by cell, with ``gamelog replay --line N
--format json``; it checks the line shown in words and the cursor on the
chart, that a click on a line of the log or on a marker and a link to a
line (``#line=N``) go there, that the page logs nothing to the console, and
saves a screenshot of the report at the top and scrubbed to a middle line in
the test's temporary folder. ``GAMELOG_SCREENSHOTS=DIR`` keeps them in DIR too (``docs/report.png``
is the Uchronia one, scrubbed).

Skipped where Chromium is not installed, except under CI, where ``.ci/run``
installs it and the test is required.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main

from tests.browser import Browser, chromium_path, required
from tests.conftest import EXAMPLES

DASH = "\u2014"

CASES = {
    # log: (three lines to scrub to: a first, a middle one, the last; values a person checks by hand at the first)
    "merchant-of-venus/seed-examples.jsonl": ((30, 41, 78), {
        # The seed's comment at line 29: c1052 in credits, net worth c1752.
        ("players", "Human", "credits"): "1052", ("players", "Human", "net_worth"): "1752",
        ("players", "Qossuth", "cargo"): "kind good, name Melf Pelts, dots 1, count 2"}),
    "uchronia/complete-3p.jsonl": ((63, 104, 121), {
        ("players", "Bob", "vp"): "8", ("players", "Ann", "under_construction"): "Aqueduct 1",
        ("board",): "wood 2, clay 0, brick 1, stone 1, marble 0",
        ("players", "Ann", "buildings"): "name Insula, color wood, vp 1, line 18; name Horreum, color brick, vp 2, line 31"}),
    "twilight-imperium-4/complete-4p.jsonl": ((139, 200, 281), {
        ("players", "Bob", "secret_objectives_held"): "Control the Region, Cut Supply Lines",
        ("players", "Dee", "trade_goods"): "4", ("players", "Ann", "controls_home_system"): "yes",
        ("speaker",): "Ann"}),
}


@pytest.fixture
def chromium():
    path = chromium_path()
    if path is None:
        if required():
            pytest.fail("chromium is required when CI is set (.ci/run installs it)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    try:
        import websocket  # noqa: F401  (the test extras' websocket-client)
    except ImportError:
        if required():
            raise
        pytest.skip("websocket-client is not installed (pip install '.[test]')")
    return path


def gamelog(*args: str) -> str:
    """What the ``gamelog`` command prints (run in this process: it reads log files, and stores nothing)."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def words(value) -> str:
    """A value as the page words it: lists joined, objects as "key value" pairs, nothing as a dash."""
    if value is None:
        return DASH
    if value is True or value is False:
        return "yes" if value else "no"
    if isinstance(value, list):
        if not value:
            return DASH
        return ("; " if any(isinstance(v, dict) for v in value) else ", ").join(words(v) for v in value)
    if isinstance(value, dict):
        if not value:
            return DASH
        return ", ".join(f"{k} " + (f"({words(v)})" if isinstance(v, dict) else words(v)) for k, v in value.items())
    return str(value)


def expected_cells(document: dict) -> dict[tuple[str, ...], str]:
    """Every cell the page should show for a replay document: each field of the game, each field of each player
    (the board once: not again under ``forum``, its deprecated name)."""
    cells = {(key,): words(value) for key, value in document.items() if key not in ("players", "forum")}
    for player, fields in document["players"].items():
        cells.update({("players", player, field): words(value) for field, value in fields.items()})
    return cells


def shown(browser: Browser) -> dict[tuple[str, ...], str]:
    pairs = browser.evaluate("Array.from(document.querySelectorAll('#state-now [data-key]'))"
                             ".map(function (e) { return [e.dataset.key, e.textContent]; })")
    return {tuple(json.loads(key)): text for key, text in pairs}


def where(browser: Browser) -> dict:
    return browser.evaluate("""(function () {
        var cursor = document.querySelector('svg.chart .cursor'), svg = cursor.ownerSVGElement;
        return {slider: parseInt(document.getElementById('scrub').value, 10),
                said: document.querySelector('#line-now .said').textContent,
                cursor: parseFloat(cursor.getAttribute('x1')), visible: cursor.getAttribute('visibility'),
                x0: parseFloat(svg.dataset.x0), dx: parseFloat(svg.dataset.dx),
                current: (document.querySelector('tr.current td') || {}).textContent};
    }())""")


@pytest.mark.parametrize("log", sorted(CASES))
def test_the_replay_shows_the_state_replay_prints_at_three_lines(chromium, tmp_path, log):
    (first, middle, last), by_hand = CASES[log]
    page = tmp_path / "report.html"
    gamelog("report", str(EXAMPLES / log), "--format", "html", "-o", str(page))
    report = json.loads(gamelog("report", str(EXAMPLES / log), "--format", "json"))
    lines = [line for period in report["periods"] for line in period["lines"]]
    position = {line["line"]: i for i, line in enumerate(lines, 1)}  # 0 is the header
    text = {line["line"]: line["text"] for line in lines}

    browser = Browser(chromium, tmp_path / "profile")
    try:
        browser.open(page)
        browser.screenshot(tmp_path / "report-top.png")
        assert browser.evaluate("document.getElementById('scrub').max") == str(len(lines))
        assert browser.evaluate("document.querySelectorAll('svg.chart polyline.series').length") == len(report["players"])

        def check(line: int) -> dict[tuple[str, ...], str]:
            state = shown(browser)
            assert state == expected_cells(json.loads(gamelog("replay", str(EXAMPLES / log), "--line", str(line),
                                                              "--format", "json")))
            at = where(browser)
            assert at["slider"] == position[line] and at["said"].split(":")[0].split(" (")[0] == f"Line {line}"
            assert at["said"].endswith(text[line]) and at["current"] == str(line)
            assert at["visible"] == "visible" and at["cursor"] == pytest.approx(at["x0"] + position[line] * at["dx"], abs=.01)
            return state

        # By the keyboard: the slider focused, Home, then the right arrow to the line.
        browser.evaluate("document.getElementById('scrub').focus()")
        browser.press("Home", 36)
        assert where(browser)["slider"] == 0
        for _ in range(position[first]):
            browser.press("ArrowRight", 39)
        state = check(first)
        assert {key: state[key] for key in by_hand} == by_hand

        # As a drag does: the slider set one past the line, then the step button back.
        browser.evaluate(f"(function () {{ var s = document.getElementById('scrub'); s.value = '{position[middle] + 1}';"
                         " s.dispatchEvent(new Event('input', {bubbles: true})); }())")
        assert where(browser)["slider"] == position[middle] + 1
        browser.click('button[data-go="previous"]')
        check(middle)
        browser.evaluate("window.scrollTo(0, 0)")
        browser.screenshot(tmp_path / "report-middle.png")

        # A key pressed on the page, away from the slider: End goes to the last line.
        browser.evaluate("document.getElementById('scrub').blur()")
        browser.press("End", 35)
        check(last)

        # A click on the line in the log, or on a marker of the chart, goes there.
        browser.click(f'tr[data-position="{position[first]}"]')
        check(first)
        # The last marker drawn is on top of any it overlaps.
        marker = browser.evaluate("(function () { var all = document.querySelectorAll('svg.chart .marker'); "
                                  "all[all.length - 1].id = 'on-top'; return all[all.length - 1].dataset.position; }())")
        browser.click("#on-top")
        assert int(marker) != position[first] and where(browser)["slider"] == int(marker)

        # A link to a line opens the page there (another file: the same one would only move to the fragment).
        shutil.copy(page, tmp_path / "linked.html")
        browser.open(tmp_path / "linked.html", fragment=f"line={middle}")
        check(middle)
        assert browser.console == []
    finally:
        browser.close()
    for shot in ("report-top.png", "report-middle.png"):
        assert (tmp_path / shot).stat().st_size > 30_000  # a page was painted, not a blank
    if os.environ.get("GAMELOG_SCREENSHOTS"):
        folder = Path(os.environ["GAMELOG_SCREENSHOTS"])
        for shot in ("report-top.png", "report-middle.png"):
            shutil.copy(tmp_path / shot, folder / f"{Path(log).parent.name}-{shot}")
