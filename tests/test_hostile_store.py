"""Damaged and hostile stores (issue 14 items 7, 9, 10, 13, 14): findings and clear errors, never a crash.

* A header-only log is a game like any other: listed, replayable, verified.
* A NULL or undecodable state, an unknown topic, a malformed SQLite page:
  ``verify`` exits 3 naming the event; ``replay`` and ``report`` say the store
  is damaged (exit 3), with no Python exception's name.
* A stored topic never imports code: ``this:s`` (with its chain recomputed,
  so that only the topic is wrong) is an event of no registered game.
* ``?schema=`` names are checked before anything is created.
"""

from __future__ import annotations

import json
import sqlite3
import sys

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.projections.store.application import GameStore, StoreError, store_env
from gamelog.projections.store.chain import event_hash, link, open_sealed, seal
from tests.conftest import EXAMPLES, _plain, damage_events_page, postgres_url
from tests.test_tamper import Raw

SEED = EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl"
GAME = "seed-examples"
CRASHES = ("AttributeError", "TypeError", "StopIteration", "KeyError", "Traceback", "internal error")


def gamelog(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def seeded(locations):
    location = locations.new()
    assert gamelog("import", "--store", location, str(SEED)).exit_code == 0
    return location, Raw(location)


def rewrite(raw: Raw, game_id: str, version: int, topic: str | None = None, payload: bytes | None = None) -> None:
    """Change event ``version``'s topic or payload and recompute the chain after it, and the catalog's fingerprint.

    Only what is changed is wrong: the chain and the catalog agree with it.
    """
    uid = raw.originator(game_id)
    rows = raw.run("SELECT originator_version, topic, state FROM {events} WHERE originator_id = ? "
                   "ORDER BY originator_version", uid)
    head = open_sealed(bytes(rows[version - 2][2]))[0] if version > 1 else bytes(32)
    for v, old_topic, state in rows[version - 1:]:
        own = open_sealed(bytes(state))[1]
        if v == version:
            old_topic, own = topic or old_topic, payload or own
        head = link(head, event_hash(old_topic, own))
        raw.run("UPDATE {events} SET topic = ?, state = ? WHERE originator_id = ? AND originator_version = ?",
                old_topic, seal(head, own), uid, v)
    raw.run("UPDATE {gamelog_games} SET fingerprint = ? WHERE id = ?", head.hex(), game_id)


def assert_damaged(result, *words: str) -> None:
    assert result.exit_code == 3, result.output
    assert result.output.startswith("Error: the store is damaged: ") or "damaged" in result.output
    for word in words:
        assert word in result.output, result.output
    assert not any(crash in result.output for crash in CRASHES), result.output


# --- item 7: a header-only log ---

def test_a_header_only_log_is_a_game_listed_replayed_and_verified(locations, tmp_path):
    location = locations.new()
    log = tmp_path / "hdr.jsonl"
    log.write_text('{"type": "game", "game": "uchronia", "id": "hdr", "players": ["Ann", "Bob", "Cy"]}\n')
    first = gamelog("import", "--store", location, str(log))
    assert (first.exit_code, first.stdout) == (0, f"{log}: imported the header of game 'hdr', no event lines yet\n")
    again = gamelog("import", "--store", location, str(log))
    assert again.stdout == f"{log}: already imported (game 'hdr'); nothing added\n"
    store = GameStore(location)
    (summary,) = store.games()
    assert (summary.id, summary.game, summary.players, summary.events, summary.last_line, summary.finished,
            summary.versions) == ("hdr", "uchronia", ["Ann", "Bob", "Cy"], 0, 1, False, store.count_events("hdr"))
    store.close()
    replay = gamelog("replay", "hdr", "--store", location, "--format", "json")
    assert replay.exit_code == 0 and json.loads(replay.stdout)["line"] == 1
    assert gamelog("verify", "hdr", "--store", location).stdout.startswith("hdr: intact, ")
    assert gamelog("report", "hdr", "--store", location).exit_code == 0
    # and it grows like any game: the lines after the header are added
    log.write_text(log.read_text() + '{"type": "turn_started", "player": "Ann"}\n')
    grown = gamelog("import", "--store", location, str(log))
    assert grown.stdout == f"{log}: imported 1 log line (lines 2-2) into game 'hdr'\n"


def test_a_game_stored_without_its_catalog_row_gets_it_from_rebuild(seeded):
    """Older gamelog stored a header-only log without its row: verify names that, rebuild writes it."""
    location, raw = seeded
    raw.run("DELETE FROM {gamelog_games}")
    result = gamelog("verify", GAME, "--store", location)
    assert result.exit_code == 3
    assert "gamelog_games: no row for game 'seed-examples', whose events are stored" in result.stdout
    assert gamelog("projections", "rebuild", "--store", location).exit_code == 0
    assert gamelog("verify", GAME, "--store", location).exit_code == 0
    assert GAME in gamelog("games", "--store", location).stdout


# --- items 9 and 10: damage is a finding; stored data never chooses code ---

def test_a_stored_topic_never_imports_a_module(seeded):
    location, raw = seeded
    assert "this" not in sys.modules  # importing it prints the Zen of Python
    rewrite(raw, GAME, 40, topic="this:s")
    replay = gamelog("replay", GAME, "--store", location)
    assert "this" not in sys.modules and "Zen of Python" not in replay.output
    assert_damaged(replay, "event 40 of game 'seed-examples' cannot be read",
                   "the topic 'this:s' is not an event class of any registered game")
    verify = gamelog("verify", GAME, "--store", location)
    assert verify.exit_code == 3 and "this" not in sys.modules
    assert "seed-examples: event 40: undecodable: event 40 of game 'seed-examples' cannot be read" in verify.stdout


def test_a_null_state_is_named_by_verify_and_damage_for_replay_and_report(seeded):
    location, raw = seeded
    raw.run("UPDATE {events} SET state = NULL WHERE originator_id = ? AND originator_version = 25", raw.originator(GAME))
    verify = gamelog("verify", GAME, "--store", location)
    assert verify.exit_code == 3
    assert "seed-examples: event 25: altered: event 25 is not a sealed event: its bytes were changed" in verify.stdout
    assert "undecodable: event 25 of game 'seed-examples' cannot be read" in verify.stdout
    assert_damaged(gamelog("replay", GAME, "--store", location), "event 25 of game 'seed-examples' cannot be read")
    assert_damaged(gamelog("projections", "rebuild", "--store", location), "event 25 of game 'seed-examples'")
    assert_damaged(gamelog("report", GAME, "--store", location), "event 25 of game 'seed-examples' cannot be read")
    assert_damaged(gamelog("audit", GAME, "--store", location), "event 25 of game 'seed-examples' cannot be read")


def test_an_undecodable_state_with_a_good_chain_is_named(seeded):
    location, raw = seeded
    rewrite(raw, GAME, 30, payload=b'{"line": "thirty"}')
    verify = gamelog("verify", GAME, "--store", location)
    assert verify.exit_code == 3
    assert "seed-examples: event 30: undecodable: event 30 of game 'seed-examples' cannot be read" in verify.stdout
    assert_damaged(gamelog("replay", GAME, "--store", location), "event 30 of game 'seed-examples' cannot be read")


def test_a_first_event_that_is_not_the_header_is_damage(seeded):
    location, raw = seeded
    uid = raw.originator(GAME)
    topic, state = raw.run("SELECT topic, state FROM {events} WHERE originator_id = ? AND originator_version = 3", uid)[0]
    rewrite(raw, GAME, 1, topic=topic, payload=open_sealed(bytes(state))[1])
    assert_damaged(gamelog("replay", GAME, "--store", location), "event 1 of game 'seed-examples' is not the game's header")
    assert gamelog("verify", GAME, "--store", location).exit_code == 3


def test_a_catalog_row_without_events_is_damage(seeded):
    location, raw = seeded
    raw.run("DELETE FROM {events} WHERE originator_id = ?", raw.originator(GAME))
    assert_damaged(gamelog("replay", GAME, "--store", location), "the catalog lists game 'seed-examples' but none of its events")
    verify = gamelog("verify", GAME, "--store", location)
    assert verify.exit_code == 3 and "truncated" in verify.stdout


def test_a_malformed_sqlite_page_is_damage_for_every_command(tmp_path):
    location = str(tmp_path / "gamelog.sqlite")
    assert gamelog("import", "--store", location, str(SEED)).exit_code == 0
    damage_events_page(location)
    verify = gamelog("verify", GAME, "--store", location)
    assert verify.exit_code == 3
    assert verify.stdout.startswith("seed-examples: damaged: the store ") and "malformed" in verify.stdout
    for command in ("replay", "report", "audit"):
        assert_damaged(gamelog(command, GAME, "--store", location), "malformed")


# --- item 13: schema names ---

@pytest.mark.parametrize("name", ["a'b", "a b", "a;drop table x", 'a"b', "1abc", "x" * 64])
def test_a_schema_name_that_is_not_an_identifier_is_refused_first(name):
    with pytest.raises(StoreError, match=r"\?schema=.* is not a schema name gamelog takes"):
        store_env(f"postgresql://u@127.0.0.1:1/db?schema={name}")


def test_a_refused_schema_name_leaves_no_schema_behind():
    import psycopg

    url = _plain(postgres_url())
    result = gamelog("games", "--store", f"{url}?schema=gl bad;name")
    assert result.exit_code == 2
    assert result.output == ("Error: ?schema='gl bad;name' is not a schema name gamelog takes: use letters, digits "
                             "and _ (not first), at most 63 characters\n")
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM information_schema.schemata WHERE schema_name LIKE 'gl bad%'"
                            ).fetchone()[0] == 0


# --- issue 25 item 6: schema names as PostgreSQL folds them; its own schemas refused ---

@pytest.mark.parametrize("name", ["information_schema", "Information_Schema", "pg_catalog", "PG_TOAST", "pg_temp_1"])
def test_postgresqls_own_schemas_are_refused_first(name):
    with pytest.raises(StoreError, match=r"is one of PostgreSQL's own schemas"):
        store_env(f"postgresql://u@127.0.0.1:1/db?schema={name}")


def test_a_schema_name_with_upper_case_letters_is_folded_as_postgresql_folds_it(tmp_path):
    import uuid

    import psycopg

    url = _plain(postgres_url())
    name = f"GL_Test_{uuid.uuid4().hex[:12]}"
    location = f"{url}?schema={name}"
    try:
        imported = gamelog("import", "--store", location, str(SEED))
        assert imported.exit_code == 0, imported.output
        listed = gamelog("games", "--store", location)
        assert listed.exit_code == 0 and GAME in listed.stdout
        assert gamelog("report", GAME, "--store", location).exit_code == 0
        with psycopg.connect(url) as conn:
            schemas = {r[0] for r in conn.execute("SELECT schema_name FROM information_schema.schemata "
                                                   "WHERE lower(schema_name) = %s", (name.lower(),))}
        assert schemas == {name.lower()}
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{name.lower()}" CASCADE')
            conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
