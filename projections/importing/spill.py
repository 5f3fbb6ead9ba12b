"""A line index on disk, so that importing a log of any length takes bounded memory.

The engine keeps every line's recorded event, findings and counts, in case a
later correction has to decide the log again from before a line
(``domain.history.LineIndex``, an ``EventIndex``). On a log of millions of lines that would be
most of an import's memory, and corrections are rare: :class:`SpilledIndex`
keeps the latest events in memory and writes older ones, a chunk at a time,
to a temporary file, reading chunks back only when a correction asks for
their lines. The file is removed when the import ends (or when the process does).
"""

from __future__ import annotations

import tempfile
from bisect import bisect_left
from typing import BinaryIO, Iterator

import msgspec

from gamelog.domain.events import Derived

FLUSH = 20_000
"""Events kept in memory before they go to disk, as one chunk: small logs never touch the disk."""


class SpilledIndex:
    """The line index (a ``domain.history.EventIndex``), spilling to a temporary file; use it as a context manager.

    Lines only grow, so each chunk on disk covers a range of lines, in order.
    A chunk is one msgpack array of ``[line, class number, event]``; the
    classes are numbered in this object (the file is this process's own
    scratch space, never shared), and a chunk is decoded only when a
    correction asks for its lines.
    """

    def __init__(self) -> None:
        self._file: BinaryIO | None = None
        self._pending: list[tuple[int, Derived]] = []
        self._chunks: list[tuple[int, int, int, int]] = []  # last line, first line, offset, size
        self._size = 0
        self._classes: list[type] = []
        self._numbers: dict[type, int] = {}
        self._encoder = msgspec.msgpack.Encoder()

    def add(self, line: int, event: Derived) -> None:
        self._pending.append((line, event))
        if len(self._pending) >= FLUSH:
            self._flush()

    def _flush(self) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="gamelog-lines-")
        numbers = self._numbers
        for _, event in self._pending:
            if type(event) not in numbers:
                numbers[type(event)] = len(self._classes)
                self._classes.append(type(event))
        blob = self._encoder.encode([(line, numbers[type(event)], event) for line, event in self._pending])
        self._file.seek(self._size)
        self._file.write(blob)
        self._chunks.append((self._pending[-1][0], self._pending[0][0], self._size, len(blob)))
        self._size += len(blob)
        self._pending = []

    def between(self, first: int, last: int) -> Iterator[tuple[int, Derived]]:
        for last_line, first_line, offset, size in self._chunks[bisect_left(self._chunks, (first,)):]:
            if first_line > last:
                return
            self._file.seek(offset)
            chunk = msgspec.msgpack.decode(self._file.read(size), type=list[tuple[int, int, msgspec.Raw]])
            classes = self._classes
            yield from ((line, msgspec.msgpack.decode(raw, type=classes[number]))
                        for line, number, raw in chunk if first <= line <= last)
        yield from ((line, event) for line, event in self._pending if first <= line <= last)

    def close(self) -> None:
        """Remove the file (an index is not used again after its import)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> "SpilledIndex":
        return self

    def __exit__(self, *args: object) -> None:
        self.close()
