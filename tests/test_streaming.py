"""The reading commands stream: they read the store and the views a page at a time and write as they read.

Issue 14, item 20: ``report``, ``audit`` and ``verify`` hold bounded state
whatever a game's size. Memory itself is measured by
``tests/benchmarks/bench_memory.py``; these tests prove the streaming without
timing: with pages patched small, the output is byte for byte what one page
holding everything gives, no query returns more than a page, and a report's
first period is written before most of the game is read.
"""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

import gamelog.projections.reports.audit as audit_module
import gamelog.projections.reports.model as model
import gamelog.projections.store.application as application
import gamelog.projections.store.verify as verify_module
import gamelog.projections.views.keeper as keeper_module
import gamelog.projections.views.compare as compare_module
from gamelog.cli.main import main
from gamelog.projections.importing.importer import import_log
from gamelog.projections.reports.formats import json_pieces, render_json
from gamelog.projections.store.application import GameStore
from gamelog.projections.views.keeper import ViewKeeper
from gamelog.projections.views.rows import LineRow
from tests.benchmarks.generate import write_log
from tests.conftest import EXAMPLES

DISPUTED = EXAMPLES / "merchant-of-venus" / "disputed.jsonl"
EVENTS = 400


@pytest.fixture
def stored(tmp_path):
    """A SQLite store holding a generated game of 400 events and a correction ("bench") and the disputed example."""
    return _filled(str(tmp_path / "s.sqlite"))


@pytest.fixture
def stored_on_each(locations):
    """The store of :func:`stored`, on each backend."""
    return _filled(locations.new())


def _filled(path: str) -> tuple[str, str]:
    store = GameStore(path)
    log = io.BytesIO()
    write_log(log, EVENTS)
    lines = log.getvalue().decode().splitlines()
    # A correction voids a purchase midway: the later sale breaks a rule, and the audit lists the correction.
    bought = next(n for n, text in enumerate(lines, 1) if n > 150 and '"goods_bought"' in text)
    lines.append(json.dumps({"type": "correction", "voids": bought, "reason": "no room in the hold"}))
    import_log(store, ("\n".join(lines) + "\n").encode(), "bench.jsonl")
    import_log(store, DISPUTED.read_bytes(), "disputed.jsonl")
    ViewKeeper(store).catch_up()
    game = next(json.loads(line) for line in DISPUTED.read_text().splitlines() if line.startswith("{"))["id"]
    return path, game


def _run(path: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*args, "--store", path], env={"COLUMNS": "100"})
    return result.exit_code, result.stdout


COMMANDS = [("report", fmt) for fmt in ("text", "json", "markdown", "csv")] + [("audit", fmt) for fmt in ("text", "json", "markdown")]


@pytest.mark.parametrize("command,fmt", COMMANDS)
def test_small_pages_give_the_same_bytes_as_one_page(stored_on_each, monkeypatch, command, fmt):
    path, disputed = stored_on_each
    for game in ("bench", disputed):
        monkeypatch.setattr(model, "PAGE", 10**9)
        whole = _run(path, command, game, "--format", fmt)
        monkeypatch.setattr(model, "PAGE", 3)
        monkeypatch.setattr(audit_module, "BATCH", 2)
        paged = _run(path, command, game, "--format", fmt)
        assert paged == whole
        assert len(whole[1]) > (100 if (command, fmt) == ("audit", "text") else 500)
        # Findings and a correction are in the audits (not an empty document compared with itself).
        if command == "audit":
            assert "MOV-" in whole[1] and whole[0] == 1
            assert game == disputed or "voids line" in whole[1] or '"voids"' in whole[1]


def test_an_audit_for_one_player_pages_their_entries(stored, monkeypatch):
    path, _ = stored
    whole = _run(path, "audit", "bench", "--player", "Human")
    monkeypatch.setattr(model, "PAGE", 2)
    assert _run(path, "audit", "bench", "--player", "Human") == whole
    assert whole[1].count("\n") > 30 and "how Human's net worth of" in whole[1]


def test_a_report_writes_its_first_period_before_reading_the_game_and_no_query_returns_more_than_a_page(stored, monkeypatch):
    path, _ = stored
    monkeypatch.setattr(model, "PAGE", 5)
    read = {"lines": 0, "largest": 0}
    real_select = model.select

    def counting(cursor, row, where, *params):
        rows = real_select(cursor, row, where, *params)
        read["largest"] = max(read["largest"], len(rows))
        if row is LineRow:
            read["lines"] += len(rows)
        return rows

    monkeypatch.setattr(model, "select", counting)
    keeper = ViewKeeper(GameStore(path))
    with keeper.connection() as cursor:
        head = model.report_head(cursor, "bench")
        pieces = json_pieces(head, model.report_periods(cursor, head))
        opening = next(pieces) + next(pieces)  # the document's head, then the first period
        assert '"number": 0' in opening or '"number": 1' in opening
        assert read["lines"] <= 10  # two pages of lines at most, of the game's 400
        document = opening + "".join(pieces)
        total = read["lines"]
        assert read["largest"] <= 5
        whole = render_json(model.build_report(cursor, "bench"))
    assert document == whole
    assert total == len(json.loads(document)["periods"][-1]["lines"]) + sum(
        len(p["lines"]) for p in json.loads(document)["periods"][:-1])
    assert total > 300


def test_verify_keeps_an_intact_chain_in_one_pass_and_pages_every_read(stored, monkeypatch):
    path, _ = stored
    monkeypatch.setattr(application, "PAGE", 7)
    monkeypatch.setattr(keeper_module, "PAGE", 11)
    monkeypatch.setattr(compare_module, "PAGE", 11)  # the views compared page by page
    diagnosed = []
    real_check = verify_module.check
    monkeypatch.setattr(verify_module, "check", lambda links: diagnosed.append(1) or real_check(links))
    code, out = _run(path, "verify", "bench")
    assert code == 0 and "intact" in out
    assert diagnosed == []  # an intact chain is never held whole
    # Views and catalog compared page by page still name what was changed.
    import sqlite3

    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE view_tracks SET value = value + 1 WHERE game = 'bench' AND seq = 50")
        conn.execute("UPDATE gamelog_games SET winner = 'Human' WHERE id = 'bench'")
    code, out = _run(path, "verify", "bench")
    assert code == 3
    assert "view_tracks: row seq=50 of game 'bench'" in out and "gamelog_games: row 'bench': winner is 'Human'" in out
    assert diagnosed == []


def test_verify_hands_a_broken_chain_to_the_diagnosis(stored, monkeypatch):
    path, _ = stored
    import sqlite3

    from gamelog.projections.store.application import game_uuid

    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = 200",
                     (game_uuid("bench").hex,))
    monkeypatch.setattr(application, "PAGE", 7)
    code, out = _run(path, "verify", "bench")
    assert code == 3 and "event(s) 200 are missing" in out
