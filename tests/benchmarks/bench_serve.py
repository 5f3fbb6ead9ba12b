"""Benchmark of the table's recorder (issue 31): ``gamelog serve`` as devices use it, over real HTTP.

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_serve.py                       # SQLite; PostgreSQL too when GAMELOG_TEST_POSTGRES is set
    python tests/benchmarks/bench_serve.py --lines 1000 --entries 200 --streams 8
    python tests/benchmarks/bench_serve.py --sizes 100,1000,5000,20000 --entries 200   # issue 37's table

For each backend: a game of ``--lines`` lines (``generate.write_log``: a legal Merchant of Venus game) is imported,
a ``gamelog serve`` process started on the store, and then:

* **store an entry**: ``--entries`` lines (a player's notes) posted one after the other through
  ``POST /api/games/{id}/lines``, each timed from request to answer: p50 and p99;
* **store to stream**: ``--streams`` devices follow the game (``GET .../stream``), and each of ``--entries // 4``
  more lines is timed from just before its POST to its event's arrival on every stream: p50 and p99 over all;
* **memory**: the server's resident memory (VmRSS) and its peak (VmHWM) with those devices connected.

With ``--sizes``, store-an-entry p50 and p99 at each game length (no streams), and the ceilings of the same run:
the HTTP floor (``GET /api/me``, p50), a bare insert with its commit on the same backend (p50), and the engine kept
in memory deciding a note (mean); then the targets of issue 37: p50 at the longest within 1.5x of p50 at the
shortest, and the share of an entry the store's write and the HTTP floor make together.

Medians and ratios are of one run on a shared, noisy machine: compare runs made together.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.generate import PLAYERS, write_log  # noqa: E402

TOKEN = "the-benchmarks-host-token-0123456789"
GAME = "bench-served"


def _post(url: str, token: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(url, method="POST", data=json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return answer.status, json.loads(answer.read())


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def _memory(pid: int) -> tuple[int, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    return tuple(int(re.search(rf"{key}:\s+(\d+) kB", status).group(1)) // 1024 for key in ("VmRSS", "VmHWM"))


def bench(store: str, lines: int, entries: int, streams: int) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp())
    log = folder / "game.jsonl"
    with log.open("wb") as out:
        write_log(out, lines, GAME)
    subprocess.run([sys.executable, "-m", "gamelog.cli.main", "import", str(log), "--store", store], check=True,
                   capture_output=True)
    server = subprocess.Popen([sys.executable, "-m", "gamelog.cli.main", "serve", "--store", store, "--port", "0"],
                              stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1", "GAMELOG_HOST_TOKEN": TOKEN})
    try:
        url = re.search(r"(http://[^ ]+)", server.stdout.readline()).group(1)
        seats = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"{url}/api/games/{GAME}/seats", headers={"Authorization": f"Bearer {TOKEN}"}), timeout=60).read())["seats"]
        player = PLAYERS[0]
        token = seats[player]["token"]
        post = f"{url}/api/games/{GAME}/lines"
        after = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"{url}/api/games/{GAME}/forms", headers={"Authorization": f"Bearer {token}"}), timeout=60).read())["lines"]
        latencies = []
        for n in range(entries):
            started = time.perf_counter()
            status, answer = _post(post, token, {"line": {"type": "note", "text": f"n{n}", "player": player},
                                                 "after": after})
            latencies.append(time.perf_counter() - started)
            assert status == 201, answer
            after = answer["line"]
        arrived: dict[int, list[float]] = {}
        ready = threading.Barrier(streams + 1)

        def follow(resume: int) -> None:
            request = urllib.request.Request(f"{url}/api/games/{GAME}/stream",
                                             headers={"Authorization": f"Bearer {token}", "Last-Event-ID": str(resume)})
            with urllib.request.urlopen(request, timeout=120) as stream:
                ready.wait()
                for raw in stream:
                    if raw.startswith(b"id:"):
                        line = int(raw[3:])
                        arrived.setdefault(line, []).append(time.perf_counter())
                        if line >= resume + entries // 4:
                            return

        followers = [threading.Thread(target=follow, args=(after,), daemon=True) for _ in range(streams)]
        for thread in followers:
            thread.start()
        if streams:
            ready.wait()
        sent: dict[int, float] = {}
        for n in range(entries // 4 if streams else 0):
            sent[after + 1] = time.perf_counter()
            status, answer = _post(post, token, {"line": {"type": "note", "text": f"s{n}", "player": player},
                                                 "after": after})
            after = answer["line"]
            time.sleep(0.05)  # devices at a table: entries a moment apart
        floor = []
        for _ in range(50):
            started = time.perf_counter()
            urllib.request.urlopen(urllib.request.Request(f"{url}/api/me?game={GAME}", headers={"Authorization": f"Bearer {token}"}),
                                   timeout=60).read()
            floor.append(time.perf_counter() - started)
        rss, peak = _memory(server.pid)
        for thread in followers:
            thread.join(120)
        delays = [t - sent[line] for line, times in arrived.items() if line in sent for t in times]
        store_p50, store_p99 = _percentiles(latencies)
        measured = {"store p50 ms": store_p50 * 1e3, "store p99 ms": store_p99 * 1e3,
                    "http floor ms": statistics.median(floor) * 1e3}
        if streams:
            stream_p50, stream_p99 = _percentiles(delays)
            measured |= {"stream p50 ms": stream_p50 * 1e3, "stream p99 ms": stream_p99 * 1e3,
                         "events seen": len(delays)}
        return measured | {"rss MB": rss, "peak MB": peak}
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(60)


def bare_insert(store: str, times: int = 200) -> float:
    """p50 seconds of one row inserted and committed on the store's backend, outside gamelog: the write's floor."""
    if store.startswith("postgresql://"):
        import psycopg

        conn = psycopg.connect(store.split("?")[0])
        table = f"bench_floor_{uuid.uuid4().hex[:12]}"  # a logged table, as the events': its commit waits for the WAL
        conn.execute(f"CREATE TABLE {table} (game TEXT, version INTEGER, state BYTEA)")
        conn.commit()
    else:
        import sqlite3

        conn = sqlite3.connect(str(Path(tempfile.mkdtemp()) / "floor.sqlite"))
        conn.execute("PRAGMA journal_mode=WAL")
        table = "bench_floor"
        conn.execute(f"CREATE TABLE {table} (game TEXT, version INTEGER, state BLOB)")
        conn.commit()
    samples = []
    for n in range(times):
        started = time.perf_counter()
        conn.execute(f"INSERT INTO {table} VALUES ('g', {n}, 'x')")
        conn.commit()
        samples.append(time.perf_counter() - started)
    if table != "bench_floor":
        conn.execute(f"DROP TABLE {table}")
        conn.commit()
    conn.close()
    return statistics.median(samples)


def decide_in_memory(lines: int = 1000, times: int = 2000) -> float:
    """Mean seconds of the engine kept in memory deciding a note (the decision's own floor)."""
    from gamelog.domain.events import Note
    from gamelog.domain.reader import LogReader

    folder = Path(tempfile.mkdtemp())
    with (folder / "game.jsonl").open("wb") as out:
        write_log(out, lines, GAME)
    reader = LogReader((folder / "game.jsonl").read_bytes())
    engine = reader.rules.engine(reader.header, reader.header_line)
    line = reader.header_line
    for line, event in reader.events():
        engine.record(line, event)
    note = Note(text="n", player=PLAYERS[0])
    started = time.perf_counter()
    for n in range(times):
        engine.record(line + 1 + n, note)
    return (time.perf_counter() - started) / times


def by_size(stores: dict[str, str], sizes: list[int], entries: int) -> None:
    """Issue 37's table: store-an-entry p50 and p99 at each size, each backend, with the ceilings of the run."""
    decide = decide_in_memory()
    print(f"{entries} entries stored at each size; the engine in memory decides a note in {decide * 1e6:.1f} us")
    print("| backend | lines | store p50 ms | store p99 ms | http floor ms | bare insert ms | floor share of p50 |")
    print("| --- " * 7 + "|")
    for name, store in stores.items():
        insert = bare_insert(store)
        p50s = []
        for size in sizes:
            located = (str(Path(tempfile.mkdtemp()) / f"served-{size}.sqlite") if name == "sqlite"
                       else f"{store}_{size}")  # a fresh store (a schema of its own) a size
            row = bench(located, size, entries, 0)
            p50s.append(row["store p50 ms"])
            share = (row["http floor ms"] + insert * 1e3) / row["store p50 ms"]
            print(f"| {name} | {size} | {row['store p50 ms']:.1f} | {row['store p99 ms']:.1f} | "
                  f"{row['http floor ms']:.1f} | {insert * 1e3:.2f} | {share:.0%} |", flush=True)
            if name == "postgresql":
                _drop(located)
        print(f"| {name} | p50 at {sizes[-1]} / p50 at {sizes[0]} | {p50s[-1] / p50s[0]:.2f} |||||")


def _drop(store: str) -> None:
    import psycopg

    with psycopg.connect(store.split("?")[0], autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{store.split("schema=")[1]}" CASCADE')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--streams", type=int, default=8)
    parser.add_argument("--sizes", help="game lengths, comma-separated: issue 37's table (store an entry at each)")
    args = parser.parse_args()
    stores = {"sqlite": str(Path(tempfile.mkdtemp()) / "served.sqlite")}
    if os.environ.get("GAMELOG_TEST_POSTGRES"):
        base = os.environ["GAMELOG_TEST_POSTGRES"].split("?")[0]
        stores["postgresql"] = f"{base}?schema=gl_bench_{uuid.uuid4().hex[:12]}"
    if args.sizes:
        return by_size(stores, [int(size) for size in args.sizes.split(",")], args.entries)
    print(f"{args.lines}-line game, {args.entries} entries stored, {args.streams} streams "
          f"({args.entries // 4} entries followed)")
    print(f"| backend | {' | '.join(['store p50 ms', 'store p99 ms', 'http floor ms', 'stream p50 ms', 'stream p99 ms', 'events seen', 'rss MB', 'peak MB'])} |")
    print("| --- " * 9 + "|")
    for name, store in stores.items():
        row = bench(store, args.lines, args.entries, args.streams)
        print(f"| {name} | " + " | ".join(f"{v:.1f}" if isinstance(v, float) else str(v) for v in row.values()) + " |")
        if name == "postgresql":
            _drop(store)


if __name__ == "__main__":
    main()
