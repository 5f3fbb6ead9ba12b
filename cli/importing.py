"""``gamelog import LOG...``: append each log's new events to the store."""

from __future__ import annotations

from contextlib import closing

import click

from gamelog.cli.errors import EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_VIOLATION, MAX_ERRORS, capped
from gamelog.cli.options import from_option, max_errors_option, store_option
from gamelog.cli.terminal import terminal_progress
from gamelog.formats import plural
from gamelog.importing import ImportResult, Importer, Interruption, LogConverted, LogImported, Outcome


def _describe(path: str, result: ImportResult) -> str:
    if result.outcome is Outcome.IMPORTED and not result.events:
        return f"{path}: imported the header of game {result.game_id!r}, no event lines yet"
    if result.outcome is Outcome.IMPORTED:
        return f"{path}: imported {plural(result.events, 'log line')} (lines {result.first_line}-{result.last_line}) into game {result.game_id!r}"
    if result.outcome is Outcome.ALREADY_IMPORTED:
        return f"{path}: already imported (game {result.game_id!r}); nothing added"
    return f"Error: {path}: conflict: {result.message}; nothing stored"


def _tell(said: LogConverted | LogImported, max_errors: int = MAX_ERRORS) -> None:
    """What became of one log: on stdout, or on stderr (input errors, then ``Error: ...``) for a failure."""
    if isinstance(said, LogConverted):
        click.echo(f"{said.path}: converted {said.summary.entries} entries from {said.source_format}", err=True)
        return
    for line in capped(list(said.errors), max_errors):  # input errors, one a line (FILE:LINE: ... at $.path)
        click.echo(line, err=True)
    if said.failure is not None:
        click.echo(f"Error: {said.failure}", err=True)
    if said.result is not None:
        click.echo(_describe(said.path, said.result), err=said.conflict)
    if said.superseded:
        click.echo(f"{said.path}: a later export of the stored game: {plural(said.superseded, 'line')} of the "
                   "earlier one voided by corrections (kept in the history)")


def _tell_interruption(stopped: Interruption) -> None:
    """Say exactly what an interrupted import stored, what it did not, and where the views stand."""
    if stopped.inside:
        if stopped.stored is not None:
            click.echo(_describe(stopped.path, stopped.stored) + " (stored before the interrupt)")  # type: ignore[arg-type]
        else:
            click.echo(f"{stopped.path}: interrupted; nothing of it stored", err=True)
    elif stopped.path is not None and not stopped.told:  # between two steps: say what the store holds
        click.echo(f"{stopped.path}: interrupted outside its import: `gamelog games` lists what is stored", err=True)
    if stopped.untouched:
        click.echo(f"not imported: {', '.join(stopped.untouched)}", err=True)
    if stopped.behind is None:
        click.echo(f"Interrupted; the views' position could not be read ({stopped.views_unreadable})", err=True)
        return
    views = "the views are up to date" if not stopped.behind else (
        f"the views are {plural(stopped.behind, 'stored event')} behind: the next report, audit or import catches them up "
        "(`gamelog projections status`)")
    click.echo(f"Interrupted; {views}.", err=True)


@click.command(name="import")
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@from_option(help="The files are another tool's exports: convert each, then import it.")
@click.option("--id", "game_id", metavar="ID", help="With --from: the game's id (default: taken from the export).")
@max_errors_option
@store_option
def import_(logs: tuple[str, ...], source_format: str | None, game_id: str | None, max_errors: int,
            store: str) -> None:
    """Append each log's new events to the store.

    Each log is imported whole or not at all. The same log again adds nothing;
    a log that has grown adds its new lines; a log that differs from the stored
    game at an earlier line is refused whole (a conflict). Exit 0 when every
    log was imported or already was, 1 on a conflict, 2 on a malformed log.
    Interrupted (Ctrl-C), it says what was stored and exits 130.

    Examples:

    \b
      gamelog import game.jsonl
      gamelog import --store games.sqlite logs/*.jsonl
      gamelog import --from ti-assistant export.json
    """
    shown = terminal_progress()  # a bar for a large log, on a terminal only
    malformed = conflict = False
    with Importer.opened(store, logs, source_format=source_format, game_id=game_id, progress=shown) as importer:
        try:
            with closing(importer.outcomes()) as outcomes:
                for said in outcomes:
                    _tell(said, max_errors)
                    if isinstance(said, LogImported):
                        malformed, conflict = malformed or said.malformed, conflict or said.conflict
        except KeyboardInterrupt as interrupt:
            _tell_interruption(importer.interrupted(interrupt))
            raise SystemExit(EXIT_INTERRUPTED) from None
    raise SystemExit(EXIT_INPUT if malformed else EXIT_VIOLATION if conflict else EXIT_OK)
