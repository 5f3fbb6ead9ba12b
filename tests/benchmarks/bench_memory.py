"""Benchmark: peak memory of every command on one large log and its stored game.

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_memory.py --events 1000000
    python tests/benchmarks/bench_memory.py --events 1000000 --findings   # a warning every ten lines or so

A generated Merchant of Venus log of ``--events`` events (``--findings``: every
purchase at a price the reference data does not give, a MOV-BUY finding every
ten lines or so; ``generate.py``) is validated and imported into a fresh SQLite
store; then each command runs, as the CLI does, in a child process of its own,
its output thrown away, and its peak resident memory (the kernel's high-water
mark, `peak.py`) and seconds are printed: ``validate`` (text and json),
``import``, ``replay`` (json: the end, a middle line, a middle turn),
``report`` in every format, ``audit`` (text and json), ``audit --player``,
``audit --without`` a middle line, ``verify`` and ``stats``. The target (issue
24) is 64 MB at 1,000,000 lines. ``--keep DIR`` keeps the log and the store in
DIR and measures that store again on the next run (``--only COMMAND`` picks
commands).
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
    "validate": ["validate", "{log}"],
    "validate json": ["validate", "--format", "json", "{log}"],
    "import": ["import", "{log}"],
    "verify": ["verify", "bench"],
    "report text": ["report", "bench", "-o", os.devnull],
    "report markdown": ["report", "bench", "--format", "markdown", "-o", os.devnull],
    "report json": ["report", "bench", "--format", "json", "-o", os.devnull],
    "report csv": ["report", "bench", "--format", "csv", "-o", os.devnull],
    "report html": ["report", "bench", "--format", "html", "-o", os.devnull],
    "audit": ["audit", "bench"],
    "audit json": ["audit", "bench", "--format", "json"],
    "audit --player": ["audit", "bench", "--player", "Human"],
    "audit --without": ["audit", "bench", "--without", "{middle}"],
    "replay json": ["replay", "bench", "--format", "json"],
    "replay --line": ["replay", "bench", "--line", "{middle}", "--format", "json"],
    "replay --turn": ["replay", "bench", "--turn", "{turn}", "--format", "json"],
    "stats": ["stats", "bench"],
    "stats json": ["stats", "bench", "--format", "json"],
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
    out = subprocess.run([sys.executable, __file__, "--child", json.dumps(args)], capture_output=True,
                         text=True, cwd=ROOT, env=env)
    if out.returncode:  # said in the table, and the other commands measured all the same
        return {"seconds": float("nan"), "peak_mb": float("nan"), "failed": out.stderr.strip().splitlines()[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--findings", action="store_true", help="a log with a finding every ten lines or so")
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
        run(args.keep, args.events, args.only, args.findings)
    else:
        with tempfile.TemporaryDirectory() as workdir:
            run(workdir, args.events, args.only, args.findings)


def run(workdir: str, events: int, only: list[str] | None, findings: bool = False) -> None:
    """Write and import the log into ``workdir`` unless it is there already; measure each command."""
    from tests.benchmarks.generate import write_log

    log, store = os.path.join(workdir, "bench.jsonl"), os.path.join(workdir, "bench.sqlite")
    reuse = os.path.exists(store)
    if not reuse:
        with open(log, "wb") as handle:
            write_log(handle, events, findings=findings)
    with open(log, "rb") as handle:
        events = sum(1 for _ in handle) - 1
    kind = "with a finding every ten lines or so" if findings else "every line legal"
    print(f"one log and its stored game of {events:,} lines, {kind} ({os.path.getsize(log) / 2**20:.0f} MiB of log); "
          "peak resident memory")
    print(f"{'command':<16} {'seconds':>9} {'peak MB':>9}")
    for name, template in COMMANDS.items():
        if (only and name not in only) or (reuse and name == "import"):
            continue
        # The generated turns are about five lines: the middle line's turn is about a tenth of the lines.
        command = [a.format(log=log, middle=events // 2, turn=events // 10) for a in template]
        result = measure(name, command, store)
        failed = f"  failed: {result['failed']}" if "failed" in result else ""
        print(f"{name:<16} {result['seconds']:>9.1f} {result['peak_mb']:>9.0f}{failed}", flush=True)


if __name__ == "__main__":
    main()
