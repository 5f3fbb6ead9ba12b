"""The texts of Uchronia's own rule IDs: those the seeds are silent on, so RULES.md does not hold them."""

from __future__ import annotations

RULE_TEXTS: dict[str, str] = {
    "UCH-TURN": "Game actions happen inside a turn; turns follow seating order.",
    "UCH-FORUM": "A card can leave the Forum only if one of its color is there.",
}
