"""Benchmark: what eventsourcing's public API would cost where gamelog uses a private name.

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_library.py --events 20000 --runs 5
    GAMELOG_TEST_POSTGRES=postgresql://postgres@127.0.0.1:5432/test python tests/benchmarks/bench_library.py

``projections/store/library.py`` lists the private names and quotes these
figures. Each pair runs the shipped path (``private``: through the wrapper
module) and the public alternative on the same stored events:

* ``views``: a rebuild of every view; the tracking record written in the rows'
  transaction (``_insert_tracking``), or by the public ``insert_tracking`` in a
  transaction of its own after the rows commit.
* ``import`` (PostgreSQL): a log imported in batches of 1,000 in one
  transaction (``copy_events_in``: the recorder's lock, ``COPY``, its
  notification), or each batch by the public ``insert_events``, which commits
  it on its own.
* ``runner`` (PostgreSQL): the ``ProjectionRunner``'s per-event fold, the same
  two ways as ``views``.
* ``position``: one read of the views' position while a views transaction is
  open, the check the keeper makes once per page (5,000 events) and the runner
  once per event: by the public ``max_tracking_id`` (on a connection of its
  own: what gamelog does), or on the open cursor (what the private
  ``_max_tracking_id`` did, run here through the recorder's public statement).

Each measurement runs in a child process of its own; runs are interleaved,
so machine noise spreads over every task; medians are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

RUNNER_EVENTS = 1000
POSITION_READS = 500


def _public_tracking(store) -> None:
    """Make the views write their position with the public ``insert_tracking``, after the rows commit."""
    import gamelog.projections.store.backends.base as base

    pending = []
    base.insert_tracking_in = lambda recorder, cursor, tracking: pending.append((recorder, tracking))
    if store.backend.name == "postgresql":
        import gamelog.projections.store.backends.postgres as postgres

        postgres.insert_tracking_in = base.insert_tracking_in
    for owner, name in ((type(store), "transaction"), (type(store.recorder.datastore), "transaction")):
        inner = getattr(owner, name)

        @contextmanager
        def committed_then_tracked(self, *args, _inner=inner, **kwargs):
            with _inner(self, *args, **kwargs) as cursor:
                yield cursor
            while pending:
                recorder, tracking = pending.pop(0)
                recorder.insert_tracking(tracking)

        setattr(owner, name, committed_then_tracked)


def task_views(store_location: str, variant: str) -> tuple[int, float]:
    from gamelog.projections.store.application import GameStore
    from gamelog.projections.views.keeper import ViewKeeper

    store = GameStore(store_location)
    if variant == "public":
        _public_tracking(store)
    keeper = ViewKeeper(store)
    start = time.perf_counter()
    folded = keeper.rebuild()
    return folded, time.perf_counter() - start


def task_import(store_location: str, variant: str, log: str) -> tuple[int, float]:
    import gamelog.projections.store.application as application
    from gamelog.projections.importing.importer import Outcome, import_log

    if variant == "public":
        import gamelog.projections.store.backends.postgres as postgres

        from eventsourcing.persistence import StoredEvent

        postgres.copy_events_in = lambda recorder, cursor, uid, rows: recorder.insert_events(
            [StoredEvent(uid, v, t, st) for v, t, st in rows])
    store = application.GameStore(store_location)
    start = time.perf_counter()
    with open(log, "rb") as handle:
        result = import_log(store, handle, log)
    assert result.outcome is Outcome.IMPORTED, result
    return result.events, time.perf_counter() - start


def task_runner(store_location: str, variant: str) -> tuple[int, float]:
    """The runner's fold, one event per transaction, over the first RUNNER_EVENTS stored events."""
    from eventsourcing.persistence import Tracking

    from gamelog.projections.store.application import GameStore
    from gamelog.projections.views.folder import TABLES
    from gamelog.projections.views.keeper import VIEWS, ViewKeeper
    from gamelog.projections.views.runner import ViewRecorder

    store = GameStore(store_location)
    if variant == "public":
        _public_tracking(store)
    keeper = ViewKeeper(store)
    view = ViewRecorder(store.recorder.datastore, tracking_table_name=keeper.tracking_name)  # what the runner folds with
    with keeper.transaction() as cursor:
        for table in TABLES:
            cursor.execute(f"DELETE FROM {table}")
        cursor.execute(f"DELETE FROM {keeper.tracking_table} WHERE application_name = ?", (VIEWS,))
    page = store.recorder.select_notifications(start=0, limit=RUNNER_EVENTS, inclusive_of_start=False)
    decode = store.mapper.decode_payload
    envelopes = [(SimpleNamespace(originator_id=n.originator_id, payload=decode(n.topic, n.state)), Tracking(VIEWS, n.id))
                 for n in page]
    start = time.perf_counter()
    for envelope, tracking in envelopes:
        view.fold(envelope, tracking)
    return len(envelopes), time.perf_counter() - start


def task_position(store_location: str, variant: str) -> tuple[int, float]:
    """POSITION_READS position reads, each while a views write transaction is open (as the keeper does).

    ``public``: the recorder's ``max_tracking_id``, on a connection of its own
    (what gamelog does). ``cursor``: the same statement (the recorder's public
    attribute) on the open transaction's cursor, which is what the private
    ``_max_tracking_id`` gamelog no longer calls did.
    """
    from gamelog.projections.store.application import GameStore
    from gamelog.projections.views.keeper import VIEWS, ViewKeeper

    keeper = ViewKeeper(GameStore(store_location))
    tracking = keeper.tracking
    with keeper.store.transaction() as cursor:
        start = time.perf_counter()
        for _ in range(POSITION_READS):
            if variant == "public":
                tracking.max_tracking_id(VIEWS)
            elif keeper.backend.name == "sqlite":
                cursor.execute(tracking.select_max_tracking_id_statement, (VIEWS,))
                cursor.fetchone()
            else:
                cursor.execute(tracking.max_tracking_id_statement, (VIEWS,), prepare=True)
                cursor.fetchone()
        seconds = time.perf_counter() - start
    return POSITION_READS, seconds


def child(task: str, store: str, variant: str, log: str) -> None:
    if task == "views":
        n, seconds = task_views(store, variant)
    elif task == "import":
        n, seconds = task_import(store, variant, log)
    elif task == "runner":
        n, seconds = task_runner(store, variant)
    else:
        n, seconds = task_position(store, variant)
    print(json.dumps({"n": n, "seconds": seconds}))


def measure(task: str, store: str, variant: str = "", log: str = "") -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", task, store, variant or "-", log or "-"],
                         check=True, capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout)


def postgres_base(url: str | None) -> str | None:
    """The PostgreSQL URL without its query when the database answers, else None."""
    if not url:
        return None
    try:
        import psycopg

        psycopg.connect(url.split("?")[0], connect_timeout=3).close()
        return url.split("?")[0]
    except Exception as exc:  # any failure means: measure without PostgreSQL
        print(f"PostgreSQL not measured: {exc}")
        return None


def drop_schema(base: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def run_once(workdir: str, log: str, reference: str, pg: str | None, run: int) -> dict[str, dict]:
    got = {}
    for variant in ("private", "public"):
        copy = os.path.join(workdir, f"views-{variant}-{run}.sqlite")
        shutil.copy(reference, copy)  # the reference store is closed: its WAL is checkpointed and gone
        got[f"sqlite views, tracking {variant}"] = measure("views", copy, variant)
        if variant == "private":
            for reader in ("public", "cursor"):
                got[f"sqlite position read, {reader}"] = measure("position", copy, reader)
    if pg:
        schemas = {variant: f"gl_bench_{uuid.uuid4().hex[:12]}" for variant in ("private", "public")}
        try:
            for variant, schema in schemas.items():
                got[f"postgresql import, insert {variant}"] = measure("import", f"{pg}?schema={schema}", variant, log)
            location = f"{pg}?schema={schemas['private']}"
            for variant in ("private", "public"):
                got[f"postgresql views, tracking {variant}"] = measure("views", location, variant)
            for variant in ("private", "public"):
                got[f"postgresql runner, tracking {variant}"] = measure("runner", location, variant)
            for reader in ("public", "cursor"):
                got[f"postgresql position read, {reader}"] = measure("position", location, reader)
        finally:
            for schema in schemas.values():
                drop_schema(pg, schema)
    return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000, help="events in the generated log")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--postgres", default=os.environ.get("GAMELOG_TEST_POSTGRES"))
    parser.add_argument("--child", nargs=4, metavar=("TASK", "STORE", "VARIANT", "LOG"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    from gamelog.projections.importing.importer import import_log
    from gamelog.projections.store.application import GameStore
    from tests.benchmarks.generate import write_log

    pg = postgres_base(args.postgres)
    with tempfile.TemporaryDirectory() as workdir:
        log = os.path.join(workdir, "bench.jsonl")
        with open(log, "wb") as handle:
            events = write_log(handle, args.events)
        reference = os.path.join(workdir, "reference.sqlite")
        store = GameStore(reference)
        with open(log, "rb") as handle:
            import_log(store, handle, log)
        store.close()
        assert not os.path.exists(reference + "-wal"), "the reference store's WAL was not checkpointed"
        print(f"log: {events:,} events; {args.runs} runs, medians; PostgreSQL: {'yes' if pg else 'no'}")
        results: dict[str, list[dict]] = {}
        for run in range(args.runs):
            for task, got in run_once(workdir, log, reference, pg, run).items():
                results.setdefault(task, []).append(got)
    print(f"{'task':<38} {'per second':>12} {'seconds':>9} {'µs each':>9}")
    for task, runs in results.items():
        n, seconds = statistics.median(r["n"] for r in runs), statistics.median(r["seconds"] for r in runs)
        print(f"{task:<38} {n / seconds:>12,.0f} {seconds:>9.3f} {seconds / n * 1e6:>9.1f}")


if __name__ == "__main__":
    main()
