"""How Twilight Imperium is divided in time: rounds (each begun by a ``round_started`` line), and turns in them.

Reports group by round by default; ``replay --round N`` stops where round N + 1 begins.
"""

from __future__ import annotations

from typing import Any

from gamelog.domain.twilight_imperium.events import RoundStarted

PERIOD = "round"
"""The period reports group by."""


def round_of(event: Any) -> int | None:
    """The round a recorded line begins (None for any other line)."""
    return event.round if type(event) is RoundStarted else None
