"""How commands end (issue 14 items 12, 14, 18, 19): interrupted, on a read-only store, on a closed pipe, on a bug.

* Ctrl-C during an import says exactly what was stored and exits 130; the
  views are caught up or ``projections status`` says they are behind.
* ``games``, ``replay``, ``report``, ``audit`` and ``verify`` work on a store
  the user may not write: a read-only file, or a read-only folder. Run as
  root, the commands run in a child that has dropped CAP_DAC_OVERRIDE (root
  may write anything otherwise): still root, it reads the checkout wherever it
  lives (a folder only root may read, too).
* A closed output pipe ends a command quietly (exit 141, nothing on stderr).
* An unexpected exception is a bug: exit 70, said to be one.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.projections.importing.importer import import_log
from gamelog.projections.store.application import GameStore
from tests.benchmarks.generate import write_log
from tests.conftest import EXAMPLES, ROOT

SPAWN = multiprocessing.get_context("spawn")
WAIT = 60
SEED = EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl"
UCHRONIA = EXAMPLES / "uchronia" / "complete-3p.jsonl"


# --- item 12: Ctrl-C during an import ---

def _pause(reached) -> None:
    reached.set()
    time.sleep(WAIT)


def _interrupted_importer(location: str, logs: list[str], point: str, reached, output: str) -> None:
    """Child: ``gamelog import`` of ``logs``, pausing at ``point`` to be sent SIGINT; output to files.

    SIGINT gets Python's own handler first: a child inherits an ignored SIGINT (pytest started as a background
    job of a script), and then the interrupt would never arrive.
    """
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from gamelog.projections.importing import archive, importer
    from gamelog.projections.views.keeper import ViewKeeper

    if point == "mid-import":
        insert, calls = GameStore.insert_rows, []

        def insert_then_pause(self, cursor, *batch):
            insert(self, cursor, *batch)  # every write path's (one log's, or an archive's writer)
            calls.append(1)
            if len(calls) == 2:
                _pause(reached)

        GameStore.insert_rows = insert_then_pause
    elif point == "after-commit":
        def committed_then_pause(original):
            def paused(*args, **kwargs):
                result = original(*args, **kwargs)
                _pause(reached)
                return result
            return paused

        # Several logs are written by the archive's writer; one log (or a log the writer imports in turn) by _append.
        importer._append = committed_then_pause(importer._append)
        archive._write_prepared = committed_then_pause(archive._write_prepared)
    else:  # while the views catch up, every log imported
        def catch_up_paused(self, progress=None):
            _pause(reached)

        ViewKeeper.catch_up = catch_up_paused
    sys.stdout = open(output + ".out", "w")
    sys.stderr = open(output + ".err", "w")
    main(["import", "--store", location, *logs])


def interrupt_import_at(location: str, logs: list[str], point: str, tmp_path: Path) -> tuple[int, str, str]:
    reached = SPAWN.Event()
    output = str(tmp_path / f"import-{point}")
    child = SPAWN.Process(target=_interrupted_importer, args=(location, logs, point, reached, output))
    child.start()
    try:
        assert reached.wait(WAIT), f"the importer never reached {point} (exit code {child.exitcode})"
        time.sleep(0.3)  # in its sleep by now, not in the middle of setting the event
        os.kill(child.pid, signal.SIGINT)
    finally:
        child.join(WAIT)
    return child.exitcode, Path(output + ".out").read_text(), Path(output + ".err").read_text()


@pytest.fixture
def two_logs(tmp_path):
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as handle:
        events = write_log(handle, 3000, game_id="big")
    return str(big), events, str(SEED)


def _stored_without_views(location: str, log: str) -> None:
    """Import ``log`` through the store alone (no views folded alongside, none caught up after)."""
    store = GameStore(location)
    with open(log, "rb") as handle:
        import_log(store, handle, log)
    store.close()


def test_ctrl_c_after_the_commit_says_the_log_was_stored_with_its_views(locations, tmp_path, two_logs):
    location = locations.new()
    big, events, seed = two_logs
    code, out, err = interrupt_import_at(location, [big, seed], "after-commit", tmp_path)
    assert code == 130
    assert out == f"{big}: imported {events} log lines (lines 2-{events + 1}) into game 'big' (stored before the interrupt)\n"
    store = GameStore(location)
    assert [g.id for g in store.games()] == ["big"]
    stored = store.count_events()
    store.close()
    # The views were folded in the import's transaction: committed with its events.
    assert err.splitlines() == [f"not imported: {seed}", "Interrupted; the views are up to date."]
    assert "Aborted!" not in err
    status = CliRunner().invoke(main, ["projections", "status", "--store", location])
    assert f"lines     at store position {stored} of {stored}: up to date" in status.stdout


def test_ctrl_c_after_the_commit_of_an_import_whose_views_were_behind_says_how_far_behind(locations, tmp_path,
                                                                                          two_logs):
    location = locations.new()
    big, events, seed = two_logs
    _stored_without_views(location, seed)  # the import after it cannot fold its own
    code, out, err = interrupt_import_at(location, [big, seed], "after-commit", tmp_path)
    assert code == 130
    assert out == f"{big}: imported {events} log lines (lines 2-{events + 1}) into game 'big' (stored before the interrupt)\n"
    store = GameStore(location)
    behind = store.count_events()
    store.close()
    assert err.splitlines() == [
        f"not imported: {seed}",
        f"Interrupted; the views are {behind} stored events behind: the next report, audit or import catches them up "
        "(`gamelog projections status`).",
    ]
    status = CliRunner().invoke(main, ["projections", "status", "--store", location])
    assert f"lines     at store position 0 of {behind}: {behind} stored events behind" in status.stdout


def test_ctrl_c_reaches_the_importer_when_the_tests_started_with_sigint_ignored(tmp_path, two_logs):
    """Issue 25 item 14: run as a background job, pytest starts with SIGINT ignored, and its children with it."""
    location = str(tmp_path / "s.sqlite")
    big, _, seed = two_logs
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        code, _, err = interrupt_import_at(location, [big, seed], "after-commit", tmp_path)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert code == 130, err
    assert f"not imported: {seed}" in err


def test_ctrl_c_mid_import_stores_nothing_of_that_log_and_says_so(locations, tmp_path, two_logs, monkeypatch):
    location = locations.new()
    big, _, seed = two_logs
    code, out, err = interrupt_import_at(location, [seed, big], "mid-import", tmp_path)
    assert code == 130
    assert out.startswith(f"{seed}: imported 61 log lines")
    # The first log's views were committed with it; nothing of the second, not its views either.
    assert err.splitlines() == [f"{big}: interrupted; nothing of it stored", "Interrupted; the views are up to date."]
    store = GameStore(location)
    assert [g.id for g in store.games()] == ["seed-examples"] and store.count_events("big") == 0
    store.close()


def test_ctrl_c_while_the_views_catch_up_leaves_every_log_stored(locations, tmp_path, two_logs):
    location = locations.new()
    big, events, seed = two_logs
    _stored_without_views(location, big)  # the views catch up after the next import
    code, out, err = interrupt_import_at(location, [seed], "views", tmp_path)
    assert code == 130
    assert out == f"{seed}: imported 61 log lines (lines 5-78) into game 'seed-examples'\n"
    store = GameStore(location)
    behind, big_events = store.count_events(), store.count_events("big")
    store.close()
    assert behind == 138 + big_events
    assert err.endswith(f"Interrupted; the views are {behind} stored events behind: the next report, audit or import "
                        "catches them up (`gamelog projections status`).\n")
    report = CliRunner().invoke(main, ["report", "seed-examples", "--store", location])
    assert report.exit_code == 0 and "Human won" in report.stdout  # caught up by the next reader


# --- item 14: a store the user may not write ---

CAP_DAC_OVERRIDE = 1
"""The capability by which root writes a file whose mode forbids it (linux/capability.h)."""
_CAPABILITY_VERSION_3 = 0x20080522


def _drop_dac_override() -> None:
    """Drop CAP_DAC_OVERRIDE from this process (effective and permitted): root, still root, then writes no file and
    no folder whose mode forbids its owner to, and reads everything it owns wherever the checkout lives (a child
    that became ``nobody`` could not read a checkout in a folder of mode 0700).

    Raises OSError when the system refuses (no capset: not Linux).
    """
    import ctypes

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    libc = ctypes.CDLL(None, use_errno=True)
    header, data = Header(_CAPABILITY_VERSION_3, 0), (Data * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget refused")
    data[0].effective &= ~(1 << CAP_DAC_OVERRIDE)
    data[0].permitted &= ~(1 << CAP_DAC_OVERRIDE)
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset refused")


def _as_reader(args: list[str], out: int, err: int) -> None:
    """Forked child: give up the right to write what the store's modes forbid (root keeps it otherwise), then run
    the command. Exit 77: the right could not be given up."""
    try:
        if os.geteuid() == 0:
            _drop_dac_override()
    except (OSError, AttributeError):  # AttributeError: a libc without capget
        os._exit(77)
    os.dup2(out, 1)
    os.dup2(err, 2)
    sys.stdout = os.fdopen(1, "w", closefd=False)
    sys.stderr = os.fdopen(2, "w", closefd=False)
    try:
        main(args)
    except SystemExit as exc:
        sys.stdout.flush(), sys.stderr.flush()
        os._exit(exc.code if isinstance(exc.code, int) else 1)
    os._exit(0)


def _write_probe(location: str) -> None:
    """Forked child: exit 0 if, its rights given up as a reader's are, it may still open ``location`` to write."""
    try:
        if os.geteuid() == 0:
            _drop_dac_override()
    except (OSError, AttributeError):
        os._exit(77)
    try:
        open(location, "ab").close()
    except PermissionError:
        os._exit(1)
    os._exit(0)


def _forked(target, *args) -> int:
    child = multiprocessing.get_context("fork").Process(target=target, args=args)
    child.start()
    child.join(WAIT)
    return child.exitcode


def run_as_reader(args: list[str], scratch: Path) -> tuple[int, str, str]:
    out, err = scratch / "out", scratch / "err"
    with open(out, "w") as o, open(err, "w") as e:
        code = _forked(_as_reader, args, o.fileno(), e.fileno())
    return code, out.read_text(), err.read_text()


@pytest.fixture
def read_only_store(request):
    """A store (seed game with views caught up; an Uchronia game imported since, its views behind) made read-only:
    its file (and, for "folder", its folder) of a mode that forbids writing, and the commands run in a child that
    may not write past the mode. Skips, saying why, where that cannot be made so."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the commands run in a forked child, and this platform cannot fork")
    folder = Path(tempfile.mkdtemp(prefix="gamelog-ro-"))
    scratch = Path(tempfile.mkdtemp(prefix="gamelog-ro-out-"))
    location = folder / "gamelog.sqlite"
    assert CliRunner().invoke(main, ["import", "--store", str(location), str(SEED)]).exit_code == 0
    store = GameStore(str(location))
    import_log(store, UCHRONIA.read_bytes(), "u.jsonl")  # no catch-up: the views are behind
    store.close()
    os.chmod(location, 0o444)
    os.chmod(folder, 0o555 if request.param == "folder" else 0o755)
    probe = _forked(_write_probe, str(location))
    try:
        if probe == 77:
            pytest.skip("running as root, and CAP_DAC_OVERRIDE cannot be dropped here (no capset): root would "
                        "write the read-only store")
        if probe == 0:
            pytest.skip("this process may write a file of mode 0444 even without CAP_DAC_OVERRIDE: no store can be "
                        "read-only for it")
        assert probe == 1, f"the write probe ended with {probe}"
        yield str(location), scratch
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder), shutil.rmtree(scratch)


@pytest.mark.parametrize("read_only_store", ["file", "folder"], indirect=True)
def test_every_reading_command_works_on_a_read_only_store(read_only_store):
    location, scratch = read_only_store
    before = Path(location).read_bytes()
    code, out, err = run_as_reader(["games", "--store", location], scratch)
    assert (code, err) == (0, "") and "seed-examples" in out and "uchronia-3p-demo" in out
    code, out, err = run_as_reader(["replay", "seed-examples", "--store", location], scratch)
    assert (code, err) == (0, "") and "merchant-of-venus 'seed-examples' after line 78" in out
    code, out, err = run_as_reader(["report", "seed-examples", "--store", location], scratch)
    assert (code, err) == (0, "") and "Human won" in out
    code, out, err = run_as_reader(["report", "uchronia-3p-demo", "--store", location], scratch)  # its views are behind
    assert (code, err) == (0, "") and "uchronia 'uchronia-3p-demo'" in out
    code, out, err = run_as_reader(["audit", "seed-examples", "--store", location], scratch)
    assert (code, err) == (0, "") and "Human 2214" in out
    code, out, err = run_as_reader(["verify", "seed-examples", "--store", location], scratch)
    assert (code, err) == (0, "") and "seed-examples: intact, 138 stored events" in out
    code, out, err = run_as_reader(["verify", "uchronia-3p-demo", "--store", location], scratch)
    assert (code, err) == (0, "") and "uchronia-3p-demo: intact" in out
    code, out, err = run_as_reader(["import", "--store", location, str(UCHRONIA)], scratch)
    assert code == 2 and err.startswith(f"Error: the store {location} is read-only for you")
    assert Path(location).read_bytes() == before  # nothing written (a WAL reader may add its -shm beside it)
    assert oct(stat.S_IMODE(os.stat(location).st_mode)) == "0o444"


_PACKAGE = {"cli": "cli", "domain": "domain", "projections": "projections", "example_logs": "examples"}
"""gamelog's subpackages and the checkout's folders that hold them (pyproject.toml's package-dir)."""


@pytest.mark.slow  # a copy of the checkout runs the tests above in a pytest of its own
def test_the_read_only_store_tests_pass_from_a_checkout_in_a_folder_only_its_owner_may_read(tmp_path):
    """Issue 40, section 5: the checkout in a folder of mode 0700 (``mktemp -d``, a private home), its gamelog
    imported from there: the tests above pass (a child that became ``nobody`` could not read it); they skip only
    where they would skip anyhow, and so does this one, with their reason."""
    private = Path(tempfile.mkdtemp(prefix="gamelog-private-"))
    try:
        assert stat.S_IMODE(private.stat().st_mode) == 0o700
        checkout = private / "clone"
        shutil.copytree(ROOT, checkout, ignore=shutil.ignore_patterns(
            ".git", "__pycache__", "*.egg-info", ".pytest_cache", ".hypothesis", "build", "dist"))
        package = checkout / "projections" / "services"  # gamelog itself (package-dir), its floors linked in
        for name, folder in _PACKAGE.items():
            (package / name).symlink_to(checkout / folder, target_is_directory=True)
        site = private / "site"
        site.mkdir()
        (site / "gamelog").symlink_to(package, target_is_directory=True)
        where = subprocess.run(
            [sys.executable, "-c", "import gamelog.cli.main, gamelog; print(gamelog.__file__)"], cwd=checkout,
            env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True, timeout=WAIT)
        assert where.stdout.strip() == str(site / "gamelog" / "__init__.py"), where.stderr
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs",
             "tests/test_exits.py::test_every_reading_command_works_on_a_read_only_store"],
            cwd=checkout, env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True,
            timeout=10 * WAIT)
    finally:
        shutil.rmtree(private)
    if "skipped" in done.stdout and done.returncode == 0:  # where the read-only tests cannot run (said why)
        pytest.skip(done.stdout.strip().splitlines()[-2])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout and "skipped" not in done.stdout, done.stdout


# --- item 18: a closed pipe ---

@pytest.mark.parametrize("args", [["games"], ["validate", *[str(EXAMPLES / "merchant-of-venus" / "disputed.jsonl")] * 3]])
def test_a_closed_output_pipe_ends_the_command_quietly(tmp_path, args):
    store = tmp_path / "gamelog.sqlite"
    assert CliRunner().invoke(main, ["import", "--store", str(store), str(SEED)]).exit_code == 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-m", "gamelog.cli.main", *args, "--store", str(store)] if args[0] == "games"
                             else [sys.executable, "-m", "gamelog.cli.main", *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=env)
    child.stdout.close()  # the reader is gone before the first line is written (as `| head -0` would)
    err = child.stderr.read()
    assert child.wait(WAIT) == 141
    assert err == b""


# --- item 19: a bug ---

def test_an_unexpected_exception_is_a_bug_with_its_own_exit_code(tmp_path, monkeypatch):
    def broken(*args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("gamelog.listing.games_document", broken)
    monkeypatch.delenv("GAMELOG_DEBUG", raising=False)
    result = CliRunner().invoke(main, ["games", "--store", str(tmp_path / "none.sqlite")])
    assert result.exit_code == 70
    assert result.output == ("Error: internal error (a bug in gamelog, please report it): ZeroDivisionError: division "
                             "by zero\nRun again with GAMELOG_DEBUG=1 to see where it happened.\n")
    monkeypatch.setenv("GAMELOG_DEBUG", "1")
    debug = CliRunner().invoke(main, ["games", "--store", str(tmp_path / "none.sqlite")])
    assert isinstance(debug.exception, ZeroDivisionError)


def test_an_input_error_still_exits_2(tmp_path):
    result = CliRunner().invoke(main, ["replay", "nothing-here", "--store", str(tmp_path / "none.sqlite")])
    assert result.exit_code == 2
