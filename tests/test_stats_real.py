"""Acceptance of ``gamelog stats`` on the real TI Assistant exports (../shared/data/real/ti-assistant-*.json).

The three games (see tests/test_ti_assistant_real.py): LjnqDB (6 players, 10 VP, 2025-02-08), nHg8Hw (5 players,
10 VP, 2026-01-10) and 9-8-25 (6 players, 14 VP, 2025-09-06). Every expected value below was counted by hand
from the exports' ``actionLog`` entries, as written beside it; nothing is copied from gamelog's own output.
"""

from __future__ import annotations

import json

import msgspec
import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.twilight_imperium.statistics import Stats
from tests.conftest import shared_path

NAMES = ("LjnqDB", "nHg8Hw", "9-8-25")

WINS = {
    # Each game's winner: the faction whose VP reached the goal, which ends the game (TI4-VP-GOAL): LjnqDB the
    # Council Keleres (10 VP, Seize an Icon at actionLog[1]); nHg8Hw the Emirates of Hacan (11 VP); 9-8-25 the
    # Kollecc Society (14 VP). Every other faction played one game and won none.
    "Council Keleres": 1, "Emirates of Hacan": 1, "Kollecc Society": 1,
    "Argent Flight": 0, "Embers of Muaat": 0, "Ghosts of Creuss": 0, "L1Z1X Mindnet": 0, "Mentak Coalition": 0,
    "Naaz-Rokha Alliance": 0, "Firmament": 0, "Crimson Rebellion": 0, "Deepwrought Scholarate": 0,
    "Xxcha Kingdom": 0, "Nivyn Star Kings": 0, "Kortali Tribunal": 0, "Li-Zho Dynasty": 0, "Veldyr Sovereignty": 0,
}

SCORED = {
    # SCORE_OBJECTIVE entries naming the objective, less its UNSCORE_OBJECTIVE entries, in each export:
    "Build Defenses": 6 + 5,  # LjnqDB 6, 9-8-25 5 (not revealed in nHg8Hw)
    "Diversify Research": 5 + 6,  # nHg8Hw 5, 9-8-25 6
    "Erect a Monument": (5 - 1) + 3,  # nHg8Hw 5 less the Firmament's unscore, 9-8-25 3
}

KELERES_ROUNDS = {
    # The Council Keleres (Tanys) in LjnqDB; a round runs from the ADVANCE_PHASE leaving SETUP (or the last
    # AGENDA) to the one leaving its own AGENDA (actionLog[702], [528], [362], [190]; round 5 to the end):
    1: 2,   # the Custodians Token (actionLog[829]), an Imperial Point (actionLog[805])
    2: 4,   # an Imperial Point (actionLog[672]), Discover Lost Outposts (actionLog[550])
    3: 5,   # Populate the Outer Rim (actionLog[388])
    4: 8,   # Support for the Throne of Mentak (actionLog[315]), Amass Wealth ([220]), Adapt New Strategies ([218])
    5: 10,  # Build Defenses (actionLog[137]), Seize an Icon (actionLog[1])
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    location = str(tmp_path_factory.mktemp("stats") / "store.sqlite")
    runner = CliRunner()
    for name in NAMES:
        path = shared_path("data", "real", f"ti-assistant-{name}.json")
        result = runner.invoke(main, ["import", "--from", "ti-assistant", str(path), "--store", location])
        assert result.exit_code == 0, result.output
    return location


def stats(store: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["stats", "--store", store, *args], env={"COLUMNS": "80"})
    return result.exit_code, result.output


def document(store: str, *args: str) -> Stats:
    code, output = stats(store, "--format", "json", *args)
    assert code == 0, output
    return msgspec.json.decode(output, type=Stats)


def test_each_factions_wins_and_the_contract(store):
    raw = json.loads(stats(store, "--format", "json")[1])
    assert raw["game"] == "twilight-imperium-4" and raw["games"] == 3 and raw["finished"] == 3 and raw["version"] == 1
    assert {f["faction"]: f["wins"] for f in raw["factions"]} == WINS
    assert all({"faction", "games", "wins", "mean_vp"} <= set(f) for f in raw["factions"])
    assert all({"objective", "kind", "revealed", "scored"} <= set(o) for o in raw["objectives"])
    assert all({"round", "faction", "mean_vp", "games"} <= set(r) for r in raw["rounds"])


def test_three_objectives_score_counts(store):
    scored = {o.objective: o.scored for o in document(store).objectives if o.kind == "public"}
    assert {name: scored[name] for name in SCORED} == SCORED


def test_one_factions_vp_after_each_round(store):
    rounds = {r.round: (r.mean_vp, r.games) for r in document(store).rounds if r.faction == "Council Keleres"}
    assert rounds == {n: (float(vp), 1) for n, vp in KELERES_ROUNDS.items()}


@pytest.mark.parametrize("figure, expected", [
    ("factions/Council Keleres/wins", 1),
    ("objectives/Build Defenses/scored", SCORED["Build Defenses"]),
    ("objectives/erect a monument/scored", SCORED["Erect a Monument"]),
    ("rounds/4/Council Keleres/mean_vp", KELERES_ROUNDS[4]),
])
def test_explain_lists_the_lines_that_sum_to_the_figure(store, figure, expected):
    code, output = stats(store, "--explain", figure, "--format", "json")
    assert code == 0, output
    explained = json.loads(output)
    assert sum(line["amount"] for line in explained["lines"]) == explained["total"] == expected
    if "Erect" in figure:
        # nHg8Hw: 5 scores and the correction that voided the Firmament's (-1); 9-8-25: 3 scores.
        amounts = sorted(line["amount"] for line in explained["lines"])
        assert amounts == [-1] + [1] * 8 and explained["games"] == 2


def test_clean_leaves_out_exactly_the_games_with_violations(store):
    # LjnqDB (LRR 34.5, actionLog[368]) and 9-8-25 (LRR 34.5, actionLog[748]) have a violation; nHg8Hw none.
    clean = document(store, "--clean")
    assert clean.games == 1
    assert {f.faction for f in clean.factions} == {"Emirates of Hacan", "Naaz-Rokha Alliance", "Firmament",
                                                   "Crimson Rebellion", "Deepwrought Scholarate"}


@pytest.mark.parametrize("args, games", [
    (("--players", "5"), 1), (("--players", "6"), 2), (("--goal", "14"), 1),
    (("--since", "2026-01-01"), 1), (("--until", "2025-12-31"), 2), (("--since", "2025-09-06", "--until", "2025-09-06"), 1),
    (("--faction", "council keleres"), 1), (("--player", "Steve"), 2), (("ti-assistant-20260110T163927Z",), 1),
    # data.options.expansions: all three POK; only nHg8Hw THUNDERS EDGE, only 9-8-25 DISCORDANT STARS.
    (("--expansion", "pok"), 3), (("--expansion", "Thunders Edge"), 1), (("--expansion", "DISCORDANT STARS"), 1),
    (("--expansion", "codex three"), 3), (("--expansion", "codex"), 0),
])
def test_filters_choose_the_games(store, args, games):
    assert document(store, *args).games == games


def test_explain_an_unknown_figure_names_the_known_ones(store):
    code, output = stats(store, "--explain", "factions/Nobody/wins")
    assert code == 2 and "no faction 'Nobody'" in output
    code, output = stats(store, "--explain", "nonsense")
    assert code == 2 and "factions/FACTION/wins" in output


def test_every_format_and_text_fits_80_columns(store):
    code, text = stats(store)
    assert code == 0 and max(len(line) for line in text.splitlines()) <= 80
    code, csv_text = stats(store, "--format", "csv", "--table", "objectives")
    assert code == 0 and csv_text.splitlines()[0] == "objective,kind,revealed,scored,games,scorers_per_game,mean_round"
    code, html = stats(store, "--format", "html")
    assert code == 0 and "<svg" in html and 'name="viewport"' in html and "(1 game)" in html
    code, md = stats(store, "--format", "markdown")
    assert code == 0 and "## factions" in md


def test_exports_read_in_memory_give_the_stores_figures(store):
    paths = [str(shared_path("data", "real", f"ti-assistant-{name}.json")) for name in NAMES]
    code, in_memory = stats(store, "--format", "json", "--from", "ti-assistant", *paths)
    assert code == 0, in_memory
    assert in_memory == stats(store, "--format", "json")[1]


@pytest.mark.parametrize("filters", [{}, {"players": 6}, {"clean": True}, {"since": "2025-06-01"}, {"goal": 14},
                                     {"expansion": "codex four"}])
def test_the_sums_across_games_give_what_reading_each_game_gives(store, filters):
    """The figures summed as each game is folded (view_stat_sums) are those added up game by game."""
    from gamelog.domain.games import GAMES
    from gamelog.projections.reports.statistics import Filters, SummedFigures, ViewFigures
    from gamelog.projections.store.application import GameStore
    from gamelog.projections.views.keeper import ViewKeeper

    from gamelog.domain.replay_document import held

    statistics = GAMES["twilight-imperium-4"].statistics
    with GameStore(store) as opened:
        with ViewKeeper(opened).connection() as cursor:
            chosen = Filters(**filters)
            summed = held(statistics.document(SummedFigures(cursor, "twilight-imperium-4", chosen)))
            read = held(statistics.document(ViewFigures(cursor, "twilight-imperium-4", chosen)))
    assert msgspec.json.encode(summed) == msgspec.json.encode(read)


@pytest.mark.parametrize("filters, way", [
    # Steve played LjnqDB and 9-8-25: 2 of the 3 games, so the sums of all 3 less nHg8Hw's figures.
    ({"player": "steve"}, "LessFigures"),
    ({"player": "Steve", "players": 6}, "LessFigures"),  # both 6-player games: the bucket less none
    ({"side": "council keleres"}, "ViewFigures"),  # 1 game of 3: read game by game
    ({"ids": ("ti-assistant-20260110T163927Z",)}, "ViewFigures"),
    ({"side": "Emirates of Hacan", "player": "nobody"}, "ViewFigures"),  # no game at all
])
def test_a_per_game_filter_gives_what_reading_each_chosen_game_gives(store, filters, way):
    """A per-game filter's figures, read the quickest way (figures_of: the chosen games, or their bucket's sums less
    the games left out), are those of the chosen games read one by one."""
    from gamelog.domain.games import GAMES
    from gamelog.projections.reports.statistics import Filters, ViewFigures, figures_of
    from gamelog.projections.store.application import GameStore
    from gamelog.projections.views.keeper import ViewKeeper

    from gamelog.domain.replay_document import held

    statistics = GAMES["twilight-imperium-4"].statistics
    with GameStore(store) as opened:
        with ViewKeeper(opened).connection() as cursor:
            chosen = Filters(**filters)
            quickest = figures_of(cursor, "twilight-imperium-4", chosen)
            assert type(quickest).__name__ == way
            summed = held(statistics.document(quickest))
            read = held(statistics.document(ViewFigures(cursor, "twilight-imperium-4", chosen)))
    assert msgspec.json.encode(summed) == msgspec.json.encode(read)
    assert summed.games == {"LessFigures": 2}.get(way, 0 if "player" in filters else 1)


def test_the_chosen_games_named_a_few_at_a_time_add_up_to_the_same_figures(store, monkeypatch):
    """ViewFigures names at most IDS games a query and adds the queries' rows up: one game a query gives the same."""
    from gamelog.domain.games import GAMES
    from gamelog.projections.reports import statistics as reading
    from gamelog.projections.store.application import GameStore
    from gamelog.projections.views.keeper import ViewKeeper

    from gamelog.domain.replay_document import held

    statistics = GAMES["twilight-imperium-4"].statistics
    with GameStore(store) as opened:
        with ViewKeeper(opened).connection() as cursor:
            whole = held(statistics.document(reading.ViewFigures(cursor, "twilight-imperium-4", reading.Filters())))
            lines = statistics.explain(reading.ViewFigures(cursor, "twilight-imperium-4"),
                                       "objectives/Build Defenses/scored")
            monkeypatch.setattr(reading, "IDS", 1)
            apart = held(statistics.document(reading.ViewFigures(cursor, "twilight-imperium-4")))
            apart_lines = statistics.explain(reading.ViewFigures(cursor, "twilight-imperium-4"),
                                             "objectives/Build Defenses/scored")
    assert whole.games == 3 and msgspec.json.encode(apart) == msgspec.json.encode(whole)
    assert len(lines) == SCORED["Build Defenses"] and apart_lines == lines


# -- the HTML page: each figure's games and lines, linked to the games' reports -----------------------------------


def _section(page: str, figure: str) -> str:
    """The part of the page listing the games behind ``figure`` (its section, opened by the figure's link)."""
    import html as html_module

    start = page.index(f"<h3>{html_module.escape(figure)}</h3>")
    return page[page.rindex("<section", 0, start):page.index("</section>", start)]


def _linked_lines(section: str) -> list[tuple[str, int]]:
    """(report file, line) of each line a section links to."""
    import re
    from urllib.parse import unquote

    return [(unquote(href), int(line)) for href, line in re.findall(r'href="([^"#]+)#line=(\d+)"', section)]


def test_the_html_figure_lists_exactly_the_games_and_lines_explain_gives(store, tmp_path):
    page_path = tmp_path / "page.html"
    code, output = stats(store, "--format", "html", "-o", str(page_path))
    assert code == 0, output
    page = page_path.read_text()
    # Erect a Monument: nHg8Hw's 5 scores and the correction that voided the Firmament's; 9-8-25's 3 scores.
    figure = "objectives/Erect a Monument/scored"
    explained = json.loads(stats(store, "--explain", figure, "--format", "json")[1])
    section = _section(page, figure)
    assert _linked_lines(section) == [(f"page-games/{line['game']}.html", line["line"]) for line in explained["lines"]]
    assert len(_linked_lines(section)) == 9 and "7 from 9 lines in 2 games" in section
    # The figure's cell in the objectives table opens that section.
    anchor = section.split('id="', 1)[1].split('"', 1)[0]
    assert f'<a href="#{anchor}" title="the games behind {figure}">7</a>' in page
    # A win is the game's own end: the Council Keleres won LjnqDB, at its last line.
    wins = _linked_lines(_section(page, "factions/Council Keleres/wins"))
    assert wins == [("page-games/ti-assistant-20250208T150314Z.html",
                     json.loads(stats(store, "--explain", "factions/Council Keleres/wins", "--format",
                                      "json")[1])["lines"][0]["line"])]


def test_a_figure_lists_its_first_games_then_how_many_more_and_the_command(store):
    from gamelog.stats import Filters, stats_pieces, stats_traced

    traced = stats_traced(store, filters=Filters(clean=False), reports="r", listed=1)
    trace = traced.traces["objectives/Build Defenses/scored"]
    # Build Defenses was scored in LjnqDB and 9-8-25 (not revealed in nHg8Hw): the first by id, LjnqDB, is listed.
    assert trace.games == 2 and {line.game for line in trace.shown} == {"ti-assistant-20250208T150314Z"}
    page = "".join(stats_pieces(traced, "html"))
    section = _section(page, "objectives/Build Defenses/scored")
    assert ("and 1 more game (the first 1 are listed): <code>gamelog stats --game twilight-imperium-4 --explain "
            "&#x27;objectives/Build Defenses/scored&#x27;</code>") in section
    assert {file for file, _ in _linked_lines(section)} == {"r/ti-assistant-20250208T150314Z.html"}


def test_write_reports_writes_one_report_per_counted_game_and_every_link_resolves(store, tmp_path):
    import re
    from urllib.parse import unquote

    page_path = tmp_path / "out" / "stats.html"
    page_path.parent.mkdir()
    result = CliRunner().invoke(main, ["stats", "--store", store, "--format", "html", "-o", str(page_path),
                                       "--write-reports", "--players", "6"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "stats-games"
    # --players 6: LjnqDB and 9-8-25.
    assert sorted(p.name for p in folder.iterdir()) == ["ti-assistant-20250208T150314Z.html",
                                                        "ti-assistant-20250906T142516Z.html"]
    assert "2 game reports written to" in result.output
    page = page_path.read_text()
    hrefs = set(re.findall(r'href="(stats-games/[^"#]+)', page))
    assert len(hrefs) == 2 and all((page_path.parent / unquote(h)).is_file() for h in hrefs)
    report = (folder / "ti-assistant-20250208T150314Z.html").read_text()
    assert report.startswith("<!DOCTYPE html>") and "ti-assistant-20250208T150314Z" in report


@pytest.mark.parametrize("args, said", [
    (("--format", "json", "--write-reports"), "--reports and --write-reports go with --format html"),
    (("--explain", "factions/Council Keleres/wins", "--format", "html", "--reports", "x"), "go with --format html"),
])
def test_reports_options_only_with_the_html_page(store, args, said):
    code, output = stats(store, *args)
    assert code == 2 and said in output


def test_write_reports_into_a_file_is_an_error_and_writes_nothing(store, tmp_path):
    (tmp_path / "taken").write_text("a file")
    page = tmp_path / "page.html"
    code, output = stats(store, "--format", "html", "-o", str(page), "--reports", "taken", "--write-reports")
    assert code == 2 and "taken is a file, not a folder" in output
    assert not page.exists() and (tmp_path / "taken").read_text() == "a file"


def test_a_rounds_figure_lists_the_line_that_set_the_score_after_that_round(store):
    from gamelog.stats import stats_traced

    trace = stats_traced(store).traces["rounds/4/Council Keleres/mean_vp"]
    explained = json.loads(stats(store, "--explain", "rounds/4/Council Keleres/mean_vp", "--format", "json")[1])
    # The Keleres' 8 VP after round 4 of LjnqDB (KELERES_ROUNDS): one line, one game.
    assert (trace.games, trace.lines, trace.total) == (1, 1, KELERES_ROUNDS[4])
    assert [(l.game, l.line, l.amount) for l in trace.shown] == [(l["game"], l["line"], l["amount"])
                                                                 for l in explained["lines"]]


def test_the_scores_counted_from_the_figures_are_those_counted_line_by_line(store, monkeypatch):
    from gamelog.projections.reports import statistics as reading
    from gamelog.stats import stats_traced

    quick = stats_traced(store).traces
    monkeypatch.setattr(reading, "_known_counts", lambda *args: {})
    assert stats_traced(store).traces == quick and len(quick) > 100
