"""Who a request is: the host, a seat or a spectator, from the bearer token it carries (docs/serve.md, "Security").

The three roles are this entry point's words: below it a game is seen whole, as one of its players
(``Game.as_player``) or as no player (``Game.public``); :meth:`Viewer.sees` says which a role is.

The host's token is the host secret (``gamelog.host_secret``: kept in the store, or given by hand through
``GAMELOG_HOST_TOKEN`` or a file). Every seat's and spectator's token is derived from it (HMAC-SHA256 of the
game's id and the player), so nothing else is kept: a process that knows the host's token knows every token, and
one that does not cannot make any. Tokens are compared in constant time and never logged.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from gamelog.game import Game
from gamelog.host_secret import MIN_BITS, estimated_bits

HOST, SEAT, SPECTATOR = "host", "seat", "spectator"


@dataclass(frozen=True)
class Viewer:
    """Who looks: the ``host`` (the whole game), a ``seat`` (its ``player``'s view) or a ``spectator`` (the public
    view)."""

    role: str
    player: str | None = None

    def sees(self, game: Game) -> Game:
        """``game`` as this viewer may know it."""
        if self.role == HOST:
            return game
        return game.public() if self.role == SPECTATOR else game.as_player(self.player)


class Tokens:
    """The tokens of one host: its own, and each game's seats' and spectators'."""

    def __init__(self, host: str):
        """Raises ValueError for a host token weaker than ``host_secret.MIN_BITS``."""
        if estimated_bits(host) < MIN_BITS:
            raise ValueError(f"a host token has at least {MIN_BITS} bits (length × log2 of the characters used)")
        self._host = host.encode("utf-8")

    def _derived(self, *parts: str) -> str:
        message = "\0".join(parts).encode("utf-8")
        return base64.urlsafe_b64encode(hmac.new(self._host, message, hashlib.sha256).digest()).decode().rstrip("=")

    def seat(self, game_id: str, player: str) -> str:
        """The token of ``player``'s seat at ``game_id``."""
        return self._derived(SEAT, game_id, player)

    def spectator(self, game_id: str) -> str:
        """The token of a spectator of ``game_id``."""
        return self._derived(SPECTATOR, game_id)

    def is_host(self, token: str) -> bool:
        return hmac.compare_digest(token.encode("utf-8"), self._host)

    def viewer(self, token: str, game_id: str | None, players: list[str]) -> Viewer | None:
        """Who ``token`` is at ``game_id`` (whose players are ``players``), or None: no one this host made. Every
        candidate is compared, so the time taken does not tell which one came closest."""
        found = Viewer(HOST) if self.is_host(token) else None
        if game_id is None:
            return found
        given = token.encode("utf-8")
        if hmac.compare_digest(given, self.spectator(game_id).encode()):
            found = found or Viewer(SPECTATOR)
        for player in players:
            if hmac.compare_digest(given, self.seat(game_id, player).encode()):
                found = found or Viewer(SEAT, player)
        return found
