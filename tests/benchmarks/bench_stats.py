"""Benchmark of ``gamelog stats`` (issue 20): an archive of 10,000 Twilight Imperium games of about 300 lines each.

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_stats.py                  # 10,000 games: the archive takes long to build, once
    python tests/benchmarks/bench_stats.py --games 500      # a smaller archive, for a quick look
    python tests/benchmarks/bench_stats.py --dir DIR        # where the archive is kept (default /tmp/gamelog-bench-stats)

The archive is built once and kept (``DIR/<games>/store.sqlite``, its logs
deleted once imported); later runs only time ``stats``. Each game is
``generate.twilight_lines(8)`` (8 rounds of a legal four-player game: picks,
Trade, passes, reveals) with factions drawn from 12 and one public objective
scored in each status phase, by a player that turns with the game's number:
291 lines of play and 8 scores.

It prints the import's time (when it built the archive), and for ``stats``
(the JSON document of every game, the default text, an --explain, runs with
per-game filters: a faction, a faction and a player, a player of every game,
100 game ids; and the HTML page), each run in a child process of its own: the wall time of the
whole command (Python's start included), the service call's own time, and
the child's peak memory (``ru_maxrss``). Targets: under 1 s and under 64 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

FACTIONS = ["The Emirates of Hacan", "Federation of Sol", "Arborec", "Barony of Letnev", "Clan of Saar",
            "Embers of Muaat", "Ghosts of Creuss", "L1Z1X Mindnet", "Mentak Coalition", "Naalu Collective",
            "Sardakk N'orr", "Universities of Jol-Nar"]


def game_lines(n: int) -> list[dict]:
    """Game ``n`` of the archive: ``twilight_lines(8)`` with its own factions and a public objective scored a round."""
    from tests.benchmarks.generate import twilight_lines

    lines = twilight_lines(8, f"ti4-bench-{n:05d}")
    players = lines[0]["players"]
    lines[0]["setup"]["factions"] = {p: FACTIONS[(n * 5 + 7 * i) % len(FACTIONS)] for i, p in enumerate(players)}
    out: list[dict] = []
    revealed: list[str] = []
    rounds = 0
    for line in lines:
        out.append(line)
        if line["type"] == "objective_revealed":
            revealed.append(line["objective"])
        if line["type"] == "phase_started" and line["phase"] == "status":
            rounds += 1
            player = players[(n + rounds) % len(players)]
            objective = revealed[min(rounds, len(revealed)) - 1]
            out.append({"type": "objective_scored", "player": player, "objective": objective, "kind": "public",
                        "points": 2 if objective not in revealed[:2] and rounds > 5 else 1})
    return out


def build(folder: Path, games: int) -> float:
    """Write the archive's logs, import them with one ``gamelog import`` command; return its seconds."""
    from tests.benchmarks.generate import log_bytes

    logs = folder / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in range(games):
        path = logs / f"{n:05d}.jsonl"
        path.write_bytes(log_bytes(game_lines(n)))
        paths.append(str(path))
    store = folder / "store.sqlite"
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gamelog.cli.main", "import", "--store", str(store), *paths],
                          capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"import failed ({done.returncode}): {done.stderr[-2000:]}")
    shutil.rmtree(logs)
    (folder / "built").write_text(json.dumps({"games": games, "import_seconds": seconds}))
    return seconds


def child(store: str, args: list[str]) -> None:
    """Run ``stats`` with ``args`` in this process; print the service's seconds, the peak memory and the output size."""
    import io
    from contextlib import redirect_stdout

    from click.testing import CliRunner  # noqa: F401  (imported before timing, as the CLI's own modules)

    import gamelog.cli.main
    import gamelog.stats  # noqa: F401

    out = io.StringIO()
    started = time.perf_counter()
    with redirect_stdout(out):
        try:
            gamelog.cli.main.main(["stats", "--store", store, *args], standalone_mode=False)
        except SystemExit:
            pass
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "chars": len(out.getvalue())}))


def measure(store: str, args: list[str]) -> dict:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--child", store, *args], capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"stats {' '.join(args)} failed: {done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["wall"] = wall
    return result


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--dir", default="/tmp/gamelog-bench-stats")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    folder = Path(options.dir) / str(options.games)
    if not (folder / "built").exists():
        print(f"building an archive of {options.games:,} games in {folder} (once)...", flush=True)
        build(folder, options.games)
    built = json.loads((folder / "built").read_text())
    store = str(folder / "store.sqlite")
    print(f"archive: {built['games']:,} Twilight Imperium games, "
          f"{sum(len(l) for l in [game_lines(0)]) - 1} lines each (game 0); "
          f"imported in {built['import_seconds']:.0f} s; store {os.path.getsize(store) / 1e6:.0f} MB")
    print(f"{'stats':<44} {'wall s':>7} {'call s':>7} {'peak MB':>8}")
    ids = [f"ti4-bench-{n:05d}" for n in range(0, built["games"], max(built["games"] // 100, 1))]
    for args in (["--format", "json"], [], ["--explain", "factions/Arborec/wins", "--format", "json"],
                 ["--players", "4", "--faction", "Arborec", "--format", "json"],
                 ["--faction", "Arborec", "--player", "Ann", "--format", "json"],
                 ["--player", "Bob", "--format", "json"],  # every game: the sums, less no game
                 [*ids, "--format", "json"],
                 ["--format", "html"]):
        runs = [measure(store, args) for _ in range(options.runs)]
        best = min(runs, key=lambda r: r["wall"])
        label = (" ".join(args) or "(text)") if len(args) < 10 else f"{len(ids)} game ids {' '.join(args[len(ids):])}"
        print(f"{label:<44} {best['wall']:>7.2f} {best['seconds']:>7.2f} {max(r['peak_mb'] for r in runs):>8.1f}")
    print("targets: under 1 s and under 64 MB")


if __name__ == "__main__":
    main()
