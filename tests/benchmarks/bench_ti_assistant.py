"""Benchmark: convert and import the largest shared TI Assistant export into a fresh store.

    python tests/benchmarks/bench_ti_assistant.py [EXPORT.json] [--runs N]

Each run is what ``gamelog import --from ti-assistant EXPORT.json`` does, in a child process of its own,
on a new temporary SQLite store: conversion (with the converted log's validation), import, and the views
brought up to date. The child times that work; the parent times the whole process (Python start-up and
module imports included). Medians are printed. Without an argument it takes the largest ``../shared/data/real/ti-assistant-*.json``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data" / "real"


def largest_export() -> Path:
    exports = sorted(SHARED.glob("ti-assistant-*.json"), key=lambda p: p.stat().st_size)
    if not exports:
        sys.exit(f"no TI Assistant export in {SHARED}; name one")
    return exports[-1]


CHILD = """
import sys, time
from gamelog.converting import convert_file
from gamelog.sources import open_game_store
from gamelog.projections.importing.importer import import_log
from gamelog.projections.views.keeper import ViewKeeper
start = time.perf_counter()
log, _ = convert_file(sys.argv[1], "ti-assistant")
store = open_game_store(sys.argv[2])
import_log(store, log, sys.argv[1])
ViewKeeper(store).catch_up()
print(time.perf_counter() - start)
"""


def one_run(export: Path) -> tuple[float, float]:
    """(the work, the whole process) in seconds."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        command = [sys.executable, "-c", CHILD, str(export), str(Path(folder) / "store.sqlite")]
        start = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"import failed ({done.returncode}): {done.stderr}")
        return float(done.stdout.strip()), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    export = args.export or largest_export()
    runs = [one_run(export) for _ in range(args.runs)]
    work, whole = [w for w, _ in runs], [p for _, p in runs]
    print(f"{export.name} ({export.stat().st_size:,} bytes), fresh store, {args.runs} runs: convert + import + views "
          f"median {statistics.median(work):.2f} s (min {min(work):.2f} s); whole process with Python start-up "
          f"median {statistics.median(whole):.2f} s")


if __name__ == "__main__":
    main()
