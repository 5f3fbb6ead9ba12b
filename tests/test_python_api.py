"""The Python API: every example of docs/python-api.md runs, and every value it shows is what gamelog gives.

The page's examples are doctests (``>>>``): run from an empty folder (the page reads the example logs through
``gamelog.examples.path``, as it would from a pip install), so that the store the page opens is a fresh file.
"""

from __future__ import annotations

import doctest
import io
import os
import re
import subprocess
import sys

import pytest

import gamelog
from tests.conftest import EXAMPLES, ROOT

PAGE = ROOT / "docs" / "python-api.md"


def test_every_example_of_the_python_api_page_runs_and_shows_what_gamelog_gives(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(str(PAGE), module_relative=False, verbose=False)  # its own directives, no more
    assert result.attempted >= 30
    assert result.failed == 0
    assert list(tmp_path.iterdir()) == []  # the store the examples made, removed by the last of them


def test_python_m_doctest_passes_on_the_page_from_an_empty_folder_twice_in_a_row(tmp_path):
    """Issue 40, section 4: ``python -m doctest docs/python-api.md`` as a reader types it, from an empty folder (no
    option given: the examples whose output has ``...`` say +ELLIPSIS themselves), and again in the same folder."""
    for attempt in (1, 2):
        done = subprocess.run([sys.executable, "-m", "doctest", str(PAGE)], cwd=tmp_path, capture_output=True,
                              text=True)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), f"attempt {attempt}"
        assert list(tmp_path.iterdir()) == [], f"attempt {attempt} left a store behind"


def test_a_plain_import_has_the_services_the_page_names_sources_and_secrecy_among_them(tmp_path):
    """Issue 40, section 4: every service the page's "The services" names is an attribute after a plain
    ``import gamelog`` (in a fresh interpreter: nothing imported them before), and is listed by ``dir``."""
    page = PAGE.read_text(encoding="utf-8")
    named = re.findall(r"`gamelog\.([a-z_]+)`", page[page.index("## The services"):])
    assert {"sources", "secrecy"} <= set(named)
    code = f"import gamelog; print(all(hasattr(gamelog, n) and n in dir(gamelog) for n in {named!r}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert done.stdout.split() == ["True"], done.stderr


def test_the_front_door_names_what_the_page_documents():
    page = PAGE.read_text(encoding="utf-8")
    for name in ("read_log", "open_store", "Game", "Store", "LogInvalid", "BadInput", "GameNotFound", "StoreBusy",
                 "StoreDamaged", "PointNotInGame", "NotPlayedInRounds"):
        assert name in gamelog.__all__ and hasattr(gamelog, name), name
        assert name in page, name
    assert gamelog.__version__


def test_strict_reading_stops_at_the_first_input_error_and_lenient_reading_keeps_them_all():
    log = (b'{"type": "game", "game": "merchant-of-venus", "id": "g", "players": ["Ann", "Bob"]}\n'
           b'{"type": "turn_started", "player": "Ann"}\n'
           b'not json\n'
           b'{"type": "turn_ended", "player": "Cid"}\n'
           b'{"type": "turn_ended", "player": "Ann"}\n')
    with pytest.raises(gamelog.LogInvalid) as strict:
        gamelog.read_log(io.BytesIO(log), name="g.jsonl")
    assert [e.line for e in strict.value.errors] == [3]
    lenient = gamelog.read_log(io.BytesIO(log), name="g.jsonl", strict=False)
    assert [e.line for e in lenient.errors] == [3, 4]
    assert lenient.end().line == 5 and lenient.end().turn == 1


def test_a_game_read_from_a_log_and_the_same_game_stored_give_the_same_answers(locations):
    log = EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"
    read = gamelog.read_log(log)
    with gamelog.open_store(locations.new()) as store:
        assert store.import_log(log).outcome is gamelog.Outcome.IMPORTED
        assert [summary.id for summary in store.games()] == [read.id] and read.id in store
        stored = store.game(read.id)
        assert stored.end() == read.end()
        assert stored.state(round=3) == read.state(round=3)
        assert stored.audit() == read.audit()
        assert stored.what_if([281]) == read.what_if([281])
        assert stored.derivation("Bob") == read.derivation("Bob")
        assert stored.report() == read.report()
        assert store.import_log(log).outcome is gamelog.Outcome.ALREADY_IMPORTED
        with pytest.raises(gamelog.GameNotFound):
            store.game("no-such-game")


def test_a_handle_stays_the_callers_and_a_text_handle_reads_as_the_binary_one():
    path = EXAMPLES / "uchronia" / "complete-3p.jsonl"
    with open(path, "rb") as handle:
        game = gamelog.read_log(handle)
        assert not handle.closed
    assert game.end().finished
    with open(path, encoding="utf-8") as text:
        read = gamelog.read_log(text)
        assert not text.closed
    assert read.end() == game.end() and read.findings == game.findings
    with pytest.raises(gamelog.PlayerNotFound):
        game.derivation("Nobody")
    with pytest.raises(gamelog.BadInput, match="No such file"):
        gamelog.read_log(os.path.join(str(EXAMPLES), "missing.jsonl"))
