"""Every command that takes more than a second shows progress from its start, on a terminal only (issue 32).

``verify`` (49 s) and ``audit --without`` (41 s) of a 200,000-line log showed none, and ``report`` was blank for 7 s
before its bar: the log's reading had none. Here each command runs in a child whose stderr is a terminal (a
pseudo-terminal of 120 columns) with the thresholds lowered to the example logs (``PROGRESS_FROM_BYTES`` 1,
``PROGRESS_FROM_LINES`` 1), so the bars the long work would show are shown, in order; with stderr a pipe, none is.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pytest

from tests.conftest import EXAMPLES

TI = str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl")

CHILD = """
import importlib, sys
importlib.import_module("gamelog.progress")
sys.modules["gamelog.progress"].PROGRESS_FROM_BYTES = 1
for name in ("gamelog.auditing", "gamelog.reporting", "gamelog.verifying"):
    importlib.import_module(name).PROGRESS_FROM_LINES = 1
from gamelog.cli.main import main
main(sys.argv[1:])
"""


def _run(arguments: list[str], cwd, terminal: bool) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``gamelog ARGUMENTS`` in a child, its stderr a terminal or a pipe."""
    if not terminal:
        done = subprocess.run([sys.executable, "-c", CHILD, *arguments], cwd=cwd, capture_output=True, text=True)
        return done.returncode, done.stdout, done.stderr
    parent, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    process = subprocess.Popen([sys.executable, "-c", CHILD, *arguments], cwd=cwd, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=child)
    os.close(child)
    said = b""
    while True:
        try:
            chunk = os.read(parent, 1 << 16)
        except OSError:  # the child closed its end (EIO on Linux)
            break
        if not chunk:
            break
        said += chunk
    out = process.stdout.read().decode()
    process.stdout.close()
    os.close(parent)
    return process.wait(), out, said.decode(errors="replace")


def _bars(said: str) -> list[str]:
    """The labels of the bars shown, in order, each once it reached 100%."""
    return re.findall(r"([a-z][^\r\n\[]*?)\s+\[[#-]*\]\s+100%", said.replace("\x1b[?25l", "").replace("\x1b[?25h", ""))


@pytest.mark.parametrize("arguments, bars", [
    (["audit", TI, "--without", "281"], ["reading", "deciding"]),
    (["audit", TI], ["reading"]),
    (["replay", TI, "--turn", "3"], ["reading"]),
    (["verify", TI], ["reading"]),
    (["report", TI, "-o", "report.txt"], ["reading", "reporting"]),
    (["validate", TI], ["checking"]),
    (["validate", "--format", "json", TI, TI], ["checking"]),
])
def test_a_long_command_on_a_terminal_shows_each_step_from_its_start(arguments, bars, tmp_path):
    code, out, said = _run(arguments, tmp_path, terminal=True)
    assert code in (0, 1), said
    shown = _bars(said)
    assert list(dict.fromkeys(label.split()[0] for label in shown)) == bars, said
    assert all(TI in label or "ti4-complete-4p" in label or "complete-4p.jsonl" in label for label in shown)
    assert "%" not in out  # the bars go to stderr, never into what the command prints
    _, piped_out, piped = _run(arguments, tmp_path, terminal=False)
    assert "%" not in piped and piped_out == out  # no terminal: no bar, the same output


def test_verify_of_a_stored_game_shows_its_views_derived_again(tmp_path):
    store = str(tmp_path / "s.sqlite")
    assert _run(["import", TI, "--store", store], tmp_path, terminal=False)[0] == 0
    code, out, said = _run(["verify", "ti4-complete-4p", "--store", store], tmp_path, terminal=True)
    assert code == 0 and "intact" in out, out + said
    assert [label.split()[0] for label in _bars(said)] == ["verifying"]
