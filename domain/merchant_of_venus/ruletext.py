"""The texts of Merchant of Venus's own rule IDs: none, every MOV rule is in RULES.md."""

from __future__ import annotations

RULE_TEXTS: dict[str, str] = {}
