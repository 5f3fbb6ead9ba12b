"""Damaged derived tables never crash a command (issue 25 items 1-4 and 8), on each backend.

The views, their tracking position and the catalog are derived from the
events: someone with access to the database may edit, delete, insert or drop
them. Every command that reads a stored game then either works (the damage is
there for ``verify`` to name) or says "the store is damaged: ... run `gamelog
projections rebuild`" (exit 3); none exits 70. An event that cannot be read is
said by every command that reads the game's events.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.projections.views import snapshots
from tests.conftest import EXAMPLES
from tests.test_hostile_store import rewrite
from tests.test_tamper import Raw

SEED = EXAMPLES / "uchronia" / "tiebreak-2p.jsonl"
GAME = "uchronia-2p-tiebreak"
OTHER = EXAMPLES / "uchronia" / "disputed.jsonl"
CRASHES = ("Traceback", "internal error", "KeyError", "IndexError", "TypeError", "AttributeError")
REBUILD = "run `gamelog projections rebuild`"


def gamelog(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(autouse=True)
def snapshots_every_8_events(monkeypatch):
    """Replay snapshots every 8 events: the seed's game has some for the damage to reach."""
    monkeypatch.setattr(snapshots, "EVERY", 8)


@pytest.fixture
def seeded(locations):
    location = locations.new()
    assert gamelog("import", "--store", location, str(SEED)).exit_code == 0
    return location, Raw(location)


def assert_no_crash(result, *args: str) -> None:
    assert result.exit_code in (0, 1, 2, 3), (args, result.exit_code, result.output)
    assert not any(crash in result.output for crash in CRASHES), (args, result.output)


def assert_damaged(result, *words: str) -> None:
    assert result.exit_code == 3, result.output
    assert "the store is damaged" in result.output, result.output
    for word in words:
        assert word in result.output, result.output
    assert not any(crash in result.output for crash in CRASHES), result.output


# --- the umbrella: every derived table x edit, delete, insert, drop; every reading command ---

DERIVED = ("view_lines", "view_turns", "view_tracks", "view_findings", "view_results", "view_corrections",
           "view_context", "view_moot", "view_snapshots", "view_derivation", "tracking", "gamelog_games")

EDITS = {
    "view_lines": "UPDATE {t} SET line = line + 5000, turn = NULL, player = NULL WHERE line = 10",
    "view_turns": "UPDATE {t} SET player = NULL, first_line = NULL, last_line = -1",
    "view_tracks": "UPDATE {t} SET value = NULL, subject = NULL, line = -5",
    "view_findings": "UPDATE {t} SET severity = 'bogus', line = NULL",
    "view_results": "UPDATE {t} SET winner = 'Mallory', line = NULL",
    "view_corrections": "UPDATE {t} SET voided = NULL",
    "view_context": "UPDATE {t} SET context = '{{}}'",
    "view_moot": "UPDATE {t} SET about = NULL",
    # Every snapshot said to come before any point (a replay resumes from the last, past its point).
    "view_snapshots": "UPDATE {t} SET line = 0, turn = 0, round = NULL",
    "view_derivation": "UPDATE {t} SET derivation = -1",
    "tracking": "UPDATE {t} SET notification_id = 1 WHERE application_name = 'gamelog'",
    "gamelog_games": "UPDATE {t} SET players = 'not json', events = -1, last_line = -1, winner = NULL",
}
INSERTS = {
    "view_lines": f"INSERT INTO {{t}} VALUES ('{GAME}', 5005, 1, NULL, 'Ann', 'note', 'forged', 0)",
    "view_turns": f"INSERT INTO {{t}} VALUES ('{GAME}', 999, NULL, 'Mallory', 5005, 5006)",
    "view_tracks": f"INSERT INTO {{t}} VALUES ('{GAME}', 9999, 5005, 1, NULL, 'Mallory', 'vp', 5, 5, 'X', 'forged')",
    "view_findings": f"INSERT INTO {{t}} VALUES ('{GAME}', 9999, 5005, 1, NULL, 'X', 'violation', 'Mallory', 'forged')",
    "view_results": "INSERT INTO {t} VALUES ('ghost', 3, 'Mallory', 'X', 'forged')",
    "view_corrections": f"INSERT INTO {{t}} VALUES ('{GAME}', 5005, 3, 'forged')",
    "view_context": "INSERT INTO {t} VALUES ('00ff', 'ghost', '{{}}')",
    "view_moot": f"INSERT INTO {{t}} VALUES ('{GAME}', 5005, 3, 'X', 'violation', 'Mallory', 'forged')",
    "view_snapshots": f"INSERT INTO {{t}} VALUES ('{GAME}', 1000, 0, 0, NULL, NULL)",
    "view_derivation": "INSERT INTO {t} VALUES (-1)",
    "tracking": "INSERT INTO {t} VALUES ('ghost', 99999)",
    "gamelog_games": "INSERT INTO {t} VALUES ('ghost', '00ff', 'uchronia', '[\"Ann\", \"Bob\"]', 5, 5, 0, NULL, 5, "
                     "'00')",
}


def damage(raw: Raw, table: str, how: str) -> None:
    name = raw.name(table)
    if how == "edit":
        raw.run(EDITS[table].format(t=name))
    elif how == "delete":
        raw.run(f"DELETE FROM {name}")
    elif how == "insert":
        raw.run(INSERTS[table].format(t=name))
    else:
        raw.run(f"DROP TABLE {name}")


def reading_commands(location: str) -> list[tuple[str, ...]]:
    store = ("--store", location)
    return [
        *(("report", GAME, "--format", fmt, *store) for fmt in ("text", "markdown", "json", "csv", "html")),
        ("audit", GAME, *store),
        ("audit", GAME, "--without", "5", *store),
        ("replay", GAME, *store),
        ("replay", GAME, "--turn", "3", *store),
        ("replay", GAME, "--line", "12", *store),
        ("games", *store),
        ("projections", "status", *store),
        ("verify", GAME, *store),
        ("import", str(OTHER), *store),
        ("report", "uchronia-disputed", *store),
    ]


@pytest.mark.parametrize("how", ["edit", "delete", "insert", "drop"])
@pytest.mark.parametrize("table", DERIVED)
def test_no_damage_to_a_derived_table_makes_any_command_exit_70(seeded, table, how):
    location, raw = seeded
    damage(raw, table, how)
    for args in reading_commands(location):
        assert_no_crash(gamelog(*args), *args)
    rebuilt = gamelog("projections", "rebuild", "--store", location)
    if (table, how) == ("gamelog_games", "insert"):  # a row whose events are gone is the record that they were
        assert_damaged(rebuilt, "the catalog lists 'ghost' but none of the events are stored")
        return
    else:
        assert rebuilt.exit_code == 0, rebuilt.output
    again = gamelog("verify", GAME, "--store", location)
    assert again.exit_code == 0, again.output
    assert gamelog("report", GAME, "--store", location).exit_code == 0


# --- item 1: the views' tracking position behind the views ---

@pytest.mark.parametrize("how", ["edited back", "deleted", "dropped"])
def test_a_tracking_position_behind_the_views_is_damage_until_rebuilt(seeded, how):
    location, raw = seeded
    tracking = raw.name("tracking")
    raw.run({"edited back": f"UPDATE {tracking} SET notification_id = 3 WHERE application_name = 'gamelog'",
             "deleted": f"DELETE FROM {tracking}",
             "dropped": f"DROP TABLE {tracking}"}[how])
    for args in (("report", GAME), ("report", GAME, "--format", "html"), ("audit", GAME),
                 ("audit", GAME, "--without", "5"), ("import", str(OTHER))):
        assert_damaged(gamelog(*args, "--store", location), "the views are damaged", REBUILD)
    assert gamelog("projections", "rebuild", "--store", location).exit_code == 0
    assert gamelog("import", str(OTHER), "--store", location).exit_code == 0
    assert gamelog("report", "uchronia-disputed", "--store", location).exit_code == 0
    assert gamelog("verify", GAME, "--store", location).exit_code == 0


# --- item 2: a game's running context edited or deleted ---

@pytest.mark.parametrize("how", ["edited", "deleted"])
def test_a_damaged_running_context_is_damage_not_a_missing_game(seeded, how):
    location, raw = seeded
    context = raw.name("view_context")
    raw.run(f"UPDATE {context} SET context = '{{}}'" if how == "edited" else f"DELETE FROM {context}")
    for command in ("report", "audit"):
        result = gamelog(command, GAME, "--store", location)
        assert_damaged(result, "the views are damaged", REBUILD)
        assert "no log file or stored game" not in result.output
    assert gamelog("projections", "rebuild", "--store", location).exit_code == 0
    assert gamelog("audit", GAME, "--store", location).exit_code == 0


def test_a_game_that_is_stored_nowhere_is_still_not_found(seeded):
    location, _ = seeded
    result = gamelog("report", "no-such-game", "--store", location)
    assert (result.exit_code, result.output) == (2, f"Error: no log file or stored game named 'no-such-game' "
                                                    f"(in {location})\n")


# --- item 3: one extra view_lines row ---

def test_an_extra_line_in_the_views_is_damage_for_the_html_report(seeded):
    location, raw = seeded
    raw.run(INSERTS["view_lines"].format(t=raw.name("view_lines")))
    assert_damaged(gamelog("report", GAME, "--format", "html", "--store", location),
                   "the history holds no event on line 5005", REBUILD)


# --- item 4: a catalog row whose events are all gone ---

@pytest.mark.parametrize("how", ["deleted", "table dropped"])
def test_a_catalog_row_without_events_is_damage_for_audit_without(seeded, how):
    location, raw = seeded
    if how == "deleted":
        raw.run("DELETE FROM {events}")
    else:
        raw.run("DROP TABLE {events}")
    for args in (("audit", GAME, "--without", "20"), ("audit", GAME), ("report", GAME), ("replay", GAME)):
        assert_damaged(gamelog(*args, "--store", location),
                       f"the catalog lists game '{GAME}' but none of its events are stored")


# --- item 8: every command that reads events says when one cannot be read ---

def _null_state(raw: Raw) -> None:
    raw.run("UPDATE {events} SET state = NULL WHERE originator_id = ? AND originator_version = 5", raw.originator(GAME))


def _garbage(raw: Raw) -> None:
    raw.run("UPDATE {events} SET state = ? WHERE originator_id = ? AND originator_version = 5", b"garbage",
            raw.originator(GAME))


def _foreign_topic(raw: Raw) -> None:
    rewrite(raw, GAME, 5, topic="os:system")


def _header_gone(raw: Raw) -> None:
    raw.run("DELETE FROM {events} WHERE originator_id = ? AND originator_version = 1", raw.originator(GAME))


UNREADABLE = {"NULL state": (_null_state, "event 5 of game"), "garbage": (_garbage, "event 5 of game"),
              "foreign topic": (_foreign_topic, "event 5 of game"), "header gone": (_header_gone, "event 2 of game")}


@pytest.mark.parametrize("what", sorted(UNREADABLE))
def test_an_unreadable_event_is_said_by_report_and_audit_from_the_views(seeded, what):
    location, raw = seeded
    spoil, named = UNREADABLE[what]
    spoil(raw)
    for args in (*(("report", GAME, "--format", fmt) for fmt in ("text", "markdown", "json", "csv")),
                 ("audit", GAME)):
        assert_damaged(gamelog(*args, "--store", location), named)


def test_rebuild_says_a_catalog_row_whose_events_are_gone(seeded):
    location, raw = seeded
    raw.run("DELETE FROM {events}")
    assert_damaged(gamelog("projections", "rebuild", "--store", location),
                   f"the catalog lists '{GAME}' but none of the events are stored")


# --- item 7: verify names rows that belong to no stored game ---

ORPHANS = {
    "view_results": ("INSERT INTO {view_results} VALUES ('ghost', 3, 'Mallory', 'X', 'forged')",
                     "view_results: rows of game 'ghost', which is not stored"),
    "view_context": ("INSERT INTO {view_context} VALUES ('00ff', 'ghost', '{}')",
                     "view_context: rows of game 'ghost', which is not stored"),
    "gamelog_games": (INSERTS["gamelog_games"].replace("{t}", "{gamelog_games}"),
                      "gamelog_games: row 'ghost' is of no stored game"),
    "tracking": ("INSERT INTO {tracking} VALUES ('ghost', 99999)", "a position of 'ghost', which is not the views'"),
}


@pytest.mark.parametrize("table", sorted(ORPHANS))
def test_verify_names_rows_of_a_game_that_does_not_exist(seeded, table):
    location, raw = seeded
    sql, message = ORPHANS[table]
    raw.run(sql)
    result = gamelog("verify", GAME, "--store", location)
    assert result.exit_code == 3, result.output
    assert f"{GAME}: derived: " in result.stdout and message in result.stdout, result.stdout
    if table != "gamelog_games":  # a catalog row whose events are gone stays: it records that they were there
        assert gamelog("projections", "rebuild", "--store", location).exit_code == 0
        assert gamelog("verify", GAME, "--store", location).exit_code == 0


# --- item 5: a game whose events were deleted, imported again ---

def test_reimporting_a_game_whose_events_were_deleted_never_crashes(seeded):
    location, raw = seeded
    raw.run("DELETE FROM {events}")
    again = gamelog("import", str(SEED), "--store", location)
    assert again.exit_code in (0, 3), again.output
    if again.exit_code == 3:  # the views still hold the deleted game: said, with what repairs it
        assert_damaged(again, "the views are damaged", REBUILD)
    for command in ("report", "audit"):
        result = gamelog(command, GAME, "--store", location)
        assert_no_crash(result, command)
        assert result.exit_code in (0, 3)
    assert gamelog("projections", "rebuild", "--store", location).exit_code == 0
    for command in ("report", "audit", "verify"):
        assert gamelog(command, GAME, "--store", location).exit_code == 0
