"""The figures ``gamelog stats`` reads: the statistics views (``view_stat_*``) of the games chosen, added up in SQL.

:class:`ViewFigures` is the ``domain.statistics.Figures`` a game's statistics
build their document from. Its SQL runs as it is written on SQLite and,
through the store backend's ``PortableCursor``, on PostgreSQL; it asks the
database only for counts and sums of integers, and every ratio, rounding and
order is made in Python, so both backends give the same bytes.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, replace
from decimal import Decimal
from itertools import groupby
from typing import Any, Iterable, Iterator, NamedTuple, Sequence

import msgspec

from gamelog.domain.replay_document import Document, StreamedRows
from gamelog.projections.views.sums import ALL_SIDES
from gamelog.domain.statistics import Explained, PeriodRow, PlayerRow, SideRow, FactTotal


@dataclass(frozen=True)
class Filters:
    """Which games the figures rest on (every game of the kind when nothing is set).

    ``ids``: only these games; ``players``: games of that many players;
    ``goal``: games to that score (TI4's VP goal); ``expansion``: games played
    with it (as the game's statistics read a header's expansions, in any case);
    ``side``: games in which that side (a faction) played, and ``player``
    games in which that player played (any case); ``since`` and ``until``
    (``YYYY-MM-DD``, both included): games whose header's ``at`` falls on those
    days (a game whose header has no ``at`` is then left out); ``clean``: games
    with no violation (a finding a correction made moot does not count).
    """

    ids: tuple[str, ...] = ()
    players: int | None = None
    goal: int | None = None
    expansion: str | None = None
    side: str | None = None
    player: str | None = None
    since: str | None = None
    until: str | None = None
    clean: bool = False


class BucketColumns(NamedTuple):
    """Where a table keeps what a bucket of games is chosen by (:func:`bucket_conditions`): SQL expressions of its
    kind, players, goal and expansions columns, of a game that has a date (``dated``) and of its day, and the
    condition of a game with no violation (``clean``)."""

    kind: str
    players: str
    goal: str
    expansions: str
    dated: str
    day: str
    clean: str


GAME_COLUMNS = BucketColumns(
    "g.kind", "g.players", "g.goal", "g.expansions", "g.at <> ''", "SUBSTR(g.at, 1, 10)",
    "NOT EXISTS (SELECT 1 FROM view_findings f WHERE f.game = g.game AND f.severity = 'violation' "
    "AND NOT EXISTS (SELECT 1 FROM view_moot m WHERE m.game = f.game AND m.about = f.line "
    "AND m.rule = f.rule AND m.message = f.message))")
"""A game ``g`` of ``view_stat_games``: a finding a correction made moot does not count against ``clean``."""

SUM_COLUMNS = BucketColumns("kind", "players", "goal", "expansions", "day <> ''", "day", "clean = 1")
"""A row of the sums across games (``view_stat_sums``), which keeps each bucket's day and cleanness."""


def bucket_conditions(kind: str, filters: Filters, columns: BucketColumns) -> tuple[list[str], list]:
    """The SQL conditions of the games of ``kind`` in the bucket ``filters`` choose (players, goal, expansion,
    dates, clean: what the sums across games are kept by) on the table ``columns`` names, and their parameters in
    order: the one builder of both the games' query and the sums'."""
    where, params = [f"{columns.kind} = ?"], [kind]
    for column, value in ((columns.players, filters.players), (columns.goal, filters.goal)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    if filters.expansion is not None:
        where.append(f"{columns.expansions} LIKE ?")
        params.append(f"%,{filters.expansion.casefold()},%")
    for compared, day in ((">=", filters.since), ("<=", filters.until)):
        if day is not None:
            where.append(f"{columns.dated} AND {columns.day} {compared} ?")
            params.append(day)
    if filters.clean:
        where.append(columns.clean)
    return where, params


def _conditions(kind: str, filters: Filters) -> tuple[list[str], list, list[str], list]:
    """The SQL conditions on a game ``g`` (of ``view_stat_games``) of ``filters``, and their parameters: those of its
    bucket (what the sums across games choose by), then those of the per-game filters (ids, side, player)."""
    where, params = bucket_conditions(kind, filters, GAME_COLUMNS)
    each: list[str] = []
    each_params: list = []
    if filters.ids:
        each.append(f"g.game IN ({', '.join('?' * len(filters.ids))})")
        each_params += filters.ids
    if filters.side is not None:
        # A subquery of its own (not one a game): evaluated once, into a list both databases look games up in.
        each.append("g.game IN (SELECT s.game FROM view_stat_seats s WHERE LOWER(s.side) = ?)")
        each_params.append(filters.side.lower())
    if filters.player is not None:
        each.append("g.game IN (SELECT s.game FROM view_stat_seats s WHERE LOWER(s.player) = ?)")
        each_params.append(filters.player.lower())
    return where, params, each, each_params


def chosen(kind: str, filters: Filters) -> tuple[str, tuple]:
    """The SQL choosing the games (a query of one column, ``game``) and its parameters."""
    where, params, each, each_params = _conditions(kind, filters)
    return f"SELECT g.game FROM view_stat_games g WHERE {' AND '.join(where + each)}", tuple(params + each_params)


def split(cursor: Any, kind: str, filters: Filters) -> tuple[list[str], list[str]]:
    """The ids of the games ``filters`` choose, and of the games of their bucket (:func:`bucket_of`) that the
    per-game filters leave out, each sorted: one query, whose per-game conditions are read once a game."""
    where, params, each, each_params = _conditions(kind, filters)
    kept = f"CASE WHEN {' AND '.join(each)} THEN 1 ELSE 0 END" if each else "1"
    cursor.execute(f"SELECT g.game, {kept} AS kept FROM view_stat_games g WHERE {' AND '.join(where)}",
                   tuple(each_params + params))
    games: tuple[list[str], list[str]] = ([], [])
    for game, kept_it in cursor.fetchall():
        games[0 if kept_it else 1].append(game)
    return sorted(games[0]), sorted(games[1])


def bucket_of(filters: Filters) -> Filters:
    """``filters`` without their per-game filters (ids, side, player): what the sums across games choose by."""
    return replace(filters, ids=(), side=None, player=None)


def kinds(cursor: Any) -> list[str]:
    """The kinds of game the statistics views hold, sorted."""
    cursor.execute("SELECT DISTINCT kind FROM view_stat_games")
    return sorted(row[0] for row in cursor.fetchall())


def stat_game_count(cursor: Any) -> int:
    """How many games the statistics views hold."""
    cursor.execute("SELECT COUNT(*) FROM view_stat_games")
    return int(cursor.fetchone()[0])


PAGE = 2000
"""The rows of a long list (the periods') read at a time."""

IDS = 900
"""The most game ids one query names (SQLite before 3.32 takes 999 parameters)."""


class ViewFigures:
    """The figures of the games of ``kind`` that ``filters`` choose, read through ``cursor`` (a ``Figures``).

    Every column has a name of its own: PostgreSQL's rows come back by name, and two ``count`` would be one.
    """

    def __init__(self, cursor: Any, kind: str, filters: Filters = Filters(), *, games: Sequence[str] | None = None):
        """``games``: the ids of the games to read, when the caller has chosen them (:func:`split`)."""
        self.cursor = cursor
        self.kind = kind
        self._games = list(games) if games is not None else split(cursor, kind, filters)[0]

    def _rows(self, sql: str, *params: Any, keys: int | None = None) -> list[tuple]:
        """Rows of ``sql``, whose ``{chosen}`` is the games chosen: their ids as parameters (before any other), at most
        :data:`IDS` a query, so that the choice is made once, not in each query. The rows of several queries are
        added up by their first ``keys`` columns (every figure is a count or a sum over games: ``None``, lines,
        are listed one after another)."""
        found: dict[tuple, list] = {}
        listed: list[tuple] = []
        for at in range(0, max(len(self._games), 1), IDS):
            some = self._games[at:at + IDS]
            self.cursor.execute(sql.format(chosen=", ".join("?" * len(some)) or "NULL"), (*some, *params))
            # PostgreSQL sums integers as numeric (a Decimal): every sum here is a whole number.
            rows = [tuple(int(v) if isinstance(v, Decimal) else v for v in row) for row in self.cursor.fetchall()]
            if keys is None or len(self._games) <= IDS:
                listed += rows
                continue
            for row in rows:
                values = found.setdefault(row[:keys], [0] * (len(row) - keys))
                for i, value in enumerate(row[keys:]):
                    values[i] += value or 0
        return listed if keys is None or len(self._games) <= IDS else [(*k, *v) for k, v in found.items()]

    def count(self) -> tuple[int, int]:
        (games, finished), = self._rows("SELECT COUNT(*) AS games, COUNT(r.game) AS finished FROM view_stat_games g "
                                        "LEFT JOIN view_results r ON r.game = g.game WHERE g.game IN ({chosen})", keys=0)
        return games, finished

    def sides(self) -> list[SideRow]:
        return [SideRow(*row) for row in self._rows(
            "SELECT s.side, COUNT(*) AS games, SUM(CASE WHEN r.winner = s.player THEN 1 ELSE 0 END) AS wins, "
            "SUM(s.score) AS score, SUM(CAST(s.score AS BIGINT) * s.score) AS squares FROM view_stat_seats s "
            "LEFT JOIN view_results r ON r.game = s.game WHERE s.game IN ({chosen}) GROUP BY s.side", keys=1)]

    def players(self) -> list[PlayerRow]:
        return [PlayerRow(*row) for row in self._rows(
            "SELECT s.player, s.side, COUNT(*) AS games, SUM(CASE WHEN r.winner = s.player THEN 1 ELSE 0 END) AS wins, "
            "SUM(s.score) AS score, SUM(CAST(s.score AS BIGINT) * s.score) AS squares FROM view_stat_seats s "
            "LEFT JOIN view_results r ON r.game = s.game WHERE s.game IN ({chosen}) GROUP BY s.player, s.side", keys=2)]

    def seats(self) -> list[tuple[int, int, int]]:
        return self._rows("SELECT s.seat, COUNT(*) AS games, SUM(CASE WHEN r.winner = s.player THEN 1 ELSE 0 END) "
                          "AS wins FROM view_stat_seats s LEFT JOIN view_results r ON r.game = s.game "
                          "WHERE s.game IN ({chosen}) GROUP BY s.seat", keys=1)

    def periods(self) -> Iterable[PeriodRow]:
        sql = ("SELECT p.period, s.side, COUNT(*) AS games, SUM(p.value) AS score, "
               "SUM(CAST(p.value AS BIGINT) * p.value) AS squares FROM view_stat_periods p "
               "JOIN view_stat_seats s ON s.game = p.game AND s.player = p.player WHERE p.game IN ({chosen}) "
               "GROUP BY p.period, s.side")
        if len(self._games) > IDS:  # several queries' rows, added up: held
            return sorted((PeriodRow(*row) for row in self._rows(sql, keys=2)), key=lambda row: row.period)
        return self._paged(sql + " ORDER BY p.period, s.side")

    def _paged(self, sql: str) -> Iterator[PeriodRow]:
        """The rows of ``sql`` (of at most :data:`IDS` games) on a cursor of their own, a page at a time: written
        as they come."""
        cursor = self.cursor.another()
        try:
            cursor.execute(sql.format(chosen=", ".join("?" * len(self._games)) or "NULL"), tuple(self._games))
            while page := cursor.fetchmany(PAGE):
                for row in page:
                    yield PeriodRow(*(int(v) if isinstance(v, Decimal) else v for v in row))
        finally:
            cursor.close()

    def tallies(self, fact: str, by_side: bool) -> list[FactTotal]:
        # A game's tallies are one row a player: by side, each counts (as a side's games count its seats, and the
        # sums count them); over every side, a game counts once. The index on (fact, game, ...) holds every column
        # read, so only the chosen games' rows of the fact are read.
        if by_side:
            rows = self._rows(
                "SELECT t.name, t.detail, COALESCE(s.side, '') AS side, COUNT(*) AS games, SUM(t.amount) AS amount, "
                "SUM(t.periods) AS periods, SUM(CASE WHEN r.winner = t.player THEN t.amount ELSE 0 END) AS won "
                "FROM view_stat_tallies t LEFT JOIN view_stat_seats s ON s.game = t.game AND s.player = t.player "
                "LEFT JOIN view_results r ON r.game = t.game "
                "WHERE t.game IN ({chosen}) AND t.fact = ? AND t.amount <> 0 GROUP BY t.name, t.detail, s.side", fact,
                keys=3)
        else:
            rows = self._rows(
                "SELECT t.name, t.detail, '' AS side, COUNT(DISTINCT t.game) AS games, SUM(t.amount) AS amount, "
                "SUM(t.periods) AS periods, SUM(CASE WHEN r.winner = t.player THEN t.amount ELSE 0 END) AS won "
                "FROM view_stat_tallies t LEFT JOIN view_results r ON r.game = t.game "
                "WHERE t.game IN ({chosen}) AND t.fact = ? AND t.amount <> 0 GROUP BY t.name, t.detail", fact, keys=3)
        return [FactTotal(*row) for row in rows]

    def games_with(self, fact: str) -> list[tuple[str, int]]:
        return self._rows("SELECT t.name, COUNT(DISTINCT t.game) AS games FROM view_stat_tallies t "
                          "WHERE t.game IN ({chosen}) AND t.fact = ? AND t.amount <> 0 GROUP BY t.name", fact, keys=1)

    def period_counts(self) -> list[tuple[int, int]]:
        return self._rows("SELECT n, COUNT(*) AS games FROM (SELECT p.game, MAX(p.period) AS n FROM view_stat_periods p "
                          "WHERE p.game IN ({chosen}) GROUP BY p.game) AS lasted GROUP BY n", keys=1)

    def _explained(self, sql: str, *params: Any) -> list[Explained]:
        rows = self._rows(sql, *params)
        return [Explained(game, line, text or "", amount) for game, line, text, amount in sorted(
            rows, key=lambda r: (r[0], r[1]))]

    def fact_lines(self, fact: str, name: str | None, detail: str | None, side: str | None) -> list[Explained]:
        where, params = ["f.game IN ({chosen})", "f.fact = ?", "f.amount <> 0"], [fact]
        for column, value in (("f.name", name), ("f.detail", detail), ("s.side", side)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        return self._explained(
            "SELECT f.game, f.line, l.text, f.amount FROM view_stat_facts f "
            "LEFT JOIN view_stat_seats s ON s.game = f.game AND s.player = f.player "
            f"LEFT JOIN view_lines l ON l.game = f.game AND l.line = f.line WHERE {' AND '.join(where)}", *params)

    def win_lines(self, side: str) -> list[Explained]:
        return self._explained(
            "SELECT r.game, r.line, r.reason, 1 AS amount FROM view_results r "
            "JOIN view_stat_seats s ON s.game = r.game AND s.player = r.winner "
            "WHERE r.game IN ({chosen}) AND s.side = ?", side)

    def score_lines(self, side: str, period: int | None) -> list[Explained]:
        if period is None:
            return self._explained(
                "SELECT s.game, s.line, l.text, s.score FROM view_stat_seats s "
                "LEFT JOIN view_lines l ON l.game = s.game AND l.line = s.line WHERE s.game IN ({chosen}) "
                "AND s.side = ?", side)
        return self._explained(
            "SELECT p.game, p.line, l.text, p.value FROM view_stat_periods p "
            "JOIN view_stat_seats s ON s.game = p.game AND s.player = p.player "
            "LEFT JOIN view_lines l ON l.game = p.game AND l.line = p.line "
            "WHERE p.game IN ({chosen}) AND s.side = ? AND p.period = ?", side, period)

    def sides_held_twice(self) -> bool:
        """Whether a chosen game seats two players of one side (then a side's seats are more than its games)."""
        return any(self._rows("SELECT s.game, s.side FROM view_stat_seats s WHERE s.game IN ({chosen}) "
                              "GROUP BY s.game, s.side HAVING COUNT(*) > 1"))

    def trace(self, requests: Iterable[Request], limit: int,
              known: dict[Request, tuple[int, int, int]] | None = None
              ) -> dict[Request, tuple[int, int, int, list[Explained]]]:
        """For each request (a ``*_lines`` call), (games, lines, total, the lines of its first ``limit`` games by
        id): requests of one kind (method, fact, arguments given) are read together, counted in one query (unless
        ``known`` gives every one's (games, lines, total)), and their lines read from the first games on, a few
        hundred games at a time, until each has its ``limit``."""
        known = known or {}
        groups: dict[tuple, list[Request]] = {}
        for request in requests:
            shape = (request.method, request.args[0] if request.method == "fact_lines" else None,
                     tuple(v is None for v in request.args))
            groups.setdefault(shape, []).append(request)
        found: dict[Request, tuple[int, int, int, list[Explained]]] = {}
        for group in groups.values():
            how = _lines_of(group[0])
            # A figure of no key (an explain asking for every line of a fact) is one group: key 0.
            keys, group_by = (how.keys, f" GROUP BY {', '.join(how.keys)}") if how.keys else (["0"], "")
            wanted = {(_lines_of(r).values or (0,)): r for r in group}
            if all(r in known for r in group):
                counted = [(*key, *known[r]) for key, r in wanted.items() if known[r][1]]
            else:
                counted = self._rows(f"SELECT {', '.join(keys)}, COUNT(DISTINCT {how.game}) AS games, "
                                     f"COUNT(*) AS lines, SUM({how.amount}) AS total "
                                     f"{how.source.format(text='', chosen='{chosen}')}{group_by}", *how.params,
                                     keys=len(keys))
            totals = {row[:len(keys)]: row[len(keys):] for row in counted if row[:len(keys)] in wanted}
            shown: dict[tuple, tuple[set, list[Explained]]] = {key: (set(), []) for key in totals}
            sql = (f"SELECT {', '.join(keys)}, {how.game}, {how.line}, {how.amount}, {how.text} "
                   f"{how.source.format(text=how.join, chosen='{chosen}')}")
            at, size = 0, 100  # the first games in a small query: most figures have their first games there
            while at < len(self._games) and any(len(shown[k][0]) < min(limit, totals[k][0]) for k in totals):
                rows = ViewFigures(self.cursor, self.kind, games=self._games[at:at + size])._rows(sql, *how.params)
                for *key, game_id, line, value, words in sorted(rows, key=lambda r: (r[len(keys)], r[len(keys) + 1])):
                    games, listed = shown.get(tuple(key), (None, None))
                    if games is None or (game_id not in games and len(games) >= limit):
                        continue
                    games.add(game_id)
                    listed.append(Explained(game_id, line, words or "", value))
                at, size = at + size, IDS
            for key, (games, lines, total) in totals.items():
                found[wanted[key]] = (games, lines, total, shown[key][1])
        return found


class Request(NamedTuple):
    """What a game's ``explain`` asked of a ``Figures`` for one figure's lines: the method (``fact_lines``,
    ``win_lines`` or ``score_lines``) and its arguments."""

    method: str
    args: tuple


class Trace(NamedTuple):
    """The lines behind one figure, as ``--explain`` gives them: how many ``games`` they come from, how many
    ``lines``, their ``total``, and the lines of the first games (by id) in full (``shown``)."""

    figure: str
    games: int
    lines: int
    total: int
    shown: list[Explained]


class _Lines(NamedTuple):
    """How the lines a :class:`Request` asks for are read, as SQL: ``keys``, the columns that tell apart the figures
    of requests of its kind (the arguments given); ``source``, the FROM and WHERE of every such line (``{chosen}``:
    the games; ``{text}``: where ``join``, the join to the lines' words, goes when they are read); its ``game``,
    ``line``, ``amount`` and ``text`` columns; its ``params``; and ``values``, the request's values of ``keys``."""

    keys: list[str]
    source: str
    game: str
    line: str
    amount: str
    join: str
    text: str
    params: tuple
    values: tuple


def _lines_of(request: Request) -> _Lines:
    """How ``request``'s lines are read (what ``ViewFigures``' method of that name reads, grouped by its keys)."""
    if request.method == "fact_lines":
        fact, *given = request.args
        keys = [c for c, v in zip(("f.name", "f.detail", "s.side"), given) if v is not None]
        # The players' sides only when a side is asked for (a seat is one a game and player: the rows are the same).
        seats = " LEFT JOIN view_stat_seats s ON s.game = f.game AND s.player = f.player" if given[2] is not None else ""
        return _Lines(keys, f"FROM view_stat_facts f{seats} {{text}} WHERE f.game IN ({{chosen}}) AND f.fact = ? "
                      "AND f.amount <> 0", "f.game", "f.line", "f.amount", *_words("f"), (fact,),
                      tuple(v for v in given if v is not None))
    if request.method == "win_lines":
        return _Lines(["s.side"], "FROM view_results r JOIN view_stat_seats s ON s.game = r.game AND s.player = r.winner "
                      "WHERE r.game IN ({chosen})", "r.game", "r.line", "1", "", "r.reason", (), request.args)
    side, period = request.args
    if period is None:
        return _Lines(["s.side"], "FROM view_stat_seats s {text} WHERE s.game IN ({chosen})", "s.game", "s.line",
                      "s.score", *_words("s"), (), (side,))
    return _Lines(["s.side", "p.period"], "FROM view_stat_periods p JOIN view_stat_seats s ON s.game = p.game "
                  "AND s.player = p.player {text} WHERE p.game IN ({chosen})", "p.game", "p.line", "p.value",
                  *_words("p"), (), (side, period))


def _words(table: str) -> tuple[str, str]:
    """The join to the words of a line read from ``table`` (its ``game`` and ``line``), and their column."""
    return f"LEFT JOIN view_lines l ON l.game = {table}.game AND l.line = {table}.line", "l.text"


class _Asked:
    """A ``Figures`` that answers with ``figures``' figures (each asked once) and, asked for lines, records what
    was asked (:class:`Request`) and gives none: a game's ``explain`` run on it says which lines make a figure."""

    def __init__(self, figures: Any):
        self._figures = figures
        self._known: dict[tuple, Any] = {}
        self.asked: list[Request] = []

    def _once(self, name: str, *args: Any) -> Any:
        if (name, args) not in self._known:
            self._known[(name, args)] = getattr(self._figures, name)(*args)
        return self._known[(name, args)]

    def count(self) -> tuple[int, int]:
        return self._once("count")

    def sides(self) -> list[SideRow]:
        return self._once("sides")

    def players(self) -> list[PlayerRow]:
        return self._once("players")

    def seats(self) -> list[tuple[int, int, int]]:
        return self._once("seats")

    def periods(self) -> list[PeriodRow]:
        if ("periods", ()) not in self._known:  # rows that may be read as they come: held, as they are asked again
            self._known[("periods", ())] = list(self._figures.periods())
        return self._known[("periods", ())]

    def tallies(self, fact: str, by_side: bool) -> list[FactTotal]:
        return self._once("tallies", fact, by_side)

    def games_with(self, fact: str) -> list[tuple[str, int]]:
        return self._once("games_with", fact)

    def period_counts(self) -> list[tuple[int, int]]:
        return self._once("period_counts")

    def fact_lines(self, fact: str, name: str | None, detail: str | None, side: str | None) -> list[Explained]:
        self.asked.append(Request("fact_lines", (fact, name, detail, side)))
        return []

    def win_lines(self, side: str) -> list[Explained]:
        self.asked.append(Request("win_lines", (side,)))
        return []

    def score_lines(self, side: str, period: int | None) -> list[Explained]:
        self.asked.append(Request("score_lines", (side, period)))
        return []


def cell_figure(template: str, columns: tuple[str, ...], row: tuple) -> str | None:
    """The figure a ``links`` template names for a row of a table (None when a value it needs is none, or holds a
    ``/``, which ``--explain`` reads as a separator)."""
    values = dict(zip(columns, row))
    try:
        figure = template.format(**{k: "" if v is None else str(v) for k, v in values.items()})
    except (KeyError, IndexError):
        return None
    needed = [values.get(name) for name in _placeholders(template)]
    if any(v is None or "/" in str(v) or str(v) == "" for v in needed):
        return None
    return figure


def _placeholders(template: str) -> list[str]:
    import string

    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def linked_cells(statistics: Any, document: Any) -> list[tuple[str, str, Any, str]]:
    """Every cell of the document's tables that ``statistics.links`` names a figure for: (table, column, the row's
    first value, figure); in ``summary`` the row is the figure's own."""
    cells = []
    for table in tables(document):
        for name, column, template in statistics.links:
            if name != table.name:
                continue
            for row in table.rows:
                if table.name == "summary":
                    if row[0] == column:
                        cells.append((table.name, column, row[0], template))
                    continue
                if column not in table.columns:
                    continue
                figure = cell_figure(template, table.columns, row)
                if figure is not None:
                    cells.append((table.name, column, row[0], figure))
    return cells


@dataclass(frozen=True)
class Traced:
    """A statistics document with the lines behind its figures, for a page that links each figure to them.

    ``traces``: each linked figure's :class:`Trace` (:func:`traces`); ``reports``: the folder of the games' own
    reports, as the page links to it (relative to the page; a game's report is ``reports/`` + :func:`report_name`);
    ``command``: the ``gamelog stats`` command (its filters) that, given ``--explain FIGURE``, lists all of a
    figure's lines; ``listed``: the most games a figure lists; ``named``: the sides and players the filters name
    (``--faction``, ``--player``), whose series the page's charts draw beside the few of most games.
    """

    document: Any
    traces: dict[str, Trace]
    reports: str
    command: str
    listed: int
    named: tuple[str, ...] = ()


def report_name(game: str) -> str:
    """The file name of a game's report in the reports' folder: its id, every character but letters, digits and
    ``_.-~`` written ``%XX`` (an id may hold ``/`` or anything), then ``.html``."""
    from urllib.parse import quote

    return quote(game, safe="") + ".html"


def _known_counts(figures: Any, lines: "ViewFigures",
                  requests: Iterable[Request]) -> dict[Request, tuple[int, int, int]]:
    """(games, lines, total) of the requests for a side's scores that the figures already count: a side's final
    scores are its seats (``sides``), its scores after a period its rows of that period (``periods``), each a line,
    and their total its ``score``; they are as many games, unless a game seats two players of one side."""
    scores = [r for r in requests if r.method == "score_lines"]
    if not scores or lines.sides_held_twice():
        return {}
    sides = {row.side: row for row in figures.sides()}
    periods = {(row.side, row.period): row for row in figures.periods()}
    known = {}
    for request in scores:
        side, period = request.args
        row = sides.get(side) if period is None else periods.get((side, period))
        known[request] = (row.games, row.games, row.score) if row is not None else (0, 0, 0)
    return known


def traces(statistics: Any, document: Any, figures: Any, lines: "ViewFigures", limit: int) -> dict[str, Trace]:
    """The lines behind each figure a cell of ``document`` links to (:func:`linked_cells`), as ``--explain`` gives
    them: ``statistics.explain`` is run on ``figures`` (which made the document) to learn which lines each figure
    rests on, and ``lines`` (the same games, read game by game) reads them a kind at a time, counting them all and
    keeping those of each figure's first ``limit`` games. A figure ``explain`` does not know (a secret objective
    was never revealed) has no trace."""
    asked = _Asked(figures)
    wanted: dict[str, Request] = {}
    for _, _, _, figure in linked_cells(statistics, document):
        if figure in wanted:
            continue
        asked.asked.clear()
        try:
            statistics.explain(asked, figure)
        except KeyError:
            continue
        if len(asked.asked) == 1:  # a figure made of one kind of line (every game's explain, so far)
            wanted[figure] = asked.asked[0]
    found = lines.trace(set(wanted.values()), limit, _known_counts(asked, lines, wanted.values()))
    return {figure: Trace(figure, *found.get(request, (0, 0, 0, []))) for figure, request in wanted.items()}


def summable(filters: Filters) -> bool:
    """Whether ``filters`` choose games by their bucket alone (``view_stat_sums``): no ids, side or player."""
    return not filters.ids and filters.side is None and filters.player is None


class _LinesGameByGame:
    """The lines behind a figure, read game by game (``self._lines``, a :class:`ViewFigures`): what figures added up
    across games (:class:`SummedFigures`, :class:`LessFigures`) cannot say."""

    _lines: ViewFigures

    def fact_lines(self, fact: str, name: str | None, detail: str | None, side: str | None) -> list[Explained]:
        return self._lines.fact_lines(fact, name, detail, side)

    def win_lines(self, side: str) -> list[Explained]:
        return self._lines.win_lines(side)

    def score_lines(self, side: str, period: int | None) -> list[Explained]:
        return self._lines.score_lines(side, period)


class SummedFigures(_LinesGameByGame):
    """The figures of the games of ``kind`` that ``filters`` choose, from the sums across games (``view_stat_sums``,
    ``projections.views.sums``): one query, whatever the number of games. ``filters`` must be :func:`summable`;
    the lines behind a figure are read game by game (:class:`ViewFigures`)."""

    def __init__(self, cursor: Any, kind: str, filters: Filters = Filters()):
        if not summable(filters):
            raise ValueError("the sums choose games by their bucket only: no ids, side or player")
        self._lines = ViewFigures(cursor, kind, filters)
        where, params = bucket_conditions(kind, filters, SUM_COLUMNS)
        # Every figure but the periods' (a row a side and period: as many as a long game's turns) is read now; the
        # periods' are read in order when asked for (periods()), a page at a time.
        cursor.execute("SELECT what, side, name, detail, winner, SUM(games) AS games, SUM(amount) AS amount, "
                       "SUM(periods) AS periods, SUM(extra) AS extra FROM view_stat_sums "
                       f"WHERE {' AND '.join(where)} AND what <> 'period' GROUP BY what, side, name, detail, winner",
                       tuple(params))
        self._cursor, self._where, self._params = cursor, where, tuple(params)
        self._rows: dict[str, list[tuple]] = {}
        for what, side, name, detail, winner, *values in cursor.fetchall():
            self._rows.setdefault(what, []).append((side, name, detail, winner, *(int(v) for v in values)))

    def _of(self, what: str) -> list[tuple]:
        return self._rows.get(what, [])

    def count(self) -> tuple[int, int]:
        rows = self._of("game")
        return sum(r[4] for r in rows), sum(r[5] for r in rows)

    def sides(self) -> list[SideRow]:
        sides: dict[str, list[int]] = {}
        for side, _, _, winner, games, score, _, squares in self._of("side"):
            total = sides.setdefault(side, [0, 0, 0, 0])
            total[0] += games
            total[1] += games if winner else 0
            total[2] += score
            total[3] += squares
        return [SideRow(side, *total) for side, total in sides.items()]

    def players(self) -> list[PlayerRow]:
        players: dict[tuple[str, str], list[int]] = {}
        for player, side, _, winner, games, score, _, squares in self._of("player"):
            total = players.setdefault((player, side), [0, 0, 0, 0])
            total[0] += games
            total[1] += games if winner else 0
            total[2] += score
            total[3] += squares
        return [PlayerRow(player, side, *total) for (player, side), total in players.items()]

    def seats(self) -> list[tuple[int, int, int]]:
        seats: dict[int, list[int]] = {}
        for _, seat, _, winner, games, *_ in self._of("seat"):
            total = seats.setdefault(int(seat), [0, 0])
            total[0] += games
            total[1] += games if winner else 0
        return [(seat, games, wins) for seat, (games, wins) in seats.items()]

    def periods(self) -> Iterator[PeriodRow]:
        # A cursor of its own, read a page at a time: the rows are written as they come (a period is a name, text).
        # The order after the period's is the one the rows were grouped in before they were read in order.
        cursor = self._cursor.another()
        try:
            cursor.execute("SELECT side, name, SUM(games) AS games, SUM(amount) AS amount, SUM(extra) AS extra "
                           f"FROM view_stat_sums WHERE {' AND '.join(self._where)} AND what = 'period' "
                           "GROUP BY side, name, detail, winner ORDER BY CAST(name AS INTEGER), side, detail, winner",
                           self._params)
            while page := cursor.fetchmany(PAGE):
                for side, period, games, score, squares in page:
                    yield PeriodRow(int(period), side, int(games), int(score), int(squares))
        finally:
            cursor.close()

    def tallies(self, fact: str, by_side: bool) -> list[FactTotal]:
        if not by_side:
            return [FactTotal(name, detail, "", games, amount, periods, won)
                    for _, name, detail, _, games, amount, periods, won in self._of(f"all:{fact}") if detail != ALL_SIDES]
        totals: dict[tuple[str, str, str], list[int]] = {}
        for side, name, detail, winner, games, amount, periods, _ in self._of(f"fact:{fact}"):
            total = totals.setdefault((name, detail, side), [0, 0, 0, 0])
            total[0] += games
            total[1] += amount
            total[2] += periods
            total[3] += amount if winner else 0
        return [FactTotal(name, detail, side, *total) for (name, detail, side), total in totals.items()]

    def games_with(self, fact: str) -> list[tuple[str, int]]:
        return [(name, games) for _, name, detail, _, games, *_ in self._of(f"all:{fact}") if detail == ALL_SIDES]

    def period_counts(self) -> list[tuple[int, int]]:
        return [(int(name), games) for _, name, _, _, games, *_ in self._of("lasted")]


def _less(whole: list[tuple], part: list[tuple], keys: int) -> list[tuple]:
    """The rows of ``whole`` less those of ``part`` (rows of ``keys`` key columns, then counts), keyed alike; a row
    whose first count (its games) comes to 0 goes, as the figures of no game have none."""
    left = {row[:keys]: list(row[keys:]) for row in whole}
    for row in part:
        values = left.setdefault(row[:keys], [0] * (len(row) - keys))
        for at, value in enumerate(row[keys:]):
            values[at] -= value
    return [(*key, *values) for key, values in left.items() if values[0]]


class LessFigures(_LinesGameByGame):
    """The figures of a bucket's games less those of some of them: every figure a ``Figures`` gives is a count or
    a sum over games, so the figures of the games a per-game filter chooses are those of their bucket
    (:class:`SummedFigures`, one query) less those of the games it leaves out (:class:`ViewFigures`, read game by
    game): when a filter keeps most of a bucket, fewer games are read. The lines behind a figure are read from
    ``lines`` (the chosen games')."""

    def __init__(self, whole: Any, left_out: Any, lines: Any):
        self._whole, self._left_out, self._lines = whole, left_out, lines

    def count(self) -> tuple[int, int]:
        (games, finished), (less_games, less_finished) = self._whole.count(), self._left_out.count()
        return games - less_games, finished - less_finished

    def sides(self) -> list[SideRow]:
        return [SideRow(*row) for row in _less(self._whole.sides(), self._left_out.sides(), 1)]

    def players(self) -> list[PlayerRow]:
        return [PlayerRow(*row) for row in _less(self._whole.players(), self._left_out.players(), 2)]

    def seats(self) -> list[tuple[int, int, int]]:
        return _less(self._whole.seats(), self._left_out.seats(), 1)

    def periods(self) -> Iterator[PeriodRow]:
        # Both in the order of the periods: taken a period at a time, none held.
        wholes = groupby(self._whole.periods(), key=lambda row: row.period)
        parts = groupby(self._left_out.periods(), key=lambda row: row.period)
        whole, part = next(wholes, None), next(parts, None)
        while whole is not None or part is not None:
            if part is None or (whole is not None and whole[0] < part[0]):
                rows, whole = _less(list(whole[1]), [], 2), next(wholes, None)
            elif whole is None or part[0] < whole[0]:
                rows, part = _less([], list(part[1]), 2), next(parts, None)
            else:
                rows = _less(list(whole[1]), list(part[1]), 2)
                whole, part = next(wholes, None), next(parts, None)
            yield from (PeriodRow(*row) for row in rows)

    def tallies(self, fact: str, by_side: bool) -> list[FactTotal]:
        return [FactTotal(*row) for row in _less(self._whole.tallies(fact, by_side),
                                                 self._left_out.tallies(fact, by_side), 3)]

    def games_with(self, fact: str) -> list[tuple[str, int]]:
        return _less(self._whole.games_with(fact), self._left_out.games_with(fact), 1)

    def period_counts(self) -> list[tuple[int, int]]:
        return _less(self._whole.period_counts(), self._left_out.period_counts(), 1)


def figures_of(cursor: Any, kind: str, filters: Filters) -> Any:
    """The ``Figures`` of the games ``filters`` choose, read the quickest way: the sums across games when the
    filters are :func:`summable`; else the chosen games read game by game, or, when the per-game filters leave
    out fewer games of their bucket than they keep, the bucket's sums less the games left out
    (:class:`LessFigures`). Every way gives the same figures (tests/test_stats_real.py)."""
    if summable(filters):
        return SummedFigures(cursor, kind, filters)
    games, left_out = split(cursor, kind, filters)
    read = ViewFigures(cursor, kind, filters, games=games)
    if len(left_out) >= len(games):
        return read
    return LessFigures(SummedFigures(cursor, kind, bucket_of(filters)), ViewFigures(cursor, kind, games=left_out), read)


# -- the document as tables --------------------------------------------------------------------


class Table(NamedTuple):
    """One table of a statistics document: its name (``--table NAME``), columns and rows."""

    name: str
    columns: tuple[str, ...]
    rows: Iterable[tuple]
    """A list, or rows read again each time they are gone through (a long list's: :class:`_TableRows`)."""


def tables(document: Any) -> list[Table]:
    """The document's tables: ``summary`` (its single figures), then each list of rows, in the document's order.

    A list the document holds as :class:`~domain.replay_document.StreamedRows` is a table whose rows are read
    again each time they are gone through (:class:`_TableRows`), its columns its type's fields (a list held
    whole, and empty, has none: a table of no rows is written alike either way)."""
    summary: list[tuple[str, Any]] = []
    found: list[Table] = []
    types = {f.name: f.type for f in msgspec.structs.fields(type(document))}
    for name in document.__struct_fields__:
        value = getattr(document, name)
        if isinstance(value, StreamedRows):
            columns = tuple(f.name for f in msgspec.structs.fields(typing.get_args(types[name])[0]))
            found.append(Table(name, columns, _TableRows(value, columns)))
        elif isinstance(value, list):
            columns = tuple(f for f in _fields(value))
            found.append(Table(name, columns, [tuple(getattr(row, c) for c in columns) for row in value]))
        elif name != "version" and value is not msgspec.UNSET:
            summary.append((name, value))
    return [Table("summary", ("figure", "value"), [("game", document.game), *summary]), *found]


class _TableRows:
    """A table's rows (tuples of ``columns``) read from ``rows`` (a document's StreamedRows) each time they are gone
    through."""

    def __init__(self, rows: StreamedRows, columns: tuple[str, ...]):
        self._rows, self._columns = rows, columns

    def __iter__(self) -> Iterator[tuple]:
        columns = self._columns
        return (tuple(getattr(row, c) for c in columns) for row in self._rows)


def _fields(rows: list[Any]) -> tuple[str, ...]:
    if rows:
        return rows[0].__struct_fields__
    return ()


def table_names(document_type: Any) -> list[str]:
    """The names ``--table`` takes for a document type: ``summary`` and its lists."""
    hints = msgspec.structs.fields(document_type)
    return ["summary", *(f.name for f in hints if getattr(f.type, "__origin__", None) is list)]


class ExplainedLine(Document, kw_only=True):
    """One line behind a figure (``stats --explain``): the game, the line, its words, what it counts."""

    game: str
    line: int
    text: str
    amount: int


class Explanation(Document, kw_only=True):
    """``stats --explain FIGURE --format json``: the figure, the lines behind it, their sum, how many games."""

    game: str
    figure: str
    total: int
    games: int
    lines: list[ExplainedLine]
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""


def explanation(kind: str, figure: str, lines: list[Explained]) -> Explanation:
    """The lines behind ``figure`` as a document: ``total`` is their sum, ``games`` how many games they come from."""
    return Explanation(game=kind, figure=figure, total=sum(l.amount for l in lines),
                       games=len({l.game for l in lines}),
                       lines=[ExplainedLine(game=l.game, line=l.line, text=l.text, amount=l.amount) for l in lines])
