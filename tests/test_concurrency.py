"""Concurrent importers and readers, as real processes, on each store backend.

* Two importers of the same game at once: one imports, the other is a conflict
  (CLI exit 1) and stores nothing.
* Importers of different games: both succeed (one waits for the other's lock).
* A reader polling during a large import sees none of it, never part of it.
* A writer kept waiting past the lock timeout stops with a clear error and
  stores nothing (``StoreBusy``; the CLI says ``Error: ...``, exit 2).

"At once" is made certain, not hoped for: each importer waits at a barrier
after reading the stored game and before writing, so both have found the
game absent before either writes. Children are spawned (not forked), so none
inherits the test process's open connections.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gamelog.projections.importing import importer
from gamelog.projections.importing.importer import Outcome, import_log
from gamelog.projections.store.application import GameStore, StoreBusy
from tests.benchmarks.generate import write_log

SPAWN = multiprocessing.get_context("spawn")
WAIT = 60  # seconds a child or a barrier may take before the test fails instead of hanging


def make_log(tmp_path: Path, game_id: str, events: int) -> tuple[str, int]:
    """A generated, legal Merchant of Venus log; returns its path and its number of event lines."""
    path = tmp_path / f"{game_id}.jsonl"
    with open(path, "wb") as handle:
        written = write_log(handle, events, game_id=game_id)
    return str(path), written


def _wait_before_writing(barrier) -> None:
    """Make every importer in this process wait at ``barrier`` between reading and writing."""
    original, waited = importer._append, []

    def append_after_barrier(*args, **kwargs):
        if not waited:  # once: the loser of the race reads its log again, and writes on its own
            waited.append(True)
            barrier.wait(WAIT)
        return original(*args, **kwargs)

    importer._append = append_after_barrier


def _import_child(location: str, log: str, barrier, results) -> None:
    """Child process: import ``log`` once both importers have read the store; report the outcome."""
    _wait_before_writing(barrier)
    store = GameStore(location)
    with open(log, "rb") as handle:
        result = import_log(store, handle, log)
    results.put((result.game_id, result.outcome.value, result.events))


def _cli_child(location: str, log: str, barrier, output: str) -> None:
    """Child process: ``gamelog import`` of ``log``, its output to a file; the exit code is the child's."""
    _wait_before_writing(barrier)
    sys.stdout = sys.stderr = open(output, "w")
    from gamelog.cli.main import main

    main(["import", "--store", location, log])


def run_children(target, argsets: list[tuple]) -> list:
    """Start one child per argument tuple at once, wait for all, return them (exit codes are theirs)."""
    children = [SPAWN.Process(target=target, args=args) for args in argsets]
    for child in children:
        child.start()
    for child in children:
        child.join(WAIT)
        if child.is_alive():
            child.kill()
            pytest.fail(f"a child process ran longer than {WAIT} s")
    return children


def drain(queue, n: int) -> list:
    return sorted(queue.get(timeout=WAIT) for _ in range(n))


def test_two_importers_of_the_same_log_one_imports_the_other_finds_it_already_imported(locations, tmp_path):
    """Issue 25 item 15: the loser of the race reads its log again against what the winner stored."""
    location = locations.new()
    GameStore(location).close()  # created once, so the children only open it
    log, events = make_log(tmp_path, "race", 5000)
    barrier, results = SPAWN.Barrier(2), SPAWN.Queue()
    children = run_children(_import_child, [(location, log, barrier, results)] * 2)
    assert [c.exitcode for c in children] == [0, 0]
    outcomes = drain(results, 2)
    assert [o[1] for o in outcomes] == ["already imported", "imported"]
    store = GameStore(location)
    (summary,) = store.games()
    assert (summary.id, summary.last_line) == ("race", events + 1)
    replayed = list(store.history("race"))
    assert store.count_events() == store.count_events("race") == len(replayed)  # the loser stored nothing
    assert import_log(store, open(log, "rb").read(), log).outcome is Outcome.ALREADY_IMPORTED
    store.close()


def test_the_cli_says_the_losing_importer_of_the_same_log_found_it_already_imported(locations, tmp_path):
    location = locations.new()
    GameStore(location).close()
    log, events = make_log(tmp_path, "race", 2000)
    barrier = SPAWN.Barrier(2)
    outputs = [str(tmp_path / "out-0.txt"), str(tmp_path / "out-1.txt")]
    children = run_children(_cli_child, [(location, log, barrier, out) for out in outputs])
    assert [c.exitcode for c in children] == [0, 0]
    said = sorted(Path(out).read_text() for out in outputs)
    assert sum(f"imported {events} log lines" in text for text in said) == 1, said
    assert sum("already imported (game 'race'); nothing added" in text for text in said) == 1, said
    assert not any("Traceback" in text or "conflict" in text for text in said)


def test_the_cli_reports_the_losing_importer_of_a_different_log_as_a_conflict_exit_1(locations, tmp_path):
    location = locations.new()
    GameStore(location).close()
    log, events = make_log(tmp_path, "race", 2000)
    lines = Path(log).read_bytes().splitlines(keepends=True)
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"".join(lines[:-1]))  # the same game, one line short: it differs from the winner's
    barrier = SPAWN.Barrier(2)
    outputs = [str(tmp_path / "out-0.txt"), str(tmp_path / "out-1.txt")]
    children = run_children(_cli_child, [(location, path, barrier, out)
                                         for path, out in zip((log, str(other)), outputs)])
    codes = sorted(c.exitcode for c in children)
    said = " ".join(Path(out).read_text() for out in outputs)
    if codes == [0, 1]:  # the long log stored first: the short one lacks its last line
        assert "conflict" in said and "nothing stored" in said and "Traceback" not in said
    else:  # the short log stored first: the long one adds its last line
        assert codes == [0, 0] and "imported 1 log line" in said, said


def test_importers_of_different_games_both_succeed(locations, tmp_path):
    location = locations.new()
    GameStore(location).close()
    logs = [make_log(tmp_path, name, 5000) for name in ("alpha", "beta")]
    barrier, results = SPAWN.Barrier(2), SPAWN.Queue()
    children = run_children(_import_child, [(location, log, barrier, results) for log, _ in logs])
    assert [c.exitcode for c in children] == [0, 0]
    outcomes = drain(results, 2)
    assert [(o[0], o[1]) for o in outcomes] == [("alpha", "imported"), ("beta", "imported")]
    store = GameStore(location)
    assert [(g.id, g.last_line) for g in store.games()] == [("alpha", logs[0][1] + 1), ("beta", logs[1][1] + 1)]
    assert store.count_events() == store.count_events("alpha") + store.count_events("beta")
    store.close()


def _slow_writer(location: str, log: str, written_some, reader_looked, results) -> None:
    """Child: import ``log``; after its first batch, wait (bounded) until the reader has looked."""
    original = GameStore.append

    def append_then_pause(self, cursor, *batch):
        head = original(self, cursor, *batch)
        if not written_some.is_set():
            written_some.set()
            reader_looked.wait(WAIT)
        return head

    GameStore.append = append_then_pause
    with open(log, "rb") as handle:
        result = import_log(GameStore(location), handle, log)
    results.put(("writer", result.outcome.value))


def _poller(location: str, game_id: str, written_some, reader_looked, writer_done, results) -> None:
    """Child: once the writer is mid-import, open the store and poll the game's event count until it is done."""
    written_some.wait(WAIT)
    store = GameStore(location)  # opened while the import holds its lock: must not wait for it
    seen = {store.count_events(game_id)}
    listed = [g.id for g in store.games()]
    reader_looked.set()
    while not writer_done.is_set():
        seen.add(store.count_events(game_id))
    seen.add(store.count_events(game_id))
    results.put(("reader", sorted(seen), listed))


def test_a_reader_never_sees_part_of_an_import(locations, tmp_path, monkeypatch):
    location = locations.new()
    GameStore(location).close()
    log, _ = make_log(tmp_path, "big", 20_000)
    written_some, reader_looked, writer_done = SPAWN.Event(), SPAWN.Event(), SPAWN.Event()
    results = SPAWN.Queue()
    reader = SPAWN.Process(target=_poller, args=(location, "big", written_some, reader_looked, writer_done, results))
    writer = SPAWN.Process(target=_slow_writer, args=(location, log, written_some, reader_looked, results))
    reader.start(), writer.start()
    writer.join(WAIT)
    writer_done.set()
    reader.join(WAIT)
    assert (writer.exitcode, reader.exitcode) == (0, 0)
    got = dict((r[0], r[1:]) for r in (results.get(timeout=WAIT), results.get(timeout=WAIT)))
    assert got["writer"] == ("imported",)
    total = GameStore(location).count_events("big")
    seen, listed_mid_import = got["reader"]
    assert seen == [0, total] and listed_mid_import == []


def _hold_write_lock(store: GameStore):
    """Another connection holding the store's write lock, as a long import does; returns it (close to release)."""
    if store.backend.name == "postgresql":
        import psycopg

        from tests.conftest import _plain

        conn = psycopg.connect(_plain(store.location))
        conn.execute(f"LOCK TABLE {store.events_table} IN EXCLUSIVE MODE")
        return conn
    conn = sqlite3.connect(store.location, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    return conn


def test_a_writer_kept_waiting_past_the_lock_timeout_stops_cleanly(locations, tmp_path):
    location = locations.new()
    log, _ = make_log(tmp_path, "waiting", 300)
    store = GameStore(location, lock_timeout=1)
    holder = _hold_write_lock(store)
    try:
        with pytest.raises(StoreBusy, match="locked by another writer"):
            import_log(store, open(log, "rb").read(), log)
        cli = subprocess.run([sys.executable, "-m", "gamelog.cli.main", "import", "--store", location, log],
                             capture_output=True, text=True, timeout=WAIT,
                             env={**os.environ, "GAMELOG_LOCK_TIMEOUT": "1"}, cwd=Path(__file__).parents[1])
        assert cli.returncode == 2 and cli.stderr.startswith("Error: ") and "Traceback" not in cli.stderr, cli.stderr
    finally:
        holder.rollback() if hasattr(holder, "rollback") else None
        holder.close()
    assert store.count_events() == 0 and store.games() == []
    assert import_log(store, open(log, "rb").read(), log).outcome is Outcome.IMPORTED
    store.close()


def test_a_process_that_loses_the_race_to_create_the_views_tables_tries_again(locations, monkeypatch):
    """Two processes opening the views first at once both find the tracking table absent; the second tries again.

    The loser is played here by a keeper whose look at the tracking table is
    made before the winner's commit (it sees none), while the winner has
    already created it with the library's migration record.
    """
    from eventsourcing.persistence import OperationalError, ProgrammingError

    from gamelog.projections.views.keeper import ViewKeeper

    store = GameStore(locations.new())
    recorder_class = type(ViewKeeper(store).tracking)  # the winner: tables and migration record created
    absent = OperationalError if locations.backend == "sqlite" else ProgrammingError  # what the library raises then
    original, looks = recorder_class.max_tracking_id, []

    def before_the_winner_committed(self, application_name):
        if application_name == "__migration__" and not looks:
            looks.append(application_name)
            raise absent("the tracking table does not exist yet")
        return original(self, application_name)

    monkeypatch.setattr(recorder_class, "max_tracking_id", before_the_winner_committed)
    keeper = ViewKeeper(store)
    assert looks == ["__migration__"]  # the race was played
    assert (keeper.status().position, keeper.status().head) == (0, 0)
    store.close()


# --- issue 25 item 16: creating a store is safe under concurrency ---

def _open_child(location: str, barrier, results) -> None:
    """Child process: open (creating) the store once every opener is ready; report what happened."""
    barrier.wait(WAIT)
    try:
        GameStore(location).close()
        results.put("opened")
    except Exception as exc:  # the test says which, rather than a child's traceback
        results.put(f"{type(exc).__name__}: {exc}")


def test_processes_creating_a_store_at_once_all_open_it(locations):
    openers, rounds = 4, 4
    for _ in range(rounds):
        location = locations.new()
        barrier, results = SPAWN.Barrier(openers), SPAWN.Queue()
        children = [SPAWN.Process(target=_open_child, args=(location, barrier, results)) for _ in range(openers)]
        for child in children:
            child.start()
        outcomes = sorted(results.get(timeout=WAIT) for _ in children)
        for child in children:
            child.join(WAIT)
        assert outcomes == ["opened"] * openers
        store = GameStore(location)
        assert store.games() == [] and store.count_events() == 0
        store.close()
