"""The audit of a real export leads with what the log shows (issue 32, section 3): the unverifiable findings follow the
violations, grouped by reason with their count, worded as what the source lacks; JSON keeps every finding's fields
and adds ``not_recorded``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from tests.conftest import EXAMPLES, shared_path


def run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.stdout


@pytest.fixture(scope="module")
def real_log(tmp_path_factory) -> str:
    export = shared_path("data", "real", "ti-assistant-LjnqDB.json")
    log = tmp_path_factory.mktemp("real") / "game.jsonl"
    run("convert", "--from", "ti-assistant", str(export), "-o", str(log))
    return str(log)


def test_the_one_violation_leads_and_the_unverifiable_follow_grouped_by_reason(real_log):
    lines = run("audit", real_log, code=1).splitlines()
    assert lines[1].endswith("1 violation, 37 unverifiable")
    assert lines[2] == "result open: no seat has confirmed the game after line 911"  # the table's word on it (#39)
    assert lines[3] == "line 526: violation LRR 34.5 [Ben]: Amass Wealth is scored in the status phase,"
    headings = [line for line in lines if not line.startswith(" ") and not line.startswith("line ")]
    assert headings[2:6] == [
        "the log's source does not record secret objectives, so 14 lines cannot be",
        "the log's source does not record command tokens, so 11 lines cannot be checked",
        "the log's source does not record trade goods, so 8 lines cannot be checked",
        "the log does not hold what 4 lines need to be checked against their rules:",
    ]
    # No finding but the violation is printed as an accusation: the secret objectives' lines say what the log says.
    assert "    line 154 [Ben]: Ben scores Hoard Raw Materials (secret, 1 VP)" in lines
    assert not [line for line in lines if "does not hold the secret objective" in line]
    assert len(lines) < 140  # 268 lines when each finding repeated its rule's text


def test_markdown_groups_them_the_same_way(real_log):
    text = run("audit", real_log, "--format", "markdown", code=1)
    table, rest = text.split("\n## Not recorded by the log's source: secret objectives (14)\n", 1)
    assert [row.split(" | ")[1] for row in table.splitlines() if row.startswith("| 5")] == ["violation"]
    assert "| 154 | Ben | Ben scores Hoard Raw Materials (secret, 1 VP) |" in rest
    assert "## Not recorded by the log's source: command tokens (11)" in rest
    assert "## Not held by the log (4)" in rest


def test_json_keeps_every_finding_and_names_what_the_source_lacks(real_log):
    findings = json.loads(run("audit", real_log, "--format", "json", code=1))["findings"]
    assert len(findings) == 38
    assert [f["line"] for f in findings] == sorted(f["line"] for f in findings)  # in line order, as before
    lacking = {}
    for f in findings:
        lacking[f.get("not_recorded")] = lacking.get(f.get("not_recorded"), 0) + 1
    assert lacking == {"secret_objectives": 14, "command_tokens": 11, "trade_goods": 8, None: 5}
    first = next(f for f in findings if f["line"] == 154)
    assert (first["severity"], first["rule"], first["log"]) == ("unverifiable", "LRR 34.19",
                                                                 "Ben scores Hoard Raw Materials (secret, 1 VP)")


def test_a_log_that_records_everything_has_no_group_of_what_its_source_lacks():
    text = run("audit", str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"))
    assert "the log's source does not record" not in text
    # Its unverifiable findings (what the log cannot hold) follow its violations and warnings all the same.
    lines = text.splitlines()
    group = lines.index(next(line for line in lines if line.startswith("the log does not hold what")))
    assert not [line for line in lines[group:] if line.startswith("line ")]
