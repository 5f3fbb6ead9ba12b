"""``gamelog stats`` on the examples, counted by hand; incremental equals rebuild; both backends give the same bytes.

The examples' expected values are read off the logs as written beside each; the generated archives are those of
tests/benchmarks/generate.py.
"""

from __future__ import annotations

import io
import json
import tempfile
import uuid

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamelog
from gamelog.cli.main import main
from gamelog.domain.games import GAMES
from gamelog.projections.store.application import GameStore
from gamelog.projections.views.compare import table_dump
from gamelog.projections.views.keeper import ViewKeeper
from gamelog.stats import Filters, explain, stats
from gamelog.views import rebuild_views
from tests.benchmarks.generate import log_bytes, twilight_lines, uchronia_lines
from tests.conftest import EXAMPLES

FORMATS = ("text", "markdown", "json", "csv", "html")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["stats", *args], env={"COLUMNS": "80"})
    return result.exit_code, result.output


def as_json(*args: str) -> dict:
    code, output = run("--format", "json", *args)
    assert code == 0, output
    return json.loads(output)


def test_merchant_of_venus_disputed_money_and_turns():
    """examples/merchant-of-venus/disputed.jsonl, counted from its lines."""
    doc = as_json(str(EXAMPLES / "merchant-of-venus" / "disputed.jsonl"))
    assert doc["game"] == "merchant-of-venus" and doc["games"] == doc["finished"] == 1
    players = {p["player"]: p for p in doc["players"]}
    # Ann: 3 turn_started lines, and she won (the relic ended her turn at c1030, goal c1000) in those 3 turns.
    # Bob: 4 turn_started lines (the last after the end, still his line).
    assert (players["Ann"]["turns"], players["Ann"]["wins"], players["Ann"]["turns_to_goal"]) == (3, 1, 3.0)
    assert (players["Bob"]["turns"], players["Bob"]["wins"], players["Bob"]["turns_to_goal"]) == (4, 0, None)
    money = {(m["player"], m["flow"], m["kind"]): m["credits"] for m in doc["money"]}
    # Ann received c500 from Bob (the bet) and c300 from the bank (a demand): c800; paid c80 for the factory deed.
    assert money[("Ann", "income", "bonuses")] == 800 and money[("Ann", "spending", "payments")] == 80
    # Bob sold Voil Silk at c220, was paid a c110 fare, paid a c60 hazard and c500 to Ann.
    assert money[("Bob", "income", "sales")] == 220 and money[("Bob", "income", "fares")] == 110
    assert money[("Bob", "spending", "hazards")] == 60 and money[("Bob", "spending", "payments")] == 500
    assert doc["version"] == 1


def test_uchronia_tiebreak_buildings_forum_seats_and_the_tie_break():
    """examples/uchronia/tiebreak-2p.jsonl: Bob and Ann end on 6 VP, Bob built 3 buildings, Ann 2: the tie-break."""
    doc = as_json(str(EXAMPLES / "uchronia" / "tiebreak-2p.jsonl"))
    assert doc["tie_breaks"] == 1 and doc["endings"] == [{"how": "tie-break", "games": 1}]
    assert {p["player"]: (p["wins"], p["mean_vp"], p["buildings"]) for p in doc["players"]} == {
        "Ann": (0, 6.0, 2), "Bob": (1, 6.0, 3)}
    # Casa and Ludus (wood, 1 resource each), Villa (clay, 1), Horreum (brick, 2), Thermae (stone, 2).
    assert [(b["color"], b["cost"], b["built"]) for b in doc["buildings"]] == [
        ("wood", 1, 2), ("clay", 1, 1), ("brick", 2, 1), ("stone", 2, 1)]
    # The setup's Forum (wood, wood, clay, brick, stone) and the lines' clay, brick, marble came on; each building
    # completed took a card of its colour off.
    assert {f["color"]: (f["added"], f["removed"]) for f in doc["forum"]} == {
        "wood": (2, 2), "clay": (2, 1), "brick": (2, 1), "stone": (1, 1), "marble": (1, 0)}
    assert [(s["seat"], s["wins"]) for s in doc["seats"]] == [(1, 0), (2, 1)]
    assert {(m["player"], m["color"]) for m in doc["monopolies"]} == {("Ann", "wood"), ("Bob", "clay")}


def test_explain_sums_to_the_figure_on_the_examples():
    log = str(EXAMPLES / "uchronia" / "tiebreak-2p.jsonl")
    for figure, expected in (("players/bob/buildings", 3), ("forum/clay/added", 2), ("tie_breaks", 1),
                             ("players/Bob/wins", 1)):
        explained = as_json("--explain", figure, log)
        assert sum(line["amount"] for line in explained["lines"]) == explained["total"] == expected


def test_several_kinds_need_game(tmp_path):
    logs = [str(EXAMPLES / "uchronia" / "tiebreak-2p.jsonl"), str(EXAMPLES / "merchant-of-venus" / "disputed.jsonl")]
    code, output = run(*logs)
    assert code == 2 and "--game" in output
    assert as_json("--game", "uchronia", *logs)["games"] == 1


def test_a_store_from_before_the_statistics_views_says_to_rebuild(tmp_path):
    store = str(tmp_path / "s.sqlite")
    with gamelog.open_store(store) as opened:
        opened.import_log(str(EXAMPLES / "uchronia" / "tiebreak-2p.jsonl"))
    import sqlite3

    with sqlite3.connect(store) as conn:
        conn.execute("DELETE FROM view_stat_games")
    code, output = run("--store", store)
    assert code == 3 and "projections rebuild" in output
    rebuild_views(store)
    assert as_json("--store", store)["games"] == 1


# -- incremental equals rebuild --------------------------------------------------------------


def _archive(draws: list[tuple[str, int]]) -> list[bytes]:
    logs = []
    for n, (kind, size) in enumerate(draws):
        if kind == "twilight-imperium-4":
            logs.append(log_bytes(twilight_lines(size, f"ti4-{n}")))
        else:
            logs.append(log_bytes(uchronia_lines(size * 3, f"uch-{n}", threshold=size + 2)))
    return logs


def _figures(store: str) -> dict[str, bytes]:
    with GameStore(store) as opened:
        keeper = ViewKeeper(opened)
        with keeper.connection() as cursor:
            dump = table_dump(cursor)
    out = {name: repr(rows).encode() for name, rows in dump.items() if name.startswith("view_stat")}
    for kind in ("twilight-imperium-4", "uchronia"):
        try:
            out[kind] = msgspec.json.encode(stats(store, game=kind))
        except gamelog.BadInput:
            pass
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["twilight-imperium-4", "uchronia"]), st.integers(1, 5)), min_size=1, max_size=4))
def test_incremental_equals_rebuild_and_a_reimport_changes_nothing(draws):
    logs = _archive(draws)
    with tempfile.TemporaryDirectory() as folder:
        store = f"{folder}/store.sqlite"
        with gamelog.open_store(store) as opened:
            for log in logs:  # one import at a time: the views fold each game as it comes
                opened.import_log(io.BytesIO(log), name="generated")
        incremental = _figures(store)
        with gamelog.open_store(store) as opened:
            opened.import_log(io.BytesIO(logs[0]), name="generated")  # the same log again: nothing new
        assert _figures(store) == incremental
        rebuild_views(store)
        assert _figures(store) == incremental


# -- both backends, every format ---------------------------------------------------------------


def test_both_backends_give_the_same_bytes_in_every_format(tmp_path):
    from tests.conftest import Locations

    pg = Locations("postgresql", tmp_path)  # skips without GAMELOG_TEST_POSTGRES
    try:
        stores = [str(tmp_path / "s.sqlite"), pg.new()]
        logs = [EXAMPLES / "twilight-imperium-4" / name for name in ("complete-4p.jsonl", "disputed.jsonl")]
        logs += [log_bytes(twilight_lines(4, "ti4-gen"))]
        for store in stores:
            with gamelog.open_store(store) as opened:
                for log in logs:
                    opened.import_log(io.BytesIO(log), name="generated") if isinstance(log, bytes) else opened.import_log(str(log))
        for fmt in FORMATS:
            for extra in ((), ("--clean",), ("--explain", "rounds/2/Emirates of Hacan/mean_vp"),
                          ("--faction", "Emirates of Hacan"), ("--player", "Bob", "--faction", "arborec")):
                outputs = [run("--store", store, "--format", fmt, *extra) for store in stores]
                assert outputs[0] == outputs[1], (fmt, extra)
                assert outputs[0][0] == 0, outputs[0][1]
    finally:
        pg.drop()


def test_verify_checks_the_statistics_views_and_rebuild_repairs_them(tmp_path):
    store = str(tmp_path / "s.sqlite")
    with gamelog.open_store(store) as opened:
        opened.import_log(str(EXAMPLES / "uchronia" / "tiebreak-2p.jsonl"))
    import sqlite3

    with sqlite3.connect(store) as conn:
        conn.execute("UPDATE view_stat_sums SET games = games + 1 WHERE what = 'side' AND side = 'Bob'")
        conn.execute("UPDATE view_stat_tallies SET amount = amount + 1 WHERE fact = 'built' AND player = 'Ann'")
    result = CliRunner().invoke(main, ["verify", "uchronia-2p-tiebreak", "--store", store])
    assert result.exit_code == 3
    assert "view_stat_sums: the sums of" in result.output and "view_stat_tallies:" in result.output
    rebuild_views(store)
    assert CliRunner().invoke(main, ["verify", "uchronia-2p-tiebreak", "--store", store]).exit_code == 0


def test_views_derived_before_statistics_are_said_once_by_verify_and_rebuilt_on_request(tmp_path):
    """A store whose views an earlier gamelog derived holds no statistics rows: verify says so in one line (not a
    line a missing row), stats asks for a rebuild, and `projections rebuild` derives them."""
    import sqlite3

    store = str(tmp_path / "old.sqlite")
    runner = CliRunner()
    seed = str(EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl")
    assert runner.invoke(main, ["--store", store, "import", seed]).exit_code == 0
    with sqlite3.connect(store) as db:  # what an earlier gamelog's views were: no statistics, no "stat" in contexts
        for table in ("view_stat_games", "view_stat_seats", "view_stat_periods", "view_stat_facts",
                      "view_stat_tallies", "view_stat_sums"):
            db.execute(f"DELETE FROM {table}")
        for originator, context in db.execute("SELECT originator_id, context FROM view_context").fetchall():
            parsed = json.loads(context)
            parsed.pop("stat")
            db.execute("UPDATE view_context SET context = ? WHERE originator_id = ?",
                       (json.dumps(parsed, sort_keys=True), originator))
    verified = runner.invoke(main, ["--store", store, "verify", "seed-examples"])
    assert verified.exit_code == 3
    assert [line for line in verified.output.splitlines() if "derived:" in line] == [
        "seed-examples: derived: view_stat_games: the statistics views hold nothing of game 'seed-examples' "
        "(derived by a gamelog before statistics, or deleted)"]
    assert runner.invoke(main, ["--store", store, "stats"]).exit_code == 3
    assert runner.invoke(main, ["--store", store, "projections", "rebuild"]).exit_code == 0
    assert runner.invoke(main, ["--store", store, "verify", "seed-examples"]).exit_code == 0
    assert runner.invoke(main, ["--store", store, "stats"]).exit_code == 0


def test_a_game_named_that_is_neither_a_file_nor_stored_is_an_error(tmp_path):
    runner = CliRunner()
    store = str(tmp_path / "s.sqlite")
    missing = runner.invoke(main, ["--store", store, "stats", "missing.jsonl"])
    assert missing.exit_code == 2 and "no such log file: missing.jsonl" in missing.output
    assert runner.invoke(main, ["--store", store, "import", str(EXAMPLES / "uchronia" / "complete-3p.jsonl")]).exit_code == 0
    unknown = runner.invoke(main, ["--store", store, "stats", "some-id"])
    assert unknown.exit_code == 2 and "no log file or stored game named 'some-id'" in unknown.output
    counted = runner.invoke(main, ["--store", store, "stats", "uchronia-3p-demo"])
    assert counted.exit_code == 0 and counted.output.startswith("uchronia: 1 game (1 finished)")


def test_a_games_period_rows_are_kept_as_rows_and_settled_as_the_game_grows(tmp_path):
    """A game's score after each period is a row a player and period of its part of the sums (view_stat_parts),
    not JSON held whole; settled again as the game grows, the sums are what a rebuild derives, row for row, and
    a period's sums row altered is said by verify."""
    import sqlite3

    from tests.benchmarks.generate import write_log

    store, short, longer = str(tmp_path / "s.sqlite"), tmp_path / "short.jsonl", tmp_path / "long.jsonl"
    with open(short, "wb") as handle:
        write_log(handle, 400, game_id="periods")
    with open(longer, "wb") as handle:
        write_log(handle, 800, game_id="periods")  # the same first lines, and more
    runner = CliRunner()
    assert runner.invoke(main, ["--store", store, "import", str(short)]).exit_code == 0
    with sqlite3.connect(store) as db:
        parts = db.execute("SELECT side, name, games, amount, periods, extra FROM view_stat_parts "
                           "WHERE game = 'periods' ORDER BY side, CAST(name AS INTEGER)").fetchall()
        (contrib,) = db.execute("SELECT contrib FROM view_stat_games WHERE game = 'periods'").fetchone()
        kept = json.loads(contrib)
        assert {"game", "side", "seat", "lasted"} <= {key[6] for key, _ in kept}
        assert "period" not in {key[6] for key, _ in kept}
        periods = db.execute("SELECT period, player, value FROM view_stat_periods WHERE game = 'periods'").fetchall()
        # Each player is their own side here: one row a player and period, the score after it, and its square.
        assert sorted(parts) == sorted((player, str(period), 1, value, 0, value * value)
                                       for period, player, value in periods)
        assert len(parts) == 4 * len({p for p, _, _ in periods}) > 4 * 60
        assert parts[0] == ("Eeepeeep", "1", 1, 500, 0, 250000)  # the 500 credits a player starts with
    assert runner.invoke(main, ["--store", store, "import", str(longer)]).exit_code == 0  # settles the game again
    with sqlite3.connect(store) as db:
        settled = sorted(db.execute("SELECT * FROM view_stat_sums").fetchall(), key=repr)
        assert db.execute("SELECT COUNT(*) FROM view_stat_parts").fetchone()[0] > len(parts)
    assert runner.invoke(main, ["--store", store, "verify", "periods"]).exit_code == 0
    rebuild_views(store)
    with sqlite3.connect(store) as db:
        assert sorted(db.execute("SELECT * FROM view_stat_sums").fetchall(), key=repr) == settled
    # A sums row of a period changed by hand is said by verify, as any other.
    with sqlite3.connect(store) as db:
        db.execute("UPDATE view_stat_sums SET amount = amount + 1 WHERE what = 'period' AND name = '7' "
                   "AND side = 'Human'")
    verified = runner.invoke(main, ["--store", store, "verify", "periods"])
    assert verified.exit_code == 3
    assert "view_stat_sums: the sums of" in verified.output and "'name': '7'" in verified.output


def test_a_game_id_any_file_name_would_break_gets_a_report_the_page_links_to(tmp_path):
    """A game's id may hold '/', '%', spaces: its report's file name writes them %XX, and the page's link to it
    is that name as a URL (its '%' written %25), so that the link leads to the file."""
    import re
    from urllib.parse import unquote

    store = str(tmp_path / "s.sqlite")
    with gamelog.open_store(store) as opened:
        opened.import_log(io.BytesIO(log_bytes(twilight_lines(2, "odd/id 100%"))), name="generated")
    page = tmp_path / "page.html"
    code, output = run("--store", store, "--format", "html", "-o", str(page), "--write-reports")
    assert code == 0, output
    assert [p.name for p in (tmp_path / "page-games").iterdir()] == ["odd%2Fid%20100%25.html"]
    hrefs = set(re.findall(r'href="([^"#]+)#line=\d+"', page.read_text()))
    assert hrefs == {"page-games/odd%252Fid%2520100%2525.html"}
    assert (tmp_path / unquote(hrefs.pop())).is_file()


def test_write_reports_of_logs_read_in_memory_is_an_error(tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_bytes(log_bytes(twilight_lines(2, "g1")))
    code, output = run("--store", str(tmp_path / "s.sqlite"), "--format", "html", "-o", str(tmp_path / "p.html"),
                       "--write-reports", str(log))
    assert code == 2 and "import the logs first" in output and not (tmp_path / "p.html").exists()


@pytest.mark.parametrize("filters, way", [
    # ti4-disputed seats two players of the Emirates of Hacan (Ann's "Hacan", Cy's own): a side's games count seats.
    ({"side": "Emirates of Hacan"}, "LessFigures"),  # complete-4p and disputed: 2 of the 3 games
    ({"player": "Ann"}, "LessFigures"),  # every game: the sums, less none
    ({"ids": ("ti4-disputed",)}, "ViewFigures"),  # 1 game of 3: read game by game
])
def test_per_game_filters_read_any_way_give_the_same_figures(tmp_path, filters, way):
    from gamelog.domain.replay_document import held
    from gamelog.projections.reports.statistics import ViewFigures, figures_of

    store = str(tmp_path / "s.sqlite")
    with gamelog.open_store(store) as opened:
        for name in ("complete-4p.jsonl", "disputed.jsonl"):
            opened.import_log(str(EXAMPLES / "twilight-imperium-4" / name))
        opened.import_log(io.BytesIO(log_bytes(twilight_lines(4, "ti4-gen"))), name="generated")
    statistics = GAMES["twilight-imperium-4"].statistics
    with GameStore(store) as opened:
        with ViewKeeper(opened).connection() as cursor:
            quickest = figures_of(cursor, "twilight-imperium-4", Filters(**filters))
            read = ViewFigures(cursor, "twilight-imperium-4", Filters(**filters))
            assert type(quickest).__name__ == way
            assert msgspec.json.encode(held(statistics.document(quickest))) == msgspec.json.encode(
                held(statistics.document(read)))


def test_a_store_with_the_earlier_indexes_gets_the_new_ones_and_the_same_figures(tmp_path):
    """A store whose views an earlier gamelog made (an index of tallies by name, none by game) is given the
    statistics' indexes when next opened, and its figures are those it had."""
    import sqlite3

    store = str(tmp_path / "s.sqlite")
    with gamelog.open_store(store) as opened:
        opened.import_log(str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"))
    before = run("--store", store, "--format", "json", "--faction", "arborec")
    connection = sqlite3.connect(store)
    connection.execute("DROP INDEX stat_tallies_by_game")
    connection.execute("DROP INDEX stat_games_by_kind")
    connection.execute("CREATE INDEX stat_tallies_by_fact ON view_stat_tallies (fact, name, detail)")
    connection.commit()
    connection.close()
    assert run("--store", store, "--format", "json", "--faction", "arborec") == before and before[0] == 0
    connection = sqlite3.connect(store)
    names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    connection.close()
    assert {"stat_tallies_by_game", "stat_games_by_kind"} <= names and "stat_tallies_by_fact" not in names


def test_a_side_held_twice_in_a_game_counts_its_games_once_behind_a_figure(tmp_path):
    from gamelog.stats import stats_traced

    store = str(tmp_path / "s.sqlite")
    with gamelog.open_store(store) as opened:
        for name in ("complete-4p.jsonl", "disputed.jsonl"):
            opened.import_log(str(EXAMPLES / "twilight-imperium-4" / name))
    trace = stats_traced(store).traces["factions/Emirates of Hacan/mean_vp"]
    # complete-4p: Ann (The Emirates of Hacan); disputed: Ann ("Hacan") and Cy (Emirates of Hacan): 3 seats, 2 games.
    assert (trace.games, trace.lines) == (2, 3)
    assert trace.total == sum(line.amount for line in trace.shown)
    assert [(l.game, l.line) for l in trace.shown] == [
        (l.game, l.line) for l in explain(store, "factions/Emirates of Hacan/mean_vp").lines]


# -- each game's part of the sums, as view_stat_games.contrib keeps it --------------------------------------------

@pytest.mark.parametrize("side", ["Ann", "Zoë", "tab\there", 'say "hi"', "back\\slash", "del\x7f", "\u2028"])
def test_a_game_s_part_is_kept_as_the_json_module_writes_it_whatever_the_names(side):
    from gamelog.projections.views.sums import _decoded, _encoded

    part = {("uchronia", 2, 18, ",", "2026-01-02", 1, "side", side, "", "", 1): [1, 17, 0, 289],
            ("uchronia", 2, 18, ",", "2026-01-02", 1, "game", "", "", "", 0): [1, 1, 0, 0]}
    written = _encoded(part)
    assert written == json.dumps(sorted([list(key), values] for key, values in part.items()), separators=(",", ":"))
    assert written.startswith('[[["uchronia",2,18,",","2026-01-02",1,"game","","","",0],[1,1,0,0]],')
    assert _decoded(written) == part


def test_verify_compares_a_games_period_rows_a_page_at_a_time(tmp_path, monkeypatch):
    """view_stat_periods (a row a player and period, as long as the game) is compared a page at a time in key
    order, as the other long views are: a page ends between periods, whatever its size."""
    import sqlite3

    from gamelog.projections.views import compare
    from tests.benchmarks.generate import write_log

    monkeypatch.setattr(compare, "PAGE", 7)  # 4 players: every page ends inside a period, its rows wait
    store, log = str(tmp_path / "s.sqlite"), tmp_path / "g.jsonl"
    with open(log, "wb") as handle:
        write_log(handle, 300, game_id="paged")
    runner = CliRunner()
    assert runner.invoke(main, ["--store", store, "import", str(log)]).exit_code == 0
    assert runner.invoke(main, ["--store", store, "verify", "paged"]).exit_code == 0
    with sqlite3.connect(store) as db:
        db.execute("UPDATE view_stat_periods SET value = value + 1 WHERE period = 9 AND player = 'Human'")
        db.execute("DELETE FROM view_stat_periods WHERE period = 12 AND player = 'Qossuth'")
    verified = runner.invoke(main, ["--store", store, "verify", "paged"])
    assert verified.exit_code == 3
    said = [line for line in verified.output.splitlines() if "view_stat_periods:" in line]
    assert len(said) == 2, verified.output
    assert said[0] == "paged: derived: view_stat_periods: a row of game 'paged': value is 521; the events give 520"
    assert said[1].startswith("paged: derived: view_stat_periods: a row of game 'paged' is missing") and \
        "'period': 12" in said[1] and "'player': 'Qossuth'" in said[1]
