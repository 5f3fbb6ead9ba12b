"""The HTML report's charts and replay data, read from the page (no browser: ``test_html_browser.py`` drives one).

The states the replay scrubs through are ``replay --line N``'s, line by line;
the score chart's steps agree with them; every marker has a tooltip; the goal
is named as each game names it; labels never overlap; the board is a heat
strip whose colours differ by pattern too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec
import pytest

from gamelog.domain.games import GAMES
from gamelog.domain.phrases import state_words
from gamelog.domain.replay import run, state_at
from gamelog.projections.reports.formats import render_json
from gamelog.projections.reports.schemas import document_schema
from gamelog.projections.reports.charts import MARKERS, PALETTE, nice_ticks, spread
from gamelog.projections.reports.html import render_html, score_series
from gamelog.projections.reports.model import build_report
from gamelog.projections.reports.scrubber import changes
from gamelog.projections.reports.terminal import label as label_of
from gamelog.projections.views.keeper import views_in_memory
from gamelog.results import agreement_line
from gamelog.sources import read_log_file
from gamelog.times import game_time
from tests.conftest import EXAMPLES

EXAMPLE_LOGS = sorted(EXAMPLES.glob("*/*.jsonl"))


def report_with_states(path: Path):
    outcome = run(path.read_bytes())
    return build_report(views_in_memory(outcome.events).cursor(), outcome.header.id, history=outcome.events), outcome


def replay_data(html: str) -> dict:
    (text,) = re.findall(r'<script type="application/json" id="replay-data">(.*?)</script>', html)
    return json.loads(text)


def apply(document: dict, change: list) -> None:
    """One of the page's changes, as its script applies it."""
    path, at = change[0], document
    for key in path[:-1]:
        at = at.setdefault(key, {})
    if len(change) > 2:  # appended: items to a list, or text to a text
        at[path[-1]] = at.get(path[-1], "" if isinstance(change[1], str) else []) + change[1]
    elif len(change) > 1:
        at[path[-1]] = change[1]
    else:
        del at[path[-1]]


@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_replay_holds_the_state_replay_prints_after_every_line(path):
    report, outcome = report_with_states(path)
    lines = [line.line for period in report.periods for line in period.lines]
    assert [s.line for s in report.states] == [outcome.events[0].line, *lines]
    for state in report.states:
        assert state == state_at(report.game, outcome.events, line=state.line).document()
    # The page's data, its changes applied one after another, gives the same documents.
    positions = replay_data(render_html(report))["positions"]
    rules = GAMES[report.game]
    document: dict = {}
    for position, state in zip(positions, report.states, strict=True):
        for change in position["state"]:
            apply(document, change)
        replayed = {key: value for key, value in msgspec.to_builtins(state).items() if key != "forum"}  # "board"'s old name
        shown = state_words(rules.state_phrases, replayed, rules.measures.board.title if rules.measures.board else None)
        assert document == shown and position["line"] == state.line


def test_the_states_are_an_optional_field_the_json_report_leaves_out():
    report, _ = report_with_states(EXAMPLES / "uchronia" / "complete-3p.jsonl")
    golden = (Path(__file__).parent / "golden" / "uchronia" / "complete-3p.json").read_text(encoding="utf-8")
    assert len(report.states) == 99 and report.states[-1].winner == "Bob"
    # Built without the history, as ``report --format json`` builds it: the same bytes as before there were states.
    source = read_log_file(str(EXAMPLES / "uchronia" / "complete-3p.jsonl"))  # what the CLI adds from the history
    assert render_json(msgspec.structs.replace(report, states=msgspec.UNSET, agreement=agreement_line(source),
                                               time=game_time(source))) == golden
    assert "states" not in json.loads(golden) and "states" in document_schema("report")["$defs"]["Report"]["properties"]


def test_changes_set_and_remove_what_differs_down_to_a_players_field():
    old = {"line": 3, "players": {"Ann": {"vp": 1, "built": ["Insula"], "cargo": ["Dust"]}}, "end": {"line": 9}}
    new = {"line": 4, "players": {"Ann": {"vp": 2, "built": ["Insula", "Thermae"], "cargo": ["Wine", "Dust"]}}}
    # A list grown at its end is given by its new items (issue 23: a list given whole at every line made a
    # long Uchronia game's page grow as the square of its turns); any other change of a list, whole.
    assert changes(old, new) == [[["line"], 4], [["players", "Ann", "vp"], 2],
                                 [["players", "Ann", "built"], ["Thermae"], "append"],
                                 [["players", "Ann", "cargo"], ["Wine", "Dust"]], [["end"]]]
    assert changes(new, new) == []
    document = json.loads(json.dumps(old))
    for change in changes(old, new):
        apply(document, change)
    assert document == new


@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_score_chart_steps_as_the_replayed_score(path):
    report, _ = report_with_states(path)
    series = score_series(report, GAMES[report.game].measures)
    for s in series:
        assert s.values == [state.players[s.name].__getattribute__(report.score) for state in report.states]
        assert s.values[-1] == report.periods[-1].standings[s.name][report.score]
        # A marker (with its note) exactly where the score moved.
        assert sorted(s.notes) == [i for i in range(1, len(s.values)) if s.values[i] != s.values[i - 1]]


def test_every_marker_has_a_tooltip_naming_the_player_the_line_what_happened_and_the_value():
    report, _ = report_with_states(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl")
    html = render_html(report)
    markers = re.findall(r'class="marker" data-position="(\d+)"><title>([^<]*)</title>', html)
    assert len(markers) == sum(len(s.notes) for s in score_series(report, GAMES[report.game].measures)) > 20
    assert ("272", "Bob, line 281: Bob scores Conquer the Weak (public, 2 VP). VP 10 (+2)") in markers


@pytest.mark.parametrize("log, label, ticks", [
    ("merchant-of-venus/seed-examples.jsonl", "goal c2000", [0, 500, 1000, 1500, 2000, 2500]),
    ("uchronia/complete-3p.jsonl", "threshold 18", [0, 5, 10, 15, 20]),
    ("twilight-imperium-4/complete-4p.jsonl", "10 VP", [0, 2, 4, 6, 8, 10, 12]),
])
def test_the_goal_is_named_as_the_game_names_it_over_round_ticks_and_titled_axes(log, label, ticks):
    report, _ = report_with_states(EXAMPLES / log)
    chart = render_html(report).split('<svg class="chart score wide"', 1)[1].split("</svg>", 1)[0]
    assert re.findall(r'class="goal-label"[^>]*>([^<]*)<', chart) == [label]
    assert [int(t) for t in re.findall(r'text-anchor="end">(-?\d+)</text>', chart)] == ticks
    assert chart.count('<line class="grid"') >= len(ticks)
    titles = re.findall(r'<text class="title"[^>]*>([^<]*)<', chart)
    x_title = ("round by round (the lines of each spread across it)" if report.by == "round"
               else "the log, line by line (turn numbers at their first line)")
    assert titles == [x_title, label_of(report.score)]


def test_round_ticks():
    assert nice_ticks(0, 2214) == [0, 500, 1000, 1500, 2000, 2500]
    assert nice_ticks(0, 7) == [0, 2, 4, 6, 8]
    assert nice_ticks(-30, 90) == [-50, 0, 50, 100]
    assert nice_ticks(0, 0) == [0, 1]


def test_end_labels_never_overlap_and_stay_in_the_chart():
    placed = spread({"Cy": 100.0, "Dee": 100.0, "Ann": 101.0, "Bob": 40.0}, 16, 10, 300)
    assert placed == {"Bob": 40.0, "Cy": 100.0, "Dee": 116.0, "Ann": 132.0}
    low = spread({"A": 300.0, "B": 300.0, "C": 299.0}, 16, 10, 300)
    assert sorted(low.values()) == [268.0, 284.0, 300.0]
    # In the page: TI4 ends with Cy and Dee at 6 VP.
    report, _ = report_with_states(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl")
    wide = render_html(report).split('<svg class="chart score wide"', 1)[1].split("</svg>", 1)[0]
    ends = [float(y) for y in re.findall(r'<text class="end" x="[\d.]+" y="([\d.]+)"', wide)]
    assert len(ends) == 4 and all(b - a >= 16 for a, b in zip(sorted(ends), sorted(ends)[1:]))


def test_players_with_equal_scores_are_all_visible_in_their_own_colour_and_marker():
    report, _ = report_with_states(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl")
    html = render_html(report).split('<svg class="chart score wide"', 1)[1].split("</svg>", 1)[0]
    lines = re.findall(r'<polyline class="series" data-name="(\w+)" fill="none" stroke="(#\w+)" stroke-width="2" '
                       r'points="[\d.]+,([\d.]+) ', html)
    # Everyone has 0 VP at the start: four lines, each at its own height, in four of the palette's colours.
    assert [name for name, _, _ in lines] == ["Ann", "Bob", "Cy", "Dee"]
    assert len({y for _, _, y in lines}) == 4 and [colour for _, colour, _ in lines] == list(PALETTE[:4])
    assert len(set(MARKERS)) == len(MARKERS)


def test_the_forum_is_a_heat_strip_of_counts_by_turn_its_colours_told_apart_by_pattern_too():
    report, _ = report_with_states(EXAMPLES / "uchronia" / "complete-3p.jsonl")
    html = render_html(report)
    strip = html.split('<svg class="chart strip wide"', 1)[1].split("</svg>", 1)[0]
    assert "<polyline" not in strip
    cells = re.findall(r"<title>(\w+), after turn (\d+): (\d+)</title>", strip)
    turns = [p for p in report.periods if p.forum is not None]
    assert len(cells) == 5 * len(turns) == 75
    assert all(int(count) == next(p for p in turns if p.number == int(turn)).forum[colour] for colour, turn, count in cells)
    board = GAMES[report.game].measures.board
    assert len(set(board.patterns.values())) == len(board.subjects) == 5
    assert all(f'url(#pattern-{board.patterns[s]})' in strip for s in board.subjects)
    assert all(f'id="pattern-{p}"' in html for p in board.patterns.values())


def test_the_page_is_the_same_bytes_and_its_data_cannot_close_its_script():
    report, _ = report_with_states(EXAMPLES / "merchant-of-venus" / "disputed.jsonl")
    html = render_html(report)
    assert html == render_html(report_with_states(EXAMPLES / "merchant-of-venus" / "disputed.jsonl")[0])
    data = html.split('id="replay-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data and json.loads(data)["positions"][0]["text"] == "the header: the game is set up"


def converted_report(name: str = "ti-assistant-small.json"):
    """The report (with its states) of an example TI Assistant export, converted."""
    from gamelog.domain.twilight_imperium.converters import convert

    data = json.loads((EXAMPLES / "twilight-imperium-4" / name).read_text(encoding="utf-8"))
    log = "".join(json.dumps(line) + "\n" for line in convert("ti-assistant", data).lines).encode()
    outcome = run(log)
    return build_report(views_in_memory(outcome.events).cursor(), outcome.header.id, history=outcome.events)


def test_the_standings_put_the_winner_first_marked_with_factions_and_table_colours():
    html = render_html(converted_report())
    table = html.split('<table class="standings">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr(?: class="won")?><td><span class="dot" style="background:(#\w+)"></span>(\w+)'
                      r'( <span class="won">\(winner\)</span>)?<span class="side">([^<]*)</span></td>((?:<td[^>]*>[^<]*</td>)*)</tr>',
                      table)
    # Bob leads with 2 VP (a secret and the Custodians token), Ann 1, Cat 0, each in the colour the export gives;
    # the export declares Bob the winner at 2 of 10 VP, which the rules do not take as the end: no one is marked.
    assert [(name, colour, bool(won), side) for colour, name, won, side, _ in rows] == [
        ("Bob", "#1f5fbf", False, "Federation of Sol"), ("Ann", "#b58900", False, "Emirates of Hacan"),
        ("Cat", "#d62728", False, "Barony of Letnev")]
    cells = [re.findall(r"<td[^>]*>([^<]*)</td>", rest) for *_, rest in rows]
    # VP, trade goods (not recorded by TI Assistant: never a number), commodities (Ann replenished by her Trade
    # primary, line 20; Cat by the secondary), where the VP come from.
    assert cells == [["2", "not recorded", "0", "secrets 1, other 1"], ["1", "not recorded", "6", "stage I 1"],
                     ["0", "not recorded", "2", ""]]
    assert "<th>player (faction)</th><th>VP</th><th>trade goods</th><th>commodities</th>" in table
    # Uchronia's example: Bob wins with 18 VP (line 121) and comes first, marked, though Ann is seated first.
    finished, _ = report_with_states(EXAMPLES / "uchronia" / "complete-3p.jsonl")
    first = render_html(finished).split('<table class="standings">', 1)[1].split("</tr>", 2)[1]
    assert re.sub(r"<[^>]+>", " ", first).split() == ["Bob", "(winner)", "18"]
    # The chart draws them in the same colours.
    assert re.findall(r'<polyline class="series" data-name="(\w+)" fill="none" stroke="(#\w+)"', html)[:3] == [
        ("Ann", "#b58900"), ("Bob", "#1f5fbf"), ("Cat", "#d62728")]


def test_the_findings_are_listed_at_the_top_each_linking_to_its_line():
    report, _ = report_with_states(EXAMPLES / "uchronia" / "disputed.jsonl")
    html = render_html(report)
    top = html.split('<h2 id="findings">Findings</h2>', 1)[1].split("<h2>", 1)[0]
    listed = re.findall(r'<li class="(\w+)"><a href="#line=(\d+)">line \2</a> \1 <span class="rule">([^<]+)</span>', top)
    expected = sorted((f.severity, str(line.line), f.rule) for p in report.periods for line in p.lines for f in line.findings
                      if f.severity != "unverifiable")
    assert sorted(listed) == expected and len(listed) == report.findings.violation + report.findings.warning > 0
    assert '<b>Findings:</b> <a href="#findings">' in html


def test_notes_are_marked_for_the_scrubber_to_step_over_and_said_in_sentences():
    positions = replay_data(render_html(converted_report()))["positions"]
    notes = [p for p in positions if p.get("note")]
    assert [p["line"] for p in notes] == [2, 13, 22, 41]  # 41: the app ends the game (the archive declares after it)
    assert notes[0]["text"] == "note: Barony of Letnev starts with Antimass Deflectors"
    assert all("{" not in p["text"] for p in notes)
    assert 'id="show-notes"' in render_html(converted_report())
    report, _ = report_with_states(EXAMPLES / "merchant-of-venus" / "disputed.jsonl")
    assert 'id="show-notes"' not in render_html(report)  # no note, no toggle


def test_a_game_in_rounds_has_rounds_on_the_x_axis():
    html = render_html(converted_report())
    chart = html.split('<svg class="chart score wide"', 1)[1].split("</svg>", 1)[0]
    # Lines 2-4 come before round 1 (setup), lines 5-38 are round 1, lines 39-41 round 2: three equal bands.
    assert 'data-starts="1 4 38"' in chart and "data-dx" not in chart
    assert re.findall(r'<text x="[\d.]+" y="[\d.]+" text-anchor="middle">(\w+)</text>', chart) == ["setup", "1", "2"]
    other, _ = report_with_states(EXAMPLES / "uchronia" / "complete-3p.jsonl")
    assert "data-starts=" not in render_html(other)  # a game of turns keeps the log's lines


def test_a_text_that_grows_at_its_end_is_sent_as_its_new_end():
    """A long Uchronia game's buildings, in words, grow at their end: the page sends what was added, not the whole
    text again at each line (its page was 2 GB at 200,000 lines)."""
    from gamelog.projections.reports.scrubber import changes

    before = {"players": {"Ann": {"buildings": "Insula (wood, 1 VP, line 18)"}}}
    after = {"players": {"Ann": {"buildings": "Insula (wood, 1 VP, line 18), Horreum (brick, 2 VP, line 31)"}}}
    (change,) = changes(before, after)
    assert change == [["players", "Ann", "buildings"], ", Horreum (brick, 2 VP, line 31)", "append"]
    rebuilt = json.loads(json.dumps(before))
    apply(rebuilt, change)
    assert rebuilt == after
    assert changes(after, before) == [[["players", "Ann", "buildings"], before["players"]["Ann"]["buildings"]]]
