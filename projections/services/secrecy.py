"""Per-player views (``--as PLAYER``): what one player may know at one point of a game (docs/secrets.md).

The game's plug-in decides which names that player may not see there (``domain.secrets.hidden_from``, each game's
``secrets.py``); :class:`~gamelog.projections.reports.redaction.Redaction` replaces them in whatever a service
gives. The point is the one the output shows: the state asked for (``replay``, :meth:`gamelog.Game.state`), else
the end of the history (a report, an audit, a what-if, the HTML report's embedded states: a secret scored by the
end is public in all of it). The stored history is never changed.
"""

from __future__ import annotations

from itertools import chain
from typing import Any, Iterable

from gamelog.domain.replay import state_at
from gamelog.domain.secrets import hidden_from
from gamelog.projections.reports.redaction import Redaction

from .errors import PlayerNotFound
from .sources import Source

__all__ = ["PUBLIC", "Public", "player_not_found", "redaction", "redaction_at"]


class Public:
    """The viewer who is none of the players (a spectator): what every player may know. A player's view hides
    the others' secrets; this one hides every player's (each secret is hidden from every other player)."""

    def __repr__(self) -> str:
        return "PUBLIC"


PUBLIC = Public()
"""The public view: pass it where a player is asked for (``as_player``)."""


def player_not_found(game_id: str, players: Iterable[str], player: str) -> PlayerNotFound:
    """The error for ``player``, who is not one of ``players`` of ``game_id``."""
    return PlayerNotFound(f"no player {player!r} in {game_id!r} (players: {', '.join(players)})")


def redaction_at(source: Source, player: str | Public, state: Any) -> Redaction:
    """What ``player`` (or :data:`PUBLIC`) may not see of ``source``'s game at ``state``'s point (its state there,
    from ``domain.replay.state_at``). Raises :class:`~.errors.PlayerNotFound` for a player not in the game."""
    players = list(state.header.players)
    if player is PUBLIC:
        history = list(source.history())
        return Redaction(frozenset().union(*(hidden_from(source.game, p, history, state) for p in players)))
    if player not in players:
        raise player_not_found(state.header.id, players, player)
    return Redaction(hidden_from(source.game, player, source.history(), state))


def redaction(source: Source, player: str | Public) -> Redaction:
    """What ``player`` may not see of ``source``'s game at the end of its history.

    Raises :class:`~.errors.PlayerNotFound` for a player not in the game.
    """
    events = iter(source.history())
    header = next(events)
    players = list(header.event.players)
    if player is not PUBLIC and player not in players:  # before folding the game: an unknown player costs nothing
        raise player_not_found(header.event.id, players, player)
    return redaction_at(source, player, state_at(source.game, chain([header], events)))
