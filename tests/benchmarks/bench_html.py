"""Benchmark: the HTML report of a long generated log, its size, peak memory and seconds (issue 23, item 4).

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_html.py                      # 200,000 lines of Merchant of Venus
    python tests/benchmarks/bench_html.py --lines 300000 --games all

For each game asked (``merchant-of-venus`` by default; ``all`` adds a
Uchronia game with its goal out of reach and an endless Twilight Imperium
game, both from ``generate.py``) a legal log of about ``--lines`` lines is
written and imported into a fresh SQLite store; then ``gamelog report
--format html -o FILE`` runs in a child process of its own, once on the
stored game and once on the log file (read as it is reported: its views on
disk, its history decided again for the states), and its peak resident memory
(the kernel's high-water mark, ``peak.py``), its seconds and the page's size are printed beside the
targets: a page of at most 10 MB, and at most 64 MB of memory. The text report
of the log file is measured too, for comparison.

Measured on 2026-12-01 (a shared 2-core machine, load about 8), 200,002 lines of Merchant of Venus:
the page 4.6 MB; peak 52 MB (stored game, 29 s) and 58 MB (log file, 45 s); the text report of the log file
49 MB (it took 220 MB when a log file was read in memory).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

PAGE_TARGET_MB = 10
PEAK_TARGET_MB = 64


def _write(game: str, lines: int, path: str) -> int:
    """Write a legal log of ``game`` of about ``lines`` lines to ``path``; return its lines after the header."""
    from tests.benchmarks.generate import log_bytes, twilight_lines, uchronia_lines, write_log

    with open(path, "wb") as handle:
        if game == "merchant-of-venus":
            return write_log(handle, lines)
        if game == "uchronia":
            log = uchronia_lines(lines // 5 + 1, game_id="bench", threshold=10**9)
        else:
            log = twilight_lines(lines // 35 + 1, game_id="bench", endless=True)
        handle.write(log_bytes(log))
        return len(log) - 1


def measure(args: list[str], store: str) -> dict:
    """One gamelog command in a child process of its own (``bench_memory``'s child): its seconds and peak MB."""
    env = dict(os.environ, GAMELOG_STORE=store)
    out = subprocess.run([sys.executable, str(ROOT / "tests" / "benchmarks" / "bench_memory.py"), "--child",
                          json.dumps(args)], check=True, capture_output=True, text=True, cwd=ROOT, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(workdir: str, game: str, lines: int) -> list[str]:
    log, store = os.path.join(workdir, f"{game}.jsonl"), os.path.join(workdir, f"{game}.sqlite")
    written = _write(game, lines, log)
    measure(["import", log], store)
    rows = []
    for what, target, fmt in (("stored game", "bench", "html"), ("log file", log, "html"), ("log file", log, "text")):
        page = os.path.join(workdir, f"{game}.{fmt}")
        result = measure(["report", target, "--format", fmt, "-o", page], store)
        size = os.path.getsize(page) / 2**20
        ok = "" if fmt != "html" else ("ok" if size <= PAGE_TARGET_MB and result["peak_mb"] <= PEAK_TARGET_MB
                                       else "OVER")
        rows.append(f"| {game} | {written + 1:,} | {what} | {fmt} | {size:.1f} | {result['peak_mb']:.0f} | "
                    f"{result['seconds']:.1f} | {ok} |")
        print(rows[-1], flush=True)
        os.unlink(page)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--games", choices=["merchant-of-venus", "all"], default="merchant-of-venus")
    args = parser.parse_args()
    games = ["merchant-of-venus"] if args.games == "merchant-of-venus" else ["merchant-of-venus", "uchronia",
                                                                              "twilight-imperium-4"]
    print(f"targets: a page of at most {PAGE_TARGET_MB} MB, at most {PEAK_TARGET_MB} MB of memory")
    print("| game | lines | report of | format | output MB | peak MB | seconds | target |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |", flush=True)
    with tempfile.TemporaryDirectory() as workdir:
        for game in games:
            run(workdir, game, args.lines)


if __name__ == "__main__":
    main()
