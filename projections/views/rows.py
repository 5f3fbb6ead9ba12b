"""The rows of the view tables, one NamedTuple per table, its fields the table's columns in order.

The folder (``projections.views.folder``) writes these rows and the reports
(``projections.reports``) read them back by name: a row is never indexed by
position. The columns are those of ``folder.SCHEMA``: stores written before
these types existed read the same.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class LineRow(NamedTuple):
    """``view_lines``: one recorded line, told in words."""

    game: str
    line: int
    turn: int
    round: int | None
    player: str | None
    type: str
    text: str
    voided: int  # 0 or 1: SQLite has no boolean


class TurnRow(NamedTuple):
    """``view_turns``: one turn, its player and its lines."""

    game: str
    turn: int
    round: int | None
    player: str
    first_line: int
    last_line: int


class ChangeRow(NamedTuple):
    """``view_tracks``: one measure change (a change of a running total, and the total after it: the report's
    ``MeasureChange``; the table keeps its first name, which stored views have)."""

    game: str
    seq: int
    line: int
    turn: int
    round: int | None
    subject: str
    measure: str
    delta: int
    value: int
    rule: str
    reason: str


class FindingRow(NamedTuple):
    """``view_findings``: one rule finding."""

    game: str
    seq: int
    line: int
    turn: int
    round: int | None
    rule: str
    severity: str
    player: str | None
    message: str


class ResultRow(NamedTuple):
    """``view_results``: how a finished game ended."""

    game: str
    line: int
    winner: str | None
    rule: str
    reason: str


class CorrectionRow(NamedTuple):
    """``view_corrections``: one correction and the line it voided."""

    game: str
    line: int
    voided: int
    reason: str


class MootRow(NamedTuple):
    """``view_moot``: a finding of line ``about`` that the correction at ``line`` made moot."""

    game: str
    line: int
    about: int
    rule: str
    severity: str
    player: str | None
    message: str


class StatGameRow(NamedTuple):
    """``view_stat_games``: one game as statistics choose it: its kind, player count, goal, date, expansions."""

    game: str
    kind: str
    players: int
    goal: int | None
    at: str  # the header's ``at`` ("" when it has none)
    expansions: str  # the expansions, each between commas (",pok,codex,"): a filter is one LIKE
    contrib: str  # the game's part of view_stat_sums, as JSON (projections.views.sums)


class StatSeatRow(NamedTuple):
    """``view_stat_seats``: one player of a game, their seat, side (faction), final score and the line that set it."""

    game: str
    player: str
    seat: int
    side: str
    score: int
    line: int


class StatPeriodRow(NamedTuple):
    """``view_stat_periods``: a player's score after one round (or turn), and the line that set it."""

    game: str
    period: int
    player: str
    value: int
    line: int


class StatFactRow(NamedTuple):
    """``view_stat_facts``: one fact a game's statistics count (``domain.statistics.Fact``), with its line."""

    game: str
    seq: int
    line: int
    period: int | None
    player: str
    fact: str
    name: str
    detail: str
    amount: int
    voidable: int  # 1: the fact of a recorded line, taken back when a correction voids the line


class StatTallyRow(NamedTuple):
    """``view_stat_tallies``: a fact added up over one game (one row per player, fact, name and detail)."""

    game: str
    player: str
    fact: str
    name: str
    detail: str
    amount: int
    periods: int  # the sum of amount × period: the mean round of a fact is periods / amount


class SnapshotRow(NamedTuple):
    """``view_snapshots``: a game's state after every event of a line, which a replay resumes from
    (``domain.engine.GameState.replay_snapshot``), and how far the events up to it reached."""

    game: str
    version: int  # the stored version of the line's last event
    line: int  # the line (the highest any event up to it names)
    turn: int  # the highest turn a TurnBegan or TurnFinished up to it names (0 before the first)
    round: int | None  # the highest round a recorded line up to it began (None in a game without rounds)
    state: bytes


TABLE: dict[type, str] = {
    LineRow: "view_lines",
    TurnRow: "view_turns",
    ChangeRow: "view_tracks",
    FindingRow: "view_findings",
    ResultRow: "view_results",
    CorrectionRow: "view_corrections",
    MootRow: "view_moot",
    StatGameRow: "view_stat_games",
    StatSeatRow: "view_stat_seats",
    StatPeriodRow: "view_stat_periods",
    StatFactRow: "view_stat_facts",
    StatTallyRow: "view_stat_tallies",
    SnapshotRow: "view_snapshots",
}
"""Each row type's table."""


def select(cursor: Any, row: type[NamedTuple], where: str, *params: Any) -> list[Any]:
    """The rows of ``row``'s table that match ``where`` (SQL after ``WHERE``), as ``row`` tuples."""
    cursor.execute(f"SELECT {', '.join(row._fields)} FROM {TABLE[row]} WHERE {where}", params)
    return [row(*r) for r in cursor.fetchall()]
