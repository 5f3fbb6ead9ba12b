"""``gamelog validate LOG...``: every input error and every rule finding; nothing stored."""

from __future__ import annotations

import click

from gamelog.cli.errors import EXIT_INPUT, EXIT_OK, EXIT_VIOLATION, capped
from gamelog.cli.options import max_errors_option
from gamelog.cli.terminal import stdout_style, terminal_progress
from gamelog.domain.engine import VIOLATION
from gamelog.projections.reports.validation import error_lines, finding_lines, validation_json_pieces
from gamelog.validating import validate_each


@click.command()
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"], case_sensitive=False), default="text", show_default=True,
              help="text for people, json for programs (one document on stdout; `gamelog schema validate`).")
@max_errors_option
def validate(logs: tuple[str, ...], fmt: str, max_errors: int) -> None:
    """Check logs: report every input error and every rule finding; store nothing.

    Exit 0 when no log breaks a rule, 1 when one does (a violation), 2 when a
    log is malformed or missing.

    Examples:

    \b
      gamelog validate game.jsonl
      gamelog validate --format json logs/*.jsonl
      cat game.jsonl | gamelog validate -
    """
    malformed = violated = False
    style = stdout_style()  # each finding in its severity's colour, as report shows it

    def checked():  # each log's check as it is read, what it adds up to noted on the way
        nonlocal malformed, violated
        for check in validate_each(logs, terminal_progress()):  # a bar for a large log, on a terminal only
            malformed, violated = malformed or bool(check.errors), violated or bool(check.counts[VIOLATION])
            yield check

    if fmt == "json":
        for piece in validation_json_pieces(checked()):
            click.echo(piece, nl=False)
        click.echo()
    else:
        for check in checked():
            for line in capped(error_lines(check), max_errors):
                click.echo(line, err=True)
            for line in finding_lines(check, style):
                click.echo(line)
    if malformed:
        raise SystemExit(EXIT_INPUT)
    raise SystemExit(EXIT_VIOLATION if violated else EXIT_OK)
