"""How an input error and a finding read on one line: the formats users learn (docs/cli.md, README).

Every command that prints an input error or a finding words it here, so that
``validate``, ``import``, ``replay`` and ``audit`` can never drift apart.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping


def input_error(filename: str, line: int, message: str, path: str) -> str:
    """An input error: ``FILE:LINE: <what is wrong> at $.field``."""
    return f"{filename}:{line}: {message} at {path}"


def finding(where: str, severity: str, rule: str, player: str | None, message: str) -> str:
    """A finding: ``WHERE: severity RULE [player]: message``; ``where`` is ``FILE:LINE`` or ``line N``."""
    who = f" [{player}]" if player else ""
    return f"{where}: {severity} {rule}{who}: {message}"


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
