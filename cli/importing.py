"""``gamelog import LOG...``: append each log's new events to the store."""

from __future__ import annotations

import os
import sys
from contextlib import closing, nullcontext
from typing import Any, Iterator

import click

from gamelog.cli.errors import EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_VIOLATION, StoreProblem
from gamelog.cli.convert import convert_file
from gamelog.cli.sources import open_store, store_option
from gamelog.cli.terminal import progress
from gamelog.domain.games import converters
from gamelog.domain.errors import LogInvalid
from gamelog.domain.messages import plural
from gamelog.projections.importing.archive import import_logs
from gamelog.projections.importing.importer import ImportInterrupted, ImportResult, Outcome, import_log
from gamelog.projections.views.keeper import ViewKeeper
from gamelog.projections.store.application import StoreBusy

PROGRESS_FROM_BYTES = 1 << 20
"""Logs from this size up show a progress bar (on a terminal only): smaller ones take a moment."""


def _count_lines(path: str) -> int:
    """The file's lines: its line feeds, and one more when the last line has none."""
    lines, last = 0, b"\n"
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            lines, last = lines + chunk.count(b"\n"), chunk[-1:]
    return lines + (last != b"\n")


def _progress_bar(path: str) -> Any:
    """A progress bar over the log's lines on stderr (``cli.terminal.progress``), or nothing when piped or small."""
    if not sys.stderr.isatty() or os.path.getsize(path) < PROGRESS_FROM_BYTES:
        return nullcontext(None)
    return progress(_count_lines(path), f"importing {path}")


def _describe(path: str, result: ImportResult) -> str:
    if result.outcome is Outcome.IMPORTED and not result.events:
        return f"{path}: imported the header of game {result.game_id!r}, no event lines yet"
    if result.outcome is Outcome.IMPORTED:
        return f"{path}: imported {result.events} events (lines {result.first_line}-{result.last_line}) into game {result.game_id!r}"
    if result.outcome is Outcome.ALREADY_IMPORTED:
        return f"{path}: already imported (game {result.game_id!r}); nothing added"
    return f"Error: {path}: conflict: {result.message}; nothing stored"


def _tell(path: str, result: ImportResult) -> None:
    """What became of one log: on stdout, or on stderr as ``Error: ...`` for a conflict, like every failure."""
    click.echo(_describe(path, result), err=result.outcome is Outcome.CONFLICT)


@click.command(name="import")
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--from", "source_format", type=click.Choice(sorted(converters())),
              help="The files are another tool's exports: convert each, then import it.")
@click.option("--id", "game_id", metavar="ID", help="With --from: the game's id (default: taken from the export).")
@store_option
def import_(logs: tuple[str, ...], source_format: str | None, game_id: str | None, store: str) -> None:
    """Append each log's new events to the store.

    Each log is imported whole or not at all. The same log again adds nothing;
    a log that has grown adds its new lines; a log that differs from the stored
    game at an earlier line is refused whole (a conflict). Exit 0 when every
    log was imported or already was, 1 on a conflict, 2 on a malformed log.
    Interrupted (Ctrl-C), it says what was stored and exits 130.
    """
    game_store = open_store(store)
    done: list[str] = []
    said: set[str] = set()
    try:
        code = _import_all(game_store, logs, source_format, game_id, done, said)
        _update_views(game_store)
    except KeyboardInterrupt as interrupt:
        _interrupted(game_store, logs, done, said, interrupt)
        raise SystemExit(EXIT_INTERRUPTED) from None
    raise SystemExit(code)


def _import_all(game_store: Any, logs: tuple[str, ...], source_format: str | None, game_id: str | None,
                done: list[str], said: set[str]) -> int:
    """Import each log, printing what happened to it; returns the exit code.

    ``done`` collects the logs begun, ``said`` those whose outcome was printed.
    """
    code = EXIT_OK
    with closing(_imports(game_store, logs, source_format)) as imports:
        for path, run in imports:
            code = _import_one(path, run, source_format, game_id, game_store, done, said, code)
    return code


def _imports(game_store: Any, logs: tuple[str, ...], source_format: str | None) -> Iterator[tuple[str, Any]]:
    """Each log with the call that imports it: several plain logs are decided in worker processes, one a core."""
    if source_format is None and len(logs) > 1 and (os.cpu_count() or 1) > 1:
        yield from import_logs(game_store, list(logs))
        return
    for path in logs:
        yield path, (None if source_format is not None else lambda path=path: _import_file(game_store, path))


def _import_file(game_store: Any, path: str) -> ImportResult:
    with open(path, "rb") as handle, _progress_bar(path) as advance:
        return import_log(game_store, handle, path, advance)


def _import_one(path: str, run: Any, source_format: str | None, game_id: str | None, game_store: Any,
                done: list[str], said: set[str], code: int) -> int:
    """Import one log (``run`` does it), printing what happened to it; returns the exit code so far."""
    done.append(path)  # finished, or interrupted: what is stored of it is said either way
    if source_format is not None:
        log, summary = convert_file(path, source_format, game_id)
        click.echo(f"{path}: converted {summary.entries} entries from {source_format}", err=True)
        result = _import_converted(game_store, log, path)
        if result is None:
            said.add(path)
            return EXIT_INPUT
        _tell(path, result)
        said.add(path)
        if result.outcome is Outcome.CONFLICT and code != EXIT_INPUT:
            code = EXIT_VIOLATION
        return code
    try:
        result = run()
    except OSError as exc:
        click.echo(f"Error: {path}: {exc.strerror or exc}", err=True)
        said.add(path)
        return EXIT_INPUT
    except LogInvalid as invalid:
        _print_errors(invalid)
        click.echo(f"Error: {path}: {plural(len(invalid.errors), 'input error')}; nothing stored", err=True)
        said.add(path)
        return EXIT_INPUT
    except StoreBusy as busy:
        raise StoreProblem(str(busy)) from busy
    _tell(path, result)
    said.add(path)
    if result.outcome is Outcome.CONFLICT:
        code = max(code, EXIT_VIOLATION) if code != EXIT_INPUT else code
    return code


def _interrupted(game_store: Any, logs: tuple[str, ...], done: list[str], said: set[str],
                 interrupt: KeyboardInterrupt) -> None:
    """Say exactly what an interrupted import stored, what it did not, and where the views stand."""
    if isinstance(interrupt, ImportInterrupted):
        path = done[-1]
        if interrupt.result is not None:
            click.echo(_describe(path, interrupt.result) + " (stored before the interrupt)")
        else:
            click.echo(f"{path}: interrupted; nothing of it stored", err=True)
    elif done and done[-1] not in said:  # between two steps, outside any import: say what the store holds
        click.echo(f"{done[-1]}: interrupted outside its import: `gamelog games` lists what is stored", err=True)
    untouched = logs[len(done):]
    if untouched:
        click.echo(f"not imported: {', '.join(untouched)}", err=True)
    try:
        behind = ViewKeeper(game_store).status().behind
    except Exception as exc:  # the store itself failed mid-way: say so rather than guess
        click.echo(f"Interrupted; the views' position could not be read ({exc})", err=True)
        return
    views = "the views are up to date" if not behind else (
        f"the views are {plural(behind, 'event')} behind: the next report, audit or import catches them up "
        "(`gamelog projections status`)")
    click.echo(f"Interrupted; {views}.", err=True)


def _import_converted(game_store: Any, log: bytes, path: str) -> ImportResult | None:
    """Import a converted export; None (errors printed) when it is not a valid log."""
    try:
        return import_log(game_store, log, f"{path} (converted)")
    except LogInvalid as invalid:
        _print_errors(invalid)
        return None


def _print_errors(invalid: LogInvalid) -> None:
    """Every input error on stderr, one a line (``FILE:LINE: ... at $.path``)."""
    for line in invalid.lines():
        click.echo(line, err=True)


def _update_views(game_store: Any) -> None:
    """Bring the views up to date at the end of every import."""
    ViewKeeper(game_store).catch_up()
