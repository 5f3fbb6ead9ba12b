"""``gamelog validate LOG...``: every input error and every rule finding; nothing stored."""

from __future__ import annotations

import click

from gamelog.cli.errors import EXIT_INPUT, EXIT_OK, EXIT_VIOLATION, capped
from gamelog.cli.options import from_option, max_errors_option
from gamelog.cli.terminal import stdout_style, terminal_progress
from gamelog.validating import ValidationOutput


@click.command()
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"], case_sensitive=False), default="text", show_default=True,
              help="text for people, json for programs (one document on stdout; `gamelog schema validate`).")
@max_errors_option
@from_option(help="The files are exports of TOOL (ti-assistant...), checked as the logs they convert to.")
def validate(logs: tuple[str, ...], fmt: str, max_errors: int, source_format: str | None) -> None:
    """Check logs: report every input error and every rule finding; store nothing.

    Exit 0 when no log breaks a rule, 1 when one does (a violation), 2 when a
    log is malformed or missing.

    Examples:

    \b
      gamelog validate game.jsonl
      gamelog validate --format json logs/*.jsonl
      cat game.jsonl | gamelog validate -
      gamelog validate --from ti-assistant export.json
    """
    # Each log read as it is written, each finding in its severity's colour (as report shows it), a bar for a
    # large log on a terminal only.
    checked = ValidationOutput(logs, source_format, style=stdout_style(), progress=terminal_progress())
    if fmt == "json":
        for piece in checked.json_pieces():
            click.echo(piece, nl=False)
        click.echo()
    else:
        for errors, findings in checked.text():
            for line in capped(errors, max_errors):
                click.echo(line, err=True)
            for line in findings:
                click.echo(line)
    if checked.malformed:
        raise SystemExit(EXIT_INPUT)
    raise SystemExit(EXIT_VIOLATION if checked.violated else EXIT_OK)
