"""Replay snapshots (``projections.views.snapshots``): a stored game's replay resumed from the views' last snapshot
before its point answers what folding its history from the header answers, on each backend; a snapshot deleted,
unreadable or of other views is not used, and one altered is damage ``verify`` names.
"""

from __future__ import annotations

import io

import msgspec
import pytest
from click.testing import CliRunner

from gamelog.cli.main import main
from gamelog.domain.games import GAMES
from gamelog.domain.replay import run
from gamelog.errors import PointNotInGame
from gamelog.replaying import replay
from gamelog.sources import StoredGame
from gamelog.projections.views import snapshots
from tests.benchmarks import generate
from tests.conftest import EXAMPLES
from tests.test_tamper import Raw

EXAMPLE_LOGS = sorted(EXAMPLES.glob("*/*.jsonl"))


def gamelog(*args: str):
    return CliRunner().invoke(main, list(args))


class Resumes:
    """Counts the replays that resumed from a snapshot (``StoredGame.resumed`` found one)."""

    def __init__(self, monkeypatch):
        self.count = 0
        found = StoredGame.resumed

        def counted(source, **point):
            start = found(source, **point)
            self.count += start is not None
            return start

        monkeypatch.setattr(StoredGame, "resumed", counted)


def answer(game_id: str, location: str, **point) -> object:
    """What ``replay`` answers at a point: the document as JSON values, or the error's message."""
    try:
        return msgspec.to_builtins(replay(game_id, location, **point))
    except PointNotInGame as exc:
        return str(exc)


def from_the_header(monkeypatch, game_id: str, location: str, **point) -> object:
    """:func:`answer`, the history folded from the header (no snapshot looked for)."""
    with monkeypatch.context() as m:
        m.setattr(StoredGame, "resumed", lambda source, **_: None)
        return answer(game_id, location, **point)


def points(events: list, lines_every: int, turns_every: int = 1) -> list[dict]:
    """Every ``turns_every``-th turn (and one past the end), every round of a game played in rounds (and one
    past), and every ``lines_every``-th line (and one past the end)."""
    header = events[0].event
    state = run_state(events)
    last = max(e.line for e in events)
    found = [{"turn": t} for t in range(1, state.turn + 2, turns_every)] + [{"turn": state.turn + 1}]
    found += [{"line": n} for n in range(events[0].line, last + 2, lines_every)] + [{"line": last}]
    if GAMES[header.game].round_of is not None:
        found += [{"round": r} for r in range(0, (state.round_number() or 0) + 2)]
    return found + [{}]


def run_state(events: list):
    state = GAMES[events[0].event.game].engine.from_history(events[:1], history=False).state
    for event in events[1:]:
        state.apply(event)
    return state


# --- domain: a state resumed from its replay snapshot folds on as the state folded from the header ------------

@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_state_resumed_after_any_line_folds_on_to_the_state_folded_from_the_header(path):
    events = run(path.read_bytes()).events
    whole = run_state(events)
    state_cls = GAMES[events[0].event.game].engine.STATE
    checked = 0
    for i in range(1, len(events)):
        if events[i].line == events[i - 1].line:
            continue  # a snapshot is taken at a line's end
        resumed = state_cls.resumed(events[0].event, events[0].line, run_state(events[:i]).replay_snapshot())
        for event in events[i:]:
            resumed.apply(event)
        assert resumed.document() == whole.document()
        assert resumed.replay_snapshot() == whole.replay_snapshot()
        checked += 1
    assert checked > 20


def test_a_resumed_state_knows_no_event_line_before_its_snapshot_and_bad_bytes_are_a_value_error():
    events = run((EXAMPLES / "uchronia" / "complete-3p.jsonl").read_bytes()).events
    state = run_state(events[:40])
    resumed = type(state).resumed(events[0].event, events[0].line, state.replay_snapshot())
    with pytest.raises(ValueError, match=f"resumed after line {state.line}"):
        resumed.is_event_line(state.line)
    with pytest.raises(ValueError, match="not a replay snapshot"):
        type(state).resumed(events[0].event, events[0].line, b"\x93\x01\x02")


# --- the store: a replay from a snapshot answers what the replay from the header answers ----------------------

@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_stored_example_replays_the_same_from_its_snapshots(locations, monkeypatch, path):
    monkeypatch.setattr(snapshots, "EVERY", 8)
    location = locations.new()
    assert gamelog("import", "--store", location, str(path)).exit_code == 0
    events = run(path.read_bytes()).events
    game_id = events[0].event.id
    resumes = Resumes(monkeypatch)
    for point in points(events, 1 if locations.backend == "sqlite" else 5):
        assert answer(game_id, location, **point) == from_the_header(monkeypatch, game_id, location, **point), point
    assert resumes.count > len(points(events, 50)) // 2


def long_logs() -> list[bytes]:
    merchant = io.BytesIO()
    generate.write_log(merchant, 2000, "merchant-generated")
    return [merchant.getvalue(), generate.log_bytes(generate.uchronia_lines(60)),
            generate.log_bytes(generate.twilight_lines(8))]


def test_a_long_stored_game_replays_the_same_from_its_snapshots(locations, monkeypatch, tmp_path):
    """Snapshots every 256 events (the default), a log imported in three parts (the views folded in each import)."""
    location = locations.new()
    resumes = Resumes(monkeypatch)
    for n, log in enumerate(long_logs()):
        lines = log.splitlines(keepends=True)
        for cut in (len(lines) // 3, 2 * len(lines) // 3, len(lines)):
            path = tmp_path / f"log{n}.jsonl"
            path.write_bytes(b"".join(lines[:cut]))
            assert gamelog("import", "--store", location, str(path)).exit_code == 0
        events = run(log).events
        game_id = events[0].event.id
        for point in points(events, *((17, 3) if locations.backend == "sqlite" else (97, 11))):
            assert answer(game_id, location, **point) == from_the_header(monkeypatch, game_id, location, **point), \
                (game_id, point)
    assert resumes.count > 60
    # Catching the views up again, or rebuilding them, writes the same snapshots.
    assert gamelog("verify", "merchant-generated", "--store", location).exit_code == 0


def with_corrections(log: bytes, every: int) -> bytes:
    """``log`` with a correction every ``every`` lines: voiding the last ``turn_started`` line (which takes the
    game back a turn: a later snapshot's turn is below an earlier one's), or a line far back (the game decided
    again from there: a ``StateRestated``)."""
    out: list[bytes] = []
    for n, line in enumerate(log.splitlines(keepends=True)):
        out.append(line)
        if n and n % every == 0:
            if (n // every) % 2:
                target = max(i for i, kept in enumerate(out) if b'"turn_started"' in kept) + 1
            else:
                target = len(out) - every // 2
            out.append(msgspec.json.encode({"type": "correction", "voids": target, "reason": "x"}) + b"\n")
    return b"".join(out)


@pytest.mark.parametrize("every", [8, 256])
def test_a_game_with_corrections_replays_the_same_from_its_snapshots(locations, monkeypatch, tmp_path, every):
    monkeypatch.setattr(snapshots, "EVERY", every)
    merchant = io.BytesIO()
    generate.write_log(merchant, 1200, "merchant-corrected")
    logs = [with_corrections(merchant.getvalue(), 97),
            with_corrections((EXAMPLES / "uchronia" / "complete-3p.jsonl").read_bytes(), 23)]
    location = locations.new()
    resumes = Resumes(monkeypatch)
    for n, log in enumerate(logs):
        path = tmp_path / f"log{n}.jsonl"
        path.write_bytes(log)
        assert gamelog("import", "--store", location, str(path)).exit_code == 0
        events = run(log).events
        assert any(type(e).__name__ == "StateRestated" for e in events)
        game_id = events[0].event.id
        sampled = (3, 1) if every == 8 else (11, 3)
        for point in points(events, *(sampled if locations.backend == "sqlite" else (29, 7))):
            assert answer(game_id, location, **point) == from_the_header(monkeypatch, game_id, location, **point), \
                (game_id, point)
    assert resumes.count > 20


def test_a_replay_as_a_player_from_a_snapshot_hides_what_the_replay_from_the_header_hides(locations, monkeypatch):
    monkeypatch.setattr(snapshots, "EVERY", 8)
    location = locations.new()
    path = EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl"
    assert gamelog("import", "--store", location, str(path)).exit_code == 0
    resumes = Resumes(monkeypatch)
    for turn in (5, 20, 40):
        point = {"turn": turn, "as_player": "Ann"}
        assert answer("ti4-complete-4p", location, **point) == from_the_header(monkeypatch, "ti4-complete-4p",
                                                                               location, **point)
    assert resumes.count == 3


# --- damage: a snapshot not used, or named by verify ------------------------------------------------------------

@pytest.fixture
def stored(locations, monkeypatch):
    monkeypatch.setattr(snapshots, "EVERY", 8)
    location = locations.new()
    assert gamelog("import", "--store", location,
                   str(EXAMPLES / "twilight-imperium-4" / "complete-4p.jsonl")).exit_code == 0
    expected = {turn: from_the_header(monkeypatch, "ti4-complete-4p", location, turn=turn) for turn in (3, 24, 47)}
    return location, Raw(location), expected


def test_a_deleted_or_unreadable_snapshot_is_not_used(stored, monkeypatch):
    location, raw, expected = stored
    table = raw.name("view_snapshots")
    raw.run(f"UPDATE {table} SET state = ? WHERE version > 200", b"\x93garbage")
    raw.run(f"DELETE FROM {table} WHERE version <= 200 AND version > 40")
    resumes = Resumes(monkeypatch)
    for turn, document in expected.items():
        assert answer("ti4-complete-4p", location, turn=turn) == document
    assert resumes.count == 1  # turn 3's snapshot, below the damage
    said = gamelog("verify", "ti4-complete-4p", "--store", location)
    assert said.exit_code == 3
    assert "view_snapshots: row version=" in said.output and "is missing" in said.output, said.output


def test_snapshots_of_views_of_another_derivation_are_not_used(stored, monkeypatch):
    location, raw, expected = stored
    raw.run(f"UPDATE {raw.name('view_derivation')} SET derivation = 3")
    resumes = Resumes(monkeypatch)
    assert answer("ti4-complete-4p", location, turn=24) == expected[24]
    assert resumes.count == 0


def test_an_altered_snapshot_is_damage_verify_names(stored):
    location, raw, _ = stored
    table = raw.name("view_snapshots")
    (state,) = raw.run(f"SELECT state FROM {table} WHERE version = (SELECT MIN(version) FROM {table})")[0]
    raw.run(f"UPDATE {table} SET state = ? WHERE version = (SELECT MAX(version) FROM {table})", bytes(state))
    said = gamelog("verify", "ti4-complete-4p", "--store", location)
    assert said.exit_code == 3
    assert "view_snapshots: row version=" in said.output and "state is b'" in said.output, said.output
    assert gamelog("projections", "rebuild", "--store", location).exit_code == 0
    assert gamelog("verify", "ti4-complete-4p", "--store", location).exit_code == 0
