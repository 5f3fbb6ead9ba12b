"""How a message names an option it tells the user to give: as the ``gamelog`` command spells it, or as a program
calling the services does.

A service's message may end with the fix (``give --turn or --line``): the command's user gives a flag, a program
an argument (``turn=``). The command runs its work inside :func:`as_the_command`; anything else (a program, a test)
reads the Python spelling. Standard library only: the command enters it before any service is imported.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

_COMMAND_RUNS: ContextVar[bool] = ContextVar("gamelog_command_runs", default=False)
"""Whether the ``gamelog`` command is running: its options are then what a message names."""


def option(command: str, python: str) -> str:
    """An option as the message's reader gives it: ``command`` (``--from ti-assistant``) while the command runs,
    ``python`` (``source="ti-assistant"``) otherwise."""
    return command if _COMMAND_RUNS.get() else python


@contextmanager
def as_the_command() -> Iterator[None]:
    """In the block, messages name the command's options (:func:`option`)."""
    token = _COMMAND_RUNS.set(True)
    try:
        yield
    finally:
        _COMMAND_RUNS.reset(token)
