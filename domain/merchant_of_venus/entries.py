"""What the recorder's forms offer in Merchant of Venus (``domain.entries``): from where the ship is and its holds.

At a culture's port: the goods it sells (MOV-BUY), each at most what the holds can take (MOV-CAPACITY: one-dot
tokens two to a hold); the goods in the holds to sell there (MOV-SELL); the passengers aboard to deliver; cultures
not contacted yet for a first contact. Names come from the reference data (``reference``).
"""

from __future__ import annotations

from typing import Any

from gamelog.domain.entries import Offer, Offers
from gamelog.domain.merchant_of_venus import reference
from gamelog.domain.merchant_of_venus.state import MerchantState


def _here(state: MerchantState, player: str | None) -> str | None:
    """The culture where ``player``'s ship is (None: nowhere recorded, or at no culture's port)."""
    venue = state.by_player[player].venue if player in state.by_player else None
    return venue.culture if venue is not None else None


def offers(state: MerchantState, player: str | None) -> Offers:
    """The ``OFFERS`` of Merchant of Venus for ``player``'s next line."""
    cultures = tuple(c.name for c in reference.cultures().values())
    goods = reference.goods().values()
    here = _here(state, player)
    ship: Any = state.by_player.get(player) if player is not None else None
    sold_here = tuple(g.name for g in goods if here is not None and reference.key(g.seller) == reference.key(here))
    aboard = tuple(sorted({t.name for t in ship.cargo if t.kind == "good"})) if ship is not None else ()
    passengers = tuple(sorted({t.name for t in ship.cargo if t.kind == "passenger"})) if ship is not None else ()
    room = max(0, 2 * (ship.holds - ship.holds_used())) if ship is not None else None
    contacted = {reference.key(c) for c in state.contacted}
    at = (here,) if here is not None else ()
    items = tuple(reference.equipment_names())
    return {
        "landed": {"culture": Offer(cultures)},
        "first_contact": {"culture": Offer(at + tuple(c for c in cultures
                                                     if reference.key(c) not in contacted and c != here))},
        "goods_bought": {"good": Offer(sold_here or tuple(g.name for g in goods)),
                         "culture": Offer(at + tuple(c for c in cultures if c != here)),
                         "quantity": Offer(maximum=room or None)},
        "goods_sold": {"good": Offer(aboard), "culture": Offer(at + tuple(c for c in cultures if c != here))},
        "equipment_bought": {"item": Offer(items)},
        "passenger_delivered": {"passenger": Offer(passengers)},
        "relic_taken": {"relic": Offer(tuple(reference.relic_names()))},
        "deed_acquired": {"culture": Offer(at + tuple(c for c in cultures if c != here))},
    }


OFFERS = offers
