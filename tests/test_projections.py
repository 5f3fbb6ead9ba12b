"""Projections: views kept across many small imports equal views rebuilt from scratch, byte for byte.

The games are the legal examples and generated legal games of each title
(``tests/benchmarks/generate.py``), imported in pieces cut where hypothesis says.
"""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.domain.replay import run
from gamelog.projections.importing.importer import import_log
from gamelog.projections.views.compare import table_dump
from gamelog.projections.views.keeper import ViewKeeper, views_in_memory
from gamelog.projections.store.application import GameStore
from tests.benchmarks import generate
from tests.benchmarks.generate import write_log
from tests.conftest import EXAMPLES

LEGAL = [EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl", EXAMPLES / "uchronia" / "complete-3p.jsonl",
         EXAMPLES / "uchronia" / "tiebreak-2p.jsonl", EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"]


def generated_merchant_log(events: int, game_id: str) -> bytes:
    buffer = io.BytesIO()
    write_log(buffer, events, game_id)
    return buffer.getvalue()


def dump(keeper: ViewKeeper) -> bytes:
    with keeper.connection() as cursor:
        return json.dumps(table_dump(cursor), sort_keys=True).encode()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_views_kept_incrementally_equal_views_rebuilt(tmp_path_factory, data):
    logs = [p.read_bytes() for p in LEGAL] + [
        generated_merchant_log(data.draw(st.integers(20, 300)), "generated"),
        generate.log_bytes(generate.uchronia_lines(data.draw(st.integers(1, 30)))),
        generate.log_bytes(generate.twilight_lines(data.draw(st.integers(1, 8)))),
    ]
    keeper = ViewKeeper(GameStore(str(tmp_path_factory.mktemp("views") / "gamelog.sqlite")))
    for log in logs:
        lines = log.splitlines(keepends=True)
        header = next(i for i, line in enumerate(lines, 1) if line.startswith(b"{"))
        cuts = sorted(set(data.draw(st.lists(st.integers(header, len(lines)), max_size=5)))) + [len(lines)]
        for cut in cuts:  # a log that grows, imported again and again
            # The views folded in the import's transaction, or caught up after it (they may be behind then).
            along = keeper.alongside if data.draw(st.booleans()) else None
            import_log(keeper.store, b"".join(lines[:cut]), "log.jsonl", along=along)
            if data.draw(st.booleans()):
                keeper.catch_up()
    keeper.catch_up()
    incremental = dump(keeper)
    keeper.rebuild()
    assert dump(keeper) == incremental


def test_a_log_file_in_memory_gets_the_same_views_as_the_store(tmp_path):
    log = (EXAMPLES / "uchronia" / "complete-3p.jsonl").read_bytes()
    keeper = ViewKeeper(GameStore(str(tmp_path / "gamelog.sqlite")))
    import_log(keeper.store, log, "log.jsonl")
    keeper.catch_up()
    in_memory = table_dump(views_in_memory(run(log).events).cursor())
    with keeper.connection() as cursor:
        assert table_dump(cursor) == in_memory


def test_an_import_folds_the_views_in_its_transaction_only_when_they_are_at_the_store_s_last_event(tmp_path):
    keeper = ViewKeeper(GameStore(str(tmp_path / "gamelog.sqlite")))
    import_log(keeper.store, LEGAL[0].read_bytes(), "seed.jsonl")  # no views folded: they are behind
    behind = keeper.status()
    import_log(keeper.store, LEGAL[1].read_bytes(), "uchronia.jsonl", along=keeper.alongside)
    assert keeper.status().position == behind.position == 0  # left to the catch-up, which folds both
    assert keeper.catch_up() == keeper.status().head
    import_log(keeper.store, LEGAL[3].read_bytes(), "ti4.jsonl", along=keeper.alongside)
    assert keeper.status().behind == 0 and keeper.catch_up() == 0  # folded with the import's commit
    with keeper.connection() as cursor:
        along = table_dump(cursor)
    keeper.rebuild()
    with keeper.connection() as cursor:
        assert table_dump(cursor) == along


def test_views_that_cannot_take_an_import_leave_it_stored_and_the_catch_up_says_they_are_damaged(tmp_path):
    from gamelog.projections.store.application import StoreDamaged, game_uuid

    keeper = ViewKeeper(GameStore(str(tmp_path / "gamelog.sqlite")))
    import_log(keeper.store, LEGAL[0].read_bytes(), "seed.jsonl", along=keeper.alongside)
    with keeper.transaction() as cursor:  # views holding a game before any of its events is stored
        cursor.execute("SELECT context FROM view_context")
        (context,) = cursor.fetchone()
        cursor.execute("INSERT INTO view_context VALUES (?, ?, ?)",
                       (game_uuid("uchronia-3p-demo").hex, "uchronia-3p-demo", context))
    result = import_log(keeper.store, LEGAL[1].read_bytes(), "uchronia.jsonl", along=keeper.alongside)
    assert (result.outcome.value, result.events) == ("imported", 98)  # stored all the same, without its views
    assert keeper.status().behind == keeper.store.count_events("uchronia-3p-demo")
    with pytest.raises(StoreDamaged, match="the views are damaged: they hold the game 'seed-examples' already"):
        keeper.catch_up()


def test_catching_up_twice_counts_nothing_twice(tmp_path):
    keeper = ViewKeeper(GameStore(str(tmp_path / "gamelog.sqlite")))
    import_log(keeper.store, LEGAL[0].read_bytes(), "log.jsonl")
    first = keeper.catch_up()
    assert (first, keeper.catch_up(), keeper.status().behind) == (keeper.status().head, 0, 0)


def test_an_interrupted_catch_up_resumes_where_it_stopped(tmp_path, monkeypatch):
    from gamelog.projections.views import keeper as keeper_module

    keeper = ViewKeeper(GameStore(str(tmp_path / "gamelog.sqlite")))
    import_log(keeper.store, LEGAL[0].read_bytes(), "log.jsonl")
    monkeypatch.setattr(keeper_module, "PAGE", 10)
    calls = []

    def stop_after_three(n):
        calls.append(n)
        if len(calls) == 3:
            raise KeyboardInterrupt

    try:
        keeper.catch_up(stop_after_three)
    except KeyboardInterrupt:
        pass
    assert keeper.status().position == 30
    keeper.catch_up()
    in_memory = table_dump(views_in_memory(run(LEGAL[0].read_bytes()).events).cursor())
    with keeper.connection() as cursor:
        assert table_dump(cursor) == in_memory


@settings(max_examples=10, deadline=None)
@given(turns=st.integers(1, 30), rounds=st.integers(1, 8), events=st.integers(1, 400))
def test_the_generated_games_are_legal(turns, rounds, events):
    logs = [generate.log_bytes(generate.uchronia_lines(turns)), generate.log_bytes(generate.twilight_lines(rounds)),
            generated_merchant_log(events, "generated")]
    for log in logs:
        outcome = run(log)
        assert outcome.errors == []
        assert [e for e in outcome.events if type(e).__name__ == "FindingRaised"] == []
