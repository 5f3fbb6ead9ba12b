"""A Replace is exact (issue 36): the correction carries the line as it should have been, decided at the replaced
line's place, so that a right fix of an old line raises no finding, and every command reads it the same way.

The cases are a careful player's: Ann paid a hazard of c20 on her turn where the card said c10, and the fix is
made during Bob's turn (the page's Replace), three lines on.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.cli.main import main
from gamelog.domain.events import FindingRaised, StateRestated
from gamelog.domain.replay import run, state_at, without
from gamelog.domain.secrets import hidden_from
from tests.conftest import log_bytes
from tests.test_correction_properties import SOURCES, _event_lines, _lines, _log as log_of, checkpoints, final

HEADER = {"game": "merchant-of-venus", "id": "fix", "players": ["Ann", "Bob"], "setup": {"starting_credits": 500}}
PLAY = [
    {"type": "turn_started", "player": "Ann"},                    # line 2
    {"type": "hazard_paid", "player": "Ann", "cost": 20},         # line 3: the card said c10
    {"type": "turn_ended", "player": "Ann"},                      # line 4
    {"type": "turn_started", "player": "Bob"},                    # line 5
]
RIGHT = {"type": "hazard_paid", "player": "Ann", "cost": 10}


def replacing(voids: int, replacement: dict, reason: str = "the card said c10") -> dict:
    return {"type": "correction", "voids": voids, "reason": reason, "replacement": replacement}


def findings(result) -> list[tuple[int, str, str]]:
    return [(e.line, e.rule, e.message) for e in result.events if isinstance(e, FindingRaised)]


def credits(result) -> dict[str, int]:
    return {name: p["credits"] for name, p in result.state.to_json()["players"].items()}


def test_a_right_fix_during_another_players_turn_raises_no_finding_and_counts_as_if_written_there():
    fixed = run(log_bytes(HEADER, *PLAY, replacing(3, RIGHT)))
    assert fixed.errors == [] and findings(fixed) == []
    assert credits(fixed) == {"Ann": 490, "Bob": 500}
    assert fixed.state.active == "Bob" and fixed.state.voided == {3}
    # The state is the one of the log in which line 3 was written right.
    written_right = run(log_bytes(HEADER, PLAY[0], RIGHT, *PLAY[2:]))
    assert fixed.state.to_json() | {"line": 0, "voided_lines": []} == written_right.state.to_json() | {"line": 0}


def test_voiding_and_writing_the_line_again_at_the_end_is_what_the_replacement_spares():
    # The old way: the hazard written again in Bob's turn breaks MOV-TURN-END for good.
    late = run(log_bytes(HEADER, *PLAY, {"type": "correction", "voids": 3, "reason": "the card said c10"}, RIGHT))
    assert [(line, rule) for line, rule, _ in findings(late)] == [(7, "MOV-TURN-END")]


def test_a_wrong_fix_is_decided_at_its_place_and_said_on_the_correction_line():
    # Bob's hazard in Ann's turn: the replacement breaks the turn rule where it stands.
    wrong = run(log_bytes(HEADER, *PLAY, replacing(3, {"type": "hazard_paid", "player": "Bob", "cost": 10})))
    assert findings(wrong) == [(6, "MOV-TURN-END", "line 3, decided again with line 3 replaced: "
                                                   "Bob acts during Ann's turn")]
    assert credits(wrong) == {"Ann": 500, "Bob": 490}


def test_an_earlier_replacement_stays_in_its_place_when_a_later_correction_decides_the_log_again():
    log = log_bytes(HEADER, *PLAY, replacing(3, RIGHT), {"type": "hazard_paid", "player": "Bob", "cost": 30},
                    {"type": "correction", "voids": 7, "reason": "Bob passed it"})
    result = run(log)
    assert findings(result) == [] and credits(result) == {"Ann": 490, "Bob": 500}
    restated = [e for e in result.events if isinstance(e, StateRestated)]
    assert [(e.line, e.voided) for e in restated] == [(6, 3), (8, 7)]


def test_a_replacement_is_read_as_a_line_with_its_errors_under_replacement():
    cases = [
        ({"type": "hazard_paid", "player": "Ann", "cost": "ten"}, "$.replacement.cost", "Expected `int`, got `str`"),
        ({"type": "hazard_paid", "player": "Zed", "cost": 10}, "$.replacement.player",
         "unknown player 'Zed' (one of: Ann, Bob)"),
        ({"type": "hazard_payd", "player": "Ann", "cost": 10}, "$.replacement.type", "unknown event type 'hazard_payd'"),
        ({"type": "correction", "voids": 2, "reason": "no"}, "$.replacement.type",
         "a replacement is the line the voided one should have been, not another correction"),
    ]
    for replacement, path, message in cases:
        read = run(log_bytes(HEADER, *PLAY, replacing(3, replacement)))
        assert [(e.line, e.path, e.message) for e in read.errors] == [(6, path, message)], replacement


def test_audit_without_the_replacing_line_gives_the_log_as_first_written():
    log = run(log_bytes(HEADER, *PLAY, replacing(3, RIGHT)))
    undone = state_at("merchant-of-venus", without("merchant-of-venus", log.events, {6}))
    assert {n: p["credits"] for n, p in undone.to_json()["players"].items()} == {"Ann": 480, "Bob": 500}


def test_validate_import_replay_and_the_fingerprint_agree_on_a_replace(tmp_path):
    path = tmp_path / "fix.jsonl"
    path.write_bytes(log_bytes(HEADER, *PLAY, replacing(3, RIGHT)))
    cli = CliRunner()
    checked = json.loads(cli.invoke(main, ["validate", str(path), "--format", "json"]).stdout)
    assert checked["files"][0]["findings"] == []
    store = str(tmp_path / "store.sqlite")
    assert cli.invoke(main, ["import", str(path), "--store", store]).exit_code == 0
    replayed = json.loads(cli.invoke(main, ["replay", "fix", "--store", store, "--format", "json"]).stdout)
    assert {n: p["credits"] for n, p in replayed["players"].items()} == {"Ann": 490, "Bob": 500}
    exported = tmp_path / "again.jsonl"
    assert cli.invoke(main, ["export", "fix", "--store", store, "-o", str(exported)]).exit_code == 0
    assert json.loads(exported.read_text().splitlines()[5]) == replacing(3, RIGHT)
    other = str(tmp_path / "other.sqlite")
    assert cli.invoke(main, ["import", str(exported), "--store", other]).exit_code == 0
    prints = [json.loads(cli.invoke(main, ["games", "--format", "json", "--store", where]).stdout)["games"][0]
              ["fingerprint"] for where in (store, other)]
    assert prints[0] == prints[1]


def test_a_secret_a_replacement_holds_is_hidden_from_the_other_players():
    header = {"game": "twilight-imperium-4", "id": "s", "players": ["Ann", "Bob", "Cid"],
              "setup": {"factions": {"Ann": "The Arborec", "Bob": "The Barony of Letnev", "Cid": "The Clan of Saar"}}}
    log = run(log_bytes(header, {"type": "round_started", "round": 1},
                        {"type": "secret_objective_drawn", "player": "Ann", "objective": "Become a Martyr"},
                        replacing(3, {"type": "secret_objective_drawn", "player": "Ann",
                                      "objective": "Destroy Their Greatest Ship"}, "drew the other card")))
    assert log.errors == []
    state = log.state
    for viewer, sees in (("Bob", False), ("Ann", True)):
        hidden = hidden_from("twilight-imperium-4", viewer, log.events, state).names
        assert ("Destroy Their Greatest Ship" in hidden) is not sees


@st.composite
def replacements(draw):
    """A log's lines (generated games of each title and the examples), an event line L, a line M whose event
    replaces it, a position C after L where the Replace goes, and checkpoint spacing (small: decided again from
    one); sometimes an earlier Replace of another line goes before C."""
    source = draw(st.sampled_from(SOURCES))
    lines = _lines(source, draw(st.integers(2, 24)))
    targets = _event_lines(lines)
    target, instead = draw(st.sampled_from(targets)), draw(st.sampled_from(targets))
    earlier = draw(st.none() | st.sampled_from(targets))
    if earlier is not None and earlier != target:
        at = draw(st.integers(earlier + 1, len(lines) + 1))
        lines = lines[:at - 1] + [json.dumps(replacing(earlier, {"type": "note", "text": "first"}))] + lines[at - 1:]
        target += target >= at
        instead += instead >= at
    at = draw(st.integers(target + 1, len(lines) + 1))
    return source, lines, target, json.loads(lines[instead - 1]), at, draw(st.integers(1, 40)), draw(st.integers(2, 8))


def _written_in_place(lines: list[str]) -> list[str]:
    """The log with each replaced line holding its replacement, and each correction a note."""
    out = list(lines)
    for number, text in enumerate(lines, start=1):
        if text.strip() and not text.lstrip().startswith("#") and json.loads(text)["type"] == "correction":
            fix = json.loads(text)
            out[fix["voids"] - 1] = json.dumps(fix["replacement"])
            out[number - 1] = json.dumps({"type": "note", "text": "was a correction"})
    return out


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=replacements())
def test_a_replace_plays_as_the_log_in_which_the_line_held_its_replacement(case):
    """Any line L replaced by any event of the game (another line's) at any later C: the final state is that of
    the log in which L held the replacement from the start, and the stored history replays to it."""
    source, lines, target, instead, at, every, kept = case
    fixed = lines[:at - 1] + [json.dumps(replacing(target, instead, "x"))] + lines[at - 1:]
    with checkpoints(every, kept):
        played = run(log_of(fixed))
    assert not played.errors
    expected = final(run(log_of(_written_in_place(fixed))).state)
    assert final(played.state) == expected, (source, target, instead, at)
    assert final(state_at(played.header.game, played.events)) == expected
