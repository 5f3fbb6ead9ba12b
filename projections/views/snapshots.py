"""Replay snapshots kept in the views: a game's state every so many events, which a replay resumes from.

``replay --line/--turn/--round`` of a stored game folds its history up to the point (``domain.replay.state_at``);
at a million lines a middle turn folds half a million events. The views fold every stored event already, so
beside them the folder (``projections.views.folder``) folds each game's domain state too (:class:`Replaying`) and
writes it (``GameState.replay_snapshot``) into ``view_snapshots`` at a line's end, once at least :data:`EVERY`
events have passed since the last: a replay restores the last snapshot before its point and folds at most about
:data:`EVERY` events and the rest of a line past it (:func:`nearest_snapshot`).

A snapshot is derived data like every view row: ``verify`` compares it with what the events give, a rebuild
writes it again, :data:`~projections.views.derivation.DERIVATION` covers what it holds (the digest test folds
every example's state after every line). A replay uses one only from views of this derivation, of a version the
game has, and folds from the header when there is none or it cannot be read: the answer is the same.
"""

from __future__ import annotations

import base64
from typing import Any

import msgspec

from gamelog.domain.engine import GameState
from gamelog.domain.events import TurnBegan, TurnFinished
from gamelog.domain.games import GAMES
from gamelog.domain.replay import snapshot_serves
from gamelog.projections.views.derivation import DERIVATION
from gamelog.projections.views.rows import SnapshotRow

EVERY = 256
"""Events between two snapshots (at least; a snapshot waits for the end of a line). A replay to a point then
folds about EVERY / 2 events and the rest of a turn, up to EVERY and more: about 1 ms to a middle turn of a
generated 1,000-line game (2.8 ms from the header) and of a 1,000,000-line one (6.5 s). Every event is folded
into its game's state beside the views whatever EVERY is (a few percent of an import); the snapshots themselves
(an encoding of the state, a row of a few hundred bytes to a few KB) cost little: 0.5% of the store at 256."""

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS view_snapshots (game TEXT, version INTEGER, line INTEGER, turn INTEGER, "
    "round INTEGER, state BYTEA, PRIMARY KEY (game, version))",
    # A replay looks for the last snapshot before a line, a turn or a round: each grows with the version.
    "CREATE INDEX IF NOT EXISTS snapshots_by_line ON view_snapshots (game, line, version)",
    "CREATE INDEX IF NOT EXISTS snapshots_by_turn ON view_snapshots (game, turn, version)",
    "CREATE INDEX IF NOT EXISTS snapshots_by_round ON view_snapshots (game, round, version)",
)
"""``BYTEA``: PostgreSQL's bytes; SQLite takes the name and keeps bytes as they are."""

_ENCODER = msgspec.msgpack.Encoder()


class Replaying:
    """One game's domain state folded beside its views, and what says where the next snapshot goes.

    ``version`` counts the game's events folded (the stored version of the last); ``line``, ``turn`` and
    ``round`` are the highest each event up to it reached (:func:`domain.replay.snapshot_serves`).
    """

    __slots__ = ("game", "first", "state", "handlers", "line_recorded", "round_of", "version", "since", "line",
                 "turn", "round")

    def __init__(self, game: str, first: Any, state: GameState, version: int, since: int, line: int, turn: int,
                 round: int | None):
        rules = GAMES[game]
        self.game = game
        self.first = first  # the header's stored event, which a resumed state is built from
        self.state = state
        self.handlers = state.HANDLERS
        self.line_recorded = rules.engine.LINE_RECORDED
        self.round_of = rules.round_of
        self.version, self.since = version, since
        self.line, self.turn, self.round = line, turn, round

    @classmethod
    def begin(cls, game: str, header_event: Any) -> "Replaying":
        """The tracking of a game from its header's stored event (version 1)."""
        rules = GAMES[game]
        state = rules.engine.from_history([header_event], history=False).state
        return cls(game, header_event, state, 1, 1, header_event.line, 0, 0 if rules.round_of is not None else None)

    def fold(self, game_id: str, event: Any) -> SnapshotRow | None:
        """Fold the game's next stored event; the snapshot row to write before it (the state after the line
        before, when it begins a line and enough events have passed), else None. Raises what a fold raises
        (TypeError for an event class no fold is registered for)."""
        row = None
        cls = type(event)
        if cls is self.line_recorded:
            if self.since >= EVERY:
                row = SnapshotRow(game_id, self.version, self.line, self.turn, self.round,
                                  self.state.replay_snapshot())
                self.since = 0
            if self.round_of is not None:
                begins = self.round_of(event.event)
                if begins is not None and begins > self.round:
                    self.round = begins
        elif cls is TurnBegan or cls is TurnFinished:
            if event.turn > self.turn:
                self.turn = event.turn
        if event.line > self.line:
            self.line = event.line
        handler = self.handlers.get(cls)
        if handler is None:
            self.state.apply(event)  # raises the TypeError of an event class no fold is registered for
        else:
            handler(self.state, event)
        self.version += 1
        self.since += 1
        return row

    def saved(self) -> dict[str, Any]:
        """The tracking as the game's running context keeps it (JSON): a later folder resumes it (:meth:`resume`)."""
        return {"version": self.version, "since": self.since, "line": self.line, "turn": self.turn,
                "round": self.round, "first": _text(_ENCODER.encode(self.first)),
                "state": _text(self.state.replay_snapshot())}

    @classmethod
    def resume(cls, game: str, saved: dict[str, Any]) -> "Replaying":
        """The tracking :meth:`saved` kept; raises KeyError, TypeError or ValueError for one it did not write."""
        rules = GAMES[game]
        try:
            first = msgspec.msgpack.decode(base64.b64decode(saved["first"]), type=rules.engine.LINE_RECORDED)
        except msgspec.DecodeError as exc:
            raise ValueError(f"the header kept for the replay snapshots cannot be read: {exc}") from exc
        state = rules.engine.STATE.resumed(first.event, first.line, base64.b64decode(saved["state"]))
        return cls(game, first, state, int(saved["version"]), int(saved["since"]), int(saved["line"]),
                   int(saved["turn"]), None if saved["round"] is None else int(saved["round"]))


def _text(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def nearest_snapshot(cursor: Any, game_id: str, versions: int, *, line: int | None = None, turn: int | None = None,
                     round: int | None = None) -> tuple[int, bytes, int | None] | None:
    """(version, state, the version of the next snapshot past the point or None) of the last snapshot of
    ``game_id`` a replay to that point (the end when none is given) may resume from, on ``cursor`` (the views'),
    or None: views of another derivation (or none), no snapshot before the point, or one of a version past the
    game's ``versions`` stored events. The next snapshot's version says how far the replay reads (a hint).

    Raises what the cursor raises (a store without the table: the caller folds from the header); TypeError or
    ValueError for a row gamelog did not write.
    """
    cursor.execute("SELECT derivation FROM view_derivation")
    found = cursor.fetchone()
    if found is None or int(found[0]) != DERIVATION:
        return None
    if line is not None:
        where, order, params, past = "line <= ?", "line DESC, version DESC", (line,), "line > ?"
    elif turn is not None:
        where, order, params, past = "turn < ?", "turn DESC, version DESC", (turn,), "turn > ?"
    elif round is not None:
        where, order, params, past = "round <= ?", "round DESC, version DESC", (round,), "round > ?"
    else:
        where, order, params, past = "version < ?", "version DESC", (versions,), None
    cursor.execute(f"SELECT version, line, turn, round, state FROM view_snapshots WHERE game = ? AND {where} "
                   f"ORDER BY {order} LIMIT 1", (game_id, *params))
    row = cursor.fetchone()
    if row is None:
        return None
    version, most_line, most_turn, most_round, state = row
    if not 1 <= version < versions or not snapshot_serves((most_line, most_turn, most_round), line=line, turn=turn,
                                                          round=round):
        return None
    following = None
    if past is not None:  # the first snapshot past the point (by the index on the same column)
        order = order.split()[0]
        cursor.execute(f"SELECT version FROM view_snapshots WHERE game = ? AND {past} ORDER BY {order}, version "
                       "LIMIT 1", (game_id, *params))
        row = cursor.fetchone()
        following = None if row is None else int(row[0])
    return int(version), bytes(state), following
