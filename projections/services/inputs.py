"""What a command reads besides the store: a file named on the command line, or ``-`` for standard input.

Standard input is read once, as bytes, and named ``<stdin>`` in messages. A file that is no log at all but another
tool's export is told so, with the ``--from`` that converts it (:func:`export_hint`); given that format
(``source_format``), every reader of a log reads the export converted (:func:`opened_source`, :func:`converted`).
"""

from __future__ import annotations

import io
import os
import sys
from contextlib import contextmanager, nullcontext
from typing import BinaryIO, Iterator, TextIO

import msgspec

from gamelog.domain.conversion import Conversion, ConversionError
from gamelog.domain.errors import InputError
from gamelog.domain.games import converters
from gamelog.domain.reader import NOT_A_HEADER, NOT_A_LOG, NOT_AN_ARRAY

from .errors import BadInput
from .wording import option

__all__ = ["EXPORT_HINT_LIMIT", "STDIN", "STDIN_NAME", "check_export_format", "converted", "converted_name",
           "export_hint", "input_name", "open_input", "opened_source", "read_input"]

STDIN = "-"
"""The name of standard input where a log or an export is named (``gamelog validate -``)."""

STDIN_NAME = "<stdin>"
"""Standard input as messages name it (``<stdin>:3: ...``)."""

_stdin_read: tuple[object, bytes] | None = None


def _stdin_bytes() -> bytes:
    """Standard input's bytes, read once: ``validate - -`` reads the same log twice rather than an empty second."""
    global _stdin_read
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    if _stdin_read is None or _stdin_read[0] is not stream:
        data = stream.read()
        _stdin_read = (stream, data if isinstance(data, bytes) else data.encode("utf-8"))
    return _stdin_read[1]


def input_name(path: str) -> str:
    """A log or an export as messages name it: its path, or :data:`STDIN_NAME` for ``-``."""
    return STDIN_NAME if path == STDIN else path


def open_input(path: str) -> BinaryIO:
    """A log or an export, open for reading as bytes: the file at ``path``, or standard input for ``-``.
    Raises OSError as ``open`` does."""
    return io.BytesIO(_stdin_bytes()) if path == STDIN else open(path, "rb")


def check_export_format(source_format: str) -> str:
    """The converter's name ``source_format`` is (in any case: ``TI-Assistant`` is ``ti-assistant``); raises
    :class:`~.errors.BadInput` naming the known ones."""
    known = converters()
    for name in known:
        if name.casefold() == source_format.casefold():
            return name
    raise BadInput(f"unknown format {source_format!r} (known: {', '.join(sorted(known))})")


def converted(data: bytes, name: str, source_format: str, game_id: str | None = None) -> Conversion:
    """The export ``data`` (named ``name`` in messages) converted by the tool ``source_format``'s converter into
    a log (``game_id``: the game's id; default: taken from the export). Raises :class:`~.errors.BadInput` for an
    unknown format and for an export the converter cannot read (``FILE: <message> at $.path``)."""
    convert = converters()[check_export_format(source_format)]
    try:
        return convert(data, game_id)
    except ConversionError as exc:
        raise BadInput(exc.describe(name)) from exc


def converted_name(name: str) -> str:
    """A converted export as messages name its log: ``export.json (converted)``."""
    return f"{name} (converted)"


@contextmanager
def opened_source(source: str | os.PathLike[str] | BinaryIO | TextIO, name: str | None = None, *,
                  source_format: str | None = None) -> Iterator[tuple[BinaryIO, str, str | None]]:
    """(a binary handle, the name messages give it, its path or None) for a path (``-``: standard input) or an
    open handle, which stays the caller's to close: a binary one read as it is, a text one read whole and encoded
    as UTF-8. ``name`` overrides the name (by default the path, or the handle's ``name``). With ``source_format``,
    the source is that tool's export: the handle reads the log it converts to (in memory), named
    ``NAME (converted)``, with no path (it is no log to read again).

    Raises :class:`~.errors.BadInput` for a file that cannot be opened or read, and with ``source_format`` for
    an unknown format or an export its converter cannot read."""
    path = os.fspath(source) if isinstance(source, (str, os.PathLike)) else None
    name = name or (input_name(path) if path is not None else None) or getattr(source, "name", None) or "<log>"
    if source_format is not None:
        check_export_format(source_format)  # before the file is read: a wrong --from costs nothing
    try:
        if isinstance(source, io.TextIOBase):  # the reader counts lines in bytes, as a log file holds them
            opened = nullcontext(io.BytesIO(source.read().encode("utf-8")))
        else:  # the caller's handle stays open at the end: it is the caller's to close
            opened = nullcontext(source) if path is None else open_input(path)  # type: ignore[arg-type]
        with opened as handle:
            if source_format is None:
                yield handle, name, path
                return
            data = handle.read()
    except OSError as exc:
        raise BadInput(f"{name}: {exc.strerror or exc}") from exc
    log = converted(data if isinstance(data, bytes) else data.encode("utf-8"), name, source_format).to_bytes()
    yield io.BytesIO(log), converted_name(name), None


def read_input(path: str) -> bytes:
    """All the bytes of a log or an export (:func:`open_input`); raises OSError."""
    if path == STDIN:
        return _stdin_bytes()
    with open(path, "rb") as handle:
        return handle.read()


EXPORT_HINT_LIMIT = 64 << 20
"""The largest file tried as another tool's export when it is not a log (converting reads it whole)."""


def export_hint(errors: list[InputError], path: str | None, data: bytes | None = None) -> list[InputError]:
    """A log's input errors, the one saying that it is no log at all (``domain.reader.NOT_A_LOG``, or ``NOT_A_HEADER``
    for a file of one JSON object: an export on one line) told what the file looks like when one of the converters
    takes it: ``looks like a ti-assistant export: give --from ti-assistant``. ``path`` (or ``data``, its bytes) is
    read again only then."""
    if len(errors) != 1 or errors[0].message not in (NOT_A_LOG, NOT_AN_ARRAY, NOT_A_HEADER):
        return errors
    try:
        if data is None:
            if path is None or (path != STDIN and os.path.getsize(path) > EXPORT_HINT_LIMIT):
                return errors
            data = read_input(path)
    except OSError:
        return errors
    for name, convert in sorted(converters().items()):
        try:
            convert(data, None)
        except Exception:  # not this tool's export (a converter says so in its own way)
            continue
        article = "an" if name[:1] in "aeiou" else "a"
        give = option(f"--from {name}", f'source="{name}"')
        return [msgspec.structs.replace(errors[0], message=f"{errors[0].message}; it looks like {article} {name} "
                                                           f"export: give {give}")]
    return errors
