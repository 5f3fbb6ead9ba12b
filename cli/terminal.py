"""What the CLI asks of the terminal: the width text is wrapped to, and a progress bar that fits on one line.

Reports, replays and audits are wrapped to the terminal's width (``COLUMNS``
when set, 80 when the output is not a terminal). The progress bar goes to
stderr, only when stderr is a terminal, and is sized to stderr's width so
that it never wraps; it ends at 100% when the work is done.
"""

from __future__ import annotations

import os
import shutil
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, ContextManager, Iterator

import click

if TYPE_CHECKING:
    from gamelog.formats import Style

BAR_TEMPLATE = "%(label)s  [%(bar)s]  %(info)s"
INFO = len("100%")
FRAME = len("  [")  + len("]  ") + INFO + 1
"""What a line holds besides the label and the bar, and one column spare: a line as wide as the terminal wraps on some."""

BAR_WIDTH = 36
"""click's own default width of the bar."""


COLORS = ("auto", "always", "never")
"""The group's ``--color``: on a terminal only (and NO_COLOR unset), always (even piped), or never."""


def color_choice() -> str:
    """The ``--color`` given to the group (``auto`` outside a command, or when none was given)."""
    ctx = click.get_current_context(silent=True)
    return (ctx.find_root().params.get("color") or "auto").lower() if ctx is not None else "auto"


def no_color() -> bool:
    """Whether the environment asks for no colour: ``NO_COLOR`` set to any non-empty value (https://no-color.org)."""
    return bool(os.environ.get("NO_COLOR"))


def click_color(choice: str) -> bool | None:
    """What ``click.Context.color`` is for ``--color choice``: True keeps styles even when piped, False strips
    them everywhere, None lets click strip them when the output is not a terminal."""
    if choice == "always":
        return True
    if choice == "never" or no_color():
        return False
    return None


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def styled() -> bool:
    """Whether to style what goes to stdout (``click.style``): ``--color always`` styles it anywhere; ``never``,
    or ``NO_COLOR`` with ``auto``, nowhere; ``auto`` when stdout is a terminal only (as :func:`click_color` says)."""
    color = click_color(color_choice())
    return _stdout_is_terminal() if color is None else color


def stdout_style() -> Style:
    """How to style a line printed on stdout: ``click.style`` when :func:`styled`, else ``plain``."""
    from gamelog.formats import plain  # the services' layout, imported by a command only: --help needs none of it

    return click.style if styled() else plain


def _default_width() -> int:
    """The width of text when no terminal says (80): the services' layout's, imported when a command asks."""
    from gamelog.formats import WIDTH

    return WIDTH


def text_width() -> int:
    """The width to wrap text to: ``COLUMNS``, else the terminal's, else 80."""
    return shutil.get_terminal_size((_default_width(), 24)).columns


def _stderr_columns() -> int:
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return shutil.get_terminal_size((_default_width(), 24)).columns


def fit(label: str, columns: int) -> tuple[str, int] | None:
    """The label (shortened from the left, ``…`` marking the cut) and bar width for a line of ``columns``.

    None when the terminal is too narrow for any bar (under 12 columns).
    """
    room = columns - FRAME
    if room < 1:
        return None
    bar = min(BAR_WIDTH, room - len(label)) if room - len(label) >= 10 else max(1, min(10, room // 2))
    keep = room - bar
    if len(label) > keep:
        label = "…" + label[len(label) - keep + 1:] if keep > 1 else ""
    return label, bar


def terminal_progress() -> Callable[[int, str], ContextManager[Callable[[int], None] | None]] | None:
    """:func:`progress` for a service to show its long steps with, when stderr is a terminal; else None (nothing
    is shown, nothing counted for it)."""
    return progress if sys.stderr.isatty() else None


@contextmanager
def progress(length: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr over ``length`` steps; yields ``to(position)``, or None when stderr is not a terminal.

    The bar is full when the block ends without an error, whatever positions
    the work reported on the way.
    """
    fitted = fit(label, _stderr_columns()) if sys.stderr.isatty() else None
    if fitted is None:
        yield None
        return
    shown, bar_width = fitted
    with click.progressbar(length=max(length, 1), label=shown, width=bar_width, show_eta=False, show_pos=False,
                           show_percent=True, bar_template=BAR_TEMPLATE, file=sys.stderr) as bar:

        def to(position: int) -> None:
            bar.update(min(position, bar.length) - bar.pos)

        yield to
        to(bar.length)
