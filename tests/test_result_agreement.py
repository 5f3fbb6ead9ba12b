"""The table agrees on the result (issue 39): confirmations, disputes and rulings are lines of the log, decided by
the engine (RESULT-CONFIRM, RESULT-FINGERPRINT, RESULT-RULING), and the result's state is the same everywhere:
``gamelog result`` on a log file or a stored game, and ``GET /api/games/{id}/result`` on both backends."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from gamelog.cli.main import main
from gamelog.cli.web.app import create_app
from gamelog.cli.web.tokens import Tokens
from gamelog.domain.events import ResultConfirmed
from gamelog.domain.results import CONFIRM_RULE, FINGERPRINT_RULE, RULING_RULE, Agreement
from gamelog.domain.ruletext import rule
from tests.conftest import EXAMPLES

HOST_TOKEN = "host-token-of-the-result-agreement-tests"
HOST = {"Authorization": f"Bearer {HOST_TOKEN}"}
UCHRONIA = EXAMPLES / "uchronia" / "complete-3p.jsonl"  # Bob wins 18 to Ann's 15 and Cy's 5; last line 121
TI4 = EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"


def run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def result_json(*args: str) -> dict:
    said = run("result", *args, "--format", "json")
    assert said.exit_code == 0, said.output
    return json.loads(said.stdout)


def with_lines(tmp_path, source, *lines: dict):
    log = tmp_path / "game.jsonl"
    log.write_text(source.read_text() + "".join(json.dumps(line) + "\n" for line in lines))
    return log


def confirm(player: str, lines: int, fingerprint: str) -> dict:
    return {"type": "result_confirmed", "player": player, "lines": lines, "fingerprint": fingerprint}


# -- the rules and their texts ----------------------------------------------------------------------------------


def test_each_result_rule_has_its_own_text():
    assert "last line of play" in rule(CONFIRM_RULE).text
    assert "view shows" in rule(FINGERPRINT_RULE).text
    assert "no earlier ruling" in rule(RULING_RULE).text


def test_a_confirmation_stands_only_for_the_last_line_of_play_and_a_dispute_withdraws_it():
    agreement = Agreement()
    agreement.fold(10, ResultConfirmed(player="Ann", lines=9, fingerprint="ab" * 32))
    agreement.fold(11, ResultConfirmed(player="Bob", lines=8, fingerprint="ab" * 32))
    last = agreement.last_play([5, 8, 9, 10, 11], 1)
    assert last == 9
    standing = agreement.standing(["Ann", "Bob"], last)
    assert (standing.state, standing.confirmed, standing.pending) == ("open", ["Ann"], ["Bob"])


# -- a log file: open, settled, reopened, disputed -------------------------------------------------------------


def test_result_of_a_finished_game_is_open_until_every_seat_confirms(tmp_path):
    opened = result_json(str(UCHRONIA))
    assert opened["state"] == "open" and opened["lines"] == 121 and opened["winner"] == "Bob"
    assert opened["standings"] == [{"player": "Bob", "score": 18, "sources": {"vp": 18}},
                                   {"player": "Ann", "score": 15, "sources": {"vp": 15}},
                                   {"player": "Cy", "score": 5, "sources": {"vp": 5}}]
    assert (opened["confirmed"], opened["pending"], opened["disputes"]) == ([], ["Ann", "Bob", "Cy"], [])
    fp = opened["fingerprint"]
    # The fingerprint after the last line of play is the game's own as stored, the chain head `verify` gives.
    verified = run("verify", str(UCHRONIA), "--format", "json")
    assert json.loads(verified.stdout)["fingerprint"] == fp
    two = with_lines(tmp_path, UCHRONIA, confirm("Ann", 121, fp), confirm("Bob", 121, fp[:16]))
    assert result_json(str(two))["confirmed"] == ["Ann", "Bob"]
    everyone = with_lines(tmp_path, UCHRONIA, *(confirm(p, 121, fp) for p in ("Ann", "Bob", "Cy")))
    settled = result_json(str(everyone))
    assert (settled["state"], settled["pending"]) == ("settled", [])
    said = run("result", str(everyone))
    assert said.stdout.splitlines()[0] == "settled: confirmed by all 3 seats after line 121"


def test_a_later_line_of_play_reopens_the_result_a_note_does_not(tmp_path):
    fp = result_json(str(UCHRONIA))["fingerprint"]
    confirmed = [confirm(p, 121, fp) for p in ("Ann", "Bob", "Cy")]
    noted = with_lines(tmp_path, UCHRONIA, *confirmed, {"type": "note", "text": "well played"})
    assert result_json(str(noted))["state"] == "settled"
    corrected = with_lines(tmp_path, UCHRONIA, *confirmed, {"type": "correction", "voids": 121, "reason": "not yet"})
    reopened = result_json(str(corrected))
    assert (reopened["state"], reopened["lines"], reopened["confirmed"]) == ("open", 125, [])
    assert reopened["pending"] == ["Ann", "Bob", "Cy"]


def test_a_dispute_holds_until_the_host_rules(tmp_path):
    fp = result_json(str(UCHRONIA))["fingerprint"]
    dispute = {"type": "result_disputed", "player": "Cy", "reason": "Bob's stone monopoly was lost"}
    disputed = with_lines(tmp_path, UCHRONIA, confirm("Ann", 121, fp), confirm("Bob", 121, fp), dispute)
    state = result_json(str(disputed))
    assert state["state"] == "disputed"
    assert state["disputes"] == [{"player": "Cy", "reason": "Bob's stone monopoly was lost", "line": 124,
                                  "resolved_by": None}]
    ruled = with_lines(tmp_path, UCHRONIA, confirm("Ann", 121, fp), confirm("Bob", 121, fp), dispute,
                       {"type": "ruling", "text": "the count stands", "resolves": 124}, confirm("Cy", 121, fp))
    settled = result_json(str(ruled))
    assert settled["state"] == "settled" and settled["disputes"][0]["resolved_by"] == 125


def test_a_wrong_confirmation_or_ruling_is_a_finding_and_does_not_stand(tmp_path):
    fp = result_json(str(UCHRONIA))["fingerprint"]
    log = with_lines(tmp_path, UCHRONIA, confirm("Ann", 120, fp), {"type": "ruling", "text": "x", "resolves": 5},
                     confirm("Bob", 121, "0" * 64))
    audit = json.loads(run("audit", str(log), "--format", "json").stdout)
    found = {(f["line"], f["rule"]) for f in audit["findings"]}
    assert {(122, CONFIRM_RULE), (123, RULING_RULE)} <= found
    state = result_json(str(log))
    assert state["confirmed"] == [] and state["state"] == "open"  # Bob's fingerprint is not the game's


# -- the recorder: both backends --------------------------------------------------------------------------------


@pytest.fixture
def served(locations):
    """A recorder over a store holding the Uchronia and TI4 examples."""
    location = locations.new()
    for log in (UCHRONIA, TI4):
        assert run("import", str(log), "--store", location).exit_code == 0
    with TestClient(create_app(location, HOST_TOKEN, "http://127.0.0.1:8737")) as client:
        yield client


def seat(game: str, player: str) -> dict:
    return {"Authorization": f"Bearer {Tokens(HOST_TOKEN).seat(game, player)}"}


def post(client, game: str, headers: dict, line: dict, **more) -> object:
    return client.post(f"/api/games/{game}/lines", content=json.dumps({"line": line, **more}), headers=headers)


def test_the_recorder_stores_no_stale_confirmation_and_settles_a_confirmed_game(served):
    game = "uchronia-3p-demo"
    opened = served.get(f"/api/games/{game}/result", headers=seat(game, "Ann")).json()
    assert opened["state"] == "open" and opened["lines"] == 121
    fp = opened["fingerprint"]
    stale_line = post(served, game, seat(game, "Ann"), confirm("Ann", 120, fp))
    assert stale_line.status_code == 200 and stale_line.json()["findings"][0]["rule"] == CONFIRM_RULE
    stale_print = post(served, game, seat(game, "Ann"), confirm("Ann", 121, "ab" * 32))
    assert stale_print.status_code == 200 and stale_print.json()["findings"][0]["rule"] == FINGERPRINT_RULE
    assert served.get(f"/api/games/{game}/history?after=121", headers=HOST).json()["lines"] == []  # nothing stored
    for player in ("Ann", "Bob", "Cy"):
        assert post(served, game, seat(game, player), confirm(player, 121, fp)).status_code == 201
    spectator = {"Authorization": f"Bearer {Tokens(HOST_TOKEN).spectator(game)}"}
    for viewer in (HOST, spectator, seat(game, "Cy")):
        settled = served.get(f"/api/games/{game}/result", headers=viewer).json()
        assert (settled["state"], settled["confirmed"]) == ("settled", ["Ann", "Bob", "Cy"])
    # The host stores a correction that changes a score: every seat is asked again.
    fix = post(served, game, HOST, {"type": "note", "text": "Bob's last building was never finished"}, replaces=121)
    assert fix.status_code == 201, fix.text
    reopened = served.get(f"/api/games/{game}/result", headers=HOST).json()
    assert (reopened["state"], reopened["pending"], reopened["lines"]) == ("open", ["Ann", "Bob", "Cy"], 125)  # the correction: the note after it is no play


def test_a_seat_confirms_and_disputes_only_for_itself_and_only_the_host_rules(served):
    game = "uchronia-3p-demo"
    fp = served.get(f"/api/games/{game}/result", headers=HOST).json()["fingerprint"]
    other = post(served, game, seat(game, "Ann"), confirm("Bob", 121, fp))
    assert other.status_code == 403 and "Bob's" in other.json()["errors"][0]
    disputed_for = post(served, game, seat(game, "Ann"), {"type": "result_disputed", "player": "Cy", "reason": "x"})
    assert disputed_for.status_code == 403
    dispute = post(served, game, seat(game, "Cy"), {"type": "result_disputed", "player": "Cy", "reason": "recount"})
    assert dispute.status_code == 201 and dispute.json()["line"] == 122
    state = served.get(f"/api/games/{game}/result", headers=seat(game, "Ann")).json()
    assert state["state"] == "disputed" and state["disputes"][0]["resolved_by"] is None
    ruling = {"type": "ruling", "text": "the count stands", "resolves": 122}
    assert post(served, game, seat(game, "Cy"), ruling).status_code == 403
    assert post(served, game, HOST, ruling).status_code == 201
    for player in ("Ann", "Bob", "Cy"):
        assert post(served, game, seat(game, player), confirm(player, 121, fp)).status_code == 201
    settled = served.get(f"/api/games/{game}/result", headers=HOST).json()
    assert settled["state"] == "settled" and settled["disputes"] == [
        {"player": "Cy", "reason": "recount", "line": 122, "resolved_by": 123}]


def test_a_ti4_seat_confirms_its_own_views_fingerprint_without_learning_another_hand(served):
    game = "ti4-complete-4p"
    host = served.get(f"/api/games/{game}/result", headers=HOST).json()
    ann_seen = served.get(f"/api/games/{game}/result", headers=seat(game, "Ann"))
    ann = ann_seen.json()
    hands = [json.loads(line)["objective"] for line in TI4.read_text().splitlines()
             if line.startswith("{") and json.loads(line)["type"] == "secret_objective_drawn"
             and json.loads(line)["player"] != "Ann"]
    scored = {json.loads(line)["objective"] for line in TI4.read_text().splitlines()
              if line.startswith("{") and json.loads(line)["type"] == "objective_scored"}
    unscored = [h for h in hands if h not in scored]
    assert unscored, "the example keeps some other hand unscored"
    assert not any(name in ann_seen.text for name in unscored)
    assert ann["fingerprint"] != host["fingerprint"] and ann["lines"] == host["lines"]
    # How each score was made: Bob's 10 VP by source, as reconcile names them.
    assert ann["standings"][0] == {"player": "Bob", "score": 10, "sources": {
        "stage I objectives": 5, "stage II objectives": 2, "secret objectives": 2, "Imperial": 1}}
    # The host's fingerprint is not what Ann's view shows: her confirmation of it is not stored.
    wrong = post(served, game, seat(game, "Ann"), confirm("Ann", host["lines"], host["fingerprint"]))
    assert wrong.status_code == 200 and wrong.json()["findings"][0]["rule"] == FINGERPRINT_RULE
    assert not any(name in wrong.text for name in unscored)
    right = post(served, game, seat(game, "Ann"), confirm("Ann", ann["lines"], ann["fingerprint"]))
    assert right.status_code == 201, right.text
    assert served.get(f"/api/games/{game}/result", headers=HOST).json()["confirmed"] == ["Ann"]


def test_a_correction_of_a_note_decides_a_later_confirmation_again_without_a_finding(tmp_path):
    fp = result_json(str(UCHRONIA))["fingerprint"]
    log = with_lines(tmp_path, UCHRONIA, {"type": "note", "text": "a good game"}, confirm("Ann", 121, fp),
                     {"type": "correction", "voids": 122, "reason": "the note is void"})
    said = run("validate", str(log))
    assert said.exit_code == 0 and said.stdout.splitlines()[-1].endswith("no findings")
    reopened = result_json(str(log))
    assert (reopened["state"], reopened["lines"], reopened["confirmed"]) == ("open", 124, [])


def test_a_seat_allowed_any_players_lines_still_confirms_only_for_itself(served):
    game = "uchronia-3p-demo"
    fp = served.get(f"/api/games/{game}/result", headers=HOST).json()["fingerprint"]
    allowed = served.post(f"/api/games/{game}/settings", content=json.dumps({"any_seat": True}), headers=HOST)
    assert allowed.status_code == 200
    assert post(served, game, seat(game, "Ann"), {"type": "note", "text": "for Bob", "player": "Bob"}).status_code == 201
    other = post(served, game, seat(game, "Ann"), confirm("Bob", 121, fp))
    assert other.status_code == 403 and "Bob's word on the result" in other.json()["errors"][0]
    ruling = post(served, game, seat(game, "Ann"), {"type": "ruling", "text": "x", "resolves": 122})
    assert ruling.status_code == 403
    assert post(served, game, seat(game, "Ann"), confirm("Ann", 121, fp)).status_code == 201
