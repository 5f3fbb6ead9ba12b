"""How Uchronia is divided in time: turns only (reports group by turn)."""

from __future__ import annotations

PERIOD = "turn"
"""The period reports group by."""

round_of = None
"""The game has no rounds."""
