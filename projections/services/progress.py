"""How a long service shows its progress, without knowing where: a callback the caller passes in.

A service opens a display for each long step of its work as the step begins (reading a large log, deciding it
again, deriving the views again...), so that whatever takes more than a second shows from its start that it is
under way; the caller's display decides whether anything is shown (the CLI's: a bar on stderr, on a terminal only).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, BinaryIO, Callable, ContextManager, Iterable, Iterator

from .inputs import STDIN

Advance = Callable[[int], None]
"""Called with the position reached so far (of the length the progress was opened with)."""

Progress = Callable[[int, str], ContextManager[Advance | None]]
"""``progress(length, label)`` opens a progress display over ``length`` steps for a ``with`` block and gives its
:data:`Advance` (or None to show nothing); the CLI's is a bar on a terminal (``cli.terminal.progress``)."""

PROGRESS_FROM_BYTES = 1 << 20
"""Logs from this size up show progress (when the caller passes a display): smaller ones take a moment."""

PROGRESS_FROM_LINES = 20_000
"""Games from this many lines up show progress as they are reported or decided again (when the caller passes a
display): smaller ones take a moment."""

STEP = 1024
"""Items (lines, events) between two calls of an :data:`Advance`: a display costs something each time."""


def count_lines(path: str) -> int:
    """The file's lines: its line feeds, and one more when the last line has none."""
    lines, last = 0, b"\n"
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            lines, last = lines + chunk.count(b"\n"), chunk[-1:]
    return lines + (last != b"\n")


def is_large(path: str) -> bool:
    """Whether the log at ``path`` is large enough to show progress over (standard input never is: it is read
    before anything can be counted)."""
    try:
        return path != STDIN and os.path.getsize(path) >= PROGRESS_FROM_BYTES
    except OSError:  # the reading that follows says what is wrong with it
        return False


@contextmanager
def over_lines(progress: Progress | None, path: str, label: str,
               source_format: str | None = None) -> Iterator[Advance | None]:
    """A display over the lines of the log at ``path`` (``label`` and the path name it) when there is one and the
    log :func:`is_large`; else None. None too for another tool's export (``source_format``): the lines counted
    would be the export's, not those of the log it converts to, which the reader reports."""
    if progress is None or source_format is not None or not is_large(path):
        yield None
        return
    with progress(count_lines(path), f"{label} {path}") as advance:
        yield advance


class LinesRead:
    """A binary handle read as a log reader reads it (``readlines`` a chunk at a time), ``advance`` told how many
    lines have been read after each chunk: progress over a log without changing what reads it."""

    def __init__(self, handle: BinaryIO, advance: Advance):
        self._handle, self._advance, self._read = handle, advance, 0

    def readlines(self, hint: int = -1) -> list[bytes]:
        lines = self._handle.readlines(hint)
        self._read += len(lines)
        self._advance(self._read)
        return lines

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._handle)

    def __enter__(self) -> LinesRead:
        return self

    def __exit__(self, *_: object) -> None:
        self._handle.close()

    def seek(self, offset: int, whence: int = 0) -> int:
        self._read = 0  # read again from the start: counted again
        return self._handle.seek(offset, whence)

    def __getattr__(self, name: str) -> Any:  # seekable, tell, close, name: the handle's own
        return getattr(self._handle, name)


def by_line(events: Iterable[Any], advance: Advance | None) -> Iterator[Any]:
    """A game's ``events`` as they are read, telling ``advance`` the line they reached (every event has its
    ``line``) every :data:`STEP` events."""
    if advance is None:
        yield from events
        return
    for n, event in enumerate(events, 1):
        yield event
        if n % STEP == 0:
            advance(event.line)
