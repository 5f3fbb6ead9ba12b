"""Reconcile a game's declared result with the one its log computes (``gamelog reconcile``).

A result is declared by the log itself (what another tool or an archive wrote
in it: a winner, final scores, adjustments of a source of points) and by a
results table (:mod:`.results_table`). For one game, :func:`reconcile` sets
each player's declared score against the computed one, source by source,
and applies the declared adjustments as a what-if (the deciding again of
``audit --without``). For a whole store, :func:`reconcile_store` matches each
game of a table to a stored game (by its id, else by the players and
factions its rows name) and lists the games that disagree.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

from gamelog.domain.replay import PointNotReached, without as replay_without
from gamelog.projections.reports.audit import audit_parts
from gamelog.projections.reports.documents import Reconciliation, StoreReconciliation
from gamelog.projections.reports.model import report_head
from gamelog.projections.reports.reconcile import Folded, TableRow, WhatIfScores, declares, fold, reconciliation
from gamelog.projections.reports.registry import Layout, reconcile_format
from gamelog.projections.reports.terminal import WIDTH
from gamelog.projections.views.keeper import views_in_memory

from .errors import BadInput, PointNotInGame
from .outputs import check_output
from .bgstats import play_matches, played_on
from .results import agreement_line
from .results_table import DeclaredRow, ResultsTable, TableInvalid, read_table
from .sources import Source, StoredGame, is_log_file, open_game, opened_game_store, reading_views

__all__ = ["Reconciled", "Reconciliation", "StoreReconciliation", "TableInvalid", "read_table", "reconcile",
           "reconcile_source", "reconcile_store", "reconciled"]


@dataclass(frozen=True)
class Candidate:
    """A game a table's rows may be: its id, its players and their factions."""

    id: str
    players: list[str]
    factions: dict[str, str]
    game: str = ""
    date: str | None = None
    """The game it is (its registry name) and the day it was played (``YYYY-MM-DD``; None: not recorded): what a
    BG Stats play is matched by, with its players."""


@dataclass(frozen=True)
class Matched:
    """A table's game matched to a candidate: how (``id``, ``players and factions``), and its rows as players."""

    name: str
    candidate: Candidate
    by: str
    rows: list[tuple[DeclaredRow, str]]


def _candidate(header: Any, game: str = "", date: str | None = None) -> Candidate:
    factions = dict(getattr(getattr(header, "setup", None), "factions", {}) or {})
    return Candidate(header.id, list(header.players), factions, game, date)


def _same_faction(a: str | None, b: str | None) -> bool:
    """Whether two names of a faction are one: as written, or in any case with or without "The" (a header's
    "The Emirates of Hacan" is BG Stats' "Emirates of Hacan")."""
    fold = lambda name: (name or "").casefold().removeprefix("the ").strip()  # noqa: E731
    return a == b or bool(a and b) and fold(a) == fold(b)


def _player(row: DeclaredRow, c: Candidate) -> str | None:
    """The player a row names in ``c``, by name, else by faction (None: neither is the game's)."""
    if row.player in c.players:
        return row.player
    by_faction = [p for p, f in c.factions.items() if _same_faction(f, row.faction)]
    return by_faction[0] if row.faction and by_faction else None


def _fits(row: DeclaredRow, c: Candidate) -> bool:
    """Whether a row is one of ``c``'s players: its player and its faction both ``c``'s, of one seat (those given)."""
    player = _player(row, c)
    return player is not None and (not row.player or row.player == player) and \
        (not row.faction or c.factions.get(player) is None or _same_faction(c.factions.get(player), row.faction))


def _conflict(row: DeclaredRow, player: str, c: Candidate) -> str | None:
    """Why a row's player and faction disagree in ``c`` (None: they don't)."""
    if row.player and row.faction and player == row.player and c.factions.get(player) is not None \
            and not _same_faction(c.factions.get(player), row.faction):
        return f"{row.player!r} plays {c.factions[player]!r} in {c.id}, not {row.faction!r}"
    if row.player and row.player != player:
        return f"{row.player!r} is not a player of {c.id} ({', '.join(c.players)}); its faction {row.faction!r} is {player}'s"
    return None


def _group(table: ResultsTable) -> dict[str, list[DeclaredRow]]:
    groups: dict[str, list[DeclaredRow]] = {}
    for row in table.rows:
        groups.setdefault(row.game, []).append(row)
    return groups


def _same_id(name: str, game_id: str) -> bool:
    return name == game_id or name.rsplit(".", 1)[0] == game_id


def _match(table: ResultsTable, name: str, rows: list[DeclaredRow], candidates: list[Candidate],
           problems: list[str]) -> Matched | None:
    """The candidate ``rows`` (a table's game ``name``) are, or None; a row that cannot be one of its players is a
    problem (``FILE:LINE: ...``)."""
    if table.plays:  # a BG Stats play: a game of its title, played that day (where the game says when)
        candidates = [c for c in candidates if play_matches(name, c.game, c.date)]
    by_id = [c for c in candidates if table.has_games and _same_id(name, c.id)]
    if by_id:
        chosen, by = by_id[0], "id"
    else:
        scored = sorted(((sum(_fits(r, c) for r in rows), c) for c in candidates),
                        key=lambda sc: -sc[0])
        if not scored or scored[0][0] * 2 <= len(rows) or len(scored) > 1 and scored[1][0] == scored[0][0]:
            return None
        chosen, by = scored[0][1], "title, day and players" if table.plays else "players and factions"
    return Matched(name, chosen, by, _resolve(table, rows, chosen, problems))


def _resolve(table: ResultsTable, rows: list[DeclaredRow], chosen: Candidate, problems: list[str]) -> list[tuple[DeclaredRow, str]]:
    """Each row with the player of ``chosen`` it names; a row naming none, or one named before, is a problem."""
    matched: list[tuple[DeclaredRow, str]] = []
    seen: dict[str, int] = {}
    for row in rows:
        player = _player(row, chosen)
        if player is None:
            who = " and ".join(repr(x) for x in (row.player, row.faction) if x)
            problems.append(f"{table.where(row)}: {who} is no player of {chosen.id} (players: "
                            f"{', '.join(f'{p} ({f})' if f else p for p, f in ((p, chosen.factions.get(p)) for p in chosen.players))})")
            continue
        conflict = _conflict(row, player, chosen)
        if conflict:
            problems.append(f"{table.where(row)}: {conflict}")
            continue
        if player in seen:
            problems.append(f"{table.where(row)}: {player} is named twice for {chosen.id} (line {seen[player]} too)")
            continue
        seen[player] = row.line
        matched.append((row, player))
    return matched


def _what_if(source: Source, folded: Folded) -> WhatIfScores | None:
    """The game decided again with every line the declared adjustments take away void (None: none to void)."""
    lines = {line for d in folded.declared if d.kind == "adjustment" for line in d.voids}
    if not lines:
        return None
    try:
        hypothetical = replay_without(source.game, source.history(), lines)
    except PointNotReached as exc:
        raise PointNotInGame(f"{source.name}: {exc}") from exc
    cursor = views_in_memory(hypothetical, snapshots=False).cursor()  # read for scores, never replayed
    return WhatIfScores(audit_parts(cursor, source.id).totals, report_head(cursor, source.id).result.winner)


def declared_in(source: Source, cursor: Any) -> Reconciliation | None:
    """The reconciliation of what ``source``'s log declares (no results table), None when it declares nothing: the
    section of the audit and of the HTML report. ``cursor`` reads its views."""
    if not declares(cursor, source.game, source.id):
        return None
    return _reconciliation(source, None, None, report_head(cursor, source.id).result.winner)


def _reconcile_source(source: Source, matched: Matched | None, table: ResultsTable | None) -> Reconciliation:
    with source.views() as cursor, reading_views(source):
        winner = report_head(cursor, source.id).result.winner
    document = _reconciliation(source, matched, table, winner)
    document.agreement = agreement_line(source)  # where the result stands at the table: confirmed, disputed
    return document


def _reconciliation(source: Source, matched: Matched | None, table: ResultsTable | None, winner: str | None) -> Reconciliation:
    folded = fold(source.game, source.history())
    rows = [TableRow(table.where(row), player, row.score, row.win) for row, player in matched.rows] if matched else None
    document = reconciliation(folded, source.game, source.name, winner, _what_if(source, folded), rows)
    if matched is not None:
        document.matched_by, document.table_game = matched.by, matched.name or None
    return document


def reconcile(game: str, store: str, *, declared: str | None = None, columns: str | None = None,
              source_format: str | None = None) -> Reconciliation:
    """GAME's declared result (what its log declares, and the rows of the results table ``declared`` that are
    its own) set against the computed one: ``reconcile --format json``'s document.

    ``columns`` maps a table's columns (``results_table.parse_columns``). The table's rows of other games are
    not read; a table without a game column is all GAME's. Raises :class:`TableInvalid` (``FILE:LINE``) for a
    table that cannot be read, names no row of GAME, or names a player who is not GAME's;
    :class:`~.errors.GameNotFound`, :class:`~.errors.BadInput` and the store's errors. ``source_format``: GAME
    is that tool's export (``sources.open_game``).
    """
    table = read_table(declared, columns) if declared is not None else None
    with open_game(game, store, source_format) as source:
        return reconcile_source(source, table)


def reconcile_source(source: Source, table: ResultsTable | None = None) -> Reconciliation:
    """:func:`reconcile` of a game already open (``sources.Source``), with a results table already read."""
    matched = None
    if table is not None:
        header = next(iter(source.history())).event
        candidate, problems = _candidate(header, source.game, played_on(source)), []
        if not table.has_games:  # a table without a game column is all GAME's
            matched = Matched("", candidate, "the one game given", _resolve(table, table.rows, candidate, problems))
        plays = []
        for name, rows in _group(table).items() if table.has_games else ():
            found = _match(table, name, rows, [candidate], problems)
            if found is not None and matched is None:
                matched = found
            if found is not None:
                plays.append(found.name)
        if table.plays and len(plays) > 1:  # two plays of that title and those players, and no day to tell them
            raise TableInvalid(f"{table.name}:1: {len(plays)} plays of the BG Stats backup may be {candidate.id}: "
                               f"{'; '.join(plays)}; the game's lines have no `at` to say which day it was played")
        if problems:
            raise TableInvalid("\n".join(problems))
        if matched is None:
            first = table.rows[0].line if table.rows else 1
            raise TableInvalid(f"{table.name}:{first}: no game of the results table is {candidate.id} (by its id, "
                               f"or by its players and factions: {', '.join(candidate.players)})")
    return _reconcile_source(source, matched, table)


def reconcile_store(store: str, declared: str, *, columns: str | None = None) -> StoreReconciliation:
    """Every game of the results table ``declared`` matched to a game of the store at ``store`` (by the game's id,
    else by the players and factions its rows name) and reconciled; ``disagree`` lists those whose declared
    scores or winner differ from the computed ones.

    A game that matches no stored game (an archive's table names games not imported yet) is listed in
    ``unmatched`` as ``FILE:LINE: ...``, the others reconciled all the same. Raises :class:`TableInvalid` naming
    ``FILE:LINE`` for a table without a game column, two of its games matching one stored game, a player who is
    not the matched game's; :class:`~.errors.BadInput` and the store's errors.
    """
    table = read_table(declared, columns)
    if not table.has_games:
        raise TableInvalid(f"{table.name}:1: a table of several games has a game column (GameID); name it with "
                           "--columns game=HEADING, or give the one GAME it is")
    with opened_game_store(store, must_exist=True) as opened:
        candidates = [_candidate(next(iter(opened.history(s.id))).event, s.game,
                                 played_on(StoredGame(opened, s.id, store))) for s in opened.games()]
    problems: list[str] = []
    unmatched: list[str] = []
    matches: list[Matched] = []
    claimed: dict[str, str] = {}
    for name, rows in _group(table).items():
        found = _match(table, name, rows, candidates, problems)
        if found is None:
            names = sorted({r.player or r.faction for r in rows})
            unmatched.append(f"{table.where(rows[0])}: the game {name!r} is no stored game: none has that id, nor "
                            f"its players and factions ({', '.join(names)})")
        elif found.candidate.id in claimed:
            problems.append(f"{table.where(rows[0])}: the game {name!r} matches {found.candidate.id}, which the "
                            f"table's game {claimed[found.candidate.id]!r} matches already")
        else:
            claimed[found.candidate.id] = name
            matches.append(found)
    if problems:
        raise TableInvalid("\n".join(problems))
    games = []
    for found in matches:
        with open_game_by_id(found.candidate.id, store) as source:
            games.append(_reconcile_source(source, found, table))
    return StoreReconciliation(declared=table.name, games=games, disagree=[g.game for g in games if not g.agrees],
                               unmatched=unmatched)


@contextmanager
def open_game_by_id(game_id: str, store: str) -> Iterator[StoredGame]:
    """The stored game ``game_id`` (never a file of that name) for a ``with`` block; the store is closed after."""
    with opened_game_store(store, must_exist=True) as opened:
        yield StoredGame(opened, game_id, store)


@dataclass(frozen=True)
class Reconciled:
    """A reconciliation as a command writes it: the document, and its text in the format asked for."""

    document: Reconciliation | StoreReconciliation
    text: str


def reconciled(game: str | None, store: str, *, declared: str | None = None, columns: str | None = None,
               fmt: str = "text", width: int = WIDTH, output: str | None = None,
               source_format: str | None = None) -> Reconciled:
    """``gamelog reconcile``: GAME's reconciliation (:func:`reconcile`), or with no GAME every game of the table
    ``declared`` (:func:`reconcile_store`), rendered in ``fmt`` (text, markdown, json, html) for ``width`` columns.

    ``output``, given, is the file it will be written to (:func:`~.outputs.check_output`). Raises
    :class:`~.errors.BadInput` for an unknown format, or no GAME and no table (or ``source_format``, the tool
    GAME is an export of, and no GAME), and what the two raise.
    """
    try:
        chosen = reconcile_format(fmt)
    except KeyError as exc:
        raise BadInput(exc.args[0]) from None
    inputs = [path for path in (game, declared) if path is not None and (path == declared or is_log_file(path))]
    check_output(output, store=store, inputs=inputs)
    if game is None:
        if declared is None:
            raise BadInput("give GAME, or a results table with --declared FILE to reconcile every game it names")
        if source_format is not None:
            raise BadInput(f"--from {source_format} says what GAME is an export of: give GAME")
        document: Reconciliation | StoreReconciliation = reconcile_store(store, declared, columns=columns)
    else:
        document = reconcile(game, store, declared=declared, columns=columns, source_format=source_format)
    return Reconciled(document, chosen(document, Layout(width=width)))
