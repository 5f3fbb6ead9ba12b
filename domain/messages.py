"""How an input error and a finding read on one line: the formats users learn (CLI.md, README).

Every command that prints an input error or a finding words it here, so that
``validate``, ``import``, ``replay`` and ``audit`` can never drift apart.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable


def input_error(filename: str, line: int, message: str, path: str) -> str:
    """An input error: ``FILE:LINE: <what is wrong> at $.field``."""
    return f"{filename}:{line}: {message} at {path}"


def finding(where: str, severity: str, rule: str, player: str | None, message: str) -> str:
    """A finding: ``WHERE: severity RULE [player]: message``; ``where`` is ``FILE:LINE`` or ``line N``."""
    who = f" [{player}]" if player else ""
    return f"{where}: {severity} {rule}{who}: {message}"


def severity_summary(severities: Iterable[str]) -> str:
    """How many findings of each severity, such as ``1 violation(s), 2 warning(s)``, or ``no findings``."""
    counts = Counter(severities)
    return ", ".join(f"{n} {s}(s)" for s, n in sorted(counts.items())) or "no findings"


def signed(n: int) -> str:
    """A change as people write it: ``+5``, ``-3``, ``0``."""
    return f"+{n}" if n > 0 else str(n)
