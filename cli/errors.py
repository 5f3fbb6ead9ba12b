"""The CLI's errors and exit codes (docs/cli.md, and the README's "Exit codes"), mapped in one place.

Every error reaches the user as ``Error: ...`` on stderr, never a traceback.
gamelog's own errors (the services' and the store's) become these by
:data:`ERRORS`, the one table of which error exits how.
"""

from __future__ import annotations

import click

from gamelog.errors import GamelogError, LogInvalid, StoreDamaged, StoreError

EXIT_OK = 0
EXIT_VIOLATION = 1  # a rule violation found, or a conflicting import refused
EXIT_INPUT = 2  # a usage error, a malformed log, an unknown game id, a store that cannot be opened
EXIT_TAMPERED = 3  # verify found the stored history (or what is derived from it) altered; the store is damaged
EXIT_BUG = 70  # an unexpected failure: a bug in gamelog (sysexits.h's EX_SOFTWARE)
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as a shell reports it)
EXIT_PIPE_CLOSED = 141  # the reader of the output went away (128 + SIGPIPE, as a shell reports it)


MAX_ERRORS = 20
"""How many of a log's input errors are printed unless ``--max-errors`` says otherwise (0: all)."""


def capped(lines: list[str], limit: int = MAX_ERRORS) -> list[str]:
    """The first ``limit`` input errors (all for 0), then ``... and N more input errors`` for the rest."""
    if not limit or len(lines) <= limit:
        return list(lines)
    rest = len(lines) - limit
    return lines[:limit] + [f"... and {rest} more input error{'s' if rest != 1 else ''} (--max-errors 0 shows all)"]


class InputProblem(click.ClickException):
    """A malformed log, a missing file, an unknown game: ``Error: ...``, exit 2."""

    exit_code = EXIT_INPUT


class StoreProblem(click.ClickException):
    """The store cannot be opened or read, or may not be written: ``Error: ...``, exit 2."""

    exit_code = EXIT_INPUT


class StoreDamage(click.ClickException):
    """The store's bytes cannot be read (an event, a page of its file): ``Error: the store is damaged: ...``, exit 3."""

    exit_code = EXIT_TAMPERED

    def __init__(self, message: str):
        super().__init__(message if message.startswith("the store ") else f"the store is damaged: {message}")


class Bug(click.ClickException):
    """An unexpected exception: a bug in gamelog, said as one, exit 70."""

    exit_code = EXIT_BUG

    def __init__(self, exc: BaseException):
        super().__init__(f"internal error (a bug in gamelog, please report it): {type(exc).__name__}: {exc}\n"
                         "Run again with GAMELOG_DEBUG=1 to see where it happened.")


ERRORS: tuple[tuple[type[Exception], type[click.ClickException]], ...] = (
    (StoreDamaged, StoreDamage),  # exit 3
    (StoreError, StoreProblem),  # exit 2: busy, read-only, cannot be opened, no store there
    (GamelogError, InputProblem),  # exit 2: a log, a game, a player, a point, a format that cannot be used
    (LogInvalid, InputProblem),  # exit 2: every input error of a log, one a line
)
"""gamelog's errors and the CLI error each becomes, the most specific first."""


def cli_error(exc: Exception) -> click.ClickException | None:
    """The CLI error that ``exc`` becomes (:data:`ERRORS`), or None when it is none of gamelog's: a bug."""
    for error, problem in ERRORS:
        if isinstance(exc, error):
            return problem("\n".join(capped(exc.lines())) if isinstance(exc, LogInvalid) else str(exc))
    return None
