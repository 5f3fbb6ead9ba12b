"""Per-player views (``--as PLAYER``): what one player may know at one point of a game (docs/secrets.md).

The game's plug-in decides which names that player may not see there (``domain.secrets.hidden_from``, each game's
``secrets.py``); :class:`~gamelog.projections.reports.redaction.Redaction` replaces them in whatever a service
gives. The point is the one the output shows: the state asked for (``replay``, :meth:`gamelog.Game.state`), else
the end of the history (a report, an audit, a what-if, the HTML report's embedded states: a secret scored by the
end is public in all of it). The stored history is never changed. PLAYER is a player's name in any case, or the
faction (the side) they play (:func:`player_named`).
"""

from __future__ import annotations

from itertools import chain
from typing import Any, Iterable

from gamelog.domain.games import GAMES
from gamelog.domain.replay import state_at
from gamelog.domain.secrets import hidden_from
from gamelog.projections.reports.redaction import Redaction

from .errors import PlayerNotFound
from .sources import Source

__all__ = ["PUBLIC", "Public", "player_named", "player_not_found", "redaction", "redaction_at", "seats_of"]


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


def seats_of(game: str, header: Any) -> list[tuple[str, str]]:
    """(player, the side they play) for each player of a game's header: the side as the game's statistics name it
    (a faction), the player's own name in a game without sides."""
    statistics = GAMES[game].statistics
    return [(p, statistics.side(header, p) if statistics is not None else p) for p in header.players]


def player_named(given: str, seats: Iterable[tuple[str, str]], where: str) -> str:
    """The player ``given`` names among ``seats`` ((player, side) pairs; ``where`` says whose, in messages): a
    player's name as written, else in any case, else the side (faction) one player plays, in any case and with or
    without "The". Raises :class:`~.errors.PlayerNotFound` naming the choices, for a name that is no player's nor
    side's, or that names more than one player (two players whose names differ only in case, a player named as
    another's faction)."""
    seats = list(dict.fromkeys(seats))
    players = list(dict.fromkeys(p for p, _ in seats))
    if given in players:
        return given
    folded = given.casefold()
    found = list(dict.fromkeys([p for p in players if p.casefold() == folded] +
                               [p for p, side in seats if side != p
                                and side.casefold() in (folded, folded.removeprefix("the "))]))
    if len(found) == 1:
        return found[0]
    sides = list(dict.fromkeys(side for p, side in seats if side != p))
    choices = f"players: {', '.join(players)}" + (f"; or a faction: {', '.join(sides)}" if sides else "")
    if found:
        raise PlayerNotFound(f"{given!r} names more than one player in {where}: {', '.join(found)} ({choices})")
    raise PlayerNotFound(f"no player {given!r} in {where} ({choices})")


def _viewer(source: Source, header: Any, player: str) -> str:
    """The player ``player`` names in ``source``'s game (:func:`player_named`)."""
    return player_named(player, seats_of(source.game, header), repr(header.id))


def redaction_at(source: Source, player: str | Public, state: Any) -> Redaction:
    """What ``player`` (a player's name in any case, or their faction; or :data:`PUBLIC`) may not see of
    ``source``'s game at ``state``'s point (its state there, from ``domain.replay.state_at``). Raises
    :class:`~.errors.PlayerNotFound` for a name that is no player's of the game (or more than one player's)."""
    if player is PUBLIC:
        history = list(source.history())
        return Redaction(frozenset().union(*(hidden_from(source.game, p, history, state)
                                             for p in state.header.players)))
    player = _viewer(source, state.header, player)
    return Redaction(hidden_from(source.game, player, source.history(), state))


def redaction(source: Source, player: str | Public) -> Redaction:
    """What ``player`` (a player's name in any case, or their faction) may not see of ``source``'s game at the end
    of its history.

    Raises :class:`~.errors.PlayerNotFound` for a name that is no player's of the game (or more than one player's).
    """
    events = iter(source.history())
    header = next(events)
    if player is not PUBLIC:
        player = _viewer(source, header.event, player)  # before folding the game: an unknown player costs nothing
    return redaction_at(source, player, state_at(source.game, chain([header], events)))
