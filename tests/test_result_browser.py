"""The table agrees, on phones (issue 39): a finished game served by ``gamelog serve``, each seat's page in its own
headless Chromium (its own profile, 390x844). Every seat confirms from its own page and every page shows
"settled"; the host stores a correction that changes the winner and every seat is asked again; one seat disputes
from its page, the host rules from the host's page, all confirm, and every page shows "settled" again."""

from __future__ import annotations

import json
import signal
import os
import subprocess
import sys
import time
from typing import Any, Iterator

import pytest

from gamelog.cli.web.tokens import Tokens
from tests.browser import Browser, chromium_or_skip
from tests.conftest import EXAMPLES

HOST_TOKEN = "the-host-of-the-result-browser-test-0123"
WIDTH, HEIGHT = 390, 844
FOLLOW = 20.0
"""Seconds a page is given to show what another device stored (a loaded machine is slow)."""
GAME = "uchronia-2p-tiebreak"  # Ann and Bob; Bob wins on the tie-break at line 37, the last line of play
PLAYERS = ("Ann", "Bob")


def until(browser: Browser, expression: str, what: str) -> Any:
    """The value of ``expression`` once it is truthy, polled; fails naming the page's problem after FOLLOW s."""
    deadline = time.monotonic() + FOLLOW
    while True:
        value = browser.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            said = browser.evaluate("[document.getElementById('problem').textContent, "
                                    "(document.getElementById('verdict') || {}).textContent, "
                                    "(document.getElementById('result') || {}).textContent]")
            raise AssertionError(f"{what}: not within {FOLLOW} s (problem, verdict, result: {said})")
        time.sleep(.05)


def state_is(browser: Browser, words: str, what: str) -> str:
    return until(browser, f"(function () {{ var s = document.getElementById('result-state'); "
                          f"return s && s.textContent.indexOf({json.dumps(words)}) === 0 ? s.textContent : ''; }})()", what)


def asked(browser: Browser) -> bool:
    return browser.evaluate("!!document.getElementById('confirm-step')")


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("served")
    store = folder / "s.sqlite"
    subprocess.run([sys.executable, "-m", "gamelog.cli.main", "import", str(EXAMPLES / "uchronia" / "tiebreak-2p.jsonl"),
                    "--store", str(store)], check=True, capture_output=True, timeout=120)
    errors = (folder / "stderr").open("w")
    process = subprocess.Popen([sys.executable, "-m", "gamelog.cli.main", "serve", "--store", str(store),
                                "--port", "0"], env={**os.environ, "GAMELOG_HOST_TOKEN": HOST_TOKEN},
                               stdout=subprocess.PIPE, stderr=errors, text=True)
    first = process.stdout.readline()
    assert first.startswith("gamelog serve: http://127.0.0.1:"), (first, (folder / "stderr").read_text())
    try:
        yield first.split()[2]
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        errors.close()
        assert "Traceback" not in (folder / "stderr").read_text()


@pytest.fixture(scope="module")
def pages(served, tmp_path_factory) -> Iterator[dict[str, Browser]]:
    """A phone per seat and one for the host, each its own browser (its own context), on the game's page."""
    executable = chromium_or_skip()
    folder = tmp_path_factory.mktemp("phones")
    tokens = Tokens(HOST_TOKEN)
    made: dict[str, Browser] = {}
    try:
        for who in (*PLAYERS, "host"):
            (folder / who).mkdir()
            made[who] = Browser(executable, folder / who, WIDTH, HEIGHT)
            token = HOST_TOKEN if who == "host" else tokens.seat(GAME, who)
            made[who].visit(f"{served}/games/{GAME}#token={token}", fresh=True)
        yield made
        for who, browser in made.items():
            assert [m for m in browser.console if "uncaught" in m or "error" in m] == [], (who, browser.console)
    finally:
        for browser in made.values():
            browser.close()


def post(url: str, line: dict, **more: Any) -> dict:
    import urllib.request

    request = urllib.request.Request(f"{url}/api/games/{GAME}/lines", method="POST",
                                     data=json.dumps({"line": line, **more}).encode(),
                                     headers={"Authorization": f"Bearer {HOST_TOKEN}",
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def confirm_all(pages: dict[str, Browser], after: int) -> None:
    for player in PLAYERS:
        until(pages[player], "!!document.getElementById('confirm')", f"{player} is asked to confirm")
        shown = pages[player].evaluate("document.getElementById('confirm-step').textContent")
        assert f"after line {after}" in shown and "Bob: 6" in shown and "Ann: 6" in shown
        pages[player].click("#confirm")
        until(pages[player], "!document.getElementById('confirm-step')", f"{player}'s confirmation stored")
        for who, page in pages.items():  # every page has the line before the next seat confirms (no 409 to retry)
            until(page, f"(document.getElementById('result-state') || {{}}).textContent.match(/confirmed by .*"
                        f"({player}|all)/)", f"{who} sees {player}'s confirmation")


def test_every_seat_confirms_a_correction_asks_again_a_dispute_is_ruled(served, pages):
    for player in PLAYERS:
        state_is(pages[player], "open: no seat has confirmed the game after line 37", f"{player} sees the open result")
    assert not asked(pages["host"])  # the host confirms nothing: the seats do
    confirm_all(pages, 37)
    for who, page in pages.items():
        state_is(page, "settled: confirmed by all 2 seats after line 37", f"{who} sees it settled")
    # The host stores a correction that changes the winner (line 37 declared him): every seat is asked again.
    fix = post(served, {"type": "note", "text": "the tie-break is read again"}, replaces=37)
    assert fix["appended"] and fix["line"] == 40  # one correction line, carrying the replacement
    for player in PLAYERS:
        state_is(pages[player], "open: no seat has confirmed the game after line 40", f"{player} is asked again")
        until(pages[player], "!!document.getElementById('confirm-step')", f"{player}'s Confirm step again")
    # Ann disputes from her page; the host rules from the host's page.
    pages["Ann"].evaluate("document.getElementById('dispute-reason').value = 'Bob built only 2 buildings'")
    pages["Ann"].click("#dispute")
    for who, page in pages.items():
        state_is(page, "disputed: Ann disputes it at line 41: Bob built only 2 buildings", f"{who} sees the dispute")
    until(pages["host"], "!!document.querySelector('.ruling[data-resolves=\"41\"] button.rule')", "the host's Rule")
    pages["host"].evaluate("document.querySelector('.ruling[data-resolves=\"41\"] .ruling-text').value = "
                           "'three buildings: the count stands'")
    pages["host"].click(".ruling[data-resolves=\"41\"] button.rule")
    for who, page in pages.items():
        state_is(page, "open: no seat has confirmed the game after line 40", f"{who} sees the dispute resolved")
    confirm_all(pages, 40)
    for who, page in pages.items():
        state_is(page, "settled: confirmed by all 2 seats after line 40", f"{who} sees it settled again")
    assert pages["host"].evaluate("document.querySelectorAll('.ruling').length") == 0
    # The finished game goes to BG Stats from every page: as a file, and by BG Stats' push link.
    for who, page in pages.items():
        assert page.evaluate("!!document.getElementById('bgstats-file') && !!document.getElementById('bgstats-push')"), who
