"""The statistics views summed across games: ``view_stat_sums``, what ``gamelog stats`` reads without a per-game filter.

A game's figures (its seats and scores, its score after each period, its facts
added up: ``view_stat_seats``, ``view_stat_periods``, ``view_stat_tallies``)
are also added into one row per *bucket* and figure: the bucket is what the
filters that need no game-by-game reading choose by (its kind, player count,
goal, expansions, day and whether it is clean), so ``stats`` over every game,
or over the games of 6 players since a date, sums a few rows instead of
reading every game's.

Each game's part of the sums is kept with it (``view_stat_games.contrib``, as
JSON): when the folder flushes a game it folded, :func:`settle` works out the
game's part again from its rows, adds the difference to the sums (a game that
ended, gained a violation or moved a score moves its part) and keeps the new
part. Rows whose every figure is back to 0 go, so the sums hold what a
rebuild derives, row for row.

A game's score after each period is a row a player and period, as long as the
game: that part (``what`` = ``period``) is kept as rows
(``view_stat_parts``), worked out and settled in SQL, so a game of a million
lines settles in bounded memory (held whole as JSON, it took hundreds of MB).
The JSON keeps the rest, a few rows a player and fact (views an earlier
gamelog derived, which kept the period rows in the JSON too, are derived again:
``derivation``).
"""

from __future__ import annotations

import json
from typing import Any, Iterable

import msgspec

SUMS = (
    "CREATE TABLE IF NOT EXISTS view_stat_sums (kind TEXT, players INTEGER, goal INTEGER, expansions TEXT, day TEXT, "
    "clean INTEGER, what TEXT, side TEXT, name TEXT, detail TEXT, winner INTEGER, games BIGINT, amount BIGINT, "
    "periods BIGINT, extra BIGINT, PRIMARY KEY (kind, players, goal, expansions, day, clean, what, side, name, "
    "detail, winner))"
)
PARTS = (
    "CREATE TABLE IF NOT EXISTS view_stat_parts (game TEXT, kind TEXT, players INTEGER, goal INTEGER, "
    "expansions TEXT, day TEXT, clean INTEGER, what TEXT, side TEXT, name TEXT, detail TEXT, winner INTEGER, "
    "games BIGINT, amount BIGINT, periods BIGINT, extra BIGINT, PRIMARY KEY (game, side, name))"
)
"""Each game's period rows of its part of the sums (``what`` = ``period``), as last added to them."""
BUCKET = ("kind", "players", "goal", "expansions", "day", "clean")
"""The columns of a bucket: what a filter may choose by without reading each game."""
FIGURE = ("what", "side", "name", "detail", "winner")
VALUES = ("games", "amount", "periods", "extra")
ALL_SIDES = "*"
"""The side of a fact's row summed over every side (its ``games``: games in which any player had it)."""

# What each row of a game's part is (``what``):
#   game    one a game: amount 1 when it is finished
#   side    one a player: side, winner (1: the game's winner); amount the final score, extra its square
#   seat    one a player: name is the seat; winner as above
#   player  one a player: side is the player, name the side they played; winner, amount and extra as for side
#   period  one a player and period: name the period; amount the score after it, extra its square
#   lasted  one a game: name the periods it lasted
#   fact:F  one a (player's side, name, detail) of fact F, winner as above: amount, periods
#   all:F   one a (name, detail) of fact F over every side, and one a name (detail "*"): amount, periods,
#           extra the amount of the game's winner


def _clean(cursor: Any, game: str) -> int:
    cursor.execute("SELECT COUNT(*) AS n FROM view_findings f WHERE f.game = ? AND f.severity = 'violation' "
                   "AND NOT EXISTS (SELECT 1 FROM view_moot m WHERE m.game = f.game AND m.about = f.line "
                   "AND m.rule = f.rule AND m.message = f.message)", (game,))
    return 0 if int(cursor.fetchone()[0]) else 1


PERIOD = "period"
"""The ``what`` of a game's score after a period: its rows are kept in ``view_stat_parts``, not in the JSON."""
_WHAT = len(BUCKET)
"""Where ``what`` is in a key (bucket + figure)."""


def _bucket(cursor: Any, game: str) -> tuple | None:
    """Game ``game``'s bucket (None when the statistics views hold no such game)."""
    cursor.execute("SELECT kind, players, goal, expansions, at FROM view_stat_games WHERE game = ?", (game,))
    found = cursor.fetchone()
    if found is None:
        return None
    kind, players, goal, expansions, at = found
    return (kind, players, -1 if goal is None else goal, expansions, (at or "")[:10], _clean(cursor, game))


def contribution(cursor: Any, game: str, bucket: tuple | None) -> dict[tuple, list[int]]:
    """Game ``game``'s part of the sums but its period rows (``_PERIOD_ROWS``), from its rows in the statistics
    views: (bucket + figure) -> values. ``bucket`` is the game's (:func:`_bucket`)."""
    if bucket is None:
        return {}
    cursor.execute("SELECT winner FROM view_results WHERE game = ?", (game,))
    result = cursor.fetchone()
    winner = result[0] if result is not None else None
    part: dict[tuple, list[int]] = {}

    def add(figure: tuple, games: int, amount: int, periods: int = 0, extra: int = 0) -> None:
        values = part.get(bucket + figure)
        if values is None:
            part[bucket + figure] = [games, amount, periods, extra]
            return
        values[0] += games
        values[1] += amount
        values[2] += periods
        values[3] += extra

    add(("game", "", "", "", 0), 1, 1 if result is not None else 0)
    cursor.execute("SELECT player, seat, side, score FROM view_stat_seats WHERE game = ?", (game,))
    sides: dict[str, str] = {}
    for player, seat, side, score in cursor.fetchall():
        sides[player] = side
        won = int(player == winner)
        add(("side", side, "", "", won), 1, score, 0, score * score)
        add(("seat", "", str(seat), "", won), 1, 0)
        add(("player", player, side, "", won), 1, score, 0, score * score)
    cursor.execute("SELECT MAX(period) FROM view_stat_periods WHERE game = ?", (game,))
    lasted = max(cursor.fetchone()[0] or 0, 0)  # the period rows themselves: _PERIOD_ROWS
    if lasted:
        add(("lasted", "", str(lasted), "", 0), 1, 0)
    cursor.execute("SELECT player, fact, name, detail, amount, periods FROM view_stat_tallies "
                   "WHERE game = ? AND amount <> 0", (game,))
    every: dict[tuple, list[int]] = {}
    for player, fact, name, detail, amount, periods in cursor.fetchall():
        side = sides.get(player, player)
        add((f"fact:{fact}", side, name, detail, int(bool(player) and player == winner)), 1, amount, periods)
        won = amount if player and player == winner else 0
        for key in ((fact, name, detail), (fact, name, ALL_SIDES)):
            total = every.setdefault(key, [0, 0, 0])
            total[0] += amount
            total[1] += periods
            total[2] += won
    for (fact, name, detail), (amount, periods, won) in every.items():
        add((f"all:{fact}", ALL_SIDES, name, detail, 0), 1, amount, periods, won)
    return part


def _encoded(part: dict[tuple, list[int]]) -> str:
    """A part as ``view_stat_games.contrib`` keeps it: the JSON of its sorted [key, values] pairs, compact.

    msgspec writes what ``json.dumps(..., separators=(",", ":"))`` writes for text of printable ASCII without
    quotes or backslashes, many times faster (a long game's part is megabytes); other text (what ``json`` escapes
    differently: non-ASCII, control characters, DEL) is written by ``json`` itself, so the bytes never change.
    """
    pairs = sorted([key, values] for key, values in part.items())
    try:
        fast = _encode(pairs)
    except (OverflowError, TypeError, ValueError):  # an integer past 64 bits: json writes any
        fast = None
    if fast is not None and fast.isascii() and b"\\" not in fast and b"\x7f" not in fast:
        return fast.decode("ascii")
    return json.dumps(pairs, separators=(",", ":"))


def _decoded(text: str | None) -> dict[tuple, list[int]]:
    """A part from its ``contrib`` JSON (:func:`_encoded`); raises ValueError when the text is not one."""
    if not text or text == "[]":
        return {}
    return {tuple(key): values for key, values in _decode(text)}


_COLUMNS = BUCKET + FIGURE + VALUES
_UPSERT_ROWS = (f"INSERT INTO view_stat_sums ({', '.join(_COLUMNS)}) {{rows}} "
                f"ON CONFLICT ({', '.join(BUCKET + FIGURE)}) DO UPDATE SET "
                + ", ".join(f"{v} = view_stat_sums.{v} + excluded.{v}" for v in VALUES))
"""Rows added to the sums: ``{rows}`` a VALUES or a query."""
_UPSERT = _UPSERT_ROWS.format(rows=f"VALUES ({', '.join('?' * len(_COLUMNS))})")
_GONE = ("DELETE FROM view_stat_sums WHERE {where} AND games = 0 AND amount = 0 AND periods = 0 AND extra = 0")
_DELETE = _GONE.format(where=" AND ".join(f"{c} = ?" for c in BUCKET + FIGURE))

_PERIOD_ROWS = (
    # sides.get(player, player) of contribution(): a player without a seat row is their own side.
    "SELECT CAST(? AS TEXT) AS kind, CAST(? AS INTEGER) AS players, CAST(? AS INTEGER) AS goal, "
    "CAST(? AS TEXT) AS expansions, CAST(? AS TEXT) AS day, CAST(? AS INTEGER) AS clean, 'period' AS what, "
    "CASE WHEN s.player IS NULL THEN p.player ELSE s.side END AS side, CAST(p.period AS TEXT) AS name, "
    "'' AS detail, 0 AS winner, COUNT(*) AS games, SUM(p.value) AS amount, 0 AS periods, "
    "SUM(CAST(p.value AS BIGINT) * p.value) AS extra "
    "FROM view_stat_periods p LEFT JOIN view_stat_seats s ON s.game = p.game AND s.player = p.player "
    "WHERE p.game = ? GROUP BY CASE WHEN s.player IS NULL THEN p.player ELSE s.side END, CAST(p.period AS TEXT)"
)
"""A game's period rows of its part (bucket, then the game, as parameters): one a side and period, the score
after it summed over the side's players (amount), its square summed (extra)."""


def settle(cursor: Any, game: str, periods: Iterable[int] | None = None) -> None:
    """Bring the sums up to date with game ``game``'s rows: add the difference between its part now and the part
    it last gave, and keep the new part (its period rows in ``view_stat_parts``, the rest as JSON).

    ``periods``: the only periods whose rows (``view_stat_periods``) changed since it last gave its part (the
    fold of a few new lines): only theirs are worked out again, when the game's bucket is the one its kept period
    rows are in (else every period row moves to another bucket, and all are). None: every period's."""
    cursor.execute("SELECT contrib FROM view_stat_games WHERE game = ?", (game,))
    found = cursor.fetchone()
    if found is None:
        return
    old = _decoded(found[0])
    bucket = _bucket(cursor, game)
    new = contribution(cursor, game, bucket)
    changes = []
    if old:
        for key in old.keys() | new.keys():
            before, after = old.get(key, _ZERO), new.get(key, _ZERO)
            delta = [a - b for a, b in zip(after, before)]
            if any(delta):
                changes.append((*key, *delta))
    else:  # a game's first part (a new game, every game of a rebuild): the part itself is the difference
        changes = [(*key, *values) for key, values in new.items() if any(values)]
    if changes:
        changes.sort()
        cursor.executemany(_UPSERT, changes)
        # A figure back to nothing goes, as a rebuild would never write it. Every entry of a part counts its game
        # (``games`` at least 1), so only a figure whose games went down can be back to nothing.
        gone = [change[:_KEY] for change in changes if change[_KEY] < 0]
        if gone:
            cursor.executemany(_DELETE, gone)
    if bucket is not None:
        _settle_periods(cursor, game, bucket, None if periods is None else sorted(set(periods)))
    if changes:
        cursor.execute("UPDATE view_stat_games SET contrib = ? WHERE game = ?", (_encoded(new), game))


def _settle_periods(cursor: Any, game: str, bucket: tuple, periods: list[int] | None = None) -> None:
    """Add the difference between game ``game``'s period rows now and those it last gave (``view_stat_parts``)
    to the sums, and keep the new ones: in SQL, a game's period rows never all in memory. ``periods``: only those
    periods' rows (see :func:`settle`), when the game's kept rows are in ``bucket``."""
    if periods is not None:
        cursor.execute(f"SELECT {', '.join(BUCKET)} FROM view_stat_parts WHERE game = ? LIMIT 1", (game,))
        kept = cursor.fetchone()
        if kept is None or tuple(kept) != bucket:
            periods = None  # no rows kept, or kept in another bucket (the game's clean or day changed): all move
    if periods == []:
        return
    only_now = only_kept = ""
    if periods is not None:  # whole numbers the fold gave: written into the statement as they are
        listed = ", ".join(str(int(period)) for period in periods)
        only_now = f" AND p.period IN ({listed})"
        only_kept = f" AND name IN ({', '.join(repr(str(int(period))) for period in periods)})"
    rows = _PERIOD_ROWS.replace("WHERE p.game = ?", f"WHERE p.game = ?{only_now}")
    columns, key = ", ".join(_COLUMNS), ", ".join(BUCKET + FIGURE)
    difference = (
        f"SELECT {key}, SUM(games), SUM(amount), SUM(periods), SUM(extra) FROM ("
        f"SELECT {columns} FROM ({rows}) AS now UNION ALL "
        f"SELECT {key}, -games, -amount, -periods, -extra FROM view_stat_parts WHERE game = ?{only_kept}"
        f") AS d WHERE true GROUP BY {key} "
        "HAVING SUM(games) <> 0 OR SUM(amount) <> 0 OR SUM(periods) <> 0 OR SUM(extra) <> 0")
    cursor.execute(_UPSERT_ROWS.format(rows=difference), (*bucket, game, game))
    cursor.execute(_GONE.format(where=f"what = '{PERIOD}'{only_kept}"))
    cursor.execute(f"DELETE FROM view_stat_parts WHERE game = ?{only_kept}", (game,))
    cursor.execute(f"INSERT INTO view_stat_parts (game, {columns}) SELECT CAST(? AS TEXT), {columns} "
                   f"FROM ({rows}) AS now WHERE true", (game, *bucket, game))


_OF_A_GAME = "game IN (SELECT game FROM view_stat_games)"
"""A game's period rows count while its row does, as the rest of its part (the row's JSON) does."""


def add_part(cursor: Any, rows: list[Any]) -> None:
    """Add a new game's part to the sums: ``rows`` are its ``view_stat_sums`` rows (bucket, figure, values) as
    :func:`settle` wrote them into a database of that game alone (sorted: the order settle writes them). What
    settling the game in the store would write, its part being its first."""
    cursor.executemany(_UPSERT, rows)


_ZERO = [0, 0, 0, 0]
_KEY = len(BUCKET + FIGURE)
_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(list[tuple[list[Any], list[int]]]).decode


def differences(cursor: Any, shown: int = 10) -> list[str]:
    """Where ``view_stat_sums`` differs from the sum of every game's part (``view_stat_games.contrib`` and the
    period rows of ``view_stat_parts``): each row that differs, in words (the first ``shown``, then how many more).

    The period rows, as many as the longest game's periods, are compared in SQL: only those that may differ are
    read."""
    expected: dict[tuple, list[int]] = {}
    cursor.execute("SELECT contrib FROM view_stat_games")
    for (contrib,) in cursor.fetchall():
        for key, values in json.loads(contrib or "[]"):
            total = expected.setdefault(tuple(key), [0, 0, 0, 0])
            for i, value in enumerate(values):
                total[i] += value
    expected = {key: values for key, values in expected.items() if any(values)}
    columns = BUCKET + FIGURE + VALUES
    cursor.execute(f"SELECT {', '.join(columns)} FROM view_stat_sums WHERE what <> '{PERIOD}'")
    kept = {tuple(row[:len(BUCKET + FIGURE)]): [int(v) for v in row[len(BUCKET + FIGURE):]] for row in cursor.fetchall()}
    _period_differences(cursor, expected, kept)
    found = []
    for key in sorted(expected.keys() | kept.keys(), key=repr):
        if expected.get(key) != kept.get(key):
            found.append(f"the sums of {dict(zip(BUCKET + FIGURE, key))} are {kept.get(key)}; the games' parts "
                         f"give {expected.get(key)}")
    return found[:shown] + ([f"{len(found) - shown} more rows differ"] if len(found) > shown else [])


def _period_differences(cursor: Any, expected: dict[tuple, list[int]], kept: dict[tuple, list[int]]) -> None:
    """Add to ``expected`` and ``kept`` (as :func:`differences` holds them) the period rows that may differ:
    a sums row whose figures are not the parts' sum, or all 0; a parts' sum that is not 0 with no sums row."""
    key = ", ".join(BUCKET + FIGURE)
    cursor.execute(
        f"SELECT {key}, MAX(kept), SUM(kg), SUM(ka), SUM(kp), SUM(ke), SUM(eg), SUM(ea), SUM(ep), SUM(ee) FROM ("
        f"SELECT {key}, 1 AS kept, games AS kg, amount AS ka, periods AS kp, extra AS ke, 0 AS eg, 0 AS ea, "
        f"0 AS ep, 0 AS ee FROM view_stat_sums WHERE what = '{PERIOD}' UNION ALL "
        f"SELECT {key}, 0, 0, 0, 0, 0, games, amount, periods, extra FROM view_stat_parts WHERE {_OF_A_GAME}"
        ") AS d WHERE true "
        f"GROUP BY {key} HAVING MAX(kept) = 0 OR SUM(kg) <> SUM(eg) OR SUM(ka) <> SUM(ea) OR SUM(kp) <> SUM(ep) "
        "OR SUM(ke) <> SUM(ee) OR (SUM(kg) = 0 AND SUM(ka) = 0 AND SUM(kp) = 0 AND SUM(ke) = 0)")
    width = len(BUCKET + FIGURE)
    for row in cursor.fetchall():
        name = tuple(row[:width])
        has_row, figures = int(row[width]), [int(v) for v in row[width + 1:]]
        if has_row:
            kept[name] = figures[:4]
        if any(figures[4:]):
            expected[name] = figures[4:]
