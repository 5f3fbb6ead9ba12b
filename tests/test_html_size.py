"""The HTML report of a long log stays a few MB, and says when it shows fewer lines than the log has (issue 23).

A generated legal Merchant of Venus log of 200,000 lines (``tests/benchmarks/generate.py``) gives a page of at most
10 MB that keeps every 67th line (3,000 lines a page at most: ``sampling.LINE_BUDGET``); the state at a kept line,
rebuilt from the page's changes as its script rebuilds it, is ``replay --line N``'s; headless Chromium loads the
page and scrubs it. On an example, with a small budget, the kept lines are every k-th, the last and those with a
finding, and their states and scores are the full report's at those lines. A header naming 5,000 players is an
input error. Peak memory and seconds are measured by ``tests/benchmarks/bench_html.py``, not here.
"""

from __future__ import annotations

import json
import re

import msgspec
import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.games import GAMES
from gamelog.domain.phrases import state_words
from gamelog.projections.reports import sampling
from gamelog.projections.reports.html import render_html, sampled_series, score_series
from gamelog.projections.reports.sampling import sample_report
from tests.benchmarks.generate import write_log
from tests.browser import Browser
from tests.conftest import EXAMPLES
from tests.test_html_browser import chromium, expected_cells, shown, where  # noqa: F401  (chromium: a fixture)
from tests.test_html_report import apply, replay_data, report_with_states

LINES = 200_000


def gamelog(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture(scope="module")
def long_page(tmp_path_factory):
    """A generated 200,001-line log (its header line 1, then lines 2 to 200,002) and its HTML report."""
    folder = tmp_path_factory.mktemp("long")
    log, page = folder / "long.jsonl", folder / "long.html"
    with open(log, "wb") as handle:
        assert write_log(handle, LINES) == 200_001
    gamelog("report", str(log), "--format", "html", "-o", str(page))
    return log, page


@pytest.fixture(scope="module")
def middle_state(long_page) -> dict:
    """``replay --line 100032`` of the long log: the state after its 1,493rd kept line."""
    document = json.loads(gamelog("replay", str(long_page[0]), "--line", "100032", "--format", "json"))
    document.pop("forum", None)  # the deprecated name of "board": the page shows the board once
    return document


def state_at_position(data: dict, index: int) -> dict:
    document: dict = {}
    for position in data["positions"][:index + 1]:
        for change in position["state"]:
            apply(document, change)
    return document


def test_the_html_report_of_a_200000_line_log_is_at_most_10_mb_and_says_it_keeps_every_67th_line(long_page,
                                                                                                  middle_state):
    page = long_page[1]
    assert page.stat().st_size <= 10 * 2**20
    html = page.read_text(encoding="utf-8")
    # 200,001 lines, 3,000 a page at most: every 67th (ceil(200,001 / 3,000)), and the last; no line has a finding.
    assert "shown every 67 lines" in html and "of its 200,001 lines" in html and "<link " in html
    assert not re.search(r"""(src|href)=["']?https?:""", html)  # self-contained: nothing fetched
    data = replay_data(html)
    lines = [p["line"] for p in data["positions"]]
    assert lines == [1, *range(68, 200_002, 67), 200_002] and len(lines) == 2_987
    assert len(re.findall(r"<tr [^>]*data-position=", html)) == 2_986
    # The state after a kept line, from the page's changes, is replay --line's.
    index = lines.index(100_032)  # 67 * 1,493 + 1: the 1,493rd kept line
    rules = GAMES["merchant-of-venus"]  # the page shows a state in the game's words: replay --line's, phrased
    assert state_at_position(data, index) == state_words(rules.state_phrases, middle_state)


def test_a_browser_loads_the_long_report_and_scrubs_it(long_page, middle_state, chromium, tmp_path):  # noqa: F811
    page = long_page[1]
    browser = Browser(chromium, tmp_path / "profile")
    try:
        browser.open(page)
        assert browser.evaluate("document.getElementById('scrub').max") == "2986"
        assert "every 67 lines" in browser.evaluate("document.getElementById('coarse').textContent")
        assert where(browser)["said"].startswith("Line 200002")
        browser.evaluate("document.getElementById('scrub').focus()")
        browser.press("Home", 36)
        assert where(browser)["slider"] == 0
        browser.press("ArrowRight", 39)
        assert where(browser)["said"].startswith("Line 68")
        index = 1_493
        browser.evaluate(f"(function () {{ var s = document.getElementById('scrub'); s.value = '{index}';"
                         " s.dispatchEvent(new Event('input', {bubbles: true})); }())")
        at = where(browser)
        assert at["slider"] == index and at["said"].startswith("Line 100032") and at["current"] == "100032"
        assert shown(browser) == expected_cells(middle_state)
        browser.press("End", 35)
        assert where(browser)["said"].startswith("Line 200002")
        browser.screenshot(tmp_path / "long.png")
        assert browser.console == []
    finally:
        browser.close()


def test_past_the_budget_the_page_keeps_every_kth_line_the_last_and_those_with_a_finding(monkeypatch):
    report, _ = report_with_states(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl")
    every = [line for period in report.periods for line in period.lines]
    full = render_html(report)
    assert 'id="coarse"' not in full
    monkeypatch.setattr(sampling, "LINE_BUDGET", 20)
    step = -(-len(every) // 20)
    kept = [line.line for i, line in enumerate(every, 1) if i % step == 0 or i == len(every) or line.findings]
    assert (len(every), step) == (272, 14) and [line.line for line in every if line.findings] == [145, 172, 238, 240]
    html = render_html(report)
    assert f"shown every {step} lines" in html and f"of its {len(every)} lines" in html
    data = replay_data(html)
    assert [p["line"] for p in data["positions"]] == [report.states[0].line, *kept]
    # Each kept line's state is the full report's at that line; the score on the chart, counted from every line.
    states = {state.line: state for state in report.states}
    document: dict = {}
    for position in data["positions"]:
        for change in position["state"]:
            apply(document, change)
        expected = {k: v for k, v in msgspec.to_builtins(states[position["line"]]).items() if k != "forum"}
        rules = GAMES[report.game]  # the page shows a state in the game's words
        assert document == state_words(rules.state_phrases, expected, rules.measures.board and rules.measures.board.title)
    measures = GAMES[report.game].measures
    position_of = {line.line: i for i, line in enumerate(every, 1)}
    monkeypatch.setattr(sampling, "LINE_BUDGET", 10_000)
    wholes = score_series(report, measures)
    monkeypatch.setattr(sampling, "LINE_BUDGET", 20)
    for whole, sampled in zip(wholes, sampled_series(sample_report(report), measures), strict=True):
        assert sampled.values == [whole.values[0], *(whole.values[position_of[n]] for n in kept)]
        # A marker where the score moved since the kept line before, naming the lines it stands for.
        for i, note in sampled.notes.items():
            assert sampled.values[i] != sampled.values[i - 1] and note.startswith(f"{whole.name}, line")


def test_the_text_of_a_line_is_cut_on_the_page_and_whole_in_the_json(tmp_path):
    log = tmp_path / "long-note.jsonl"
    header = {"type": "game", "game": "merchant-of-venus", "id": "n", "players": ["Ann", "Bob"]}
    note = {"type": "note", "text": "word " * 100_000}
    log.write_text(json.dumps(header) + "\n" + json.dumps(note) + "\n", encoding="utf-8")
    html = gamelog("report", str(log), "--format", "html")
    cut = ("note: " + "word " * 100)[:sampling.TEXT_LIMIT - 1] + "…"
    assert len(html) < 100_000 and html.count(cut) == 2  # in the log, and in the replay's data
    text = json.loads(gamelog("report", str(log), "--format", "json"))["periods"][0]["lines"][0]["text"]
    assert text == "note: " + "word " * 100_000


def test_a_log_naming_5000_players_is_refused_with_one_input_error(tmp_path):
    log = tmp_path / "crowd.jsonl"
    players = [f"Player{i:04d}" for i in range(5000)]
    header = {"type": "game", "game": "merchant-of-venus", "id": "crowd", "players": players}
    turns = [{"type": t, "player": players[i % 5000]} for i in range(2000) for t in ("turn_started", "turn_ended")]
    log.write_text("\n".join(json.dumps(line) for line in [header, *turns]) + "\n", encoding="utf-8")
    assert 100_000 < log.stat().st_size < 300_000
    out = gamelog("report", str(log), "--format", "html", code=2)
    assert f"{log}:1: a game has at most 100 players, this header names 5,000 at $.players" in out


@pytest.mark.parametrize("fmt, rounds", [("html", 2), ("text", 1), ("json", 1)])
def test_a_long_report_shows_its_progress_up_to_the_end(monkeypatch, fmt, rounds):
    from contextlib import contextmanager

    from gamelog import reporting

    opened, reached = [], []

    @contextmanager
    def progress(length: int, label: str):
        opened.append((length, label))
        yield reached.append

    log = str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl")
    monkeypatch.setattr(reporting, "PROGRESS_FROM_LINES", 272)  # the example's lines: a long game, here
    with reporting.report(log, ":memory:", fmt=fmt, progress=progress) as pieces:
        "".join(pieces)
    # Over the lines once (read a period at a time), or twice for the page: its lines, then the fold of its states.
    assert opened == [(272 * rounds, f"reporting {log}")]
    assert reached == sorted(reached) and reached[-1] == 272 * rounds and len(reached) >= 7
    monkeypatch.setattr(reporting, "PROGRESS_FROM_LINES", 273)
    opened.clear()
    with reporting.report(log, ":memory:", fmt=fmt, progress=progress) as pieces:
        "".join(pieces)
    assert opened == []


def test_the_board_strip_of_a_long_game_shows_at_most_120_turns_evenly_the_last_among_them(tmp_path):
    from tests.benchmarks.generate import log_bytes, uchronia_lines

    from gamelog.projections.reports.html import STRIP_COLUMNS, thinned

    assert thinned(list(range(10)), 4) == [0, 3, 6, 9] and thinned(list(range(11)), 4) == [0, 3, 6, 10]
    assert thinned(list(range(5)), 5) == [0, 1, 2, 3, 4] and STRIP_COLUMNS == 120
    log = tmp_path / "long.jsonl"
    log.write_bytes(log_bytes(uchronia_lines(300, threshold=1_000)))  # 300 turns, the threshold out of reach
    html = gamelog("report", str(log), "--format", "html")
    wide, narrow = re.findall(r'<svg class="chart strip (?:wide|narrow)"[^>]* data-columns="([^"]*)"', html)
    assert wide == narrow  # the phone's strip (at its own size, in a box that scrolls) has the same columns
    columns = wide
    numbers = [int(n) for n in columns.split()]
    # Turns 1 to 300, every 3rd (ceil(300 / 120)) from the first, and the last.
    assert numbers == [*range(1, 299, 3), 300] and len(numbers) == 101
