"""The games a server serves, kept decided in memory: a request or a stream wake-up costs only what is new.

Each game asked for is loaded once (``gamelog.Store.game``: its ``Game``, decided in memory when first asked) and
kept while devices look at it: it moves forward with each entry recorded through it, and with what another process
stores into it, read when the store's notification log says that game moved (:meth:`HeldGames.advance`). A game
nobody has asked for in :data:`IDLE` seconds is forgotten, and at most :data:`MOST` are kept (the least recently
asked for goes first): memory stays bounded however many games a store holds.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Callable

from gamelog.game import Game
from gamelog.stores import Store

IDLE = 600.0
"""Seconds a game stays held after it was last asked for."""
MOST = 64
"""The most games held at once."""


class HeldGames:
    """The games of ``store`` this server has been asked for, each its ``Game`` (the whole game's view), decided
    in memory; ``clock`` gives the time in seconds (monotonic)."""

    def __init__(self, store: Store, *, idle: float = IDLE, most: int = MOST,
                 clock: Callable[[], float] = time.monotonic):
        self.store = store
        self.idle, self.most, self.clock = idle, most, clock
        self.position = store.position()  # what is stored up to here is in every game loaded from now on
        self._games: OrderedDict[str, tuple[Game, float]] = OrderedDict()
        self._lock = threading.Lock()

    def game(self, game_id: str) -> Game:
        """The game ``game_id``, held (loaded first if it is not). Raises ``GameNotFound`` and the store's
        errors."""
        with self._lock:
            held = self._games.pop(game_id, None)
        game = held[0] if held is not None else self.store.game(game_id)
        with self._lock:
            self._games[game_id] = (self._games.pop(game_id, (game, 0.0))[0], self.clock())
            self._forget()
            return self._games[game_id][0]

    def _forget(self) -> None:
        """Forget the games idle too long, and the least recently asked for beyond :data:`MOST`."""
        now = self.clock()
        while self._games:
            game_id, (_, seen) = next(iter(self._games.items()))
            if now - seen <= self.idle and len(self._games) <= self.most:
                return
            del self._games[game_id]

    def held(self) -> list[str]:
        """The ids of the games held, the least recently asked for first."""
        with self._lock:
            return list(self._games)

    def advance(self) -> list[str] | None:
        """Read what was stored since the last call (by any process) into the games held that it moved: their ids,
        or None when the store did not move at all. Raises the store's errors."""
        position, moved = self.store.moved(self.position, self.held())
        if position == self.position:
            return None
        for game_id in moved:
            with self._lock:
                held = self._games.get(game_id)
            if held is not None:
                held[0].catch_up()
        self.position = position
        return list(moved)
