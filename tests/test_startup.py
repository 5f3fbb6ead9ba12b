"""``gamelog --version`` and ``gamelog --help`` import only what they need (issue 32, section 6).

They took 0.47 s of imports: every command's module, and through them the services, msgspec and eventsourcing.
The group now imports a command's module when that command runs, and its ``--help`` reads each command's summary
from the module's source. What is imported is checked here, in a fresh interpreter; how long it takes is the
benchmark's (``tests/benchmarks/bench_startup.py``, target 0.15 s), never a test's.
"""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from gamelog.cli.main import COMMANDS, main
from tests.conftest import ROOT

HEAVY = ("eventsourcing", "msgspec", "sqlite3", "psycopg", "gamelog.domain", "gamelog.projections.store",
         "gamelog.projections.views", "gamelog.projections.importing", "gamelog.errors", "gamelog.sources",
         "gamelog.game", "gamelog.stores")
"""What neither may import: the libraries the commands use, the floors, the services."""


def _imported(arguments: list[str], tmp_path) -> tuple[list[str], str]:
    """The modules a fresh ``gamelog ARGUMENTS`` imported (of gamelog, and of the heavy libraries), and its output."""
    listing = tmp_path / "modules.json"
    code = f"""
import atexit, json, sys
atexit.register(lambda: open({str(listing)!r}, "w").write(json.dumps(sorted(sys.modules))))
from gamelog.cli.main import main
main({arguments!r})
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(listing.read_text()), done.stdout


@pytest.mark.parametrize("arguments", [["--version"], ["--help"]])
def test_version_and_help_import_no_command_no_service_and_no_heavy_library(arguments, tmp_path):
    modules, out = _imported(arguments, tmp_path)
    assert out.strip()
    heavy = [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert heavy == []
    assert [m for m in modules if m.startswith("gamelog.cli.")] == ["gamelog.cli.main", "gamelog.cli.terminal"]
    # ... and nothing of the reports' floor: cli.terminal asks the services' layout (gamelog.formats) for the width
    # and the styles only when a command runs.
    assert [m for m in modules if m.startswith("gamelog.projections.")] == []


def test_a_command_imports_its_own_module_and_no_other_commands(tmp_path):
    modules, out = _imported(["schema", "log"], tmp_path)
    assert json.loads(out)["title"]
    commands = {f"gamelog.cli.{where.split(':')[0]}" for where in COMMANDS.values()}
    assert sorted(m for m in modules if m in commands) == ["gamelog.cli.catalog"]


def test_the_groups_help_lists_each_command_as_its_own_help_says():
    listed = CliRunner().invoke(main, ["--help"]).stdout.split("Commands:\n", 1)[1]
    ctx = click.Context(main)
    imported = click.Group("gamelog", commands=[main.get_command(ctx, name) for name in COMMANDS])
    # What click lists of the commands themselves, once imported: the same lines, read without importing them.
    assert listed == CliRunner().invoke(imported, ["--help"]).stdout.split("Commands:\n", 1)[1]
    assert [line.split()[0] for line in listed.splitlines()] == sorted(COMMANDS)


def test_every_command_still_runs_and_shows_its_help():
    for name in COMMANDS:
        result = CliRunner().invoke(main, [name, "--help"], prog_name="gamelog")
        assert result.exit_code == 0 and f"Usage: gamelog {name}" in result.stdout, name
        assert "--color [auto|always|never]" in result.stdout, name  # the group's --color, after the command too


def test_the_benchmark_measures_both_with_importtime():
    text = (ROOT / "tests" / "benchmarks" / "bench_startup.py").read_text(encoding="utf-8")
    assert '"-X", "importtime"' in text and "TARGET_SECONDS = 0.15" in text
