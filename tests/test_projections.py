"""Projections: views kept across many small imports equal views rebuilt from scratch, byte for byte.

The games are the legal examples and generated legal games of each title
(``tests/benchmarks/generate.py``), imported in pieces cut where hypothesis says.
"""

from __future__ import annotations

import io
import json

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
            import_log(keeper.store, b"".join(lines[:cut]), "log.jsonl")
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
