"""A count the log's source does not record (the header's ``not_recorded``) is null in ``replay --format json`` (and in
the report's standings), never a number (issue 32, section 3), and ``gamelog schema replay`` says it may be."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from tests.conftest import EXAMPLES, shared_path

TI4 = EXAMPLES / "twilight-imperium-4"
UNRECORDED = ("trade_goods", "strategy_tokens", "tactic_tokens", "fleet_tokens", "secret_objectives_held")


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def replayed(*args: str) -> dict:
    return json.loads(run("replay", "--format", "json", *args))


def test_the_shipped_export_replays_what_it_does_not_record_as_null():
    document = replayed("--from", "ti-assistant", str(TI4 / "ti-assistant-small.json"))
    assert document["not_recorded"] == ["command_tokens", "secondary_order", "secret_objectives", "trade_chosen",
                                        "trade_goods"]
    for name, player in document["players"].items():
        assert {field: player[field] for field in UNRECORDED} == dict.fromkeys(UNRECORDED), name
    # What the export does record keeps its number: VP, and commodities (from the factions' values).
    assert {name: (p["vp"], p["commodities"]) for name, p in document["players"].items()} == {
        "Ann": (1, 6), "Bob": (2, 0), "Cat": (0, 2)}


def test_a_converted_real_export_gives_no_invented_count(tmp_path):
    export = shared_path("data", "real", "ti-assistant-LjnqDB.json")
    log = tmp_path / "game.jsonl"
    CliRunner().invoke(main, ["convert", "--from", "ti-assistant", str(export), "-o", str(log)], catch_exceptions=False)
    document = replayed(str(log))
    players = document["players"]
    assert {name: p["vp"] for name, p in players.items()} == {"Steve": 9, "Ben": 8, "Will": 8, "Paul": 8, "Tanys": 10,
                                                                "TK": 6}
    # Before, Ben's strategy tokens read -2 and Will's trade goods 6: numbers the export never held.
    assert [p[field] for p in players.values() for field in UNRECORDED] == [None] * (len(players) * len(UNRECORDED))
    # The same state at any point: the end of round 2 as well.
    assert {p["strategy_tokens"] for p in replayed(str(log), "--round", "2")["players"].values()} == {None}


def test_a_log_that_records_them_keeps_its_numbers():
    document = replayed(str(TI4 / "complete-4p.jsonl"))
    assert "not_recorded" not in document
    assert all(isinstance(p[field], int) for p in document["players"].values()
               for field in UNRECORDED if field != "secret_objectives_held")
    assert all(isinstance(p["secret_objectives_held"], list) for p in document["players"].values())


@pytest.mark.parametrize("field", UNRECORDED)
def test_the_replay_schema_says_what_may_be_null(field):
    schema = json.loads(run("schema", "replay"))
    player = schema["$defs"]["gamelog.domain.twilight_imperium.replay_document.Player"]["properties"]
    assert {"type": "null"} in player[field]["anyOf"]
    assert player["vp"] == {"type": "integer"}  # what every log records stays a number


def test_the_report_gives_no_total_of_what_is_not_recorded_but_keeps_each_change():
    export = str(TI4 / "ti-assistant-small.json")
    report = json.loads(run("report", "--from", "ti-assistant", export, "--format", "json"))
    assert report["not_recorded"] == ["trade_goods"]
    assert {p: row["trade_goods"] for p, row in report["opening"].items()} == {"Ann": None, "Bob": None, "Cat": None}
    assert {row["trade_goods"] for period in report["periods"] for row in period["standings"].values()} == {None}
    changes = [c for period in report["periods"] for line in period["lines"] for c in line["changes"]]
    trade_goods = [c for c in changes if c["measure"] == "trade_goods"]
    assert trade_goods and {c["value"] for c in trade_goods} == {None}
    assert all(isinstance(c["delta"], int) for c in trade_goods)  # what the log holds: the change itself
    assert all(isinstance(c["value"], int) for c in changes if c["measure"] == "vp")
    text = run("report", "--from", "ti-assistant", export)
    said = [line for line in text.splitlines() if " trade goods +" in line or " trade goods -" in line]
    assert said and not [line for line in said if " = " in line.split("trade goods", 1)[1].split("[")[0]]
