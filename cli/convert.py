"""``gamelog convert --from FORMAT EXPORT.json``: another tool's export as a log in format v1.

The log goes to stdout (or ``-o FILE``), the summary of what became of each
kind of entry to stderr. ``convert_file`` is the same conversion for other
commands (``import --from``).
"""

from __future__ import annotations

import click

from gamelog.cli.errors import InputProblem
from gamelog.domain.conversion import ConversionError, Summary
from gamelog.domain.games import converters
from gamelog.domain.errors import LogInvalid
from gamelog.domain.reader import LogReader


def convert_file(path: str, source_format: str, game_id: str | None = None) -> tuple[bytes, Summary]:
    """Read and convert one export file: (the log as bytes, the summary).

    Raises InputProblem (``Error: FILE: <message> at $.path``, exit 2) for an
    unknown format, a file that cannot be read, an export the converter
    cannot read, or a converted log that would not be valid v1 (a bad ``game_id``).
    """
    known = converters()
    if source_format not in known:
        raise InputProblem(f"unknown format {source_format!r} (known: {', '.join(sorted(known))})")
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise InputProblem(f"{path}: {exc.strerror or exc}") from exc
    try:
        conversion = known[source_format](raw, game_id)
    except ConversionError as exc:
        raise InputProblem(exc.describe(path)) from exc
    log = conversion.to_bytes()
    _check_valid(path, log)
    return log, conversion.summary


def _check_valid(path: str, log: bytes) -> None:
    """Refuse to hand on a converted log that the reader would reject (it names the output's lines)."""
    reader = LogReader(log)
    for _ in reader.events():
        pass
    if reader.errors:
        invalid = LogInvalid(f"{path} (converted)", reader.errors)
        raise InputProblem("\n".join(invalid.lines()))


@click.command()
@click.option("--from", "source_format", required=True, type=click.Choice(sorted(converters())),
              help="The tool that wrote the export.")
@click.argument("export", metavar="EXPORT.json")
@click.option("-o", "--output", metavar="FILE", help="Write the log to FILE (stdout by default).")
@click.option("--id", "game_id", metavar="ID", help="The game's id in a store (default: taken from the export).")
def convert(source_format: str, export: str, output: str | None, game_id: str | None) -> None:
    """Convert another tool's export of a game into a log (format v1).

    Every entry of the export becomes log events, or a note when the log
    format has no event for it; the summary of kinds and counts goes to
    stderr. Exit 2 when the export cannot be read or converted.
    """
    log, summary = convert_file(export, source_format, game_id)
    if output:
        try:
            with open(output, "wb") as handle:
                handle.write(log)
        except OSError as exc:
            raise InputProblem(f"{output}: {exc.strerror or exc}") from exc
    else:
        click.get_binary_stream("stdout").write(log)
    where = output or "stdout"
    click.echo(f"{export}: {summary.entries} entries from {source_format} -> {summary.lines} log lines ({where})", err=True)
    click.echo(summary.describe(), err=True)
