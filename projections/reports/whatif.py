"""What if some lines had not counted: the difference between two reports of one game.

:func:`compare_paged` takes the report (``reports.model``) of the game as
recorded and of the game replayed without some lines (``domain.replay.without``),
read a period at a time, and says what changes
(:class:`~projections.reports.documents.WhatIf`): findings that go or come,
the standings of every turn or round where they differ, and the end and the
winner; a game of any length in bounded memory, the document's lists read from
scratch tables as they are written.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

import msgspec

from gamelog.domain.replay_document import StreamedRows
from gamelog.projections.reports.documents import Finding, Period, Report, Results, Standings, StandingsChange, WhatIf


_standings = msgspec.json.Encoder()
_standings_of = msgspec.json.Decoder(Standings)


def compare_paged(actual: Report, actual_periods: Iterable[Period], what_if: Report, what_if_periods: Iterable[Period],
                  without: list[int], scratch: Any) -> WhatIf:
    """:func:`compare` of the reports ``actual`` and ``what_if`` (heads without their periods, ``model.report_head``)
    whose periods come as they are read: the same document, what must be looked up across the two (the what-if's
    standings of each period, the last of a number as in :func:`compare`; each report's findings, the last of a
    key) kept in tables of ``scratch``, a cursor on a private SQLite database, rather than in memory.

    What the document lists (the standings that differ, a change a turn of a long game; the findings of one
    side only) is kept there too, and read a page at a time as it is written (``StreamedRows``): the document
    holds while ``scratch``'s database is open (``held`` makes its lists lists).
    """
    scratch.execute("CREATE TABLE what_if_standings (number INTEGER PRIMARY KEY, standings BLOB)")
    scratch.execute("CREATE TABLE what_if_findings (side INTEGER, line INTEGER, rule TEXT, severity TEXT, "
                    "message TEXT, player TEXT, PRIMARY KEY (side, line, rule, severity, message))")
    scratch.execute("CREATE TABLE what_if_changes (seq INTEGER PRIMARY KEY, number INTEGER, actual BLOB, "
                    "what_if BLOB)")
    for period in what_if_periods:
        scratch.execute("INSERT OR REPLACE INTO what_if_standings VALUES (?, ?)",
                        (period.number, _standings.encode(period.standings)))
        _keep_findings(scratch, 1, period)
    for period in actual_periods:
        _keep_findings(scratch, 0, period)
        scratch.execute("SELECT standings FROM what_if_standings WHERE number = ?", (period.number,))
        found = scratch.fetchone()
        other_standings = None if found is None else _standings_of.decode(found[0])
        if other_standings != period.standings:
            scratch.execute("INSERT INTO what_if_changes (number, actual, what_if) VALUES (?, ?, ?)",
                            (period.number, _standings.encode(period.standings), None if found is None else found[0]))
    database = scratch.connection
    return WhatIf(
        game=actual.game,
        id=actual.id,
        without=without,
        score=actual.score,
        findings_gone=StreamedRows(lambda: _only(database, 0)),
        findings_new=StreamedRows(lambda: _only(database, 1)),
        standings=StreamedRows(lambda: _changes(database, actual.by)),
        result=Results(actual=actual.result, what_if=what_if.result),
        winner_changes=actual.result.winner != what_if.result.winner or actual.result.finished != what_if.result.finished,
    )


PAGE = 2000
"""The rows of a scratch table read at a time."""


def _paged(database: Any, sql: str, *params: Any) -> Iterator[tuple]:
    """The rows of ``sql`` on a cursor of their own (the scratch's is free for other statements), a page at a time."""
    cursor = database.cursor()
    try:
        cursor.execute(sql, params)
        while page := cursor.fetchmany(PAGE):
            yield from page
    finally:
        cursor.close()


def _changes(database: Any, by: str) -> Iterator[StandingsChange]:
    """The standings that differ, in the order of the actual report's periods."""
    for number, actual, what_if in _paged(database, "SELECT number, actual, what_if FROM what_if_changes ORDER BY seq"):
        yield StandingsChange(**{by: number}, actual=_standings_of.decode(actual),
                              what_if=None if what_if is None else _standings_of.decode(what_if))


def _keep_findings(scratch: Any, side: int, period: Period) -> None:
    """A period's findings, as :func:`_findings` keys them (the last of a key kept)."""
    scratch.executemany("INSERT OR REPLACE INTO what_if_findings VALUES (?, ?, ?, ?, ?, ?)",
                        [(side, line.line, f.rule, f.severity, f.message, f.player)
                         for line in period.lines for f in line.findings])


def _only(database: Any, side: int) -> Iterator[Finding]:
    """The findings of one side whose key the other lacks, in key order (SQLite's text order is Python's)."""
    # The other side's key looked up by the table's key (side first): one index lookup a finding.
    rows = _paged(database, "SELECT line, rule, severity, player, message FROM what_if_findings AS f WHERE side = ? "
                  "AND NOT EXISTS (SELECT 1 FROM what_if_findings AS o WHERE o.side = ? AND o.line = f.line AND "
                  "o.rule = f.rule AND o.severity = f.severity AND o.message = f.message) "
                  "ORDER BY line, rule, severity, message", side, 1 - side)
    for line, rule, severity, player, message in rows:
        yield Finding(line=line, rule=rule, severity=severity, player=player, message=message)
