"""Convert another tool's export of a game into a log (format v1), for ``convert`` and ``import --from``."""

from __future__ import annotations

from typing import NamedTuple

from gamelog.domain.conversion import Summary
from gamelog.domain.errors import LogInvalid
from gamelog.domain.games import converters
from gamelog.domain.reader import LogReader

from .errors import BadInput
from .outputs import check_output
from .inputs import check_export_format, converted, converted_name, input_name, read_input


class Converted(NamedTuple):
    """A converted export: the log as bytes, and the summary of what became of each kind of entry."""

    log: bytes
    summary: Summary


def export_formats() -> list[str]:
    """The names of the tools whose exports can be converted (the games' converters), sorted."""
    return sorted(converters())


def convert_file(path: str, source_format: str, game_id: str | None = None, *, output: str | None = None) -> Converted:
    """Read and convert one export file (``-``: standard input); ``game_id`` is the game's id (default: taken from the export).

    ``output``, given, is where the log will be written: it may not be the export (:func:`~.outputs.check_output`).

    Raises :class:`~.errors.BadInput` (``FILE: <message> at $.path``) for an
    unknown format, a file that cannot be read or an export the converter
    cannot read, and :class:`~gamelog.domain.errors.LogInvalid` for a converted log that
    would not be valid v1 (a bad ``game_id``): its errors name the output's lines.
    """
    check_output(output, inputs=[path])
    check_export_format(source_format)
    name = input_name(path)
    try:
        raw = read_input(path)
    except OSError as exc:
        raise BadInput(f"{name}: {exc.strerror or exc}") from exc
    conversion = converted(raw, name, source_format, game_id)
    log = conversion.to_bytes()
    reader = LogReader(log)
    for _ in reader.events():
        pass
    if reader.errors:
        raise LogInvalid(converted_name(name), reader.errors)
    return Converted(log, conversion.summary)
