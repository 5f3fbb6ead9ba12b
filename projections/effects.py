"""An effect index on disk, so that importing a log of any length takes bounded memory.

The engine keeps every line's invertible effects, in case a later
correction voids the line (``domain.engine.EffectIndex``). On a log of
millions of lines that is most of an import's memory, and corrections are
rare: :class:`SpilledEffects` writes the effects, encoded as the store
encodes events, to a temporary SQLite file, and reads a line's back only
when a correction asks for them. The file is removed when the import ends.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from typing import Any

from domain.engine import EffectIndex
from projections.mapper import _decoder, encoded

FLUSH = 20_000
"""Effects kept in memory before they go to disk: small logs never touch the disk."""


class SpilledEffects(EffectIndex):
    """The effect index in a temporary SQLite file; use it as a context manager (``with SpilledEffects() as e``).

    Lines only grow, so each flushed chunk covers a range of lines; finding a
    line's effects reads one or two chunks by their row numbers, and the table
    needs no index (which would slow every insert for the rare correction).
    """

    def __init__(self) -> None:
        super().__init__()
        self._folder: tempfile.TemporaryDirectory | None = None
        self._db: sqlite3.Connection | None = None
        self._pending: list[tuple[int, str, bytes]] = []
        self._chunks: list[tuple[int, int, int, int]] = []  # first line, last line, first row, last row
        self._rows = 0

    def add(self, line: int, effect: Any) -> None:
        self._pending.append((line, *encoded(effect)))
        if len(self._pending) >= FLUSH:
            self._flush()

    def _open(self) -> sqlite3.Connection:
        self._folder = tempfile.TemporaryDirectory(prefix="gamelog-effects-")
        db = sqlite3.connect(os.path.join(self._folder.name, "effects.sqlite"), isolation_level=None)
        # Nothing here must survive a crash: the import it serves is rolled back then.
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        db.execute("CREATE TABLE effects (seq INTEGER PRIMARY KEY, line INTEGER, topic TEXT, state BLOB)")
        return db

    def _flush(self) -> None:
        if not self._pending:
            return
        self._db = self._db or self._open()
        first = self._rows + 1
        self._db.executemany("INSERT INTO effects VALUES (?, ?, ?, ?)",
                             [(first + i, *row) for i, row in enumerate(self._pending)])
        self._rows += len(self._pending)
        self._chunks.append((self._pending[0][0], self._pending[-1][0], first, self._rows))
        self._pending = []

    def of(self, line: int) -> list[Any]:
        found = []
        for first_line, last_line, first, last in self._chunks:
            if first_line <= line <= last_line:
                found += self._db.execute("SELECT topic, state FROM effects WHERE seq BETWEEN ? AND ? AND line = ? "
                                          "ORDER BY seq", (first, last, line)).fetchall()
        found += [(topic, state) for at, topic, state in self._pending if at == line]
        return [_decoder(topic).decode(state) for topic, state in found]

    def close(self) -> None:
        """Remove the file (an index is not used again after its import)."""
        if self._db is not None:
            self._db.close()
            self._folder.cleanup()
            self._db = None

    def __enter__(self) -> "SpilledEffects":
        return self

    def __exit__(self, *args: object) -> None:
        self.close()
