"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``).

Skipped where Chromium is not installed, except under CI, where ``.ci/run``
installs it and the test is required.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from tests.conftest import EXAMPLES, ROOT

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture
def chromium():
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is required when CI is set (.ci/run installs it)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return path


def browse(chromium: str, profile, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("log, players", [("merchant-of-venus/seed-examples.jsonl", 4), ("uchronia/complete-3p.jsonl", 3),
                                          ("twilight-imperium-4/complete-4p.jsonl", 4)])
def test_the_html_report_renders_with_one_chart_line_per_player(chromium, tmp_path, log, players):
    page = tmp_path / "report.html"
    subprocess.run(["python", "-m", "cli.main", "report", str(EXAMPLES / log), "--format", "html", "-o", str(page)],
                   cwd=ROOT, check=True)
    dom = browse(chromium, tmp_path / "profile-dom", "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    console = [line for line in dom.stderr.splitlines() if "CONSOLE" in line]
    assert console == [], console
    assert len(re.findall(r'<polyline class="series"', dom.stdout)) == players
    assert 'class="goal"' in dom.stdout
    shot = tmp_path / "report.png"
    browse(chromium, tmp_path / "profile-shot", "--window-size=1200,1600", f"--screenshot={shot}", page.as_uri())
    assert shot.stat().st_size > 10_000  # a page was painted, not a blank
