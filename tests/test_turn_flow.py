"""The turn flow (issue 36, "Too much typing"): a turn change is one tap, whose lines the engine accepts; the step
names the player whose turn comes next as the rules decide it; nothing is offered once the game is over.

The cases are the examples' games at points a table would check by hand (whose turn, what the button says).
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from litestar.testing import TestClient

from gamelog.cli.web.app import create_app
from gamelog.domain.games import GAMES
from gamelog.domain.replay import run
from gamelog.domain.turn_flow import turn_steps

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HOST_TOKEN = "host-token-for-the-tests-0123456789"
HOST = {"Authorization": f"Bearer {HOST_TOKEN}"}


def engine_after(log: bytes):
    read = run(log)
    assert read.errors == []
    return GAMES[read.header.game].engine.from_history(read.events, history=False)


def steps(log: bytes) -> list[tuple[str, str, list[dict]]]:
    engine = engine_after(log)
    return [(s.id, s.label, [msgspec.to_builtins(line) for line in s.lines])
            for s in turn_steps(engine, GAMES[engine.state.header.game].turn_steps)]


def first_lines(path: Path, count: int) -> bytes:
    """The log's first ``count`` lines that are events (the header's included), comments kept."""
    kept, events = [], 0
    for raw in path.read_bytes().splitlines():
        kept.append(raw)
        if raw.strip() and not raw.lstrip().startswith(b"#"):
            events += 1
            if events == count:
                break
    return b"\n".join(kept) + b"\n"


MOV = {"type": "game", "game": "merchant-of-venus", "id": "flow", "players": ["Ann", "Bob", "Cy"],
       "setup": {"starting_credits": 100}}


def mov_log(*lines: dict) -> bytes:
    return b"".join(json.dumps(line).encode() + b"\n" for line in (MOV, *lines))


def test_before_the_first_turn_the_first_seat_starts():
    assert steps(mov_log()) == [("start_turn", "Start Ann's turn", [{"type": "turn_started", "player": "Ann"}])]


def test_ending_a_turn_starts_the_next_seats_in_one_step():
    assert steps(mov_log({"type": "turn_started", "player": "Ann"})) == [
        ("end_turn", "End turn: Bob's turn", [{"type": "turn_ended", "player": "Ann"},
                                              {"type": "turn_started", "player": "Bob"}])]
    # The last seat's turn ends: the first seat's comes round again.
    log = mov_log({"type": "turn_started", "player": "Ann"}, {"type": "turn_ended", "player": "Ann"},
                  {"type": "turn_started", "player": "Bob"}, {"type": "turn_ended", "player": "Bob"},
                  {"type": "turn_started", "player": "Cy"})
    assert [label for _, label, _ in steps(log)] == ["End turn: Ann's turn"]


def test_after_a_turn_ended_only_the_next_start_is_offered_never_a_second_end():
    log = mov_log({"type": "turn_started", "player": "Ann"}, {"type": "turn_ended", "player": "Ann"})
    assert steps(log) == [("start_turn", "Start Bob's turn", [{"type": "turn_started", "player": "Bob"}])]


def test_nothing_is_offered_once_the_game_is_over():
    log = (EXAMPLES / "merchant-of-venus" / "seed-examples.jsonl").read_bytes()
    assert engine_after(log).state.ended is not None
    assert steps(log) == []


TI4 = EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"


@pytest.mark.parametrize("events, expected", [
    # Setup done: the first round begins with its strategy phase.
    (7, [("next_round", "Round 1: strategy phase")]),
    # Every player holds two cards: the action phase, Bob first (Leadership, initiative 1).
    (17, [("action_phase", "Action phase: Bob's turn")]),
    # Ann (Trade, 5) in her turn: end it, or pass; Bob (1) is next either way.
    (30, [("pass", "Pass: Bob's turn"), ("end_turn", "End turn: Bob's turn")]),
    # Ann's turn, the others passed: her pass ends the action phase; ending her turn gives her another.
    (39, [("pass", "Pass: status phase"), ("end_turn", "End turn: Ann's turn")]),
    # Ann passed last: the status phase.
    (40, [("status_phase", "Status phase")]),
    # The status phase done: the agenda phase, or the next round.
    (47, [("agenda_phase", "Agenda phase"), ("next_round", "Round 2: strategy phase")]),
])
def test_twilight_imperium_steps_follow_the_round_its_phases_and_initiative(events, expected):
    assert [(i, label) for i, label, _ in steps(first_lines(TI4, events))] == expected


def test_the_last_pass_of_the_action_phase_begins_the_status_phase():
    log = first_lines(TI4, 39)  # Dee passed; Ann's turn, the last not passed
    offered = {i: lines for i, _, lines in steps(log)}
    assert offered["pass"] == [{"type": "player_passed", "player": "Ann"}, {"type": "phase_started", "phase": "status"}]


def test_every_step_offered_through_a_whole_game_is_stored_with_no_violation():
    """Every step offered at every point of the TI4 example is decided with no violation (the offer is the rule)."""
    raw = TI4.read_bytes().splitlines()
    for count in range(2, len(raw)):
        log = b"\n".join(raw[:count]) + b"\n"
        engine = engine_after(log)
        for step in turn_steps(engine, GAMES["twilight-imperium-4"].turn_steps):
            extended = log + b"".join(msgspec.json.encode(line) + b"\n"
                                      for line in step.lines)
            after = run(extended)
            assert [e for e in after.events if getattr(e, "severity", None) == "violation"
                    and e.line > engine.state.line] == [], (count, step)


@pytest.fixture
def client(locations):
    with TestClient(create_app(locations.new(), HOST_TOKEN, "http://127.0.0.1:8737")) as served:
        yield served


def test_one_tap_ends_the_turn_and_starts_the_next_and_a_seat_takes_only_its_own(client):
    made = client.post("/api/games", content=json.dumps(MOV), headers=HOST).json()
    ann = {"Authorization": f"Bearer {made['seats']['Ann']['token']}"}
    cy = {"Authorization": f"Bearer {made['seats']['Cy']['token']}"}
    forms = client.get("/api/games/flow/forms", headers=ann).json()
    assert (forms["active"], [s["id"] for s in forms["turn"]]) == (None, ["start_turn"])
    assert next(f for f in forms["forms"] if f["type"] == "hazard_paid")["label"] == "Pay a hazard"
    assert client.post("/api/games/flow/turn", content=json.dumps({"step": "start_turn", "after": 1}),
                       headers=ann).status_code == 201
    forms = client.get("/api/games/flow/forms", headers=ann).json()
    assert forms["active"] == "Ann" and forms["turn"] == [{
        "id": "end_turn", "label": "End turn: Bob's turn",
        "lines": [{"type": "turn_ended", "player": "Ann"}, {"type": "turn_started", "player": "Bob"}]}]
    # Cy's seat may not end Ann's turn; a step not offered now is 422; a game moved past `after` is 409.
    refused = client.post("/api/games/flow/turn", content=json.dumps({"step": "end_turn", "after": 2}), headers=cy)
    assert refused.status_code == 403
    assert client.post("/api/games/flow/turn", content=json.dumps({"step": "start_turn", "after": 2}),
                       headers=ann).status_code == 422
    assert client.post("/api/games/flow/turn", content=json.dumps({"step": "end_turn", "after": 1}),
                       headers=ann).status_code == 409
    taken = client.post("/api/games/flow/turn", content=json.dumps({"step": "end_turn", "after": 2}), headers=ann)
    assert taken.status_code == 201 and (taken.json()["line"], taken.json()["findings"]) == (4, [])
    history = client.get("/api/games/flow/history?after=2", headers=HOST).json()["lines"]
    # One step, one time: the server's (``at``, test_server_time), on both its lines.
    assert len({h["entry"].pop("at") for h in history}) == 1
    assert [h["entry"] for h in history] == [{"type": "turn_ended", "player": "Ann"},
                                             {"type": "turn_started", "player": "Bob"}]
    assert client.get("/api/games/flow/forms", headers=HOST).json()["due"] == "Bob"


def test_a_step_resent_with_its_key_gets_the_first_answer_and_is_taken_once(client):
    """Issue 38, item 8, for the turn flow: a step whose answer was lost is sent again with its key. Without ``after``
    nothing else would stop a second "End turn" (Bob's, now offered under the same id); the key does."""
    made = client.post("/api/games", content=json.dumps(MOV), headers=HOST).json()
    ann = {"Authorization": f"Bearer {made['seats']['Ann']['token']}"}
    assert client.post("/api/games/flow/turn", content=json.dumps({"step": "start_turn"}), headers=ann).status_code == 201
    first = client.post("/api/games/flow/turn", content=json.dumps({"step": "end_turn", "key": "s-1"}), headers=HOST)
    again = client.post("/api/games/flow/turn", content=json.dumps({"step": "end_turn", "key": "s-1"}), headers=HOST)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json() and first.json()["line"] == 4
    assert [h["entry"]["type"] for h in client.get("/api/games/flow/history?after=2", headers=HOST).json()["lines"]] == [
        "turn_ended", "turn_started"]
    # A key is the sender's own: the same key from Ann's seat is another key, decided anew (not Ann's turn: 403).
    assert client.post("/api/games/flow/turn", content=json.dumps({"step": "end_turn", "key": "s-1"}),
                       headers=ann).status_code == 403
    # Without its key, the same resend is a second step: Bob's turn ends too.
    assert client.post("/api/games/flow/turn", content=json.dumps({"step": "end_turn"}), headers=HOST).json()["line"] == 6
