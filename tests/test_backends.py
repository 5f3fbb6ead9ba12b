"""The store's backends: chosen once from the location, and nothing above the store speaks to a database library.

* No module of ``domain/``, ``projections/`` (outside ``projections/store/``) or
  ``cli/`` imports eventsourcing, sqlite3 or psycopg: the store raises gamelog's
  errors (``projections.store.errors``) and its backends do the rest.
* The registry picks SQLite for a path and PostgreSQL for ``postgresql://`` or
  ``postgres://``; any other scheme is a StoreError naming it.
* A busy store raises StoreBusy and a damaged SQLite file StoreDamaged, from the
  store's public calls, never the library's or the driver's exception.
"""

from __future__ import annotations

import ast
import sqlite3

import pytest

from gamelog.projections.store.application import GameStore
from gamelog.projections.store.backends import BACKENDS, backend_class
from gamelog.projections.store.errors import StoreBusy, StoreDamaged, StoreError
from tests.conftest import EXAMPLES, ROOT, damage_events_page
from tests.test_concurrency import _hold_write_lock

DATABASE_LIBRARIES = ("eventsourcing", "sqlite3", "psycopg")
ABOVE_THE_STORE = ("domain", "projections", "cli")
STORE = ROOT / "projections" / "store"
SEED = EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl"
GAME = "seed-examples"


def _imported(path) -> set[str]:
    """The top-level packages a module imports (anywhere in it: a function's import counts too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_nothing_above_the_store_imports_a_database_library():
    offenders = {}
    for folder in ABOVE_THE_STORE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if STORE in path.parents:
                continue
            libraries = _imported(path) & set(DATABASE_LIBRARIES)
            if libraries:
                offenders[str(path.relative_to(ROOT))] = sorted(libraries)
    assert offenders == {}, f"imports of a database library above the store: {offenders}"


def test_the_scan_finds_an_import_where_there_is_one(tmp_path):
    """The check above can fail: a module importing a database library, in either form, is found."""
    module = tmp_path / "leaky.py"
    module.write_text("import os\n\ndef f():\n    from eventsourcing.persistence import IntegrityError\n    import sqlite3.dbapi2\n")
    assert _imported(module) & set(DATABASE_LIBRARIES) == {"eventsourcing", "sqlite3"}


@pytest.mark.parametrize("location, backend", [
    ("gamelog.sqlite", "sqlite"),
    ("/var/games/store.sqlite", "sqlite"),
    ("relative/dir/with:colon.sqlite", "sqlite"),
    ("postgresql://u@127.0.0.1:5432/db", "postgresql"),
    ("postgres://u@127.0.0.1:5432/db?schema=x", "postgresql"),
    ("POSTGRESQL://u@host/db", "postgresql"),
])
def test_the_registry_picks_the_backend_from_the_location(location, backend):
    assert backend_class(location).name == backend


@pytest.mark.parametrize("location, scheme", [("mysql://u@host/db", "mysql"), ("ftp://host/store.sqlite", "ftp")])
def test_a_scheme_no_backend_takes_is_a_store_error_naming_it(location, scheme):
    with pytest.raises(StoreError, match=f"no store backend takes the URL scheme '{scheme}'"):
        backend_class(location)
    with pytest.raises(StoreError, match=f"'{scheme}'"):
        GameStore(location)


def test_each_registered_backend_is_one_line_naming_its_class():
    names = [backend_class(f"{schemes[0]}://x" if schemes[0] else "x.sqlite").name for schemes, _ in BACKENDS]
    assert names == ["sqlite", "postgresql"]
    assert len({s for schemes, _ in BACKENDS for s in schemes}) == sum(len(schemes) for schemes, _ in BACKENDS)


def test_a_busy_store_raises_store_busy(locations):
    store = GameStore(locations.new(), lock_timeout=1)
    holder = _hold_write_lock(store)
    header = {"id": "busy", "game": "merchant-of-venus", "players": ["A", "B"]}
    try:
        with pytest.raises(StoreBusy, match="stayed locked by another writer") as busy:
            with store.transaction() as cursor:
                store.insert_rows(cursor, "busy", [(1, "t", b"{}")])
                store.save_summary(cursor, _summary(header))
        assert type(busy.value) is StoreBusy and isinstance(busy.value.__cause__, Exception)
    finally:
        holder.rollback() if hasattr(holder, "rollback") else None
        holder.close()
    assert store.games() == []
    store.close()


def _summary(header: dict):
    from gamelog.projections.store.application import GameSummary

    return GameSummary(header["id"], header["game"], header["players"], 0, 1, False, None)


def test_a_file_that_is_not_a_database_raises_not_a_store(tmp_path):
    from gamelog.projections.store.errors import NotAStore

    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(NotAStore, match="is not a gamelog store"):
        GameStore(str(path))


def test_a_sqlite_file_whose_pages_are_junk_raises_store_damaged(tmp_path):
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + b"this is not a database" * 100)
    with pytest.raises(StoreDamaged, match="is damaged") as damaged:
        GameStore(str(path))
    assert not isinstance(damaged.value, sqlite3.Error)


def test_a_damaged_page_raises_store_damaged_from_every_read(tmp_path):
    from gamelog.projections.importing.importer import import_log

    location = str(tmp_path / "gamelog.sqlite")
    store = GameStore(location)
    import_log(store, SEED.read_bytes(), str(SEED))
    store.close()
    damage_events_page(location)
    store = GameStore(location)
    for call in (store.stored_game_ids, lambda: list(store.history(GAME)), lambda: store.head(GAME),
                 lambda: store.notifications(0, 10)):
        with pytest.raises(StoreDamaged, match="malformed"):
            call()
    with pytest.raises(StoreDamaged, match="malformed"):
        with store.transaction() as cursor:
            store.insert_rows(cursor, GAME, [(2, "t", b"{}")])
    store.close()


@pytest.mark.parametrize("made", ["made by the process", "made before"])
def test_a_store_opened_twice_in_one_process_keeps_its_wal_when_another_process_closes_it(tmp_path, made):
    """A server holds its store open (made as it starts, or there before) and opens it again for a report;
    `gamelog games` on the same file, in another process, must not then delete the WAL under it. Closing any
    descriptor of a SQLite file drops the process's locks on it: the creation lock's and the file read to check it
    is a store were such descriptors."""
    import subprocess
    import sys

    from gamelog.projections.importing.importer import import_log

    location = str(tmp_path / "gamelog.sqlite")
    if made == "made before":
        before = GameStore(location)
        import_log(before, SEED.read_bytes(), str(SEED))
        before.close()
    served = GameStore(location)
    if made == "made by the process":
        import_log(served, SEED.read_bytes(), str(SEED))
    GameStore(location).close()  # opened again and closed in this process, as a report does
    listed = subprocess.run([sys.executable, "-m", "gamelog.cli.main", "games", "--store", location],
                            capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0 and GAME in listed.stdout, listed.stderr
    assert (tmp_path / "gamelog.sqlite-wal").exists() and (tmp_path / "gamelog.sqlite-shm").exists()
    assert list(served.summary(GAME).players) == ["Qossuth", "Whynom", "Eeepeeep", "Human"]
    served.close()
