"""The two fields renamed out of one game's words: a claim's ``score`` and the documents' ``board``.

A ``score_claimed`` line states ``score``; logs written with the older names
(``vp``, ``net_worth``) read as before, with the same findings. The replay and
report documents give the board's counts as ``board``, and as ``forum`` too,
its deprecated name, for one schema version (docs/cli.md).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.events import FindingRaised, ScoreChecked
from gamelog.domain.replay import run, state_at
from tests.conftest import EXAMPLES

CLAIMED = [("merchant-of-venus/disputed.jsonl", "net_worth"), ("merchant-of-venus/seed-examples.jsonl", "net_worth"),
           ("uchronia/disputed.jsonl", "vp"), ("twilight-imperium-4/disputed.jsonl", "vp")]
"""Example logs whose claims state the score under an older name, and that name."""


def _findings(log: bytes) -> list[tuple]:
    outcome = run(log)
    assert outcome.errors == []
    return [(e.line, e.rule, e.severity, e.message, e.player) for e in outcome.events if type(e) is FindingRaised]


def _checked(log: bytes) -> list[ScoreChecked]:
    return [e for e in run(log).events if type(e) is ScoreChecked]


def _restated(log: bytes, old: str, new: str) -> bytes:
    """The log with every claim's ``old`` field written as ``new``."""
    out = []
    for line in log.decode("utf-8").splitlines(keepends=True):
        record = json.loads(line) if line.strip().startswith("{") else None
        if record and record.get("type") == "score_claimed" and old in record:
            record[new] = record.pop(old)
            line = json.dumps(record) + "\n"
        out.append(line)
    return "".join(out).encode("utf-8")


@pytest.mark.parametrize("path, old", CLAIMED, ids=[p for p, _ in CLAIMED])
def test_a_claim_in_score_or_in_its_older_name_gives_the_same_findings(path, old):
    log = (EXAMPLES / path).read_bytes()
    assert f'"{old}":'.encode() in log and b'"score_claimed"' in log
    restated = _restated(log, old, "score")
    assert restated != log and _checked(log)  # every claim is checked against the computed score
    assert _findings(restated) == _findings(log) and _checked(restated) == _checked(log)


def test_a_claim_in_another_games_name_for_its_score_cannot_be_checked():
    header = {"type": "game", "game": "uchronia", "id": "u", "players": ["Ann", "Bob"], "setup": {"last_turn_card": "Bob"}}
    lines = [header, {"type": "turn_started", "player": "Ann"}, {"type": "score_claimed", "player": "Ann", "net_worth": 3}]
    (finding,) = _findings("".join(json.dumps(x) + "\n" for x in lines).encode())
    assert finding == (3, "CLAIM", "unverifiable", "this game's score is `vp`, not `net_worth`; the claim cannot be checked", "Ann")


@pytest.mark.parametrize("fields", [{}, {"score": 1, "vp": 1}, {"vp": 1, "net_worth": 1}])
def test_a_claim_states_exactly_one_score(fields):
    header = {"type": "game", "game": "uchronia", "id": "u", "players": ["Ann", "Bob"], "setup": {"last_turn_card": "Bob"}}
    lines = [header, {"type": "score_claimed", "player": "Ann", **fields}]
    outcome = run("".join(json.dumps(x) + "\n" for x in lines).encode())
    (error,) = outcome.errors
    assert error.line == 2 and "score_claimed needs exactly one of `score`, `vp`, `net_worth`" in str(error)


def test_the_log_schema_shows_score_and_its_older_names():
    schema = json.loads(CliRunner().invoke(main, ["schema"]).stdout)
    for game in ("merchant-of-venus", "uchronia", "twilight-imperium-4"):
        claim = schema["$defs"][f"{game}.ScoreClaimed"]
        assert {"score", "vp", "net_worth"} <= set(claim["properties"]), game
        assert "older names" in claim["description"]


# --- board, and forum its deprecated name ------------------------------------------------


def _gamelog(*args: str) -> dict:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("path", ["uchronia/complete-3p.jsonl", "merchant-of-venus/disputed.jsonl"])
def test_the_replay_and_report_documents_carry_board_and_forum_with_the_same_value(path):
    log = str(EXAMPLES / path)
    has_board = path.startswith("uchronia")
    replay = _gamelog("replay", log, "--line", "20", "--format", "json")
    assert list(replay).index("forum") == list(replay).index("board") + 1
    assert replay["forum"] == replay["board"] and (replay["board"] is not None) == has_board
    report = _gamelog("report", log, "--format", "json")
    for period in report["periods"]:
        assert period["forum"] == period["board"] and (period["board"] is not None) == has_board
    if has_board:
        outcome = run((EXAMPLES / path).read_bytes())
        assert replay["board"] == state_at(outcome.header.game, outcome.events, line=20).forum


def test_the_schemas_name_board_and_keep_forum():
    replay = json.loads(CliRunner().invoke(main, ["schema", "replay"]).stdout)
    report = json.loads(CliRunner().invoke(main, ["schema", "report"]).stdout)
    for properties in [report["$defs"]["Period"]["properties"],
                       *(d["properties"] for d in replay["$defs"].values() if "voided_lines" in d.get("properties", {}))]:
        assert {"board", "forum"} <= set(properties)
