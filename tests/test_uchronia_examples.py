"""The Uchronia examples in ``examples/uchronia/``, replayed and checked by hand-computed values."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from gamelog.domain.events import FindingRaised, GameWon
from gamelog.domain.replay import run, state_at

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "uchronia"
ANNOTATION = re.compile(r"#\s*violation\s+(\S+):")


def replay(name: str):
    outcome = run((EXAMPLES / name).read_bytes())
    assert outcome.errors == []
    return outcome


def findings(outcome) -> list[FindingRaised]:
    return [e for e in outcome.events if isinstance(e, FindingRaised)]


def won(outcome) -> GameWon:
    (event,) = [e for e in outcome.events if isinstance(e, GameWon)]
    return event


@pytest.mark.parametrize("name", ["complete-3p.jsonl", "tiebreak-2p.jsonl"])
def test_the_legal_examples_raise_no_finding(name):
    assert [(f.line, f.rule, f.message) for f in findings(replay(name))] == []


# The 3-player game, by hand: the Forum (wood, clay, brick, stone, marble) and VP (Ann, Bob, Cy)
# at the end of each turn.
TURNS_3P = {
    1: ((1, 1, 2, 1, 1), (0, 0, 0)),     # Insula (wood) and Taberna (clay) started; a clay card added
    2: ((2, 0, 2, 1, 1), (1, 3, 0)),     # Bob: clay monopoly 2, Taberna +1, bonus clay card; Ann: Insula +1
    3: ((2, 0, 1, 1, 1), (1, 3, 1)),     # Colosseum, Horreum started; Cy: wood monopoly 1
    4: ((2, 0, 0, 2, 1), (5, 3, 1)),     # Ann: Horreum +2, brick monopoly 2, bonus brick card
    5: ((2, 0, 1, 1, 1), (6, 3, 1)),     # Thermae started; Insula effect +1
    6: ((2, 0, 1, 1, 0), (6, 3, 6)),     # Cy: Colosseum +3, marble monopoly 2, bonus marble card
    7: ((2, 0, 1, 1, 1), (6, 7, 6)),     # Bob: Thermae +2, stone monopoly 2
    8: ((2, 1, 1, 1, 0), (6, 8, 6)),     # Pantheon started; Taberna effect +1
    9: ((1, 1, 1, 0, 0), (11, 6, 6)),    # Ann: Aqueduct +2, takes the stone monopoly (3) from Bob (-2)
    10: ((1, 1, 1, 0, 1), (13, 6, 7)),   # Cy: Ludus +1, bonus wood card; Aqueduct effect +2
    11: ((1, 1, 0, 0, 0), (13, 12, 5)),  # Bob: Pantheon +3, takes the marble monopoly (3) from Cy (-2)
    12: ((0, 1, 1, 1, 0), (13, 14, 5)),  # Circus started; Thermae effect +2
    13: ((0, 1, 0, 1, 0), (18, 14, 5)),  # Ann: Forum Boarium +2, brick monopoly 3 (+1), effect +2: threshold
    14: ((1, 1, 0, 1, 0), (15, 18, 5)),  # Bob: Circus +1, Pantheon effect +2, takes stone (1) from Ann (-3)
    15: ((1, 0, 0, 1, 1), (15, 18, 5)),  # Cy's last turn (Last Turn card): Odeon started
}


@pytest.mark.parametrize("turn", sorted(TURNS_3P))
def test_the_forum_and_vp_after_each_turn_of_the_3_player_game(turn):
    state = state_at("uchronia", replay("complete-3p.jsonl").events, turn=turn)
    forum, vp = TURNS_3P[turn]
    assert tuple(state.forum[c] for c in ("wood", "clay", "brick", "stone", "marble")) == forum
    assert tuple(state.score(p) for p in ("Ann", "Bob", "Cy")) == vp


def test_the_3_player_game_ends_after_the_last_turn_and_bob_wins_though_ann_reached_the_threshold():
    outcome = replay("complete-3p.jsonl")
    state = outcome.state.to_json()
    assert state["threshold"] == {"vp": 18, "reached": True, "by": "Ann", "line": 104, "turn": 13, "with_vp": 18}
    assert {p: (v["built"], v["operations_limit"], v["monopolies"]) for p, v in state["players"].items()} == {
        "Ann": (["Insula", "Horreum", "Aqueduct", "Forum Boarium"], 6, {"brick": 3}),
        "Bob": (["Taberna", "Thermae", "Pantheon", "Circus"], 6, {"clay": 2, "stone": 1, "marble": 3}),
        "Cy": (["Colosseum", "Ludus"], 4, {"wood": 1}),
    }
    assert state["players"]["Cy"]["under_construction"] == {"Odeon": 0}
    end = won(outcome)
    assert (end.line, end.winner, end.rule) == (119, "Bob", "UCH-WINNER")
    assert end.reason.startswith("most VP: Bob 18 (then Ann 15, Cy 5); Ann reached the 18 VP threshold at line 104")


def test_the_2_player_game_is_decided_by_buildings_built():
    outcome = replay("tiebreak-2p.jsonl")
    assert {p: outcome.state.score(p) for p in ("Ann", "Bob")} == {"Ann": 6, "Bob": 6}
    end = won(outcome)
    assert (end.line, end.winner) == (36, "Bob")
    assert end.reason.startswith("tie on 6 VP broken by buildings built: Ann 2, Bob 3")


def annotated(path: Path) -> Counter:
    """(line, rule) for every ``# violation RULE: why`` comment, given to the next event line."""
    expected: Counter = Counter()
    pending: list[str] = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = text.strip()
        if stripped.startswith("#"):
            if m := ANNOTATION.match(stripped):
                pending.append(m.group(1))
        elif stripped:
            expected.update((number, rule) for rule in pending)
            pending = []
    assert pending == [], "an annotation follows the last event"
    return expected


def test_the_disputed_example_yields_exactly_the_annotated_violations():
    outcome = replay("disputed.jsonl")
    found = Counter((f.line, f.rule) for f in findings(outcome) if f.severity == "violation")
    assert found == annotated(EXAMPLES / "disputed.jsonl")


def test_the_disputed_example_breaks_every_uchronia_rule():
    rules = {rule for _, rule in annotated(EXAMPLES / "disputed.jsonl")}
    assert rules >= {"UCH-START", "UCH-UNIQUE", "UCH-COST", "UCH-MOVE", "UCH-COMPLETE", "UCH-MONOPOLY-BONUS",
                     "UCH-EFFECT", "UCH-THRESHOLD", "UCH-SCORE", "UCH-WINNER"}


def test_in_the_disputed_example_the_clay_under_arena_never_counts():
    # Line 17 puts clay under Arena (stone, 2), line 39 one stone: Arena is not built, so Ann ends
    # with her +1 effect and 1 wood monopoly Operation (2 VP) and her starting Operations limit of 2
    # (her "casa", started against UCH-UNIQUE at line 11, is applied as recorded).
    ann = replay("disputed.jsonl").state.to_json()["players"]["Ann"]
    assert (ann["vp"], ann["built"], ann["under_construction"], ann["operations_limit"]) == (2, [], {"Arena": 1, "casa": 0}, 2)
