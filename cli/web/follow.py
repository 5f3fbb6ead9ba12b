"""Following the store: a device's stream wakes when any process stores an event of its game.

One task a process asks the store whether its notification log moved (``gamelog.Store.moved``) each time the store
says an event was stored (PostgreSQL's LISTEN/NOTIFY: ``gamelog.Store.listen``), or a few times a second where it
says nothing (SQLite), and catches up the games it holds that moved (``held.HeldGames.advance``: only the new
events are read); then each stream waiting on one of those games reads its new lines from memory, and the others
sleep on (a tournament's other games cost nothing). So a line stored by another ``gamelog serve`` process on the
same store reaches this one's devices as well; a line this process records wakes its game's streams at once
(:meth:`Follower.nudge`).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Iterable

import anyio.to_thread

from gamelog.cli.web.held import HeldGames

EVERY = 0.2
"""Seconds between two reads of the store's position where it tells no one (SQLite): a device sees a line within
about this much, plus its read."""
LISTENING = 1.0
"""Seconds a wait for PostgreSQL's notification lasts at most (then the position is read all the same): how long
stopping the server waits for the listening thread."""


class Follower:
    """The store's position, and a wake-up for whoever waits for a game to move."""

    def __init__(self, held: HeldGames):
        """``held``: the games the server keeps decided, caught up each time the store moves."""
        self.held = held
        self._moved: dict[str, asyncio.Event] = {}  # a game's id -> what its waiters wait on
        self._reading = threading.Lock()  # held while the store is read: stop() waits for it
        self._stopped = False

    def _advance(self) -> list[str] | None:
        """:meth:`HeldGames.advance`, unless stopped (the store is about to close): the held games it moved, None
        when the store did not move. Runs in a worker thread."""
        with self._reading:
            return None if self._stopped else self.held.advance()

    def stop(self) -> None:
        """Read the store no more, once the read under way (in its worker thread, which cancelling the task does not
        stop) returned: the store may be closed then (closing a SQLite connection another thread reads through
        crashes the process). Blocks: call it in a worker thread."""
        with self._reading:
            self._stopped = True

    def moved(self, game_id: str) -> asyncio.Event:
        """What is set once the game ``game_id`` moves past where it is now: take it before reading, wait on it
        after."""
        return self._moved.setdefault(game_id, asyncio.Event())

    def nudge(self, game_ids: Iterable[str]) -> None:
        """Wake the waiters of ``game_ids`` now (a line this process stored is in the game it holds already); only
        theirs: a tournament's other streams sleep on."""
        for game_id in game_ids:
            moved = self._moved.pop(game_id, None)
            if moved is not None:
                moved.set()

    async def run(self) -> None:
        """Catch the held games up each time the store moves, until cancelled, waking the waiters."""
        try:
            listener = await anyio.to_thread.run_sync(self.held.store.listen)
        except Exception:  # notifications cannot be had now: the position is read every so often instead
            listener = None
        try:
            while True:
                try:
                    moved = await anyio.to_thread.run_sync(self._advance)
                except Exception:  # a store that cannot be read now: the streams' requests say so when they read it
                    moved = None
                if moved is not None:  # and a game waited on but no longer held (forgotten while idle) may have
                    held = set(self.held.held())
                    self.nudge([*moved, *(game_id for game_id in list(self._moved) if game_id not in held)])
                if listener is None:
                    await asyncio.sleep(EVERY)
                    continue
                try:
                    await anyio.to_thread.run_sync(listener.wait, LISTENING)
                except Exception:  # notifications lost: read the position every so often from now on
                    listener.close()
                    listener = None
        finally:
            if listener is not None:
                listener.close()


async def wait(event: asyncio.Event, timeout: float) -> bool:
    """Wait for ``event`` at most ``timeout`` seconds; whether it came."""
    try:
        await asyncio.wait_for(event.wait(), timeout)
        return True
    except TimeoutError:
        return False
