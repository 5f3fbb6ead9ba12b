"""What the recorder's forms offer in Twilight Imperium 4 (``domain.entries``): objectives and strategy cards.

Only what the player recording may know (docs/secrets.md): the public objectives revealed and not yet scored by
them, the public cards not yet revealed, their own secret objectives. The secret objectives another player
holds are never offered nor left out on purpose: a secret to draw is offered from every secret card that is not
the player's own or face up, so the list says nothing of other hands (and a seat, which may not see the names of
other hands, is offered no list for it: ``forms.offers_telling_nothing``).
"""

from __future__ import annotations

from gamelog.domain.entries import Offer, Offers
from gamelog.domain.twilight_imperium import reference
from gamelog.domain.twilight_imperium.state import TwilightState


def offers(state: TwilightState, player: str | None) -> Offers:
    """The ``OFFERS`` of Twilight Imperium 4 for ``player``'s next line."""
    cards = {card.name: card for card in reference.objectives().values()}
    revealed = [name for name, _, _ in state.revealed]
    shown = {reference.key(name) for name in revealed}
    shown |= {reference.key(name) for p in state.by_player.values() for name in p.scored}
    own = list(state.by_player[player].secrets) if player in state.by_player else []
    scored = {reference.key(name) for name in state.by_player[player].scored} if player in state.by_player else set()
    mine = {reference.key(name) for name in own}
    return {
        "objective_revealed": {"objective": Offer(tuple(n for n, c in cards.items() if c.kind == "public"
                                                        and reference.key(n) not in shown))},
        "objective_scored": {"objective": Offer(tuple(n for n in revealed + own if reference.key(n) not in scored))},
        "secret_objective_drawn": {"objective": Offer(tuple(n for n, c in cards.items() if c.kind == "secret"
                                                            and reference.key(n) not in shown | mine))},
        "secret_objective_returned": {"objective": Offer(tuple(own))},
        "strategy_card_picked": {"card": Offer(reference.strategy_card_names())},
    }


OFFERS = offers
