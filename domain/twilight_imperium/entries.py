"""What the recorder's forms offer in Twilight Imperium 4 (``domain.entries``): objectives, strategy cards, Trade.

Each restricted field is the rule asked early (``rules``, the functions the engine decides with): the objectives a
player may score now (LRR 34.2–34.19: the phase the card names, one public and one secret per status phase, a
public only with the home system controlled, each once), the public objective the speaker may reveal now (LRR
34.13–34.14: in the status phase, one per phase, stage II only once every stage I is revealed), the players Trade's
holder may choose (LRR 90.5: others only). What the data fix is filled in: an objective's kind, points and stage,
a strategy card's initiative, the commodities a replenish takes (LRR 90.4), whether a secondary is free.

Only what the player recording may know (docs/secrets.md): the public objectives, their own secret objectives. A
secret to draw is chosen from an open list: the secret deck less what this player may know is out of it (their
own hand, cards scored or made public), never less another hand's cards, so the list says nothing of other hands
(and it is shown to this player only: ``forms.offers_telling_nothing``).
"""

from __future__ import annotations

from gamelog.domain.entries import Offer, Offers, allowed
from gamelog.domain.twilight_imperium import reference, rules
from gamelog.domain.twilight_imperium.events import ObjectiveRevealed, ObjectiveScored, TradePrimary
from gamelog.domain.twilight_imperium.state import TwilightState


def offers(state: TwilightState, player: str | None) -> Offers:
    """The ``OFFERS`` of Twilight Imperium 4 for ``player``'s next line."""
    cards = {card.name: card for card in reference.objectives().values()}
    out: dict[str, dict[str, Offer]] = {
        "objective_revealed": _reveal(state, cards),
        "strategy_card_picked": _pick(state),
    }
    if player in state.by_player:
        out |= _scoring(state, player, cards) | _trade(state, player) | _secrets(state, player, cards)
    return out


def _reveal(state: TwilightState, cards: dict[str, reference.Objective]) -> dict[str, Offer]:
    """LRR 34.13–34.14: the public cards the speaker may reveal now; a card's stage is printed on it."""
    shown = {reference.key(name) for name, _, _ in state.revealed}
    unseen = [c for c in cards.values() if c.kind == "public" and reference.key(c.name) not in shown]
    names = tuple(c.name for c in allowed(
        unseen, lambda c: rules.reveal(state, ObjectiveRevealed(objective=c.name, stage=c.stage))))
    return {"objective": Offer(values=names, by="LRR 34.13–34.14"),
            "stage": Offer(follows="objective", value_for={n: cards[n].stage for n in names})}


def _pick(state: TwilightState) -> dict[str, Offer]:
    """The strategy cards nobody has picked this round; a card's initiative is printed on it."""
    taken = {reference.key(card) for picks in state.picks.values() for card, _ in picks}
    names = tuple(n for n in reference.strategy_card_names() if reference.key(n) not in taken)
    initiative = reference.strategy_cards()
    return {"card": Offer(names),
            "initiative": Offer(follows="card", value_for={n: initiative[reference.key(n)] for n in names})}


def _scoring(state: TwilightState, player: str, cards: dict[str, reference.Objective]) -> dict[str, dict[str, Offer]]:
    """LRR 34.2–34.19: the objectives ``player`` may score now, each with its kind and points."""
    p = state.by_player[player]
    public = [name for name, _, _ in state.revealed]
    kinds = {n: "public" for n in public} | {n: "secret" for n in p.secrets if n not in public}

    def scored(name: str) -> ObjectiveScored:
        card = reference.objective(name)
        return ObjectiveScored(player=player, objective=name, kind=kinds[name],
                               points=card.points if card is not None else 1, phase=state.phase)

    def ask(name: str) -> list[rules.RuleFinding]:
        return [rules.unless_not_recorded(state, f) for f in rules.score(state, scored(name))[1]]

    names = allowed(kinds, ask, strict=False)
    points = {n: scored(n).points for n in names}
    return {"objective_scored": {
        "objective": Offer(values=names, by="LRR 34", value=names[0] if len(names) == 1 else None),
        "kind": Offer(follows="objective", value_for={n: kinds[n] for n in names}),
        "points": Offer(follows="objective", value_for=points),
        "phase": Offer(value=state.phase),
    }}


def _trade(state: TwilightState, player: str) -> dict[str, dict[str, Offer]]:
    """LRR 90.4–90.5: Trade's chosen are other players; a replenish takes the commodities up to the faction's value."""
    line = state.line + 1

    def ask(chosen: str) -> list[rules.RuleFinding]:
        return [f for f in rules.trade_primary(state, line, TradePrimary(player=player, chosen=[chosen]))
                if f.rule == rules.TRADE_CHOSEN]

    refill = rules.replenish(state.by_player[player])
    free = state.trade is not None and player in state.trade.chosen
    return {
        "trade_primary": {"chosen": Offer(values=allowed(state.players, ask), by=rules.TRADE_CHOSEN),
                          "replenished": Offer(value=refill)},
        "trade_secondary": {"free": Offer(value=free), "replenished": Offer(value=refill)},
    }


def _secrets(state: TwilightState, player: str, cards: dict[str, reference.Objective]) -> dict[str, dict[str, Offer]]:
    """LRR 34.20–34.21: a secret to draw from the deck less what ``player`` may know is out of it; their own to
    return."""
    p = state.by_player[player]
    out_of_deck = {reference.key(name) for name, _, _ in state.revealed}
    out_of_deck |= {reference.key(name) for q in state.by_player.values() for name in q.scored}
    out_of_deck |= {reference.key(name) for name in p.secrets}
    deck = [n for n, c in cards.items() if c.kind == "secret" and reference.key(n) not in out_of_deck]
    drawable = allowed(deck, lambda n: rules.secret_drawn(state, p, n))
    own = tuple(p.secrets)
    return {"secret_objective_drawn": {"objective": Offer(values=drawable, by="LRR 34.20–34.21", open_list=True)},
            "secret_objective_returned": {"objective": Offer(values=own, by="LRR 34.21",
                                                             value=own[0] if len(own) == 1 else None)}}


OFFERS = offers
