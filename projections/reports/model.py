"""The report of one game, per turn or per round, read from the views.

The report is a :class:`~projections.reports.documents.Report` (its fields
are documented in the README and are stable): every renderer (text,
Markdown, CSV, HTML, JSON) reads it, and nothing in it depends on the clock
or on hash order, so the same game always gives the same bytes. What the game counts, its score and
its period come from its :class:`~domain.games.GameRules` in the registry.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from msgspec import UNSET

from domain.games import GAMES
from domain.measures import Measures
from projections.reports.documents import (Change, FindingCounts, Line, LineFinding, Period, Report, Result,
                                           Standings)
from projections.reports.states import line_states
from projections.views.rows import FindingRow, LineRow, ResultRow, TrackRow, select

SEVERITIES = ("violation", "unverifiable", "warning")


class GameNotInViews(Exception):
    """Raised when the views hold no game of that id."""


def read_context(cursor: Any, game_id: str) -> dict[str, Any]:
    """The game's running context in the views (its game, players, goal...); raises :class:`GameNotInViews`."""
    cursor.execute("SELECT context FROM view_context WHERE game = ?", (game_id,))
    found = cursor.fetchone()
    if found is None:
        raise GameNotInViews(game_id)
    return json.loads(found[0])


def build_report(cursor: Any, game_id: str, by: str | None = None, history: Iterable[Any] | None = None) -> Report:
    """The report of ``game_id`` grouped by ``turn`` or ``round`` (the game's own period by default).

    With ``history`` (the game's events, the header's first) the report also
    holds ``states``, the state after each of its lines, for the HTML
    report's replay. Raises :class:`GameNotInViews` when the views don't know
    the game.
    """
    context = read_context(cursor, game_id)
    game = context["game"]
    rules = GAMES[game]
    by = by or rules.period
    lines = select(cursor, LineRow, "game = ? ORDER BY line", game_id)
    tracks = select(cursor, TrackRow, "game = ? ORDER BY seq", game_id)
    findings = select(cursor, FindingRow, "game = ? ORDER BY seq", game_id)
    result = select(cursor, ResultRow, "game = ?", game_id)
    counts = FindingCounts(**{s: sum(1 for f in findings if f.severity == s) for s in SEVERITIES})
    states = UNSET if history is None else line_states(game, history, [row.line for row in lines])
    return Report(
        game=game,
        id=game_id,
        players=context["players"],
        by=by,
        score=rules.measures.score_name,
        goal=context["goal"],
        result=_result(result),
        findings=counts,
        opening=_standings(rules.measures, context["players"], _opening(tracks)),
        periods=_periods(rules.measures, context["players"], by, lines, tracks, findings),
        states=states,
    )


def _result(rows: list[ResultRow]) -> Result:
    if not rows:
        return Result(finished=False, winner=None, line=None, rule=None, reason=None)
    (row,) = rows
    return Result(finished=True, winner=row.winner, line=row.line, rule=row.rule, reason=row.reason)


def _lines(lines: list[LineRow], tracks: list[TrackRow], findings: list[FindingRow]) -> list[Line]:
    """Each line with its changes and findings."""
    changes_at: dict[int, list[Change]] = {}
    for t in tracks:
        changes_at.setdefault(t.line, []).append(
            Change(subject=t.subject, measure=t.measure, delta=t.delta, value=t.value, rule=t.rule, reason=t.reason))
    findings_at: dict[int, list[LineFinding]] = {}
    for f in findings:
        findings_at.setdefault(f.line, []).append(
            LineFinding(rule=f.rule, severity=f.severity, player=f.player, message=f.message))
    return [Line(line=row.line, player=row.player, type=row.type, text=row.text, voided=bool(row.voided),
                 changes=changes_at.get(row.line, []), findings=findings_at.get(row.line, [])) for row in lines]


def _periods(measures: Measures, players: list[str], by: str, lines: list[LineRow], tracks: list[TrackRow],
             findings: list[FindingRow]) -> list[Period]:
    # The lines in runs of one turn (or round): (number, its lines).
    runs: list[tuple[int, list[Line]]] = []
    for row, line in zip(lines, _lines(lines, tracks, findings)):
        number = (row.turn if by == "turn" else row.round) or 0
        if not runs or runs[-1][0] != number:
            runs.append((number, []))
        runs[-1][1].append(line)
    # One pass over the tracks, in step with the periods: each period's standings are the totals after its last line.
    values: dict[tuple[str, str], int] = {}
    pending = iter(tracks)
    upcoming = next(pending, None)
    periods = []
    for number, run in runs:
        while upcoming is not None and upcoming.line <= run[-1].line:
            values[(upcoming.subject, upcoming.measure)] = upcoming.value
            upcoming = next(pending, None)
        acted = list(dict.fromkeys(line.player for line in run if line.player))
        periods.append(Period(number=number, players=acted, first_line=run[0].line, last_line=run[-1].line, lines=run,
                              standings=_standings(measures, players, values),
                              # "forum" is the stable JSON field of a game's board counts (null for a game without one).
                              forum=measures.board.counts(values) if measures.board else None))
    return periods


def _opening(tracks: list[TrackRow]) -> dict[tuple[str, str], int]:
    """Each (subject, measure)'s total after the setup, before any line of play."""
    return {(t.subject, t.measure): t.value for t in tracks if t.rule == "setup"}


def _standings(measures: Measures, players: list[str], values: dict[tuple[str, str], int]) -> Standings:
    return {player: measures.standing(player, values) for player in players}
