"""``gamelog audit``: findings with rule texts, how scores were made, claims, what-ifs, corrections."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.replay import run
from gamelog.domain.ruletext import rules
from tests.conftest import EXAMPLES, ROOT, shared_path
from tests.test_examples import EXAMPLE_LOGS, announced


def audit(*args: str, tmp_path=None):
    result = CliRunner().invoke(main, ["audit", *args], catch_exceptions=False)
    return result


@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_example_audits_to_exactly_its_annotated_violations(path):
    result = audit(str(path), "--format", "json")
    document = json.loads(result.stdout)
    found = Counter((f["line"], f["rule"]) for f in document["findings"] if f["severity"] == "violation")
    assert found == announced(path)
    assert result.exit_code == (1 if found else 0)
    for f in document["findings"]:
        assert not f["rule_text"].startswith("(no text"), f["rule"]
        assert f["log"]  # what the log says on that line


@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_player_scores_add_up_to_the_replayed_score(path):
    state = run(path.read_bytes()).state
    for player in state.players:
        document = json.loads(audit(str(path), "--player", player, "--format", "json").stdout)
        score = document["scores"][player]
        assert list(document["scores"]) == [player]
        assert score["total"] == state.score(player) == sum(e["points"] for e in score["entries"])
        assert all(e["line"] and e["source"] for e in score["entries"])


def test_a_wrong_claim_is_shown_with_its_derivation():
    document = json.loads(audit(str(EXAMPLES / "merchant-of-venus" / "disputed.jsonl"), "--format", "json").stdout)
    (claim,) = [f for f in document["findings"] if f["rule"] == "CLAIM"]
    assert claim["message"] == "Ann's net_worth is claimed as 1010, but the log gives 1030"
    assert claim["derivation"][-1]["total"] == 1030
    assert claim["derivation"][-1]["source"] == "deeds: gained factory deed at Humans (full value c100)"
    assert claim["in_seeds"] is False and "not in the seeds" not in claim["rule_text"]
    assert claim["rule_from"] == "gamelog's reading: the rulebook pages gamelog was built from do not state this rule"


def test_the_text_audit_explains_how_a_players_net_worth_was_made():
    result = audit(str(EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl"), "--player", "Human")
    assert result.exit_code == 0
    assert "how Human's net worth of 2214 was made:" in result.stdout
    # Wrapped at 80 columns, the source continues under itself.
    assert ("  line    26     +100  = 1752    deeds: gained factory deed at Humans (full\n"
            "                                 value c100) [MOV-NET-WORTH]\n") in result.stdout


def test_an_unknown_player_is_an_input_error():
    result = audit(str(EXAMPLES / "uchronia" / "complete-3p.jsonl"), "--player", "Zed")
    assert result.exit_code == 2 and "no player 'Zed'" in result.stderr


LAST_OBJECTIVE = EXAMPLES / "twilight-imperium-4" / "disputed-no-objectives-left.jsonl"


@pytest.fixture
def decided_by_one_objective(tmp_path):
    """A game that ends by LRR 34.15 where one scored objective decides the winner.

    Without Bob's Expand Borders (line 21) Ann and Bob tie at 1 VP, and Ann, first in
    initiative order in the last round, wins; with it, Bob wins with 2 VP.
    """
    lines = LAST_OBJECTIVE.read_text().splitlines()[:110]
    lines.insert(20, json.dumps({"type": "objective_scored", "player": "Bob", "objective": "Expand Borders",
                                 "kind": "public", "points": 1}))
    path = tmp_path / "decided.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_without_a_scored_objective_the_winner_changes(decided_by_one_objective):
    actual = json.loads(CliRunner().invoke(main, ["replay", str(decided_by_one_objective), "--format", "json"]).stdout)
    assert (actual["winner"], actual["players"]["Bob"]["vp"]) == ("Bob", 2)
    result = audit(str(decided_by_one_objective), "--without", "21", "--format", "json")
    diff = json.loads(result.stdout)
    assert diff["winner_changes"] is True
    assert (diff["result"]["actual"]["winner"], diff["result"]["what_if"]["winner"]) == ("Bob", "Ann")
    assert diff["standings"][0]["actual"]["Bob"]["vp"] == 2 and diff["standings"][0]["what_if"]["Bob"]["vp"] == 1
    text = audit(str(decided_by_one_objective), "--without", "21").stdout
    assert "(the winner changes)" in text


def test_without_a_line_that_holds_no_event_is_an_input_error(decided_by_one_objective):
    result = audit(str(decided_by_one_objective), "--without", "2")
    assert result.exit_code == 2 and "line(s) 2 hold no event" in result.stderr


def test_corrections_are_listed_with_the_voided_line_and_reason(tmp_path):
    log = tmp_path / "corrected.jsonl"
    log.write_text("\n".join([
        '{"type": "game", "game": "merchant-of-venus", "id": "c", "players": ["Ann", "Bob"], "setup": {"starting_credits": 500}}',
        '{"type": "turn_started", "player": "Ann"}',
        '{"type": "hazard_paid", "player": "Ann", "cost": 40}',
        '{"type": "correction", "voids": 3, "reason": "the hazard was passed with a drive"}']) + "\n")
    document = json.loads(audit(str(log), "--player", "Ann", "--format", "json").stdout)
    assert document["corrections"] == [{"line": 4, "voids": 3, "reason": "the hazard was passed with a drive",
                                        "voided_line": "Ann pays a c40 hazard"}]
    assert document["scores"]["Ann"]["total"] == 500


def test_every_rule_id_of_rules_md_has_its_text():
    texts = rules()
    assert {"MOV-IOU", "UCH-WINNER", "LRR 34.6", "LRR 90 comment 1", "TI4-PAY", "CLAIM", "LOG-CORRECTION"} <= set(texts)
    assert texts["LRR 34.6"].in_seeds and not texts["TI4-VP-GOAL"].in_seeds


def test_the_shipped_rules_are_the_shared_digest():
    shared = shared_path("RULES.md")
    assert (ROOT / "domain" / "data" / "RULES.md").read_bytes() == shared.read_bytes()


def test_a_what_if_in_markdown_is_markdown(decided_by_one_objective):
    result = audit(str(decided_by_one_objective), "--without", "21", "--format", "markdown")
    assert result.exit_code == 0
    markdown = result.stdout
    assert markdown.startswith("# What if line 21 of twilight-imperium-4 ti4-last-objective had not counted\n")
    assert "| after | actual | what if |" in markdown and "| round " in markdown
    assert "- **the winner changes**" in markdown
    assert markdown != audit(str(decided_by_one_objective), "--without", "21").stdout



def compare(actual, what_if, without: list[int]):
    """The what-if of two whole reports, as gamelog once built it: the oracle the paged comparison must equal."""
    from gamelog.projections.reports.documents import Finding, Results, StandingsChange, WhatIf

    def findings(report):
        return {(line.line, f.rule, f.severity, f.message): Finding(line=line.line, rule=f.rule, severity=f.severity,
                                                                    player=f.player, message=f.message)
                for period in report.periods for line in period.lines for f in line.findings}

    before, after = findings(actual), findings(what_if)
    periods_after = {p.number: p for p in what_if.periods}
    standings = []
    for period in actual.periods:
        other = periods_after.get(period.number)
        other_standings = other.standings if other else None
        if other_standings != period.standings:
            standings.append(StandingsChange(**{actual.by: period.number}, actual=period.standings,
                                             what_if=other_standings))
    return WhatIf(game=actual.game, id=actual.id, without=without, score=actual.score,
                  findings_gone=[before[k] for k in sorted(before.keys() - after.keys())],
                  findings_new=[after[k] for k in sorted(after.keys() - before.keys())],
                  standings=standings, result=Results(actual=actual.result, what_if=what_if.result),
                  winner_changes=actual.result.winner != what_if.result.winner
                  or actual.result.finished != what_if.result.finished)

@pytest.mark.parametrize("example", ["merchant-of-venus/disputed.jsonl", "merchant-of-venus/seed-examples.jsonl",
                                     "uchronia/disputed.jsonl", "twilight-imperium-4/disputed.jsonl"])
def test_a_what_if_compared_a_period_at_a_time_is_the_comparison_of_the_whole_reports(example, tmp_path):
    """``compare_without`` (the history decided again into views on disk, the reports compared a period at a
    time) gives the document the whole reports' ``compare`` gives, for lines whose leaving out changes much or
    little (a correction's line, a voided one, the first and last event lines, two at once)."""
    from gamelog.domain.replay import without
    from gamelog.auditing import compare_without
    from gamelog.projections.reports.model import build_report
    from gamelog.projections.store.application import GameStore
    from gamelog.projections.views.keeper import views_in_memory
    from gamelog.sources import StoredGame

    store = str(tmp_path / "s.sqlite")
    assert CliRunner().invoke(main, ["--store", store, "import", str(EXAMPLES / example)]).exit_code == 0
    opened = GameStore(store)
    (game_id,) = [g.id for g in opened.games()]
    source = StoredGame(opened, game_id, store)
    history = list(source.history())
    lines = sorted({e.line for e in history if type(e).__name__ == "LineRecorded"} - {history[0].line})
    chosen = [[lines[0]], [lines[len(lines) // 2]], [lines[-1]], [lines[1], lines[-2]]]
    changed = False
    with source.views() as cursor:
        actual = build_report(cursor, game_id)
        for without_lines in chosen:
            hypothetical = views_in_memory(without(source.game, history, set(without_lines))).cursor()
            expected = compare(actual, build_report(hypothetical, game_id), without_lines)
            got, _ = compare_without(source, cursor, without_lines)
            assert got == expected, without_lines
            changed = changed or bool(got.standings or got.findings_gone or got.findings_new)
    assert changed  # leaving some out leaves a mark
