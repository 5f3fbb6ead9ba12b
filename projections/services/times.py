"""The time of play of a game (its lines' ``at``), as the reports and ``stats`` show it (``domain.timing``)."""

from __future__ import annotations

from gamelog.domain.games import GAMES
from gamelog.domain.timing import Timing, timing
from gamelog.projections.reports.documents import GameTime, PeriodTime, PlayerTime

from .sources import Source

__all__ = ["game_time", "timing_of"]


def timing_of(source: Source) -> Timing:
    """The time of play of ``source``'s game, read off its recorded lines (its history read once)."""
    rules = GAMES[source.game]
    line_recorded = rules.engine.LINE_RECORDED
    recorded = ((event.line, event.event) for event in source.history() if type(event) is line_recorded)
    first = next(recorded)
    return timing([first, *recorded], list(first[1].players), rules.round_of)


def game_time(source: Source) -> GameTime:
    """The reports' document of :func:`timing_of`: its turns and rounds listed where any of them is recorded (a
    log without ``at`` has none: its length and each player's time are null, "not recorded")."""
    found = timing_of(source)
    recorded = any(span.seconds is not None for span in [*found.turns, *found.rounds])
    return GameTime(length_seconds=found.length,
                    turns=[PeriodTime(number=t.number, player=t.player, seconds=t.seconds)
                           for t in found.turns if recorded],
                    rounds=[PeriodTime(number=r.number, player=None, seconds=r.seconds)
                            for r in found.rounds if recorded],
                    players=[PlayerTime(player=p, seconds=s) for p, s in found.players.items()])
