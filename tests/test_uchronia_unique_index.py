"""UCH-UNIQUE asks the state which buildings are in use: a count kept by the folds (issue 24, item 2).

The count is dropped when a correction restores a state and counted again when
next asked; it must always be what counting every player's buildings gives,
and the rule must find the same buildings in use as a scan of them all.
"""

from __future__ import annotations

import json

import pytest

from gamelog.domain.games import GAMES
from gamelog.domain.replay import run
from tests.benchmarks import generate
from tests.conftest import EXAMPLES


def _counted(state) -> dict[str, int]:
    counts: dict[str, int] = {}
    for p in state.by_player.values():
        for name in [b.name for b in p.built] + list(p.under_construction):
            counts[name.casefold()] = counts.get(name.casefold(), 0) + 1
    return counts


def _log(lines: list) -> bytes:
    return ("\n".join(json.dumps(line) if isinstance(line, dict) else line for line in lines) + "\n").encode()


def _with_corrections() -> list:
    lines = generate.uchronia_lines(12)
    moved = [n for n, line in enumerate(lines, 1) if line["type"] == "resource_moved"]
    started = [n for n, line in enumerate(lines, 1) if line["type"] == "construction_started"]
    # A completion taken back, then a start taken back: the count is dropped, then counted and kept again.
    lines.append({"type": "correction", "voids": moved[-2], "reason": "not placed"})
    lines.append({"type": "correction", "voids": started[-1], "reason": "not begun"})
    lines += [{"type": "turn_started", "player": "Ann"},
              {"type": "construction_started", "player": "Ann", "building": "house 0", "color": "wood"},
              {"type": "turn_ended", "player": "Ann"}]
    return lines


LOGS = {p.name: p.read_bytes() for p in sorted((EXAMPLES / "uchronia").glob("*.jsonl"))}
LOGS["generated, corrected"] = _log(_with_corrections())


@pytest.mark.parametrize("name", sorted(LOGS))
def test_the_count_the_folds_keep_is_the_count_of_every_building_after_each_event(name):
    events = run(LOGS[name]).events
    engine = GAMES["uchronia"].engine.from_history(events[:1], history=False)
    state, restored = engine.state, 0
    state._names_in_use()  # counted from the start: every fold keeps it from then on
    for event in events[1:]:
        engine.apply(event)
        if state._in_use is None:  # a restore drops it: counted again when next asked
            restored += 1
            state._names_in_use()
        assert state._in_use == _counted(state), event
    if name == "generated, corrected":
        assert restored == 2  # the two corrections restored a state each


def test_a_name_in_use_in_another_case_is_found_after_corrections():
    decided = run(LOGS["generated, corrected"])
    assert not decided.errors
    unique = [e for e in decided.events if getattr(e, "rule", None) == "UCH-UNIQUE"]
    # "house 0" is "House 0": Ann starts it on line 4 and completes it with the resource moved on line 11
    # (header 1; Ann's turn 2-5, Bob's 6-9, Ann's again from 10).
    assert [(e.line, e.message) for e in unique] == [
        (len(_with_corrections()) - 1, "starts house 0, which Ann has built (line 11)")]
