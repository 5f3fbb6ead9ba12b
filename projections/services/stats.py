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
from dataclasses import dataclass
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Sequence

from gamelog.domain.games import GAMES
from gamelog.domain.replay_document import held
from gamelog.domain.statistics import Explained
from gamelog.projections.reports.redaction import Redaction
from gamelog.projections.reports.registry import Layout, stats_format
from gamelog.projections.reports.statistics import (Explanation, Filters, Traced, ViewFigures, explanation, figures_of,
                                                    kinds, report_name, split, stat_game_count, table_names, traces)
from gamelog.projections.store.backends import scratch_database
from gamelog.projections.store.backends.base import PortableCursor
from gamelog.projections.views.folder import ViewFolder
from gamelog.projections.views.keeper import ViewKeeper, create_views, views_damaged

from .errors import BadInput, GameNotFound
from .wording import option
from .secrecy import PUBLIC, player_named, redaction
from .outputs import check_output
from .reporting import report
from .sources import LogFile, Source, StoredGame, check_not_missing, is_log_file, opened_game_store, read_log_file
from .stores import Store

StoreOrLocation = str | os.PathLike[str] | Store
"""A store, as every function here takes it: its location (a SQLite file's path, a ``postgresql://`` URL) or an
open :class:`~gamelog.Store`, whose location is read again (the figures' views are brought up to date there)."""


def _location(store: StoreOrLocation) -> str:
    return store.location if isinstance(store, Store) else os.fspath(store)

__all__ = ["Filters", "StatsOutput", "explain", "game_reports", "stats", "stats_command", "stats_output",
           "stats_pieces", "stats_tables", "stats_traced"]


@contextmanager
def _views(store: StoreOrLocation, arguments: Sequence[str], source_format: str | None
           ) -> Iterator[tuple[Any, tuple[str, ...], Callable[[str], Source]]]:
    """A cursor on the statistics views, the game ids the arguments name, and each counted game's source by its id
    (what the lines behind a figure are seen through: :func:`_seen_by_every_player`).

    Arguments that are files (logs, or exports with ``source_format``) are read
    in memory, and the views are theirs; otherwise the store's views, brought
    up to date, and every argument is a stored game's id.
    """
    store = _location(store)
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
                yield cursor, tuple(arguments), lambda game_id: StoredGame(opened, game_id, store)
        return
    if len(files) != len(arguments):
        ids = [a for a in arguments if a not in files]
        raise BadInput(f"no such file: {ids[0]} (stats reads either files, or stored games by id, not both)")
    connection = scratch_database(":memory:")
    try:
        cursor = connection.cursor()
        create_views(cursor)
        folder = ViewFolder(cursor, snapshots=False)  # nothing replays log files' views
        logs: dict[str, Source] = {}
        for n, path in enumerate(files):
            events = _events(path, source_format)
            for event in events:
                folder.fold(f"file{n}", event)
            folder.flush()
            if events:
                logs[events[0].event.id] = LogFile(path, events[0].event.game, events)
        yield PortableCursor(cursor), (), logs.__getitem__
    finally:
        connection.close()


def _events(path: str, source_format: str | None) -> list[Any]:
    """The decided events of one log (or, with ``source_format``, one export converted in memory)."""
    return read_log_file(path, source_format=source_format).events


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
        raise BadInput(f"the games are of {len(held)} kinds ({', '.join(held)}): choose one with "
                       f"{option('--game', 'game=')}")
    if not held:
        raise BadInput("no games to count (import some, or name logs)")
    return held[0]


def _statistics(kind: str) -> Any:
    statistics = GAMES[kind].statistics
    if statistics is None:
        raise BadInput(f"{kind} declares no statistics")
    return statistics


def _seen_by_every_player(sources: Callable[[str], Source]) -> Callable[[list[Explained]], list[Explained]]:
    """The lines behind figures with their words as every player may know them: a line's words may quote what a
    game keeps from some players (a correction's reason naming a secret objective another player holds), so each
    game's lines are seen through what no player may be assumed to know of it (the public view, ``secrecy.PUBLIC``,
    made once a game, for the games whose lines are shown): the statistics are then one view for every player."""
    views: dict[str, Redaction] = {}

    def seen(lines: list[Explained]) -> list[Explained]:
        out = []
        for line in lines:
            if line.game not in views:
                views[line.game] = redaction(sources(line.game), PUBLIC)
            view = views[line.game]
            out.append(line._replace(text=view.text(line.text)) if view else line)
        return out

    return seen


def _check_viewer(cursor: Any, as_player: str | None) -> str | None:
    """``--as PLAYER`` on statistics: they count only what every player may know (a secret objective only once it is
    scored: ``domain.secrets``), and the lines behind a figure read as every player may know them
    (:func:`_seen_by_every_player`), so a player's view is the full one; a name no game counted has is an error.

    The player ``as_player`` names (in any case, or by their faction: ``secrecy.player_named``), None for no
    ``as_player``. Raises :class:`~.errors.PlayerNotFound`."""
    if as_player is None:
        return None
    cursor.execute("SELECT DISTINCT player, side FROM view_stat_seats ORDER BY player, side")
    return player_named(as_player, cursor.fetchall(), "the games counted")


def stats(store: StoreOrLocation, arguments: Sequence[str] = (), *, game: str | None = None, filters: Filters = Filters(),
          source_format: str | None = None, as_player: str | None = None) -> Any:
    """The statistics document (a msgspec Struct, ``version: 1``) of the games chosen.

    ``arguments`` are stored games' ids (only those are counted), or logs (and,
    with ``source_format``, exports of that tool) read in memory, nothing
    stored. ``game`` is the kind of game (needed only when there are several);
    ``filters`` choose among them. ``store`` is a location or an open :class:`~gamelog.Store` (:data:`StoreOrLocation`).
    Raises :class:`~.errors.BadInput` (an
    unknown game, several kinds and no ``game``, a file that cannot be read),
    ``LogInvalid``, ``StoreMissing`` and the store's errors (``StoreDamaged``
    when the statistics views do not hold every stored game: rebuild them). ``as_player``: what that player may
    know (:func:`_check_viewer`: the same figures), :class:`~.errors.PlayerNotFound` for a name no game has.
    """
    with _views(store, arguments, source_format) as (cursor, ids, _):
        return held(_document(cursor, ids, game, filters, as_player))


def _document(cursor: Any, ids: tuple[str, ...], game: str | None, filters: Filters, as_player: str | None) -> Any:
    """The statistics document of the games chosen, its per-period rows read from ``cursor`` as they are gone
    through (``StreamedRows``)."""
    _check_viewer(cursor, as_player)
    kind = _kind(cursor, game)
    chosen = Filters(**{**filters.__dict__, "ids": filters.ids + ids})
    return _statistics(kind).document(figures_of(cursor, kind, chosen))


@contextmanager
def stats_output(store: StoreOrLocation, arguments: Sequence[str] = (), fmt: str = "text", *, table: str | None = None,
                 layout: Layout = Layout(), output: str | None = None, game: str | None = None,
                 filters: Filters = Filters(), source_format: str | None = None,
                 as_player: str | None = None) -> Iterator[Iterable[str]]:
    """The :func:`stats` document in the format ``fmt`` (:func:`stats_pieces`), as pieces of text to write in turn,
    for the ``with`` block: the views stay open while it is read, and a list as long as the games (a row a player
    and turn) is written as its rows are read, never held. Raises what :func:`stats` and :func:`stats_pieces`
    raise."""
    store = _location(store)
    with _views(store, arguments, source_format) as (cursor, ids, _):
        document = _document(cursor, ids, game, filters, as_player)
        yield stats_pieces(document, fmt, table=table, layout=layout, output=output, store=store, inputs=arguments)


LISTED = 50
"""The most games the HTML page lists behind one figure (the rest: how many, and the ``--explain`` command)."""


def stats_traced(store: StoreOrLocation, arguments: Sequence[str] = (), *, game: str | None = None, filters: Filters = Filters(),
                 source_format: str | None = None, as_player: str | None = None, reports: str = "stats-games",
                 listed: int = LISTED) -> Traced:
    """The statistics document of :func:`stats` with the lines behind each figure it links (``Statistics.links``):
    for each, the games and lines ``--explain`` gives, those of its first ``listed`` games (by id) in full. The
    page links each game to its report in ``reports`` (a folder, as the page names it). Raises what :func:`stats`
    raises."""
    with _views(store, arguments, source_format) as (cursor, ids, sources):
        _check_viewer(cursor, as_player)
        kind = _kind(cursor, game)
        chosen = Filters(**{**filters.__dict__, "ids": filters.ids + ids})
        statistics = _statistics(kind)
        figures = figures_of(cursor, kind, chosen)
        document = held(statistics.document(figures))  # a page's charts and links go through it several times
        found = traces(statistics, document, figures, ViewFigures(cursor, kind, chosen), listed)
        seen = _seen_by_every_player(sources)
        found = {figure: trace._replace(shown=seen(trace.shown)) for figure, trace in found.items()}
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


def game_reports(store: StoreOrLocation, arguments: Sequence[str], folder: str, *, game: str | None = None,
                 filters: Filters = Filters(), page: str | None = None,
                 as_player: str | None = None) -> Iterator[tuple[str, str, Any]]:
    """The HTML report (``gamelog report``'s own service) of each stored game the statistics count (by id), for the
    caller to write: (id, the file in ``folder`` it goes to, a context manager giving its pieces); the page's links
    lead to those files. With ``as_player``, each report is what that player may know of the game
    (``report --as``), and of a game they did not play what every player may know (docs/secrets.md). Raises
    :class:`~.errors.BadInput` for logs or exports named (import them first), when ``folder`` is a file, or when a
    report's file would replace the store or the page (``page``); and what :func:`stats` and ``report`` raise."""
    store = _location(store)
    if any(is_log_file(a) for a in arguments):
        raise BadInput("the games' reports are written for stored games: import the logs first, or leave out "
                       "--write-reports")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise BadInput(f"--reports {folder} is a file, not a folder: the games' reports go in a folder")
    with _views(store, arguments, None) as (cursor, ids, _):
        player = _check_viewer(cursor, as_player)
        kind = _kind(cursor, game)
        counted = split(cursor, kind, Filters(**{**filters.__dict__, "ids": filters.ids + ids}))[0]
        played: set[str] = set()
        if player is not None:
            cursor.execute("SELECT game FROM view_stat_seats WHERE player = ?", (player,))
            played = {row[0] for row in cursor.fetchall()}
    for game_id in counted:
        path = os.path.join(folder, report_name(game_id))
        check_output(path, store=store, inputs=[page] if page else [])
        viewer = None if player is None else player if game_id in played else PUBLIC
        yield game_id, path, report(game_id, store, fmt="html", output=path, as_player=viewer)


def explain(store: StoreOrLocation, figure: str, arguments: Sequence[str] = (), *, game: str | None = None,
            filters: Filters = Filters(), source_format: str | None = None,
            as_player: str | None = None) -> Explanation:
    """Each game and line behind ``figure`` (as the game's statistics name it: ``factions/FACTION/wins``...);
    their ``total`` is the figure's count or sum. Raises :class:`~.errors.BadInput` for a figure the game does not
    have (naming those it does), and what :func:`stats` raises."""
    with _views(store, arguments, source_format) as (cursor, ids, sources):
        _check_viewer(cursor, as_player)
        kind = _kind(cursor, game)
        chosen = Filters(**{**filters.__dict__, "ids": filters.ids + ids})
        try:
            lines = _statistics(kind).explain(ViewFigures(cursor, kind, chosen), figure)
        except KeyError as exc:
            raise BadInput(exc.args[0]) from None
        return explanation(kind, figure, _seen_by_every_player(sources)(lines))


@dataclass(frozen=True)
class StatsOutput:
    """What ``gamelog stats`` writes: first each counted game's report (``reports``: (its file, a context manager
    giving its pieces), in the folder ``folder``; none unless asked for), then the document's ``pieces``."""

    pieces: Iterable[str]
    folder: str | None = None
    reports: Iterable[tuple[str, Any]] = ()


@contextmanager
def stats_command(store: str, arguments: Sequence[str] = (), fmt: str = "text", *, figure: str | None = None,
                  table: str | None = None, layout: Layout = Layout(), output: str | None = None,
                  game: str | None = None, filters: Filters = Filters(), source_format: str | None = None,
                  as_player: str | None = None, reports: str | None = None,
                  write_reports: bool = False) -> Iterator[StatsOutput]:
    """``gamelog stats``, for the ``with`` block: the lines behind ``figure`` (:func:`explain`), the HTML page with
    the lines behind each figure (:func:`stats_traced`; its games' reports in ``reports``, by default
    ``PAGE-games`` beside ``output``, and with ``write_reports`` those reports to write, :func:`game_reports`), or
    the document in ``fmt`` (:func:`stats_output`, written as it is read). Raises what those raise."""
    if figure is None and fmt != "html":
        with stats_output(store, arguments, fmt, table=table, layout=layout, output=output, game=game,
                          filters=filters, source_format=source_format, as_player=as_player) as pieces:
            yield StatsOutput(pieces)
        return
    if figure is not None:
        document: Any = explain(store, figure, arguments, game=game, filters=filters, source_format=source_format,
                                as_player=as_player)
    else:
        if reports is None:
            reports = f"{os.path.splitext(os.path.basename(output))[0]}-games" if output else "stats-games"
        document = stats_traced(store, arguments, game=game, filters=filters, source_format=source_format,
                                as_player=as_player, reports=reports)
    pieces = stats_pieces(document, fmt, table=table, layout=layout, output=output, store=store, inputs=arguments)
    if not write_reports or reports is None:
        yield StatsOutput(pieces)
        return
    folder = os.path.join(os.path.dirname(output) if output else "", reports)
    yield StatsOutput(pieces, folder, ((path, report) for _, path, report in
                                       game_reports(store, arguments, folder, game=game, filters=filters, page=output,
                                                    as_player=as_player)))


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
