"""The time of play, read off the lines' ``at`` (docs/log-format.md): the game's length, each turn's or round's
time, and each player's (the time of their turns). Pure: the times are the lines', never a clock's.

A time needs both its ends stamped: a log without ``at`` (written by hand, or by a tool that keeps no time) has no
time at all, and every figure is None ("not recorded", never zero).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Iterable

from gamelog.domain.events import TurnStarted


@dataclass
class Span:
    """A turn or a round: its number, whose it is (a turn's player; None for a round), when it began (its first
    line's ``at``, None when not stamped), and its length in seconds (None: not recorded)."""

    number: int
    player: str | None
    began: datetime | None
    seconds: int | None = None


@dataclass
class Timing:
    """The game's length, its turns and rounds, and each player's time in seconds (None: not recorded)."""

    length: int | None
    turns: list[Span] = field(default_factory=list)
    rounds: list[Span] = field(default_factory=list)
    players: dict[str, int | None] = field(default_factory=dict)


def stamp(at: str | None) -> datetime | None:
    """A line's ``at`` as a time (None: no ``at``, or one that is no ISO 8601 time with its zone)."""
    if not at:
        return None
    try:
        when = datetime.fromisoformat(at[:-1] + "+00:00" if at.endswith("Z") else at)
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


def timing(lines: Iterable[tuple[int, Any]], players: list[str],
           round_of: Callable[[Any], int | None] | None = None) -> Timing:
    """The time of play of the recorded ``lines`` ((line, event) in order, the header's first) of a game of
    ``players``; ``round_of`` says which round a line begins (the game's ``GameRules.round_of``), None without rounds.

    A turn lasts from its ``turn_started`` to the next turn's (the last one, to the last stamped line); a round
    likewise; a player's time is the sum of their turns' (None when any of them is not recorded). The game's
    length runs from its header's ``at`` (or its first line's) to its last stamped line's: a log whose first lines
    are not stamped has none."""
    turns: list[Span] = []
    rounds: list[Span] = []
    first = last = None
    for seen, (_, event) in enumerate(lines):
        when = stamp(getattr(event, "at", None))
        if when is not None:
            if seen < 2 and first is None:  # the game began at its header, or its first line: else, not recorded
                first = when
            last = when
        if type(event) is TurnStarted:
            turns.append(Span(len(turns) + 1, event.player, when))
        begun = round_of(event) if round_of is not None else None
        if begun is not None:
            rounds.append(Span(begun, None, when))
    for spans in (turns, rounds):
        for span, following in zip(spans, [*spans[1:], None]):
            end = following.began if following is not None else last
            if span.began is not None and end is not None:
                span.seconds = int((end - span.began).total_seconds())
    length = int((last - first).total_seconds()) if first is not None and last is not first else None
    own: dict[str, int | None] = {}
    for player in players:
        times = [t.seconds for t in turns if t.player == player]
        own[player] = sum(times) if times and None not in times else None  # type: ignore[arg-type]
    return Timing(length, turns, rounds, own)


def duration(seconds: int | None) -> str:
    """A time in words: "1 h 05 min", "4 min 10 s", "40 s"; "not recorded" for None."""
    if seconds is None:
        return "not recorded"
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"
