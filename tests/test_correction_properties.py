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
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.domain import history
from gamelog.domain.engine import GameState
from gamelog.domain.games import GAMES
from gamelog.domain.replay import run, state_at, without
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
    shown = state.to_json()
    del shown["voided_lines"]  # the one difference: which lines the log voids, and which it never had
    return {"game": shown, "turn": state.turn, "active": state.active,
            "turn_over": None if state.turn_over is None else (state.turn_over.line, state.turn_over.player),
            "ended": None if state.ended is None else (state.ended.line, state.ended.winner, state.ended.rule, state.ended.reason)}


@contextmanager
def checkpoints(every: int, kept: int):
    """Checkpoints this often, this many kept: small, so that short logs decide again from one."""
    saved = history.CHECKPOINT_EVERY, history.CHECKPOINTS_KEPT
    history.CHECKPOINT_EVERY, history.CHECKPOINTS_KEPT = every, kept
    try:
        yield
    finally:
        history.CHECKPOINT_EVERY, history.CHECKPOINTS_KEPT = saved


@st.composite
def corrections(draw):
    """A log's lines, an event line L, a position C after it where a correction of L goes, and checkpoint spacing.

    Sometimes a second correction, of another line, goes before C: corrections
    on corrections must stay exact too.
    """
    source = draw(st.sampled_from(SOURCES))
    lines = _lines(source, draw(st.integers(2, 24)))
    targets = _event_lines(lines)
    target = draw(st.sampled_from(targets))
    earlier = draw(st.none() | st.sampled_from(targets))
    if earlier is not None and earlier != target:
        at = draw(st.integers(earlier + 1, len(lines) + 1))
        lines = lines[:at - 1] + [json.dumps({"type": "correction", "voids": earlier, "reason": "first"})] + lines[at - 1:]
        target += target >= at
    at = draw(st.integers(target + 1, len(lines) + 1))
    return source, lines, target, at, draw(st.integers(1, 40)), draw(st.integers(2, 8))


def _as_notes(lines: list[str]) -> list[str]:
    """The log with every voided line and every correction turned into a note."""
    out = list(lines)
    for number, text in enumerate(lines, start=1):
        if text.strip() and not text.lstrip().startswith("#") and json.loads(text)["type"] == "correction":
            voided = json.loads(text)["voids"]
            out[voided - 1], out[number - 1] = _note("was voided"), _note("was a correction")
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=corrections())
def test_a_correction_plays_as_if_the_line_had_never_been_written(case):
    source, lines, target, at, every, kept = case
    corrected = lines[:at - 1] + [json.dumps({"type": "correction", "voids": target, "reason": "x"})] + lines[at - 1:]
    noted = _as_notes(corrected)

    with checkpoints(every, kept):
        played = run(_log(corrected))
    expected = final(run(_log(noted)).state)
    assert not played.errors
    assert final(played.state) == expected, (source, target, at)
    _counted_as_kept(played.state)

    # Stored, the corrected game replays to the same state without deciding anything again.
    assert final(state_at(played.header.game, played.events)) == expected

    # audit --without L asks the same question of the original log.
    original = run(_log(lines))
    shown = without(original.header.game, original.events, {target})
    what_if = final(state_at(original.header.game, shown))
    noted_once = final(run(_log(_as_notes(lines[:target - 1] + [_note("was L")] + lines[target:]))).state)
    del what_if["game"]["line"], noted_once["game"]["line"]  # left out, the last line may be the one the what-if lacks
    assert what_if == noted_once


def _counted_as_kept(state: GameState) -> None:
    """Uchronia's count of the buildings in use (UCH-UNIQUE), kept by the folds, is what counting them again gives."""
    kept = getattr(state, "_in_use", None)
    if kept is not None:
        state._in_use = None
        assert state._names_in_use() == kept


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


def test_a_snapshot_stored_before_attributes_were_added_still_restores():
    """A store written before TI4's ``turn_of_round`` (and a player's ``vp_by_source``) existed holds
    snapshots without them: they restore, the added attributes at the value ``ADDED`` gives."""
    import msgspec

    state = run((EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl").read_bytes()).state
    assert list(type(state).ADDED) == ["turn_of_round"]
    fields = msgspec.msgpack.decode(state.snapshot())
    older = fields[:-len(type(state).ADDED)]
    by_player = next(f for f in older if isinstance(f, dict) and set(f) == set(state.players))
    for fields_of in by_player.values():
        fields_of.pop("vp_by_source"), fields_of.pop("color")
    state.turn_of_round = 5
    state.restore(msgspec.msgpack.encode(older))
    assert state.turn_of_round == 0
    assert state.by_player["Ann"].vp_by_source == {"stage I": 0, "stage II": 0, "secrets": 0, "other": 0}
