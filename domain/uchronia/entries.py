"""What the recorder's forms offer in Uchronia (``domain.entries``): from the Forum and the player's Residence.

Each restricted field is the rule asked early (``rules``, the functions the engine decides with): a building is
started (UCH-START) and a card removed from the Forum (UCH-FORUM) only in a color the Forum holds, and taken as a
monopoly's bonus (UCH-MONOPOLY-BONUS) only by its holder right after a completion of that color, the most cards first; a resource is moved (UCH-MOVE) onto a building the player is building that was
not started this turn, in the building's color (filled in).
"""

from __future__ import annotations

from gamelog.domain.entries import Offer, Offers, allowed
from gamelog.domain.uchronia import rules
from gamelog.domain.uchronia.events import ConstructionStarted, ForumCardRemoved, ForumCardTaken, ResourceMoved
from gamelog.domain.uchronia.reference import COLORS
from gamelog.domain.uchronia.state import UchroniaState


def offers(state: UchroniaState, player: str | None) -> Offers:
    """The ``OFFERS`` of Uchronia for ``player``'s next line."""
    by_count = sorted(COLORS, key=lambda c: -state.forum.get(c, 0))
    startable = allowed(by_count, lambda c: rules.check_start(state, ConstructionStarted(
        player=player or "", building="", color=c)))
    on_forum = allowed(by_count, lambda c: rules.check_forum(state, ForumCardRemoved(color=c, reason="")))
    out: dict[str, dict[str, Offer]] = {
        "construction_started": {"color": Offer(values=startable, by="UCH-START")},
        "forum_card_removed": {"color": Offer(values=on_forum, by="UCH-FORUM")},
        "forum_card_taken": {"color": Offer(values=allowed(by_count, lambda c: rules.check_monopoly_bonus(
            state, ForumCardTaken(player=player or "", color=c))), by="UCH-MONOPOLY-BONUS")},
    }
    if player in state.by_player:
        sites = state.by_player[player].under_construction
        movable = allowed(sites, lambda b: rules.check_move(state, ResourceMoved(
            player=player, building=b, color=sites[b].color)) + rules.check_cost(state, ResourceMoved(
                player=player, building=b, color=sites[b].color)))
        out["resource_moved"] = {"building": Offer(values=movable, by="UCH-MOVE",
                                                   value=movable[0] if len(movable) == 1 else None),
                                 "color": Offer(follows="building", value_for={b: sites[b].color for b in movable})}
    return out


OFFERS = offers
