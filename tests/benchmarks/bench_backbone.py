"""Benchmark: events/s and peak memory of ``validate`` and ``import`` on a generated log.

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_backbone.py --events 1000000 --runs 3
    python tests/benchmarks/bench_backbone.py --events 1000000 --runs 3 --baseline ../gamelog-before

Each measurement runs in a child process of its own, so its peak resident
memory (the kernel's high-water mark, ``peak.py``) is its own. Medians of the runs are printed, and the
ratio to plain msgspec decoding of the same file, the ceiling for reading.

``corrected`` imports the same log with a correction at its end that voids a
line 20 lines before it: what deciding again from the latest checkpoint costs
on a long log. ``--baseline DIR`` (a checkout of an earlier commit, e.g.
``git worktree add ../gamelog-before COMMIT``) measures its ``validate`` and
``import`` in the same interleaved runs, for a before/after comparison.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.benchmarks.peak import peak_mb  # noqa: E402


def child(task: str, log: str, store: str) -> None:
    """Do one task in this process and print its seconds and peak memory as JSON."""
    task, _, root = task.partition("@")
    if root:  # an earlier checkout's code, for a before/after comparison
        sys.path.insert(0, root)
    start = time.perf_counter()
    if task == "decode":
        import msgspec

        decoder = msgspec.json.Decoder()
        with open(log, "rb") as handle:
            for line in handle:
                decoder.decode(line)
    elif task == "validate":
        try:
            from gamelog.projections.reports.validation import check_file
        except ImportError:  # a checkout from before validate's document had a module of its own
            from gamelog.cli.validate import check_file  # type: ignore[no-redef]

        result = check_file(log)
        if isinstance(result, dict):  # a checkout from before the documents were typed
            assert not result["errors"] and not result["findings"], (result["errors"][:3], result["findings"][:3])
        else:
            assert not result.errors and not result.findings, (result.errors[:3], result.findings[:3])
    elif task in ("import", "corrected"):
        try:
            from gamelog.projections.importing.importer import Outcome, import_log
            from gamelog.projections.store.application import GameStore
        except ImportError:  # a checkout from before the store and the importer had packages of their own
            from gamelog.projections.importer import Outcome, import_log  # type: ignore[no-redef]
            from gamelog.projections.store import GameStore  # type: ignore[no-redef]

        with open(log, "rb") as handle:
            result = import_log(GameStore(store), handle, log)
        assert result.outcome is Outcome.IMPORTED, result
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "peak_mb": peak_mb()}))


def measure(task: str, log: str, workdir: str, run: int) -> dict:
    store = os.path.join(workdir, f"bench-{task.partition('@')[0]}-{'base' if '@' in task else 'now'}-{run}.sqlite")
    out = subprocess.run([sys.executable, __file__, "--child", task, log, store], check=True,
                         capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", metavar="DIR", help="an earlier checkout to measure validate and import of too")
    parser.add_argument("--child", nargs=3, metavar=("TASK", "LOG", "STORE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    from tests.benchmarks.generate import write_log

    with tempfile.TemporaryDirectory() as workdir:
        log = os.path.join(workdir, "bench.jsonl")
        with open(log, "wb") as handle:
            events = write_log(handle, args.events)
        corrected = os.path.join(workdir, "corrected.jsonl")
        with open(log, "rb") as source, open(corrected, "wb") as handle:
            lines = sum(1 for _ in source)
            source.seek(0)
            handle.write(source.read())
            handle.write(json.dumps({"type": "correction", "voids": lines - 20, "reason": "bench"}).encode() + b"\n")
        print(f"log: {events:,} events, {os.path.getsize(log) / 2**20:.0f} MiB; {args.runs} runs, medians")
        tasks = ["decode", "validate", "import", "corrected"]
        if args.baseline:
            tasks += [f"validate@{os.path.abspath(args.baseline)}", f"import@{os.path.abspath(args.baseline)}"]
        results: dict[str, list[dict]] = {t: [] for t in tasks}
        for run in range(args.runs):  # interleaved, so machine noise spreads over every task
            for task in results:
                results[task].append(measure(task, corrected if task == "corrected" else log, workdir, run))
        ceiling = statistics.median(r["seconds"] for r in results["decode"])
        print(f"{'task':<18} {'events/s':>12} {'seconds':>9} {'peak MB':>9} {'vs decode':>10}")
        for task, runs in results.items():
            seconds = statistics.median(r["seconds"] for r in runs)
            peak = statistics.median(r["peak_mb"] for r in runs)
            name = task.replace(f"@{os.path.abspath(args.baseline)}", " (baseline)") if args.baseline else task
            print(f"{name:<18} {events / seconds:>12,.0f} {seconds:>9.2f} {peak:>9.0f} {ceiling / seconds:>10.2f}")


if __name__ == "__main__":
    main()
