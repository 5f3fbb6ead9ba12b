"""The views: tables folded from stored events, read by reports and audits.

* ``view_lines``: every recorded line with its turn, round, player and what it
  did in words (its game's ``phrases``), and whether a correction voided it;
* ``view_turns``: each turn's player and its first and last line;
* ``view_tracks``: every change of a running total (a game's measures: a
  player's score and what makes it, the counts of a shared board) with the
  line that caused it and the total after it;
* ``view_findings``: every rule finding, with its line, turn and round;
* ``view_results``: how each finished game ended;
* ``view_corrections``: each correction, the line it voided and why.

:class:`ViewFolder` folds events into these tables through a DB-API cursor
(SQLite's ``?`` placeholders; ``keeper.PortableCursor`` adapts them to
PostgreSQL). The same folder runs over a store's
notification log (``projections.views.keeper``) and, for a log file, over the events
decided in memory, into an in-memory SQLite database: one code path for both.
Its running context per game (turn, round, totals) is kept in
``view_context`` so that folding resumes exactly where it stopped.

The folder knows no game: what a game's events mean here (their words, the
measures they move, the rounds they begin, the goal) comes from the game's
:class:`~domain.games.GameRules` in the registry.
"""

from __future__ import annotations

import json
from typing import Any

from domain.events import FindingRaised, GameWon, LineVoided, TurnBegan, TurnFinished
from domain.games import GAMES, GameRules
from domain.phrases import tell

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS view_lines (game TEXT, line INTEGER, turn INTEGER, round INTEGER, player TEXT, "
    "type TEXT, text TEXT, voided INTEGER DEFAULT 0, PRIMARY KEY (game, line))",
    "CREATE TABLE IF NOT EXISTS view_turns (game TEXT, turn INTEGER, round INTEGER, player TEXT, first_line INTEGER, "
    "last_line INTEGER, PRIMARY KEY (game, turn))",
    "CREATE TABLE IF NOT EXISTS view_tracks (game TEXT, seq INTEGER, line INTEGER, turn INTEGER, round INTEGER, "
    "subject TEXT, measure TEXT, delta INTEGER, value INTEGER, rule TEXT, reason TEXT, PRIMARY KEY (game, seq))",
    "CREATE TABLE IF NOT EXISTS view_findings (game TEXT, seq INTEGER, line INTEGER, turn INTEGER, round INTEGER, "
    "rule TEXT, severity TEXT, player TEXT, message TEXT, PRIMARY KEY (game, seq))",
    "CREATE TABLE IF NOT EXISTS view_results (game TEXT PRIMARY KEY, line INTEGER, winner TEXT, rule TEXT, reason TEXT)",
    "CREATE TABLE IF NOT EXISTS view_corrections (game TEXT, line INTEGER, voided INTEGER, reason TEXT, PRIMARY KEY (game, line))",
    "CREATE TABLE IF NOT EXISTS view_context (originator_id TEXT PRIMARY KEY, game TEXT, context TEXT)",
)
TABLES = ("view_lines", "view_turns", "view_tracks", "view_findings", "view_results", "view_corrections", "view_context")


class ViewFolder:
    """Folds stored events into the view tables through ``cursor``.

    Call :meth:`fold` with each event in store order, tagged with its
    aggregate's ID, then :meth:`flush` once per transaction: new rows are
    written a table at a time (``executemany``), then the running contexts
    of the games folded.
    """

    def __init__(self, cursor: Any):
        self.cursor = cursor
        self.contexts: dict[str, dict[str, Any]] = {}
        self.dirty: set[str] = set()
        self.rows: dict[str, list[tuple]] = {}
        self._turns: dict[tuple[str, int], int] = {}  # (game, turn) -> its row in rows["view_turns"]
        # The rules of each game folded, and the steps of all their measures in one map:
        # event classes are each game's own, so one lookup per event serves every game.
        self._games: dict[str, GameRules] = {}
        self._steps: dict[type, Any] = {}
        cursor.execute("SELECT originator_id, context FROM view_context")
        for originator_id, context in cursor.fetchall():
            self.contexts[originator_id] = context = json.loads(context)
            if context["game"] in GAMES:
                self._learn(context["game"])

    def _learn(self, game: str) -> GameRules:
        """The rules of ``game`` (from the registry: ``KeyError`` for a game it does not hold), remembered."""
        rules = self._games.get(game)
        if rules is None:
            rules = self._games[game] = GAMES[game]
            self._steps.update(rules.measures.steps)
        return rules

    def fold(self, originator_id: str, event: Any) -> None:
        context = self.contexts.get(originator_id)
        if context is None:  # the header's line, first of every game
            header = event.event
            context = {"id": header.id, "game": header.game, "players": list(header.players),
                       "goal": self._learn(header.game).goal(header), "turn": 0, "round": None, "seq": 0, "values": {}}
            self.contexts[originator_id] = context
            self.dirty.add(originator_id)
            return
        self.dirty.add(originator_id)
        step = self._steps.get(type(event))
        if step is not None:
            self._track(context, event.line, step(event))
        elif hasattr(event, "event"):
            self._line(context, event.line, event.event)
        elif isinstance(event, FindingRaised):
            self._numbered(context, "view_findings", event.line, event.rule, event.severity, event.player, event.message)
        elif isinstance(event, TurnBegan):
            context["turn"] = event.turn
            self._turns[(context["id"], event.turn)] = len(self.rows.setdefault("view_turns", []))
            self._add("view_turns", context["id"], event.turn, context["round"], event.player, event.line, event.line)
        elif isinstance(event, TurnFinished) and (context["id"], event.turn) in self._turns:
            # The turn's row is not written yet (the usual case): finish it in place.
            rows, at = self.rows["view_turns"], self._turns.pop((context["id"], event.turn))
            rows[at] = rows[at][:5] + (event.line,)
        else:
            self._rare(context, event)

    def _rare(self, context: dict[str, Any], event: Any) -> None:
        """The events that change rows already written: the new rows go first."""
        if not isinstance(event, (TurnFinished, LineVoided, GameWon)):
            return
        self._write_rows()
        if isinstance(event, TurnFinished):
            self.cursor.execute("UPDATE view_turns SET last_line = ? WHERE game = ? AND turn = ?",
                                (event.line, context["id"], event.turn))
        elif isinstance(event, LineVoided):
            self.cursor.execute("UPDATE view_lines SET voided = 1 WHERE game = ? AND line = ?", (context["id"], event.voided))
            self._add("view_corrections", context["id"], event.line, event.voided, event.reason)
        else:
            self.cursor.execute("INSERT INTO view_results VALUES (?, ?, ?, ?, ?) ON CONFLICT (game) DO UPDATE SET "
                                "line = excluded.line, winner = excluded.winner, rule = excluded.rule, reason = excluded.reason",
                                (context["id"], event.line, event.winner, event.rule, event.reason))

    def _line(self, context: dict[str, Any], line: int, recorded: Any) -> None:
        rules = self._games.get(context["game"]) or self._learn(context["game"])
        kind, player, text = tell(recorded, rules.words)  # GameRules.phrase, one call fewer per line
        if rules.round_of is not None:
            begins = rules.round_of(recorded)
            if begins is not None:
                context["round"] = begins
        # A turn_started line opens the turn its TurnBegan (stored just after it) numbers.
        turn = context["turn"] + 1 if kind == "turn_started" else context["turn"]
        self._add("view_lines", context["id"], line, turn, context["round"], player, kind, text, 0)

    def _track(self, context: dict[str, Any], line: int, step: Any) -> None:
        key = f"{step.subject}\x1f{step.measure}"
        value = context["values"].get(key, 0) + step.delta
        context["values"][key] = value
        self._numbered(context, "view_tracks", line, step.subject, step.measure, step.delta, value, step.rule, step.reason)

    def _numbered(self, context: dict[str, Any], table: str, line: int, *values: Any) -> None:
        """A row numbered in its game (``seq``), with the line's turn and round."""
        context["seq"] += 1
        self._add(table, context["id"], context["seq"], line, context["turn"], context["round"], *values)

    def _add(self, table: str, *row: Any) -> None:
        self.rows.setdefault(table, []).append(row)

    def _write_rows(self) -> None:
        for table, rows in self.rows.items():
            if rows:
                self.cursor.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
        self.rows, self._turns = {}, {}

    def flush(self) -> None:
        """Write the new rows, then the running context of every game folded since the last flush."""
        self._write_rows()
        for originator_id in sorted(self.dirty):
            context = self.contexts[originator_id]
            self.cursor.execute("INSERT INTO view_context VALUES (?, ?, ?) ON CONFLICT (originator_id) DO UPDATE SET "
                                "game = excluded.game, context = excluded.context",
                                (originator_id, context["id"], json.dumps(context, sort_keys=True)))
        self.dirty.clear()
