"""A correction is exact: the log with line L voided at C plays as the log in which L was never written.

For generated games of each title (``tests/benchmarks/generate.py``) and the
examples, any event line L and any later position C: inserting a correction of
L at C gives the same final state (every player field, the Forum, the turn, the
winner, whether it ended) as the same log with L and the correction replaced by
``note`` lines. ``audit --without L`` (``domain.replay.without``) answers the
same question and must give the same state; and a stored history of the
corrected log, folded without deciding anything, reaches it too.
"""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.engine import GameState
from domain.games import GAMES
from domain.replay import run, state_at, without
from tests.benchmarks import generate
from tests.conftest import EXAMPLES

EXAMPLE_LOGS = sorted(EXAMPLES.glob("*/*.jsonl"))


def _generated_merchant(events: int) -> list[str]:
    buffer = io.BytesIO()
    generate.write_log(buffer, events, "generated")
    return buffer.getvalue().decode().splitlines()


def _lines(kind: str, size: int) -> list[str]:
    if kind == "merchant":
        return _generated_merchant(size * 8)
    if kind == "uchronia":
        return [json.dumps(line) for line in generate.uchronia_lines(size)]
    if kind == "twilight":
        return [json.dumps(line) for line in generate.twilight_lines(max(1, size // 4))]
    return (EXAMPLES / kind).read_text().splitlines()


SOURCES = ["merchant", "uchronia", "twilight"] + [str(p.relative_to(EXAMPLES)) for p in EXAMPLE_LOGS]


def _event_lines(lines: list[str]) -> list[int]:
    """The 1-based numbers of event lines after the header (no blank lines, comments, or corrections)."""
    out = []
    for number, text in enumerate(lines, start=1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if json.loads(text)["type"] not in ("game", "correction"):
            out.append(number)
    return out


def _note(text: str) -> str:
    return json.dumps({"type": "note", "text": text})


def _log(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def final(state: GameState) -> dict:
    """What a person compares: the game's fields, the turn under way, and the end."""
    return {"game": state.to_json(), "turn": state.turn, "active": state.active,
            "turn_over": None if state.turn_over is None else (state.turn_over.line, state.turn_over.player),
            "ended": None if state.ended is None else (state.ended.line, state.ended.winner, state.ended.rule, state.ended.reason)}


@st.composite
def corrections(draw):
    """A log's lines, an event line L, and a position C after it where a correction of L goes."""
    source = draw(st.sampled_from(SOURCES))
    lines = _lines(source, draw(st.integers(2, 24)))
    target = draw(st.sampled_from(_event_lines(lines)))
    at = draw(st.integers(target + 1, len(lines) + 1))
    return source, lines, target, at


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=corrections())
def test_a_correction_plays_as_if_the_line_had_never_been_written(case):
    source, lines, target, at = case
    corrected = lines[:at - 1] + [json.dumps({"type": "correction", "voids": target, "reason": "x"})] + lines[at - 1:]
    noted = list(corrected)
    noted[target - 1], noted[at - 1] = _note("was L"), _note("was the correction")

    played = run(_log(corrected))
    expected = final(run(_log(noted)).state)
    assert not played.errors
    assert final(played.state) == expected, (source, target, at)

    # Stored, the corrected game replays to the same state without deciding anything again.
    assert final(state_at(played.header.game, played.events)) == expected

    # audit --without L asks the same question of the original log.
    original = run(_log(lines))
    shown = without(original.header.game, original.events, {target})
    assert final(state_at(original.header.game, shown)) == final(run(_log(lines[:target - 1] + [_note("was L")] + lines[target:])).state)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_attribute_of_a_state_is_restated_or_constant(game):
    """A state attribute a correction would not restate must be named constant: none falls between."""
    path = next(p for p in EXAMPLE_LOGS if p.parent.name == game)
    state = run(path.read_bytes()).state
    declared = set(type(state).__annotations__) | {n for c in type(state).__mro__ for n in getattr(c, "__annotations__", {})}
    restated = {n for n in declared if not n.isupper() and n != "HANDLERS"}
    assert set(vars(state)) - restated - type(state).CONSTANT == set()
    # A snapshot holds every restated attribute, and restoring it changes nothing.
    before = final(state)
    state.restore(state.snapshot())
    assert final(state) == before
