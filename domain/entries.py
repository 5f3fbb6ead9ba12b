"""What the recorder's forms offer at one point of a game: each field's likely values, from the state.

The forms themselves are made from the game's event types (``projections/reports/forms.py``); a game says here,
in its ``entries.py`` (``OFFERS``, the registry's ``GameRules.offers``), what the state makes likely for a field
of one event type: the names a place sells, the cards on the table, what a player holds. An offer is a
suggestion, never a rule: the log may hold any value the format allows, and the engine decides it.

What a game offers a player must be what that player may know (a player's own secrets, public cards): the forms
are part of that player's view (docs/secrets.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class Offer:
    """What a form offers for one field: ``choices`` (the likeliest first), and ``maximum``, the most the state
    allows (the room left in a hold)."""

    choices: tuple[str, ...] = ()
    maximum: int | None = None


Offers = Mapping[str, Mapping[str, Offer]]
"""Offers by event type (its ``type`` tag), then by field (its name in the log)."""

OffersOf = Callable[[Any, str | None], Offers]
"""``(state, player recording or None) -> Offers``: a game's ``OFFERS``."""


def players_first(state: Any, due: str | None) -> tuple[str, ...]:
    """The game's players in seating order from ``due`` (the player whose turn it is, or starts next) on."""
    players = list(state.header.players)
    if due not in players:
        return tuple(players)
    at = players.index(due)
    return tuple(players[at:] + players[:at])


def no_offers(state: Any, player: str | None) -> Offers:
    """The ``OFFERS`` of a game that offers nothing beyond the players."""
    return {}
