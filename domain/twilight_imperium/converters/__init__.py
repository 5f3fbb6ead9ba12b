"""Converters of other tools' exports of Twilight Imperium 4 games (``ti_assistant``: TI Assistant).

The contract (``Conversion``, ``Summary``, ``ConversionError``) is the one of
``domain.conversion``; the converters are registered in the game's
``RULES.converters`` (``domain/twilight_imperium/game.py``).
"""

from __future__ import annotations

from typing import Any

from gamelog.domain.conversion import Conversion, ConversionError, KindCount, Summary

__all__ = ["Conversion", "ConversionError", "KindCount", "Summary", "convert"]


def convert(source_format: str, export: Any, game_id: str | None = None) -> Conversion:
    """Convert an export of ``source_format`` (a name in the TI4 rules' ``converters``).

    Raises KeyError for an unknown format and ConversionError for an export it cannot read.
    """
    from gamelog.domain.twilight_imperium.game import RULES  # the registry names this game's converters

    return RULES.converters[source_format](export, game_id)
