"""What the recorder's forms offer in Uchronia (``domain.entries``): from the Forum and the player's Residence.

A card is taken from (or removed from) the Forum only in a color the Forum holds (UCH-FORUM): those colors, the
most cards first; a resource is moved onto a building under construction (UCH-BUILD): the player's sites.
"""

from __future__ import annotations

from gamelog.domain.entries import Offer, Offers
from gamelog.domain.uchronia.reference import COLORS
from gamelog.domain.uchronia.state import UchroniaState


def offers(state: UchroniaState, player: str | None) -> Offers:
    """The ``OFFERS`` of Uchronia for ``player``'s next line."""
    on_forum = tuple(sorted((c for c in COLORS if state.forum.get(c, 0) > 0), key=lambda c: -state.forum[c]))
    sites = tuple(state.by_player[player].under_construction) if player in state.by_player else ()
    return {
        "forum_card_taken": {"color": Offer(on_forum)},
        "forum_card_removed": {"color": Offer(on_forum)},
        "resource_moved": {"building": Offer(sites)},
    }


OFFERS = offers
