"""``gamelog append`` and ``gamelog export`` as a script uses them: exit codes, what is stored, and the log back out
read to the same game."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from tests.conftest import EXAMPLES

SEED = EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl"


@pytest.fixture
def gamelog(tmp_path):
    store = str(tmp_path / "store.sqlite")
    runner = CliRunner()

    def run(*args: str) -> tuple[int, str, str]:
        done = runner.invoke(main, [*args, "--store", store], catch_exceptions=False)
        return done.exit_code, done.stdout, done.stderr

    return run


def test_a_line_is_stored_refused_with_its_finding_or_stored_anyway(gamelog, tmp_path):
    assert gamelog("import", str(SEED))[0] == 0
    # The seed game ended at line 78: a note is no move, so it may follow.
    code, out, err = gamelog("append", "seed-examples", '{"type": "note", "text": "good game"}')
    assert (code, out.strip()) == (0, "stored as line 79")
    code, out, err = gamelog("append", "seed-examples", '{"type": "turn_started", "player": "Whynom"}')
    assert code == 1 and "not stored: line 80 breaks a rule" in err
    assert "violation MOV-WIN: the game ended at line 78; nothing may follow it" in err
    assert "MOV-WIN: A player whose net worth is at least c2000" in err  # the rule's own text
    code, out, err = gamelog("append", "seed-examples", '{"type": "turn_started", "player": "Whynom"}', "--anyway")
    assert code == 0 and out.startswith("stored as line 80")
    code, out, err = gamelog("append", "seed-examples", '{"type": "turn_startd", "player": "Whynom"}')
    assert code == 2 and "seed-examples:81: unknown event type 'turn_startd': did you mean `turn_started`? at $.type" in err
    code, out, err = gamelog("append", "seed-examples", '{"type": "note", "text": "late"}', "--after", "79")
    assert code == 1 and "the game moved on (it has 80 lines now)" in err
    code, out, err = gamelog("append", "seed-examples", '{"type": "note", "text": "fixed"}', "--replaces", "79",
                             "--reason", "misread", "--format", "json")
    answer = json.loads(out)
    assert code == 0 and (answer["appended"], answer["line"], answer["findings"]) == (True, 81, [])


def test_the_exported_log_reads_back_to_the_same_game(gamelog, tmp_path):
    assert gamelog("import", str(SEED))[0] == 0
    gamelog("append", "seed-examples", '{"type": "note", "text": "after the end"}')
    gamelog("append", "seed-examples", '{"type": "hazard_paid", "player": "Human", "cost": 40}', "--anyway")
    out_file = tmp_path / "again.jsonl"
    assert gamelog("export", "seed-examples", "-o", str(out_file))[0] == 0
    code, shown, _ = gamelog("export", "seed-examples")
    assert code == 0 and shown == out_file.read_text()
    lines = out_file.read_text().splitlines()
    assert len(lines) == 80 and lines[0] == "" and json.loads(lines[2])["type"] == "game"  # line numbers kept
    checked = json.loads(CliRunner().invoke(main, ["validate", str(out_file), "--format", "json"]).stdout)
    stored = json.loads(gamelog("audit", "seed-examples", "--format", "json")[1])
    assert [(f["line"], f["rule"]) for f in checked["files"][0]["findings"]] == \
        [(f["line"], f["rule"]) for f in stored["findings"]] != []
    other = str(tmp_path / "other.sqlite")
    assert CliRunner().invoke(main, ["import", str(out_file), "--store", other]).exit_code == 0
    prints = [json.loads(CliRunner().invoke(main, ["games", "--format", "json", "--store", where]).stdout)
              ["games"][0]["fingerprint"] for where in (other, str(tmp_path / "store.sqlite"))]
    assert prints[0] == prints[1]


def test_export_of_a_game_not_stored_is_an_input_error(gamelog):
    gamelog("import", str(SEED))
    code, out, err = gamelog("export", "no-such-game")
    assert code == 2 and "no-such-game" in err and out == ""


def test_the_text_fits_80_columns_and_says_each_rules_text_once(tmp_path):
    store = str(tmp_path / "s.sqlite")
    runner = CliRunner(env={"COLUMNS": "80"})
    runner.invoke(main, ["import", str(EXAMPLES / "uchronia" / "complete-3p.jsonl"), "--store", store])
    done = runner.invoke(main, ["append", "uchronia-3p-demo", '{"type": "forum_card_taken", "player": "Ann",'
                                ' "color": "wood"}', "--store", store])
    lines = done.stderr.splitlines()
    assert done.exit_code == 1 and lines[0] == "not stored: line 122 breaks a rule (give --anyway if the table agreed)"
    assert max(map(len, lines)) <= 80
    assert sum(line.startswith("  line 122: violation UCH-MONOPOLY-BONUS") for line in lines) == 2
    assert sum(line.startswith("  UCH-MONOPOLY-BONUS: When a building is completed") for line in lines) == 1
    empty = runner.invoke(main, ["append", "uchronia-3p-demo", "", "--store", store])
    assert empty.exit_code == 2 and empty.stderr.splitlines() == [
        "uchronia-3p-demo:122: the entry is empty: give one JSON object of the log at $",
        "Error: uchronia-3p-demo: not a valid line; nothing stored"]
