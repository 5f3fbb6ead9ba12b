"""Benchmark of the table's recorder (issue 31): ``gamelog serve`` as devices use it, over real HTTP.

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_serve.py                       # SQLite; PostgreSQL too when GAMELOG_TEST_POSTGRES is set
    python tests/benchmarks/bench_serve.py --lines 1000 --entries 200 --streams 8

For each backend: a game of ``--lines`` lines (``generate.write_log``: a legal Merchant of Venus game) is imported,
a ``gamelog serve`` process started on the store, and then:

* **store an entry**: ``--entries`` lines (a player's notes) posted one after the other through
  ``POST /api/games/{id}/lines``, each timed from request to answer: p50 and p99;
* **store to stream**: ``--streams`` devices follow the game (``GET .../stream``), and each of ``--entries // 4``
  more lines is timed from just before its POST to its event's arrival on every stream: p50 and p99 over all;
* **memory**: the server's resident memory (VmRSS) and its peak (VmHWM) with those devices connected.

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
        ready.wait()
        sent: dict[int, float] = {}
        for n in range(entries // 4):
            sent[after + 1] = time.perf_counter()
            status, answer = _post(post, token, {"line": {"type": "note", "text": f"s{n}", "player": player},
                                                 "after": after})
            after = answer["line"]
            time.sleep(0.05)  # devices at a table: entries a moment apart
        rss, peak = _memory(server.pid)
        for thread in followers:
            thread.join(120)
        delays = [t - sent[line] for line, times in arrived.items() if line in sent for t in times]
        store_p50, store_p99 = _percentiles(latencies)
        stream_p50, stream_p99 = _percentiles(delays)
        return {"store p50 ms": store_p50 * 1e3, "store p99 ms": store_p99 * 1e3, "stream p50 ms": stream_p50 * 1e3,
                "stream p99 ms": stream_p99 * 1e3, "events seen": len(delays), "rss MB": rss, "peak MB": peak}
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--streams", type=int, default=8)
    args = parser.parse_args()
    stores = {"sqlite": str(Path(tempfile.mkdtemp()) / "served.sqlite")}
    if os.environ.get("GAMELOG_TEST_POSTGRES"):
        base = os.environ["GAMELOG_TEST_POSTGRES"].split("?")[0]
        stores["postgresql"] = f"{base}?schema=gl_bench_{uuid.uuid4().hex[:12]}"
    print(f"{args.lines}-line game, {args.entries} entries stored, {args.streams} streams "
          f"({args.entries // 4} entries followed)")
    print(f"| backend | {' | '.join(['store p50 ms', 'store p99 ms', 'stream p50 ms', 'stream p99 ms', 'events seen', 'rss MB', 'peak MB'])} |")
    print("| --- " * 8 + "|")
    for name, store in stores.items():
        row = bench(store, args.lines, args.entries, args.streams)
        print(f"| {name} | " + " | ".join(f"{v:.1f}" if isinstance(v, float) else str(v) for v in row.values()) + " |")
        if name == "postgresql":
            import psycopg

            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{store.split("schema=")[1]}" CASCADE')


if __name__ == "__main__":
    main()
