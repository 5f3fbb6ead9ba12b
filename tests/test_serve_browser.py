"""The table's recorder (`gamelog serve`) in real browsers: two phones (two headless Chromiums, 390x844), two seats.

A real server is started (``gamelog serve --port 0``, a fixed host token) and stopped with SIGINT at the end, which
must end it with status 0. The host's home makes each game (the new-game form, filled by its ``data-path`` inputs:
the game stored is that header, field by field; each seat's QR code is drawn);
every line is then recorded through a seat's page only: its kind picked in ``#kind``, its fields filled by their
``data-path`` inputs, **Record** clicked, no JSON typed. Each seat records its own player's lines (and the lines
that name no player, when its player's turn is under way), and after each one the other seat's ``#history`` shows
the same line in the same words (a bounded poll: the issue asks for a second, the test allows ``FOLLOW`` seconds).

- A Merchant of Venus game of 12 turns for two players; a line that breaks a rule shows its rule ID and text in
  ``#verdict`` and is not stored until "Record anyway: the table agreed"; an old line replaced (``Replace``) is
  struck through (``voided``) and the new one is in the history.
- The log downloaded from ``/api/games/{id}/log`` (and ``gamelog export``, the same bytes) validates with the
  findings the page showed, and imports into a fresh store to the same fingerprint.
- A Uchronia game played to its threshold, won on the tie-break (``examples/uchronia/tiebreak-2p.jsonl``).
- A Twilight Imperium 4 game with secret objectives (the example's first 45 lines; Cy and Dee record through the
  API with their seats' tokens): no seat's page, nor any seat's or the spectators' answers (replay, history,
  forms, report, stream) hold the name of another player's unscored secret objective, and no form's offers tell
  by a placeholder's place which cards the others hold; the spectators' page is the public view, with no form;
  Replace fills a list field (Trade's ``chosen``).
- At 390 px: the page no wider than the phone, every button, input and select (a checkbox: its label) 44 px tall.

Screenshots of the host's seat links, a seat's form, a finding shown before storing and the history with a struck
line are saved in the test's temporary folder; ``GAMELOG_SCREENSHOTS=DIR`` keeps them in DIR too (``docs/serve/``).
Skipped where Chromium is not installed, except under CI, where the test is required.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from gamelog.domain.ruletext import rule
from tests.browser import Browser, chromium_or_skip
from tests.conftest import EXAMPLES, open_lists_left_out

HOST_TOKEN = "the-host-of-the-browser-tests-0123456789"
WIDTH, HEIGHT = 390, 844
FOLLOW = 10.0
"""Seconds a page is given to show what another device stored (the issue asks for one; a loaded machine is slow)."""
SHOTS = ("host-seats.png", "seat-form.png", "finding.png", "history-voided.png")


# -- the server, the phones ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium():
    return chromium_or_skip()


def gamelog(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """``gamelog ARGS`` in a process of its own (the served store is another process's, as at a table)."""
    done = subprocess.run([sys.executable, "-m", "gamelog.cli.main", *args], capture_output=True, text=True,
                          timeout=120)
    if check:
        assert done.returncode == 0, done.stderr
    return done


class Server:
    """A running ``gamelog serve``: its URL and store, and the API as a token's holder calls it."""

    def __init__(self, url: str, store: Path, process: subprocess.Popen) -> None:
        self.url, self.store, self.process = url, store, process

    def call(self, path: str, token: str = HOST_TOKEN, body: Any = None) -> tuple[int, bytes]:
        request = urllib.request.Request(self.url + path, method="GET" if body is None else "POST",
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def json(self, path: str, token: str = HOST_TOKEN, body: Any = None) -> Any:
        status, content = self.call(path, token, body)
        assert status in (200, 201), (path, status, content)
        return json.loads(content)

    def stream(self, game_id: str, token: str, last_line: int) -> str:
        """The game's event stream as ``token`` reads it, up to the event of ``last_line``."""
        request = urllib.request.Request(f"{self.url}/api/games/{game_id}/stream",
                                         headers={"Authorization": f"Bearer {token}"})
        read = []
        with urllib.request.urlopen(request, timeout=FOLLOW) as answer:
            for raw in answer:
                read.append(raw.decode())
                if raw.decode().strip() == f"id: {last_line}":
                    break
        return "".join(read)


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("serve")
    store = folder / "s.sqlite"
    errors = (folder / "stderr").open("w")
    process = subprocess.Popen([sys.executable, "-m", "gamelog.cli.main", "serve", "--store", str(store),
                                "--port", "0"],
                               stdout=subprocess.PIPE, stderr=errors, text=True,
                               env={**os.environ, "GAMELOG_HOST_TOKEN": HOST_TOKEN})
    first = process.stdout.readline()
    assert first.startswith("gamelog serve: http://127.0.0.1:"), (first, (folder / "stderr").read_text())
    url = first.split()[2]
    try:
        yield Server(url, store, process)
    finally:
        process.send_signal(signal.SIGINT)  # Ctrl-C
        try:
            code = process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise
        finally:
            errors.close()
        assert code == 0, (folder / "stderr").read_text()
        assert "Traceback" not in (folder / "stderr").read_text()


@pytest.fixture(scope="module")
def phones(chromium, server, tmp_path_factory) -> Iterator[tuple[Browser, Browser]]:
    """Two phones: two browsers, each its own profile (its own context), at 390x844."""
    folder = tmp_path_factory.mktemp("phones")
    made: list[Browser] = []
    try:
        for name in ("one", "two"):
            (folder / name).mkdir()
            made.append(Browser(chromium, folder / name, WIDTH, HEIGHT))
        yield made[0], made[1]
        for browser in made:
            assert [m for m in browser.console if "uncaught" in m or "error" in m] == []
    finally:
        for browser in made:
            browser.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Iterator[Path]:
    """Where the screenshots go (and, with ``GAMELOG_SCREENSHOTS``, copied to at the end)."""
    folder = tmp_path_factory.mktemp("shots")
    yield folder
    if os.environ.get("GAMELOG_SCREENSHOTS"):
        for shot in folder.glob("*.png"):
            shutil.copy(shot, Path(os.environ["GAMELOG_SCREENSHOTS"]) / shot.name)


# -- what a person does on the page --------------------------------------------------------------------------------


def until(browser: Browser, expression: str, what: str, timeout: float = FOLLOW) -> Any:
    """The value of ``expression`` once it is truthy, polled; fails with the page's problem and verdict after
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = browser.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            said = browser.evaluate("[document.getElementById('problem').textContent, "
                                    "(document.getElementById('verdict') || {}).textContent]")
            raise AssertionError(f"{what}: not within {timeout} s (problem, verdict: {said})")
        time.sleep(.05)


FILL = """(function (container, kind, values) {
  var root = document.querySelector(container);
  if (kind !== null) {
    var select = document.getElementById('kind');
    if (!Array.from(select.options).some(function (o) { return o.value === kind; })) return 'no form for ' + kind;
    select.value = kind;
    select.dispatchEvent(new Event('change', {bubbles: true}));
  }
  for (var path in values) {
    var value = values[path], find = function () { return root.querySelector('[data-path="' + CSS.escape(path) + '"]'); };
    var input = find(), row = path.match(/^(.*)\\[(\\d+)\\]$/);
    if (!input && row) {  // a list's next row: "+ another"
      var rows = root.querySelector('[data-list="' + CSS.escape(row[1]) + '"]');
      if (rows) { rows.parentElement.querySelector(':scope > button').click(); input = find(); }
    }
    if (!input) return 'no field ' + path;
    if (input.type === 'checkbox') input.checked = value === true;
    else {
      if (input.tagName === 'SELECT' && !Array.from(input.options).some(function (o) { return o.value === String(value); }))
        return path + ': ' + value + ' is not offered (' + Array.from(input.options).map(function (o) { return o.value; }) + ')';
      input.value = String(value);
    }
    input.dispatchEvent(new Event('input', {bubbles: true}));
    input.dispatchEvent(new Event('change', {bubbles: true}));
  }
  return '';
})"""


def paths(values: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A line's fields as the form's ``data-path`` names them: ``setup.goal``, ``chosen[0]``."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            out.update(paths(value, path))
        elif isinstance(value, list):
            out.update({f"{path}[{i}]": item for i, item in enumerate(value)})
        else:
            out[path] = value
    return out


def fill(browser: Browser, container: str, kind: str | None, values: dict[str, Any]) -> None:
    wrong = browser.evaluate(f"{FILL}({json.dumps(container)}, {json.dumps(kind)}, {json.dumps(paths(values))})")
    assert wrong == "", wrong


class Phone:
    """One seat's page on one phone: what its player records and what it shows."""

    def __init__(self, browser: Browser, player: str, url: str) -> None:
        self.browser, self.player, self.url = browser, player, url

    def open(self, lines: int) -> None:
        self.browser.visit(self.url, fresh=True)
        until(self.browser, f"document.querySelectorAll('#history li').length === {lines} && "
                            "document.getElementById('kind').options.length > 0", f"{self.player}'s page")
        until(self.browser, "document.getElementById('live').textContent === 'live'", f"{self.player}'s stream")

    def enter(self, line: dict[str, Any]) -> None:
        """Pick the kind of ``line``, fill its fields, click Record (the button says Replace while replacing)."""
        fields = {key: value for key, value in line.items() if key != "type"}
        fill(self.browser, "#fields", line["type"], fields)
        self.browser.click("#record")

    def stored(self, number: int) -> None:
        until(self.browser, f"(document.querySelector('#verdict .stored') || {{}}).textContent === "
                            f"'Stored as line {number}.' && !!document.querySelector('#history li[data-line=\"{number}\"]')",
              f"{self.player}: line {number} stored")

    def shows(self, number: int) -> str:
        """The words of line ``number`` once this page's history holds it."""
        return until(self.browser, f"(document.querySelector('#history li[data-line=\"{number}\"] .words') || "
                                   "{}).textContent", f"{self.player}'s history shows line {number}")

    def history(self) -> list[dict[str, Any]]:
        return self.browser.evaluate("""Array.from(document.querySelectorAll('#history li')).map(function (li) {
            return {line: Number(li.dataset.line), voided: li.classList.contains('voided'),
                    struck: getComputedStyle(li.querySelector('.words')).textDecorationLine,
                    words: li.querySelector('.words').textContent,
                    findings: Array.from(li.querySelectorAll('.finding')).map(function (f) {
                        var rule = f.querySelector('.rule').textContent;
                        return [rule.trim(), f.textContent.slice(rule.length)]; }),
                    replace: !!li.querySelector('button')}; })""")


class Table:
    """A game at the table: its seats' phones, who records each line, and the lines stored so far."""

    def __init__(self, server: Server, game_id: str, phones: dict[str, Phone], lines: int = 1) -> None:
        self.server, self.id, self.phones, self.lines = server, game_id, phones, lines
        self.turn: str | None = None
        self.waits: list[float] = []
        self.secrets: dict[str, str] = {}
        """Each player's secret name, hidden from the others' phones (as ``[hidden]``) until it is scored."""
        self.scored: set[str] = set()

    def seen_by(self, player: str, words: str) -> str:
        """``words`` as ``player``'s phone shows them."""
        for owner, name in self.secrets.items():
            if owner != player and owner not in self.scored:
                words = words.replace(name, "[hidden]")
        return words

    def seat_for(self, line: dict[str, Any]) -> str:
        if line["type"] == "turn_started":
            self.turn = line["player"]
        return line.get("player") or self.turn

    def record(self, line: dict[str, Any], seat: str | None = None) -> None:
        """Record ``line`` on ``seat``'s phone (by default its player's, or the phone of the player whose turn it
        is); every other phone shows it, in the same words."""
        phone = self.phones[seat or self.seat_for(line)]
        phone.enter(line)
        self.lines += 1
        phone.stored(self.lines)
        self.followed(phone)

    def followed(self, by: Phone | None = None) -> None:
        """Every phone shows the last line stored in the same words as ``by`` (the one that recorded it), but for
        the secrets it may not see."""
        started = time.monotonic()
        words = {phone.player: phone.shows(self.lines) for phone in self.phones.values()}
        self.waits.append(time.monotonic() - started)
        if by is not None:
            said = by.shows(self.lines)
            assert words == {player: self.seen_by(player, said) for player in self.phones}, words


def seat_links(browser: Browser) -> dict[str, str]:
    return dict(browser.evaluate("Array.from(document.querySelectorAll('#seat-links .seat')).map(function (s) { "
                                 "return [s.querySelector('strong').textContent, s.querySelector('a').href]; })"))


def new_game(browser: Browser, server: Server, header: dict[str, Any], shot: Path | None = None) -> dict[str, str]:
    """Start ``header``'s game from the host's home; each seat's join link (and the spectators') it shows."""
    browser.visit(f"{server.url}/#token={HOST_TOKEN}", fresh=True)
    until(browser, "document.getElementById('new-kind').options.length > 0 && "
                   "!!document.querySelector('#new-fields [data-path=\"id\"]')", "the host's home")
    browser.evaluate(f"(function () {{ var s = document.getElementById('new-kind'); s.value = {json.dumps(header['game'])}; "
                     "s.dispatchEvent(new Event('change', {bubbles: true})); }())")
    fields = {key: value for key, value in header.items() if key not in ("type", "game")}
    players = fields.pop("players")
    fill(browser, "#new-fields", None, {"players": players, "id": fields.pop("id")})  # first: then a value by player
    fill(browser, "#new-fields", None, fields)
    browser.click("#new-game button[type=submit]")
    until(browser, f"document.querySelectorAll('#seat-links .seat').length === {len(players) + 1}", "the seats' links")
    # Each link's QR code is drawn: an SVG element (in the SVG namespace) with its modules, 148 px or more a side.
    drawn = browser.evaluate("Array.from(document.querySelectorAll('#seat-links .seat svg')).map(function (svg) { "
                             "var box = svg.getBBox(); return svg.namespaceURI === 'http://www.w3.org/2000/svg' && "
                             "box.width >= 148 && box.height >= 148 && svg.querySelectorAll('path').length > 1; })")
    assert drawn == [True] * (len(players) + 1)
    if shot is not None:
        browser.evaluate("window.scrollTo(0, document.getElementById('seat-links').offsetTop - 48)")
        browser.screenshot(shot)
    # The game stored is the header filled in, every field of it (the rest: the header's defaults).
    stored = paths(server.json(f"/api/games/{header['id']}/history")["lines"][0]["entry"])
    assert {path: stored.get(path) for path in paths(header)} == paths(header)
    return seat_links(browser)


def at_the_table(server: Server, phones: tuple[Browser, Browser], header: dict[str, Any],
                 shot: Path | None = None) -> tuple[Table, dict[str, str]]:
    """``header``'s game started from the host's home (on the first phone), then its first two players' pages open
    on the two phones; the game, and every join link the host's page showed."""
    links = new_game(phones[0], server, header, shot)
    assert set(links) == {*header["players"], "spectators"}
    first, second = header["players"][:2]
    table = Table(server, header["id"], {first: Phone(phones[0], first, links[first]),
                                         second: Phone(phones[1], second, links[second])})
    for phone in table.phones.values():
        phone.open(1)
    return table, links


def games_in(store: Path) -> dict[str, dict[str, Any]]:
    """``gamelog games --format json``'s games of ``store``, by id."""
    return {g["id"]: g for g in json.loads(gamelog("games", "--format", "json", "--store", str(store)).stdout)["games"]}


def log_lines(path: Path, count: int | None = None) -> list[dict[str, Any]]:
    lines = [json.loads(raw) for raw in path.read_text().splitlines() if raw.strip() and not raw.startswith("#")]
    return lines[:count]


# -- Merchant of Venus: 12 turns, a rule broken by agreement, an old line replaced ---------------------------------

MOV_HEADER = {"type": "game", "game": "merchant-of-venus", "id": "mov-at-the-table", "players": ["Ann", "Bob"],
              "setup": {"starting_credits": 300}}
TRADES = {"Ann": ("Nillis", "Bionic Perfume", 80, "Graw", 140), "Bob": ("Graw", "Space Spice", 30, "Niks", 80)}
ROLL = {"type": "note", "player": "Ann", "text": "Ann rolled 7 to reach Nillis"}
"""Line 4: what Ann notes of her first turn (the table saw an 8: it is replaced later)."""
DRAWS = [("demand: Mulch Wine +40", "Shenna"), ("passenger: Scientist", "Dell"), ("demand: Space Spice +40", "Humans"),
         ("goods: Voil Silk", "Volois"), ("passenger: Hermit", "Wollow"), ("demand: Bionic Perfume +60", "Niks")]


def mov_turns(rounds: int) -> list[dict[str, Any]]:
    """Each player buys one good at its home port, then sells it two ports on (one Sell action: one token to the
    Bonus Cup, one draw), turn and turn about; Ann notes her first roll. No finding (checked by ``validate``)."""
    lines, draws = [], iter(DRAWS)
    for number in range(rounds):
        for player, (home, good, price, market, resale) in TRADES.items():
            lines.append({"type": "turn_started", "player": player})
            if number % 2 == 0:
                lines.append({"type": "landed", "player": player, "venue": "surface_city", "culture": home})
                if (number, player) == (0, "Ann"):
                    lines.append(ROLL)
                lines += [{"type": "goods_bought", "player": player, "good": good, "culture": home,
                           "unit_price": price, "quantity": 1}]
            else:
                token, place = next(draws)
                lines += [{"type": "landed", "player": player, "venue": "surface_city", "culture": market},
                          {"type": "goods_sold", "player": player, "good": good, "culture": market,
                           "resale_value": resale, "quantity": 1},
                          {"type": "bonus_cup_draw", "token": token, "placed_at": place}]
            lines.append({"type": "turn_ended", "player": player})
    return lines


@pytest.fixture(scope="module")
def mov(server, phones, shots, tmp_path_factory) -> Table:
    """A Merchant of Venus game, 12 turns, made from the host's home and recorded on two seats' phones."""
    lines = mov_turns(6)
    folder = tmp_path_factory.mktemp("mov")
    (folder / "by-hand.jsonl").write_text("".join(json.dumps(line) + "\n" for line in [MOV_HEADER, *lines]))
    checked = json.loads(gamelog("validate", "--format", "json", str(folder / "by-hand.jsonl")).stdout)
    assert checked["files"][0]["findings"] == []
    table, _ = at_the_table(server, phones, MOV_HEADER, shots / "host-seats.png")
    for line in lines:
        table.record(line)
    return table


def test_a_merchant_of_venus_game_of_12_turns_recorded_on_two_phones(mov):
    ann, bob = mov.phones["Ann"], mov.phones["Bob"]
    assert mov.lines == 1 + len(mov_turns(6)) == 56
    for phone in (ann, bob):
        history = phone.history()
        assert [h["line"] for h in history] == list(range(56, 0, -1))  # the newest first
        assert [h for h in history if h["findings"] or h["voided"]] == []
        assert sum(h["words"].endswith("turn begins") for h in history) == 12
    # What the standings show at the end: Ann bought three Bionic Perfume at c80 and sold them at c140, Bob three
    # Space Spice at c30 sold at c80.
    state = mov.server.json(f"/api/games/{mov.id}/replay")
    assert (state["players"]["Ann"]["credits"], state["players"]["Bob"]["credits"]) == (300 + 3 * 60, 300 + 3 * 50)
    standings = ann.browser.evaluate("document.getElementById('standings').innerText")
    assert "credits: 480" in standings and "credits: 450" in standings and "line 56" in standings
    assert max(mov.waits) < FOLLOW


@pytest.fixture(scope="module")
def broken(mov, shots) -> dict[str, Any]:
    """Turn 13: Ann buys twice on the turn she lands (one Buy action allowed): the page says so before storing;
    then the table agrees and she stores it anyway. What the pages showed at each step."""
    ann, bob = mov.phones["Ann"], mov.phones["Bob"]
    for line in [{"type": "turn_started", "player": "Ann"},
                 {"type": "landed", "player": "Ann", "venue": "surface_city", "culture": "Nillis"},
                 {"type": "goods_bought", "player": "Ann", "good": "Bionic Perfume", "culture": "Nillis",
                  "unit_price": 80, "quantity": 1}]:
        mov.record(line)
    again = {"type": "goods_bought", "player": "Ann", "good": "Bionic Perfume", "culture": "Nillis", "unit_price": 80,
             "quantity": 1}
    ann.enter(again)
    verdict = until(ann.browser, "document.querySelector('#verdict button.anyway') && "
                                 "document.getElementById('verdict').innerText", "the finding before storing")
    ann.browser.evaluate("document.getElementById('verdict').scrollIntoView({block: 'center'})")
    ann.browser.screenshot(shots / "finding.png")
    seen = {"verdict": verdict, "rule": ann.browser.evaluate("document.querySelector('#verdict .finding .rule').textContent"),
            "rule text": ann.browser.evaluate("(document.querySelector('#verdict .finding .text') || {}).textContent"),
            "stored before": mov.server.json(f"/api/games/{mov.id}/forms")["lines"],
            "history before": [h["line"] for h in ann.history()], "bob before": [h["line"] for h in bob.history()],
            "layout": ann.browser.evaluate(TARGETS)}
    ann.browser.click("#verdict button.anyway")
    mov.lines += 1
    ann.stored(mov.lines)
    mov.followed(ann)
    seen["line"] = mov.lines
    seen["ann"] = next(h for h in ann.history() if h["line"] == mov.lines)
    seen["bob"] = next(h for h in bob.history() if h["line"] == mov.lines)
    mov.record({"type": "turn_ended", "player": "Ann"})
    return seen


def test_a_line_that_breaks_a_rule_shows_its_rule_before_it_is_stored_then_the_table_agrees(broken):
    assert broken["rule"].strip() == "MOV-LIMIT"
    assert "Not stored: this breaks a rule." in broken["verdict"]
    assert "Buy action 2 this turn" in broken["verdict"]
    assert broken["rule text"] == rule("MOV-LIMIT").text  # the rule's own text, beside its ID
    assert broken["layout"] == {"width": WIDTH, "small": []}  # "Record anyway" too is a target a thumb hits
    # Nothing stored yet: the store holds 59 lines, the history's newest is line 59.
    assert broken["stored before"] == broken["line"] - 1 == 59
    assert broken["history before"][0] == broken["bob before"][0] == 59
    # Stored anyway: its finding stands like any other, on both phones.
    for seen in (broken["ann"], broken["bob"]):
        assert [rule for rule, _ in seen["findings"]] == ["MOV-LIMIT"] and not seen["voided"]


OLD = 4
"""Line 4: Ann's note of her first roll (turn 1)."""


@pytest.fixture(scope="module")
def replaced(mov, broken, shots) -> dict[str, Any]:
    """After turn 13 Ann replaces her note of turn 1 (she rolled 8, not 7) from its history line."""
    ann, bob = mov.phones["Ann"], mov.phones["Bob"]
    old = next(h for h in ann.history() if h["line"] == OLD)
    assert "rolled 7" in old["words"] and old["replace"]
    ann.browser.click(f'#history li[data-line="{OLD}"] button')
    until(ann.browser, "!document.getElementById('replacing').hidden && "
                       "document.getElementById('kind').value === 'note'", "the form of the line replaced")
    prefilled = ann.browser.evaluate("document.querySelector('#fields [data-path=\"text\"]').value")
    fill(ann.browser, "#fields", None, {"text": "Ann rolled 8 to reach Nillis"})
    button = ann.browser.evaluate("document.getElementById('record').textContent")
    ann.browser.evaluate("document.getElementById('report-box').open = true")  # a closed report is never asked for
    until(ann.browser, "!!document.getElementById('report').src", "the report, once opened")
    report = ann.browser.evaluate("(function (frame) { frame.onload = function () { window.reportShown = frame.src; }; "
                                  "return frame.src; }(document.getElementById('report')))")
    ann.browser.click("#record")
    mov.lines += 1  # one correction line, carrying the line as it should have been
    ann.stored(mov.lines)
    mov.followed(ann)
    until(ann.browser, f"document.getElementById('report').src !== {json.dumps(report)} && "
                       "window.reportShown === document.getElementById('report').src", "the report of the game now")
    ann.browser.evaluate(f"document.querySelector('#history li[data-line=\"{OLD}\"]').scrollIntoView({{block: 'center'}})")
    ann.browser.screenshot(shots / "history-voided.png")
    return {"prefilled": prefilled, "button": button, "ann": ann.history(), "bob": bob.history()}


def test_an_old_line_replaced_is_struck_through_and_the_new_one_is_in_the_history(mov, replaced):
    assert replaced["prefilled"] == ROLL["text"] and replaced["button"] == "Replace"
    for history in (replaced["ann"], replaced["bob"]):
        by_line = {h["line"]: h for h in history}
        old, correction = by_line[OLD], by_line[mov.lines]
        assert old["voided"] and old["struck"] == "line-through" and not old["replace"]
        assert [h["line"] for h in history if h["voided"]] == [OLD]
        assert "rolled 8" in correction["words"] and not correction["voided"] and not correction["findings"]
        assert f"line {OLD} replaced by" in correction["words"]
    stored = mov.server.json(f"/api/games/{mov.id}/history?after={mov.lines - 1}")["lines"]
    # The line stored carries the server's time (``at``), and the line as posted.
    at = stored[0]["entry"].get("at")
    assert [s["entry"] for s in stored] == [
        {"type": "correction", "voids": OLD, "reason": "replaced", "at": at,
         "replacement": {"type": "note", "text": "Ann rolled 8 to reach Nillis", "player": "Ann", "at": at}}]
    assert at.endswith("Z")


COUNT_REQUESTS = """(function () {
  window.asked = [];
  var fetched = window.fetch;
  window.fetch = function (resource, options) { window.asked.push(String(resource)); return fetched(resource, options); };
}())"""
"""Counts every request the page makes from now on (its stream, once open, makes none)."""


def test_a_page_asks_at_most_two_requests_for_each_line_another_device_stores(mov, replaced):
    """The stream carries each line as the device may see it: the other seat's page asks only for the forms and the
    standings (its report is closed), once a line at most."""
    other = next(phone for player, phone in mov.phones.items() if player != mov.turn)
    other.browser.evaluate(COUNT_REQUESTS)
    for n in range(3):
        mov.record({"type": "note", "text": f"counted {n}"})  # on the phone of the player whose turn it is
    until(other.browser, f"document.getElementById('standings').textContent.indexOf('line {mov.lines}') >= 0",
          "the other page's standings at the last line")
    asked = other.browser.evaluate("window.asked")
    assert all("/stream" not in path for path in asked), asked
    assert len(asked) <= 2 * 3, asked
    assert {path.rsplit("/", 1)[-1] for path in asked} <= {"forms", "replay"}, asked


def test_the_exported_log_validates_with_the_findings_shown_and_imports_to_the_same_fingerprint(mov, broken, replaced,
                                                                                                 tmp_path):
    status, body = mov.server.call(f"/api/games/{mov.id}/log")
    assert status == 200
    downloaded = tmp_path / "downloaded.jsonl"
    downloaded.write_bytes(body)
    exported = tmp_path / "exported.jsonl"
    gamelog("export", mov.id, "--store", str(mov.server.store), "-o", str(exported))
    assert exported.read_bytes() == body
    assert len(log_lines(downloaded)) == mov.lines

    shown = {(h["line"], rule, said) for h in mov.phones["Bob"].history() for rule, said in h["findings"]}
    assert {(line, rule) for line, rule, _ in shown} == {(broken["line"], "MOV-LIMIT")}
    checked = gamelog("validate", "--format", "json", str(downloaded), check=False)
    assert checked.returncode == 1  # a violation stands (the table agreed to it)
    findings = json.loads(checked.stdout)["files"][0]["findings"]
    assert {(f["line"], f["rule"], f["message"]) for f in findings} == shown

    fresh = tmp_path / "fresh.sqlite"
    assert f"into game '{mov.id}'" in gamelog("import", "--store", str(fresh), str(downloaded)).stdout
    served, imported = games_in(mov.server.store), games_in(fresh)
    assert imported[mov.id]["fingerprint"] == served[mov.id]["fingerprint"]
    assert imported[mov.id]["last_line"] == served[mov.id]["last_line"] == mov.lines


# -- Uchronia: two players to the threshold ------------------------------------------------------------------------


def test_a_uchronia_game_played_to_its_threshold_on_two_phones(server, phones):
    header, *lines = log_lines(EXAMPLES / "uchronia" / "tiebreak-2p.jsonl")
    header["id"] = "uchronia-at-the-table"
    table, _ = at_the_table(server, phones, header)
    for line in lines:
        table.record(line)
    assert table.lines == 1 + len(lines)
    state = server.json(f"/api/games/{header['id']}/replay")
    assert state["finished"] and state["winner"] == "Bob"
    for phone in table.phones.values():
        assert [h for h in phone.history() if h["findings"]] == []
        assert "the game is over: Bob wins" in phone.browser.evaluate("document.getElementById('standings').innerText")
    assert max(table.waits) < FOLLOW


# -- Twilight Imperium 4: no seat sees another's secret objectives ------------------------------------------------

SECRETS = {"Ann": "Become the Gatekeeper", "Bob": "Control the Region", "Cy": "Forge an Alliance",
           "Dee": "Monopolize Production"}
CY_SCORES = 44
"""Line 44 of the example: Cy scores Forge an Alliance (then it is public)."""


def leaks(text: str, player: str | None, scored: set[str]) -> list[str]:
    """The names in ``text`` of secret objectives ``player`` (None: a spectator) may not see."""
    return [name for owner, name in SECRETS.items() if owner != player and owner not in scored and name in text]


def test_no_seat_sees_another_players_unscored_secret_objective(server, phones):
    header, *lines = log_lines(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl", 45)
    header["id"] = "ti4-at-the-table"
    table, links = at_the_table(server, phones, header)
    assert set(links) == {"Ann", "Bob", "Cy", "Dee", "spectators"}
    tokens = {who: link.split("#token=")[1] for who, link in links.items()}
    table.secrets = SECRETS

    def everything_seen(scored: set[str]) -> None:
        for player, phone in table.phones.items():
            page = phone.browser.evaluate("document.body.innerText + document.documentElement.outerHTML")
            assert leaks(page, player, scored) == [], player
            assert SECRETS[player] in page  # their own is theirs to see
        for who, token in tokens.items():
            player = None if who == "spectators" else who
            base = f"/api/games/{table.id}"
            for path in ("/replay", "/history", "/forms", "/report?format=html", "/report?format=json",
                         "/report?format=markdown"):
                status, body = server.call(base + path, token)
                text = open_lists_left_out(body.decode()) if path == "/forms" else body.decode()  # why: its docstring
                assert status == 200 and leaks(text, player, scored) == [], (who, path)
            assert leaks(server.stream(table.id, token, table.lines), player, scored) == [], (who, "stream")
            # No list of offers tells a hidden name by where its placeholder stands (or where it is missing).
            forms = {f["type"]: f for f in server.json(base + "/forms", token)["forms"]}
            assert "[hidden]" not in json.dumps(forms), who
            drawn = next(f for f in forms["secret_objective_drawn"]["fields"] if f["name"] == "objective")
            if player is None:  # the deck a seat draws from is that seat's own (less its own hand)
                assert drawn["offered"] == [] and drawn["values"] is None, who
            else:
                assert drawn["open_list"] and SECRETS[player] not in drawn["values"], who
            to_score = next(f for f in forms["objective_scored"]["fields"] if f["name"] == "objective")["offered"]
            if player is not None and player not in scored:  # a seat is offered its own secret to score
                assert SECRETS[player] in to_score, who
            status, body = server.call(base + "/log", token)
            assert (status, leaks(body.decode(), player, scored)) == ((403, []) if player else (200, [])), who

    checked = []
    for line in lines:
        if line.get("player") in table.phones or "player" not in line:
            table.record(line, line.get("player", "Ann"))  # Ann records the lines that name no player
        else:  # Cy and Dee record on their own devices too: through the API, with their seats' tokens
            answer = server.json(f"/api/games/{table.id}/lines", tokens[line["player"]],
                                 {"line": line, "after": table.lines})
            table.lines += 1
            assert answer["appended"] and answer["line"] == table.lines and answer["findings"] == []
            if line["type"] == "objective_scored" and line["kind"] == "secret":
                table.scored.add(line["player"])
            table.followed()
        if table.lines == CY_SCORES - 1:  # every secret held, none scored
            everything_seen(set())
            checked.append(table.lines)
    assert table.lines == CY_SCORES + 1 and table.scored == {"Cy"}
    everything_seen({"Cy"})
    assert checked == [CY_SCORES - 1]
    assert [h for h in table.phones["Ann"].history() if h["findings"]] == []

    # A spectators' page: the public view, nothing to record, the log to download.
    watching = table.phones["Bob"].browser
    watching.visit(links["spectators"], fresh=True)
    until(watching, f"document.querySelectorAll('#history li').length === {table.lines}", "the spectators' page")
    page = watching.evaluate("document.body.innerText + document.documentElement.outerHTML")
    assert leaks(page, None, {"Cy"}) == [] and SECRETS["Cy"] in page
    assert watching.evaluate("[document.getElementById('who').textContent, document.getElementById('entry').hidden, "
                             "document.getElementById('download').hidden]") == ["spectator", True, False]

    # Replace on a line with a list (Ann's Trade primary, line 26, chose Bob): the form comes filled with it.
    ann = table.phones["Ann"].browser
    assert lines[24] == {"type": "trade_primary", "player": "Ann", "chosen": ["Bob"]}
    ann.click('#history li[data-line="26"] button')
    until(ann, "!document.getElementById('replacing').hidden && "
               "document.getElementById('kind').value === 'trade_primary'", "the form of line 26")
    assert ann.evaluate("document.querySelector('#fields [data-path=\"chosen[0]\"]').value") == "Bob"
    ann.click("#cancel-replace")
    assert ann.evaluate("[document.getElementById('replacing').hidden, document.getElementById('record').textContent]") \
        == [True, "Record"]


# -- the layout on a phone -----------------------------------------------------------------------------------------

TARGETS = """(function () {
  var small = [];
  document.querySelectorAll('button, input, select, textarea').forEach(function (e) {
    var box = e.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) return;  // not shown
    var target = e.type === 'checkbox' ? e.closest('label') : e;  // a checkbox is tapped by its label
    var height = target.getBoundingClientRect().height;
    if (height < 44) small.push((e.id || e.dataset.path || e.textContent.trim()) + ': ' + height);
  });
  return {width: document.documentElement.scrollWidth, small: small};
})()"""


def test_the_pages_fit_a_phone_and_every_target_is_44_px_tall(mov, replaced, phones, server, shots):
    ann = mov.phones["Ann"]
    ann.open(mov.lines)
    kinds = ann.browser.evaluate("Array.from(document.getElementById('kind').options).map(function (o) { return o.value; })")
    assert len(kinds) > 15
    for kind in kinds:  # every form a seat may fill
        ann.browser.evaluate(f"(function () {{ var s = document.getElementById('kind'); s.value = {json.dumps(kind)}; "
                             "s.dispatchEvent(new Event('change', {bubbles: true})); }())")
        assert ann.browser.evaluate(TARGETS) == {"width": WIDTH, "small": []}, kind
    fill(ann.browser, "#fields", "goods_sold", {"good": "Bionic Perfume", "culture": "Graw", "resale_value": 140})
    ann.browser.evaluate("window.scrollTo(0, document.getElementById('entry').offsetTop - 48)")
    ann.browser.screenshot(shots / "seat-form.png")
    host = phones[1]
    host.visit(f"{server.url}/#token={HOST_TOKEN}", fresh=True)
    until(host, "document.querySelectorAll('#games li').length === 3", "the host's games")
    for kind in ("merchant-of-venus", "uchronia", "twilight-imperium-4"):
        host.evaluate(f"(function () {{ var s = document.getElementById('new-kind'); s.value = {json.dumps(kind)}; "
                      "s.dispatchEvent(new Event('change', {bubbles: true})); }())")
        assert host.evaluate(TARGETS) == {"width": WIDTH, "small": []}, kind
    host.click("#games a")
    until(host, "document.querySelectorAll('#history li').length > 50", "the game, as the host")
    host.click("#show-seats")
    until(host, "document.querySelectorAll('#table-seats .seat').length === 3", "the seats' links")
    assert host.evaluate(TARGETS) == {"width": WIDTH, "small": []}


# -- a flaky network: an answer lost after the server stored the entry ------------------------------------------


class CuttingProxy:
    """A loopback TCP relay in front of the server that, while armed, passes a ``POST .../lines`` on to the
    server and cuts the connection once the server answers, the answer dropped: a phone whose Wi-Fi lost the
    answer of an entry the server stored."""

    def __init__(self, port: int, cuts: int) -> None:
        import socket
        import threading

        self.socket, self.threading = socket, threading
        self.target, self.cuts, self.cut = port, cuts, 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.threading.Thread(target=self._relay, args=(client,), daemon=True).start()

    def _relay(self, client: Any) -> None:
        upstream = self.socket.create_connection(("127.0.0.1", self.target))
        cutting = self.threading.Event()

        def up() -> None:
            try:
                while data := client.recv(65536):
                    first = data.split(b"\r\n", 1)[0]
                    if self.cut < self.cuts and first.startswith(b"POST ") and first.split(b" ")[1].endswith(b"/lines"):
                        self.cut += 1
                        cutting.set()
                    upstream.sendall(data)
            except OSError:
                pass

        self.threading.Thread(target=up, daemon=True).start()
        try:
            while data := upstream.recv(65536):
                if cutting.is_set():
                    break  # the server answered: the phone never hears it
                client.sendall(data)
        except OSError:
            pass
        finally:
            for end in (client, upstream):
                try:
                    end.shutdown(self.socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()

    def close(self) -> None:
        self.listener.close()


def test_an_entry_whose_answer_was_lost_is_queued_resent_by_the_page_and_stored_once(server, phones):
    """Issue 38, item 8: the server stores Ann's entry but its answer never reaches her phone (nor the answers of
    the browser's own retries of it, with the same key). The page says the entry is not yet stored, keeps it, sends
    it again with its key when the host answers again, and the game holds it once."""
    header = {"type": "game", "game": "merchant-of-venus", "id": "flaky-wifi", "players": ["Ann", "Bob"],
              "setup": {"starting_credits": 100}}
    made = server.json("/api/games", body=header)
    port = int(server.url.rsplit(":", 1)[1])
    proxy = CuttingProxy(port, cuts=1000)  # every entry's answer is cut until the page has queued it
    try:
        phone = Phone(phones[0], "Ann", made["seats"]["Ann"]["url"].replace(f":{port}/", f":{proxy.port}/"))
        phone.open(1)
        phone.enter({"type": "turn_started", "player": "Ann"})
        said = until(phone.browser, "!document.getElementById('queued').hidden && "
                                    "document.getElementById('queued').textContent", "the entry shown as queued")
        assert "1 entry not yet stored: the host cannot be reached" in said
        assert server.json("/api/games/flaky-wifi/history")["lines"][-1]["type"] == "turn_started"  # stored
        cut, proxy.cuts = proxy.cut, proxy.cut  # the Wi-Fi is back
        phone.stored(2)  # sent again by the page, through the proxy that no longer cuts
        until(phone.browser, "document.getElementById('queued').hidden", "the queue emptied")
    finally:
        proxy.close()
        # What the browser logs of the answers the proxy cut: expected here, and no error of the page's own.
        phones[0].console[:] = [m for m in phones[0].console if "ERR_EMPTY_RESPONSE" not in m]
    assert cut >= 1
    lines = server.json("/api/games/flaky-wifi/history")["lines"]
    assert [line["type"] for line in lines] == ["game", "turn_started"]
