"""What one player may not know at one point of a game: the names a per-player view hides (docs/secrets.md).

Each game's ``secrets.py`` says what its logs hold that a rule keeps hidden, as ``HIDDEN``, a :data:`Hidden`
function (the registry's ``GameRules.secrets``): given the player who looks, the game's history up to the point
looked at (every stored event, voided lines and corrections included) and the state there, it returns the names
that player may not see there. A game with no hidden information returns none (:func:`nothing_hidden`), and a
view of it is the full view. Which words of an output are then hidden is one generic step above the domain
(``projections/reports/redaction.py``): this module decides *what* is secret, never how an output is written.
"""

from __future__ import annotations

from itertools import takewhile
from typing import Any, Callable, Iterable

from gamelog.domain.games import GAMES

Hidden = Callable[[str, Iterable[Any], Any], frozenset[str]]
"""``(viewer, history up to the point, state at the point) -> names the viewer may not see there``."""


def nothing_hidden(viewer: str, history: Iterable[Any], state: Any) -> frozenset[str]:
    """The :data:`Hidden` of a game whose logs hold nothing a rule keeps from a player: every name may be shown."""
    return frozenset()


def hidden_from(game: str, viewer: str, history: Iterable[Any], state: Any) -> frozenset[str]:
    """The names ``viewer`` may not see in game ``game`` at ``state``'s point, as the game's plug-in decides.

    ``history`` is the game's events in line order, the header's first (the whole history may be given: only
    the events up to ``state.line`` are read); ``state`` is the game's state at the point looked at
    (``domain.replay.state_at``). Raises KeyError for a game the registry does not hold.
    """
    hidden = GAMES[game].secrets or nothing_hidden
    return frozenset(hidden(viewer, takewhile(lambda event: event.line <= state.line, history), state))
