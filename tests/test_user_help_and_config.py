"""Help that ships with the package, ``python -m gamelog``, the user's settings file, ``gamelog new``, and what a
new user reads where there is no store (issue 40, section 2)."""

from __future__ import annotations

import json
import multiprocessing
import os
import pty
import re
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from tests.conftest import EXAMPLES, ROOT

TOPICS = ["log-format", "cli", "rules", "serve", "secrets", "python-api", "architecture"]
"""The topics the issue names: each a page of docs/."""


@pytest.fixture
def gamelog(tmp_path, monkeypatch):
    """``gamelog ARGS`` in an empty folder, no GAMELOG_STORE: (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GAMELOG_STORE", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    runner = CliRunner()

    def invoke(*args: str) -> tuple[int, str, str]:
        done = runner.invoke(main, list(args), catch_exceptions=False)
        return done.exit_code, done.stdout, done.stderr

    return invoke


@pytest.fixture
def settings(_no_user_settings):
    """Write the user's settings file (the autouse fixture's empty config home) and return its path."""
    path = _no_user_settings / "gamelog" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)

    def write(text: str):
        path.write_text(text, encoding="utf-8")
        return path

    return write


# --- gamelog help ---------------------------------------------------------------------------------------------


def test_help_with_no_topic_lists_every_topic_with_its_pages_title(gamelog):
    code, out, _ = gamelog("help")
    assert code == 0
    listed = dict(re.findall(r"^  (\S+)\s+(.+)$", out, re.MULTILINE))
    assert set(TOPICS) <= set(listed)
    assert listed["log-format"] == "The log format, version 1"
    assert listed["rules"] == "The rules gamelog checks, by ID"
    assert sorted(listed) == sorted(p.stem for p in (ROOT / "docs").glob("*.md"))  # every page, no other


@pytest.mark.parametrize("topic", TOPICS)
def test_help_topic_prints_the_page_as_written(gamelog, topic):
    code, out, _ = gamelog("help", topic)
    assert code == 0
    assert out == (ROOT / "docs" / f"{topic}.md").read_text(encoding="utf-8") + "\n"


def test_an_unknown_topic_is_an_input_error_naming_the_topics(gamelog):
    code, _, err = gamelog("help", "log-formats")
    assert code == 2
    assert err == ("Error: no help topic 'log-formats'; the topics are: adding-a-game, architecture, cli, log-format, "
                   "python-api, rules, secrets, serve\n")


@pytest.mark.slow  # a child process on a pseudo-terminal
def test_help_is_paged_on_a_terminal(tmp_path):
    """On a terminal the page goes to $PAGER (click's echo_via_pager): here a pager that keeps what it is given."""
    kept = tmp_path / "paged.txt"
    pager = tmp_path / "pager"
    pager.write_text(f"#!/bin/sh\ncat > '{kept}'\n")
    pager.chmod(0o755)
    parent, child = pty.openpty()
    env = {**os.environ, "PAGER": str(pager)}
    process = subprocess.Popen([sys.executable, "-m", "gamelog", "help", "secrets"], cwd=tmp_path, env=env,
                               stdin=child, stdout=child, stderr=subprocess.PIPE)
    os.close(child)
    try:
        while os.read(parent, 1 << 16):
            pass
    except OSError:  # the child closed its end (EIO on Linux)
        pass
    os.close(parent)
    assert process.wait() == 0, process.stderr.read()
    process.stderr.close()
    assert kept.read_text(encoding="utf-8").rstrip("\n") == (ROOT / "docs" / "secrets.md").read_text(
        encoding="utf-8").rstrip("\n")


def test_python_m_gamelog_is_the_command(tmp_path):
    done = subprocess.run([sys.executable, "-m", "gamelog", "--version"], cwd=tmp_path, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "gamelog, version 0.1.0\n")
    done = subprocess.run([sys.executable, "-m", "gamelog", "help", "nope"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert done.returncode == 2 and done.stderr.startswith("Error: no help topic 'nope'")


def test_the_readmes_completion_line_gives_a_completion_script(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'eval "$(_GAMELOG_COMPLETE=bash_source gamelog)"' in readme
    assert ".venv\\Scripts\\activate" in readme and 'pip install -e ".[test]"' in readme
    done = subprocess.run([sys.executable, "-m", "gamelog"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "_GAMELOG_COMPLETE": "bash_source"})
    assert done.returncode == 0 and "complete -o nosort -F _gamelog_completion gamelog" in done.stdout


# --- the settings file ------------------------------------------------------------------------------------------


SEED = str(EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl")


def test_the_settings_store_is_used_where_no_option_nor_environment_names_one(gamelog, settings, tmp_path,
                                                                              monkeypatch):
    kept = tmp_path / "kept" / "games.sqlite"
    kept.parent.mkdir()
    settings(f'store = "{kept}"\n')
    assert gamelog("import", SEED)[0] == 0
    assert kept.exists() and not (tmp_path / "gamelog.sqlite").exists()
    assert [g["id"] for g in json.loads(gamelog("games", "--format", "json")[1])["games"]] == ["seed-examples"]
    # GAMELOG_STORE wins over the file, and --store over both (docs/cli.md, "Settings").
    monkeypatch.setenv("GAMELOG_STORE", "env.sqlite")
    assert gamelog("games")[1].startswith("no games in env.sqlite: ")
    monkeypatch.delenv("GAMELOG_STORE")
    assert gamelog("games", "--store", "given.sqlite")[1].startswith("no games in given.sqlite: ")
    assert gamelog("--store", "given.sqlite", "games")[1].startswith("no games in given.sqlite: ")


def test_a_settings_store_under_the_home_folder(gamelog, settings, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    settings('store = "~/games.sqlite"\n')
    assert gamelog("games")[1].startswith(f"no games in {tmp_path / 'home' / 'games.sqlite'}: ")


def test_the_settings_color_styles_output_unless_a_command_says_otherwise(gamelog, settings):
    disputed = str(EXAMPLES / "merchant-of-venus" / "disputed.jsonl")
    assert "\x1b[" not in gamelog("audit", disputed)[1]  # auto, and CliRunner's stdout is no terminal
    settings('color = "always"\n')
    assert "\x1b[31m" in gamelog("audit", disputed)[1]  # a violation in red
    assert "\x1b[" not in gamelog("--color", "never", "audit", disputed)[1]
    assert "\x1b[" not in gamelog("audit", disputed, "--color", "never")[1]


def test_the_settings_serve_address_is_serves_default(gamelog, settings):
    settings('[serve]\nhost = "0.0.0.0"\nport = 9123\n')
    out = " ".join(gamelog("serve", "--help")[1].split())
    assert "[default: 0.0.0.0]" in out and "[default: 9123;" in out


@pytest.mark.parametrize("text, message", [
    ("store = 3\n", "Expected `str | null`, got `int` - at `store`"),
    ('colour = "never"\n', "Object contains unknown field `colour`"),
    ('color = "red"\n', "Invalid enum value 'red' - at `color`"),
    ("[serve]\nport = 70000\n", "Expected `int` <= 65535 - at `serve.port`"),
    ("store = \n", "not TOML: Invalid value (at line 1, column 9)"),
])
def test_a_settings_file_gamelog_cannot_use_stops_the_command_naming_the_file_and_the_setting(gamelog, settings,
                                                                                            text, message):
    path = settings(text)
    code, _, err = gamelog("games")
    assert code == 2
    assert err == (f"Error: {path}: {message}; it takes store = \"PATH|URL\", color = \"auto|always|never\", and "
                   "[serve] host = \"ADDRESS\", port = NUMBER\n")


def test_a_settings_folder_that_cannot_be_entered_holds_no_settings(gamelog, tmp_path, monkeypatch):
    """$XDG_CONFIG_HOME a file (or a folder this account may not enter): no settings file can be there, so none is
    read, and the command runs (one run as another user, such as a service's, is not stopped by it)."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocked))
    code, out, err = gamelog("games")
    assert (code, err) == (0, "") and out.startswith("no games in gamelog.sqlite: ")


def test_a_settings_file_that_cannot_be_read_says_so(gamelog, settings):
    path = settings("")
    path.unlink()
    path.mkdir()  # there, but a folder: it cannot be read as a file
    code, _, err = gamelog("games")
    assert code == 2 and err.startswith(f"Error: {path}: cannot be read (Is a directory); fix it or remove it")


def test_version_and_help_read_no_settings(gamelog, settings):
    settings("store = 3\n")
    assert gamelog("--version")[0] == 0 and gamelog("--help")[0] == 0 and gamelog("help")[0] == 2


def test_games_where_there_is_no_store_says_where_it_looked(gamelog, _no_user_settings, tmp_path):
    code, out, _ = gamelog("games")
    assert code == 0
    assert out == (f"no games in gamelog.sqlite: there is no store at {tmp_path / 'gamelog.sqlite'}. A command's "
                   f"store is its --store, else GAMELOG_STORE, else the store setting of "
                   f"{_no_user_settings / 'gamelog' / 'config.toml'}, else gamelog.sqlite in the current folder; "
                   "gamelog import LOG makes one.\n")
    assert not (tmp_path / "gamelog.sqlite").exists()


# --- gamelog new ---------------------------------------------------------------------------------------------


def test_new_prints_a_header_with_every_setup_field_at_its_default(gamelog, tmp_path):
    import datetime

    code, out, _ = gamelog("new", "uchronia", "--players", "Ann, Ben,Cy", "--id", "friday")
    assert code == 0
    today = datetime.date.today().isoformat()
    assert json.loads(out) == {"type": "game", "game": "uchronia", "id": "friday", "players": ["Ann", "Ben", "Cy"],
                               "at": today, "setup": {"last_turn_card": None, "threshold": None, "forum": [],
                                                      "operations_limit": 2}}
    (tmp_path / "game.jsonl").write_text(out, encoding="utf-8")
    code, validated, _ = gamelog("validate", "game.jsonl")
    assert code == 0 and validated.endswith("game.jsonl: no findings\n")
    assert json.loads(gamelog("new", "merchant-of-venus", "--players", "Ann,Ben")[1])["id"] == \
        f"merchant-of-venus-{today}"


def test_new_takes_setup_values_and_one_players_entry(gamelog):
    code, out, _ = gamelog("new", "twilight-imperium-4", "--players", "Ann,Ben", "--setup", "factions.Ann=Hacan",
                           "--setup", "factions.Ben=Sol", "--setup", "vp_goal=14", "--setup", 'expansions=["pok"]')
    assert code == 0, out
    setup = json.loads(out)["setup"]
    assert setup["factions"] == {"Ann": "Hacan", "Ben": "Sol"} and setup["vp_goal"] == 14
    assert setup["expansions"] == ["pok"] and setup["fleet_tokens"] == 3  # the others at their defaults


@pytest.mark.parametrize("arguments, message", [
    (["uchronia", "--players", "Ann,Ann"], "Error: new:1: player names must be unique at $.players\n"),
    (["uchronia", "--players", "Ann", "--setup", "thresh=3"],
     "Error: uchronia has no setup field thresh; its setup fields are: last_turn_card, threshold, forum, "
     "operations_limit\n"),
    (["uchronia", "--players", "Ann", "--setup", "threshold=0"],
     "Error: new:1: Expected `int` >= 1 at $.setup.threshold\n"),
])
def test_new_refuses_what_would_not_be_a_valid_header(gamelog, arguments, message):
    code, out, err = gamelog("new", *arguments)
    assert (code, out, err) == (2, "", message)


def test_new_says_a_game_that_needs_a_value_per_player_needs_it(gamelog):
    code, out, err = gamelog("new", "twilight-imperium-4", "--players", "Ann,Ben")
    assert code == 2 and out == ""
    assert err.startswith("Error: new:1: Ann has no faction") and err.rstrip().endswith("at $.setup.factions.Ann")


def test_new_names_the_games_it_knows(gamelog):
    code, _, err = gamelog("new", "chess", "--players", "Ann")
    assert code == 2
    assert "'chess' is not one of 'merchant-of-venus', 'twilight-imperium-4', 'uchronia'" in err


# --- several logs in one import, on any platform ------------------------------------------------------------


def test_the_import_workers_start_as_the_platform_can(monkeypatch):
    from gamelog.projections.importing.archive import worker_context

    if "forkserver" in multiprocessing.get_all_start_methods():
        assert worker_context().get_start_method() == "forkserver"
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])  # as on Windows
    assert worker_context().get_start_method() == "spawn"


@pytest.mark.slow  # worker processes, each a fresh interpreter
def test_several_logs_import_with_spawned_workers(gamelog, monkeypatch):
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])  # as on Windows
    logs = sorted(str(p) for p in (EXAMPLES / "uchronia").glob("*.jsonl"))
    assert len(logs) >= 3
    code, out, err = gamelog("import", *logs)
    assert code == 0, err
    listed = json.loads(gamelog("games", "--format", "json")[1])["games"]
    assert len(listed) == len(logs)


# --- from a wheel, outside the checkout ---------------------------------------------------------------------


@pytest.mark.slow  # the wheel is built and installed into a fresh virtual environment
def test_a_wheel_in_a_fresh_venv_carries_the_manual_and_python_m_gamelog(tmp_path_factory):
    from tests.test_packaging import build_wheel

    wheel = build_wheel(tmp_path_factory)
    where = tmp_path_factory.mktemp("fresh")
    env_dir = where / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # This environment's pip, installing for the fresh one's interpreter (its scripts, its site-packages).
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
                    str(wheel)], check=True, capture_output=True)
    # The dependencies (click, msgspec...) are this environment's: its site-packages, after the fresh one's own.
    deps = [sysconfig.get_path("purelib"), sysconfig.get_path("platlib")]
    (Path(purelib) / "zz-deps.pth").write_text("\n".join(dict.fromkeys(deps)) + "\n")
    folder = tmp_path_factory.mktemp("elsewhere")
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GAMELOG_STORE")}

    def run(*command: str) -> subprocess.CompletedProcess:
        return subprocess.run(list(command), cwd=folder, env=clean, capture_output=True, text=True)

    located = run(str(python), "-c", "import gamelog.manual as m; print(m.__file__)")
    assert located.stdout.startswith(purelib), located
    done = run(str(env_dir / "bin" / "gamelog"), "help", "log-format")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (ROOT / "docs" / "log-format.md").read_text(encoding="utf-8") + "\n"
    version = run(str(python), "-m", "gamelog", "--version")
    assert (version.returncode, version.stdout) == (0, "gamelog, version 0.1.0\n")
    listed = run(str(python), "-m", "gamelog", "help")
    assert all(f"  {topic} " in listed.stdout for topic in TOPICS)
