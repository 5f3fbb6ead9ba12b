"""The server's clock: when a line is stored, in UTC (docs/log-format.md, ``at``).

The domain has no clock (it decides the same from the same lines, always); the recorder and ``gamelog append``
stamp each line they store with :func:`now`, replacing any ``at`` a client sent, since a device's clock is not the
table's. A caller may pass another clock (a function giving the same text), as the tests do.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Callable

Clock = Callable[[], str]
"""A clock: gives the time now as ISO 8601 text in UTC, ending ``Z``."""


def now() -> str:
    """The time now in UTC, ISO 8601 to the second, ending ``Z`` (``2026-12-05T17:15:00Z``)."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
