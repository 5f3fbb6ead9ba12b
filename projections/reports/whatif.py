"""What if some lines had not counted: the difference between two reports of one game.

``compare`` takes the report (``reports.model``) of the game as recorded and
of the game replayed without some lines (``domain.replay.without``) and says
what changes (:class:`~projections.reports.documents.WhatIf`): findings that
go or come, the standings of every turn or round where they differ, and the
end and the winner.
"""

from __future__ import annotations

from gamelog.projections.reports.documents import Finding, Report, Results, StandingsChange, WhatIf


def _findings(report: Report) -> dict[tuple, Finding]:
    out = {}
    for period in report.periods:
        for line in period.lines:
            for f in line.findings:
                out[(line.line, f.rule, f.severity, f.message)] = Finding(
                    line=line.line, rule=f.rule, severity=f.severity, player=f.player, message=f.message)
    return out


def compare(actual: Report, what_if: Report, without: list[int]) -> WhatIf:
    """What changes when the lines ``without`` are void."""
    before, after = _findings(actual), _findings(what_if)
    periods_after = {p.number: p for p in what_if.periods}
    standings = []
    for period in actual.periods:
        other = periods_after.get(period.number)
        other_standings = other.standings if other else None
        if other_standings != period.standings:
            # Numbered as the report groups: {"turn": n, ...} or {"round": n, ...}.
            standings.append(StandingsChange(**{actual.by: period.number}, actual=period.standings, what_if=other_standings))
    return WhatIf(
        game=actual.game,
        id=actual.id,
        without=without,
        score=actual.score,
        findings_gone=[before[k] for k in sorted(before.keys() - after.keys())],
        findings_new=[after[k] for k in sorted(after.keys() - before.keys())],
        standings=standings,
        result=Results(actual=actual.result, what_if=what_if.result),
        winner_changes=actual.result.winner != what_if.result.winner or actual.result.finished != what_if.result.finished,
    )
