"""``gamelog reconcile``: a game's declared result (its log's declarations, a results table) against the computed one.

The real exports' figures below were counted by hand from the exports (../shared/data/real/ti-assistant-*.json):
for a faction, every ``SCORE_OBJECTIVE`` entry of an objective card (minus its ``UNSCORE_OBJECTIVE``), by the card's
stage in ``ti4_public_objectives.csv`` (a stage II card is 2 VP) or as a secret (1 VP; a secret first revealed as
public by ``REVEAL_OBJECTIVE`` counts as a public objective, "other public objectives"); a ``SCORE_OBJECTIVE`` of
Support for the Throne (+1, its ``UNSCORE_OBJECTIVE`` -1); the first ``CLAIM_PLANET`` of Mecatol Rex (Custodians);
each ``SELECT_ACTION`` of Imperial by Mecatol Rex's holder (Imperial); a ``RESOLVE_AGENDA`` electing the faction
(Political Censure) or an Imperial Rider on the winning outcome (agendas). ``tests/test_ti_assistant_real.py``
lists those entries (``BEYOND_OBJECTIVES``). The declared figures are the export's ``data.winner`` and
``data.finalScoreOverrides``, and the Hall of Records' table ``ti4_master_data.csv``, read off the files.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

import gamelog
from gamelog.cli.main import main
from gamelog.domain.twilight_imperium.converters import convert
from gamelog.reconciling import TableInvalid
from tests.conftest import EXAMPLES, shared_path

COMPLETE = str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl")
RESULTS = str(EXAMPLES / "twilight-imperium-4" / "results.csv")


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


def real(name: str) -> dict:
    return json.loads(shared_path("data", "real", f"ti-assistant-{name}.json").read_text(encoding="utf-8"))


def log_of(tmp_path, name: str, export: dict) -> str:
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(convert("ti-assistant", export).to_bytes())
    return str(path)


def table(tmp_path, text: str, name: str = "results.csv") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def by_player(document) -> dict:
    return {p.player: p for p in document.players}


# -- the example: complete-4p and its results table ------------------------------------------------------


def test_a_game_that_declares_nothing_says_so_in_one_line():
    result = cli("reconcile", COMPLETE)
    assert result.exit_code == 0
    assert result.stdout == "ti4-complete-4p: no result is declared (by the log or a results table)\n"
    assert json.loads(cli("reconcile", COMPLETE, "--format", "json").stdout)["declared"] is False


def test_the_example_table_is_matched_by_id_and_its_differences_shown():
    document = gamelog.read_log(COMPLETE).reconcile(RESULTS)
    # The log's VP (tests/test_twilight_imperium_examples.py): Ann 7, Bob 10, Cy 6, Dee 6; the table: 8, 10, 6, 5.
    assert [(p.player, p.computed, p.declared, p.difference) for p in document.players] == [
        ("Ann", 7, 8, 1), ("Bob", 10, 10, 0), ("Cy", 6, 6, 0), ("Dee", 6, 5, -1)]
    assert document.matched_by == "id" and document.winner_agrees and not document.agrees
    bob = by_player(document)["Bob"]
    # Bob's lines: 5 stage I cards, one stage II (2 VP), 2 secrets, the Imperial point (a vp_gained "Imperial: ...").
    assert bob.sources == {"stage I objectives": 5, "stage II objectives": 2, "secret objectives": 2, "Imperial": 1}
    assert bob.source_lines["Imperial"] == [223]
    assert by_player(document)["Cy"].sources["Custodians"] == 1 and by_player(document)["Cy"].source_lines["Custodians"] == [75]
    assert [(d.where.rsplit("/", 1)[1], d.kind, d.player, d.value) for d in document.declared_from][:2] == [
        ("results.csv:2", "score", "Ann", 8), ("results.csv:2", "win", "Ann", False)]


def test_text_fits_80_columns_and_markdown_and_html_escape_names(tmp_path):
    text = cli("reconcile", COMPLETE, "--declared", RESULTS).stdout
    assert max(map(len, text.splitlines())) <= 80
    assert "  Ann            7         8          +1                 7" in text
    md = cli("reconcile", COMPLETE, "--declared", RESULTS, "--format", "markdown").stdout
    assert "| Ann | Emirates of Hacan | 7 | 8 | +1 | 7 |" in md  # the faction as every output names it
    out = tmp_path / "r.html"
    assert cli("reconcile", COMPLETE, "--declared", RESULTS, "--format", "html", "-o", str(out)).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<td>Ann</td><td>Emirates of Hacan</td><td>7</td><td>8</td>" in page


def test_another_layout_by_its_column_mapping_and_a_table_without_a_game_column(tmp_path):
    other = table(tmp_path, "Who;Final;Won\n", "x.csv")  # not comma separated: no column found
    result = cli("reconcile", COMPLETE, "--declared", other)
    assert result.exit_code == 2 and f"{other}:1: a results table names a player or a faction" in result.stderr
    path = table(tmp_path, "Who,Race,Final,Won\nAnn,,9,no\n,Federation of Sol,10,yes\n")
    document = gamelog.read_log(COMPLETE).reconcile(path, columns="player=Who,faction=Race,score=Final,win=Won")
    assert [(p.player, p.declared) for p in document.players] == [("Ann", 9), ("Bob", 10), ("Cy", None), ("Dee", None)]
    assert document.declared_winner == "Bob" and document.matched_by == "the one game given"
    result = cli("reconcile", COMPLETE, "--declared", path, "--columns", "score=Points")
    assert result.exit_code == 2 and f"{path}:1: no column 'Points' for score" in result.stderr


@pytest.mark.parametrize("rows, line, message", [
    ("ti4-complete-4p,Zed,,3,0\n", 2, "'Zed' is no player of ti4-complete-4p"),
    ("ti4-complete-4p,Ann,,seven,0\n", 2, "the score 'seven' is not a whole number"),
    ("ti4-complete-4p,Ann,,7,0\nti4-complete-4p,Bob,,10,maybe\n", 3, "the win 'maybe' is not 1 or 0"),
    ("ti4-complete-4p,Ann,Arborec,7,0\n", 2, "'Ann' plays 'The Emirates of Hacan' in ti4-complete-4p, not 'Arborec'"),
    ("ti4-complete-4p,Ann,,7,0\nti4-complete-4p,Ann,,8,0\n", 3, "Ann is named twice for ti4-complete-4p (line 2 too)"),
    ("other-game,Xi,,7,0\n", 2, "no game of the results table is ti4-complete-4p"),
])
def test_a_row_naming_an_unknown_player_or_game_is_an_input_error_at_its_line(tmp_path, rows, line, message):
    path = table(tmp_path, "GameID,Player,Faction,Score,Win\n" + rows)
    result = cli("reconcile", COMPLETE, "--declared", path)
    assert result.exit_code == 2, result.output
    assert f"Error: {path}:{line}: {message}" in result.stderr
    with pytest.raises(TableInvalid):
        gamelog.read_log(COMPLETE).reconcile(path)


def test_store_wide_matches_by_id_and_an_unknown_game_is_listed_not_an_error(tmp_path):
    store = str(tmp_path / "s.sqlite")
    assert cli("import", COMPLETE, "--store", store).exit_code == 0
    result = cli("reconcile", "--declared", RESULTS, "--store", store, "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["disagree"] == ["ti4-complete-4p"] and document["games"][0]["matched_by"] == "id"
    path = table(tmp_path, "GameID,Player,Score\nti4-complete-4p,Ann,7\nlost-game,Mo,3\nlost-game,Jo,4\n")
    result = cli("reconcile", "--declared", path, "--store", store)
    assert result.exit_code == 0
    assert f"{path}:3: the game 'lost-game' is no stored game" in result.stderr
    assert cli("reconcile", "--declared", path, "--store", store, "--strict").exit_code == 1
    no_game_column = table(tmp_path, "Player,Score\nAnn,7\n", "one.csv")
    result = cli("reconcile", "--declared", no_game_column, "--store", store)
    assert result.exit_code == 2 and f"{no_game_column}:1: a table of several games has a game column" in result.stderr


# -- declarations in the log: an adjustment as a what-if, a correction's source -------------------------


HEADER = ('{"type": "game", "game": "twilight-imperium-4", "id": "g", "players": ["Ann", "Bob"], '
          '"setup": {"factions": {"Ann": "Arborec", "Bob": "Federation of Sol"}, "vp_goal": 3}}\n')


def test_a_declared_adjustment_is_applied_as_a_what_if_and_a_correction_keeps_its_source(tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_text(HEADER + "\n".join([
        '{"type": "vp_scored", "player": "Ann", "origin": "Imperial Point"}',                 # 2
        '{"type": "vp_scored", "player": "Ann", "origin": "Imperial Point"}',                 # 3
        '{"type": "vp_scored", "player": "Bob", "origin": "Custodians Token"}',               # 4
        '{"type": "vp_gained", "player": "Bob", "points": 1, "source": "agenda: Mutiny"}',   # 5
        '{"type": "vp_gained", "player": "Bob", "points": 1, "source": "a deal"}',           # 6
        '{"type": "correction", "voids": 6, "reason": "not a VP"}',                          # 7
        '{"type": "vp_scored", "player": "Ann", "origin": "Imperial Point"}',                 # 8: Ann reaches 3
        '{"type": "winner_declared", "player": "Bob", "reason": "the table"}',                # 9
        '{"type": "score_declared", "player": "Bob", "score": 3, "reason": "the table"}',     # 10
        '{"type": "adjustment_declared", "player": "Ann", "origin": "Imperial Point", "points": 1}',  # 11
        '{"type": "adjustment_declared", "player": "Bob", "origin": "Custodians Token", "points": 2}',  # 12
    ]) + "\n", encoding="utf-8")
    document = gamelog.read_log(str(log)).reconcile()
    ann, bob = by_player(document)["Ann"], by_player(document)["Bob"]
    assert (ann.computed, ann.sources, ann.source_lines) == (3, {"Imperial": 3}, {"Imperial": [2, 3, 8]})
    # Bob's "a deal" point (line 6) is voided by line 7: the correction's -1 goes to the same source.
    assert bob.sources == {"Custodians": 1, "agendas": 1, "other VP": 0} and bob.source_lines["other VP"] == [6, 7]
    assert (bob.declared, bob.difference) == (3, 1)
    # Ann's declared 1 Imperial point of the log's 3: the two latest (8, then 3) are left out, as audit --without.
    (adjustment,) = ann.adjustments
    assert (adjustment.line, adjustment.held, adjustment.declared, adjustment.points, adjustment.voids) == (11, 3, 1, -2, [8, 3])
    assert ann.with_adjustments == 1
    # Bob's declared 2 Custodians points: one no line holds, counted as declared.
    assert bob.adjustments[0].added == 1 and bob.with_adjustments == 2 + 1
    assert document.computed_winner == "Ann" and document.declared_winner == "Bob" and not document.winner_agrees
    what_if = gamelog.read_log(str(log)).what_if([3, 8])
    assert document.winner_with_adjustments == what_if.result.what_if.winner  # None: no one reaches 3 then
    assert document.declared_winner_wins_with_adjustments is False
    # The audit ends with the same section; its rules weighed each adjustment (TI4-VP-SOURCE, unverifiable).
    audit = gamelog.read_log(str(log)).audit()
    assert audit.reconciliation.players == document.players
    assert [(f.line, f.rule, f.severity) for f in audit.findings if f.line in (11, 12)] == [
        (11, "TI4-VP-SOURCE", "unverifiable"), (12, "TI4-VP-SOURCE", "unverifiable")]
    text = " ".join(cli("audit", str(log)).stdout.split())  # wrapped at 80 columns
    assert "declared adjustment (line 11): 1 from Imperial Point, the log gives 3: -2, the what-if voids lines 8, 3" in text


def test_the_html_report_and_the_audit_have_a_section_only_when_the_log_declares(tmp_path):
    out = tmp_path / "r.html"
    assert cli("report", COMPLETE, "--format", "html", "-o", str(out)).exit_code == 0
    assert "Declared result" not in out.read_text(encoding="utf-8")
    assert "reconciliation" not in json.loads(cli("audit", COMPLETE, "--format", "json").stdout)
    log = tmp_path / "d.jsonl"
    log.write_text(HEADER + '{"type": "score_declared", "player": "Ann", "score": 2, "reason": "<b>x</b>"}\n',
                   encoding="utf-8")
    assert cli("report", str(log), "--format", "html", "-o", str(out)).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert "<h2>Declared result</h2>" in page and "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page
    assert json.loads(cli("audit", str(log), "--format", "json").stdout)["reconciliation"]["players"][0]["difference"] == 2


# -- the real exports (../shared) ---------------------------------------------------------------------------

SOURCES_9_8_25 = {
    # Kollecc Society: stage I Diversify Research, Build Defenses; stage II Master the Sciences, Construct Massive
    # Cities (2 each); Establish a Perimeter, a secret revealed as public (REVEAL_OBJECTIVE) before Steve scored it;
    # secrets Seize an Icon, Adapt New Strategies, Dictate Policy; Support for the Throne of Mikey, KP, Tim, Will.
    "Steve": {"stage I objectives": 2, "stage II objectives": 4, "other public objectives": 1, "secret objectives": 3,
              "Support for the Throne": 4},
    "Will": {"stage I objectives": 3, "stage II objectives": 4, "other public objectives": 1, "secret objectives": 3,
             "Support for the Throne": 1},
    # Nivyn Star Kings: the Custodians token (first CLAIM_PLANET of Mecatol Rex) and 2 Imperial primaries.
    "Mikey": {"stage I objectives": 3, "stage II objectives": 2, "other public objectives": 1, "secret objectives": 2,
              "Custodians": 1, "Imperial": 2},
    # Kortali Tribunal: Support for the Throne scored, then unscored when the note went back (0, two lines).
    "KP": {"stage I objectives": 5, "stage II objectives": 2, "other public objectives": 1, "secret objectives": 3,
           "Imperial": 1, "Support for the Throne": 0},
    # Li-Zho Dynasty: Political Censure (RESOLVE_AGENDA electing it).
    "Chris": {"stage I objectives": 5, "stage II objectives": 2, "secret objectives": 4, "agendas": 1},
    "Tim": {"stage I objectives": 2, "stage II objectives": 4, "secret objectives": 3, "Support for the Throne": 1},
}

SOURCES_LJNQDB = {
    "Steve": {"stage I objectives": 5, "secret objectives": 2, "Imperial": 1, "Support for the Throne": 1},
    # Embers of Muaat: its Imperial Rider on the winning outcome (agendas); its Support for the Throne went back.
    "Ben": {"stage I objectives": 4, "secret objectives": 2, "Imperial": 1, "agendas": 1, "Support for the Throne": 0},
    "Will": {"stage I objectives": 3, "secret objectives": 3, "Support for the Throne": 2},
    "Paul": {"stage I objectives": 4, "secret objectives": 3, "Support for the Throne": 1},
    # Council Keleres: took Mecatol Rex first (Custodians) and played Imperial twice while holding it.
    "Tanys": {"stage I objectives": 4, "secret objectives": 2, "Custodians": 1, "Imperial": 2, "Support for the Throne": 1},
    "TK": {"stage I objectives": 3, "secret objectives": 2, "Support for the Throne": 1},
}


def test_9_8_25_its_final_score_overrides_agree_with_the_log(tmp_path):
    document = gamelog.read_log(log_of(tmp_path, "9-8-25", real("9-8-25"))).reconcile()
    players = by_player(document)
    assert {p: players[p].sources for p in players} == SOURCES_9_8_25
    assert {p: players[p].computed for p in players} == {"Steve": 14, "Will": 12, "Mikey": 11, "KP": 12, "Chris": 12, "Tim": 10}
    # data.finalScoreOverrides: Kollecc Society 14, Li-Zho Dynasty 12, Nivyn Star Kings 11; data.winner Kollecc.
    assert {p: (players[p].declared, players[p].difference) for p in players} == {
        "Steve": (14, 0), "Will": (None, None), "Mikey": (11, 0), "KP": (None, None), "Chris": (12, 0), "Tim": (None, None)}
    assert (document.computed_winner, document.declared_winner, document.winner_agrees, document.agrees) == (
        "Steve", "Steve", True, True)
    assert [(d.kind, d.by.split(":")[0]) for d in document.declared_from] == [
        ("winner", "the archive's data.winner")] + [("score", "the archive's data.finalScoreOverrides")] * 3


def test_ljnqdb_its_declared_winner_is_the_logs(tmp_path):
    document = gamelog.read_log(log_of(tmp_path, "LjnqDB", real("LjnqDB"))).reconcile()
    players = by_player(document)
    assert {p: players[p].sources for p in players} == SOURCES_LJNQDB
    # data.winner: Council Keleres (Tanys), who reaches 10 in the log; no scores declared.
    assert (document.computed_winner, document.declared_winner, document.winner_agrees) == ("Tanys", "Tanys", True)
    assert all(p.declared is None for p in document.players)


def test_an_imperial_vp_override_takes_the_latest_imperial_points_away(tmp_path):
    export = real("9-8-25")
    export["data"]["imperialVPOverrides"] = {"Nivyn Star Kings": 0}  # the table applied none of Mikey's 2
    log = log_of(tmp_path, "9-8-25-imperial", export)
    document = gamelog.read_log(log).reconcile()
    mikey = by_player(document)["Mikey"]
    (adjustment,) = mikey.adjustments
    assert (adjustment.origin, adjustment.held, adjustment.declared, adjustment.voids) == (
        "Imperial Point", 2, 0, list(reversed(mikey.source_lines["Imperial"])))
    assert mikey.with_adjustments == 11 - 2 and document.winner_with_adjustments == "Steve"
    assert document.declared_winner_wins_with_adjustments is True
    assert [p.with_adjustments for p in document.players if p.player != "Mikey"] == [14, 12, 12, 12, 10]


def master_table() -> str:
    return str(shared_path("data", "real", "ti4_master_data.csv"))


def test_the_hall_of_records_table_matches_each_shared_game_by_players_and_factions(tmp_path):
    master = master_table()
    differences = {}
    for name in ("nHg8Hw", "9-8-25", "LjnqDB"):
        document = gamelog.read_log(log_of(tmp_path, name, real(name))).reconcile(master)
        assert document.matched_by == "players and factions"
        differences[document.table_game] = ({p.player: p.difference for p in document.players},
                                            document.declared_winner, document.winner_agrees)
    # The table's Score minus the log's VP (test_ti_assistant_real.APP_VP), Win = 1 for the declared winner.
    assert differences == {
        "nHg8Hw_data.json": ({"Ben": -1, "Merrill": -1, "Will": 0, "Paul": -2, "Zach": -1}, "Ben", True),
        "TIAssistant_Game Data.json": ({"Steve": -1, "Will": -1, "Mikey": -5, "KP": 0, "Chris": -2, "Tim": -1},
                                       "Steve", True),
        # The table names Argent Flight (Steve, 9 VP in the log) the winner; the log's Council Keleres reaches 10.
        "LjnqDB_data (2).json": ({"Steve": 0, "Ben": -2, "Will": 0, "Paul": 0, "Tanys": -3, "TK": 0}, "Steve", False),
    }


def test_a_table_score_stands_over_the_exports_and_both_are_listed(tmp_path):
    document = gamelog.read_log(log_of(tmp_path, "9-8-25", real("9-8-25"))).reconcile(master_table())
    steve = by_player(document)["Steve"]
    assert (steve.declared, steve.difference) == (13, -1)
    said = [(d.where.rsplit("/", 1)[1], d.value) for d in document.declared_from if d.player == "Steve" and d.kind == "score"]
    assert said == [("9-8-25.jsonl:1154", 14), ("ti4_master_data.csv:7", 13)]


def test_store_wide_the_shared_games_are_matched_and_the_others_listed(tmp_path):
    store = str(tmp_path / "s.sqlite")
    for name in ("nHg8Hw", "9-8-25", "LjnqDB"):
        path = shared_path("data", "real", f"ti-assistant-{name}.json")
        assert cli("import", "--from", "ti-assistant", str(path), "--store", store).exit_code == 0
    master = master_table()
    result = cli("reconcile", "--declared", master, "--store", store)
    # Two of the table's five games have no export in ../shared: each is named at its first row, no error.
    assert result.exit_code == 0 and "Error" not in result.stderr
    assert re.findall(r"ti4_master_data\.csv:(\d+): the game '([^']+)' is no stored game", result.stderr) == [
        ("19", "1.19.25 TI Assistant JSON Game Data.json"), ("25", "1.11.25 Twilight Imperium Game.json")]
    # ... and the three it holds are reconciled all the same, the two others listed in the document too.
    result = cli("reconcile", "--declared", master, "--store", store, "--format", "json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert len(document["games"]) == 3 and len(document["disagree"]) == 3
    assert [u.split(": ", 1)[0].rsplit(":", 1)[1] for u in document["unmatched"]] == ["19", "25"]
    lines = open(master, encoding="utf-8").read().splitlines()
    shared = table(tmp_path, "\n".join(lines[:18]) + "\n", "shared.csv")  # the heading and the shared games' rows
    result = cli("reconcile", "--declared", shared, "--store", store, "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert [(g["table_game"], g["game"], g["matched_by"]) for g in document["games"]] == [
        ("nHg8Hw_data.json", "ti-assistant-20260110T163927Z", "players and factions"),
        ("TIAssistant_Game Data.json", "ti-assistant-20250906T142516Z", "players and factions"),
        ("LjnqDB_data (2).json", "ti-assistant-20250208T150314Z", "players and factions")]
    assert document["disagree"] == [g["game"] for g in document["games"]]
    text = cli("reconcile", "--declared", shared, "--store", store).stdout
    assert max(map(len, text.splitlines())) <= 80
    assert "; disagree: ti-assistant-20260110T163927Z," in " ".join(text.split())
