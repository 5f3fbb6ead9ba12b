"""Benchmark of issue 24's targets: each figure beside its ceiling, measured in the same run.

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_targets.py                      # 100,000 lines, an archive of 20 x 1,000: minutes
    python tests/benchmarks/bench_targets.py --full               # 1,000,000 lines, an archive of 1,000 x 1,000
    GAMELOG_TEST_POSTGRES=postgresql://postgres@127.0.0.1:5432/test python tests/benchmarks/bench_targets.py
    python tests/benchmarks/bench_targets.py --baseline ../main  # also before/after against main, same runs

It prints issue 24's table: for each piece of work, the target, gamelog's
median, the ceiling's median (measured in the same run, interleaved with it)
and their ratio, and each task's peak memory (``ru_maxrss`` of the child
process that ran it alone). The work and its ceiling:

* ``validate`` of a generated Merchant of Venus log, every rule checked,
  against msgspec decoding each line of the same file;
* ``import`` into SQLite (the store's write path: ``import_log``, as
  ``gamelog import`` runs it before it catches the views up) against
  ``executemany`` of the same lines, 1,000 a transaction, into a table of the
  events table's shape (WAL, ``synchronous=FULL``, like the store); and the
  whole ``gamelog import`` command, views included, for what a user waits;
* the rows that ``gamelog import`` wrote (events, catalog and views), and the
  views' rows alone, ``executemany``'d into an empty store of the same schema,
  nothing decided or folded: what any import writing those rows, and any
  rebuild deriving those views, could reach at best (their ratios to
  ``executemany`` and to reading the rows bound the two targets above them);
* ``import`` of an archive (many games, one ``gamelog import`` command) against
  the single-log command's rate times the cores it may use (``os.cpu_count()``);
* ``import`` into PostgreSQL against ``COPY`` of the same lines into a table of
  the events table's shape (when ``GAMELOG_TEST_POSTGRES`` or ``--postgres``
  names a reachable database; each run uses a fresh schema, dropped after);
* ``projections rebuild`` of the imported store against reading the same rows
  (the notification log, a page of 5,000 at a time, on one connection);
* ``replay --turn`` of a turn near the middle of a stored 1,000-line game
  (the service's ``state_of``, the store open; the median of 20) against reading its rows;
* ``validate`` of Uchronia and Twilight Imperium logs, as ratios to Merchant
  of Venus' rate on a log of the same length (``--other-lines``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.benchmarks.checkout import import_gamelog_from  # noqa: E402
from tests.benchmarks.peak import peak_mb  # noqa: E402

# A child measuring the baseline (--baseline) imports gamelog from that checkout instead.
import_gamelog_from(os.environ.get("BENCH_ROOT") or ROOT)

REPLAY_LINES = 1000
REPLAY_REPEAT = 20
PAGE = 5000


def _lines(path: str) -> int:
    """Event lines of a log: every line after the header."""
    with open(path, "rb") as handle:
        return sum(1 for _ in handle) - 1


def _logs(folder: str) -> list[str]:
    return sorted(str(p) for p in Path(folder).glob("*.jsonl"))


# --- the tasks, each run alone in a child process; each returns the units of work it did (lines, events) ---

def task_decode(log: str, store: str) -> int:
    import msgspec

    decoder, n = msgspec.json.Decoder(), -1
    with open(log, "rb") as handle:
        for line in handle:
            decoder.decode(line)
            n += 1
    return n


def task_validate(log: str, store: str) -> int:
    from gamelog.projections.reports.validation import check_file

    result = check_file(log)
    assert not result.errors and not result.findings, (result.errors[:3], result.findings[:3])
    return _lines(log)


def task_import(log: str, store: str) -> int:
    from gamelog.projections.importing.importer import Outcome, import_log
    from gamelog.projections.store.application import GameStore

    with open(log, "rb") as handle:
        result = import_log(GameStore(store), handle, log)
    assert result.outcome is Outcome.IMPORTED, result
    return result.events


def _cli(args: list[str]) -> None:
    from gamelog.cli.main import main

    with open(os.devnull, "w") as sink:
        saved, sys.stdout = sys.stdout, sink
        try:
            main(args, standalone_mode=False)
        except SystemExit as exc:
            assert not exc.code, f"gamelog {' '.join(args[:3])} ... exited {exc.code}"
        finally:
            sys.stdout = saved


def task_import_command(log: str, store: str) -> int:
    """``gamelog import LOG`` (the views caught up too); ``log`` may be a folder: every log in it, one command."""
    logs = _logs(log) if os.path.isdir(log) else [log]
    _cli(["--store", store, "import", *logs])
    return sum(_lines(p) for p in logs)


def task_executemany(log: str, store: str) -> int:
    """The ceiling for a SQLite import: the log's lines executemany'd, 1,000 a transaction, as the store's rows."""
    import sqlite3

    game = uuid.uuid4().hex
    conn = sqlite3.connect(store, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE stored_events (originator_id TEXT, originator_version INTEGER, topic TEXT, "
                 "state BLOB, PRIMARY KEY (originator_id, originator_version))")
    n, batch = 0, []
    with open(log, "rb") as handle:
        next(handle)
        for n, line in enumerate(handle, 1):
            batch.append((game, n, "line", line))
            if len(batch) == 1000:
                conn.execute("BEGIN")
                conn.executemany("INSERT INTO stored_events VALUES (?, ?, ?, ?)", batch)
                conn.execute("COMMIT")
                batch = []
    if batch:
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO stored_events VALUES (?, ?, ?, ?)", batch)
        conn.execute("COMMIT")
    conn.close()
    return n


def _rows_written(store: str, tables) -> int:
    """The rows of ``tables`` (a predicate on a table's name) in the filled ``store``, executemany'd into an empty
    store of the same schema, 1,000 rows a transaction (WAL, ``synchronous=FULL``); only the writing is timed."""
    import sqlite3

    source = sqlite3.connect(store)
    schema = [(name, sql) for name, sql in source.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL ORDER BY rowid") if tables(name)]
    indexes = [sql for name, sql in source.execute(
        "SELECT tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") if tables(name)]
    contents = {name: source.execute(f'SELECT * FROM "{name}"').fetchall() for name, _ in schema}
    source.close()
    target = store + ".rows"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(target + suffix):
            os.remove(target + suffix)
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    for _, sql in schema:
        conn.execute(sql)
    for sql in indexes:
        conn.execute(sql)
    start = time.perf_counter()
    for name, rows in contents.items():
        if not rows:
            continue
        insert = f'INSERT INTO "{name}" VALUES ({", ".join("?" * len(rows[0]))})'
        for at in range(0, len(rows), 1000):
            conn.execute("BEGIN")
            conn.executemany(insert, rows[at:at + 1000])
            conn.execute("COMMIT")
    os.environ["BENCH_SECONDS"] = str(time.perf_counter() - start)
    conn.close()
    return sum(map(len, contents.values()))


def task_import_rows(log: str, store: str) -> int:
    """The import command's ceiling with its views: every row it wrote (events, catalog, views) executemany'd into
    an empty store, nothing decided or folded; counts the log's lines (``store``: the command's, filled)."""
    _rows_written(store, lambda name: name != "tracking" and not name.startswith("sqlite_"))
    return _lines(log)


def task_view_rows(log: str, store: str) -> int:
    """Rebuild's ceiling with its views: the views' rows alone executemany'd into an empty store, nothing read or
    folded; counts the store's events (``store``: filled by the import command)."""
    import sqlite3

    _rows_written(store, lambda name: name.startswith("view_"))
    with sqlite3.connect(store) as conn:
        return conn.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]


def task_copy(log: str, store: str) -> int:
    """The ceiling for a PostgreSQL import: ``COPY`` of the log's lines into a table of the events table's shape."""
    import psycopg

    base, schema = store.split("?schema=")
    game = uuid.uuid4()
    n = 0
    with psycopg.connect(base) as conn:
        conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
        conn.execute(f'CREATE TABLE "{schema}".copied (originator_id uuid NOT NULL, originator_version bigint NOT NULL, '
                     "topic text, state bytea, notification_id bigserial, PRIMARY KEY (originator_id, originator_version))")
        with conn.cursor() as cursor, cursor.copy(f'COPY "{schema}".copied (originator_id, originator_version, topic, '
                                                  "state) FROM STDIN") as copy, open(log, "rb") as handle:
            next(handle)
            for n, line in enumerate(handle, 1):
                copy.write_row((game, n, "line", line))
    return n


def task_rebuild(log: str, store: str) -> int:
    """``gamelog projections rebuild`` of the store the import filled; counts stored events."""
    from gamelog.projections.store.application import GameStore
    from gamelog.projections.views.keeper import ViewKeeper

    return ViewKeeper(GameStore(store)).rebuild()


def task_read_rows(log: str, store: str) -> int:
    """Rebuild's ceiling: the store's notification log read a page at a time, every column, nothing folded."""
    import sqlite3

    conn, after, n = sqlite3.connect(store), 0, 0
    while True:
        page = conn.execute("SELECT rowid, originator_id, originator_version, topic, state FROM stored_events "
                            "WHERE rowid > ? ORDER BY rowid LIMIT ?", (after, PAGE)).fetchall()
        if not page:
            return n
        n, after = n + len(page), page[-1][0]


def _replay_turn() -> int:
    return REPLAY_LINES // 5 // 2  # a turn near the middle: the generated turns are about five lines


def task_replay(log: str, store: str) -> int:
    """``replay --turn`` in process, the store open: the service's replay of a stored game to a turn."""
    from gamelog.replaying import state_of
    from gamelog.sources import StoredGame
    from gamelog.projections.store.application import GameStore

    game = StoredGame(GameStore(store), "replay", store)
    return _time_repeated(lambda: state_of(game, turn=_replay_turn()))


def task_replay_rows(log: str, store: str) -> int:
    """Replay's ceiling: the stored game's rows read with a raw cursor, nothing decoded."""
    import sqlite3

    from gamelog.projections.store.application import game_uuid

    conn, uid = sqlite3.connect(store), game_uuid("replay").hex
    return _time_repeated(lambda: conn.execute("SELECT originator_version, topic, state FROM stored_events WHERE "
                                               "originator_id = ? ORDER BY originator_version", (uid,)).fetchall())


def _time_repeated(work) -> int:
    times = []
    for _ in range(REPLAY_REPEAT):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    os.environ["BENCH_SECONDS"] = str(statistics.median(times))
    return REPLAY_LINES


TASKS = {name[5:]: fn for name, fn in globals().items() if name.startswith("task_")}


def import_gamelog() -> None:
    """Import the gamelog modules the tasks run, so that a task's time is its work's, not Python's imports.

    The games' packages and the CLI's commands are imported as they are first used: the registry is lazy, and
    since 73cb0be so is the ``gamelog`` group, whose commands' modules had asked for every game when
    ``gamelog.cli.main`` imported them. Left to the task, those imports (about 50 ms, as long as the work of a
    20,000-line ``validate``) were timed as its work. They are imported here by name, so that a checkout from
    before 73cb0be and one after it are timed on the same work (``--baseline``).
    """
    import importlib

    import gamelog.cli.main
    import gamelog.domain.replay  # noqa: F401
    import gamelog.projections.importing.importer  # noqa: F401
    import gamelog.projections.reports.validation  # noqa: F401
    import gamelog.projections.views.keeper  # noqa: F401
    from gamelog.domain.games import GAMES

    for name in list(GAMES):
        GAMES[name]  # noqa: B018 - asking for a game imports its package
    for where in getattr(gamelog.cli.main, "COMMANDS", {}).values():  # "MODULE:NAME" in gamelog.cli
        module = where.split(":")[0]
        if module != "serve":  # the served recorder's web stack: no task runs it (an eager checkout left it out)
            importlib.import_module(f"gamelog.cli.{module}")


def child(task: str, log: str, store: str) -> None:
    """Do one task in this process; print its units, seconds and peak memory as JSON.

    gamelog's modules are imported first (:func:`import_gamelog`): the time measured is the work's, not
    Python's start.
    """
    import_gamelog()
    start = time.perf_counter()
    units = TASKS[task](log, store)
    seconds = float(os.environ.pop("BENCH_SECONDS", time.perf_counter() - start))
    print(json.dumps({"units": units, "seconds": seconds, "peak_mb": peak_mb()}))


def measure(task: str, log: str, store: str = "", root: str | None = None) -> dict:
    """Run one task in a child process (gamelog imported from ``root``, this checkout by default)."""
    env = dict(os.environ, BENCH_ROOT=root or str(ROOT))
    # Every interpreter the child starts (an archive import's workers) imports gamelog from the same checkout.
    site = str(Path(__file__).resolve().parent / "checkout_site")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [site, os.environ.get("PYTHONPATH")]))
    out = subprocess.run([sys.executable, __file__, "--child", task, log, store], capture_output=True, text=True,
                         cwd=root or ROOT, env=env)
    if out.returncode:
        raise SystemExit(f"{task} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- the parent: generate, run interleaved, print the table ---

def write_inputs(folder: str, lines: int, games: int, game_lines: int, other_lines: int) -> dict[str, str]:
    """Write the logs every task reads; returns their paths by name."""
    from tests.benchmarks import generate

    paths = {name: os.path.join(folder, f"{name}.jsonl") for name in ("mov", "mov other", "uchronia", "ti4", "replay")}
    with open(paths["mov"], "wb") as handle:
        generate.write_log(handle, lines, game_id="bench")
    with open(paths["mov other"], "wb") as handle:  # Merchant of Venus at the other logs' length, for their ratio
        generate.write_log(handle, other_lines, game_id="bench")
    with open(paths["replay"], "wb") as handle:
        generate.write_log(handle, REPLAY_LINES, game_id="replay")
    # About five lines a Uchronia turn, 130 a Twilight Imperium round (four players): cut to the same length.
    uch = generate.uchronia_lines(other_lines // 4 + 10, threshold=10**17)
    ti4 = generate.twilight_lines(other_lines // 30 + 2, endless=True)
    for name, log in (("uchronia", uch), ("ti4", ti4)):
        with open(paths[name], "wb") as handle:
            handle.write(generate.log_bytes(log[:other_lines + 1]))
    archive = os.path.join(folder, "archive")
    os.mkdir(archive)
    for g in range(games):
        with open(os.path.join(archive, f"game-{g:05d}.jsonl"), "wb") as handle:
            generate.write_log(handle, game_lines, game_id=f"game-{g:05d}")
    paths["archive"] = archive
    return paths


def postgres_base(url: str | None) -> str | None:
    """The PostgreSQL URL (without its query) when the database answers, else None."""
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


def fresh(folder: str, name: str) -> str:
    path = os.path.join(folder, name)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    return path


BEFORE_AFTER = ("validate", "validate uchronia", "validate ti4", "import", "rebuild", "import command", "archive command",
                "import postgresql", "replay")
"""The tasks measured on the baseline checkout too (``--baseline``), in the same interleaved runs."""


def run_baseline(paths: dict[str, str], folder: str, pg: str | None, baseline: str,
                 replay_store: str) -> dict[str, dict]:
    """The tasks of :data:`BEFORE_AFTER` with gamelog imported from ``baseline``."""
    mov, got = paths["mov"], {}
    got["validate"] = measure("validate", mov, "", baseline)
    got["validate uchronia"] = measure("validate", paths["uchronia"], "", baseline)
    got["validate ti4"] = measure("validate", paths["ti4"], "", baseline)
    got["replay"] = measure("replay", "", replay_store, baseline)
    store = fresh(folder, "before.sqlite")
    got["import"] = measure("import", mov, store, baseline)
    got["rebuild"] = measure("rebuild", mov, store, baseline)
    got["import command"] = measure("import_command", mov, fresh(folder, "before-command.sqlite"), baseline)
    got["archive command"] = measure("import_command", paths["archive"], fresh(folder, "before-archive.sqlite"), baseline)
    if pg:
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        try:
            got["import postgresql"] = measure("import", mov, f"{pg}?schema={schema}", baseline)
        finally:
            drop_schema(pg, schema)
    return got


def before_after(med: dict[str, dict], before: dict[str, dict]) -> list[str]:
    rows = ["| work | before (baseline) | after (this checkout) | after / before |", "| --- | --- | --- | --- |"]
    for task in BEFORE_AFTER:
        if task in before and task in med:
            if task == "replay":
                rows.append(f"| {task} | {before[task]['seconds'] * 1000:.2f} ms | {med[task]['seconds'] * 1000:.2f} ms | "
                            f"{before[task]['seconds'] / med[task]['seconds']:.2f} (speed) |")
                continue
            rows.append(f"| {task} | {_rate(before[task]):,.0f}/s | {_rate(med[task]):,.0f}/s | "
                        f"{_rate(med[task]) / _rate(before[task]):.2f} |")
    return rows


def run_once(paths: dict[str, str], folder: str, pg: str | None, replay_store: str,
             same_length: bool = False) -> dict[str, dict]:
    """One run of every task, each on a fresh store where it writes; returns the measurements by task."""
    mov = paths["mov"]
    got = {"decode": measure("decode", mov), "validate": measure("validate", mov),
           "validate uchronia": measure("validate", paths["uchronia"]),
           "validate ti4": measure("validate", paths["ti4"])}
    # Merchant of Venus at the other logs' length, for their ratio (the same log when the lengths are equal)
    got["validate other"] = got["validate"] if same_length else measure("validate", paths["mov other"])
    store = fresh(folder, "import.sqlite")
    got["import"] = measure("import", mov, store)
    got["rebuild"] = measure("rebuild", mov, store)
    got["read rows"] = measure("read_rows", mov, store)
    got["executemany"] = measure("executemany", mov, fresh(folder, "many.sqlite"))
    got["import command"] = measure("import_command", mov, fresh(folder, "command.sqlite"))
    got["import rows"] = measure("import_rows", mov, os.path.join(folder, "command.sqlite"))
    got["view rows"] = measure("view_rows", mov, os.path.join(folder, "command.sqlite"))
    got["archive command"] = measure("import_command", paths["archive"], fresh(folder, "archive.sqlite"))
    got["replay"] = measure("replay", "", replay_store)
    got["replay rows"] = measure("replay_rows", "", replay_store)
    if pg:
        for task, name in (("import", "import postgresql"), ("copy", "copy")):
            schema = f"bench_{uuid.uuid4().hex[:12]}"
            try:
                got[name] = measure(task, mov, f"{pg}?schema={schema}")
            finally:
                drop_schema(pg, schema)
    return got


CEILINGS_HELD_WHOLE = ("import rows", "view rows")
"""Ceilings that hold every row they write in memory (their peak is not gamelog's)."""


def _rate(m: dict) -> float:
    return m["units"] / m["seconds"]


def table(med: dict[str, dict], cores: int, lines: int, other_lines: int) -> list[str]:
    """Issue 24's table as Markdown rows: work, target, gamelog, ceiling, ratio, peak memory."""
    rows = ["| work | target | gamelog | ceiling (same run) | ratio | peak MB |", "| --- | --- | --- | --- | --- | --- |"]

    def row(work: str, target: str, ours: str, ceiling: str, ratio: str, task: str) -> None:
        peak = f"{med[task]['peak_mb']:.0f}" if task in med else ""
        rows.append(f"| {work} | {target} | {ours} | {ceiling} | {ratio} | {peak} |")

    rate = lambda task: f"{_rate(med[task]):,.0f} lines/s"  # noqa: E731
    ratio = lambda a, b: f"{_rate(med[a]) / _rate(med[b]):.3f}"  # noqa: E731
    row(f"`validate`, {lines:,}-line Merchant of Venus log", "≥ 0.10 of decode (stretch 0.2)", rate("validate"),
        f"msgspec decoding: {rate('decode')}", ratio("validate", "decode"), "validate")
    row("`import` into SQLite (store write)", "", rate("import"),
        f"executemany, 1,000 a transaction: {rate('executemany')}", ratio("import", "executemany"), "import")
    row("`gamelog import` into SQLite (views too)", "≥ 0.35 of executemany", rate("import command"),
        f"executemany: {rate('executemany')}", ratio("import command", "executemany"), "import command")
    row("its rows alone (events, catalog, views: nothing decided or folded)", "", rate("import rows"),
        f"executemany: {rate('executemany')}", ratio("import rows", "executemany"), "import rows")
    per_core = _rate(med["archive command"]) / cores / _rate(med["import command"])
    row(f"`gamelog import` of an archive, {med['archive command']['units']:,} lines, {cores} core(s)",
        f"≥ 0.8 of {cores} x the single-log rate", rate("archive command"),
        f"single log x {cores} core(s): {_rate(med['import command']) * cores:,.0f} lines/s", f"{per_core:.2f}",
        "archive command")
    if "import postgresql" in med:
        row("`import` into PostgreSQL (store write)", "≥ 0.3 of COPY", rate("import postgresql"),
            f"COPY: {rate('copy')}", ratio("import postgresql", "copy"), "import postgresql")
    else:
        row("`import` into PostgreSQL", "≥ 0.3 of COPY", "not measured", "", "", "")
    row("`projections rebuild`", "≥ 0.3 of reading the rows", f"{_rate(med['rebuild']):,.0f} events/s",
        f"reading the rows: {_rate(med['read rows']):,.0f} events/s", ratio("rebuild", "read rows"), "rebuild")
    row("the views' rows alone, written (nothing read or folded)", "", f"{_rate(med['view rows']):,.0f} events/s",
        f"reading the rows: {_rate(med['read rows']):,.0f} events/s", ratio("view rows", "read rows"), "view rows")
    row(f"`replay --turn` of a {REPLAY_LINES:,}-line stored game, in process", "≤ 1.5 ms",
        f"{med['replay']['seconds'] * 1000:.2f} ms", f"reading its rows: {med['replay rows']['seconds'] * 1000:.2f} ms",
        f"{med['replay rows']['seconds'] / med['replay']['seconds']:.2f}", "replay")
    for name, label in (("validate uchronia", "Uchronia"), ("validate ti4", "Twilight Imperium")):
        row(f"`validate`, {other_lines:,}-line {label} log", "≥ 0.8 of Merchant of Venus", rate(name),
            f"Merchant of Venus, {other_lines:,} lines: {rate('validate other')}", ratio(name, "validate other"), name)
    peak = max(m["peak_mb"] for task, m in med.items() if task not in CEILINGS_HELD_WHOLE)
    rows.append(f"| peak memory of any of these | ≤ 64 MB | {peak:.0f} MB | | | |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000, help="event lines of the single logs")
    parser.add_argument("--games", type=int, default=20, help="games in the archive")
    parser.add_argument("--game-lines", type=int, default=1000, help="event lines of each archived game")
    parser.add_argument("--other-lines", type=int, help="event lines of the Uchronia and Twilight Imperium logs "
                        "(default: --lines; Uchronia's building check grows with the buildings built, so a "
                        "100,000-line Uchronia log takes minutes)")
    parser.add_argument("--full", action="store_true", help="issue 16's sizes: 1,000,000 lines, 1,000 x 1,000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--postgres", default=os.environ.get("GAMELOG_TEST_POSTGRES"))
    parser.add_argument("--baseline", metavar="DIR", help="another checkout (main's) to measure before/after against, "
                        "interleaved in the same runs")
    parser.add_argument("--child", nargs=3, metavar=("TASK", "LOG", "STORE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    if args.full:
        args.lines, args.games, args.game_lines = 1_000_000, 1000, 1000
    pg = postgres_base(args.postgres)
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as folder:
        other = args.other_lines or args.lines
        paths = write_inputs(folder, args.lines, args.games, args.game_lines, other)
        replay_store = os.path.join(folder, "replay.sqlite")
        measure("import_command", paths["replay"], replay_store)  # the views too: its replay snapshots
        print(f"python tests/benchmarks/bench_targets.py --lines {args.lines} --games {args.games} "
              f"--game-lines {args.game_lines} --other-lines {other} --runs {args.runs}: {args.runs} interleaved runs, medians; "
              f"{cores} core(s); PostgreSQL: {'yes' if pg else 'no'}")
        results: dict[str, list[dict]] = {}
        baseline: dict[str, list[dict]] = {}
        for _ in range(args.runs):  # interleaved, so the machine's noise spreads over every task
            for task, got in run_once(paths, folder, pg, replay_store, other == args.lines).items():
                results.setdefault(task, []).append(got)
            if args.baseline:
                for task, got in run_baseline(paths, folder, pg, os.path.abspath(args.baseline), replay_store).items():
                    baseline.setdefault(task, []).append(got)
    med, before = _medians(results), _medians(baseline)
    print("\n".join(table(med, cores, args.lines, other)))
    if before:
        print(f"\nBefore/after, the baseline {args.baseline} measured in the same runs:")
        print("\n".join(before_after(med, before)))


def _medians(results: dict[str, list[dict]]) -> dict[str, dict]:
    return {task: {key: statistics.median(r[key] for r in runs) for key in ("units", "seconds", "peak_mb")}
            for task, runs in results.items()}


if __name__ == "__main__":
    main()
