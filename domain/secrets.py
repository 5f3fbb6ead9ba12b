"""What one player may not know at one point of a game: the secrets a per-player view hides (docs/secrets.md).

Each game's ``secrets.py`` says what its logs hold that a rule keeps hidden, as ``HIDDEN``, a :data:`Hidden`
function (the registry's ``GameRules.secrets``): given the player who looks, the game's history up to the point
looked at (every stored event, voided lines and corrections included) and the state there, it returns the
:class:`Secrets` that player may not see there: every spelling of each hidden thing, and how the game folds a
name (so that a field holding the thing in another letter case or spelling is known for it). A game with no
hidden information returns none (:func:`nothing_hidden`), and a view of it is the full view. Where an output's
values are then hidden is one generic step above the domain (``projections/reports/redaction.py``): this module
decides *what* is secret, never how an output is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import takewhile
from typing import Any, Callable, Iterable, Iterator

from gamelog.domain.corrections import replacement_of
from gamelog.domain.events import Correction
from gamelog.domain.games import GAMES


@dataclass(frozen=True)
class Secrets:
    """What one player may not see at one point: ``names``, every spelling of each hidden thing (a card's printed
    name and its alias, say), and ``fold``, the game's way of comparing names (letter case, spaces, punctuation):
    a value that folds as one of ``names`` does *is* that thing. Free text hides a name only as whole words."""

    names: frozenset[str] = frozenset()
    fold: Callable[[str], str] = str.casefold

    def __bool__(self) -> bool:
        """True when something is hidden."""
        return any(self.names)


Hidden = Callable[[str, Iterable[Any], Any], "Secrets | Iterable[str]"]
"""``(viewer, history up to the point, state at the point) -> what the viewer may not see there``: a
:class:`Secrets`, or the bare names (compared in any letter case). A viewer who is none of the players (no seat)
may see only what every player may know (the statistics' lines are seen so)."""


def nothing_hidden(viewer: str, history: Iterable[Any], state: Any) -> Secrets:
    """The :data:`Hidden` of a game whose logs hold nothing a rule keeps from a player: every name may be shown."""
    return Secrets()


def with_replacements(history: Iterable[Any], line_recorded: type) -> Iterator[Any]:
    """``history`` with each correction's replacement (``domain.corrections``) as a recorded line of its own at the
    correction's line, right after it: a secret a replacement holds is a secret from that line on, as the game's
    ``HIDDEN`` reads it from the recorded lines."""
    for event in history:
        yield event
        if type(event) is line_recorded and type(event.event) is Correction and event.event.replacement is not None:
            yield line_recorded(line=event.line, event=replacement_of(event.event, line_recorded))


def hidden_from(game: str, viewer: str, history: Iterable[Any], state: Any) -> Secrets:
    """What ``viewer`` may not see in game ``game`` at ``state``'s point, as the game's plug-in decides.

    ``history`` is the game's events in line order, the header's first (the whole history may be given: only
    the events up to ``state.line`` are read); ``state`` is the game's state at the point looked at
    (``domain.replay.state_at``). Raises KeyError for a game the registry does not hold.
    """
    rules = GAMES[game]
    hidden = rules.secrets or nothing_hidden
    seen = hidden(viewer, with_replacements(takewhile(lambda event: event.line <= state.line, history),
                                            rules.engine.LINE_RECORDED), state)
    if isinstance(seen, Secrets):
        return Secrets(frozenset(name for name in seen.names if name), seen.fold)
    return Secrets(frozenset(name for name in seen if name))  # a plug-in that names them only
