"""What a log declares about a game's result, and where each point of a score comes from: a game's plug-in says.

Another tool, or an archive of games, may declare a result the log's own
lines do not give: a winner, a player's final score, an adjustment of one
source of points ("the table did not apply this Imperial point"). A game's
lines for these are its own; :class:`ResultSources` is how generic code (``gamelog
reconcile``) reads them: ``declarations`` turns a stored event into the
declarations it makes, ``source`` names the source of the points a recorded
line scores (``order`` lists the sources as reports show them; ``types`` names the line
types that declare). Nothing here
applies a declaration: the rules compare them with the log (findings), and a
what-if applies an adjustment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal


@dataclass(frozen=True)
class Declared:
    """One declaration of a log line ``line``.

    ``kind`` is ``winner`` (``player``: who is declared to have won; None: no
    winner), ``score`` (``value``: ``player``'s final score) or ``adjustment``
    (``value``: the points ``player`` ends with from ``origin``; ``held``:
    what the log gives, ``voids``: the lines of the points it takes away,
    ``added``: the points it adds that no line holds). ``by`` says who
    declares it (the line's reason).
    """

    kind: Literal["winner", "score", "adjustment"]
    line: int
    player: str | None
    value: int | None = None
    by: str = ""
    origin: str = ""
    held: int = 0
    voids: tuple[int, ...] = ()
    added: int = 0


def _no_source(recorded: Any) -> str | None:
    return None


def _no_declarations(event: Any) -> list[Declared]:
    return []


@dataclass(frozen=True)
class ResultSources:
    """A game's reading of results: the source of a recorded line's points, and its events' declarations.

    ``source(recorded)`` names where the points a recorded event scores come
    from (None: the score's measure names it); ``order`` lists the sources in
    the order reports show them (others after, by name); ``declarations(event)``
    the declarations a stored event makes (a recorded line's ``event``, or a
    derived event that weighs one).
    """

    source: Callable[[Any], str | None] = _no_source
    order: tuple[str, ...] = ()
    declarations: Callable[[Any], list[Declared]] = _no_declarations
    types: tuple[str, ...] = ()
    """The line types that declare (a declared winner, score or adjustment): a log without one declares nothing."""
