"""The report of one game, per turn or per round, read from the views.

The report is a :class:`~projections.reports.documents.Report` (its fields
are documented in the README and are stable): every renderer (text,
Markdown, CSV, HTML, JSON) reads it, and nothing in it depends on the clock
or on hash order, so the same game always gives the same bytes. What the game counts, its score and
its period come from its :class:`~domain.games.GameRules` in the registry.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from msgspec import UNSET

from gamelog.domain.games import GAMES
from gamelog.domain.measures import Measures

from gamelog.projections.reports.documents import (FindingCounts, Line, LineFinding, MeasureChange, Period, Report,
                                                   Result, Standings)
from gamelog.projections.reports.states import line_states
from gamelog.projections.views.rows import FindingRow, LineRow, ResultRow, ChangeRow, select

SEVERITIES = ("violation", "unverifiable", "warning")


class GameNotInViews(Exception):
    """Raised when the views hold no game of that id."""


class ContextDamaged(Exception):
    """Raised when the game's running context in the views is not one (a row edited by hand): the views are damaged."""


CONTEXT_KEYS = ("game", "players", "goal")
"""What a report reads of a game's running context."""


def read_context(cursor: Any, game_id: str) -> dict[str, Any]:
    """The game's running context in the views (its game, players, goal...); raises :class:`GameNotInViews`, and
    :class:`ContextDamaged` when the row holds no context of a registered game."""
    cursor.execute("SELECT context FROM view_context WHERE game = ?", (game_id,))
    found = cursor.fetchone()
    if found is None:
        raise GameNotInViews(game_id)
    try:
        context = json.loads(found[0])
    except (TypeError, ValueError) as exc:
        raise ContextDamaged(f"the running context of game {game_id!r} in view_context is not JSON") from exc
    if not isinstance(context, dict) or any(key not in context for key in CONTEXT_KEYS) \
            or context["game"] not in GAMES or not isinstance(context["players"], list):
        raise ContextDamaged(f"the running context of game {game_id!r} in view_context is not one gamelog wrote")
    return context


PAGE = 2000
"""Rows read at a time: a report holds a page of each view table and one period, whatever the game's size (three
pages of 5,000 rows were a tenth of the HTML report's peak memory)."""


def paged(cursor: Any, row: type[NamedTuple], game_id: str, key: str, where: str = "", *params: Any) -> Iterator[Any]:
    """The game's rows of ``row``'s table in ``key`` order (``key`` numbers them uniquely in a game), a page at a time.

    ``where`` (SQL after ``AND``) narrows them. Each page is read whole before
    it is handed out, so several of these may take turns on one cursor.
    """
    at, after = row._fields.index(key), None
    while True:
        since = "" if after is None else f" AND {key} > ?"
        page = select(cursor, row, f"game = ?{since}{where and ' AND ' + where} ORDER BY {key} LIMIT {PAGE}",
                      game_id, *(() if after is None else (after,)), *params)
        yield from page
        if len(page) < PAGE:
            return
        after = page[-1][at]


def finding_counts(cursor: Any, game_id: str) -> dict[str, int]:
    """The game's findings by severity, as the whole log decides them.

    A finding that was open at the end of an earlier import and made moot by the line that extended the log (a
    moot row whose line is no correction) is not counted: the log imported whole never raises it. A finding a
    correction made moot still counts: the table saw it.
    """
    cursor.execute("SELECT severity, COUNT(*) FROM view_findings WHERE game = ? GROUP BY severity", (game_id,))
    counts = {severity: int(n) for severity, n in cursor.fetchall()}
    cursor.execute("SELECT m.severity, COUNT(*) FROM view_moot m WHERE m.game = ? AND NOT EXISTS "
                   "(SELECT 1 FROM view_corrections c WHERE c.game = m.game AND c.line = m.line) GROUP BY m.severity",
                   (game_id,))
    for severity, n in cursor.fetchall():
        counts[severity] = counts.get(severity, 0) - int(n)
    return {severity: n for severity, n in sorted(counts.items()) if n}


def report_head(cursor: Any, game_id: str, by: str | None = None) -> Report:
    """The report of ``game_id`` without its periods (``periods`` empty): what comes before them.

    The finding counts, the result and the opening standings are read with
    their own small queries; :func:`report_periods` gives the periods. Raises
    :class:`GameNotInViews` when the views don't know the game.
    """
    context = read_context(cursor, game_id)
    game = context["game"]
    rules = GAMES[game]
    counted = finding_counts(cursor, game_id)
    opening = {(t.subject, t.measure): t.value for t in paged(cursor, ChangeRow, game_id, "seq", "rule = ?", "setup")}
    not_recorded = _unrecorded(context)
    return Report(
        game=game,
        id=game_id,
        players=context["players"],
        by=by or rules.period,
        score=rules.measures.score_name,
        goal=context["goal"],
        result=_result(select(cursor, ResultRow, "game = ?", game_id)),
        findings=FindingCounts(**{s: counted.get(s, 0) for s in SEVERITIES}),
        opening=_standings(rules.measures, context["players"], opening, _known(not_recorded)),
        periods=[],
        not_recorded=not_recorded,
    )


def count_lines(cursor: Any, game_id: str) -> int:
    """How many lines of ``game_id`` the views hold (what :func:`report_periods` will give)."""
    cursor.execute("SELECT COUNT(*) FROM view_lines WHERE game = ?", (game_id,))
    return cursor.fetchone()[0]


def last_line(cursor: Any, game_id: str) -> int:
    """The last line of ``game_id`` the views hold (0 for none)."""
    cursor.execute("SELECT MAX(line) FROM view_lines WHERE game = ?", (game_id,))
    return cursor.fetchone()[0] or 0


def build_report(cursor: Any, game_id: str, by: str | None = None, history: Iterable[Any] | None = None) -> Report:
    """The report of ``game_id`` grouped by ``turn`` or ``round`` (the game's own period by default), whole.

    With ``history`` (the game's events, the header's first) the report also
    holds ``states``, the state after each of its lines, for the HTML
    report's replay. Raises :class:`GameNotInViews` when the views don't know
    the game. The text, Markdown, CSV and JSON reports stream instead
    (:func:`report_head`, :func:`report_periods`).
    """
    report = report_head(cursor, game_id, by)
    report.periods = list(report_periods(cursor, report))
    if history is not None:
        report.states = line_states(report.game, history, [line.line for p in report.periods for line in p.lines])
    return report


def _known(not_recorded: list[str] | Any) -> frozenset[str]:
    """The measures whose totals the report gives as null: those the log's source does not record."""
    return frozenset(not_recorded) if not_recorded is not UNSET else frozenset()


def _unrecorded(context: dict[str, Any]) -> list[str] | Any:
    """The context's measures not recorded (views folded before they were kept have none: rebuild them)."""
    names = context.get("not_recorded")
    return [str(n) for n in names] if isinstance(names, list) and names else UNSET


def _result(rows: list[ResultRow]) -> Result:
    if not rows:
        return Result(finished=False, winner=None, line=None, rule=None, reason=None)
    (row,) = rows
    return Result(finished=True, winner=row.winner, line=row.line, rule=row.rule, reason=row.reason)


def report_periods(cursor: Any, head: Report) -> Iterator[Period]:
    """The periods of the report ``head`` (from :func:`report_head`), one at a time, read a page at a time.

    The lines (in line order), the measure changes and the findings (in ``seq`` order)
    are merged in one pass: the store keeps a game's events in line order (a
    correction's changes and findings are on its own line), so ``seq`` order
    is line order. A change or finding goes with the line it names; each
    period's standings are the totals after its last line. Only the period
    being built is held.
    """
    measures = GAMES[head.game].measures
    unknown = _known(head.not_recorded)
    values: dict[tuple[str, str], int] = {}
    measure_changes = _Ahead(paged(cursor, ChangeRow, head.id, "seq"))
    findings = _Ahead(paged(cursor, FindingRow, head.id, "seq"))
    number: int | None = None
    run: list[Line] = []
    for row in paged(cursor, LineRow, head.id, "line"):
        at = (row.turn if head.by == "turn" else row.round) or 0
        if run and at != number:
            yield _period(measures, head.players, number, run, values, unknown)
            run = []
        number = at
        changes = []
        while measure_changes.next is not None and measure_changes.next.line <= row.line:
            t = measure_changes.take()
            values[(t.subject, t.measure)] = t.value
            if t.line == row.line:
                changes.append(MeasureChange(subject=t.subject, measure=t.measure, delta=t.delta,
                                             value=None if t.measure in unknown else t.value, rule=t.rule,
                                             reason=t.reason))
        found = []
        while findings.next is not None and findings.next.line <= row.line:
            f = findings.take()
            if f.line == row.line:
                found.append(LineFinding(rule=f.rule, severity=f.severity, player=f.player, message=f.message))
        run.append(Line(line=row.line, player=row.player, type=row.type, text=row.text, voided=bool(row.voided),
                        changes=changes, findings=found))
    if run:
        yield _period(measures, head.players, number or 0, run, values, unknown)


class _Ahead:
    """An iterator whose next item can be looked at before it is taken."""

    def __init__(self, items: Iterator[Any]):
        self._items = items
        self.next = next(items, None)

    def take(self) -> Any:
        item, self.next = self.next, next(self._items, None)
        return item


def _period(measures: Measures, players: list[str], number: int, run: list[Line],
            values: dict[tuple[str, str], int], unknown: frozenset[str]) -> Period:
    acted = list(dict.fromkeys(line.player for line in run if line.player))
    board = measures.board.counts(values) if measures.board else None
    return Period(number=number, players=acted, first_line=run[0].line, last_line=run[-1].line, lines=run,
                  standings=_standings(measures, players, values, unknown), board=board,
                  forum=board)  # the deprecated name of "board", kept for one schema version (docs/cli.md)


def _standings(measures: Measures, players: list[str], values: dict[tuple[str, str], int],
               unknown: frozenset[str]) -> Standings:
    """Each player's totals after ``values``: null for a measure the log's source does not record (``unknown``)."""
    return {player: {m: None if m in unknown else v for m, v in measures.standing(player, values).items()}
            for player in players}
