"""What a new user asked of ``stats`` and ``replay`` (issue 32, section 2), through the ``gamelog`` command.

* TI4 has a per-player table (games, wins, win rate, mean VP, factions played): ``stats --player Ann`` says who
  of Ann's table wins most; its values are read off the examples' own reports, game by game.
* Text, Markdown and HTML write headings and columns in words and rates as percentages; JSON and CSV keep the
  document's field names and values.
* ``--explain`` and the text tables wrap a long name, never cut it with ``~``.
* A faction has one name in ``replay``, ``reconcile`` and ``stats`` (an AsyncTI4 save's ``arborec``, a header's
  "The Emirates of Hacan").
* ``replay --turn N`` on a log kept by round says to ask by round.

The HTML page on a phone is tests/test_phone_layout.py's.
"""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.projections.reports.stats_formats import LINES, chosen_series
from tests.conftest import EXAMPLES

TI4 = EXAMPLES / "twilight-imperium-4"
LOGS = [TI4 / "complete-4p.jsonl", TI4 / "disputed.jsonl", TI4 / "disputed-no-objectives-left.jsonl"]
SAVE = TI4 / "asyncti4-pbd10972.txt"
FIELD_NAME = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")
"""A name as the JSON document spells it (``win_rate``, ``stage_1``, ``scorers_per_game``): never in words."""


def gamelog(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": "80"})
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> str:
    """A store of the three TI4 example logs and the AsyncTI4 save."""
    location = str(tmp_path_factory.mktemp("store") / "s.sqlite")
    gamelog("import", "--store", location, *map(str, LOGS))
    gamelog("import", "--store", location, "--from", "asyncti4", str(SAVE))
    return location


def test_ti4_has_a_table_of_players_that_says_who_of_ann_s_table_wins_most(store):
    # Each of the examples by its own report: who played, with which faction, their final VP, the winner.
    expected: dict[str, list] = {}
    for log in LOGS:
        report = json.loads(gamelog("report", str(log), "--format", "json"))
        header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
        final = report["periods"][-1]["standings"]
        if "Ann" not in header["players"]:
            continue
        for player in header["players"]:
            row = expected.setdefault(player, [0, 0, 0, set()])
            row[0] += 1
            row[1] += report["result"]["winner"] == player
            row[2] += final[player]["vp"]
            faction = json.loads(gamelog("replay", str(log), "--format", "json"))["players"][player]["faction"]
            row[3].add(faction)
    document = json.loads(gamelog("stats", "--store", store, "--game", "twilight-imperium-4", "--player", "Ann",
                                  "--format", "json"))
    assert document["games"] == 3
    got = {p["player"]: p for p in document["players"]}
    assert set(got) == set(expected) == {"Ann", "Bob", "Cy", "Dee"}
    for player, (games, wins, vp, factions) in expected.items():
        assert got[player] == {"player": player, "games": games, "wins": wins,
                               "win_rate": round(wins / games, 3), "mean_vp": round(vp / games, 2),
                               "factions": sorted(factions, key=str.casefold)}
    # By hand: Ann won ti4-disputed (10 VP) and ti4-last-objective (2 VP), not ti4-complete-4p (7 VP); Cy played
    # the Arborec in complete-4p and the Emirates of Hacan in ti4-disputed.
    assert got["Ann"]["wins"] == 2 and got["Ann"]["mean_vp"] == 6.33
    assert got["Cy"]["factions"] == ["Arborec", "Emirates of Hacan"]
    text = gamelog("stats", "--store", store, "--game", "twilight-imperium-4", "--player", "Ann", "--table", "players")
    assert "  player  games  wins  win rate  mean VP  factions" in text.splitlines()
    assert "  Ann         3     2     66.7%     6.33  Emirates of Hacan" in text.splitlines()
    # Without a filter (the sums across games): the AsyncTI4 game's players too.
    every = json.loads(gamelog("stats", "--store", store, "--game", "twilight-imperium-4", "--format", "json"))
    assert {p["player"]: (p["games"], p["wins"]) for p in every["players"]}["Confusedwaffle"] == (1, 1)


def test_text_and_markdown_write_words_and_percentages_json_and_csv_keep_the_names(store):
    text = gamelog("stats", "--store", store, "--game", "twilight-imperium-4", "--all")  # every table
    markdown = gamelog("stats", "--store", store, "--game", "twilight-imperium-4", "--format", "markdown")
    for out in (text, markdown):
        assert FIELD_NAME.findall(out) == [], FIELD_NAME.findall(out)[:5]
        assert "win rate" in out and "mean VP" in out and "VP by source" in out and "scorers a game" in out
        assert "stage I objectives" in out  # a VP source as the report names it
    lines = text.splitlines()
    # The Federation of Sol: Bob's in the three example logs, won once (complete-4p): 33.3%; 4 + 6 + 1 + 3 VP.
    assert "  Federation of Sol          3     1     33.3%     4.67       3.86" in lines
    assert "| Federation of Sol | 3 | 1 | 33.3% | 4.67 | 3.86 |" in markdown
    document = json.loads(gamelog("stats", "--store", store, "--game", "twilight-imperium-4", "--format", "json"))
    sol = next(f for f in document["factions"] if f["faction"] == "Federation of Sol")
    assert sol["win_rate"] == 0.333 and "stage_1" in {s["source"] for s in document["vp_sources"]}
    rows = list(csv.reader(io.StringIO(gamelog("stats", "--store", store, "--game", "twilight-imperium-4",
                                               "--format", "csv", "--table", "players"))))
    assert rows[0] == ["player", "games", "wins", "win_rate", "mean_vp", "factions"]
    assert ["Cy", "2", "0", "0.0", "4.5", "Arborec, Emirates of Hacan"] in rows


class _Shown(HTMLParser):
    """The text of a page's headings, table cells and bars: outside ``<code>`` (a command, as typed) and lists (a
    log's lines, in their own words)."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.open.append(tag)

    def handle_endtag(self, tag):
        while self.open and self.open.pop() != tag:
            pass

    def handle_data(self, data):
        if "code" not in self.open and "li" not in self.open and {"h1", "h2", "th", "td", "span"} & set(self.open):
            self.texts.append(data)


def test_the_html_page_writes_words_and_percentages(store, tmp_path):
    page = tmp_path / "stats.html"
    gamelog("stats", "--store", store, "--game", "twilight-imperium-4", "--format", "html", "-o", str(page))
    html = page.read_text(encoding="utf-8")
    shown = _Shown()
    shown.feed(html)
    words = " ".join(shown.texts)
    assert FIELD_NAME.findall(words) == [], FIELD_NAME.findall(words)[:5]
    assert "<h2>win rate by faction</h2>" in html and "<h2>mean VP after each round</h2>" in html
    assert '<h2 id="t-vp_sources">VP by source</h2>' in html and "<th>win rate</th>" in html
    assert "33.3% (3 games)" in html  # the Federation of Sol's bar


def test_explain_wraps_a_long_line_and_never_cuts_a_name():
    out = gamelog("stats", "--from", "asyncti4", str(SAVE), "--explain", "factions/Arborec/mean_vp")
    assert "~" not in out and max(map(len, out.splitlines())) <= 80
    # The line's words whole, wrapped under the text: the Arborec's 8 VP at the game's last scoring line.
    assert out.splitlines() == [
        "factions/Arborec/mean_vp: 8 from 1 line in 1 game",
        "  pbd10972:103  +8  Back Li gains 1 VP: Support for the Throne (Confusedwaffle's",
        "      Support for the Throne (orange_sftt) in Back Li's play area)"]


def test_a_text_table_wraps_a_name_longer_than_its_column(store):
    out = gamelog("stats", "--store", store, "--game", "twilight-imperium-4", "--table", "objectives")
    assert "~" not in out and max(map(len, out.splitlines())) <= 80


def test_a_faction_has_one_name_in_replay_reconcile_and_stats(tmp_path):
    log = tmp_path / "async.jsonl"
    gamelog("convert", "--from", "asyncti4", str(SAVE), "-o", str(log))
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["setup"]["factions"]["Back Li"] == "arborec"
    replayed = json.loads(gamelog("replay", str(log), "--format", "json"))
    reconciled = json.loads(gamelog("reconcile", str(log), "--format", "json"))
    counted = json.loads(gamelog("stats", str(log), "--format", "json"))
    assert replayed["players"]["Back Li"]["faction"] == "Arborec"
    assert next(p for p in reconciled["players"] if p["player"] == "Back Li")["faction"] == "Arborec"
    assert {f["faction"] for f in counted["factions"]} == {p["faction"] for p in replayed["players"].values()} == {
        "Arborec", "Yssaril Tribes", "Clan of Saar", "L1Z1X Mindnet", "Barony of Letnev", "Mahact Gene-Sorcerers"}
    assert "  faction                 Arborec       Yssaril Tribes  Clan of Saar" in gamelog("replay", str(log))
    # A header's "The Emirates of Hacan" (complete-4p): the same name as stats gives it.
    complete = LOGS[0]
    assert json.loads(gamelog("replay", str(complete), "--format", "json"))["players"]["Ann"]["faction"] == \
        "Emirates of Hacan"
    assert "| Ann | Emirates of Hacan | 7 |" in gamelog("reconcile", str(complete), "--declared",
                                                      str(TI4 / "results.csv"), "--format", "markdown")


def test_replay_turn_on_a_log_kept_by_round_says_to_ask_by_round(tmp_path):
    log = tmp_path / "async.jsonl"
    gamelog("convert", "--from", "asyncti4", str(SAVE), "-o", str(log))
    out = gamelog("replay", str(log), "--turn", "3", code=2)
    assert "the game has 0 turns, not 3; it is played in rounds (6 rounds): ask by round (--round N)" in out
    assert "round 3" in gamelog("replay", str(log), "--round", "3").splitlines()[0]
    # A log with turns says only how many it has.
    out = gamelog("replay", str(LOGS[0]), "--turn", "999", code=2)
    assert "not 999" in out and "--round" not in out


def test_the_lines_drawn_are_those_a_filter_names_then_those_of_most_games():
    # Ten series, series "s0".."s9" of 10..1 games, each ending at its number of games.
    series = {f"s{i}": [(1, 1.0, 0.0), (2, float(10 - i), 0.0)] for i in range(10)}
    games = {f"s{i}": 10 - i for i in range(10)}
    assert chosen_series(series, games, ()) == ["s0", "s1", "s2", "s3", "s4", "s5"] and LINES == 6
    # Named in any case, and drawn first, the rest the most games' (a filter's name that is no series: none).
    assert chosen_series(series, games, ("S9", "nobody")) == ["s9", "s0", "s1", "s2", "s3", "s4"]
    # Ties of games: the higher last value first, then by name.
    tied = {"b": [(1, 2.0, 0.0)], "a": [(1, 2.0, 0.0)], "c": [(1, 5.0, 0.0)]}
    assert chosen_series(tied, {"a": 1, "b": 1, "c": 1}, ()) == ["c", "a", "b"]
