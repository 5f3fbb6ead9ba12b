"""``gamelog convert --from FORMAT EXPORT.json``: another tool's export as a log in format v1.

The log goes to stdout (or ``-o FILE``), the summary of what became of each
kind of entry to stderr.
"""

from __future__ import annotations

import click

from gamelog.cli.options import from_option, output_option
from gamelog.cli.output import write_file
from gamelog.converting import convert_file


@click.command()
@from_option(required=True, help="The tool that wrote the export.")
@click.argument("export", metavar="EXPORT.json")
@output_option("the log")
@click.option("--id", "game_id", metavar="ID", help="The game's id in a store (default: taken from the export).")
def convert(source_format: str, export: str, output: str | None, game_id: str | None) -> None:
    """Convert another tool's export of a game into a log (format v1).

    Every entry of the export becomes log events, or a note when the log
    format has no event for it; the summary of kinds and counts goes to
    stderr. Exit 2 when the export cannot be read or converted.

    Examples:

    \b
      gamelog convert --from ti-assistant export.json -o game.jsonl
      gamelog convert --from ti-assistant export.json | gamelog validate -
    """
    log, summary = convert_file(export, source_format, game_id, output=output)
    if output:
        write_file(output, [log])
    else:
        click.echo(log, nl=False)  # bytes: written to stdout's binary stream as they are
    where = output or "stdout"
    click.echo(f"{export}: {summary.entries} entries from {source_format} -> {summary.lines} log lines ({where})", err=True)
    click.echo(summary.describe(), err=True)
