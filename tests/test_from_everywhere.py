"""``--from TOOL`` on every command that reads a log (issue 32, section 4): the hint "give --from ti-assistant" that a
command prints for an export is never a dead end, and the Python API takes the same (``read_log(..., source=)``,
``Store.import_log(..., source=)``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import gamelog
from gamelog.cli.main import main
from tests.conftest import EXAMPLES

EXPORT = str(EXAMPLES / "twilight-imperium-4" / "ti-assistant-small.json")
GAME_ID = "ti-assistant-20250208T073320Z"  # the id the converter takes from the export's start time


@pytest.fixture(autouse=True)
def _a_folder_of_its_own(tmp_path, monkeypatch):
    """Each test in a fresh folder (its default store there), whatever GAMELOG_STORE says."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GAMELOG_STORE", raising=False)


def gamelog_cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# Each command that reads a log, as it is asked of an export, and what its answer says of the game.
COMMANDS = {
    "report": (["report", "--format", "json"], lambda out: json.loads(out)["id"] == GAME_ID),
    "validate": (["validate", "--format", "json"],
                 lambda out: [f["line"] for f in json.loads(out)["files"][0]["findings"]] == [35, 42]),
    "audit": (["audit", "--format", "json"],
              lambda out: [(f["line"], f["rule"]) for f in json.loads(out)["findings"]]
              == [(35, "LRR 34.19"), (42, "TI4-VP-GOAL")]),
    "replay": (["replay", "--format", "json"],
               lambda out: (json.loads(out)["line"], json.loads(out)["players"]["Bob"]["vp"]) == (42, 2)),
    "reconcile": (["reconcile", "--format", "json"], lambda out: json.loads(out)["game"] == GAME_ID),
    "verify": (["verify", "--format", "json"], lambda out: json.loads(out)["game"] == GAME_ID),
    "stats": (["stats", "--format", "json"], lambda out: json.loads(out)["games"] == 1),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_that_reads_a_log_takes_the_from_its_hint_gives(command):
    args, says = COMMANDS[command]
    hinted = gamelog_cli(*args, EXPORT)
    assert hinted.exit_code == 2
    assert "give --from ti-assistant" in hinted.output
    answered = gamelog_cli(*args, "--from", "ti-assistant", EXPORT)
    assert answered.exit_code in (0, 1), answered.output  # 1: validate and audit find a violation (none here)
    assert says(answered.stdout)


def test_from_takes_the_tool_in_any_case_and_names_the_known_ones_for_another():
    assert gamelog_cli("replay", "--from", "TI-Assistant", EXPORT).exit_code == 0
    wrong = gamelog_cli("audit", "--from", "tabletopia", EXPORT)
    assert wrong.exit_code == 2
    assert "'tabletopia' is not one of" in wrong.output and "ti-assistant" in wrong.output


def test_from_with_a_stored_games_id_says_an_export_is_a_file():
    result = gamelog_cli("audit", "--from", "ti-assistant", "some-game-id")
    assert result.exit_code == 2
    assert "no such export file: some-game-id (--from ti-assistant reads a file, not a stored game)" in result.output


def test_an_export_the_converter_cannot_read_is_one_error_of_validate(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_bytes((EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl").read_bytes())
    result = gamelog_cli("validate", "--format", "json", "--from", "ti-assistant", str(log))
    assert result.exit_code == 2
    (checked,) = json.loads(result.stdout)["files"]
    assert checked["path"] == str(log)
    assert len(checked["errors"]) == 1 and checked["errors"][0]["line"] is None


def test_verify_against_a_stored_game_reads_the_export_converted():
    assert gamelog_cli("import", "--from", "ti-assistant", EXPORT).exit_code == 0
    result = gamelog_cli("verify", "--from", "ti-assistant", EXPORT, "--against", GAME_ID)
    assert result.exit_code == 0
    assert f"{EXPORT} (converted) matches the stored game {GAME_ID!r}" in result.output


def test_read_log_takes_the_tool_as_source():
    game = gamelog.read_log(EXPORT, source="ti-assistant")
    assert (game.id, game.players) == (GAME_ID, ["Ann", "Bob", "Cat"])
    assert game.state().players["Bob"].vp == 2
    with pytest.raises(gamelog.LogInvalid, match='give source="ti-assistant"'):  # Python's argument, not the flag
        gamelog.read_log(EXPORT)
    with pytest.raises(gamelog.BadInput, match=r"unknown format 'tabletopia' \(known: .*ti-assistant"):
        gamelog.read_log(EXPORT, source="tabletopia")


def test_store_import_log_takes_the_tool_as_source(tmp_path):
    with gamelog.open_store(tmp_path / "games.sqlite") as store:
        first = store.import_log(EXPORT, source="ti-assistant")
        assert (first.outcome, first.game_id, first.last_line) == (gamelog.Outcome.IMPORTED, GAME_ID, 42)
        again = store.import_log(EXPORT, source="ti-assistant")
        assert again.outcome is gamelog.Outcome.ALREADY_IMPORTED
        assert store.game(GAME_ID).state().players["Bob"].vp == 2
