"""Comparing two builds of the views of a game: the store's against those derived from its events (``verify``).

Rows are read a page at a time in key order and merged, so a game of any size
is compared in bounded memory; each difference names its table and row.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Iterable, Iterator

from gamelog.projections.store.chain import ChainBreak
from gamelog.projections.views.folder import TABLES
from gamelog.projections.views.rows import TABLE

PAGE = 5000
"""Rows read at a time from each side."""

_KEYS = {"view_lines": ("line",), "view_turns": ("turn",), "view_tracks": ("seq",), "view_findings": ("seq",),
         "view_corrections": ("line",), "view_stat_facts": ("seq",), "view_stat_periods": ("period", "player"),
         "view_snapshots": ("version",)}
"""The columns that key a game's rows in each view table keyed so (view_results has one row a game), the first a
number: a game's score after each period is a row a player and period, as long as the game."""
SHOWN = 10
"""Differences named per table; more are counted."""


def compare_views(kept: Any, derived: Any, game_id: str, originator: str) -> list[ChainBreak]:
    """Where the store's views of one game differ from the views derived from its events, row by row.

    ``kept`` reads the store's views (a :class:`PortableCursor`), ``derived``
    the views of :func:`derived_views`; ``originator`` is the game's aggregate
    ID (hex), which ``view_context`` is keyed by. Rows are read a page at a
    time, in key order. Each problem names the table and the row.
    """
    problems: list[ChainBreak] = []
    unfolded = _statistics_unfolded(kept, derived, game_id)
    if unfolded:  # one line, not a line a missing row: the views were derived before the statistics views were
        problems.append(ChainBreak(0, "derived", f"view_stat_games: the statistics views hold nothing of game "
                                                 f"{game_id!r} (derived by a gamelog before statistics, or deleted)",
                                   "view_stat_games"))
    for row_type, table in TABLE.items():
        if unfolded and table.startswith("view_stat_"):
            continue
        columns = row_type._fields
        if table in _KEYS:
            pairs = _paired(kept, derived, table, columns, _KEYS[table], game_id)
        else:  # view_results (one row) and view_moot (no key): few rows, compared whole
            pairs = _matched(kept, derived, table, columns, game_id)
        problems += _differences(table, columns, game_id, pairs)
    kept.execute("SELECT game, context FROM view_context WHERE originator_id = ?", (originator,))
    derived.execute("SELECT game, context FROM view_context")
    pairs = [(kept.fetchone(), derived.fetchone())]
    if unfolded and pairs[0][0] is not None and pairs[0][1] is not None:
        pairs = [(_without_statistics(pairs[0][0]), _without_statistics(pairs[0][1]))]
    problems += _differences("view_context", ("game", "context"), game_id, [] if pairs[0][0] == pairs[0][1] else pairs)
    return problems


def _statistics_unfolded(kept: Any, derived: Any, game_id: str) -> bool:
    """Whether the store's statistics views hold no row of the game the events give them (an earlier gamelog's
    views, or theirs deleted): said once rather than row by row."""
    sql = "SELECT COUNT(*) FROM view_stat_games WHERE game = ?"
    kept.execute(sql, (game_id,))
    derived.execute(sql, (game_id,))
    return int(kept.fetchone()[0]) == 0 and int(derived.fetchone()[0]) > 0


def _without_statistics(row: Any) -> tuple:
    """A ``view_context`` row without what only the statistics' fold writes into the context."""
    game, text = tuple(row)
    try:
        context = json.loads(text)
    except (TypeError, ValueError):
        return (game, text)
    for key in ("stat", "unsettled"):
        context.pop(key, None)
    return (game, json.dumps(context, sort_keys=True))


def _page_of(cursor: Any, table: str, columns: tuple[str, ...], key: tuple[str, ...], game_id: str,
             after: Any) -> list[tuple]:
    """The next page of a game's rows in key order, after ``after`` (the key's first column's value). A key of
    several columns is numbered by its first: a page holds whole numbers (its last number's rows wait for the
    next page, unless they are all it has), the rest of the key ordered here, as Python orders it on both sides
    (a database may order text otherwise)."""
    cursor.execute(f"SELECT {', '.join(columns)} FROM {table} WHERE game = ? AND {key[0]} > ? ORDER BY {key[0]} "
                   "LIMIT ?", (game_id, after, PAGE))
    page = [tuple(r) for r in cursor.fetchall()]
    if len(key) > 1:
        first = columns.index(key[0])
        if len(page) == PAGE and page[0][first] != page[-1][first]:
            page = [r for r in page if r[first] != page[-1][first]]
        at = [columns.index(k) for k in key]
        page.sort(key=lambda r: tuple(r[i] for i in at))
    return page


def _keyed(cursor: Any, table: str, columns: tuple[str, ...], key: tuple[str, ...], game_id: str) -> Iterator[tuple]:
    at, after = columns.index(key[0]), -(1 << 62)
    while page := _page_of(cursor, table, columns, key, game_id, after):
        yield from page
        after = page[-1][at]


def _paired(kept: Any, derived: Any, table: str, columns: tuple[str, ...], key: tuple[str, ...],
            game_id: str) -> Iterator[tuple[tuple | None, tuple | None]]:
    """(kept row, derived row) for each key where they differ, merging both tables in key order."""
    at = [columns.index(k) for k in key]

    def key_of(row: tuple) -> tuple:
        return tuple(row[i] for i in at)

    a, b = _keyed(kept, table, columns, key, game_id), _keyed(derived, table, columns, key, game_id)
    x, y = next(a, None), next(b, None)
    while x is not None or y is not None:
        if y is None or (x is not None and key_of(x) < key_of(y)):
            yield x, None
            x = next(a, None)
        elif x is None or key_of(y) < key_of(x):
            yield None, y
            y = next(b, None)
        else:
            if x != y:
                yield x, y
            x, y = next(a, None), next(b, None)


def _matched(kept: Any, derived: Any, table: str, columns: tuple[str, ...],
             game_id: str) -> list[tuple[tuple | None, tuple | None]]:
    """Rows of a small table that only one side has (as multisets): (kept row, None) or (None, derived row)."""
    sql = f"SELECT {', '.join(columns)} FROM {table} WHERE game = ?"
    kept.execute(sql, (game_id,))
    mine = Counter(tuple(r) for r in kept.fetchall())
    derived.execute(sql, (game_id,))
    theirs = Counter(tuple(r) for r in derived.fetchall())
    only_kept, only_derived = list((mine - theirs).elements()), list((theirs - mine).elements())
    if len(only_kept) == len(only_derived) == 1:
        return [(only_kept[0], only_derived[0])]
    return [(r, None) for r in sorted(only_kept, key=repr)] + [(None, r) for r in sorted(only_derived, key=repr)]


def _differences(table: str, columns: tuple[str, ...], game_id: str,
                 pairs: Iterable[tuple[tuple | None, tuple | None]]) -> list[ChainBreak]:
    """The first :data:`SHOWN` differing rows of a table as problems, and a count of the rest."""
    problems, more = [], 0
    keys = _KEYS.get(table)
    key = keys[0] if keys and len(keys) == 1 else None  # a row keyed by several columns is said as an unkeyed one
    for kept, derived in pairs:
        if len(problems) == SHOWN:
            more += 1
            continue
        some = kept if kept is not None else derived
        row = f"row {key}={some[columns.index(key)]} of game {game_id!r}" if key else f"a row of game {game_id!r}"
        if kept is None:
            what = f"{row} is missing (the events give {_shown(dict(zip(columns, derived)))})"
        elif derived is None:
            what = f"{row} is not derived from the events ({_shown(dict(zip(columns, kept)))})"
        else:
            changed = [f"{c} is {_shown(k)}; the events give {_shown(d)}" for c, k, d in zip(columns, kept, derived) if k != d]
            what = f"{row}: {', '.join(changed)}"
        problems.append(ChainBreak(0, "derived", f"{table}: {what}", table))
    if more:
        problems.append(ChainBreak(0, "derived", f"{table}: {more} more row(s) of game {game_id!r} differ", table))
    return problems


def _shown(value: Any) -> str:
    """A value as a message quotes it: repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "..."


def table_dump(cursor: Any) -> dict[str, list[tuple]]:
    """Every view table's rows, sorted: for comparing two builds of the views (bytes as hex, JSON's text)."""
    out = {}
    for table in TABLES:
        cursor.execute(f"SELECT * FROM {table}")
        rows = [tuple(bytes(v).hex() if isinstance(v, (bytes, memoryview)) else v for v in r) for r in cursor.fetchall()]
        if table == "view_context":  # the aggregate ID differs between a store and a log file
            rows = [r[1:] for r in rows]
        out[table] = sorted(rows, key=repr)
    return out
