"""What the recorder's forms offer at one point of a game: who is due, and each field's values, from the state.

The forms themselves are made from the game's event types (``projections/reports/forms.py``); a game says here,
in its ``entries.py`` (``OFFERS``, the registry's ``GameRules.offers``), what the rules allow for a field of one
event type. Where a rule restricts a field (the goods a culture buys, the colors a market shows, the objectives of a
phase) the values are the rule's own answer: each candidate is asked of the rule function the engine decides
with (:func:`allowed`), never of a copy of it, so that what a form offers the engine accepts and what the engine
refuses is not offered. Where the reference data fix a value (a price, a card's points), it is given filled in.

What a game offers a player must be what that player may know (a player's own secrets, public cards): the forms
are part of that player's view (docs/secrets.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from gamelog.domain.engine import VIOLATION, RuleFinding


@dataclass(frozen=True)
class Offer:
    """What a form offers for one field.

    ``choices``: the likely values, the likeliest first (suggestions; every value of ``values`` when those are
    given and ``choices`` is not). ``values``: the only values the rules allow now (None: the rules do not restrict
    the field), with ``by`` the rule ID that restricts them. ``value``: the value the state or the reference data
    fix, filled in (None: nothing is fixed). ``follows``: another field of the same form whose value fixes this
    one: ``value_for`` maps each value of that field to this field's value, ``maximum_for`` to this field's most.
    ``maximum``: the most the rules allow (a number). ``open_list``: ``values`` is a deck's list that tells nothing
    of any other player's hand (a secret to draw), shown only to the player it is made for.
    """

    choices: tuple[Any, ...] = ()
    maximum: int | None = None
    values: tuple[Any, ...] | None = None
    by: str | None = None
    value: Any = None
    follows: str | None = None
    value_for: Mapping[str, Any] = field(default_factory=dict)
    maximum_for: Mapping[str, int] = field(default_factory=dict)
    open_list: bool = False

    @property
    def offered(self) -> tuple[Any, ...]:
        """What the form suggests: ``choices``, else the ``values`` the rules allow."""
        return self.choices or tuple(self.values or ())


Offers = Mapping[str, Mapping[str, Offer]]
"""Offers by event type (its ``type`` tag), then by field (its name in the log)."""

OffersOf = Callable[[Any, str | None], Offers]
"""``(state, player recording or None) -> Offers``: a game's ``OFFERS``."""


def allowed(candidates: Iterable[Any], problems: Callable[[Any], list[RuleFinding]], *,
            strict: bool = True) -> tuple[Any, ...]:
    """The ``candidates`` the rule function ``problems`` (the engine's own, asked early) finds nothing against:
    no finding at all (``strict``: a warning too says the reference data disagree), else no violation."""
    return tuple(c for c in candidates if not _against(problems(c), strict))


def _against(found: list[RuleFinding], strict: bool) -> bool:
    return any(strict or f.severity == VIOLATION for f in found)


def most(upto: int, problems: Callable[[int], list[RuleFinding]]) -> int:
    """The most ``n`` from 1 to ``upto`` that the rule function ``problems`` finds no violation against (each
    ``n`` up to it passing too; 0 when 1 does not)."""
    best = 0
    for n in range(1, upto + 1):
        if _against(problems(n), False):
            break
        best = n
    return best


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
