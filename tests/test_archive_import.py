"""Importing many logs in one command (``projections.importing.archive``): decided in workers, written by one.

The outcome of each log, and what the store holds afterwards, are those of
importing the logs one after another: the same rows (chain hashes included),
the same catalog, each log atomic. Runs on SQLite, and on PostgreSQL when
``GAMELOG_TEST_POSTGRES`` names a database (the ``locations`` fixture).
"""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.errors import LogInvalid
from gamelog.projections.importing.archive import import_logs
from gamelog.projections.importing.importer import Outcome, import_log
from gamelog.projections.importing import archive
from gamelog.projections.store.application import GameStore
from gamelog.projections.views.compare import table_dump
from gamelog.projections.views.keeper import FoldAlong, ViewKeeper
from tests.benchmarks.generate import write_log


def _write(path, lines: int, game_id: str) -> str:
    with open(path, "wb") as handle:
        write_log(handle, lines, game_id=game_id)
    return str(path)


def _contents(store: GameStore) -> tuple[list, list]:
    """Every stored event (game, version, topic, sealed bytes) and every catalog row."""
    rows = []
    for game_id in store.stored_game_ids():
        rows += [(game_id, link.version, link.topic, bytes(link.state)) for link in store.stored_links(game_id)]
    return rows, store.games()


def _outcomes(store: GameStore, paths: list[str], along=None) -> list[tuple]:
    got = []
    for path, run in import_logs(store, paths, workers=2, along=along):
        try:
            result = run()
            got.append((result.outcome, result.game_id, result.events, result.first_line, result.last_line))
        except LogInvalid as invalid:
            got.append(("invalid", [e.line for e in invalid.errors]))
    return got


def _one_by_one(store: GameStore, paths: list[str], along=None) -> list[tuple]:
    got = []
    for path in paths:
        try:
            with open(path, "rb") as handle:
                result = import_log(store, handle, path, along=along)
            got.append((result.outcome, result.game_id, result.events, result.first_line, result.last_line))
        except LogInvalid as invalid:
            got.append(("invalid", [e.line for e in invalid.errors]))
    return got


@pytest.fixture
def logs(tmp_path):
    """Four new games, one that grows in the same command, one invalid, and a conflict with the first."""
    paths = [_write(tmp_path / f"g{i}.jsonl", 300 + 10 * i, f"g{i}") for i in range(4)]
    short = _write(tmp_path / "grow-a.jsonl", 200, "grow")
    longer = _write(tmp_path / "grow-b.jsonl", 260, "grow")
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes((tmp_path / "g1.jsonl").read_bytes().replace(b'"unit_price": 10', b'"unit_price": "ten"', 1)
                    .replace(b'"id": "g1"', b'"id": "bad"'))
    # The first 100 lines of g0, then one line that differs from it.
    lines = (tmp_path / "g0.jsonl").read_bytes().splitlines(keepends=True)
    lines[101] = b'{"type": "note", "text": "not in g0"}\n'
    clash = tmp_path / "clash.jsonl"
    clash.write_bytes(b"".join(lines[:102]))
    return paths + [short, longer, str(bad), str(clash)]


def test_an_archive_stores_what_importing_one_log_at_a_time_stores(locations, logs):
    parallel, serial = GameStore(locations.new()), GameStore(locations.new())
    got, expected = _outcomes(parallel, logs), _one_by_one(serial, logs)
    assert got == expected
    assert got[0] == (Outcome.IMPORTED, "g0", 300, 2, 301)
    assert got[4] == (Outcome.IMPORTED, "grow", 200, 2, 201)  # decided in a worker
    assert got[5] == (Outcome.IMPORTED, "grow", 60, 202, 261)  # its game moved meanwhile: imported in turn
    assert got[6][0] == "invalid"
    assert got[7][0] is Outcome.CONFLICT
    assert _contents(parallel) == _contents(serial)
    assert not parallel.has_game("bad")  # an invalid log stores nothing


@pytest.mark.parametrize("writer", ["waits for the workers", "takes logs no worker has begun"])
def test_an_archive_s_views_are_those_of_importing_one_log_at_a_time(locations, logs, monkeypatch, writer):
    if writer == "waits for the workers":  # every log decided, and every new game's views folded, by a worker
        monkeypatch.setattr(archive, "claimed", lambda claim: False)
    parallel, serial = ViewKeeper(GameStore(locations.new())), ViewKeeper(GameStore(locations.new()))
    taken = []
    original = FoldAlong.take
    monkeypatch.setattr(FoldAlong, "take",
                        lambda self, game_id, chunks: (taken.append(game_id), original(self, game_id, chunks))[1])
    assert _outcomes(parallel.store, logs, parallel.alongside) == _one_by_one(serial.store, logs, serial.alongside)
    if writer == "waits for the workers":
        assert taken == ["g0", "g1", "g2", "g3", "grow"]  # the new games' views, as the workers folded them
    for keeper in (parallel, serial):
        assert keeper.status().behind == 0
    with parallel.connection() as kept, serial.connection() as expected:
        assert table_dump(kept) == table_dump(expected)


def test_the_same_archive_again_adds_nothing(locations, logs):
    store = GameStore(locations.new())
    paths = logs[:4]
    _outcomes(store, paths)
    before = _contents(store)
    assert [o[0] for o in _outcomes(store, paths)] == [Outcome.ALREADY_IMPORTED] * 4
    assert _contents(store) == before


def test_gamelog_import_of_several_logs_says_each_outcome_and_exits_2_on_an_invalid_one(tmp_path, logs, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # the worker path, on any machine
    store = str(tmp_path / "cli.sqlite")
    result = CliRunner().invoke(main, ["--store", store, "import", *logs], catch_exceptions=False)
    assert result.exit_code == 2
    out = result.stdout.splitlines()
    assert out[0].endswith("imported 300 log lines (lines 2-301) into game 'g0'")
    assert out[5].endswith("imported 60 log lines (lines 202-261) into game 'grow'")
    assert "bad.jsonl:" in result.stderr and "nothing stored" in result.stderr
    assert "conflict: line 102 differs from the stored game 'g0'" in result.stderr
    assert [g.id for g in GameStore(store).games()] == ["g0", "g1", "g2", "g3", "grow"]
    for game in ("g0", "grow"):  # the chain and the catalog as the worker sealed them
        verified = CliRunner().invoke(main, ["--store", store, "verify", game], catch_exceptions=False)
        assert verified.exit_code == 0, verified.output
