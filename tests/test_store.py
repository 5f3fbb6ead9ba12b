"""The store: imports are atomic, idempotent and incremental; conflicts are refused whole.

Every store-facing test runs on SQLite, and on PostgreSQL when the
environment variable ``GAMELOG_TEST_POSTGRES`` names a database
(``postgresql://postgres@127.0.0.1:5432/test``); each test gets a schema of
its own there, dropped afterwards. Without that variable the PostgreSQL runs
are skipped, with the reason shown; under CI (``CI`` set) they fail instead,
as they do when the database cannot be reached.

The fixture ``locations`` (in ``conftest.py``) gives fresh locations on each
backend; the concurrency and crash tests use it too.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gamelog.domain.errors import LogInvalid
from gamelog.domain.replay import run, state_at
from gamelog.projections.importing import importer
from gamelog.projections.importing.importer import Outcome, import_log
from gamelog.projections.store.application import GameStore, StoreError
from tests.conftest import EXAMPLES, Locations, _plain, postgres_url

SEED = (EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl").read_bytes()
SEED_LINES = SEED.splitlines(keepends=True)


@pytest.fixture
def store(locations):
    opened = GameStore(locations.new())
    yield opened
    opened.close()


@pytest.fixture
def sqlite_store(tmp_path):
    opened = GameStore(str(tmp_path / "gamelog.sqlite"))
    yield opened
    opened.close()


def stored_rows(store: GameStore) -> int:
    return store.count_events()


def test_import_stores_the_game_and_lists_it(store):
    result = import_log(store, SEED, "seed.jsonl")
    assert (result.outcome, result.game_id, result.events) == (Outcome.IMPORTED, "seed-examples", 61)
    (summary,) = store.games()
    assert (summary.id, summary.events, summary.last_line, summary.finished, summary.winner) == (
        "seed-examples", 61, len(SEED_LINES), True, "Human")


def test_the_same_log_again_adds_nothing(store):
    import_log(store, SEED, "seed.jsonl")
    before = stored_rows(store)
    assert import_log(store, SEED, "seed.jsonl").outcome is Outcome.ALREADY_IMPORTED
    assert stored_rows(store) == before


def test_a_grown_log_adds_only_its_new_lines_and_ends_in_the_same_state(store, locations):
    import_log(store, b"".join(SEED_LINES[:20]), "seed.jsonl")
    result = import_log(store, SEED, "seed.jsonl")
    assert (result.outcome, result.first_line) == (Outcome.IMPORTED, 22)
    whole = GameStore(locations.new())
    import_log(whole, SEED, "seed.jsonl")
    assert list(store.history("seed-examples")) == list(whole.history("seed-examples"))


def test_a_log_that_differs_at_an_earlier_line_is_refused_whole(store):
    import_log(store, SEED, "seed.jsonl")
    before = stored_rows(store)
    changed = SEED.replace(b'"unit_price": 120}', b'"unit_price": 125}') + b'{"type": "note", "text": "more"}\n'
    result = import_log(store, changed, "seed.jsonl")
    line = next(i for i, raw in enumerate(SEED_LINES, 1) if b'"unit_price": 120}' in raw)
    assert (result.outcome, result.message) == (Outcome.CONFLICT, f"line {line} differs from the stored game 'seed-examples'")
    assert stored_rows(store) == before


def test_a_shorter_log_is_a_conflict_naming_the_missing_line(store):
    import_log(store, SEED, "seed.jsonl")
    result = import_log(store, b"".join(SEED_LINES[:-1]), "seed.jsonl")
    assert result.message == f"the stored game 'seed-examples' has line {len(SEED_LINES)}, which this log lacks"


def test_an_invalid_log_stores_nothing_even_past_many_batches(store, monkeypatch):
    monkeypatch.setattr(importer, "BATCH", 5)
    bad = SEED + b'{"type": "turn_started", "player": "Nobody"}\n'
    with pytest.raises(LogInvalid) as caught:
        import_log(store, bad, "bad.jsonl")
    assert caught.value.lines() == [f"bad.jsonl:{len(SEED_LINES) + 1}: unknown player 'Nobody' (one of: Eeepeeep, Human, Qossuth, Whynom) at $.player"]
    assert stored_rows(store) == 0 and store.games() == []


def test_a_failure_during_the_write_leaves_the_store_as_it_was(store, monkeypatch):
    import_log(store, b"".join(SEED_LINES[:20]), "seed.jsonl")
    before, catalog = stored_rows(store), store.games()
    monkeypatch.setattr(importer, "BATCH", 5)
    calls = []

    def failing_append(cursor, *batch):
        calls.append(len(batch))
        if len(calls) == 3:
            raise OSError("disk full (injected)")
        return GameStore.append(store, cursor, *batch)

    monkeypatch.setattr(store, "append", failing_append)
    with pytest.raises(OSError):
        import_log(store, SEED, "seed.jsonl")
    assert stored_rows(store) == before and store.games() == catalog
    monkeypatch.undo()
    assert import_log(store, SEED, "seed.jsonl").outcome is Outcome.IMPORTED


def test_sqlite_runs_in_wal_mode_with_synchronous_full(sqlite_store):
    with sqlite_store.recorder.datastore.transaction(commit=False) as c:
        c.execute("PRAGMA synchronous")
        assert c.fetchone()[0] == 2
        c.execute("PRAGMA journal_mode")
        assert c.fetchone()[0] == "wal"


def test_a_transaction_of_the_views_alone_commits_with_synchronous_normal_and_the_next_is_full_again(sqlite_store):
    from gamelog.projections.views.keeper import ViewKeeper

    def synchronous(durable: bool) -> int:
        with sqlite_store.transaction(durable=durable) as c:
            c.execute("PRAGMA synchronous")
            return c.fetchone()[0]

    assert (synchronous(False), synchronous(True)) == (1, 2)  # NORMAL for the views' commit only, then FULL
    with pytest.raises(ZeroDivisionError):  # whatever ends the views' transaction
        with sqlite_store.transaction(durable=False):
            1 / 0
    assert synchronous(True) == 2
    keeper = ViewKeeper(sqlite_store)
    import_log(sqlite_store, SEED, "seed.jsonl")
    assert keeper.catch_up() > 0 and synchronous(True) == 2  # the catch-up's pages commit NORMAL, then FULL again


def test_the_stored_history_replays_to_the_same_state_as_the_file(store):
    import_log(store, SEED, "seed.jsonl")
    from_file = state_at("merchant-of-venus", run(SEED).events).to_json()
    from_store = state_at("merchant-of-venus", store.history("seed-examples")).to_json()
    assert from_store == from_file


def test_views_kept_on_the_store_equal_the_views_of_the_log_in_memory(store):
    from gamelog.projections.views.compare import table_dump
    from gamelog.projections.views.keeper import ViewKeeper, views_in_memory
    from gamelog.verifying import verify_game

    keeper = ViewKeeper(store)
    import_log(store, b"".join(SEED_LINES[:30]), "seed.jsonl")
    keeper.catch_up()
    import_log(store, SEED, "seed.jsonl")
    keeper.catch_up()
    with keeper.connection() as cursor:
        kept = table_dump(cursor)
    assert kept == table_dump(views_in_memory(run(SEED).events).cursor())
    keeper.rebuild()
    with keeper.connection() as cursor:
        assert table_dump(cursor) == kept
    assert verify_game(store, "seed-examples").intact


def test_replay_at_line_n_equals_replaying_the_first_n_lines():
    events = run(SEED).events
    for n in range(3, len(SEED_LINES) + 1):
        prefix = run(b"".join(SEED_LINES[:n])).events
        assert state_at("merchant-of-venus", events, line=n).to_json() == state_at("merchant-of-venus", prefix).to_json(), n


def test_a_database_that_is_not_a_store_is_an_error(tmp_path):
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises((sqlite3.DatabaseError, Exception)):
        GameStore(str(path))


def test_a_reopened_store_finds_what_was_imported(store):
    import_log(store, SEED, "seed.jsonl")
    again = GameStore(store.location)
    assert [g.id for g in again.games()] == ["seed-examples"]
    assert again.count_events("seed-examples") == store.count_events() > 0
    assert import_log(again, SEED, "seed.jsonl").outcome is Outcome.ALREADY_IMPORTED
    again.close()


def test_two_postgresql_schemas_are_two_stores():
    url = _plain(postgres_url())
    made = Locations("postgresql", Path("."))
    try:
        first, second = GameStore(made.new()), GameStore(made.new())
        import_log(first, SEED, "seed.jsonl")
        assert [g.id for g in first.games()] == ["seed-examples"] and second.games() == []
        assert second.count_events() == 0 and url in first.location
        first.close(), second.close()
    finally:
        made.drop()


def test_an_unreachable_postgresql_server_is_a_store_error():
    pytest.importorskip("psycopg")
    with pytest.raises(StoreError, match="cannot reach PostgreSQL"):
        GameStore("postgresql://nobody@127.0.0.1:1/none")


def test_a_projection_runner_keeps_the_same_views_on_postgresql(locations):
    """On PostgreSQL, eventsourcing's ProjectionRunner keeps the views with the keeper's projection code."""
    if locations.backend != "postgresql":
        pytest.skip("ProjectionRunner needs subscriptions, which eventsourcing's SQLite recorder lacks")
    from eventsourcing.projection import ProjectionRunner

    from gamelog.projections.views.compare import table_dump
    from gamelog.projections.views.keeper import ViewKeeper, views_in_memory
    from gamelog.projections.views.runner import GameViews, StoreApplication, ViewRecorder
    from gamelog.projections.store.application import store_env

    location = locations.new()
    store = GameStore(location)
    log = (EXAMPLES / "uchronia" / "complete-3p.jsonl").read_bytes()
    with ProjectionRunner(application_class=StoreApplication, projection_class=GameViews, view_class=ViewRecorder,
                          env=store_env(location)) as runner:
        import_log(store, log, "log.jsonl")
        runner.wait(store.recorder.max_notification_id(), timeout=30)
    keeper = ViewKeeper(store)
    assert keeper.status().behind == 0  # the runner's tracking record is the keeper's
    with keeper.connection() as cursor:
        assert table_dump(cursor) == table_dump(views_in_memory(run(log).events).cursor())
    store.close()


# -- A finding open at the end of the log, and the import that extends it (LRR 34.21) ----------

def _ti4_log(*events: dict) -> bytes:
    import json

    header = {"type": "game", "game": "twilight-imperium-4", "id": "fourth", "players": ["Ann", "Bob"],
              "setup": {"factions": {"Ann": "Arborec", "Bob": "Federation of Sol"}}}
    return "".join(json.dumps(e) + "\n" for e in (header, *events)).encode()


FOURTH_DRAWN = [{"type": "secret_objective_drawn", "player": "Ann", "objective": name}            # lines 2-5
                for name in ("Become the Gatekeeper", "Forge an Alliance", "Mine Rare Metals", "Monopolize Production")]
FOURTH_DRAWN[1:1] = [{"type": "round_started", "round": 1}, {"type": "phase_started", "phase": "status"}]  # lines 3-4


def _audit(location: str, game: str = "fourth") -> tuple[int, dict]:
    import json

    from click.testing import CliRunner

    from gamelog.cli.main import main

    result = CliRunner().invoke(main, ["--store", location, "audit", game, "--format", "json"])
    return result.exit_code, json.loads(result.output)


@pytest.mark.parametrize("then, moot_and_found", [
    ({"type": "secret_objective_returned", "player": "Ann", "objective": "Forge an Alliance"}, []),
    ({"type": "trade_goods_gained", "player": "Bob", "amount": 1, "reason": "action card"}, [(8, "LRR 34.20–34.21")]),
], ids=["returned", "kept"])
def test_a_later_import_moots_the_finding_open_at_the_end_of_the_log(locations, then, moot_and_found):
    location = locations.new()
    store = GameStore(location)
    try:
        assert import_log(store, _ti4_log(*FOURTH_DRAWN), "a.jsonl").outcome is Outcome.IMPORTED
    finally:
        store.close()
    code, audit = _audit(location)
    assert code == 1
    assert [(f["line"], f["rule"], f["severity"]) for f in audit["findings"]] == [(7, "LRR 34.20–34.21", "violation")]
    assert "when the log ends" in audit["findings"][0]["message"]

    store = GameStore(location)
    try:
        grown = import_log(store, _ti4_log(*FOURTH_DRAWN, then), "b.jsonl")
    finally:
        store.close()
    assert (grown.outcome, grown.first_line, grown.last_line) == (Outcome.IMPORTED, 8, 8)
    code, audit = _audit(location)
    open_at_end, *rest = audit["findings"]
    assert (open_at_end["line"], open_at_end["moot_by"]) == (7, 8)
    assert open_at_end["moot_why"] == "the log goes on at line 8, where the rule decides it again"
    assert [(f["line"], f["rule"]) for f in rest] == moot_and_found
    assert code == (1 if moot_and_found else 0)
    # The grown game is the game of the longer log imported whole, as far as play goes.
    whole = run(_ti4_log(*FOURTH_DRAWN, then))
    assert [(e.line, e.rule) for e in whole.events if type(e).__name__ == "FindingRaised"] == moot_and_found
