"""``gamelog verify``: corruption probes on a real SQLite store, each detected and named."""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.projections.store.chain import event_hash, link, open_sealed, seal
from gamelog.projections.importing.importer import import_log
from gamelog.projections.store.application import GameStore, game_uuid
from gamelog.projections.store.verify import compare_log, fingerprint_of
from gamelog.verifying import verify_game
from gamelog.domain.replay import run
from tests.conftest import EXAMPLES

SEED = EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl"
GAME = "seed-examples"


@pytest.fixture
def store(tmp_path):
    game_store = GameStore(str(tmp_path / "gamelog.sqlite"))
    import_log(game_store, SEED.read_bytes(), "seed.jsonl")
    return game_store


def raw(store: GameStore) -> tuple[sqlite3.Connection, str]:
    """A plain sqlite3 connection to the store's file, as someone tampering with it would use."""
    return sqlite3.connect(store.location, isolation_level=None), game_uuid(GAME).hex


def row(conn, uid: str, version: int) -> tuple[str, bytes]:
    return conn.execute("SELECT topic, state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                        (uid, version)).fetchone()


def put(conn, uid: str, version: int, topic: str, state: bytes) -> None:
    conn.execute("UPDATE stored_events SET topic = ?, state = ? WHERE originator_id = ? AND originator_version = ?",
                 (topic, state, uid, version))


def problems(store: GameStore, fingerprint: str | None = None) -> list[tuple[int, str]]:
    return [(p.version, p.kind) for p in verify_game(store, GAME, fingerprint).problems]


def test_the_untouched_store_is_intact(store):
    verdict = verify_game(store, GAME)
    assert verdict.intact and verdict.versions == 138
    assert verdict.fingerprint == fingerprint_of(GAME, run(SEED.read_bytes()).events)


def version_holding(conn, uid: str, text: bytes) -> int:
    """The version of the first stored event whose bytes contain ``text``."""
    return next(v for v, state in conn.execute(
        "SELECT originator_version, state FROM stored_events WHERE originator_id = ? ORDER BY originator_version", (uid,))
        if text in state)


def test_one_flipped_byte_is_named(store):
    conn, uid = raw(store)
    version = version_holding(conn, uid, b'"delta":-10,')
    topic, state = row(conn, uid, version)
    put(conn, uid, version, topic, state.replace(b'"delta":-10,', b'"delta":-19,'))
    assert problems(store) == [(version, "altered")]


def test_a_deleted_event_is_named(store):
    conn, uid = raw(store)
    conn.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = 20", (uid,))
    assert (20, "missing") in problems(store)


def test_two_swapped_events_are_named(store):
    conn, uid = raw(store)
    a, b = row(conn, uid, 30), row(conn, uid, 31)
    put(conn, uid, 30, *b)
    put(conn, uid, 31, *a)
    assert problems(store) == [(30, "reordered"), (31, "reordered")]


def test_a_duplicated_event_is_named(store):
    conn, uid = raw(store)
    put(conn, uid, 41, *row(conn, uid, 40))
    assert problems(store) == [(41, "duplicated")]


def test_a_truncated_tail_is_named(store):
    conn, uid = raw(store)
    conn.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version > 134", (uid,))
    assert problems(store) == [(135, "truncated")]


def test_a_forged_event_with_a_good_chain_is_caught_by_the_catalog_and_the_fingerprint(store):
    kept = verify_game(store, GAME).fingerprint[:16]
    conn, uid = raw(store)
    topic, state = row(conn, uid, 138)
    head, payload = open_sealed(state)
    forged = b'{"line":79,"player":"Qossuth","delta":5000,"rule":"MOV-PAY","reason":"forged"}'
    forged_topic = "domain.merchant_of_venus.events:CreditsChanged"
    conn.execute("INSERT INTO stored_events VALUES (?, 139, ?, ?)",
                 (uid, forged_topic, seal(link(head, event_hash(forged_topic, forged)), forged)))
    assert problems(store) == [(139, "inserted")]
    # Even with the catalog rewritten to match, the fingerprint the players kept gives it away.
    conn.execute("UPDATE gamelog_games SET versions = 139")
    assert problems(store) == [(139, "altered")]
    assert problems(store, kept) == [(139, "altered"), (139, "altered")]


def test_the_cli_exits_3_naming_every_problem(store):
    conn, uid = raw(store)
    version = version_holding(conn, uid, b'"delta":-10,')
    topic, state = row(conn, uid, version)
    put(conn, uid, version, topic, state.replace(b'"delta":-10,', b'"delta":-19,'))
    conn.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = 30", (uid,))
    result = CliRunner().invoke(main, ["verify", GAME, "--store", store.location])
    assert result.exit_code == 3
    assert result.stdout.splitlines() == [
        f"seed-examples: event {version}: altered: event {version} was altered (or forged): its hash does not follow the chain",
        "seed-examples: event 30: missing: event(s) 30 are missing",
        "seed-examples: the stored history was altered (2 problem(s))"]


def test_the_cli_says_intact_and_checks_a_kept_fingerprint(store):
    fingerprint = verify_game(store, GAME).fingerprint
    ok = CliRunner().invoke(main, ["verify", GAME, "--store", store.location, "--fingerprint", fingerprint[:16]])
    assert ok.exit_code == 0 and f"intact, 138 stored events, fingerprint {fingerprint[:16]}" in ok.stdout
    wrong = CliRunner().invoke(main, ["verify", GAME, "--store", store.location, "--fingerprint", "00ff"])
    assert wrong.exit_code == 3


def test_a_log_file_is_compared_with_the_stored_game(store, tmp_path):
    assert compare_log(store, SEED.read_bytes(), GAME) is None
    changed = SEED.read_bytes().replace(b'"unit_price": 120}', b'"unit_price": 125}')
    line = next(i for i, l in enumerate(SEED.read_bytes().splitlines(), 1) if b'"unit_price": 120}' in l)
    assert compare_log(store, changed, GAME) == f"line {line} differs from the stored game"
    path = tmp_path / "changed.jsonl"
    path.write_bytes(changed)
    result = CliRunner().invoke(main, ["verify", str(path), "--against", GAME, "--store", store.location])
    assert result.exit_code == 1 and f"line {line} differs from the stored game" in result.stdout


def test_the_places_of_a_games_events_are_kept_as_runs_and_read_as_every_place():
    """verify keeps each stored event's place in the notification log (Positions) as runs of consecutive places:
    read back by index, in order and whole, they are the places appended."""
    from gamelog.projections.store.verify import Positions

    places = [*range(5, 12), 40, 41, *range(100, 104), 7]
    kept = Positions()
    for place in places:
        kept.append(place)
    assert list(kept) == places and len(kept) == len(places) and max(kept) == 103
    assert [kept[i] for i in range(len(places))] == places and kept[-1] == 7 and kept[-14] == 5
    assert len(kept._firsts) == 4  # 5..11, 40..41, 100..103, 7
    with pytest.raises(IndexError):
        kept[len(places)]
    kept.clear()
    assert list(kept) == [] and len(kept) == 0 and max(kept, default=0) == 0
