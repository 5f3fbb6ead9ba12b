"""The views: tables folded from stored events, read by reports and audits.

* ``view_lines``: every recorded line with its turn, round, player and what it
  did in words (its game's ``phrases``), and whether a correction voided it;
* ``view_turns``: each turn's player and its first and last line;
* ``view_tracks``: every change of a running total (a game's measures: a
  player's score and what makes it, the counts of a shared board) with the
  line that caused it and the total after it;
* ``view_findings``: every rule finding, with its line, turn and round;
* ``view_results``: how each finished game ended;
* ``view_corrections``: each correction, the line it voided and why;
* ``view_moot``: each finding a correction made moot (``about`` its line), and the correction's line;
* ``view_snapshots``: each game's state every so many events, which a replay resumes from
  (``projections.views.snapshots``);
* ``view_stat_games``, ``view_stat_seats``, ``view_stat_periods``, ``view_stat_facts`` and
  ``view_stat_tallies``: what ``gamelog stats`` adds up across games (each game's kind, players, date and
  expansions; each player's side and final score; each player's score after each round, or turn; each fact
  the game's ``statistics`` count, with its line; those facts added up per game) and ``view_stat_sums`` (all of it
  summed across games by what the filters choose: ``projections.views.sums``).

:class:`ViewFolder` folds events into these tables through a DB-API cursor
(SQLite's ``?`` placeholders; the store backend's ``PortableCursor`` adapts them to
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
from typing import Any, Callable

from gamelog.domain.events import FindingMooted, FindingRaised, GameWon, LineVoided, StateRestated, TurnBegan, TurnFinished
from gamelog.domain.dispatch import Dispatching, handles
from gamelog.domain.games import GAMES, GameRules
from gamelog.domain.phrases import tell
from gamelog.domain.statistics import Fact
from gamelog.projections.views import derivation
from gamelog.projections.views import snapshots as replay_snapshots
from gamelog.projections.views.sums import PARTS, SUMS, settle
from gamelog.projections.views.rows import (TABLE, CorrectionRow, FindingRow, LineRow, MootRow, ResultRow,
                                            StatFactRow, StatGameRow, StatPeriodRow, StatSeatRow, StatTallyRow,
                                            ChangeRow, TurnRow)

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
    "CREATE TABLE IF NOT EXISTS view_moot (game TEXT, line INTEGER, about INTEGER, rule TEXT, severity TEXT, "
    "player TEXT, message TEXT)",
    "CREATE TABLE IF NOT EXISTS view_stat_games (game TEXT PRIMARY KEY, kind TEXT, players INTEGER, goal INTEGER, "
    "at TEXT, expansions TEXT, contrib TEXT)",
    SUMS,
    PARTS,
    "CREATE TABLE IF NOT EXISTS view_stat_seats (game TEXT, player TEXT, seat INTEGER, side TEXT, score INTEGER, "
    "line INTEGER, PRIMARY KEY (game, player))",
    "CREATE TABLE IF NOT EXISTS view_stat_periods (game TEXT, period INTEGER, player TEXT, value INTEGER, "
    "line INTEGER, PRIMARY KEY (game, period, player))",
    "CREATE TABLE IF NOT EXISTS view_stat_facts (game TEXT, seq INTEGER, line INTEGER, period INTEGER, player TEXT, "
    "fact TEXT, name TEXT, detail TEXT, amount INTEGER, voidable INTEGER, PRIMARY KEY (game, seq))",
    "CREATE TABLE IF NOT EXISTS view_stat_tallies (game TEXT, player TEXT, fact TEXT, name TEXT, detail TEXT, "
    "amount INTEGER, periods INTEGER, PRIMARY KEY (game, player, fact, name, detail))",
    # The statistics add a fact up over the games a per-game filter chooses (projections.reports.statistics): each
    # chosen game's rows of the fact, every column they read in the index (an index by name read every game's).
    "DROP INDEX IF EXISTS stat_tallies_by_fact",
    "CREATE INDEX IF NOT EXISTS stat_tallies_by_game ON view_stat_tallies (fact, game, player, name, detail, amount, "
    "periods)",
    "CREATE INDEX IF NOT EXISTS stat_facts_by_fact ON view_stat_facts (fact, game)",
    # The games a filter chooses are read off this index (view_stat_games' rows hold each game's part of the sums:
    # a page or more a game).
    "CREATE INDEX IF NOT EXISTS stat_games_by_kind ON view_stat_games (kind, game, players, goal, expansions, at)",
    *replay_snapshots.SCHEMA,
    derivation.SCHEMA,
)
TABLES = ("view_lines", "view_turns", "view_tracks", "view_findings", "view_results", "view_corrections", "view_context",
          "view_moot", "view_stat_games", "view_stat_seats", "view_stat_periods", "view_stat_facts", "view_stat_tallies",
          "view_stat_sums", "view_stat_parts", "view_snapshots")
"""The tables of the views' rows (each holds rows of games, but ``view_stat_sums``, summed across them)."""
KEPT = TABLES + (derivation.TABLE,)
"""Every table the views keep: their rows', and the number of the way they were derived (``derivation``)."""


_ON_CONFLICT = {
    # A correction may take the game back to an earlier turn (its turn_started voided):
    # the turn decided again after it takes that number's row.
    "view_turns": " ON CONFLICT (game, turn) DO UPDATE SET round = excluded.round, player = excluded.player, "
                  "first_line = excluded.first_line, last_line = excluded.last_line",
    # A player's score, and their score after a period, are rewritten as they change.
    "view_stat_seats": " ON CONFLICT (game, player) DO UPDATE SET score = excluded.score, line = excluded.line",
    "view_stat_periods": " ON CONFLICT (game, period, player) DO UPDATE SET value = excluded.value, line = excluded.line",
    "view_stat_tallies": " ON CONFLICT (game, player, fact, name, detail) DO UPDATE SET "
                         "amount = view_stat_tallies.amount + excluded.amount, "
                         "periods = view_stat_tallies.periods + excluded.periods",
}


class ViewFolder(Dispatching):
    """Folds stored events into the view tables through ``cursor``.

    Call :meth:`fold` with each event in store order, tagged with its
    aggregate's ID, then :meth:`flush` once per transaction: new rows are
    written a table at a time (``executemany``), then the running contexts
    of the games folded.

    Each event class is folded by the method registered for it with
    ``@handles`` (``domain.dispatch``, as the domain's engines and states
    are); each game's recorded lines and the events that move its measures
    are added to the table when the folder first meets the game. An event
    of any other class changes no view.
    """

    def __init__(self, cursor: Any, *, snapshots: bool = True):
        """``snapshots=False`` keeps no replay snapshots (the views of a log file, which nothing replays from)."""
        self.cursor = cursor
        self.snapshots = snapshots
        # Each game's domain state folded beside its views, for its replay snapshots (originator -> its tracking;
        # None: none kept for it, its context saying so or its state failing to fold).
        self._replaying: dict[str, replay_snapshots.Replaying | None] = {}
        self.contexts: dict[str, dict[str, Any]] = {}
        self.dirty: set[str] = set()
        self.rows: dict[str, list[tuple]] = {}  # table -> its new rows (``projections.views.rows``)
        self._turns: dict[tuple[str, int], int] = {}  # (game, turn) -> its row in rows["view_turns"]
        # The rules of each game folded, the steps of all their measures in one map, and the
        # fold of every event class: event classes are each game's own, so one lookup per
        # event serves every game.
        self._games: dict[str, GameRules] = {}
        self._steps: dict[type, Any] = {}
        self._folds: dict[type, Callable[..., None]] = dict(self.HANDLERS)
        # What the statistics count: each game's facts by event class (recorded lines' and derived events'),
        # and the rows of scores and tallies that change as they are folded, written once per flush.
        # (Classes every game shares, GameWon or turn_started, may be a fact of one game only: by game too.)
        self._facts: dict[type, dict[str, Callable[..., Any]]] = {}
        self._line_facts: dict[type, dict[str, Callable[..., Any]]] = {}
        self._scored: dict[tuple, tuple] = {}  # (table, key...) -> the row, rewritten as the score moves
        self._periods: dict[str, set[int]] = {}  # game -> the periods whose rows changed since the last flush
        self._tallied: dict[tuple[str, str, str, str, str], list[int]] = {}
        self._absent: set[str] = set()  # games looked for in view_context and not there
        self._score_keys: dict[tuple[str, str], tuple[str, ...]] = {}  # (game, player) -> what _score adds up
        self._by_round: set[str] = set()  # the games whose statistics count by round (else by turn)

    def context(self, originator_id: str) -> dict[str, Any] | None:
        """The running context of the game stored as ``originator_id``, None when the views do not hold it.

        Read from ``view_context`` the first time (a folder reads only the contexts of the games it folds: an
        archive's import folds one game in a store of thousands). Raises KeyError, TypeError or ValueError
        when the row is not a context gamelog wrote.
        """
        context = self.contexts.get(originator_id)
        if context is None and originator_id not in self._absent:
            self.cursor.execute("SELECT context FROM view_context WHERE originator_id = ?", (originator_id,))
            row = self.cursor.fetchone()
            if row is None:
                self._absent.add(originator_id)
                return None
            context = json.loads(row[0])
            if context["game"] in GAMES:
                self._learn(context["game"])
            self.contexts[originator_id] = context
        return context

    def _learn(self, game: str) -> GameRules:
        """The rules of ``game`` (from the registry: ``KeyError`` for a game it does not hold), remembered.

        Its recorded lines and its measures' events join the fold table
        (a measure's step wins over any other fold of its event class).
        """
        rules = self._games.get(game)
        if rules is None:
            rules = self._games[game] = GAMES[game]
            if rules.round_of is not None:
                self._by_round.add(game)
            self._folds[rules.engine.LINE_RECORDED] = type(self)._line_recorded
            self._steps.update(rules.measures.steps)
            self._folds.update(dict.fromkeys(rules.measures.steps, type(self)._measured))
            statistics = rules.statistics
            if statistics is not None:
                recorded = set(rules.event_types)
                for kind, facts in statistics.facts.items():
                    (self._line_facts if kind in recorded else self._facts).setdefault(kind, {})[game] = facts
        return rules

    def fold(self, originator_id: str, event: Any) -> None:
        """Fold one stored event of the game stored as ``originator_id`` (its header first)."""
        context = self.contexts.get(originator_id)
        if context is None:
            context = self.context(originator_id)
        if context is None:  # the header's line, first of every game
            header = event.event
            rules = self._learn(header.game)
            context = {"id": header.id, "game": header.game, "players": list(header.players),
                       "goal": rules.goal(header), "turn": 0, "round": None, "seq": 0, "values": {}}
            if unrecorded := rules.measures.unrecorded(header):
                context["not_recorded"] = sorted(unrecorded)  # only where the header says so: older views lack it
            self.contexts[originator_id] = context
            self._absent.discard(originator_id)
            self.dirty.add(originator_id)
            self._game_began(context, rules, header, event.line)
            if self.snapshots:
                self._replaying[originator_id] = replay_snapshots.Replaying.begin(header.game, event)
            return
        self.dirty.add(originator_id)
        if self.snapshots:  # the replay snapshots (below): written out here, as every stored event passes
            replaying = self._replaying.get(originator_id, False)
            if replaying is False:
                replaying = self._replaying[originator_id] = self._resumed(context)
            if replaying is not None:
                try:
                    row = replaying.fold(context["id"], event)
                except Exception:  # a state that cannot fold what the views can: the game keeps no more snapshots
                    self._replaying[originator_id] = None
                else:
                    if row is not None:
                        self._add(row)
        cls = type(event)
        fold = self._folds.get(cls)
        if fold is not None:
            fold(self, context, event)
        facts = self._facts.get(cls)
        if facts is not None and context["game"] in facts:
            self._count(context, event.line, facts[context["game"]](event, context["stat"]["memo"]), 0)

    # -- the replay snapshots ------------------------------------------------------------

    # Each game's domain state is folded beside its views (fold, above), and written as a replay snapshot where
    # one falls due (``projections.views.snapshots.Replaying``).

    @staticmethod
    def _resumed(context: dict[str, Any]) -> replay_snapshots.Replaying | None:
        """The tracking of a game's replay snapshots its context kept (None: it keeps none, or it cannot be read)."""
        saved = context.get("replay")
        if not saved:
            return None
        try:
            return replay_snapshots.Replaying.resume(context["game"], saved)
        except (KeyError, TypeError, ValueError):
            return None

    # -- what the statistics count ------------------------------------------------------

    def _game_began(self, context: dict[str, Any], rules: GameRules, header: Any, line: int) -> None:
        statistics = rules.statistics
        side = statistics.side if statistics is not None else (lambda _, player: player)
        expansions = statistics.expansions(header) if statistics is not None else ()
        context["stat"] = {"sides": {p: side(header, p) for p in header.players}, "memo": {}, "facts": 0}
        self._add(StatGameRow(header.id, header.game, len(header.players), context["goal"], header.at or "",
                              "".join(f",{e.casefold()}" for e in expansions) + ",", "[]"))
        for seat, player in enumerate(header.players, 1):
            self._scored[("view_stat_seats", header.id, player)] = StatSeatRow(
                header.id, player, seat, context["stat"]["sides"][player], 0, line)

    def _score(self, context: dict[str, Any], player: str) -> int:
        keys = self._score_keys.get((context["game"], player))
        if keys is None:  # the keys of context["values"] that make the player's score, made once
            keys = self._score_keys[(context["game"], player)] = tuple(
                f"{player}\x1f{m}" for m in self._games[context["game"]].measures.score)
        values, score = context["values"], 0
        for key in keys:
            score += values.get(key, 0)
        return score

    def _period(self, context: dict[str, Any]) -> int | None:
        return context["round"] if context["game"] in self._by_round else (context["turn"] or None)

    def _period_began(self, context: dict[str, Any], line: int) -> None:
        """Every player's score after the new round (or turn) starts as their score now."""
        period = self._period(context)
        if period is None or "stat" not in context:
            return
        for player in context["players"]:
            self._scored[("view_stat_periods", context["id"], period, player)] = StatPeriodRow(
                context["id"], period, player, self._score(context, player), line)

    def _score_moved(self, context: dict[str, Any], player: str, line: int) -> None:
        if "stat" not in context or player not in context["stat"]["sides"]:
            return
        score, game = self._score(context, player), context["id"]
        key = ("view_stat_seats", game, player)
        seat = self._scored.get(key)
        if seat is None:
            seat = StatSeatRow(game, player, context["players"].index(player) + 1, context["stat"]["sides"][player],
                               score, line)
        self._scored[key] = StatSeatRow(seat.game, seat.player, seat.seat, seat.side, score, line)
        period = self._period(context)
        if period is not None:
            self._scored[("view_stat_periods", game, period, player)] = StatPeriodRow(game, period, player, score, line)

    def _count(self, context: dict[str, Any], line: int, facts: Any, voidable: int) -> None:
        """Add the facts of one event (a recorded line's when ``voidable``) to the facts and the game's tallies."""
        stat = context.get("stat")
        if stat is None:
            return
        period = self._period(context)
        for fact in facts:
            stat["facts"] += 1
            self._add(StatFactRow(context["id"], stat["facts"], line, period, fact.player, fact.fact, fact.name,
                                  fact.detail, fact.amount, voidable))
            tally = self._tallied.setdefault((context["id"], fact.player, fact.fact, fact.name, fact.detail), [0, 0])
            tally[0] += fact.amount
            tally[1] += fact.amount * (period or 0)

    # -- the folds: new rows are kept to write a table at a time -------------------

    def _line_recorded(self, context: dict[str, Any], event: Any) -> None:
        recorded = event.event
        rules = self._games[context["game"]]
        kind, player, text = tell(recorded, rules.words)  # GameRules.phrase, one call fewer per line
        if rules.round_of is not None:
            begins = rules.round_of(recorded)
            if begins is not None:
                context["round"] = begins
                self._period_began(context, event.line)
        # A turn_started line opens the turn its TurnBegan (stored just after it) numbers.
        turn = context["turn"] + 1 if kind == "turn_started" else context["turn"]
        self._add(LineRow(context["id"], event.line, turn, context["round"], player, kind, text, 0))
        facts = self._line_facts.get(type(recorded))
        if facts is not None and context["game"] in facts:
            self._count(context, event.line, facts[context["game"]](recorded, context["stat"]["memo"]), 1)

    def _measured(self, context: dict[str, Any], event: Any) -> None:
        step = self._steps[type(event)](event)
        key = f"{step.subject}\x1f{step.measure}"
        value = context["values"].get(key, 0) + step.delta
        context["values"][key] = value
        self._add(ChangeRow(context["id"], self._seq(context), event.line, context["turn"], context["round"],
                           step.subject, step.measure, step.delta, value, step.rule, step.reason))
        if step.measure in self._games[context["game"]].measures.score:
            self._score_moved(context, step.subject, event.line)

    @handles(FindingRaised)
    def _finding_raised(self, context: dict[str, Any], event: FindingRaised) -> None:
        self._add(FindingRow(context["id"], self._seq(context), event.line, context["turn"], context["round"],
                             event.rule, event.severity, event.player, event.message))

    @handles(FindingMooted)
    def _finding_mooted(self, context: dict[str, Any], event: FindingMooted) -> None:
        self._add(MootRow(context["id"], event.line, event.about, event.rule, event.severity, event.player, event.message))

    @handles(TurnBegan)
    def _turn_began(self, context: dict[str, Any], event: TurnBegan) -> None:
        context["turn"] = event.turn
        self._turns[(context["id"], event.turn)] = len(self.rows.setdefault("view_turns", []))
        self._add(TurnRow(context["id"], event.turn, context["round"], event.player, event.line, event.line))
        if self._games[context["game"]].round_of is None:
            self._period_began(context, event.line)

    # -- the folds that change rows already written: the new rows go first ---------

    @handles(TurnFinished)
    def _turn_finished(self, context: dict[str, Any], event: TurnFinished) -> None:
        at = self._turns.pop((context["id"], event.turn), None)
        if at is not None:  # the turn's row is not written yet (the usual case): finish it in place
            rows = self.rows["view_turns"]
            turn = rows[at]
            rows[at] = TurnRow(turn.game, turn.turn, turn.round, turn.player, turn.first_line, event.line)
            return
        self._write_rows()
        self.cursor.execute("UPDATE view_turns SET last_line = ? WHERE game = ? AND turn = ?",
                            (event.line, context["id"], event.turn))

    @handles(StateRestated)
    def _state_restated(self, context: dict[str, Any], event: StateRestated) -> None:
        # Decided again, the game may be at another turn, or over, or no longer over.
        self._write_rows()
        context["turn"] = event.turn
        self.cursor.execute("DELETE FROM view_results WHERE game = ?", (context["id"],))
        if event.ended is not None:
            self._result(context, event.ended)

    @handles(LineVoided)
    def _line_voided(self, context: dict[str, Any], event: LineVoided) -> None:
        self._write_rows()
        self.cursor.execute("UPDATE view_lines SET voided = 1 WHERE game = ? AND line = ?", (context["id"], event.voided))
        self._add(CorrectionRow(context["id"], event.line, event.voided, event.reason))
        # The facts of the voided line are taken back, at the correction's line.
        self.cursor.execute("SELECT player, fact, name, detail, amount FROM view_stat_facts "
                            "WHERE game = ? AND line = ? AND voidable = 1 ORDER BY seq", (context["id"], event.voided))
        taken = [Fact(player, fact, name, detail, -amount) for player, fact, name, detail, amount in self.cursor.fetchall()]
        self._count(context, event.line, taken, 0)

    @handles(GameWon)
    def _game_won(self, context: dict[str, Any], event: GameWon) -> None:
        self._write_rows()
        self._result(context, event)

    def _result(self, context: dict[str, Any], event: GameWon) -> None:
        self.cursor.execute("INSERT INTO view_results VALUES (?, ?, ?, ?, ?) ON CONFLICT (game) DO UPDATE SET "
                            "line = excluded.line, winner = excluded.winner, rule = excluded.rule, reason = excluded.reason",
                            ResultRow(context["id"], event.line, event.winner, event.rule, event.reason))

    @staticmethod
    def _seq(context: dict[str, Any]) -> int:
        """The next number of a row in its game (``seq``: measure changes and findings share it)."""
        context["seq"] += 1
        return context["seq"]

    def _add(self, row: tuple) -> None:
        table = TABLE[type(row)]
        rows = self.rows.get(table)
        if rows is None:
            self.rows[table] = [row]
        else:
            rows.append(row)

    def _write_rows(self) -> None:
        for key in self._scored:
            if key[0] == "view_stat_periods":
                self._periods.setdefault(key[1], set()).add(key[2])
        for row in self._scored.values():
            self._add(row)
        for (game, player, fact, name, detail), (amount, periods) in self._tallied.items():
            self._add(StatTallyRow(game, player, fact, name, detail, amount, periods))
        self._scored, self._tallied = {}, {}
        for table, rows in self.rows.items():
            if rows:
                self.cursor.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))}){_ON_CONFLICT.get(table, '')}", rows)
        self.rows, self._turns = {}, {}

    def flush(self, settled: bool = True) -> None:
        """Write the new rows, then the running context of every game folded since the last flush.

        ``settled``: bring the sums up to date with each such game (``sums.settle``, which reads the game's rows
        whole). A folder that flushes a long game page by page passes False but on its last flush, else each page
        would read the game again (quadratic in its length): the games left are marked ``unsettled`` in their
        context, and :meth:`settle_pending` settles them, in the transaction that ends the catch-up.
        """
        self._write_rows()
        for originator_id in sorted(self.dirty):
            context = self.contexts[originator_id]
            if "stat" in context:
                changed = self._periods.pop(context["id"], set())
                if settled:
                    # Only the periods folded here, unless an earlier flush left the game unsettled (theirs too).
                    settle(self.cursor, context["id"], None if context.pop("unsettled", None) else changed)
                else:
                    context["unsettled"] = 1
            if self.snapshots:
                replaying = self._replaying.get(originator_id, False)
                if replaying is not False:  # (not folded since this folder read the context: kept as it is)
                    context["replay"] = None if replaying is None else replaying.saved()
            self._write_context(originator_id, context)
        self.dirty.clear()
        if settled:
            self.settle_pending()

    def settle_pending(self) -> int:
        """Settle the sums of every game an earlier flush left ``unsettled`` (a catch-up's pages); how many."""
        self.cursor.execute("SELECT originator_id, context FROM view_context WHERE context LIKE ?",
                            ('%"unsettled": 1%',))
        pending = self.cursor.fetchall()
        for originator_id, text in pending:
            context = json.loads(text)
            settle(self.cursor, context["id"])
            context.pop("unsettled", None)
            if originator_id in self.contexts:
                self.contexts[originator_id] = context
            self._write_context(originator_id, context)
        return len(pending)

    def _write_context(self, originator_id: str, context: dict[str, Any]) -> None:
        self.cursor.execute("INSERT INTO view_context VALUES (?, ?, ?) ON CONFLICT (originator_id) DO UPDATE SET "
                            "game = excluded.game, context = excluded.context",
                            (originator_id, context["id"], json.dumps(context, sort_keys=True)))
