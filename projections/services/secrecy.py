"""Per-player views (``--as PLAYER``): what one player may know at one point of a game (docs/secrets.md).

The game's plug-in decides which names that player may not see there (``domain.secrets.hidden_from``, each game's
``secrets.py``); :class:`~gamelog.projections.reports.redaction.Redaction` replaces them in whatever a service
gives. The point is the one the output shows: the state asked for (``replay``, :meth:`gamelog.Game.state`), else
the end of the history (a report, an audit, a what-if, the HTML report's embedded states: a secret scored by the
end is public in all of it). The stored history is never changed.

A view shows no value computed over what it hides: where it hides anything, an audit's ``fingerprint`` (the chain
head of the whole history, which a guess of the secret put in place of the placeholder would match) gives way to
the view's own, ``view_fingerprint``: the chain head of the history as the view shows it (:func:`view_fingerprint`);
and no list is in an order a hidden value makes (:func:`what_if_view`).
"""

from __future__ import annotations

from itertools import chain, groupby
from typing import Any, Iterable

import msgspec
from msgspec import UNSET

from gamelog.domain.replay import state_at
from gamelog.domain.replay_document import StreamedRows
from gamelog.domain.games import GAMES
from gamelog.domain.secrets import hidden_from, nothing_hidden
from gamelog.projections.reports.documents import Audit, Finding, WhatIf
from gamelog.projections.reports.redaction import Redaction
from gamelog.projections.store.verify import fingerprint_of

from .errors import PlayerNotFound
from .sources import Source

__all__ = ["NO_SEAT", "every_players_view", "fingerprinted", "player_not_found", "redaction", "redaction_at",
           "view_fingerprint", "what_if_view"]

NO_SEAT = "\0"
"""The viewer who holds no seat at the table (a name no command line can give): what they may not see is what any
player keeps from another, so what they see is what every player may know."""


def player_not_found(game_id: str, players: Iterable[str], player: str) -> PlayerNotFound:
    """The error for ``player``, who is not one of ``players`` of ``game_id``."""
    return PlayerNotFound(f"no player {player!r} in {game_id!r} (players: {', '.join(players)})")


def redaction_at(source: Source, player: str, state: Any) -> Redaction:
    """What ``player`` may not see of ``source``'s game at ``state``'s point (its state there, from
    ``domain.replay.state_at``). Raises :class:`~.errors.PlayerNotFound` for a player not in the game."""
    players = list(state.header.players)
    if player not in players:
        raise player_not_found(state.header.id, players, player)
    return _seen_by(source, player, state)


def _seen_by(source: Source, viewer: str, state: Any) -> Redaction:
    """What ``viewer`` may not see of ``source``'s game at ``state``'s point, as the game's plug-in decides."""
    # What the view shows as it is, never as a secret's word: the game's id, its game's name, its players.
    kept = [state.header.id, source.game, *state.header.players]
    return Redaction(hidden_from(source.game, viewer, source.history(), state), kept=kept)


def redaction(source: Source, player: str) -> Redaction:
    """What ``player`` may not see of ``source``'s game at the end of its history (:data:`NO_SEAT`: what every
    player may know, :func:`every_players_view`).

    Raises :class:`~.errors.PlayerNotFound` for a player not in the game.
    """
    if player == NO_SEAT:
        return every_players_view(source)
    events = iter(source.history())
    header = next(events)
    players = list(header.event.players)
    if player not in players:  # before folding the game: an unknown player costs nothing
        raise player_not_found(header.event.id, players, player)
    return redaction_at(source, player, state_at(source.game, chain([header], events)))


def every_players_view(source: Source) -> Redaction:
    """What every player may know of ``source``'s game at the end of its history: hidden, all that any player keeps
    from another there (another player's secret, for each player), as a viewer with no seat sees it. A game whose
    plug-in hides nothing is not folded for it."""
    if GAMES[source.game].secrets in (None, nothing_hidden):
        return Redaction()
    return _seen_by(source, NO_SEAT, state_at(source.game, source.history()))


def view_fingerprint(source: Source, view: Redaction) -> str:
    """The fingerprint of ``source``'s history as ``view`` shows it: the chain head (``verify``'s, over the same
    encoding) of every event with what the view hides replaced, as ``Game.as_player(...).history()`` gives them.
    It is computed over what the viewer sees, so it confirms no guess of what the view hides."""
    return fingerprint_of(source.id, view.each(source.history()))


def fingerprinted(audit: Audit, source: Source, view: Redaction) -> Audit:
    """``audit``'s head (or whole document), already seen through ``view``, with the fingerprint a view may show:
    the game's own when the view hides nothing (the view is then the full one), else none but the view's own
    (``view_fingerprint``). ``audit`` itself is not changed."""
    if not view:
        return audit
    return msgspec.structs.replace(audit, fingerprint=UNSET, view_fingerprint=view_fingerprint(source, view))


def what_if_view(diff: WhatIf, view: Redaction) -> WhatIf:
    """The what-if ``diff`` as the player of ``view`` may see it. Its findings gone and new are listed by line, rule,
    severity and message: in a view that hides anything, findings alike but for their message are in the order of
    the message as the view shows it, so that their order tells nothing of what the messages hide (two findings of
    a line under one rule naming two hidden cards). ``diff`` itself is not changed."""
    if not view:
        return diff
    seen = view(diff)
    return msgspec.structs.replace(seen, findings_gone=_in_shown_order(seen.findings_gone),
                                   findings_new=_in_shown_order(seen.findings_new))


def _in_shown_order(findings: Iterable[Finding]) -> Any:
    """``findings`` (in line, rule and severity order), each run alike in those sorted by what it shows; rows read
    as they are written stay so (a run is one line's: a few findings are held at a time)."""
    def ordered() -> Iterable[Finding]:
        for _, alike in groupby(findings, key=lambda f: (f.line, f.rule, f.severity)):
            yield from sorted(alike, key=lambda f: (f.message, f.player or ""))
    return StreamedRows(ordered) if isinstance(findings, StreamedRows) else list(ordered())
