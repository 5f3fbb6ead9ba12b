"""Benchmark at scale: validate, import (SQLite, PostgreSQL) and replay, each beside its ceiling and the straightforward path.

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_scale.py --events 100000
    python tests/benchmarks/bench_scale.py --tournament --games 50     # 50 games x 1,000 events
    python tests/benchmarks/bench_scale.py --tournament                 # 1,000 games x 1,000 events

For each task, in the same run: gamelog's path; the ceiling (plain msgspec
decoding of the same file; ``sqlite3.executemany`` of the same rows into a
table of the same shape; raw rows decoded with msgspec for replay); and the
straightforward path (eventsourcing's default JSON transcoder, a declarative
``Aggregate`` with ``@event``, one ``app.save()`` per turn). Each measurement
runs in a child process of its own, so its peak memory (ru_maxrss) is its
own. PostgreSQL is measured when ``GAMELOG_TEST_POSTGRES`` (or ``--postgres``)
names a reachable database; each run uses a fresh schema, dropped afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

REPLAY_EVENTS = 1000
REPLAY_REPEAT = 20


def _logs(workdir: str) -> list[str]:
    return sorted(str(p) for p in Path(workdir).glob("game-*.jsonl"))


# --- the tasks, each run in a child process; each returns how many events it handled ---

def task_decode(workdir: str, store: str) -> int:
    import msgspec

    decoder, n = msgspec.json.Decoder(), 0
    for log in _logs(workdir):
        with open(log, "rb") as handle:
            for line in handle:
                decoder.decode(line)
                n += 1
    return n


def task_validate(workdir: str, store: str) -> int:
    from gamelog.projections.reports.validation import check_file

    n = 0
    for log in _logs(workdir):
        result = check_file(log)
        assert not result.errors and not result.findings, (result.errors[:3], result.findings[:3])
        n += sum(1 for _ in open(log, "rb")) - 1
    return n


def task_import(workdir: str, store: str) -> int:
    from gamelog.projections.importing.importer import Outcome, import_log
    from gamelog.projections.store.application import GameStore

    game_store, n = GameStore(store), 0
    for log in _logs(workdir):
        with open(log, "rb") as handle:
            result = import_log(game_store, handle, log)
        assert result.outcome is Outcome.IMPORTED, result
        n += result.events
    return n


def task_rebuild(workdir: str, store: str) -> int:
    """``gamelog projections rebuild`` of every view, on the store the import task filled; counts stored events."""
    from gamelog.projections.views.keeper import ViewKeeper
    from gamelog.projections.store.application import GameStore

    return ViewKeeper(GameStore(store)).rebuild()


def _rows(source_store: str) -> list[tuple]:
    import sqlite3

    with sqlite3.connect(source_store) as conn:
        return conn.execute("SELECT originator_id, originator_version, topic, state FROM stored_events ORDER BY rowid").fetchall()


def task_executemany(workdir: str, store: str) -> int:
    """The ceiling for import: the rows the import stored, executemany'd 1,000 per transaction into the same shape."""
    import sqlite3

    rows = _rows(os.path.join(workdir, "reference.sqlite"))
    start = time.perf_counter()
    conn = sqlite3.connect(store, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE stored_events (originator_id TEXT, originator_version INTEGER, topic TEXT, "
                 "state BLOB, PRIMARY KEY (originator_id, originator_version))")
    for i in range(0, len(rows), 1000):
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO stored_events VALUES (?, ?, ?, ?)", rows[i:i + 1000])
        conn.execute("COMMIT")
    conn.close()
    os.environ["BENCH_SECONDS"] = str(time.perf_counter() - start)  # excludes reading the rows
    return len(rows)


class Game(Aggregate):
    """The straightforward path's aggregate: one declarative event per log line."""

    @event("Started")
    def __init__(self, header: dict):
        self.header, self.lines = header, 0

    @event("LineRecorded")
    def record(self, line: int, data: dict) -> None:
        self.lines = line


def _straightforward_app(store: str):
    """eventsourcing's default path: JSON transcoder, declarative aggregate, SQLite."""
    app = Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": store})
    return app, Game


def task_straightforward(workdir: str, store: str) -> int:
    """The straightforward import: json.loads each line, one aggregate event per line, one save per turn."""
    app, Game = _straightforward_app(store)
    n = 0
    for log in _logs(workdir):
        with open(log, "rb") as handle:
            game = Game(json.loads(next(handle)))
            for line, raw in enumerate(handle, 2):
                data = json.loads(raw)
                game.record(line, data)
                n += 1
                if data["type"] == "turn_ended":
                    app.save(game)
            app.save(game)
    return n


def _replay_turn() -> int:
    return REPLAY_EVENTS // 5 // 2  # a turn near the middle of the game


def task_replay(workdir: str, store: str) -> int:
    """State at a turn of the stored 1,000-event game, repeated; reports the median per replay."""
    from gamelog.domain.replay import state_at
    from gamelog.projections.store.application import GameStore

    game_store = GameStore(store)
    return _time_replays(lambda: state_at("merchant-of-venus", game_store.history("replay"), turn=_replay_turn()))


def task_replay_ceiling(workdir: str, store: str) -> int:
    """Replay's ceiling: the game's rows read with a raw cursor and decoded with msgspec, no folding."""
    import sqlite3

    import msgspec

    from gamelog.projections.store.application import game_uuid

    decoder = msgspec.json.Decoder()
    conn = sqlite3.connect(store)
    uid = game_uuid("replay").hex
    return _time_replays(lambda: [decoder.decode(r[0]) for r in conn.execute(
        "SELECT state FROM stored_events WHERE originator_id = ? ORDER BY originator_version", (uid,))])


def task_replay_straightforward(workdir: str, store: str) -> int:
    """Replay the straightforward way: the declarative aggregate from the repository, at the middle version."""
    app, Game = _straightforward_app(store)
    ids = [row for row in app.recorder.select_notifications(start=1, limit=1)]
    aggregate_id = ids[0].originator_id
    return _time_replays(lambda: app.repository.get(aggregate_id, version=REPLAY_EVENTS // 2))


def _time_replays(replay) -> int:
    times = []
    for _ in range(REPLAY_REPEAT):
        start = time.perf_counter()
        replay()
        times.append(time.perf_counter() - start)
    os.environ["BENCH_SECONDS"] = str(statistics.median(times))
    return REPLAY_EVENTS


TASKS = {name[5:]: fn for name, fn in globals().items() if name.startswith("task_")}


def child(task: str, workdir: str, store: str) -> None:
    """Do one task in this process; print its events, seconds and peak memory as JSON."""
    start = time.perf_counter()
    events = TASKS[task](workdir, store)
    seconds = float(os.environ.pop("BENCH_SECONDS", time.perf_counter() - start))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"events": events, "seconds": seconds, "peak_mb": peak_mb}))


def measure(task: str, workdir: str, store: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", task, workdir, store], check=True,
                         capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- the parent: generate, run interleaved, print ---

def write_logs(workdir: str, games: int, events: int) -> None:
    from tests.benchmarks.generate import write_log

    for g in range(games):
        with open(os.path.join(workdir, f"game-{g:05d}.jsonl"), "wb") as handle:
            write_log(handle, events, game_id=f"game-{g:05d}")


def postgres_base(url: str | None) -> str | None:
    """The PostgreSQL URL when the database answers, else None."""
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


def run_once(workdir: str, pg: str | None, run: int) -> dict[str, dict]:
    """One run of every task, each on a fresh store; returns the measurements by task."""
    store = lambda name: os.path.join(workdir, f"{name}-{run}.sqlite")  # noqa: E731
    got = {"decode (ceiling)": measure("decode", workdir, ""),
           "validate": measure("validate", workdir, "")}
    reference = os.path.join(workdir, "reference.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(reference + suffix):
            os.remove(reference + suffix)
    got["import sqlite"] = measure("import", workdir, reference)
    got["projections rebuild"] = measure("rebuild", workdir, reference)
    got["executemany (ceiling)"] = measure("executemany", workdir, store("many"))
    got["straightforward import"] = measure("straightforward", workdir, store("plain"))
    if pg:
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        try:
            got["import postgresql"] = measure("import", workdir, f"{pg}?schema={schema}")
        finally:
            drop_schema(pg, schema)
    return got


def replay_once(replay_dir: str, run: int) -> dict[str, dict]:
    ours, plain = os.path.join(replay_dir, "replay.sqlite"), os.path.join(replay_dir, "plain.sqlite")
    return {"replay ms": measure("replay", replay_dir, ours),
            "replay raw rows (ceiling)": measure("replay_ceiling", replay_dir, ours),
            "replay straightforward": measure("replay_straightforward", replay_dir, plain)}


def prepare_replay(replay_dir: str) -> None:
    from tests.benchmarks.generate import write_log

    with open(os.path.join(replay_dir, "game-replay.jsonl"), "wb") as handle:
        write_log(handle, REPLAY_EVENTS, game_id="replay")
    measure("import", replay_dir, os.path.join(replay_dir, "replay.sqlite"))
    measure("straightforward", replay_dir, os.path.join(replay_dir, "plain.sqlite"))


def report(results: dict[str, list[dict]]) -> None:
    med = {task: {k: statistics.median(r[k] for r in runs) for k in ("events", "seconds", "peak_mb")}
           for task, runs in results.items()}
    pairs = {"validate": "decode (ceiling)", "import sqlite": "executemany (ceiling)",
             "straightforward import": "import sqlite", "import postgresql": "import sqlite",
             "replay straightforward": "replay ms", "replay ms": "replay raw rows (ceiling)"}
    print(f"{'task':<28} {'events/s':>12} {'seconds':>9} {'ms':>9} {'peak MB':>8}  ratio")
    for task, m in med.items():
        ratio = ""
        if task in pairs and pairs[task] in med:
            other = med[pairs[task]]
            ratio = f"{other['seconds'] / m['seconds']:.2f}x the speed of {pairs[task]}"
        print(f"{task:<28} {m['events'] / m['seconds']:>12,.0f} {m['seconds']:>9.3f} {m['seconds'] * 1000:>9.1f} "
              f"{m['peak_mb']:>8.0f}  {ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000, help="events in the log (one game)")
    parser.add_argument("--tournament", action="store_true", help="many games of 1,000 events (see --games)")
    parser.add_argument("--games", type=int, default=1000, help="games in --tournament mode")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--postgres", default=os.environ.get("GAMELOG_TEST_POSTGRES"))
    parser.add_argument("--child", nargs=3, metavar=("TASK", "DIR", "STORE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    games, events = (args.games, 1000) if args.tournament else (1, args.events)
    pg = postgres_base(args.postgres)
    with tempfile.TemporaryDirectory() as workdir, tempfile.TemporaryDirectory() as replay_dir:
        write_logs(workdir, games, events)
        prepare_replay(replay_dir)
        size = sum(os.path.getsize(p) for p in _logs(workdir)) / 2**20
        print(f"{games:,} game(s) x {events:,} events, {size:.0f} MiB; replay at a turn of a "
              f"{REPLAY_EVENTS:,}-event stored game; {args.runs} runs, medians; PostgreSQL: {'yes' if pg else 'no'}")
        results: dict[str, list[dict]] = {}
        for run in range(args.runs):  # interleaved, so machine noise spreads over every task
            for task, got in {**run_once(workdir, pg, run), **replay_once(replay_dir, run)}.items():
                results.setdefault(task, []).append(got)
        report(results)


if __name__ == "__main__":
    main()
