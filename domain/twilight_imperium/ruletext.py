"""The texts of Twilight Imperium's own rule IDs: those the seeds are silent on, so RULES.md does not hold them."""

from __future__ import annotations

RULE_TEXTS: dict[str, str] = {
    "TI4-TURN": "Action-phase turns follow initiative order, skipping players who have passed.",
}
