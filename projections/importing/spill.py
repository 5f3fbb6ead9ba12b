"""An effect index on disk, so that importing a log of any length takes bounded memory.

The engine keeps every line's invertible effects, in case a later
correction voids the line (``domain.engine.EffectIndex``). On a log of
millions of lines that is most of an import's memory, and corrections are
rare: :class:`SpilledEffects` keeps the latest effects in memory and writes
older ones, a chunk at a time, to a temporary file, reading a chunk back only
when a correction asks for one of its lines. The file is removed when the
import ends (or when the process does).
"""

from __future__ import annotations

import pickle
import tempfile
from bisect import bisect_left
from typing import Any, BinaryIO

from domain.engine import EffectIndex

FLUSH = 20_000
"""Effects kept in memory before they go to disk, as one chunk: small logs never touch the disk."""


class SpilledEffects(EffectIndex):
    """The effect index, spilling to a temporary file; use it as a context manager.

    Lines only grow, so each chunk on disk covers a range of lines, and a
    line's effects are in at most the chunks whose range holds it. The chunks
    are pickled: the file is this process's own scratch space, never shared.
    """

    def __init__(self) -> None:
        super().__init__()
        self._file: BinaryIO | None = None
        self._pending: list[tuple[int, Any]] = []
        self._chunks: list[tuple[int, int, int, int]] = []  # last line, first line, offset, size
        self._size = 0

    def add(self, line: int, effect: Any) -> None:
        self._pending.append((line, effect))
        if len(self._pending) >= FLUSH:
            self._flush()

    def _flush(self) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="gamelog-effects-")
        blob = pickle.dumps(self._pending, protocol=pickle.HIGHEST_PROTOCOL)
        self._file.seek(self._size)
        self._file.write(blob)
        self._chunks.append((self._pending[-1][0], self._pending[0][0], self._size, len(blob)))
        self._size += len(blob)
        self._pending = []

    def of(self, line: int) -> list[Any]:
        found: list[Any] = []
        for last_line, first_line, offset, size in self._chunks[bisect_left(self._chunks, (line,)):]:
            if first_line > line:
                break
            self._file.seek(offset)
            found += [effect for at, effect in pickle.loads(self._file.read(size)) if at == line]
        return found + [effect for at, effect in self._pending if at == line]

    def close(self) -> None:
        """Remove the file (an index is not used again after its import)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> "SpilledEffects":
        return self

    def __exit__(self, *args: object) -> None:
        self.close()
