"""What a new user reads first, in text (issue 40, section 3): reconcile's verdict in the order a person checks it,
``games`` with a date and the factions, ``stats`` that starts with a summary, and colours and buttons that read.

The 390 px layout of the same pages is tests/test_phone_layout.py's (headless Chromium)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.projections.reports.charts import PALETTE, TEXT_CONTRAST, readable
from tests.conftest import EXAMPLES, log_bytes

TI4 = EXAMPLES / "twilight-imperium-4"


@pytest.fixture
def gamelog(tmp_path, monkeypatch):
    """``gamelog ARGS`` in an empty folder with a store of its own: stdout (exit 0 asserted)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GAMELOG_STORE", str(tmp_path / "s.sqlite"))
    monkeypatch.setenv("COLUMNS", "80")

    def invoke(*args: str) -> str:
        done = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert done.exit_code == 0, done.output
        return done.stdout

    return invoke


# --- reconcile: what disagrees first, then what agrees ----------------------------------------------------------


def test_reconcile_says_what_disagrees_then_what_agrees(gamelog):
    """results.csv declares Ann 8 and Dee 5 where complete-4p.jsonl computes 7 and 6; Bob's 10 and Cy's 6, and
    Bob's win, agree."""
    said = "Disagrees with the log: the scores of Ann (computed 7, declared 8) and Dee (computed 6, declared 5). " \
           "Agrees: the winner (Bob); the scores of Bob and Cy."
    for fmt in ("text", "markdown", "html"):
        out = gamelog("reconcile", str(TI4 / "complete-4p.jsonl"), "--declared", str(TI4 / "results.csv"),
                      "--format", fmt)
        assert said in " ".join(out.replace("\n  ", " ").split()), fmt


@pytest.mark.parametrize("log, said", [
    # Uchronia's disputed game declares Ann the winner; the log makes Bob it.
    ("uchronia/disputed.jsonl", "Disagrees with the log: the winner (computed Bob, declared Ann)."),
    ("uchronia/tiebreak-2p.jsonl", "Agrees with the log: the winner (Bob)."),
])
def test_reconcile_of_a_declared_winner_alone(gamelog, log, said):
    assert said in gamelog("reconcile", str(EXAMPLES / log)).splitlines()


def test_a_results_tables_page_is_titled_by_the_tables_name_not_its_path(gamelog):
    gamelog("import", str(TI4 / "complete-4p.jsonl"))
    page = gamelog("reconcile", "--declared", str(TI4 / "results.csv"), "--format", "html")
    assert re.search(r"<title>(.*?)</title>", page).group(1) == "Reconciliation of results.csv"
    assert f"<p>The table read: {TI4 / 'results.csv'}</p>" in page  # the path is still said, below the title
    markdown = gamelog("reconcile", "--declared", str(TI4 / "results.csv"), "--format", "markdown")
    assert markdown.startswith("# Reconciliation of results.csv\n")


# --- games: a date, the factions, a table --------------------------------------------------------------------


def test_games_shows_each_games_date_and_the_side_each_player_plays(gamelog, tmp_path):
    dated = tmp_path / "dated.jsonl"
    dated.write_bytes(log_bytes({"game": "uchronia", "id": "friday", "players": ["Ann", "Bob"],
                                 "at": "2025-03-12"}))
    gamelog("import", str(TI4 / "complete-4p.jsonl"), str(dated))
    listed = {g["id"]: g for g in json.loads(gamelog("games", "--format", "json"))["games"]}
    assert listed["friday"]["at"] == "2025-03-12" and listed["friday"]["sides"] == {}
    assert listed["ti4-complete-4p"]["sides"] == {"Ann": "Emirates of Hacan", "Bob": "Federation of Sol",
                                                  "Cy": "Arborec", "Dee": "Barony of Letnev"}
    table = gamelog("games", "--format", "table").splitlines()
    assert table[0].split() == ["id", "game", "date", "players", "log", "lines", "last", "line", "finished",
                                "winner", "fingerprint"]
    assert table[1].split()[:3] == ["friday", "uchronia", "2025-03-12"]
    assert "Ann (Emirates of Hacan), Bob (Federation of Sol), Cy (Arborec), Dee (Barony of Letnev)" in table[2]
    blocks = gamelog("games")  # 80 columns: a block a game
    assert "  date: 2025-03-12" in blocks.splitlines() and "  players: Ann, Bob" in blocks.splitlines()


# --- stats: a summary first, rows by result -------------------------------------------------------------------


def test_stats_text_starts_with_the_summary_and_the_results_and_names_the_rest(gamelog):
    logs = [str(p) for p in sorted(TI4.glob("*.jsonl"))]
    brief = gamelog("stats", *logs)
    everything = gamelog("stats", "--all", *logs)
    headings = [line for line in brief.splitlines() if line and not line.startswith(" ")]
    assert headings[:4] == ["twilight-imperium-4: 3 games (3 finished)", "summary", "factions", "players"]
    assert brief.splitlines()[-3:] == [
        "10 more tables (--all prints them): objectives; rounds; VP by source; objectives",
        "  by faction; the Custodians token; Imperial points by round; strategy cards;",
        "  strategy cards by pick position; strategy cards by round; rounds a game"]
    assert len(brief.splitlines()) < 40 < 250 < len(everything.splitlines())
    assert "more tables" not in everything and "strategy cards by round" in everything
    # The tables asked for by name are printed whatever --all says.
    assert gamelog("stats", "--table", "objectives", *logs).splitlines()[2] == "objectives"


def test_stats_rows_of_results_are_sorted_by_wins_then_win_rate(gamelog):
    logs = [str(p) for p in sorted(TI4.glob("*.jsonl"))]
    lines = gamelog("stats", *logs).splitlines()
    factions = lines[lines.index("factions") + 2:lines.index("factions") + 6]
    # The Emirates of Hacan won 2 of 4, the Federation of Sol 1 of 3; then the factions that won none.
    assert [line.split("  ")[1].strip() for line in factions] == ["Emirates of Hacan", "Federation of Sol",
                                                                "Arborec", "Barony of Letnev"]
    players = lines[lines.index("players") + 2:lines.index("players") + 6]
    assert [line.split()[0] for line in players] == ["Ann", "Bob", "Cy", "Dee"]  # 2 wins, 1, then none
    uchronia = gamelog("stats", *map(str, sorted((EXAMPLES / "uchronia").glob("*.jsonl")))).splitlines()
    assert uchronia[uchronia.index("players") + 2].split()[:3] == ["Bob", "3", "3"]  # alphabetically Ann came first


# --- colours as text, buttons in words --------------------------------------------------------------------------


def _contrast_on_white(colour: str) -> float:
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= .03928 else ((c + .055) / 1.055) ** 2.4 for c in rgb]
    return 1.05 / (.2126 * linear[0] + .7152 * linear[1] + .0722 * linear[2] + .05)


@pytest.mark.parametrize("colour", PALETTE)
def test_a_player_colour_used_as_text_reads_at_4_5_to_1_and_keeps_its_hue(colour):
    ink = readable(colour)
    assert _contrast_on_white(ink) >= TEXT_CONTRAST
    if _contrast_on_white(colour) >= TEXT_CONTRAST:
        assert ink == colour  # a colour that reads is left alone
    else:  # darkened only: each channel scaled by one factor, just enough
        scales = [int(ink[i:i + 2], 16) / int(colour[i:i + 2], 16) for i in (1, 3, 5) if int(colour[i:i + 2], 16) > 40]
        assert max(scales) - min(scales) < .03 and max(scales) < 1  # one factor, up to rounding to whole bytes
        assert _contrast_on_white(ink) < TEXT_CONTRAST + .2


def test_the_report_writes_player_names_in_readable_ink_and_names_its_buttons(gamelog):
    page = gamelog("report", str(EXAMPLES / "uchronia" / "disputed.jsonl"), "--format", "html")
    inks = re.findall(r'<span style="color:(#[0-9a-f]{6})">', page)
    inks += re.findall(r'<text class="end"[^>]*fill="(#[0-9a-f]{6})"', page)
    assert inks and all(_contrast_on_white(ink) >= TEXT_CONTRAST for ink in inks)
    assert "#c25600" in inks  # Bob's Okabe-Ito vermilion (#d55e00, 4.0 to 1) darkened
    buttons = re.findall(r'<button type="button" data-go="(\w+)" aria-label="([^"]+)"', page)
    assert buttons == [("first", "first line: the header"), ("previous", "previous line"), ("next", "next line"),
                       ("last", "last line")]
