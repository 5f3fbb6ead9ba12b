"""The views' SQL on either backend: SQLite-flavoured statements run on PostgreSQL too, and the lock writers share."""

from __future__ import annotations

import re
from typing import Any

from gamelog.projections.views.folder import TABLES

ADVISORY_LOCK = 0x67616D656C6F67  # "gamelog": the PostgreSQL lock views writers take turns on



_VIEW_TABLE = re.compile(r"\b(" + "|".join(TABLES) + r")\b")  # every view table: view_moot was once left out


class PortableCursor:
    """A DB-API cursor that runs the views' SQLite-flavoured SQL on PostgreSQL too.

    On PostgreSQL it turns ``?`` into ``%s`` and names the view tables in the
    store's schema; on both it returns rows as tuples in column order.
    """

    def __init__(self, cursor: Any, schema: str | None):
        self._cursor = cursor
        self._schema = schema

    def execute(self, sql: str, params: Any = ()) -> None:
        if self._schema is not None:
            sql = _VIEW_TABLE.sub(f'"{self._schema}".\\1', sql).replace("?", "%s")
        self._cursor.execute(sql, params)

    def executemany(self, sql: str, rows: list[tuple]) -> None:
        if self._schema is not None:
            sql = _VIEW_TABLE.sub(f'"{self._schema}".\\1', sql).replace("?", "%s")
        self._cursor.executemany(sql, rows)

    def fetchall(self) -> list[tuple]:
        return [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in self._cursor.fetchall()]

    def close(self) -> None:
        """Nothing to close: the transaction that opened the cursor closes it."""

    def fetchone(self) -> tuple | None:
        row = self._cursor.fetchone()
        return None if row is None else tuple(row.values()) if isinstance(row, dict) else tuple(row)
