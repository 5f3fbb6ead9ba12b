"""Benchmark: peak memory of reading commands on one large stored game.

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_memory.py --events 1000000

A generated legal Merchant of Venus log of ``--events`` events is imported
once into a fresh SQLite store; then each reading command runs, as the CLI
does, in a child process of its own, its output thrown away, and its peak
resident memory (the kernel's high-water mark, `peak.py`) and seconds are printed: ``verify``, ``report
--format json``, ``report`` (text), ``audit``, ``audit --format json`` (every
score entry), ``replay --format json`` and ``replay --line`` of a middle line.
The target (issue 14) is 256 MB at any size. ``--keep DIR`` keeps the log and
the store in DIR and measures that store again on the next run (``--only
COMMAND`` picks commands).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.benchmarks.peak import peak_mb  # noqa: E402

COMMANDS = {
    "import": ["import", "{log}"],
    "verify": ["verify", "bench"],
    "report json": ["report", "bench", "--format", "json", "-o", os.devnull],
    "report text": ["report", "bench", "-o", os.devnull],
    "audit": ["audit", "bench"],
    "audit json": ["audit", "bench", "--format", "json"],
    "replay json": ["replay", "bench", "--format", "json"],
    "replay --line": ["replay", "bench", "--line", "{middle}", "--format", "json"],
}


def child(args: list[str]) -> None:
    """Run one gamelog command in this process (stdout thrown away); print seconds and peak MB as JSON."""
    from gamelog.cli.main import main

    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        saved, sys.stdout = sys.stdout, sink
        try:
            main(args, standalone_mode=False)
        except SystemExit:
            pass
        finally:
            sys.stdout = saved
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "peak_mb": peak_mb()}))


def measure(name: str, args: list[str], store: str) -> dict:
    env = dict(os.environ, GAMELOG_STORE=store)
    out = subprocess.run([sys.executable, __file__, "--child", json.dumps(args)], check=True, capture_output=True,
                         text=True, cwd=ROOT, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--keep", metavar="DIR",
                        help="keep the log and the store in DIR and reuse them when there (the import is not measured then)")
    parser.add_argument("--only", action="append", choices=list(COMMANDS), help="measure only these commands")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(json.loads(args.child))
        return
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        run(args.keep, args.events, args.only)
    else:
        with tempfile.TemporaryDirectory() as workdir:
            run(workdir, args.events, args.only)


def run(workdir: str, events: int, only: list[str] | None) -> None:
    """Write and import the log into ``workdir`` unless it is there already; measure each command."""
    from tests.benchmarks.generate import write_log

    log, store = os.path.join(workdir, "bench.jsonl"), os.path.join(workdir, "bench.sqlite")
    reuse = os.path.exists(store)
    if not reuse:
        with open(log, "wb") as handle:
            write_log(handle, events)
    with open(log, "rb") as handle:
        events = sum(1 for _ in handle) - 1
    print(f"one stored game of {events:,} events ({os.path.getsize(log) / 2**20:.0f} MiB of log); peak resident memory")
    print(f"{'command':<16} {'seconds':>9} {'peak MB':>9}")
    for name, template in COMMANDS.items():
        if (only and name not in only) or (reuse and name == "import"):
            continue
        command = [a.format(log=log, middle=events // 2) for a in template]
        result = measure(name, command, store)
        print(f"{name:<16} {result['seconds']:>9.1f} {result['peak_mb']:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
