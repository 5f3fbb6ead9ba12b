"""How a long service shows its progress, without knowing where: a callback the caller passes in."""

from __future__ import annotations

from typing import Callable, ContextManager

Advance = Callable[[int], None]
"""Called with the position reached so far (of the length the progress was opened with)."""

Progress = Callable[[int, str], ContextManager[Advance | None]]
"""``progress(length, label)`` opens a progress display over ``length`` steps for a ``with`` block and gives its
:data:`Advance` (or None to show nothing); the CLI's is a bar on a terminal (``cli.terminal.progress``)."""
