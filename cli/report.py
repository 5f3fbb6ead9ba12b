"""``gamelog report`` (per-turn or per-round reports) and ``gamelog projections`` (the views)."""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any, Iterable, Iterator

import click

from gamelog.cli.errors import InputProblem
from gamelog.cli.sources import load_game, open_store, store_option
from gamelog.cli.terminal import progress, text_width
from gamelog.domain.games import GAMES
from gamelog.domain.messages import plural
from gamelog.projections.views.keeper import ViewKeeper, views_in_memory
from gamelog.projections.reports.formats import csv_pieces, json_pieces, markdown_pieces, text_pieces
from gamelog.projections.reports.html import render_html
from gamelog.projections.reports.model import GameNotInViews, build_report, report_head, report_periods


def _keeper(store: str) -> ViewKeeper:
    """The views of an existing store; raises StoreProblem when there is no store there."""
    return ViewKeeper(open_store(store, must_exist=True))


def keeper_for(store: str) -> ViewKeeper:
    """The views of a store, brought up to date."""
    keeper = _keeper(store)
    keeper.catch_up()
    return keeper


def write_output(text: str, path: str | None) -> None:
    """Print, or write to ``path`` atomically: a failure leaves no half-written file."""
    write_pieces([text], path)


CHUNK = 1 << 16
"""Characters written at a time: pieces are gathered up to this much, so printing stays fast and memory small."""


def _chunks(pieces: Iterable[str]) -> Iterator[str]:
    held: list[str] = []
    size = 0
    for piece in pieces:
        held.append(piece)
        size += len(piece)
        if size >= CHUNK:
            yield "".join(held)
            held, size = [], 0
    yield "".join(held)


def write_pieces(pieces: Iterable[str], path: str | None) -> None:
    """Print the text the pieces make (ending it with a newline if it lacks one), or write it to ``path`` as it is,
    atomically: a failure leaves no half-written file. The pieces are written as they come."""
    if path is None:
        last = ""
        for chunk in _chunks(pieces):
            if chunk:
                click.echo(chunk, nl=False)
                last = chunk
        if not last.endswith("\n"):
            click.echo("")
        return
    folder = os.path.dirname(os.path.abspath(path))
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, suffix=".tmp") as handle:
            try:
                for chunk in _chunks(pieces):
                    handle.write(chunk)
            except BaseException:
                handle.close()
                os.unlink(handle.name)
                raise
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(handle.name, 0o666 & ~umask)  # as an ordinary new file, not the temp file's 0600
        os.replace(handle.name, path)
    except OSError as exc:
        raise InputProblem(f"cannot write {path}: {exc.strerror or exc}") from exc


@click.command()
@click.argument("game")
@click.option("--by", type=click.Choice(["turn", "round"]), help="Group by turn or by round (default: the game's own period, as its rules say).")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "csv", "html"]), default="text", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file instead of stdout.")
@store_option
def report(game: str, by: str | None, fmt: str, output: str | None, store: str) -> None:
    """Report GAME turn by turn (or round by round): who did what, each change with its line, the findings, the standings.

    GAME is a log file (read in memory) or a stored game's id. Formats: text
    for a terminal (wrapped to its width, COLUMNS or 80 when piped), markdown
    for a forge, json and csv for programs, html for one self-contained page
    with charts. The fields of json: docs/cli.md.
    """
    if os.path.isfile(game):
        source = load_game(game, store)
        cursor = views_in_memory(source.events).cursor()
        _report(cursor, source.id, game, by, fmt, output, store, source.events)
        return
    keeper = keeper_for(store)
    with keeper.connection() as cursor:
        _report(cursor, game, game, by, fmt, output, store, None)


def _report(cursor: Any, game_id: str, game: str, by: str | None, fmt: str, output: str | None, store: str,
            events: Iterable[Any] | None) -> None:
    """Read the report of ``game_id`` from the views at ``cursor`` and write it as it is read (HTML: whole).

    ``events`` is the game's history when it is at hand (a log file): the
    HTML report's replay folds it; a stored game's is read from the store.
    """
    try:
        head = report_head(cursor, game_id, by)
    except GameNotInViews:
        raise InputProblem(f"no log file or stored game named {game!r} (in {store})") from None
    if by == "round" and GAMES[head.game].round_of is None:
        raise InputProblem(f"{game}: {head.game} is not played in rounds; report it --by turn")
    if fmt == "html":
        # The HTML report's replay shows the state after every line: it holds the whole report.
        history = events if events is not None else load_game(game, store).events
        write_output(render_html(build_report(cursor, game_id, by, history)), output)
        return
    periods = report_periods(cursor, head)
    if fmt == "text":
        styled = output is None and sys.stdout.isatty()
        pieces = text_pieces(head, periods, click.style if styled else (lambda t, **_: t), text_width())
    else:
        pieces = {"markdown": markdown_pieces, "json": json_pieces, "csv": csv_pieces}[fmt](head, periods)
    write_pieces(pieces, output)


@click.group()
def projections() -> None:
    """The views the reports read: their position, and rebuilding them."""


@projections.command()
@store_option
def status(store: str) -> None:
    """Each view's position against the head of the store's notification log."""
    s = _keeper(store).status()
    state = "up to date" if s.behind == 0 else f"{plural(s.behind, 'event')} behind"
    for view in ("lines", "turns", "tracks", "findings", "results"):
        click.echo(f"{view:<9} at {s.position} of {s.head}: {state}")


@projections.command()
@store_option
def rebuild(store: str) -> None:
    """Rebuild every view from scratch, with progress on a terminal."""
    keeper = _keeper(store)
    done = [0]
    with progress(keeper.status().head, "rebuilding views") as to:

        def folded_more(n: int) -> None:
            done[0] += n
            to(done[0])

        folded = keeper.rebuild(folded_more if to else None)
    click.echo(f"rebuilt the views from {plural(folded, 'event')}")
