"""Report a game, turn by turn or round by round, in any registered format (``projections.reports.registry``).

A streaming format is written as the views are read (the head, then a period
at a time); a whole format gets the full report document, with the state
after every line folded from the game's history; a sampled format (HTML)
gets the lines a page can hold, and the states after them folded from the
history as it writes them (``projections.reports.sampling``).
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext
from typing import Any, Iterable, Iterator

from msgspec import UNSET

from gamelog.domain.games import GAMES
from gamelog.domain.replay import state_at
from gamelog.projections.reports.model import build_report, count_lines, report_head, report_periods
from gamelog.projections.reports.sampling import kept_lines, sample
from gamelog.projections.reports.states import states_at
from gamelog.projections.reports.registry import Layout, report_format
from gamelog.projections.reports.results import result_line
from gamelog.projections.store.application import GameStore

from .errors import BadInput, NotPlayedInRounds
from .wording import option
from .reconciling import declared_in
from .results import standing_at_end
from .times import time_and_state
from .outputs import check_output
from .progress import PROGRESS_FROM_LINES, Advance, Progress
from .inputs import STDIN
from .secrecy import Public, redaction as player_view
from .sources import StoredGame, check_file_given, is_log_file, open_game, reading_views, streamed_log


@contextmanager
def report(game: str, store: str, *, fmt: str = "text", by: str | None = None,
           layout: Layout = Layout(), output: str | None = None,
           progress: Progress | None = None, as_player: str | None = None,
           source_format: str | None = None, writing_progress: bool = True) -> Iterator[Iterable[str]]:
    """The report of GAME (a log file, or a stored game's id in ``store``) in the format ``fmt``, as pieces of
    text to write in turn, for the ``with`` block (the views stay open while it is read).

    ``by`` is ``turn`` or ``round`` (the game's own period by default). ``output``, given, is the file the report
    will be written to: it may be neither the store nor the log reported (:func:`~.outputs.check_output`). With
    ``as_player``, the report is what that player may know at the end of the game (``secrecy``: every line, finding
    and embedded state without the others' secrets); raises :class:`~.errors.PlayerNotFound` for another name.
    ``progress``, given, shows a large log file being read, then (unless ``writing_progress`` is false: the report
    is printed where the display would be) the report of a game of :data:`PROGRESS_FROM_LINES` lines or more, as
    its pieces are written (twice over the lines for a sampled format: the lines, then the fold of the states).
    ``source_format``: GAME is that tool's export (``sources.open_game``).
    Raises :class:`~.errors.GameNotFound`, :class:`~.errors.NotPlayedInRounds`, :class:`~.errors.BadInput` (an
    unknown format, a log that cannot be read) and the store's errors.
    """
    check_output(output, store=store, inputs=[game] if is_log_file(game) else [])
    try:
        chosen = report_format(fmt)
    except KeyError as exc:
        raise BadInput(exc.args[0]) from None
    # A log file is read as it is reported (its views on disk, its history decided again for the page's states):
    # the memory a report takes does not grow with the log. Standard input is read once, in memory.
    check_file_given(game, source_format)
    opened = (streamed_log(game, source_format, progress) if is_log_file(game) and game != STDIN
              else open_game(game, store, source_format, progress))
    with opened as source:
        yield from _reported(source, game, chosen, by, layout, progress, as_player, writing_progress)


@contextmanager
def stored_report(store: GameStore, game_id: str, *, fmt: str = "text", as_player: str | Public | None = None,
                  by: str | None = None, layout: Layout = Layout()) -> Iterator[Iterable[str]]:
    """The report of the game stored under ``game_id`` in the open ``store``, read by its id only (never a file
    or standard input, whatever the id spells: what a server reports), in ``fmt``, as ``as_player`` may see it;
    for the ``with`` block. Raises :class:`~.errors.GameNotFound` for an id no game is stored under, and what
    :func:`report` raises."""
    try:
        chosen = report_format(fmt)
    except KeyError as exc:
        raise BadInput(exc.args[0]) from None
    source = StoredGame(store, game_id, "")
    source.summary  # an id no game is stored under: GameNotFound before anything is read
    yield from _reported(source, game_id, chosen, by, layout, None, as_player, False)


def _reported(source: Any, game: str, chosen: Any, by: str | None, layout: Layout, progress: Progress | None,
              as_player: str | Public | None, writing_progress: bool) -> Iterator[Iterable[str]]:
    """The report of ``source`` (named ``game`` in messages) in the format ``chosen``: what :func:`report` and
    :func:`stored_report` yield."""
    with source.views() as cursor, reading_views(source):
        head = report_head(cursor, source.id, by)
        check_grouping(game, head.game, by)
        view = player_view(source, as_player)
        if chosen.sampled or chosen.whole:  # what the log declares of the result: a section of the page
            head.reconciliation = declared_in(source, cursor) or UNSET
        head.time, end = time_and_state(source)  # one more read of the history: the time, the state at the end
        head.agreement = result_line(standing_at_end(source, end))
        head = view(head)
        lines = count_lines(cursor, source.id)
        shown = progress is not None and writing_progress and lines >= PROGRESS_FROM_LINES
        with (progress(lines * (2 if chosen.sampled else 1), f"reporting {game}") if shown  # type: ignore[misc]
              else nullcontext(None)) as advance:
            if chosen.sampled:
                # Two reads of the views' lines (their count, then the periods) and one fold of the history, which
                # gives the states after the kept lines as the page is written: what is held is what the page keeps.
                sampled = sample(head, _counted(view.each(report_periods(cursor, head)), advance), lines)
                states = states_at(head.game, source.history(), kept_lines(sampled))  # the header's, then the kept's
                sampled.states = _counted(view.each(states), advance, lines, lines / (len(sampled.kept()) + 1))
                # The standings at the top read the end's state (sides, colours, where each score comes from).
                sampled.final = view(state_at(head.game, source.history()).document())
                yield chosen.render(sampled, sampled.report.periods, layout)
            elif chosen.whole:
                whole = build_report(cursor, source.id, by, source.history())
                whole.reconciliation, whole.agreement, whole.time = head.reconciliation, head.agreement, head.time
                whole = view(whole)
                yield chosen.render(whole, whole.periods, layout)
            else:
                yield chosen.render(head, _counted(view.each(report_periods(cursor, head)), advance), layout)


def _counted(items: Iterable[Any], advance: Advance | None, start: int = 0, each: float | None = None) -> Iterator[Any]:
    """``items`` as they are read, telling ``advance`` how far they got from ``start``: by ``each`` an item, or by
    the lines of each (a period)."""
    if advance is None:
        yield from items
        return
    done = 0.0
    for item in items:
        yield item
        done += each if each is not None else len(item.lines)
        advance(start + round(done))



def check_grouping(label: str, game: str, by: str | None) -> None:
    """Raise :class:`~.errors.NotPlayedInRounds` when a report of ``game`` (named ``label`` in the message) is
    asked by round and the game has no rounds."""
    if by == "round" and GAMES[game].round_of is None:
        by_turn = option("--by turn", 'by="turn"')
        raise NotPlayedInRounds(f"{label}: {game} is not played in rounds; report it {by_turn}")
