"""Following the store: every device's stream wakes when any process stores an event.

One task a process reads the store's notification log position (``gamelog.Store.position``) a few times a
second; each stream waits on it, then reads its game's new lines from the store. So a line stored by another
``gamelog serve`` process on the same PostgreSQL store reaches this one's devices as well: nothing is passed
through process memory but the wake-up.
"""

from __future__ import annotations

import asyncio

from typing import Any

import anyio.to_thread

EVERY = 0.2
"""Seconds between two reads of the store's position: a device sees a line within about this much, plus its read."""


class Follower:
    """The store's position, and a wake-up for whoever waits for it to move."""

    def __init__(self, store: Any):
        """``store``: the open store (``gamelog.Store``)."""
        self.store = store
        self.position = -1
        self._moved = asyncio.Event()

    def moved(self) -> asyncio.Event:
        """What is set once the store moves past where it is now: take it before reading, wait on it after."""
        return self._moved

    async def run(self) -> None:
        """Read the store's position until cancelled, waking the waiters each time it moved."""
        while True:
            try:
                position = await anyio.to_thread.run_sync(self.store.position)
            except Exception:  # a store that cannot be read now: the streams read it themselves and say so
                position = self.position
            if position != self.position:
                self.position = position
                moved, self._moved = self._moved, asyncio.Event()
                moved.set()
            await asyncio.sleep(EVERY)


async def wait(event: asyncio.Event, timeout: float) -> bool:
    """Wait for ``event`` at most ``timeout`` seconds; whether it came."""
    try:
        await asyncio.wait_for(event.wait(), timeout)
        return True
    except TimeoutError:
        return False
