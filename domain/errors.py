"""The errors of reading a recorded log.

A log can be wrong in two ways. It can be *invalid*: not JSON Lines, an unknown
``type``, a missing or mistyped field. That is an :class:`InputError`, found by
the reader, and nothing of such a file is stored. Or it can be well formed and
break a game rule: that is a *finding* (``domain.engine.RuleFinding``, stored as
``domain.events.FindingRaised``), which never stops a replay. This module holds the first kind only.
"""

from __future__ import annotations

import msgspec

from gamelog.domain.messages import input_error


class InputError(msgspec.Struct, frozen=True):
    """One malformed line: where it is and what is wrong with it.

    ``path`` is the JSON path of the offending field (``$`` for the whole
    object, ``$.unit_price`` for one field). The reader makes both printable
    and bounded (``domain.messages.cut``), whatever the log holds.
    """

    line: int
    message: str
    path: str = "$"

    def describe(self, filename: str) -> str:
        """The error as users read it: ``FILE:LINE: <what is wrong> at $.field``."""
        return input_error(filename, self.line, self.message, self.path)


class LogInvalid(Exception):
    """Raised when a log has input errors; carries every one of them.

    ``filename`` names the log as the user gave it, so that each error reads
    ``FILE:LINE: ...``.
    """

    def __init__(self, filename: str, errors: list[InputError]):
        self.filename = filename
        self.errors = errors
        first = errors[0].describe(filename) if errors else filename
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(first + more)

    def lines(self) -> list[str]:
        """Every error, one per line, in file order."""
        return [e.describe(self.filename) for e in self.errors]
