"""Benchmark of the command's start-up: what ``gamelog --version`` and ``gamelog --help`` import (issue 32).

Run on demand (not part of the test suite):

    python tests/benchmarks/bench_startup.py              # the median of 7 runs of each
    python tests/benchmarks/bench_startup.py --runs 21 --top 15

Each run is a fresh interpreter under ``python -X importtime``: the import time is the sum of the top-level imports'
cumulative times (what the interpreter's own ``site`` imports included), the target 0.15 s. The slowest imports of
the last run are listed, so that a command module importing more than it uses shows where. What the two may not
import at all is a test (``tests/test_startup.py``), not a time.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TARGET_SECONDS = 0.15
COMMANDS = (["--version"], ["--help"])
_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)$")


def imports(arguments: list[str]) -> list[tuple[int, int, str]]:
    """(cumulative microseconds, depth, module) of every import of one ``gamelog ARGUMENTS`` run."""
    code = f"import sys; from gamelog.cli.main import main; main({arguments!r})"
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=ROOT, capture_output=True, text=True)
    found = []
    for line in done.stderr.splitlines():
        match = _LINE.match(line)
        if match:
            found.append((int(match[2]), len(match[3]) // 2, match[4]))
    return found


def seconds(found: list[tuple[int, int, str]]) -> float:
    """The import time of a run: its top-level imports' cumulative times added up."""
    return sum(cumulative for cumulative, depth, _ in found if depth == 0) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--top", type=int, default=10, help="list this many of the slowest imports")
    options = parser.parse_args()
    for arguments in COMMANDS:
        runs = [imports(arguments) for _ in range(options.runs)]
        median = statistics.median(seconds(found) for found in runs)
        verdict = "within" if median <= TARGET_SECONDS else "OVER"
        print(f"gamelog {' '.join(arguments)}: imports {median:.3f} s (median of {options.runs}; target "
              f"{TARGET_SECONDS} s: {verdict})")
        for cumulative, depth, module in sorted(runs[-1], reverse=True)[:options.top]:
            print(f"  {cumulative / 1e6:.3f} s  {'  ' * depth}{module}")


if __name__ == "__main__":
    main()
