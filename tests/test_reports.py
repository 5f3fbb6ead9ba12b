"""Reports: golden files for every legal and disputed example in every format, byte for byte.

Set UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change,
then read the diff before committing it.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from msgspec import UNSET

from gamelog.domain.replay import run
from gamelog.projections.views.keeper import views_in_memory
from gamelog.projections.reports.documents import FindingCounts
from gamelog.projections.reports.formats import render_csv, render_json, render_markdown, render_text
from gamelog.projections.reports.html import render_html
from gamelog.reconciling import declared_in
from gamelog.results import agreement_line
from gamelog.sources import read_log_file
from gamelog.times import game_time
from gamelog.projections.reports.model import build_report
from tests.conftest import EXAMPLES, ROOT

GOLDEN = Path(__file__).parent / "golden"
RENDER = {"txt": render_text, "md": render_markdown, "json": render_json, "csv": render_csv, "html": render_html}
EXAMPLE_LOGS = sorted(EXAMPLES.glob("*/*.jsonl"))


def report_of(path: Path, states: bool = False) -> dict:
    """The report of a log file; with ``states``, holding the state after each line too (as the HTML report's)."""
    outcome = run(path.read_bytes())
    cursor = views_in_memory(outcome.events).cursor()
    report = build_report(cursor, outcome.header.id, history=outcome.events if states else None)
    source = read_log_file(str(path))  # what the CLI's report adds from the history: the result's state, the time
    report.agreement, report.time = agreement_line(source), game_time(source)
    if states:  # the HTML report ends its standings with what the log declares of the result, as the CLI's does
        with contextlib.chdir(ROOT):  # the section names the log as the command run in the checkout does
            report.reconciliation = declared_in(read_log_file(str(path.relative_to(ROOT))), cursor) or UNSET
    return report


@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
@pytest.mark.parametrize("ext", sorted(RENDER))
def test_report_matches_its_golden_file(path, ext):
    text = RENDER[ext](report_of(path, states=ext == "html"))
    golden = GOLDEN / path.parent.name / f"{path.stem}.{ext}"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("seed", ["0", "12345"])
def test_reports_are_the_same_bytes_whatever_the_hash_seed(seed):
    """The CLI's reports, run under another PYTHONHASHSEED, equal the golden files."""
    path = EXAMPLES / "uchronia" / "complete-3p.jsonl"
    for fmt, ext in (("html", "html"), ("csv", "csv"), ("json", "json")):
        out = subprocess.run([sys.executable, "-m", "gamelog.cli.main", "report", str(path.relative_to(ROOT)), "--format", fmt],
                             capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed}, check=True)
        assert out.stdout == (GOLDEN / "uchronia" / f"complete-3p.{ext}").read_text(encoding="utf-8")


def test_the_seed_report_shows_the_numbers_a_person_checks():
    report = report_of(EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl")
    periods = {p.number: p for p in report.periods}
    turn4 = periods[4]
    assert (turn4.number, turn4.players) == (4, ["Human"])
    assert turn4.standings["Human"] == {"credits": 1052, "deeds": 700, "net_worth": 1752}
    paid = [c for line in periods[1].lines for c in line.changes]
    assert [(c.subject, c.delta, c.value) for c in paid] == [("Qossuth", -10, 90)]
    # No finding at all: the seed's Bionic Perfume sold to the Volois outranks the 1988 data (issue 12 item 8).
    assert report.result.winner == "Human" and report.findings == FindingCounts(violation=0, unverifiable=0, warning=0)


def test_the_html_report_is_self_contained_with_one_line_per_player():
    html = render_html(report_of(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl", states=True))
    # Two charts, a desktop's and a phone's (the page shows one): a line per player in each.
    assert html.count('<polyline class="series"') == 8 and html.count('<svg class="chart score ') == 2
    # The only address is SVG's namespace, a name that is never fetched.
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "") and "https://" not in html
    assert "<script src" not in html and " src=" not in html and 'class="goal"' in html


@pytest.mark.parametrize("game", ["merchant-of-venus", "uchronia", "twilight-imperium-4"])
def test_every_event_type_of_every_game_has_words_for_reports(game):
    from gamelog.domain.games import GAMES

    rules = GAMES[game]
    tags = {t.__struct_config__.tag for t in rules.event_types}
    assert tags - set(rules.words) == set()


def test_a_line_is_told_in_words():
    from gamelog.domain.games import GAMES
    from gamelog.domain.merchant_of_venus.events import GoodsBought

    event = GoodsBought(player="Qossuth", good="Melf Pelts", culture="Shenna", unit_price=50, quantity=2, iou=True)
    assert GAMES["merchant-of-venus"].phrase(event) == (
        "goods_bought", "Qossuth", "Qossuth buys 2 Melf Pelts from Shenna at c50 with the IOU")


def test_a_count_the_source_does_not_record_is_never_shown_as_a_number(tmp_path):
    from click.testing import CliRunner

    from gamelog.cli.main import main

    log = tmp_path / "small.jsonl"
    runner = CliRunner()
    export = EXAMPLES / "twilight-imperium-4" / "ti-assistant-small.json"
    assert runner.invoke(main, ["convert", "--from", "ti-assistant", str(export), "-o", str(log)]).exit_code == 0
    store = str(tmp_path / "store.sqlite")
    assert runner.invoke(main, ["--store", store, "import", str(log)]).exit_code == 0
    for game in (str(log), "ti-assistant-20250208T073320Z"):  # read in memory, and from the store's views
        args = ["--store", store, "report", game]
        text = runner.invoke(main, [*args, "--format", "text"], env={"COLUMNS": "80"}).stdout
        # TI Assistant records no trade goods (the header's not_recorded): Ann's standing after round 2.
        assert "  Ann      1  not recorded            6" in text.splitlines()
        assert "| Ann | 1 | not recorded | 6 |" in runner.invoke(main, [*args, "--format", "markdown"]).stdout
        rows = runner.invoke(main, [*args, "--format", "csv"]).stdout.splitlines()
        assert rows[0].split(",")[7:10] == ["vp", "trade_goods", "commodities"]
        assert rows[-3].split(",")[5:10] == ["Ann", "0", "1", "", "6"]
        assert json.loads(runner.invoke(main, [*args, "--format", "json"]).stdout)["not_recorded"] == ["trade_goods"]
    # A log whose source records everything says nothing of it.
    assert "not_recorded" not in json.loads(render_json(report_of(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl")))
