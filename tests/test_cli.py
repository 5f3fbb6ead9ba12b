"""The command line: exit codes, messages and JSON exactly as docs/cli.md says."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from tests.conftest import EXAMPLES

MOV = EXAMPLES / "merchant-of-venus"
SEED = str(MOV / "seed-examples.jsonl")
DISPUTED = str(MOV / "disputed.jsonl")


@pytest.fixture
def gamelog(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GAMELOG_STORE", raising=False)
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(main, list(args), catch_exceptions=False)

    return invoke


@pytest.fixture
def bad_log(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "game", "game": "merchant-of-venus", "id": "b", "players": ["Ann"]}\n'
                    '{"type": "goods_bought", "player": "Ann"}\n{"type": "turn_started", "player": "Ann"}\nnot json\n')
    return str(path)


@pytest.mark.parametrize(
    "args, code",
    [
        (["validate", SEED], 0),
        (["validate", DISPUTED], 1),
        (["validate", SEED, DISPUTED], 1),
        (["validate", "missing.jsonl"], 2),
        (["validate"], 2),
        (["replay", SEED, "--turn", "99"], 2),
        (["replay", "no-such-game"], 2),
        (["replay", SEED, "--line", "3", "--turn", "1"], 2),
        (["games"], 0),
        (["schema"], 0),
        (["frobnicate"], 2),
    ],
)
def test_exit_codes(gamelog, args, code):
    assert gamelog(*args).exit_code == code


def test_input_errors_name_file_line_and_field_and_exit_2(gamelog, bad_log):
    result = gamelog("validate", bad_log)
    assert result.exit_code == 2
    assert f"{bad_log}:2: missing required field at $.good" in result.stderr
    assert f"{bad_log}:4: invalid JSON: invalid character (byte 4) at $" in result.stderr
    assert "Traceback" not in result.output


def test_validate_json_lists_each_finding_with_line_rule_and_severity(gamelog):
    result = gamelog("validate", "--format", "json", DISPUTED)
    (report,) = json.loads(result.stdout)["files"]
    assert report["errors"] == []
    assert {"line": 7, "rule": "MOV-BUY", "severity": "violation", "player": "Ann",
            "message": "buying Voil Silk needs a market of Volois, but the ship is at a surface city of Nillis"} in report["findings"]
    assert len([f for f in report["findings"] if f["severity"] == "violation"]) == 17


def test_import_then_games_then_replay_a_stored_game(gamelog):
    first = gamelog("import", SEED)
    assert first.exit_code == 0
    assert first.stdout == f"{SEED}: imported 61 log lines (lines 5-78) into game 'seed-examples'\n"
    again = gamelog("import", SEED)
    assert again.stdout == f"{SEED}: already imported (game 'seed-examples'); nothing added\n"
    listing = json.loads(gamelog("games", "--format", "json").stdout)
    assert listing == {"games": [{"id": "seed-examples", "game": "merchant-of-venus",
                                  "players": ["Qossuth", "Whynom", "Eeepeeep", "Human"], "events": 61,
                                  "last_line": 78, "finished": True, "winner": "Human", "versions": 138,
                                  # events hold no clock, so the same log has the same fingerprint everywhere
                                  "fingerprint": "091f5cd18eb23135e08a514afdc5674f1f7ce76aa3d9c3f7356df993b7ea39e3",
                                  "at": None, "sides": {}}],  # no date in its header; no sides in its game
                       "version": 1}
    state = json.loads(gamelog("replay", "seed-examples", "--turn", "3", "--format", "json").stdout)
    assert (state["turn"], state["finished"], state["winner"]) == (3, False, None)
    assert state["players"]["Qossuth"]["ious"] == {}
    assert state["players"]["Human"]["net_worth"] == 1992


def test_import_of_a_conflicting_log_exits_1(gamelog, tmp_path):
    gamelog("import", SEED)
    changed = tmp_path / "changed.jsonl"
    changed.write_bytes(open(SEED, "rb").read().replace(b'"quantity": 3, "unit_price": 80', b'"quantity": 2, "unit_price": 80'))
    result = gamelog("import", str(changed))
    assert result.exit_code == 1
    # A conflict is a failure like any other: on stderr, as Error: ...
    assert result.stderr == f"Error: {changed}: conflict: line 15 differs from the stored game 'seed-examples'; nothing stored\n"
    assert result.stdout == ""


def test_import_of_an_invalid_log_exits_2_and_stores_nothing(gamelog, bad_log):
    result = gamelog("import", bad_log)
    assert result.exit_code == 2
    assert "Error: " + bad_log + ": 2 input errors; nothing stored" in result.stderr
    assert json.loads(gamelog("games", "--format", "json").stdout) == {"games": [], "version": 1}


def test_replay_of_a_log_file_at_a_line(gamelog):
    result = gamelog("replay", SEED, "--line", "10", "--format", "json")
    state = json.loads(result.stdout)
    assert state["game"] == "merchant-of-venus" and state["id"] == "seed-examples" and state["line"] == 10
    assert state["players"]["Qossuth"]["credits"] == 90
    assert state["players"]["Qossuth"]["cargo"] == [{"kind": "good", "name": "Melf Pelts", "dots": 1, "count": 2}]


def test_replay_beyond_the_game_says_so(gamelog):
    result = gamelog("replay", SEED, "--turn", "99")
    assert result.stderr == f"Error: {SEED}: the game has 12 turns, not 99\n"


def test_schema_describes_every_event_type(gamelog):
    schema = json.loads(gamelog("schema").stdout)
    text = json.dumps(schema)
    for tag in ("goods_bought", "passenger_delivered", "turn_started", "correction", "score_claimed"):
        assert f'"{tag}"' in text
    assert schema["$schema"].startswith("https://json-schema.org/")


def test_help_explains_each_command(gamelog):
    for command in ("validate", "import", "games", "replay", "schema"):
        result = gamelog(command, "--help")
        assert result.exit_code == 0 and "Usage:" in result.stdout


# -- CLI conventions (issue 15 item 5) ---------------------------------------------------------------------------


def test_store_may_come_before_the_command(gamelog, tmp_path, monkeypatch):
    assert gamelog("--store", "kept.sqlite", "import", SEED).exit_code == 0
    assert (tmp_path / "kept.sqlite").exists() and not (tmp_path / "gamelog.sqlite").exists()
    listed = json.loads(gamelog("--store", "kept.sqlite", "games", "--format", "json").stdout)
    assert [g["id"] for g in listed["games"]] == ["seed-examples"]
    # The command's own --store wins over the one before it, and either wins over GAMELOG_STORE.
    assert gamelog("--store", "kept.sqlite", "games", "--store", "other.sqlite").stdout.startswith("no games in other.sqlite: ")
    monkeypatch.setenv("GAMELOG_STORE", "env.sqlite")
    assert gamelog("games").stdout.startswith("no games in env.sqlite: ")
    assert gamelog("--store", "kept.sqlite", "games").stdout.startswith("seed-examples\n  game: merchant-of-venus")
    assert gamelog("--store", "kept.sqlite", "projections", "status").stdout.startswith("lines     at store position 138 of 138")


@pytest.mark.parametrize("url", ["ftp://host/db", "sqlite:///x.db", "mysql://u@h/db"])
def test_an_unsupported_store_url_is_an_error_not_a_file_name(gamelog, tmp_path, url):
    for args in (["games", "--store", url], ["--store", url, "import", SEED]):
        result = gamelog(*args)
        scheme = url.split("://")[0]
        assert result.exit_code == 2
        assert f"unsupported URL scheme {scheme!r} in {url!r}" in result.stderr
    assert list(tmp_path.iterdir()) == []  # no SQLite file named after the URL


def test_verify_of_a_log_file_gives_its_fingerprint_as_games_shows_it(gamelog):
    result = gamelog("verify", SEED)
    assert result.exit_code == 0
    assert result.stdout == f"{SEED}: game 'seed-examples', 138 stored events, fingerprint 091f5cd18eb23135\n"
    document = json.loads(gamelog("verify", SEED, "--format", "json").stdout)
    gamelog("import", SEED)
    (stored,) = json.loads(gamelog("games", "--format", "json").stdout)["games"]
    assert (document["fingerprint"], document["versions"], document["intact"]) == (stored["fingerprint"], stored["versions"], True)
    assert gamelog("verify", SEED, "--fingerprint", "091f5cd1").exit_code == 0
    wrong = gamelog("verify", SEED, "--fingerprint", "00ff")
    assert wrong.exit_code == 3
    assert wrong.stdout.splitlines()[-1] == f"{SEED}: the chain head 091f5cd18eb23135 is not the fingerprint you kept, 00ff"


def test_replay_and_report_say_clearly_what_a_game_cannot_give(gamelog):
    no_rounds = gamelog("replay", SEED, "--round", "2")
    assert (no_rounds.exit_code, no_rounds.stderr) == (
        2, f"Error: {SEED}: merchant-of-venus is not played in rounds; give --turn or --line\n")
    before = gamelog("replay", SEED, "--line", "2")
    assert (before.exit_code, before.stderr) == (
        2, f"Error: {SEED}: line 2 is before the header (line 3); the game starts there\n")
    assert gamelog("replay", SEED, "--line", "3", "--format", "json").exit_code == 0
    by_round = gamelog("report", SEED, "--by", "round")
    assert (by_round.exit_code, by_round.stderr) == (
        2, f"Error: {SEED}: merchant-of-venus is not played in rounds; report it --by turn\n")
    gamelog("import", SEED)
    stored = gamelog("replay", "seed-examples", "--line", "1")
    assert stored.stderr == "Error: seed-examples: line 1 is before the header (line 3); the game starts there\n"


def test_help_points_to_the_docs_that_ship(gamelog):
    """Every help text names the manual's topic (``gamelog help cli``), which a pip install carries, never a file of
    the repository's docs/ (issue 40, section 2)."""
    import re

    from gamelog.cli.main import COMMANDS
    from gamelog.manual import topics

    top = " ".join(gamelog("--help").stdout.split())
    assert {"gamelog help log-format", "gamelog help cli", "gamelog help rules"} <= set(
        re.findall(r"gamelog help [a-z-]+", top))
    for command in [None, *COMMANDS]:
        text = " ".join(gamelog(*([command] if command else []), "--help").stdout.split())
        assert "docs/" not in text and ".md" not in text, command
        assert set(re.findall(r"gamelog help (?!gamelog)([a-z][a-z-]*)", text)) <= set(topics()), command
    assert "gamelog help cli" in " ".join(gamelog("report", "--help").stdout.split())