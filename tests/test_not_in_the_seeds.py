"""A rule the seeds leave to our reading says so in every finding that cites it (issue 12 item 10), in words and
apart from the rule's text (issue 40, section 1).

RULES.md marks such a part **(not in the seeds)**, or **not in the seeds:** inside a sentence
(MOV-HAZARD, UCH-SCORE). Whatever the form, the rule text an audit quotes holds the rule alone, no marker;
``in_seeds`` is false, ``reading`` is the part marked, and ``rule_from`` (in the audit's JSON, its text's
``from:`` line, its Markdown's column) says where the rule comes from in words, naming that part; a finding
that comes from that part says so in its own message too. Each case is a small log audited as a person would:
the finding's line and rule ID, the rule's text and where it comes from, and the value the rule's reading fixes
(credits, VP).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.replay import run
from gamelog.domain.ruletext import rule
from tests.conftest import log_bytes

MARKER = "(not in the seeds)"
MOV = {"game": "merchant-of-venus", "id": "seeds", "players": ["Ann", "Bob"], "setup": {"starting_credits": 500}}
UCH = {"game": "uchronia", "id": "seeds", "players": ["Ann", "Bob"], "setup": {"forum": ["wood", "wood"]}}
ANN = {"type": "turn_started", "player": "Ann"}


def E(type_: str, **fields) -> dict:
    return {"type": type_, **fields}


def audit(tmp_path, header: dict, *events: dict) -> tuple[dict, str]:
    """The JSON and the text audit of a log of these events (the header is line 1)."""
    path = tmp_path / "log.jsonl"
    path.write_bytes(log_bytes(header, *events))
    document = json.loads(CliRunner().invoke(main, ["audit", str(path), "--format", "json"]).stdout)
    # A terminal wide enough that no line of the audit wraps: the assertions read whole lines.
    text = CliRunner().invoke(main, ["audit", str(path)], env={"COLUMNS": "1000"}).stdout
    return document, text


@pytest.mark.parametrize("rule_id, reading", [
    ("MOV-IOU", "an IOU pays only toward a purchase from the culture that issued it, it is used up by that deal, and "
                "an IOU worth more than the deal gives no change"),
    ("MOV-HAZARD", "never below c0"),
    ("MOV-PAY", "a player can't pay more credits than they hold"),
    ("UCH-SCORE", "where the log does not state them, they equal its construction cost"),
    ("MOV-COMMISSION", "10% of the deal's full value, rounded down to whole credits"),
    ("MOV-WIN", "the goal may be set otherwise in the setup"),
])
def test_a_rule_marked_in_rules_md_says_which_part_is_not_in_the_seeds_apart_from_its_text(rule_id, reading):
    text = rule(rule_id)
    assert "not in the seeds" not in text.text and "**" not in text.text
    assert (text.in_seeds, text.reading) == (False, reading)
    assert text.rule_from == f"the rulebook, and gamelog's reading where its pages are silent: {reading}"


@pytest.mark.parametrize("rule_id", ["MOV-SELL", "MOV-BUY", "UCH-MOVE", "UCH-COMPLETE"])
def test_a_rule_the_seeds_state_whole_carries_no_marker(rule_id):
    text = rule(rule_id)
    assert "not in the seeds" not in text.text.casefold()
    assert (text.in_seeds, text.reading, text.rule_from) == (True, "", "the rulebook")


def test_a_rule_the_seeds_do_not_state_at_all_is_said_to_be_our_reading():
    text = rule("TI4-VP-GOAL")
    assert text.text.startswith("The game ends when a player reaches the victory point goal")
    assert (text.in_seeds, text.reading) == (False, text.text)
    assert text.rule_from == "gamelog's reading: the rulebook pages gamelog was built from do not state this rule"


def test_the_sentence_form_of_the_marker_reads_as_the_rest_of_the_rule():
    # RULES.md: "c20 less for each Shield the player has (**not in the seeds:** never below c0)".
    assert "c20 less for each Shield the player has (never below c0)" in rule("MOV-HAZARD").text
    assert "as printed on the building; where the log does not state them" in rule("UCH-SCORE").text
    # "... in credits. **(not in the seeds)** an IOU pays only ...": a sentence of its own, capitalised.
    assert "difference in credits. An IOU pays only toward a purchase" in rule("MOV-IOU").text


# -- one finding under each rule, audited ----------------------------------------------------

SHIELD = E("equipment_bought", player="Ann", item="shield", price=60)
AT_NILLIS = E("landed", player="Ann", venue="surface_city", culture="Nillis")


def findings(document: dict, rule_id: str) -> list[dict]:
    return [f for f in document["findings"] if f["rule"] == rule_id]


def test_mov_hazard_a_shield_bigger_than_the_hazard_costs_c0_and_no_finding(tmp_path):
    # Our reading: never below c0. One shield (c60) against a c10 hazard: Ann pays nothing, 500 - 60 = c440.
    document, _ = audit(tmp_path, MOV, ANN, AT_NILLIS, SHIELD, E("hazard_paid", player="Ann", cost=10))
    assert document["findings"] == []
    assert document["scores"]["Ann"]["total"] == 440


def test_mov_hazard_a_finding_quotes_the_rule_and_says_where_it_comes_from(tmp_path):
    document, text = audit(tmp_path, MOV, ANN, E("hazard_passed", player="Ann", color="red"))
    (finding,) = findings(document, "MOV-HAZARD")
    assert (finding["line"], finding["severity"], finding["in_seeds"]) == (3, "violation", False)
    assert finding["rule_text"] == rule("MOV-HAZARD").text and MARKER not in finding["rule_text"]
    assert finding["rule_from"] == "the rulebook, and gamelog's reading where its pages are silent: never below c0"
    assert "line 3: violation MOV-HAZARD [Ann]: passes a red hazard without a red drive" in text
    assert "    rule: Entering a hazard space" in text and "(never below c0)" in text and MARKER not in text
    assert "    from: the rulebook, and gamelog's reading where its pages are silent: never below c0" in text


def test_mov_pay_paying_what_one_holds_is_legal(tmp_path):
    document, _ = audit(tmp_path, MOV, ANN, E("credits_paid", player="Ann", to="Bob", amount=500, reason="a bet"))
    assert document["findings"] == []
    assert (document["scores"]["Ann"]["total"], document["scores"]["Bob"]["total"]) == (0, 1000)


def test_mov_pay_paying_more_than_one_holds_says_not_in_the_seeds(tmp_path):
    document, text = audit(tmp_path, MOV, ANN, E("credits_paid", player="Ann", to="Bob", amount=600, reason="a bet"))
    (finding,) = findings(document, "MOV-PAY")
    assert (finding["line"], finding["message"], finding["in_seeds"]) == (3, "pays c600 for a bet but holds c500 (not in the seeds)", False)
    assert "line 3: violation MOV-PAY [Ann]: pays c600 for a bet but holds c500 (not in the seeds)" in text
    assert "    rule: Credits are paid to the bank, or to another player when owed; the bank makes change at any time. " \
           "A player can't pay more credits than they hold." in text
    assert "    from: the rulebook, and gamelog's reading where its pages are silent: a player can't pay more credits " \
           "than they hold" in text
    assert document["scores"]["Ann"]["total"] == -100  # applied as recorded


def test_mov_iou_the_issuing_cultures_iou_pays_toward_its_goods(tmp_path):
    # Ann's Nillis IOU (c80) pays for one Bionic Perfume (c80) bought from the Nillis: she keeps her c500.
    document, _ = audit(tmp_path, MOV, ANN, AT_NILLIS, E("first_contact", player="Ann", culture="Nillis", iou=80),
                        E("goods_bought", player="Ann", good="Bionic Perfume", culture="Nillis", unit_price=80, iou=True))
    assert document["findings"] == []
    assert document["scores"]["Ann"]["total"] == 500


def test_mov_iou_another_cultures_iou_says_the_rule_is_not_in_the_seeds(tmp_path):
    # Ann holds the Nillis IOU and pays at the Volois with "an IOU": only the issuing culture's pays (our reading).
    document, text = audit(tmp_path, MOV, ANN, AT_NILLIS, E("first_contact", player="Ann", culture="Nillis", iou=80),
                           E("landed", player="Ann", venue="surface_city", culture="Volois"),
                           E("goods_bought", player="Ann", good="Voil Silk", culture="Volois", unit_price=140, iou=True))
    (finding,) = findings(document, "MOV-IOU")
    assert finding["line"] == 6 and finding["in_seeds"] is False and MARKER not in finding["rule_text"]
    assert finding["rule_from"].endswith("where its pages are silent: an IOU pays only toward a purchase from the "
                                         "culture that issued it, it is used up by that deal, and an IOU worth more "
                                         "than the deal gives no change")
    assert finding["message"] == ("pays with the Volois IOU, which Ann does not hold (Ann holds the Nillis IOU; "
                                  "an IOU pays only toward a purchase from the culture that issued it: not in the seeds)")
    assert "    from: the rulebook, and gamelog's reading where its pages are silent: an IOU pays only toward a" in text
    assert document["scores"]["Ann"]["total"] == 360  # c140 paid in credits, the Nillis IOU kept


def test_uch_score_a_building_without_stated_vp_is_worth_its_cost(tmp_path):
    # Our reading where the log states no VP: a wood building is worth its cost, 1 VP.
    document, _ = audit(tmp_path, UCH, ANN, E("construction_started", player="Ann", building="Casa", color="wood"),
                        E("turn_ended", player="Ann"), E("turn_started", player="Bob"),
                        E("resource_moved", player="Ann", building="Casa", color="wood"))
    assert document["findings"] == []
    assert document["scores"]["Ann"]["total"] == 1


def test_uch_score_a_finding_quotes_the_rule_and_says_where_it_comes_from(tmp_path):
    document, text = audit(tmp_path, UCH, ANN, E("monopoly_changed", color="wood", player="Ann", operations=2),
                           E("vp_adjusted", player="Ann", delta=2, reason="wood monopoly"))
    (finding,) = findings(document, "UCH-SCORE")
    assert (finding["line"], finding["in_seeds"]) == (4, False)
    assert "(as printed on the building; where the log does not state them" in finding["rule_text"]
    assert finding["rule_from"] == ("the rulebook, and gamelog's reading where its pages are silent: where the log "
                                    "does not state them, they equal its construction cost")
    assert "line 4: violation UCH-SCORE [Ann]: +2 VP recorded for a monopoly" in text
    assert "    rule: Victory points: +1, +2 or +3 for each building built (as printed on the building; where" in text
    assert document["scores"]["Ann"]["total"] == 4  # applied as recorded: 2 of the monopoly, 2 by hand


def test_the_markdown_audit_says_where_the_rule_comes_from_in_its_own_column(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(log_bytes(MOV, ANN, E("credits_paid", player="Ann", to="bank", amount=600, reason="a bet")))
    markdown = CliRunner().invoke(main, ["audit", str(path), "--format", "markdown"]).stdout
    assert "| line | severity | rule | player | finding | rule text | rule from | log |" in markdown
    (row,) = [r for r in markdown.splitlines() if r.startswith("| 3 | violation |")]
    cells = [c.strip() for c in row.strip("|").split(" | ")]
    assert cells[2] == "`MOV-PAY`" and cells[4].endswith(MARKER)  # the finding's own message says it
    assert MARKER not in cells[5] and cells[5].endswith("A player can't pay more credits than they hold.")
    assert cells[6] == ("the rulebook, and gamelog's reading where its pages are silent: a player can't pay more "
                        "credits than they hold")


def test_the_validate_line_of_a_finding_from_our_reading_says_so():
    outcome = run(log_bytes(MOV, ANN, E("credits_paid", player="Ann", to="bank", amount=600, reason="a bet")))
    (finding,) = [e for e in outcome.events if type(e).__name__ == "FindingRaised"]
    assert (finding.line, finding.rule) == (3, "MOV-PAY") and finding.message.endswith(MARKER)
