"""Statistics across games (``gamelog stats``): a store's games, or logs and exports read in memory.

The figures come from the statistics views (``view_stat_*``), folded as each
game is imported (``projections.views.folder``) and added up in SQL
(``projections.reports.statistics``); what they are is each game's own
(``domain.<game>.statistics``, through the registry). Logs and exports named
as arguments are decided and folded into a private in-memory database:
nothing is stored.
"""

from __future__ import annotations

import os
import shlex
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Sequence

from gamelog.domain.games import GAMES
from gamelog.domain.replay_document import held
from gamelog.projections.reports.registry import Layout, stats_format
from gamelog.projections.reports.statistics import (Explanation, Filters, Traced, ViewFigures, explanation, figures_of,
                                                    kinds, report_name, split, stat_game_count, table_names, traces)
from gamelog.projections.store.backends import scratch_database
from gamelog.projections.store.backends.base import PortableCursor
from gamelog.projections.views.folder import ViewFolder
from gamelog.projections.views.keeper import ViewKeeper, create_views, views_damaged

from .converting import convert_file
from .errors import BadInput, GameNotFound, PlayerNotFound
from .outputs import check_output
from .reporting import report
from .sources import check_not_missing, is_log_file, opened_game_store, read_log_file

__all__ = ["Filters", "explain", "game_reports", "stats", "stats_output", "stats_pieces", "stats_tables",
           "stats_traced"]


@contextmanager
def _views(store: str, arguments: Sequence[str], source_format: str | None) -> Iterator[tuple[Any, tuple[str, ...]]]:
    """A cursor on the statistics views, and the game ids the arguments name.

    Arguments that are files (logs, or exports with ``source_format``) are read
    in memory, and the views are theirs; otherwise the store's views, brought
    up to date, and every argument is a stored game's id.
    """
    files = [a for a in arguments if is_log_file(a)]
    for argument in arguments:
        if argument not in files:
            check_not_missing(argument, store)
    if not files:
        with opened_game_store(store, must_exist=True) as opened:
            for game_id in arguments:
                if not opened.has_game(game_id):
                    raise GameNotFound(f"no log file or stored game named {game_id!r} (in {store})")
            keeper = ViewKeeper(opened)
            keeper.catch_up()
            with keeper.connection() as cursor:
                _check_folded(cursor)
                yield cursor, tuple(arguments)
        return
    if len(files) != len(arguments):
        ids = [a for a in arguments if a not in files]
        raise BadInput(f"no such file: {ids[0]} (stats reads either files, or stored games by id, not both)")
    connection = scratch_database(":memory:")
    try:
        cursor = connection.cursor()
        create_views(cursor)
        folder = ViewFolder(cursor, snapshots=False)  # nothing replays log files' views
        for n, path in enumerate(files):
            for event in _events(path, source_format):
                folder.fold(f"file{n}", event)
            folder.flush()
        yield PortableCursor(cursor), ()
    finally:
        connection.close()


def _events(path: str, source_format: str | None) -> list[Any]:
    """The decided events of one log (or, with ``source_format``, one export converted in memory)."""
    if source_format is None:
        return read_log_file(path).events
    import io

    converted = convert_file(path, source_format)
    return read_log_file(io.BytesIO(converted.log), f"{path} (converted)").events


def _check_folded(cursor: Any) -> None:
    """The statistics views hold every game the views hold, or they were never folded (a store from before them).

    Raises ``StoreDamaged`` saying to rebuild the views.
    """
    folded = stat_game_count(cursor)
    cursor.execute("SELECT COUNT(*) AS n FROM view_context")
    held = int(cursor.fetchone()[0])
    if folded != held:
        raise views_damaged(f"the statistics views hold {folded} of the {held} games the views hold")


def _kind(cursor: Any, game: str | None) -> str:
    held = kinds(cursor)
    if game is not None:
        if game not in GAMES:
            raise BadInput(f"unknown game {game!r} (known: {', '.join(GAMES)})")
        return game
    if len(held) > 1:
        raise BadInput(f"the games are of {len(held)} kinds ({', '.join(held)}): choose one with --game")
    if not held:
        raise BadInput("no games to count (import some, or name logs)")
    return held[0]


def _statistics(kind: str) -> Any:
    statistics = GAMES[kind].statistics
    if statistics is None:
        raise BadInput(f"{kind} declares no statistics")
    return statistics


def _check_viewer(cursor: Any, as_player: str | None) -> None:
    """``--as PLAYER`` on statistics: they count only what every player may know (a secret objective only once it is
    scored: ``domain.secrets``), so a player's view is the full one; a name no game counted has is an error.

    Raises :class:`~.errors.PlayerNotFound`."""
    if as_player is None:
        return
    cursor.execute("SELECT 1 FROM view_stat_seats WHERE player = ? LIMIT 1", (as_player,))
    if cursor.fetchone() is None:
        raise PlayerNotFound(f"no player {as_player!r} in the games counted")


def stats(store: str, arguments: Sequence[str] = (), *, game: str | None = None, filters: Filters = Filters(),
          source_format: str | None = None, as_player: str | None = None) -> Any:
    """The statistics document (a msgspec Struct, ``version: 1``) of the games chosen.

    ``arguments`` are stored games' ids (only those are counted), or logs (and,
    with ``source_format``, exports of that tool) read in memory, nothing
    stored. ``game`` is the kind of game (needed only when there are several);
    ``filters`` choose among them. Raises :class:`~.errors.BadInput` (an
    unknown game, several kinds and no ``game``, a file that cannot be read),
    ``LogInvalid``, ``StoreMissing`` and the store's errors (``StoreDamaged``
    when the statistics views do not hold every stored game: rebuild them). ``as_player``: what that player may
    know (:func:`_check_viewer`: the same figures), :class:`~.errors.PlayerNotFound` for a name no game has.
    """
    with _views(store, arguments, source_format) as (cursor, ids):
        return held(_document(cursor, ids, game, filters, as_player))


def _document(cursor: Any, ids: tuple[str, ...], game: str | None, filters: Filters, as_player: str | None) -> Any:
    """The statistics document of the games chosen, its per-period rows read from ``cursor`` as they are gone
    through (``StreamedRows``)."""
    _check_viewer(cursor, as_player)
    kind = _kind(cursor, game)
    chosen = Filters(**{**filters.__dict__, "ids": filters.ids + ids})
    return _statistics(kind).document(figures_of(cursor, kind, chosen))


@contextmanager
def stats_output(store: str, arguments: Sequence[str] = (), fmt: str = "text", *, table: str | None = None,
                 layout: Layout = Layout(), output: str | None = None, game: str | None = None,
                 filters: Filters = Filters(), source_format: str | None = None,
                 as_player: str | None = None) -> Iterator[Iterable[str]]:
    """The :func:`stats` document in the format ``fmt`` (:func:`stats_pieces`), as pieces of text to write in turn,
    for the ``with`` block: the views stay open while it is read, and a list as long as the games (a row a player
    and turn) is written as its rows are read, never held. Raises what :func:`stats` and :func:`stats_pieces`
    raise."""
    with _views(store, arguments, source_format) as (cursor, ids):
        document = _document(cursor, ids, game, filters, as_player)
        yield stats_pieces(document, fmt, table=table, layout=layout, output=output, store=store, inputs=arguments)


LISTED = 50
"""The most games the HTML page lists behind one figure (the rest: how many, and the ``--explain`` command)."""


def stats_traced(store: str, arguments: Sequence[str] = (), *, game: str | None = None, filters: Filters = Filters(),
                 source_format: str | None = None, as_player: str | None = None, reports: str = "stats-games",
                 listed: int = LISTED) -> Traced:
    """The statistics document of :func:`stats` with the lines behind each figure it links (``Statistics.links``):
    for each, the games and lines ``--explain`` gives, those of its first ``listed`` games (by id) in full. The
    page links each game to its report in ``reports`` (a folder, as the page names it). Raises what :func:`stats`
    raises."""
    with _views(store, arguments, source_format) as (cursor, ids):
        _check_viewer(cursor, as_player)
        kind = _kind(cursor, game)
        chosen = Filters(**{**filters.__dict__, "ids": filters.ids + ids})
        statistics = _statistics(kind)
        figures = figures_of(cursor, kind, chosen)
        document = held(statistics.document(figures))  # a page's charts and links go through it several times
        found = traces(statistics, document, figures, ViewFigures(cursor, kind, chosen), listed)
    named = tuple(name for name in (filters.side, filters.player) if name is not None)
    return Traced(document, found, reports, _command(kind, filters, arguments, source_format), listed, named)


def _command(kind: str, filters: Filters, arguments: Sequence[str], source_format: str | None) -> str:
    """The ``gamelog stats`` command choosing these games (without ``--store``): ``--explain FIGURE`` completes it."""
    words = ["gamelog", "stats", *arguments, "--game", kind]
    for option, value in (("--from", source_format), ("--players", filters.players), ("--goal", filters.goal),
                          ("--expansion", filters.expansion), ("--faction", filters.side),
                          ("--player", filters.player), ("--since", filters.since), ("--until", filters.until)):
        if value is not None:
            words += [option, str(value)]
    if filters.clean:
        words.append("--clean")
    words += filters.ids
    return " ".join(shlex.quote(word) for word in words)


def game_reports(store: str, arguments: Sequence[str], folder: str, *, game: str | None = None,
                 filters: Filters = Filters(), page: str | None = None) -> Iterator[tuple[str, str, Any]]:
    """The HTML report (``gamelog report``'s own service) of each stored game the statistics count (by id), for the
    caller to write: (id, the file in ``folder`` it goes to, a context manager giving its pieces); the page's links
    lead to those files. Raises :class:`~.errors.BadInput` for logs or exports named (import them first), when
    ``folder`` is a file, or when a report's file would replace the store or the page (``page``); and what
    :func:`stats` and ``report`` raise."""
    if any(is_log_file(a) for a in arguments):
        raise BadInput("the games' reports are written for stored games: import the logs first, or leave out "
                       "--write-reports")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise BadInput(f"--reports {folder} is a file, not a folder: the games' reports go in a folder")
    with _views(store, arguments, None) as (cursor, ids):
        kind = _kind(cursor, game)
        counted = split(cursor, kind, Filters(**{**filters.__dict__, "ids": filters.ids + ids}))[0]
    for game_id in counted:
        path = os.path.join(folder, report_name(game_id))
        check_output(path, store=store, inputs=[page] if page else [])
        yield game_id, path, report(game_id, store, fmt="html", output=path)


def explain(store: str, figure: str, arguments: Sequence[str] = (), *, game: str | None = None,
            filters: Filters = Filters(), source_format: str | None = None,
            as_player: str | None = None) -> Explanation:
    """Each game and line behind ``figure`` (as the game's statistics name it: ``factions/FACTION/wins``...);
    their ``total`` is the figure's count or sum. Raises :class:`~.errors.BadInput` for a figure the game does not
    have (naming those it does), and what :func:`stats` raises."""
    with _views(store, arguments, source_format) as (cursor, ids):
        _check_viewer(cursor, as_player)
        kind = _kind(cursor, game)
        chosen = Filters(**{**filters.__dict__, "ids": filters.ids + ids})
        try:
            lines = _statistics(kind).explain(ViewFigures(cursor, kind, chosen), figure)
        except KeyError as exc:
            raise BadInput(exc.args[0]) from None
        return explanation(kind, figure, lines)


def stats_tables(game: str) -> list[str]:
    """The tables ``--table`` takes for ``game``'s statistics (``summary``, then the document's lists)."""
    return table_names(_document_type(game))


def _document_type(game: str) -> Any:
    import typing

    return typing.get_type_hints(_statistics(game).document)["return"]


def stats_pieces(document: Any, fmt: str = "text", *, table: str | None = None, layout: Layout = Layout(),
                 output: str | None = None, store: str | None = None, inputs: Sequence[str] = ()) -> Any:
    """The document (a :func:`stats` document or an :func:`explain` one) in the format ``fmt``, as pieces of text.

    ``table`` keeps one table (``csv`` writes one: the first list by default).
    Raises :class:`~.errors.BadInput` for an unknown format or table, or an
    ``output`` that is the store or an input.
    """
    check_output(output, store=store, inputs=[i for i in inputs if is_log_file(i)])
    try:
        chosen = stats_format(fmt)
    except KeyError as exc:
        raise BadInput(exc.args[0]) from None
    if isinstance(document, Explanation):
        return chosen.explain(document, layout)
    if isinstance(document, Traced) and not chosen.traced:
        document = document.document
    elif chosen.traced and not isinstance(document, Traced):
        document = Traced(document, {}, "stats-games", "", LISTED)
    if table is not None:
        known = table_names(type(document.document if isinstance(document, Traced) else document))
        if table not in known:
            raise BadInput(f"no table {table!r} (known: {', '.join(known)})")
    return chosen.stats(document, layout, table)
