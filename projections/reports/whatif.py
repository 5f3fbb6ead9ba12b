"""What if some lines had not counted: the difference between two reports of one game.

:func:`compare_paged` takes the report (``reports.model``) of the game as
recorded and of the game replayed without some lines (``domain.replay.without``),
read a period at a time, and says what changes
(:class:`~projections.reports.documents.WhatIf`): findings that go or come,
the standings of every turn or round where they differ, and the end and the
winner; a game of any length in bounded memory.
"""

from __future__ import annotations

from typing import Any, Iterable

import msgspec

from gamelog.projections.reports.documents import Finding, Period, Report, Results, Standings, StandingsChange, WhatIf


_standings = msgspec.json.Encoder()
_standings_of = msgspec.json.Decoder(Standings)


def compare_paged(actual: Report, actual_periods: Iterable[Period], what_if: Report, what_if_periods: Iterable[Period],
                  without: list[int], scratch: Any) -> WhatIf:
    """:func:`compare` of the reports ``actual`` and ``what_if`` (heads without their periods, ``model.report_head``)
    whose periods come as they are read: the same document, what must be looked up across the two (the what-if's
    standings of each period, the last of a number as in :func:`compare`; each report's findings, the last of a
    key) kept in tables of ``scratch``, a cursor on a private SQLite database, rather than in memory.
    """
    scratch.execute("CREATE TABLE what_if_standings (number INTEGER PRIMARY KEY, standings BLOB)")
    scratch.execute("CREATE TABLE what_if_findings (side INTEGER, line INTEGER, rule TEXT, severity TEXT, "
                    "message TEXT, player TEXT, PRIMARY KEY (side, line, rule, severity, message))")
    for period in what_if_periods:
        scratch.execute("INSERT OR REPLACE INTO what_if_standings VALUES (?, ?)",
                        (period.number, _standings.encode(period.standings)))
        _keep_findings(scratch, 1, period)
    standings = []
    for period in actual_periods:
        _keep_findings(scratch, 0, period)
        scratch.execute("SELECT standings FROM what_if_standings WHERE number = ?", (period.number,))
        found = scratch.fetchone()
        other_standings = None if found is None else _standings_of.decode(found[0])
        if other_standings != period.standings:
            standings.append(StandingsChange(**{actual.by: period.number}, actual=period.standings, what_if=other_standings))
    return WhatIf(
        game=actual.game,
        id=actual.id,
        without=without,
        score=actual.score,
        findings_gone=_only(scratch, 0),
        findings_new=_only(scratch, 1),
        standings=standings,
        result=Results(actual=actual.result, what_if=what_if.result),
        winner_changes=actual.result.winner != what_if.result.winner or actual.result.finished != what_if.result.finished,
    )


def _keep_findings(scratch: Any, side: int, period: Period) -> None:
    """A period's findings, as :func:`_findings` keys them (the last of a key kept)."""
    scratch.executemany("INSERT OR REPLACE INTO what_if_findings VALUES (?, ?, ?, ?, ?, ?)",
                        [(side, line.line, f.rule, f.severity, f.message, f.player)
                         for line in period.lines for f in line.findings])


def _only(scratch: Any, side: int) -> list[Finding]:
    """The findings of one side whose key the other lacks, in key order (SQLite's text order is Python's)."""
    # The other side's key looked up by the table's key (side first): one index lookup a finding.
    scratch.execute("SELECT line, rule, severity, player, message FROM what_if_findings AS f WHERE side = ? AND NOT "
                    "EXISTS (SELECT 1 FROM what_if_findings AS o WHERE o.side = ? AND o.line = f.line AND "
                    "o.rule = f.rule AND o.severity = f.severity AND o.message = f.message) "
                    "ORDER BY line, rule, severity, message", (side, 1 - side))
    return [Finding(line=line, rule=rule, severity=severity, player=player, message=message)
            for line, rule, severity, player, message in scratch.fetchall()]
