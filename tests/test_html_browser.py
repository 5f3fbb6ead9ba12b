"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``), driven through the DevTools protocol.

For one example of each game the test opens the report from a file, moves
the replay to three lines (by the keyboard, by dragging the slider and
clicking a step button, by a key pressed on the page), reads the state the
page shows and compares it, cell by cell, with ``gamelog replay --line N
--format json`` in the game's own words (``domain.phrases.state_words``); it checks the line shown in words and the cursor on the
chart, that a click on a line of the log or on a marker and a link to a
line (``#line=N``) go there, that the page logs nothing to the console, and
saves a screenshot of the report at the top and scrubbed to a middle line in
the test's temporary folder. ``GAMELOG_SCREENSHOTS=DIR`` keeps them in DIR too (``docs/report.png``
is the Uchronia one, scrubbed).

Every example, and converted exports (the examples' TI Assistant export and AsyncTI4 save, and a real TI Assistant
game from ../shared), is laid out at a phone's 390 px and a desktop's 1280 px: the page is no wider than the
window, no chart text is drawn below 11 px, the scrubber moves by touch and by keys, ``#line=`` follows it, the
console stays empty; a screenshot of each is saved in the test's temporary folder.

Skipped where Chromium is not installed, except under CI, where ``.ci/run``
installs it and the test is required.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.games import GAMES
from gamelog.domain.phrases import state_words
from gamelog.projections.reports.charts import positions_x

from tests.browser import Browser, chromium_or_skip
from tests.conftest import EXAMPLES, shared_path

CASES = {
    # log: (three lines to scrub to: a first, a middle one, the last; values a person checks by hand at the first)
    "merchant-of-venus/seed-examples.jsonl": ((30, 41, 78), {
        # The seed's comment at line 29: c1052 in credits, net worth c1752.
        ("players", "Human", "credits"): "c1052", ("players", "Human", "net worth"): "c1752",
        ("players", "Qossuth", "cargo"): "2 Melf Pelts (good, 1 dot)",
        ("players", "Human", "deeds"): "merchant spaceport of Zum (c200), merchant spaceport of YXKLYX (c200), "
                                       "factory of Humans (c100), factory of Volois (c200)"}),
    "uchronia/complete-3p.jsonl": ((63, 104, 121), {
        ("players", "Bob", "VP"): "8", ("players", "Ann", "under construction"): "Aqueduct (1 resource placed)",
        ("game", "Forum cards by color"): "wood 2, clay 0, brick 1, stone 1, marble 0",
        ("players", "Ann", "buildings"): "Insula (wood, 1 VP, line 18), Horreum (brick, 2 VP, line 31)"}),
    "twilight-imperium-4/complete-4p.jsonl": ((139, 200, 281), {
        ("players", "Bob", "secret objectives held"): "Control the Region, Cut Supply Lines",
        ("players", "Dee", "trade goods"): "4", ("players", "Ann", "home system"): "controlled",
        # Cy: Forge an Alliance (secret, line 46), the Custodians token (line 75), Corner the Market (line 96).
        ("players", "Cy", "VP"): "3 (stage I 1, secrets 1, other 1)",
        ("game", "speaker"): "Ann"}),
}


@pytest.fixture
def chromium():
    return chromium_or_skip()


def gamelog(*args: str) -> str:
    """What the ``gamelog`` command prints (run in this process: it reads log files, and stores nothing)."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def expected_cells(document: dict) -> dict[tuple[str, ...], str]:
    """Every cell the page should show for a replay document: in the game's own words, each row of each player and
    each of the game's (the board once: not again under ``forum``, its deprecated name)."""
    rules = GAMES[document["game"]]
    document = {key: value for key, value in document.items() if key != "forum"}
    words = state_words(rules.state_phrases, document, rules.measures.board.title if rules.measures.board else None)
    cells = {("game", key): text for key, text in words["game"].items()}
    for player, rows in words["players"].items():
        cells.update({("players", player, key): text for key, text in rows.items()})
    return cells


def shown(browser: Browser) -> dict[tuple[str, ...], str]:
    pairs = browser.evaluate("Array.from(document.querySelectorAll('#state-now [data-key]'))"
                             ".map(function (e) { return [e.dataset.key, e.textContent]; })")
    return {tuple(json.loads(key)): text for key, text in pairs}


def where(browser: Browser) -> dict:
    """Where the replay stands: the slider, the line in words, the cursor on the score chart shown, the address."""
    return browser.evaluate("""(function () {
        var svg = Array.from(document.querySelectorAll('svg.chart.score')).filter(function (s) {
            return s.getBoundingClientRect().width > 0; })[0], cursor = svg.querySelector('.cursor');
        return {slider: parseInt(document.getElementById('scrub').value, 10),
                said: document.querySelector('#line-now .said').textContent,
                cursor: parseFloat(cursor.getAttribute('x1')), visible: cursor.getAttribute('visibility'),
                x0: parseFloat(svg.dataset.x0), dx: parseFloat(svg.dataset.dx), band: parseFloat(svg.dataset.band),
                starts: svg.dataset.starts ? svg.dataset.starts.split(' ').map(Number) : null,
                positions: JSON.parse(document.getElementById('replay-data').textContent).positions.length,
                hash: window.location.hash, current: (document.querySelector('tr.current td') || {}).textContent};
    }())""")


def cursor_x(at: dict, position: int) -> float:
    """Where the cursor should stand for ``position``: as ``charts.positions_x`` places the chart's lines."""
    if at["starts"] is None:
        return at["x0"] + position * at["dx"]
    return positions_x(at["positions"], at["x0"], at["band"] * len(at["starts"]), at["starts"])[position]


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
        assert browser.evaluate("document.querySelectorAll('svg.chart.score.wide polyline.series').length") == len(report["players"])

        def check(line: int) -> dict[tuple[str, ...], str]:
            state = shown(browser)
            assert state == expected_cells(json.loads(gamelog("replay", str(EXAMPLES / log), "--line", str(line),
                                                              "--format", "json")))
            at = where(browser)
            assert at["slider"] == position[line] and at["said"].split(":")[0].split(" (")[0] == f"Line {line}"
            assert at["said"].endswith(text[line]) and at["current"] == str(line)
            assert at["visible"] == "visible" and at["cursor"] == pytest.approx(cursor_x(at, position[line]), abs=.01)
            assert at["hash"] == f"#line={line}"  # the address follows the scrubber
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
        marker = browser.evaluate("(function () { var all = document.querySelectorAll('svg.chart.score.wide .marker'); "
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


WIDTHS = {390: 844, 1280: 1000}
"""The window sizes every page is laid out at: a phone's (390 px, touch) and a desktop's."""

CONVERTED = {
    # name: (the export, its converter, whether it is read from ../shared)
    "ti-assistant-small": ("twilight-imperium-4/ti-assistant-small.json", "ti-assistant", False),
    "asyncti4-pbd10972": ("twilight-imperium-4/asyncti4-pbd10972.txt", "asyncti4", False),
    "ti-assistant-9-8-25": ("data/real/ti-assistant-9-8-25.json", "ti-assistant", True),
}

PAGES = [*(f"{p.parent.name}/{p.name}" for p in sorted(EXAMPLES.glob("*/*.jsonl"))), *CONVERTED]


def page_of(name: str, folder: Path) -> Path:
    """The HTML report of an example log, or of an export converted to a log first."""
    page = folder / "report.html"
    if name in CONVERTED:
        export, source, shared = CONVERTED[name]
        path = shared_path(*export.split("/")) if shared else EXAMPLES / export
        log = folder / "converted.jsonl"
        gamelog("convert", "--from", source, str(path), "-o", str(log))
    else:
        log = EXAMPLES / name
    gamelog("report", str(log), "--format", "html", "-o", str(page))
    return page


LAYOUT = """(function () {
    var smallest = null, charts = 0;
    document.querySelectorAll('svg.chart').forEach(function (svg) {
        var box = svg.getBoundingClientRect();
        if (!box.width) { return; }
        charts += svg.classList.contains('score') ? 1 : 0;
        var scale = box.width / svg.viewBox.baseVal.width;
        svg.querySelectorAll('text').forEach(function (t) {
            if (!t.textContent.trim()) { return; }
            var px = parseFloat(getComputedStyle(t).fontSize) * scale;
            if (smallest === null || px < smallest[0]) { smallest = [px, t.textContent]; }
        });
    });
    return {wide: document.documentElement.scrollWidth, window: window.innerWidth, smallest: smallest,
            score_charts: charts, cards: getComputedStyle(document.querySelector('#state-now .cards')).display,
            players: getComputedStyle(document.querySelector('#state-now .players-box')).display};
}())"""

SHOWN = """(function () {
    var data = JSON.parse(document.getElementById('replay-data').textContent), i = parseInt(document.getElementById('scrub').value, 10);
    return {index: i, line: data.positions[i].line, note: !!data.positions[i].note, hash: window.location.hash,
            said: document.querySelector('#line-now .said').textContent, notes: data.positions.map(function (p) { return !!p.note; })};
}())"""


def shows_where_it_stands(browser: Browser) -> dict:
    """Where the scrubber stands, after checking that the line in words and the address say the same (a click on a
    link changes the address first and the page follows on its ``hashchange`` event: waited for, up to 5 s)."""
    for _ in range(50):
        now = browser.evaluate(SHOWN)
        if now["said"].startswith(f"Line {now['line']}") and now["hash"] == f"#line={now['line']}":
            break
        time.sleep(0.1)
    assert now["said"].startswith(f"Line {now['line']}") and now["hash"] == f"#line={now['line']}"
    return now


@pytest.mark.parametrize("name", PAGES)
def test_every_report_fits_a_phone_and_a_desktop_and_scrubs_by_touch_and_keys(chromium, tmp_path, name):
    page = page_of(name, tmp_path)
    browser = Browser(chromium, tmp_path / "profile", width=390, height=844)
    shots = []
    try:
        for width, height in WIDTHS.items():
            browser.resize(width, height)
            browser.open(page)
            layout = browser.evaluate(LAYOUT)
            # The page is no wider than the window (tables scroll inside their own box), one score chart is shown,
            # and no text of a chart shown is drawn below 11 px.
            assert layout["wide"] <= layout["window"] == width, layout
            assert layout["score_charts"] == 1 and layout["smallest"][0] >= 11, layout
            # The state's players: a card each on a phone, a table on a desktop.
            assert (layout["cards"], layout["players"]) == (("block", "none") if width < 600 else ("none", "block"))
            start = shows_where_it_stands(browser)
            assert not start["note"] and start["index"] >= len(start["notes"]) - 1 - sum(start["notes"])

            if width < 600:  # a finger drags the slider back to near its middle
                browser.touch_drag("#scrub", .97, .45)
                dragged = shows_where_it_stands(browser)
                assert dragged["index"] < start["index"] and not dragged["note"]

            # The slider's own keys, then the page's.
            browser.evaluate("document.getElementById('scrub').focus()")
            before = shows_where_it_stands(browser)
            browser.press("ArrowLeft", 37)
            after = shows_where_it_stands(browser)
            assert after["index"] < before["index"] and not after["note"]
            browser.evaluate("document.getElementById('scrub').blur()")
            browser.press("Home", 36)
            assert shows_where_it_stands(browser)["index"] == 0
            for _ in range(3):
                index = shows_where_it_stands(browser)["index"]
                browser.press("ArrowRight", 39)
                moved = shows_where_it_stands(browser)
                assert moved["index"] > index and not moved["note"]
                # Every position stepped over is a note: nothing else is skipped.
                assert all(moved["notes"][index + 1:moved["index"]])
            browser.evaluate("window.scrollTo(0, 0)")
            shot = tmp_path / f"{name.replace('/', '-')}-{width}.png"
            browser.screenshot(shot)
            shots.append(shot)
        assert browser.console == []
    finally:
        browser.close()
    assert all(shot.stat().st_size > 20_000 for shot in shots)  # a page was painted, not a blank
    if os.environ.get("GAMELOG_SCREENSHOTS"):
        for shot in shots:
            shutil.copy(shot, Path(os.environ["GAMELOG_SCREENSHOTS"]) / shot.name)


def test_notes_are_stepped_over_unless_the_toggle_asks_for_them(chromium, tmp_path):
    page = page_of("ti-assistant-small", tmp_path)
    browser = Browser(chromium, tmp_path / "profile")
    try:
        browser.open(page)
        notes = browser.evaluate(SHOWN)["notes"]
        first = notes.index(True)  # the export's first note (CHOOSE_STARTING_TECH, in a sentence)
        assert browser.evaluate(f"JSON.parse(document.getElementById('replay-data').textContent).positions[{first}].text") \
            == "note: Barony of Letnev starts with Antimass Deflectors"
        browser.press("Home", 36)
        for _ in range(first - 1):
            browser.press("ArrowRight", 39)
        assert shows_where_it_stands(browser)["index"] == first - 1
        browser.press("ArrowRight", 39)
        assert shows_where_it_stands(browser)["index"] > first  # over the note
        browser.click("#show-notes")
        browser.press("ArrowLeft", 37)
        browser.press("ArrowLeft", 37)
        assert shows_where_it_stands(browser)["index"] == first - 1
        browser.press("ArrowRight", 39)
        assert shows_where_it_stands(browser)["index"] == first  # on the note, asked for
        # A link to a line goes there, notes or not; the address then names it.
        browser.evaluate(f"window.location.hash = '#line=2'")
        assert shows_where_it_stands(browser)["line"] == 2
        assert browser.console == []
    finally:
        browser.close()


def test_printed_the_page_keeps_the_charts_and_the_log_without_the_controls(chromium, tmp_path):
    page = page_of("uchronia/complete-3p.jsonl", tmp_path)
    browser = Browser(chromium, tmp_path / "profile", width=390, height=844)
    try:
        browser.open(page)
        browser.send("Emulation.setEmulatedMedia", media="print")
        shown = browser.evaluate("""(function () {
            function display(selector) { return getComputedStyle(document.querySelector(selector)).display; }
            return [display('#replay-controls'), display('.now'), display('svg.chart.score.wide'),
                    display('svg.chart.score.narrow'), display('svg.chart.strip.wide'), display('table.log'),
                    getComputedStyle(document.querySelector('svg.chart .cursor')).display];
        }())""")
        assert shown == ["none", "none", "block", "none", "block", "table", "none"]
        assert browser.console == []
    finally:
        browser.close()


def test_a_finding_at_the_top_links_to_its_line(chromium, tmp_path):
    page = page_of("uchronia/disputed.jsonl", tmp_path)
    report = json.loads(gamelog("report", str(EXAMPLES / "uchronia" / "disputed.jsonl"), "--format", "json"))
    first = min(line["line"] for period in report["periods"] for line in period["lines"]
                if any(f["severity"] == "violation" for f in line["findings"]))
    browser = Browser(chromium, tmp_path / "profile", width=390, height=844)
    try:
        browser.open(page)
        browser.click(f'ol.found a[href="#line={first}"]')
        now = shows_where_it_stands(browser)
        assert now["line"] == first
        # The replay is in view: the line in words is on the screen.
        assert 0 <= browser.evaluate("document.getElementById('line-now').getBoundingClientRect().top") < 844
        assert browser.console == []
    finally:
        browser.close()
