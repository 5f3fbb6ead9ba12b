"""What an engine keeps of the history it has decided, so that a correction can decide it again.

A correction makes the log as if the voided line had never been written: the
engine goes back to a state it had before that line (a :class:`Checkpoints`
entry), decides every later line again without it, and stores what changed.
For that it needs every line's events since the checkpoint (an
:class:`EventIndex`): the recorded ones to decide again, the derived ones to
compare with what the rules decide now.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Iterator, Protocol, runtime_checkable

from gamelog.domain.events import Derived

CHECKPOINT_EVERY = 256
"""Event lines between two checkpoints: a correction decides again at most this many lines before the voided one."""

CHECKPOINTS_KEPT = 48
"""Checkpoints kept; older ones are thinned out (every other one dropped), so that
recent lines stay cheap to correct and memory stays bounded on logs of any length."""


@runtime_checkable
class EventIndex(Protocol):
    """Where an engine keeps every event stored for each line, in order, for a correction to decide them again.

    The domain keeps them in memory (:class:`LineIndex`); a floor above that reads logs of millions of lines hands
    the engine one that keeps older lines on disk (``projections.importing.spill.SpilledIndex``): these two methods.
    """

    def add(self, line: int, event: Derived) -> None:
        """Keep ``event``, stored for ``line`` (lines never decrease)."""

    def between(self, first: int, last: int) -> Iterator[tuple[int, Derived]]:
        """(line, event) for every event of lines ``first`` to ``last``, in the order they were stored."""


class LineIndex:
    """An :class:`EventIndex` in memory."""

    def __init__(self) -> None:
        self._events: list[tuple[int, Derived]] = []

    def add(self, line: int, event: Derived) -> None:
        """Keep ``event``, stored for ``line`` (lines never decrease)."""
        self._events.append((line, event))

    def between(self, first: int, last: int) -> Iterator[tuple[int, Derived]]:
        """(line, event) for every event of lines ``first`` to ``last``, in the order they were stored."""
        start = bisect_left(self._events, first, key=lambda pair: pair[0])
        for line, event in self._events[start:]:
            if line > last:
                return
            yield line, event


class Checkpoints:
    """States of the game after some lines, encoded (``GameState.snapshot``), to decide again from.

    Every checkpoint is a state of the log *as it stands*: one taken after a
    line that a correction later voids is dropped (:meth:`drop_from`).
    """

    def __init__(self) -> None:
        self._lines: list[int] = []
        self._snapshots: list[bytes] = []
        self._since = 0

    def tick(self) -> bool:
        """Count one more event line; True when a checkpoint is due before it."""
        self._since += 1
        return self._since >= CHECKPOINT_EVERY

    def take(self, line: int, snapshot: bytes) -> None:
        """Keep the state after ``line``."""
        self._lines.append(line)
        self._snapshots.append(snapshot)
        self._since = 0
        if len(self._lines) > CHECKPOINTS_KEPT:
            # Thin the older half: recent corrections stay cheap, old ones replay further.
            half = len(self._lines) // 2
            self._lines = self._lines[:half:2] + self._lines[half:]
            self._snapshots = self._snapshots[:half:2] + self._snapshots[half:]

    def before(self, line: int) -> tuple[int, bytes] | None:
        """The latest checkpoint taken after a line before ``line``, or None (decide again from the header)."""
        i = bisect_left(self._lines, line)
        return None if i == 0 else (self._lines[i - 1], self._snapshots[i - 1])

    def drop_from(self, line: int) -> None:
        """Forget the checkpoints taken at or after ``line`` (they hold what a correction voided)."""
        i = bisect_left(self._lines, line)
        del self._lines[i:], self._snapshots[i:]

    def __len__(self) -> int:
        return len(self._lines)

