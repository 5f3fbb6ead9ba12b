"""Where a command may write its output (``-o FILE``): never over the store or over what the command reads.

An output file is written by replacing its name (a temporary file renamed:
``cli/output.py``), so the file a symbolic link names is never written
through the link. What may not be replaced is the store (a SQLite file, and
its journal files) and the command's own inputs (the log it reports, the
export it converts): replacing one would lose it. They are compared as the
names the write would replace, whichever way they were spelled.
"""

from __future__ import annotations

import os
from typing import Iterable

from .errors import BadInput

SQLITE_SIDE_FILES = ("", "-wal", "-shm", "-journal")
"""The files a SQLite store is kept in: the database and its journals."""


def replaced_name(path: str) -> str:
    """The name a write to ``path`` replaces: its folder resolved (links and all), its own name as it is."""
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(os.path.realpath(folder), name)


def _names(path: str) -> set[str]:
    """Both names of what ``path`` holds: the name itself, and the file it leads to through links."""
    return {replaced_name(path), os.path.realpath(path)}


def check_output(output: str | None, *, store: str | None = None, inputs: Iterable[str] = ()) -> None:
    """Refuse an ``output`` that would replace the store at ``store`` (a SQLite file) or one of ``inputs``.

    Nothing to check for no ``output`` or a PostgreSQL store. Raises
    :class:`~.errors.BadInput` naming what would be lost.
    """
    if output is None:
        return
    target = replaced_name(output)
    if store is not None and "://" not in store:
        for side in SQLITE_SIDE_FILES:
            if target in _names(store + side):
                raise BadInput(f"-o {output} would replace the store {store}{side}: write the output elsewhere")
    for given in inputs:
        if target in _names(given):
            raise BadInput(f"-o {output} would replace {given}, which this command reads: write the output elsewhere")
