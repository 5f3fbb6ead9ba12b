"""A game is one plug-in: a fourth game, from its own folder only, through every command.

``tests/fixtures/coin_toss/`` is a tiny game with the same modules as the
games in ``domain/``. Plugged into the registry for one test at a time, it is
validated, imported into a temporary SQLite store, replayed, reported in all
five formats and audited through the ``gamelog`` command; no file outside its
folder knows it. A search of the source then shows that the three real games
are known only in their folders and the registry.
"""

from __future__ import annotations

import csv
import importlib
import inspect
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.events import COMMON_EVENTS, Derived, Recorded
from gamelog.domain.games import GAMES, plugged_in, register, unregister
from gamelog.domain.ruletext import rule
from tests.conftest import ROOT

PACKAGE = "tests.fixtures.coin_toss"
REAL_GAMES = {name: GAMES.package(name) for name in GAMES}
"""The games the registry ships with (read before any test plugs one in): name -> package."""

FLIP = [
    {"type": "game", "game": "coin-toss", "id": "flip-1", "players": ["Ann", "Bob"], "setup": {"goal": 2}},  # line 1
    {"type": "round_started", "round": 1},                          # 2
    {"type": "turn_started", "player": "Ann"},                      # 3
    {"type": "coin_called", "player": "Ann", "face": "heads"},      # 4
    {"type": "coin_landed", "face": "heads"},                       # 5: a right call, Ann 1 VP
    {"type": "turn_ended", "player": "Ann"},                        # 6
    {"type": "turn_started", "player": "Bob"},                      # 7
    {"type": "coin_landed", "face": "tails"},                       # 8: nobody called it (COIN-CALL)
    {"type": "turn_ended", "player": "Bob"},                        # 9
    {"type": "round_started", "round": 2},                          # 10
    {"type": "turn_started", "player": "Ann"},                      # 11
    {"type": "coin_called", "player": "Ann", "face": "tails"},      # 12
    {"type": "coin_landed", "face": "tails"},                       # 13: Ann 2 VP, the goal
    {"type": "score_claimed", "player": "Ann", "vp": 2},            # 14: right
    {"type": "turn_ended", "player": "Ann"},                        # 15: Ann wins (COIN-WIN)
]


@pytest.fixture
def coin_toss():
    """The coin toss game, registered for this test only."""
    with plugged_in(PACKAGE) as rules:
        yield rules


@pytest.fixture
def flip(tmp_path) -> str:
    path = tmp_path / "flip.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in FLIP), encoding="utf-8")
    return str(path)


@pytest.fixture
def gamelog(tmp_path, monkeypatch, coin_toss):
    """Runs ``gamelog ARGS...`` with the coin toss plugged in and a store of this test's own."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GAMELOG_STORE", str(tmp_path / "store.sqlite"))
    runner = CliRunner()

    def invoke(*args: str, code: int = 0):
        result = runner.invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output

    return invoke


# --- The registry ------------------------------------------------------------------------


def test_the_registry_lists_the_three_games_and_a_plugged_game_only_inside_its_block():
    assert REAL_GAMES == {"merchant-of-venus": "gamelog.domain.merchant_of_venus", "uchronia": "gamelog.domain.uchronia",
                          "twilight-imperium-4": "gamelog.domain.twilight_imperium"}
    assert list(GAMES) == list(REAL_GAMES)
    with plugged_in(PACKAGE) as rules:
        assert list(GAMES) == [*REAL_GAMES, "coin-toss"] and GAMES["coin-toss"] is rules
        assert GAMES.package("coin-toss") == PACKAGE
        assert rule("COIN-CALL").text.endswith("has called it, once a turn.")
    assert "coin-toss" not in GAMES and list(GAMES) == list(REAL_GAMES)
    assert rule("COIN-CALL").text == "(no text: this rule ID is not in RULES.md)"


def test_a_game_cannot_be_registered_twice_and_unregister_takes_it_out():
    register(PACKAGE)
    try:
        with pytest.raises(ValueError, match="coin-toss"):
            register(PACKAGE)
    finally:
        unregister("coin-toss")
    assert "coin-toss" not in GAMES
    with pytest.raises(KeyError):
        unregister("coin-toss")


def test_the_plugin_tells_its_lines_counts_its_score_and_names_its_rounds(coin_toss):
    from tests.fixtures.coin_toss.events import CoinCalled, RoundStarted, VpChanged

    assert coin_toss.phrase(CoinCalled(player="Ann", face="heads")) == ("coin_called", "Ann", "Ann calls heads")
    step = coin_toss.measures.steps[VpChanged](VpChanged(line=5, player="Ann", delta=1, rule="COIN-WIN", reason="right"))
    assert step == ("Ann", "vp", 1, "COIN-WIN", "right")
    assert coin_toss.round_of(RoundStarted(round=2)) == 2 and coin_toss.round_of(CoinCalled(player="Ann", face="heads")) is None
    assert coin_toss.measures.standing("Ann", {("Ann", "vp"): 2, ("heads", "shown"): 1}) == {"vp": 2}


# --- Every command -----------------------------------------------------------------------


def test_validate_finds_the_uncalled_toss(gamelog, flip):
    out = gamelog("validate", flip, code=1)
    assert f"{flip}:8: violation COIN-CALL [Bob]: the coin lands, but no one called it this turn" in out
    document = json.loads(gamelog("validate", flip, "--format", "json", code=1))
    (checked,) = document["files"]
    assert checked["errors"] == []
    assert [(f["line"], f["rule"], f["severity"], f["player"]) for f in checked["findings"]] == [(8, "COIN-CALL", "violation", "Bob")]


def test_import_stores_the_game_and_games_lists_it(gamelog, flip):
    gamelog("import", flip)
    (row,) = json.loads(gamelog("games", "--format", "json"))["games"]
    assert (row["id"], row["game"], row["players"], row["last_line"]) == ("flip-1", "coin-toss", ["Ann", "Bob"], 15)
    assert (row["finished"], row["winner"]) == (True, "Ann")


def test_replay_of_the_stored_game_after_a_line_a_round_and_at_the_end(gamelog, flip):
    gamelog("import", flip)
    after5 = json.loads(gamelog("replay", "flip-1", "--line", "5", "--format", "json"))
    assert after5["players"] == {"Ann": {"vp": 1}, "Bob": {"vp": 0}} and after5["board"] == {"heads": 1, "tails": 0}
    assert after5["forum"] == after5["board"]  # the deprecated name, kept one schema version
    round1 = json.loads(gamelog("replay", "flip-1", "--round", "1", "--format", "json"))
    assert (round1["line"], round1["round"], round1["turn"], round1["finished"]) == (9, 1, 2, False)
    assert round1["board"] == round1["forum"] == {"heads": 1, "tails": 1}
    end = json.loads(gamelog("replay", "flip-1", "--format", "json"))
    assert end["players"]["Ann"] == {"vp": 2} and (end["round"], end["winner"]) == (2, "Ann")
    assert end["end"] == {"line": 15, "rule": "COIN-WIN", "reason": "2 VP at the end of Ann's turn (goal 2)"}
    gamelog("replay", "flip-1", "--round", "3", code=2)


def test_report_json_groups_by_the_games_rounds_with_its_score_goal_and_board(gamelog, flip):
    gamelog("import", flip)
    report = json.loads(gamelog("report", "flip-1", "--format", "json"))
    assert (report["game"], report["by"], report["score"], report["goal"]) == ("coin-toss", "round", "vp", 2)
    assert report["result"] == {"finished": True, "winner": "Ann", "line": 15, "rule": "COIN-WIN",
                                "reason": "2 VP at the end of Ann's turn (goal 2)"}
    assert report["findings"] == {"violation": 1, "unverifiable": 0, "warning": 0}
    one, two = report["periods"]
    assert (one["number"], one["first_line"], one["last_line"], one["players"]) == (1, 2, 9, ["Ann", "Bob"])
    assert one["standings"] == {"Ann": {"vp": 1}, "Bob": {"vp": 0}} and one["board"] == {"heads": 1, "tails": 1}
    assert two["standings"] == {"Ann": {"vp": 2}, "Bob": {"vp": 0}} and two["board"] == {"heads": 1, "tails": 2}
    assert [p["forum"] for p in report["periods"]] == [p["board"] for p in report["periods"]]  # deprecated alias
    line8 = next(line for line in one["lines"] if line["line"] == 8)
    assert line8["text"] == "the coin lands tails up"
    assert [(f["rule"], f["severity"]) for f in line8["findings"]] == [("COIN-CALL", "violation")]
    line13 = next(line for line in two["lines"] if line["line"] == 13)
    assert [(c["subject"], c["measure"], c["delta"], c["value"]) for c in line13["changes"]] == [
        ("tails", "shown", 1, 2), ("Ann", "vp", 1, 2)]
    by_turn = json.loads(gamelog("report", "flip-1", "--by", "turn", "--format", "json"))
    assert [p["number"] for p in by_turn["periods"]] == [0, 1, 2, 3]


def test_report_text_markdown_csv_and_html(gamelog, flip):
    gamelog("import", flip)
    text = gamelog("report", "flip-1")
    assert "Result: Ann won at line 15 (COIN-WIN: 2 VP at the end of Ann's turn (goal 2))" in text
    assert "Round 2: Ann (lines 10-15)" in text and "     12  Ann calls tails" in text
    markdown = gamelog("report", "flip-1", "--format", "markdown")
    assert "## Round 1: Ann, Bob" in markdown
    assert ("| 8 |  | the coin lands tails up | tails shown +1 = 1 (COIN-CALL) | **violation** `COIN-CALL`: "
            "the coin lands, but no one called it this turn |") in markdown
    rows = list(csv.reader(io.StringIO(gamelog("report", "flip-1", "--format", "csv"))))
    assert rows[0] == ["game", "id", "round", "first_line", "last_line", "player", "acted", "vp", "violations", "warnings", "unverifiable"]
    assert rows[1:] == [["coin-toss", "flip-1", "1", "2", "9", "Ann", "1", "1", "0", "0", "0"],
                        ["coin-toss", "flip-1", "1", "2", "9", "Bob", "1", "0", "1", "0", "0"],
                        ["coin-toss", "flip-1", "2", "10", "15", "Ann", "1", "2", "0", "0", "0"],
                        ["coin-toss", "flip-1", "2", "10", "15", "Bob", "0", "0", "0", "0", "0"]]
    html = gamelog("report", "flip-1", "--format", "html")
    # Each chart twice, a desktop's and a phone's (the page shows the one that fits): a line per player in each.
    assert re.findall(r'<polyline class="series" data-name="(\w+)"', html) == ["Ann", "Bob"] * 2
    # The board's heat strip: the fixture's heading, title, faces and colours, and its counts after each round.
    assert "<h3>The coin over time</h3>" in html and 'aria-label="Faces shown"' in html
    assert re.findall(r'<title>(\w+), after round (\d): (\d)</title><rect [^>]* fill="(#\w+)"', html.split("strip narrow")[0]) == [
        ("heads", "1", "1", "#daa520"), ("heads", "2", "1", "#daa520"), ("tails", "1", "1", "#4682b4"),
        ("tails", "2", "2", "#4682b4")]
    assert '"board":{"heads":["#daa520","plain"],"tails":["#4682b4","plain"]}' in html  # the replay's swatches
    assert "goal 2</text>" in html and '<tr class="violation" data-position="7"><td>8</td>' in html


def test_audit_quotes_the_games_own_rule_and_shows_how_the_score_was_made(gamelog, flip):
    gamelog("import", flip)
    out = gamelog("audit", "flip-1", code=1)
    assert "line 8: violation COIN-CALL [Bob]: the coin lands, but no one called it this turn" in " ".join(out.split())
    document = json.loads(gamelog("audit", "flip-1", "--format", "json", code=1))
    (finding,) = document["findings"]
    assert (finding["line"], finding["rule"], finding["in_seeds"], finding["log"]) == (8, "COIN-CALL", False, "the coin lands tails up")
    assert finding["rule_text"] == "The coin lands only after the player whose turn it is has called it, once a turn."
    assert finding["rule_from"] == "gamelog's reading: the rulebook pages gamelog was built from do not state this rule"
    assert document["score"] == "vp"
    assert document["scores"]["Ann"] == {"total": 2, "entries": [
        {"line": 5, "points": 1, "source": "called heads right", "rule": "COIN-WIN", "total": 1},
        {"line": 13, "points": 1, "source": "called tails right", "rule": "COIN-WIN", "total": 2}]}
    assert document["scores"]["Bob"] == {"total": 0, "entries": []}


def test_audit_without_the_winning_toss_takes_the_win_away(gamelog, flip):
    what_if = json.loads(gamelog("audit", flip, "--without", "13", "--format", "json", code=1))
    assert what_if["winner_changes"] is True
    assert what_if["result"]["actual"]["winner"] == "Ann" and what_if["result"]["what_if"]["finished"] is False
    assert [(f["line"], f["rule"]) for f in what_if["findings_new"]] == [(14, "CLAIM")]


# --- Nothing outside a game's folder knows it ---------------------------------------------


def _event_names() -> tuple[set[str], set[str]]:
    """The real games' event classes and their ``type`` tags (those every game has left out)."""
    common = {cls.__struct_config__.tag for cls in COMMON_EVENTS}
    classes, tags = set(), set()
    for package in REAL_GAMES.values():
        module = importlib.import_module(f"{package}.events")
        for name, cls in vars(module).items():
            # Header and LineRecorded are names every game must use (the reader's and the engine's contract).
            if inspect.isclass(cls) and cls.__module__ == module.__name__ and issubclass(cls, (Recorded, Derived)) \
                    and name not in ("Header", "LineRecorded"):
                classes.add(name)
                tag = getattr(cls.__struct_config__, "tag", None)
                if issubclass(cls, Recorded) and tag not in common:
                    tags.add(tag)
    return classes, tags


def _generic_sources() -> list[Path]:
    skipped = {ROOT.joinpath(*package.removeprefix("gamelog.").split(".")) for package in REAL_GAMES.values()}
    files = [path for top in ("domain", "projections", "cli") for path in sorted((ROOT / top).rglob("*.py"))]
    return [path for path in files if path != ROOT / "domain" / "games.py" and not any(folder in path.parents for folder in skipped)]


def test_outside_the_game_folders_and_the_registry_no_code_names_a_game_its_events_or_its_colours():
    from gamelog.domain.uchronia.reference import COLORS

    classes, tags = _event_names()
    assert {"GoodsBought", "ForumChanged", "RoundStarted"} <= classes and {"goods_bought", "round_started"} <= tags
    names = [*REAL_GAMES, *(package.rsplit(".", 1)[-1] for package in REAL_GAMES.values()), "merchant", "uchronia", "twilight"]
    pattern = re.compile("|".join([re.escape(n) for n in names] + [rf"\b{c}\b" for c in COLORS]), re.IGNORECASE)
    exact = re.compile("|".join(rf"\b{re.escape(n)}\b" for n in sorted(classes | tags)))
    sources = _generic_sources()
    assert ROOT / "projections" / "views" / "folder.py" in sources and ROOT / "domain" / "engine.py" in sources
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in sources for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line) or exact.search(line)]
    assert found == []


OLD_NAMES = {
    # One game's words that generic code kept as the old names of generic fields, and the only modules that may say them.
    "forum": {"domain/replay_document.py", "projections/reports/documents.py", "projections/reports/model.py",
              "projections/reports/scrubber.py"},  # the deprecated name of "board" in the JSON documents (docs/cli.md)
    "net_worth": {"domain/events.py"},  # an older name of a claim's "score" (docs/log-format.md)
}


def test_one_games_words_are_only_the_documented_old_names_of_generic_fields():
    sources = _generic_sources()
    for word, allowed in OLD_NAMES.items():
        pattern = re.compile(rf"\b{word}\b", re.IGNORECASE)
        where = {str(path.relative_to(ROOT)) for path in sources if pattern.search(path.read_text(encoding="utf-8"))}
        assert where == allowed, word
    assert "`forum`" in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "`net_worth`" in (ROOT / "docs" / "log-format.md").read_text(encoding="utf-8")


def test_the_fixture_has_the_modules_adding_a_game_lists():
    """The fourth game is the smallest honest set of modules, and docs/adding-a-game.md's table names each of them."""
    page = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    table = set(re.findall(r"^\| `(\w+)\.py` \|", page, re.MULTILINE))
    folder = {path.stem for path in (ROOT / "tests" / "fixtures" / "coin_toss").glob("*.py") if path.stem != "__init__"}
    assert table == folder == {"events", "state", "rules", "game", "replay_document", "reference", "phrases", "measures",
                              "secrets", "statistics", "entries"}
    for package in REAL_GAMES.values():
        folder = ROOT.joinpath(*package.removeprefix("gamelog.").split("."))
        assert {path.stem for path in folder.glob("*.py") if path.stem != "__init__"} == table, package


def test_the_plugins_statistics_count_its_facts_and_its_wins(gamelog, flip):
    """``gamelog stats`` of the flip, counted from FLIP: Ann won (line 15, COIN-WIN) on 2 VP; the coin showed heads
    once (line 5) and tails twice (lines 8, 13)."""
    gamelog("import", flip)
    doc = json.loads(gamelog("stats", "--format", "json"))
    assert doc["game"] == "coin-toss" and doc["games"] == doc["finished"] == 1
    assert [(p["player"], p["wins"], p["mean_vp"]) for p in doc["players"]] == [("Ann", 1, 2.0), ("Bob", 0, 0.0)]
    assert [(f["face"], f["shown"]) for f in doc["faces"]] == [("heads", 1), ("tails", 2)]
    explained = json.loads(gamelog("stats", "--explain", "faces/tails/shown", "--format", "json"))
    assert [(line["line"], line["amount"]) for line in explained["lines"]] == [(8, 1), (13, 1)]
    assert json.loads(gamelog("stats", "--explain", "players/ann/wins", "--format", "json"))["lines"][0]["line"] == 15
