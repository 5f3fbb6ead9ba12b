"""The CLI's errors and exit codes (docs/cli.md), mapped in one place.

Every error reaches the user as ``Error: ...`` on stderr, never a traceback.
"""

from __future__ import annotations

import click

EXIT_OK = 0
EXIT_VIOLATION = 1  # a rule violation found, or a conflicting import refused
EXIT_INPUT = 2  # a usage error, a malformed log, an unknown game id
EXIT_TAMPERED = 3  # verify found the stored history altered


class InputProblem(click.ClickException):
    """A malformed log, a missing file, an unknown game: ``Error: ...``, exit 2."""

    exit_code = EXIT_INPUT


class StoreProblem(click.ClickException):
    """The store cannot be opened or read: ``Error: ...``, exit 2."""

    exit_code = EXIT_INPUT
