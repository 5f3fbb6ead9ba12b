"""Writing a command's text: printed as it comes, or written to a file atomically (no half-written file)."""

from __future__ import annotations

import os
import tempfile
from typing import Iterable, Iterator

import click

from gamelog.cli.errors import InputProblem

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


def write_pieces(pieces: Iterable[str], path: str | None = None) -> None:
    """Print the text the pieces make (ending it with a newline if it lacks one), or write it to ``path`` as it is,
    atomically: a failure leaves no half-written file. The pieces are written as they come.

    Raises :class:`~cli.errors.InputProblem` when ``path`` cannot be written.
    """
    if path is None:
        last = ""
        for chunk in _chunks(pieces):
            if chunk:
                click.echo(chunk, nl=False)
                last = chunk
        if not last.endswith("\n"):
            click.echo("")
        return
    write_file(path, _chunks(pieces))


def write_file(path: str, chunks: Iterable[str] | Iterable[bytes]) -> None:
    """Write ``chunks`` (text, or bytes) to ``path`` atomically: to a temporary file in its folder, renamed over it
    at the end, so a failure leaves no half-written file and a symbolic link at ``path`` is replaced, never
    followed. Raises :class:`~cli.errors.InputProblem` when ``path`` cannot be written."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        with tempfile.NamedTemporaryFile("wb", dir=folder, delete=False, suffix=".tmp") as handle:
            try:
                for chunk in chunks:
                    handle.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
            except BaseException:
                handle.close()
                os.unlink(handle.name)
                raise
        try:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(handle.name, 0o666 & ~umask)  # as an ordinary new file, not the temp file's 0600
            os.replace(handle.name, path)
        except BaseException:
            os.unlink(handle.name)  # the old file is as it was: leave no temporary file beside it
            raise
    except OSError as exc:
        raise InputProblem(f"cannot write {path}: {exc.strerror or exc}") from exc
