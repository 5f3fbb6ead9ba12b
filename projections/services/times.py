"""The time of play of a game (its lines' ``at``), as the reports and ``stats`` show it (``domain.timing``)."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from gamelog.domain.games import GAMES
from gamelog.domain.statistics import PlayTime
from gamelog.domain.timing import Timing, timing
from gamelog.projections.reports.documents import GameTime, PeriodTime, PlayerTime

from .sources import Source

__all__ = ["game_time", "play_times", "time_and_state", "time_document", "timing_of"]


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
    return time_document(timing_of(source))


def time_and_state(source: Source) -> tuple[GameTime, Any]:
    """:func:`game_time` and the game's state at its end (its engine's fold, deciding nothing), in one read of the
    history: what a report adds to what the views hold (the time of play, where the result stands)."""
    rules = GAMES[source.game]
    line_recorded = rules.engine.LINE_RECORDED
    events = iter(source.history())
    first = next(events)
    engine = rules.engine(first.event, first.line, opening=False, history=False)
    engine.apply(first)

    def recorded() -> Iterator[tuple[int, Any]]:  # every event folded as the time is read off the recorded lines
        yield first.line, first.event
        for event in events:
            engine.apply(event)
            if type(event) is line_recorded:
                yield event.line, event.event

    found = timing(recorded(), list(first.event.players), rules.round_of)
    return time_document(found), engine.state


def time_document(found: Timing) -> GameTime:
    """The reports' document of a game's :class:`~domain.timing.Timing`."""
    recorded = any(span.seconds is not None for span in [*found.turns, *found.rounds])
    return GameTime(length_seconds=found.length,
                    turns=[PeriodTime(number=t.number, player=t.player, seconds=t.seconds)
                           for t in found.turns if recorded],
                    rounds=[PeriodTime(number=r.number, player=None, seconds=r.seconds)
                            for r in found.rounds if recorded],
                    players=[PlayerTime(player=p, seconds=s) for p, s in found.players.items()])


def play_times(sources: Iterable[Source]) -> tuple[int | None, list[PlayTime]]:
    """The games' mean length in seconds (None: no game's lines have ``at``) and each player's time (the seconds of
    their turns), over the games whose lines record them: what ``gamelog stats`` adds."""
    lengths: list[int] = []
    players: dict[str, list[int]] = {}
    for source in sources:
        found = timing_of(source)
        if found.length is not None:
            lengths.append(found.length)
        for player, seconds in found.players.items():
            if seconds is not None:
                players.setdefault(player, []).append(seconds)
    mean = round(sum(lengths) / len(lengths)) if lengths else None
    return mean, [PlayTime(player=p, games=len(s), seconds=sum(s), mean_seconds=round(sum(s) / len(s)))
                  for p, s in sorted(players.items(), key=lambda ps: (ps[0].casefold(), ps[0]))]
