"""Benchmark of a tournament on one recorder (issue 37): one ``gamelog serve``, many games, every seat streaming.

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_tournament.py                     # 20 games x 4 seats, 500-line games, SQLite
    python tests/benchmarks/bench_tournament.py --games 5 --lines 200 --pace 2 --burst 20

Each game (``generate.write_log``: a legal Merchant of Venus game of ``--lines`` lines) is imported, a server started
on the store, and each game's four seats open a stream. Then:

* **at a table's pace**: each game's first seat posts a note every ``--pace`` seconds (its own thread), ``--entries``
  of them: store p50/p99 (request to answer) and append-to-every-other-stream p99 (from just before the POST to the
  line's event on each of the game's other three streams);
* **as fast as they come**: every game posts ``--burst`` notes back to back, all games at once: entries stored a
  second (409s, entries that lost a race, counted apart);
* the server's resident memory (VmRSS) and peak (VmHWM).

Issue 37's targets: at a table's pace p99 store <= 100 ms and p99 append-to-every-other-stream <= 500 ms; >= 200
entries/s stored at full speed on SQLite; RSS <= 150 MB. One run on a shared machine: compare runs made together.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_serve import TOKEN, _memory, _percentiles  # noqa: E402
from tests.benchmarks.generate import PLAYERS, write_log  # noqa: E402


def _call(url: str, token: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, method="GET" if body is None else "POST",
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--lines", type=int, default=500)
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between a game's entries at a table's pace")
    parser.add_argument("--entries", type=int, default=10, help="entries a game at a table's pace")
    parser.add_argument("--burst", type=int, default=25, help="entries a game as fast as they come")
    parser.add_argument("--store", help="a store location (default: a new SQLite file)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    store = args.store or str(folder / "tournament.sqlite")
    ids = [f"table-{n}" for n in range(args.games)]
    for game in ids:
        with (folder / f"{game}.jsonl").open("wb") as out:
            write_log(out, args.lines, game)
    subprocess.run([sys.executable, "-m", "gamelog.cli.main", "import", *[str(folder / f"{g}.jsonl") for g in ids],
                    "--store", store], check=True, capture_output=True)
    server = subprocess.Popen([sys.executable, "-m", "gamelog.cli.main", "serve", "--store", store, "--port", "0"],
                              stdout=subprocess.PIPE, text=True,  # the secret from the environment, never argv
                              env={**os.environ, "PYTHONUNBUFFERED": "1", "GAMELOG_HOST_TOKEN": TOKEN})
    try:
        url = re.search(r"(http://[^ ]+)", server.stdout.readline()).group(1)
        seats = {game: _call(f"{url}/api/games/{game}/seats", TOKEN)[1]["seats"] for game in ids}
        arrived: dict[tuple[str, int], list[float]] = {}
        lock = threading.Lock()
        ready = threading.Barrier(len(ids) * len(PLAYERS) + 1)
        stop = threading.Event()

        def follow(game: str, player: str) -> None:
            after = _call(f"{url}/api/games/{game}/forms", seats[game][player]["token"])[1]["lines"]
            request = urllib.request.Request(f"{url}/api/games/{game}/stream", headers={
                "Authorization": f"Bearer {seats[game][player]['token']}", "Last-Event-ID": str(after)})
            with urllib.request.urlopen(request, timeout=600) as stream:
                ready.wait()
                for raw in stream:
                    if raw.startswith(b"id:"):
                        with lock:
                            arrived.setdefault((game, int(raw[3:])), []).append(time.perf_counter())
                    if stop.is_set():
                        return

        for game in ids:
            for player in PLAYERS:
                threading.Thread(target=follow, args=(game, player), daemon=True).start()
        ready.wait()
        stored: list[float] = []
        sent: dict[tuple[str, int], float] = {}

        def play(game: str, entries: int, pace: float, counts: dict[str, int]) -> None:
            token = seats[game][PLAYERS[0]]["token"]
            after = _call(f"{url}/api/games/{game}/forms", token)[1]["lines"]
            for n in range(entries):
                started = time.perf_counter()
                status, answer = _call(f"{url}/api/games/{game}/lines", token,
                                       {"line": {"type": "note", "text": f"n{n}", "player": PLAYERS[0]}, "after": after})
                took = time.perf_counter() - started
                with lock:
                    counts[str(status)] = counts.get(str(status), 0) + 1
                    if status == 201:
                        stored.append(took)
                        sent[(game, answer["line"])] = started
                after = answer["lines"] if status == 409 else answer.get("line", after)
                if pace:
                    time.sleep(pace)

        def everyone(entries: int, pace: float) -> tuple[float, dict[str, int]]:
            counts: dict[str, int] = {}
            players = [threading.Thread(target=play, args=(game, entries, pace, counts)) for game in ids]
            started = time.perf_counter()
            for thread in players:
                thread.start()
            for thread in players:
                thread.join()
            return time.perf_counter() - started, counts

        everyone(args.entries, args.pace)
        time.sleep(2)  # the last lines reach the streams
        with lock:
            delays = [max(times) - sent[key] for key, times in arrived.items() if key in sent and len(times) >= 3]
        store_p50, store_p99 = _percentiles(stored)
        stream_p50, stream_p99 = _percentiles(delays)
        print(f"{args.games} games x {len(PLAYERS)} streams, {args.lines}-line games; at a table's pace "
              f"({args.entries} entries a game, one every {args.pace:g} s):")
        print(f"  store p50 {store_p50 * 1e3:.1f} ms, p99 {store_p99 * 1e3:.1f} ms; append to every stream of the game "
              f"p50 {stream_p50 * 1e3:.1f} ms, p99 {stream_p99 * 1e3:.1f} ms ({len(delays)} lines seen on all)")
        stored.clear()
        took, counts = everyone(args.burst, 0)
        print(f"  as fast as they come ({args.burst} entries a game, all games at once): "
              f"{counts.get('201', 0) / took:.0f} entries/s stored; answers {counts}")
        rss, peak = _memory(server.pid)
        print(f"  server memory: {rss} MB resident, peak {peak} MB")
        stop.set()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(60)


if __name__ == "__main__":
    main()
