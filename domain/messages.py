"""How an input error and a finding read on one line: the formats users learn (docs/cli.md, README).

Every command that prints an input error or a finding words it here, so that
``validate``, ``import``, ``replay`` and ``audit`` can never drift apart.

A message may hold what a log says, and a log is anyone's text: every value a
message quotes goes through :func:`quote` (escaped, and cut at
:data:`QUOTE_LIMIT` characters), and every line printed here goes through
:func:`printable`, so that no newline or control character in a log can forge
a second error line or reach a terminal.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import Iterable, Mapping


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


def did_you_mean(word: str, known: Iterable[str]) -> str | None:
    """``did you mean `X`?`` for the one of ``known`` closest to ``word`` (a misspelt field, event type, faction),
    when one is close enough to be what was meant: a spelling a letter or two away (case aside), or one word of a
    single known name (``price``: ``unit_price``); None otherwise, and for ``word`` itself known."""
    known = list(known)
    if not isinstance(word, str) or word in known:
        return None
    folded = {k.casefold(): k for k in known}
    close = difflib.get_close_matches(word.casefold(), list(folded), n=1, cutoff=0.75)
    if not close:
        close = [k for k in folded if word.casefold() in k.split("_")]
    return f"did you mean `{folded[close[0]]}`?" if len(close) == 1 else None


def in_words(items: list[str], last: str = "and") -> str:
    """A list as a sentence says it: ``a``, ``a or b``, ``a, b or c`` (``last``: the word before the last)."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def input_error(filename: str, line: int, message: str, path: str) -> str:
    """An input error: ``FILE:LINE: <what is wrong> at $.field``, always one line."""
    return f"{printable(filename)}:{line}: {printable(message)} at {printable(path)}"


def finding(where: str, severity: str, rule: str, player: str | None, message: str) -> str:
    """A finding: ``WHERE: severity RULE [player]: message``; ``where`` is ``FILE:LINE`` or ``line N``; always one line."""
    who = f" [{player}]" if player else ""
    return printable(f"{where}: {severity} {rule}{who}: {message}")


_UNRECORDED = re.compile(r" \(the log's source does not record ([a-z ]+)\)$")


def unrecorded(message: str, what: str) -> str:
    """A finding's message that only what the log's source does not record (``what``: ``secret objectives``, a
    header's ``not_recorded`` name in words) could decide: ``MESSAGE (the log's source does not record WHAT)``, the
    form :func:`not_recorded` reads back."""
    return f"{message} (the log's source does not record {what})"


def not_recorded(message: str) -> tuple[str, str] | None:
    """(what the log's source does not record, the message without saying so) for a message :func:`unrecorded`
    made, else None: how an audit groups the findings that cannot be checked by what the source lacks."""
    found = _UNRECORDED.search(message)
    return None if found is None else (found.group(1), message[:found.start()])


SEVERITIES = ("violation", "unverifiable", "warning")
"""The severities of a finding, most serious first: the order counts are told in."""

_NOUNS = {"violation": "violations", "unverifiable": "unverifiable", "warning": "warnings"}


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """A count in English: ``1 violation``, ``2 violations``, ``0 warnings``; ``nouns`` when not made with ``s``."""
    return f"{n} {noun if n == 1 else nouns or noun + 's'}"


def severity_counts(counts: Mapping[str, int]) -> str:
    """Counts by severity in English, most serious first, zeros left out: ``1 violation, 4 unverifiable``;
    ``no findings`` when all are zero."""
    order = [*SEVERITIES, *sorted(counts.keys() - set(SEVERITIES))]
    return ", ".join(plural(counts[s], s, _NOUNS.get(s)) for s in order if counts.get(s)) or "no findings"


def severity_summary(severities: Iterable[str]) -> str:
    """How many findings of each severity, as :func:`severity_counts` tells them."""
    return severity_counts(Counter(severities))


def signed(n: int) -> str:
    """A change as people write it: ``+5``, ``-3``, ``0``."""
    return f"+{n}" if n > 0 else str(n)
