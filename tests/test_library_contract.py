"""eventsourcing's private names that gamelog uses still exist, still look the same, and still work.

Every use gamelog makes of a ``_``-prefixed name of the library is in
``projections/store/library.py``, listed in its ``PRIVATE_NAMES``. When an
upgrade of the library renames, removes or changes one, a test here fails
with a message naming it (and which of gamelog's functions depends on it),
before anything else is investigated. The checks:

* each listed name exists on its class, is a method, and has the parameters
  gamelog was written against;
* each function of the wrapper module works against a real SQLite store, and
  PostgreSQL when ``GAMELOG_TEST_POSTGRES`` names a database: what it writes
  is part of the caller's transaction (gone on rollback, there on commit);
* no other module of gamelog names a private name of the library, or
  overrides one in a subclass.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import pkgutil
import textwrap
from contextlib import contextmanager
from pathlib import Path
from uuid import uuid4

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent, Tracking

import eventsourcing
from gamelog.projections.store import library
from gamelog.projections.store.application import GameStore
from gamelog.projections.store.errors import VersionCollision
from gamelog.projections.store.library import (COPIED_ATTRIBUTES, PRIVATE_NAMES, copy_events_in, insert_tracking_in,
                                               max_tracking_id_in,
                                               lock_events_in, parameters, resolve)
from gamelog.projections.views.keeper import ViewKeeper
from tests.conftest import ROOT, Locations

SOURCE_FOLDERS = ("domain", "projections", "cli")
SCANNED_FOLDERS = SOURCE_FOLDERS + ("tests",)  # the tests and benchmarks call the wrapper too
WRAPPER = ROOT / "projections" / "store" / "library.py"


def _entry(qualname: str) -> library.PrivateName:
    (entry,) = [e for e in PRIVATE_NAMES if e.qualname == qualname]
    return entry


@contextmanager
def exercising(*qualnames: str):
    """Turn any failure inside into one that names the private names exercised."""
    try:
        yield
    except Exception as exc:
        names = ", ".join(f"eventsourcing's {_entry(q).qualname} (used by library.{_entry(q).used_by})"
                          for q in qualnames)
        pytest.fail(f"{names} no longer works as projections/store/library.py expects: {exc!r}")


# --- Each listed name: present, a method, the same parameters ---

@pytest.mark.parametrize("entry", PRIVATE_NAMES, ids=lambda entry: entry.qualname)
def test_each_private_name_exists_as_a_method_with_the_parameters_gamelog_calls(entry):
    try:
        found = resolve(entry)
    except Exception as exc:  # the module, the class or the name is gone
        pytest.fail(f"eventsourcing's {entry.qualname} is gone ({exc!r}); library.{entry.used_by} uses it to "
                    f"{entry.reason}")
    assert inspect.isfunction(found), (
        f"eventsourcing's {entry.qualname} is no longer a method (it is {type(found).__name__}); "
        f"library.{entry.used_by} calls it")
    assert parameters(found) == entry.parameters, (
        f"eventsourcing's {entry.qualname} now takes ({parameters(found)}), not ({entry.parameters}); "
        f"check library.{entry.used_by}")


def test_the_list_names_every_private_name_the_wrapper_module_calls():
    """A private name called in library.py but missing from PRIVATE_NAMES would escape the checks above."""
    called = {node.attr for node in ast.walk(ast.parse(WRAPPER.read_text()))
              if isinstance(node, ast.Attribute) and _is_private(node.attr)}
    assert called == {entry.name for entry in PRIVATE_NAMES}
    assert {entry.used_by for entry in PRIVATE_NAMES} == {"insert_tracking_in", "max_tracking_id_in"}


# --- Each wrapper, against a real store ---

@pytest.fixture
def store(locations):
    opened = GameStore(locations.new())
    yield opened
    opened.close()


class _Undo(Exception):
    """Raised inside a transaction to roll it back."""


def test_insert_tracking_in_writes_within_the_callers_transaction(store):
    qualname = ("PostgresTrackingRecorder" if store.backend.name == "postgresql" else "SQLiteTrackingRecorder") + "._insert_tracking"
    tracking = ViewKeeper(store).tracking  # the recorder the views write their position with
    with exercising(qualname):
        with pytest.raises(_Undo):
            with store.transaction() as cursor:
                insert_tracking_in(tracking, cursor, Tracking("contract", 5))
                raise _Undo
        rolled_back = tracking.max_tracking_id("contract")
        with store.transaction() as cursor:
            insert_tracking_in(tracking, cursor, Tracking("contract", 5))
            insert_tracking_in(tracking, cursor, Tracking("contract", 7))
        committed = tracking.max_tracking_id("contract")
    assert rolled_back is None, f"eventsourcing's {qualname} wrote outside the caller's transaction"
    assert committed == 7, f"eventsourcing's {qualname} did not move the position to 7 (it is {committed})"


def test_max_tracking_id_in_reads_within_the_callers_transaction(store):
    qualname = ("PostgresTrackingRecorder" if store.backend.name == "postgresql" else "SQLiteTrackingRecorder") + "._max_tracking_id"
    tracking = ViewKeeper(store).tracking
    with exercising(qualname):
        with store.transaction() as cursor:
            before = max_tracking_id_in(tracking, cursor, "contract")
            insert_tracking_in(tracking, cursor, Tracking("contract", 9))
            seen = max_tracking_id_in(tracking, cursor, "contract")  # its own uncommitted write: the same connection
    assert (before, seen) == (None, 9), f"eventsourcing's {qualname} did not read in the caller's transaction"


def test_insert_tracking_in_refuses_a_position_that_does_not_advance(store):
    qualname = ("PostgresTrackingRecorder" if store.backend.name == "postgresql" else "SQLiteTrackingRecorder") + "._insert_tracking"
    tracking = ViewKeeper(store).tracking
    with exercising(qualname):
        with store.transaction() as cursor:
            insert_tracking_in(tracking, cursor, Tracking("contract", 5))
    with pytest.raises(VersionCollision) as refused:  # the store's word for the library's IntegrityError
        with store.transaction() as cursor:
            insert_tracking_in(tracking, cursor, Tracking("contract", 5))
    assert isinstance(refused.value.__cause__, IntegrityError)
    assert tracking.max_tracking_id("contract") == 5


def test_copy_events_in_writes_within_the_callers_transaction_on_postgresql(tmp_path):
    """PostgreSQL's append does what the recorder's private insert step does, with its public attributes: the
    table's lock, the rows in order (their notification IDs follow it), the channel's notification; all in the
    caller's transaction. (SQLite appends with the recorder's public insert_events_statement.)"""
    locations = Locations("postgresql", tmp_path)  # skips without GAMELOG_TEST_POSTGRES
    try:
        store = GameStore(locations.new())
        recorder = store.recorder
        missing = [name for name in COPIED_ATTRIBUTES if not hasattr(recorder, name)]
        assert missing == [], f"eventsourcing's PostgresApplicationRecorder has no {missing} (library.copy_events_in reads them)"
        locks = [statement.as_string(None) for statement in recorder.lock_table_statements]
        assert any("LOCK TABLE" in s and "EXCLUSIVE MODE" in s and recorder.events_table_name in s for s in locks), (
            f"eventsourcing's lock_table_statements no longer lock the events table: {locks}")
        uid = uuid4()
        rows = [(version, "tests.contract:Event", b'{"n":%d}' % version) for version in (1, 2, 3)]
        before = recorder.max_notification_id() or 0
        with pytest.raises(_Undo):
            with store.transaction() as cursor:
                copy_events_in(recorder, cursor, uid, rows)
                raise _Undo
        rolled_back = recorder.select_events(uid)
        with recorder.datastore.get_connection() as listener:
            listener.execute(f'LISTEN "{recorder.channel_name}"')
            listener.commit()
            with store.transaction() as cursor:
                copy_events_in(recorder, cursor, uid, rows)
            notifies = [n.channel for n in listener.notifies(timeout=5, stop_after=1)]
        stored = [(e.originator_id, e.originator_version, e.state) for e in recorder.select_events(uid)]
        notified = [(n.originator_id, n.originator_version, n.state) for n in
                    recorder.select_notifications(start=before, limit=10, inclusive_of_start=False)]
        assert rolled_back == [], "library.copy_events_in wrote outside the caller's transaction"
        assert stored == notified == [(uid, v, state) for v, _, state in rows]
        assert notifies == [recorder.channel_name]
        with pytest.raises(VersionCollision):  # a second writer of the same versions collides
            with store.transaction() as cursor:
                copy_events_in(recorder, cursor, uid, rows)
        store.close()
    finally:
        locations.drop()


def test_lock_events_in_takes_the_events_table_s_lock_in_the_callers_transaction_on_postgresql(tmp_path):
    """An import that folds the views in its transaction takes the lock an append takes before its first row."""
    locations = Locations("postgresql", tmp_path)  # skips without GAMELOG_TEST_POSTGRES
    try:
        store = GameStore(locations.new())
        recorder = store.recorder
        held = ("SELECT l.mode FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                "WHERE c.relname = %s AND l.pid = pg_backend_pid() AND l.granted")
        with store.transaction() as cursor:
            cursor.execute(held, (recorder.events_table_name,))
            before = [row["mode"] for row in cursor.fetchall()]
            lock_events_in(recorder, cursor)
            cursor.execute(held, (recorder.events_table_name,))
            after = [row["mode"] for row in cursor.fetchall()]
        assert before == [] and "ExclusiveLock" in after
        store.close()
    finally:
        locations.drop()


# --- Nowhere else ---

def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _library_private_names() -> set[str]:
    """Every private name the library defines: module globals, class attributes and methods, ``self._x``."""
    names = set()
    for module in pkgutil.walk_packages(eventsourcing.__path__, "eventsourcing."):
        if ".tests" in module.name:
            continue
        path = Path(importlib.util.find_spec(module.name).origin)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return {name for name in names if _is_private(name)}


def _source_files(folders: tuple[str, ...] = SOURCE_FOLDERS) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py") if p != WRAPPER)


def test_no_other_module_names_a_private_name_of_the_library():
    private = _library_private_names()
    own = set()  # private names gamelog defines itself (its own methods and attributes may share a name)
    trees = {path: ast.parse(path.read_text()) for path in _source_files(SCANNED_FOLDERS)}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                own.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                own.add(node.attr)
    found = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in private - own:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.attr}")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("eventsourcing"):
                found += [f"{path.relative_to(ROOT)}:{node.lineno}: {alias.name}" for alias in node.names
                          if _is_private(alias.name)]
    assert found == [], "eventsourcing's private names outside projections/store/library.py: " + ", ".join(found)


_AUTOMATIC = {"_abc_impl"}  # set by ABCMeta on every abstract class's subclass, not by gamelog


def _defined(cls: type) -> set[str]:
    """The names a class defines: its methods and class attributes, and what its methods set on ``self``."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):  # a class without source (built in)
        return set(vars(cls)) - _AUTOMATIC
    return set(vars(cls)) - _AUTOMATIC | {node.attr for node in ast.walk(ast.parse(source))
                             if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)}


def test_no_subclass_of_a_library_class_overrides_or_shadows_a_private_name():
    """A method gamelog adds to a library subclass must not replace one of the library's (now or after an upgrade)."""
    found = []
    for path in _source_files():
        module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            bases = [base for base in cls.__mro__[1:] if base.__module__.startswith("eventsourcing")]
            theirs = {name for base in bases for name in _defined(base) if _is_private(name)}
            found += [f"{cls.__module__}.{cls.__qualname__}.{name}" for name in sorted(_defined(cls) & theirs)]
    assert found == [], "overrides of eventsourcing's private names outside projections/store/library.py: " + ", ".join(found)
