"""A snapshot (stored in a correction's ``StateRestated``, so hashed into the fingerprint) is the same bytes in
every process: a set in the state is written sorted, not in the order the process's hash seed gives it."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.benchmarks.generate import log_bytes, twilight_lines


def test_a_correction_after_three_passes_has_one_fingerprint_whatever_the_hash_seed(tmp_path):
    lines = twilight_lines(2, "ti4-passes")
    passes = [i for i, line in enumerate(lines) if line["type"] == "player_passed"]
    at = passes[2] + 1  # three players have passed: the state's `passed` holds three names
    # Line numbers: the header is line 1, so lines[i] is line i + 1; the correction voids the third pass's turn start.
    lines.insert(at, {"type": "correction", "voids": at - 1, "reason": "the turn was not taken"})
    log = tmp_path / "passes.jsonl"
    log.write_bytes(log_bytes(lines))
    fingerprints = set()
    for seed in ("1", "2", "3", "4", "5", "6"):
        done = subprocess.run([sys.executable, "-m", "gamelog.cli.main", "verify", str(log)], capture_output=True,
                              text=True, env={**os.environ, "PYTHONHASHSEED": seed})
        assert done.returncode == 0, done.stderr
        fingerprints.add(done.stdout.split()[-1])
    assert len(fingerprints) == 1, fingerprints
