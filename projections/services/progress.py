"""How a long service shows its progress, without knowing where: a callback the caller passes in.

A service opens a display for each long step of its work as the step begins (reading a large log, deciding it
again, deriving the views again...), so that whatever takes more than a second shows from its start that it is
under way; the caller's display decides whether anything is shown (the CLI's: a bar on stderr, on a terminal only).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Callable, ContextManager, Iterable, Iterator

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
def over_lines(progress: Progress | None, path: str, label: str) -> Iterator[Advance | None]:
    """A display over the lines of the log at ``path`` (``label`` and the path name it) when there is one and the
    log :func:`is_large`; else None."""
    if progress is None or not is_large(path):
        yield None
        return
    with progress(count_lines(path), f"{label} {path}") as advance:
        yield advance


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
