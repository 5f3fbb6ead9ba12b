"""Time on every line (issue 39): each line stored through the recorder or ``gamelog append`` carries ``at``, the
server's clock in UTC (ISO 8601 ending ``Z``), which replaces whatever the client sent."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from click.testing import CliRunner
from litestar.testing import TestClient

from gamelog.cli.main import main
from gamelog.cli.web.app import create_app
from gamelog.clock import now
from gamelog.game import stored_game
from gamelog.recording import new_game
from gamelog.sources import opened_game_store
from tests.conftest import EXAMPLES

HOST = {"Authorization": "Bearer host-token-of-the-server-time-tests"}
HEADER = {"type": "game", "game": "uchronia", "id": "timed", "players": ["Ann", "Bob"]}
CLIENTS = "1999-01-01T00:00:00Z"  # a device's clock, far off


def when(text: str) -> datetime:
    assert text.endswith("Z"), text
    return datetime.fromisoformat(text.removesuffix("Z") + "+00:00")


def second_now() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


def test_the_clock_gives_utc_iso_8601_to_the_second_ending_z():
    before = second_now()
    stamped = when(now())
    assert before <= stamped <= second_now() and stamped.utcoffset().total_seconds() == 0


def test_every_line_the_recorder_stores_has_the_servers_time_even_when_the_client_sent_one(locations):
    location = locations.new()
    before = second_now()
    with TestClient(create_app(location, HOST["Authorization"].split()[1], "http://127.0.0.1:8737")) as client:
        made = client.post("/api/games", content=json.dumps({**HEADER, "at": CLIENTS}), headers=HOST)
        assert made.status_code == 201, made.text
        ann = {"Authorization": f"Bearer {made.json()['seats']['Ann']['token']}"}
        for after, line in enumerate([{"type": "turn_started", "player": "Ann", "at": CLIENTS},
                                      {"type": "note", "text": "no time given", "player": "Ann"}], 1):
            posted = client.post("/api/games/timed/lines", content=json.dumps({"line": line, "after": after}),
                                 headers=ann)
            assert posted.status_code == 201, posted.text
        replaced = client.post("/api/games/timed/lines", content=json.dumps(
            {"line": {"type": "note", "text": "said again", "player": "Ann", "at": CLIENTS}, "after": 3,
             "replaces": 3}), headers=ann)
        assert replaced.status_code == 201, replaced.text
        entries = [line["entry"] for line in client.get("/api/games/timed/history", headers=HOST).json()["lines"]]
    after = second_now()
    assert len(entries) == 4  # the header, two lines, a correction carrying its replacement
    for entry in entries:
        assert entry["at"] != CLIENTS and before <= when(entry["at"]) <= after, entry
    assert entries[3]["replacement"]["at"] == entries[3]["at"]  # one entry, one time: the replacement's too


def test_append_stamps_each_line_with_the_clock_it_is_given(locations):
    with opened_game_store(locations.new()) as store:
        new_game(store, json.dumps(HEADER).encode(), clock=lambda: "2026-12-05T18:00:00Z")
        result = stored_game(store, "timed").record(json.dumps({"type": "turn_started", "player": "Ann", "at": CLIENTS})
                              .encode(), clock=lambda: "2026-12-05T18:03:09Z")
        assert result.appended
        stamped = [(line, json.loads(text)["at"]) for line, text in enumerate(stored_game(store, "timed").log(), 1)]
    assert stamped == [(1, "2026-12-05T18:00:00Z"), (2, "2026-12-05T18:03:09Z")]


def test_gamelog_append_stamps_the_line_it_stores(tmp_path):
    store = str(tmp_path / "s.sqlite")
    log = tmp_path / "timed.jsonl"
    log.write_text(json.dumps(HEADER) + "\n")
    runner = CliRunner()
    assert runner.invoke(main, ["import", str(log), "--store", store]).exit_code == 0
    before = second_now()
    said = runner.invoke(main, ["append", "timed", json.dumps({"type": "turn_started", "player": "Ann",
                                                               "at": CLIENTS}), "--store", store])
    assert said.exit_code == 0, said.output
    exported = runner.invoke(main, ["export", "timed", "--store", store]).stdout.splitlines()
    assert "at" not in json.loads(exported[0])  # imported from a file: its lines are stored as written
    assert before <= when(json.loads(exported[1])["at"]) <= second_now()


def timed_store(location: str, game_id: str, stamps: list[str]) -> None:
    """A Uchronia game of Ann and Bob recorded with the clock giving ``stamps`` in turn: the header, then Ann's turn
    (started, ended), Bob's (started, ended), Ann's next turn started and her note, a line each."""
    clock = iter(stamps)
    lines = [("turn_started", "Ann"), ("turn_ended", "Ann"), ("turn_started", "Bob"), ("turn_ended", "Bob"),
             ("turn_started", "Ann"), ("note", "Ann")]
    with opened_game_store(location) as store:
        new_game(store, json.dumps({**HEADER, "id": game_id}).encode(), clock=lambda: next(clock))
        for kind, player in lines:
            entry = json.dumps({"type": kind, "player": player, **({"text": "gg"} if kind == "note" else {})}).encode()
            assert stored_game(store, game_id).record(entry, clock=lambda: next(clock)).appended


def test_reports_and_stats_show_the_time_of_play_from_the_lines_at(tmp_path):
    location = str(tmp_path / "s.sqlite")
    # The header at 18:00; Ann's turn 18:01-18:11, Bob's 18:11-18:41, Ann's from 18:41 to the last line, 18:46.
    timed_store(location, "evening", ["2026-12-05T18:00:00Z", "2026-12-05T18:01:00Z", "2026-12-05T18:10:00Z",
                                      "2026-12-05T18:11:00Z", "2026-12-05T18:40:00Z", "2026-12-05T18:41:00Z",
                                      "2026-12-05T18:46:00Z"])
    runner = CliRunner()
    report = json.loads(runner.invoke(main, ["report", "evening", "--store", location, "--format", "json"]).stdout)
    assert report["time"]["length_seconds"] == 46 * 60
    assert [(t["number"], t["player"], t["seconds"]) for t in report["time"]["turns"]] == [
        (1, "Ann", 600), (2, "Bob", 1800), (3, "Ann", 300)]
    assert report["time"]["players"] == [{"player": "Ann", "seconds": 900}, {"player": "Bob", "seconds": 1800}]
    text = runner.invoke(main, ["report", "evening", "--store", location]).stdout
    assert "Time: 46 min 00 s; per player: Ann 15 min 00 s, Bob 30 min 00 s" in text
    assert "Turn 2: Bob (lines 4-5; 30 min 00 s)" in text
    markdown = runner.invoke(main, ["report", "evening", "--store", location, "--format", "markdown"]).stdout
    assert "## Turn 2: Bob, 30 min 00 s" in markdown and "- **Time:** 46 min 00 s" in markdown
    page = runner.invoke(main, ["report", "evening", "--store", location, "--format", "html"]).stdout
    assert "<h3>Turn 2: Bob, 30 min 00 s</h3>" in page and "<b>Time:</b> 46 min 00 s" in page
    # A log without `at` says so, never zero.
    untimed = runner.invoke(main, ["report", str(EXAMPLES / "uchronia" / "complete-3p.jsonl")]).stdout
    assert "Time: not recorded" in untimed
    stats = json.loads(runner.invoke(main, ["stats", "--store", location, "--format", "json"]).stdout)
    assert stats["mean_game_seconds"] == 46 * 60
    assert stats["time_per_player"] == [{"player": "Ann", "games": 1, "seconds": 900, "mean_seconds": 900},
                                        {"player": "Bob", "games": 1, "seconds": 1800, "mean_seconds": 1800}]
    assert "mean game seconds  46 min 00 s" in runner.invoke(main, ["stats", "--store", location]).stdout


def test_a_ti4_report_gives_each_rounds_time(tmp_path):
    location = str(tmp_path / "s.sqlite")
    header = {"type": "game", "game": "twilight-imperium-4", "id": "ti4-timed", "players": ["Ann", "Bob"],
              "setup": {"factions": {"Ann": "Arborec", "Bob": "Federation of Sol"}}}
    clock = iter(["2026-12-05T18:00:00Z", "2026-12-05T18:05:00Z", "2026-12-05T19:35:00Z", "2026-12-05T20:50:00Z"])
    with opened_game_store(location) as store:
        new_game(store, json.dumps(header).encode(), clock=lambda: next(clock))
        for line in ({"type": "round_started", "round": 1}, {"type": "round_started", "round": 2},
                     {"type": "note", "text": "we stop here"}):
            assert stored_game(store, "ti4-timed").record(json.dumps(line).encode(), clock=lambda: next(clock)).appended
    runner = CliRunner()
    report = json.loads(runner.invoke(main, ["report", "ti4-timed", "--store", location, "--format", "json"]).stdout)
    assert report["time"]["rounds"] == [{"number": 1, "player": None, "seconds": 90 * 60},
                                        {"number": 2, "player": None, "seconds": 75 * 60}]
    assert report["time"]["length_seconds"] == 170 * 60 and report["time"]["turns"] == []
    text = runner.invoke(main, ["report", "ti4-timed", "--store", location]).stdout
    assert "Round 1 (lines 2-2; 1 h 30 min)" in text and "Time: 2 h 50 min" in text
