"""What the HTML report holds of a game: every line, or past a budget every k-th line, so that the page stays a few MB.

A page that held every line of a 200,000-line log (its row in the log, its
point on the chart, its state in the replay) was 110 MB, more than a browser
opens. A :class:`Sample` keeps at most :data:`LINE_BUDGET` lines (fewer when
there are many players: :data:`CELL_BUDGET`): every line of a shorter log;
of a longer one every ``step``-th line, the last, and the lines with a
finding (at most :data:`FINDING_BUDGET` of them). The chart, the replay and
the log of the page step through the kept lines, and the page says so
(:func:`Sample.coarse`). The score at each kept line is counted from every
line, kept or not.

A sample is built in one pass over the periods, as :func:`model.report_periods
<gamelog.projections.reports.model.report_periods>` reads them, holding only
what it keeps; the states after the kept lines are folded from the history as
the page is written (:func:`states.states_at
<gamelog.projections.reports.states.states_at>`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import msgspec
from msgspec import UNSET

from gamelog.domain.games import GAMES
from gamelog.domain.replay_document import Replay
from gamelog.projections.reports.documents import Line, Period, Report

LINE_BUDGET = 3_000
"""The most lines a page shows one by one (besides the lines with a finding)."""

CELL_BUDGET = 24_000
"""The most player-line cells: the chart's points and the replay's states grow with the players as with the lines."""

FINDING_BUDGET = 1_000
"""The most lines kept for their findings beyond the ``step``-th lines (the first ones of the log)."""

MARKER_BUDGET = 2_000
"""The most markers (with their tooltips) the score chart draws, shared by the players: past it, evenly spaced ones."""

TEXT_LIMIT = 500
"""The most characters of a line's text a page shows (the text and JSON reports show it whole)."""


def step_for(lines: int, players: int) -> int:
    """Every how many lines a page keeps one, for a log of ``lines`` lines and ``players`` players (1: every line)."""
    most = max(1, min(LINE_BUDGET, CELL_BUDGET // max(players, 1)))
    return max(1, -(-lines // most))


@dataclass
class Sample:
    """The report as the page holds it: its head and the kept lines (in ``report.periods``), the score after each.

    ``report.periods`` holds the periods that keep a line, each with only its
    kept lines (a text longer than :data:`TEXT_LIMIT` cut) and its standings
    as they are; ``scores`` each player's score at the header, then after each
    kept line; ``since`` the first line each kept line stands for (the line
    after the kept one before it); ``states``, when the page has a replay, the
    state at the header then after each kept line, read once, in order.
    """

    report: Report
    lines: int
    """The lines of the log, kept or not."""
    step: int
    scores: dict[str, list[int]]
    since: list[int] = field(default_factory=list)
    states: Iterable[Replay] | None = None
    final: Replay | None = None
    """The state at the end of the game, which the page's standings read (who plays which side, their colour at
    the table, where each score comes from); None when the page has no replay."""

    def kept(self) -> list[tuple[int, Line]]:
        """Each kept line with its period's number, in order: position i + 1 on the chart and the slider."""
        return [(period.number, line) for period in self.report.periods for line in period.lines]

    def coarse(self) -> bool:
        """Whether the page shows fewer lines than the log has."""
        return self.step > 1


def _cut(line: Line) -> Line:
    if len(line.text) <= TEXT_LIMIT:
        return line
    return msgspec.structs.replace(line, text=line.text[:TEXT_LIMIT - 1] + "…")


def sample(head: Report, periods: Iterable[Period], lines: int, states: Iterable[Replay] | None = None) -> Sample:
    """The sample of the report whose head is ``head`` (its ``periods`` unused), read from ``periods`` in one pass.

    ``lines`` is how many lines the periods hold (the step is chosen before
    they are read); ``states``, given, is set on the sample as it is (the states after its kept lines, read later:
    see :func:`kept_lines`)."""
    measures = GAMES[head.game].measures
    step = step_for(lines, len(head.players))
    totals = {player: head.opening[player][head.score] for player in head.players}
    scores = {player: [total] for player, total in totals.items()}
    since: list[int] = []
    kept_periods: list[Period] = []
    position = for_findings = 0
    first_since: int | None = None
    for period in periods:
        kept: list[Line] = []
        for line in period.lines:
            position += 1
            if first_since is None:
                first_since = line.line
            for change in line.changes:
                if change.measure in measures.score:
                    totals[change.subject] += change.delta
            keep = position % step == 0 or position == lines
            if not keep and line.findings and for_findings < FINDING_BUDGET:
                keep, for_findings = True, for_findings + 1
            if keep:
                kept.append(_cut(line))
                since.append(first_since)
                first_since = None
                for player, total in totals.items():
                    scores[player].append(total)
        if kept:
            kept_periods.append(msgspec.structs.replace(period, lines=kept))
    report = msgspec.structs.replace(head, periods=kept_periods, states=UNSET)
    return Sample(report, position, step, scores, since, states)


def sample_report(report: Report) -> Sample:
    """The sample of a whole report (``model.build_report``); its states, when it holds them, are the kept lines'."""
    lines = sum(len(period.lines) for period in report.periods)
    result = sample(report, report.periods, lines)
    if report.states is not UNSET:
        kept = {line.line for _, line in result.kept()}
        every = [line.line for period in report.periods for line in period.lines]
        result.states = [report.states[0], *(s for s, n in zip(report.states[1:], every) if n in kept)]
        result.final = report.states[-1]
    return result


def kept_lines(result: Sample) -> Iterator[int]:
    """The numbers of the kept lines, in order."""
    return (line.line for _, line in result.kept())
