"""``verify`` checks everything gamelog derives from the events (issue 14 item 8), on each backend.

The catalog's derived columns, every view table and the views' tracking
position are edited one at a time with plain SQL, as someone with access to
the database would; ``gamelog verify`` then exits 3 naming the table and the
row, ``gamelog report`` no longer prints a forged winner once
``gamelog projections rebuild`` has derived everything again, and ``verify``
exits 0 after the rebuild.
"""

from __future__ import annotations

import json
import sqlite3

from typing import Any

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.projections.store.application import game_uuid
from tests.conftest import EXAMPLES, _plain

DISPUTED = (EXAMPLES / "merchant-of-venus" / "disputed.jsonl").read_bytes()
# A correction voiding line 7 (a MOV-BUY violation): rows in view_corrections and view_moot too.
LOG = DISPUTED + b'{"type": "correction", "voids": 7, "reason": "misrecorded"}\n'
GAME = "disputed"
SEED = EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl"


class Raw:
    """Plain SQL on a store's database, table names resolved for its backend."""

    def __init__(self, location: str):
        self.location = location
        self.postgres = location.startswith("postgresql://")
        self.schema = location.split("?schema=")[1] if self.postgres else None

    def name(self, table: str) -> str:
        if not self.postgres:
            return table
        return f'"{self.schema}".{"gamelog_tracking" if table == "tracking" else table}'

    def named(self, table: str) -> str:
        """The table's name as verify gives it (the library names the tracking table per backend)."""
        return "gamelog_tracking" if self.postgres and table == "tracking" else table

    def originator(self, game_id: str) -> Any:
        """The game's aggregate ID as its backend stores it."""
        uid = game_uuid(game_id)
        return uid if self.postgres else uid.hex

    def run(self, sql: str, *params) -> list[tuple]:
        sql = sql.replace("{events}", f'"{self.schema}".gamelog_events' if self.postgres else "stored_events")
        for table in ("gamelog_games", "view_lines", "view_turns", "view_tracks", "view_findings", "view_results",
                      "view_corrections", "view_context", "view_moot", "view_snapshots", "tracking"):
            sql = sql.replace(f"{{{table}}}", self.name(table))
        if self.postgres:
            import psycopg

            with psycopg.connect(_plain(self.location), autocommit=True) as conn:
                cursor = conn.execute(sql.replace("?", "%s"), params)
                return cursor.fetchall() if cursor.description else []
        with sqlite3.connect(self.location, isolation_level=None) as conn:
            return conn.execute(sql, params).fetchall()


def gamelog(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def stored(locations, tmp_path):
    """A store holding the disputed game with a correction, and the seed game, views up to date."""
    location = locations.new()
    log = tmp_path / "disputed.jsonl"
    log.write_bytes(LOG)
    assert gamelog("import", "--store", location, str(log), str(SEED)).exit_code == 0
    ok = gamelog("verify", GAME, "--store", location)
    assert ok.exit_code == 0, ok.output
    return location, Raw(location)


TAMPERING = {
    "catalog winner": ("UPDATE {gamelog_games} SET winner = 'Mallory' WHERE id = 'disputed'", "gamelog_games",
                       "gamelog_games: row 'disputed': winner is 'Mallory'; the events give 'Ann'"),
    "catalog players": ("UPDATE {gamelog_games} SET players = '[\"Mallory\", \"Bob\"]' WHERE id = 'disputed'",
                        "gamelog_games", "gamelog_games: row 'disputed': players is ['Mallory', 'Bob']; the events give ['Ann', 'Bob']"),
    "catalog events": ("UPDATE {gamelog_games} SET events = 999 WHERE id = 'disputed'", "gamelog_games",
                       "gamelog_games: row 'disputed': events is 999; the events give 35"),
    "result winner": ("UPDATE {view_results} SET winner = 'Mallory' WHERE game = 'disputed'", "view_results",
                      "view_results: a row of game 'disputed': winner is 'Mallory'; the events give 'Ann'"),
    "track value": ("UPDATE {view_tracks} SET value = value + 1000 WHERE game = 'disputed' AND seq = 4", "view_tracks",
                    "view_tracks: row seq=4 of game 'disputed': value is 1260; the events give 260"),
    "deleted finding": ("DELETE FROM {view_findings} WHERE game = 'disputed' AND seq = 3", "view_findings",
                        "view_findings: row seq=3 of game 'disputed' is missing (the events give {'game': 'disputed', 'seq': 3,"),
    "line text": ("UPDATE {view_lines} SET text = 'nothing happened' WHERE game = 'disputed' AND line = 10", "view_lines",
                  "view_lines: row line=10 of game 'disputed': text is 'nothing happened'; the events give "),
    "turn player": ("UPDATE {view_turns} SET player = 'Mallory' WHERE game = 'disputed' AND turn = 1", "view_turns",
                    "view_turns: row turn=1 of game 'disputed': player is 'Mallory'; the events give 'Ann'"),
    "correction": ("DELETE FROM {view_corrections} WHERE game = 'disputed'", "view_corrections",
                   "view_corrections: row line=56 of game 'disputed' is missing"),
    "moot finding": ("INSERT INTO {view_moot} VALUES ('disputed', 56, 30, 'MOV-PAY', 'violation', 'Bob', 'forged')",
                     "view_moot", "view_moot: a row of game 'disputed' is not derived from the events"),
    "running context": ("UPDATE {view_context} SET context = '{}' WHERE game = 'disputed'", "view_context",
                        "view_context: a row of game 'disputed': context is '{}'; the events give "),
    "tracking behind": ("UPDATE {tracking} SET notification_id = notification_id - 5 WHERE application_name = 'gamelog'",
                        "tracking", "the views' position "),
    "tracking ahead": ("UPDATE {tracking} SET notification_id = notification_id + 50 WHERE application_name = 'gamelog'",
                       "tracking", "is past the store's last event"),
}


@pytest.mark.parametrize("what", sorted(TAMPERING))
def test_verify_names_each_altered_derived_table_and_rebuild_repairs_it(stored, what):
    location, raw = stored
    sql, table, message = TAMPERING[what]
    if what == "tracking behind":  # the seed game was imported last: lower the position into the disputed game
        last = raw.run("SELECT notification_id FROM {tracking} WHERE application_name = 'gamelog'")[0][0]
        seed_events = raw.run("SELECT events FROM {gamelog_games} WHERE id = 'seed-examples'")
        assert seed_events and last > 5
        raw.run("UPDATE {tracking} SET notification_id = ? WHERE application_name = 'gamelog'", last - 139 - 5)
    else:
        raw.run(sql)
    result = gamelog("verify", GAME, "--store", location)
    assert result.exit_code == 3, result.output
    *problems, verdict = result.stdout.splitlines()
    assert any(message in line for line in problems), result.stdout
    assert all(line.startswith("disputed: derived: ") for line in problems), result.stdout
    assert f"derived: {raw.named(table)}: " in result.stdout
    assert verdict.startswith("disputed: the stored events are intact, but what is derived from them was altered")
    as_json = gamelog("verify", GAME, "--store", location, "--format", "json")
    assert as_json.exit_code == 3
    assert {p["table"] for p in json.loads(as_json.stdout)["problems"]} == {raw.named(table)}

    rebuilt = gamelog("projections", "rebuild", "--store", location)
    assert rebuilt.exit_code == 0, rebuilt.output
    again = gamelog("verify", GAME, "--store", location)
    assert again.exit_code == 0, again.output
    assert gamelog("verify", "seed-examples", "--store", location).exit_code == 0


def test_a_forged_winner_no_longer_passes_and_rebuild_puts_the_true_one_back(stored):
    location, raw = stored
    raw.run("UPDATE {view_results} SET winner = 'Mallory' WHERE game = 'disputed'")
    raw.run("UPDATE {gamelog_games} SET winner = 'Mallory' WHERE id = 'disputed'")
    assert "Mallory won" in gamelog("report", GAME, "--store", location).stdout  # what a forgery did, unseen before
    result = gamelog("verify", GAME, "--store", location, "--format", "json")
    assert result.exit_code == 3
    assert {p["table"] for p in json.loads(result.stdout)["problems"]} == {"gamelog_games", "view_results"}
    assert gamelog("projections", "rebuild", "--store", location).exit_code == 0
    report = gamelog("report", GAME, "--store", location).stdout
    assert "Mallory won" not in report and "Ann won" in report
    listed = json.loads(gamelog("games", "--store", location, "--format", "json").stdout)["games"]
    assert [(g["id"], g["winner"]) for g in listed] == [("disputed", "Ann"), ("seed-examples", "Human")]


def test_a_game_whose_views_are_merely_behind_is_intact(stored):
    """Views behind their store (an interrupted catch-up) are not altered: verify compares them at their position."""
    location, raw = stored
    from gamelog.projections.importing.importer import import_log
    from gamelog.projections.store.application import GameStore

    store = GameStore(location)
    grown = SEED.read_bytes() + b'{"type": "note", "text": "after the end"}\n'
    import_log(store, grown, "seed.jsonl")  # no catch-up: the views are now behind
    store.close()
    assert "1 stored event behind" in gamelog("projections", "status", "--store", location).stdout
    assert gamelog("verify", "seed-examples", "--store", location).exit_code == 0
    assert gamelog("verify", GAME, "--store", location).exit_code == 0
