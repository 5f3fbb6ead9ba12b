"""Following the store: every device's stream wakes when any process stores an event.

One task a process asks the store, a few times a second, whether its notification log moved
(``gamelog.Store.moved``), and catches up the games it holds that moved (``held.HeldGames.advance``: only the new
events are read); then each stream waiting on the wake-up reads its game's new lines from memory. So a line stored by
another ``gamelog serve`` process on the same store reaches this one's devices as well; a line this process records
wakes them at once (:meth:`Follower.nudge`).
"""

from __future__ import annotations

import asyncio

import anyio.to_thread

from gamelog.cli.web.held import HeldGames

EVERY = 0.2
"""Seconds between two reads of the store's position: a device sees a line within about this much, plus its read."""


class Follower:
    """The store's position, and a wake-up for whoever waits for it to move."""

    def __init__(self, held: HeldGames):
        """``held``: the games the server keeps decided, caught up each time the store moves."""
        self.held = held
        self._moved = asyncio.Event()

    def moved(self) -> asyncio.Event:
        """What is set once the store moves past where it is now: take it before reading, wait on it after."""
        return self._moved

    def nudge(self) -> None:
        """Wake every waiter now (a line this process stored is in the games it holds already)."""
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()

    async def run(self) -> None:
        """Catch the held games up each time the store moves, until cancelled, waking the waiters."""
        while True:
            try:
                moved = await anyio.to_thread.run_sync(self.held.advance)
            except Exception:  # a store that cannot be read now: the streams' requests say so when they read it
                moved = False
            if moved:
                self.nudge()
            await asyncio.sleep(EVERY)


async def wait(event: asyncio.Event, timeout: float) -> bool:
    """Wait for ``event`` at most ``timeout`` seconds; whether it came."""
    try:
        await asyncio.wait_for(event.wait(), timeout)
        return True
    except TimeoutError:
        return False
