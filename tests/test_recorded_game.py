"""Recording a stored game through the Python API (``store.game(id).record``): the game decided once in memory,
on both backends, and what another process stores into it decided against before the next entry."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import gamelog
from tests.conftest import EXAMPLES

FRIDAY = {"type": "game", "game": "merchant-of-venus", "id": "friday", "players": ["Ann", "Bob"],
          "setup": {"starting_credits": 100}}


def started(location: str) -> gamelog.Store:
    store = gamelog.open_store(location)
    store.new_game(FRIDAY)
    return store


def test_an_entry_that_breaks_a_rule_leaves_the_game_held_as_it_was_stored(locations):
    with started(locations.new()) as store:
        game = store.game("friday")
        assert game.record({"type": "turn_started", "player": "Ann"}).line == 2
        # Bob starts a turn during Ann's: decided (MOV-TURN-END), not stored.
        broken = game.record('{"type": "turn_started", "player": "Bob"}')
        assert (broken.appended, broken.line, broken.lines) == (False, 3, 2)
        assert [(f.line, f.rule, f.severity) for f in broken.findings] == [(3, "MOV-TURN-END", "violation")]
        # The game held is the stored one, not the one the refused entry was tried on: Ann's turn is still under way.
        ended = game.record(b'{"type": "turn_ended", "player": "Ann"}')
        assert (ended.appended, ended.line, ended.findings) == (True, 3, [])
        agreed = game.record({"type": "turn_started", "player": "Ann"}, anyway=True)
        assert agreed.appended and [f.rule for f in agreed.findings] == ["MOV-TURN-END"]
        # What the game holds in memory is what a game read afresh from the store says.
        fresh = store.game("friday")
        assert game.lines() == fresh.lines() and game.forms() == fresh.forms() and game.state() == fresh.state()
        assert [(line.line, line.type, [f.rule for f in line.findings]) for line in game.lines(after=1).lines] == [
            (2, "turn_started", []), (3, "turn_ended", []), (4, "turn_started", ["MOV-TURN-END"])]


def test_the_log_recorded_reads_back_to_the_same_game(locations, tmp_path):
    with started(locations.new()) as store:
        game = store.game("friday")
        game.record({"type": "turn_started", "player": "Ann"})
        game.record({"type": "note", "player": "Ann", "text": "bought a Cola"})
        voided = game.record({"type": "note", "player": "Ann", "text": "bought two"}, replaces=3, reason="two, not one")
        assert (voided.appended, voided.line) == (True, 4)  # one correction line, carrying its replacement
        log = tmp_path / "friday.jsonl"
        log.write_bytes(b"".join(game.log()))
        written = [json.loads(line) for line in log.read_text().splitlines()]
        assert [line["type"] for line in written] == ["game", "turn_started", "note", "correction"]
        assert written[-1] == {"type": "correction", "voids": 3, "reason": "two, not one",
                               "replacement": {"type": "note", "player": "Ann", "text": "bought two"}}
        read = gamelog.read_log(log)
        assert read.end() == game.state() and read.findings == store.game("friday").findings
        assert [(line.line, line.voided_by) for line in game.lines().lines] == [
            (1, None), (2, None), (3, 4), (4, None)]


def test_a_players_view_records_only_that_players_lines_and_the_public_view_none(locations):
    with started(locations.new()) as store:
        game = store.game("friday")
        ann = game.as_player("ann")  # a player named in any case
        assert ann.viewer == "Ann" and ann.record({"type": "turn_started", "player": "Ann"}).appended
        with pytest.raises(gamelog.NotYourLine, match="line 3 is Bob's; Ann records only their own lines"):
            ann.record({"type": "turn_started", "player": "Bob"})
        with pytest.raises(gamelog.NotYourLine, match="line 2 is Ann's; Bob voids only their own lines"):
            game.as_player("Bob").record({"type": "note", "text": "no"}, replaces=2)
        with pytest.raises(gamelog.NotYourLine, match="the public view records nothing"):
            game.public().record({"type": "note", "text": "hello"})
        # The table allowed any player to record any line.
        assert game.as_player("Bob").record({"type": "turn_ended", "player": "Ann"}, any_player=True).line == 3
        assert store.game("friday").lines().lines[-1].entry == {"type": "turn_ended", "player": "Ann"}


def test_a_game_read_from_a_log_is_not_recorded_through():
    game = gamelog.read_log(EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl")
    with pytest.raises(gamelog.BadInput, match="read from a log: only a stored game is recorded through"):
        game.record({"type": "note", "text": "x"})


def _appended_elsewhere(location: str, line: dict, *more: str) -> subprocess.CompletedProcess:
    """``gamelog append`` in a process of its own (another writer of the same store)."""
    return subprocess.run([sys.executable, "-m", "gamelog.cli.main", "append", "friday", json.dumps(line),
                           "--store", location, "--format", "json", *more], capture_output=True, text=True, timeout=120)


@pytest.mark.slow  # starts gamelog processes
def test_lines_another_process_stores_into_a_held_game_are_decided_against_before_its_next_entry(locations):
    location = locations.new()
    with started(location) as store:
        game = store.game("friday")
        assert game.forms().lines == 1  # decided in memory now: the header alone
        other = _appended_elsewhere(location, {"type": "turn_started", "player": "Ann"})
        assert other.returncode == 0 and json.loads(other.stdout)["line"] == 2, other.stderr
        # Ann's turn is under way only in the store: ending it is legal once the held game has read line 2.
        ended = game.record({"type": "turn_ended", "player": "Ann"})
        assert (ended.appended, ended.line, ended.findings) == (True, 3, [])
        # An entry made against line 3 after another process stored line 4 is not written: the game moved.
        assert _appended_elsewhere(location, {"type": "turn_started", "player": "Bob"}).returncode == 0
        moved = game.record({"type": "note", "text": "late"}, after=3)
        assert (moved.appended, moved.moved, moved.lines) == (False, True, 4)
        assert game.catch_up() == 0  # read already
        assert [line.entry.get("player") for line in game.lines(after=1).lines] == ["Ann", "Ann", "Bob"]
        assert game.forms().due == "Bob"


def _sums(location: str) -> tuple[list, list]:
    """The statistics' sums and each game's period rows of them, as stored (a SQLite store)."""
    import sqlite3

    with sqlite3.connect(location) as conn:
        return (conn.execute("SELECT * FROM view_stat_sums ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11").fetchall(),
                conn.execute("SELECT * FROM view_stat_parts ORDER BY 1, 9, 10").fetchall())


def test_entries_recorded_one_by_one_settle_the_sums_a_whole_import_gives(tmp_path):
    """Each entry settles only the periods its fold changed: the sums are those of the log imported at once."""
    from tests.benchmarks.generate import write_log

    log = tmp_path / "game.jsonl"
    with log.open("wb") as out:
        write_log(out, 120, "g", findings=True)  # warnings on purchases: the game's clean flag moves, too
    lines = log.read_bytes().splitlines()
    whole, recorded = str(tmp_path / "whole.sqlite"), str(tmp_path / "recorded.sqlite")
    with gamelog.open_store(whole) as store:
        store.import_log(log)
    with gamelog.open_store(recorded) as store:
        store.import_log(b"\n".join(lines[:40]) + b"\n")
        game = store.game("g")
        for line in lines[40:]:
            assert game.record(line, anyway=True).appended
    assert _sums(recorded) == _sums(whole) and _sums(whole)[1]
    # Each entry was chained to the one before it as held in memory: the chain verifies, event by event.
    from click.testing import CliRunner

    from gamelog.cli.main import main

    verified = CliRunner().invoke(main, ["verify", "g", "--store", recorded])
    assert verified.exit_code == 0, verified.output
