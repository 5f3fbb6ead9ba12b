"""How an input error and a finding read on one line: the formats users learn (CLI.md, README).

Every command that prints an input error or a finding words it here, so that
``validate``, ``import``, ``replay`` and ``audit`` can never drift apart.

A message may hold what a log says, and a log is anyone's text: every value a
message quotes goes through :func:`quote` (escaped, and cut at
:data:`QUOTE_LIMIT` characters), and every line printed here goes through
:func:`printable`, so that no newline or control character in a log can forge
a second error line or reach a terminal.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable


QUOTE_LIMIT = 60
"""The most characters of a log's value a message quotes."""

MESSAGE_LIMIT = 300
"""The most characters of an input error's message (or path): a longer one is cut."""


def quote(value: object) -> str:
    """A log's value as a message quotes it: a Python literal (``'Zed'``, ``'a\\nb'``), cut at 60 characters.

    A string is cut before it is escaped, so that no escape is split; a cut
    value ends with ``…`` after its closing quote.
    """
    if isinstance(value, str):
        return repr(value[:QUOTE_LIMIT]) + ("…" if len(value) > QUOTE_LIMIT else "")
    text = printable(repr(value))
    return text[:QUOTE_LIMIT] + ("…" if len(text) > QUOTE_LIMIT else "")


def printable(text: str) -> str:
    """``text`` with every character that is not printable (newlines, ESC, bidi controls...) escaped as in a literal."""
    if text.isprintable():  # the usual case, checked in C
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def cut(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` made printable and at most ``limit`` characters long (a cut one ends with ``…``)."""
    text = printable(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def input_error(filename: str, line: int, message: str, path: str) -> str:
    """An input error: ``FILE:LINE: <what is wrong> at $.field``, always one line."""
    return f"{printable(filename)}:{line}: {printable(message)} at {printable(path)}"


def finding(where: str, severity: str, rule: str, player: str | None, message: str) -> str:
    """A finding: ``WHERE: severity RULE [player]: message``; ``where`` is ``FILE:LINE`` or ``line N``; always one line."""
    who = f" [{player}]" if player else ""
    return printable(f"{where}: {severity} {rule}{who}: {message}")


def severity_summary(severities: Iterable[str]) -> str:
    """How many findings of each severity, such as ``1 violation(s), 2 warning(s)``, or ``no findings``."""
    counts = Counter(severities)
    return ", ".join(f"{n} {s}(s)" for s, n in sorted(counts.items())) or "no findings"


def signed(n: int) -> str:
    """A change as people write it: ``+5``, ``-3``, ``0``."""
    return f"+{n}" if n > 0 else str(n)
