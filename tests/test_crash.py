"""Crash safety: an importer killed with SIGKILL leaves its game whole or absent.

A real child process imports a large generated log and is killed, without
warning, at a chosen point: in the middle of the import (some batches
written), just before the commit (every event and the catalog row written),
and just after it. Afterwards the game is either absent or fully imported,
the catalog agrees with the events, a fresh import succeeds, and SQLite's
``PRAGMA integrity_check`` says ``ok``. Runs on each store backend.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
import time

import pytest

from gamelog.projections.importing import importer
from gamelog.projections.importing.importer import Outcome, import_log
from gamelog.projections.store.application import GameStore
from gamelog.projections.views.compare import table_dump
from gamelog.projections.views.keeper import ViewKeeper
from tests.benchmarks.generate import write_log
from tests.conftest import EXAMPLES

SPAWN = multiprocessing.get_context("spawn")
WAIT = 60
EVENTS = 30_000


def _pause_forever(reached) -> None:
    """Tell the parent this point is reached, then wait to be killed."""
    reached.set()
    time.sleep(WAIT)


def _importer_to_kill(location: str, log: str, point: str, reached, views: bool = False) -> None:
    """Child: import ``log``, stopping to be killed at ``point`` (mid-import, before-commit, after-commit); with
    ``views``, the views folded in the import's transaction (as ``gamelog import`` folds them)."""
    if point == "mid-import":
        append, batches = GameStore.append, []

        def append_then_stop(self, cursor, *batch):
            head = append(self, cursor, *batch)
            batches.append(len(batch))
            if len(batches) == 3:
                _pause_forever(reached)
            return head

        GameStore.append = append_then_stop
    elif point == "before-commit":
        save_summary = GameStore.save_summary

        def save_summary_then_stop(self, cursor, summary):
            save_summary(self, cursor, summary)  # the last write of the transaction
            _pause_forever(reached)

        GameStore.save_summary = save_summary_then_stop
    else:
        append_all = importer._append

        def committed_then_stop(*args, **kwargs):
            append_all(*args, **kwargs)
            _pause_forever(reached)

        importer._append = committed_then_stop
    store = GameStore(location)
    with open(log, "rb") as handle:
        import_log(store, handle, log, along=ViewKeeper(store).alongside if views else None)


def kill_importer_at(location: str, log: str, point: str, views: bool = False) -> None:
    """Run an importer child until it reaches ``point``, then SIGKILL it."""
    reached = SPAWN.Event()
    child = SPAWN.Process(target=_importer_to_kill, args=(location, log, point, reached, views))
    child.start()
    try:
        assert reached.wait(WAIT), f"the importer never reached {point} (exit code {child.exitcode})"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.join(WAIT)
    assert child.exitcode == -signal.SIGKILL


@pytest.mark.parametrize("point", ["mid-import", "before-commit", "after-commit"])
def test_an_importer_killed_mid_import_leaves_the_game_whole_or_absent(locations, tmp_path, point):
    location = locations.new()
    GameStore(location).close()
    log = tmp_path / "crash.jsonl"
    with open(log, "wb") as handle:
        events = write_log(handle, EVENTS, game_id="crash")
    kill_importer_at(location, str(log), point)

    store = GameStore(location)
    stored, catalog = store.count_events("crash"), store.games()
    if point == "after-commit":
        assert catalog and stored  # committed before the kill: must have survived it
    if catalog:  # whole: the catalog row and the events agree, up to the log's last line
        (summary,) = catalog
        assert (summary.id, summary.last_line) == ("crash", events + 1)
        assert stored == len(list(store.history("crash"))) > events
        expected = Outcome.ALREADY_IMPORTED
    else:  # absent: not one event of it
        assert stored == 0 == store.count_events()
        expected = Outcome.IMPORTED
    assert import_log(store, log.read_bytes(), str(log)).outcome is expected
    (summary,) = store.games()
    assert summary.last_line == events + 1 and store.count_events("crash") == len(list(store.history("crash")))
    store.close()
    if store.backend.name != "postgresql":
        with sqlite3.connect(location) as check:
            assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


@pytest.mark.parametrize("point", ["mid-import", "after-commit"])
def test_an_importer_folding_the_views_killed_leaves_them_where_the_events_are(locations, tmp_path, point):
    location = locations.new()
    store = GameStore(location)
    keeper = ViewKeeper(store)
    import_log(store, (EXAMPLES / "uchronia" / "complete-3p.jsonl").read_bytes(), "before.jsonl",
               along=keeper.alongside)  # another game, its views folded along
    before = keeper.status()
    assert before.behind == 0 and before.head > 0
    log = tmp_path / "crash.jsonl"
    with open(log, "wb") as handle:
        write_log(handle, 3000, game_id="crash")
    kill_importer_at(location, str(log), point, views=True)

    status = ViewKeeper(store).status()
    if point == "mid-import":  # nothing of the import: not its events, not their views
        assert (status.position, status.head, store.count_events("crash")) == (before.position, before.head, 0)
    else:  # its events and their views, committed together
        assert status.position == status.head > before.head and store.count_events("crash") > 3000
    with keeper.connection() as cursor:
        kept = table_dump(cursor)
    keeper.rebuild()
    with keeper.connection() as cursor:
        assert table_dump(cursor) == kept


# --- issue 25 item 12: an archive import's worker processes end with it ---

def _descendants(pid: int) -> set[int]:
    """Every living process under ``pid`` (read from /proc: children, their children...)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process tree from /proc")
def test_the_workers_of_an_archive_import_killed_with_sigkill_end_too(tmp_path):
    import subprocess
    import sys

    logs = []
    for n in range(8):
        path = tmp_path / f"g{n}.jsonl"
        with open(path, "wb") as handle:
            write_log(handle, 6000, game_id=f"g{n}")
        logs.append(str(path))
    child = subprocess.Popen([sys.executable, "-m", "gamelog.cli.main", "import", "--store",
                                 str(tmp_path / "s.sqlite"), *logs],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    helpers: set[int] = set()
    deadline = time.monotonic() + WAIT
    while len(helpers) < 3 and child.poll() is None and time.monotonic() < deadline:
        helpers = _descendants(child.pid)  # the forkserver, the resource tracker, the workers
        time.sleep(0.05)
    assert len(helpers) >= 3, "the import ended before its workers were seen"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    deadline = time.monotonic() + 15
    while any(_alive(pid) for pid in helpers) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [pid for pid in helpers if _alive(pid)]
    for pid in left:  # leave nothing behind, whatever the outcome
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} of the import's {len(helpers)} helper processes outlived it"
