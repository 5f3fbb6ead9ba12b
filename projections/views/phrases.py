"""How reports say what a recorded line did, in words people read ("Qossuth buys 2 Melf Pelts...").

One phrase per event type, filled from the event's own fields; a type
without a phrase (a new one, say) falls back to its fields in log order, so
nothing is ever left out of a report.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable

Phrase = Callable[[dict[str, Any]], str]


def _either(field: str, yes: str, no: str = "") -> Callable[[dict[str, Any]], str]:
    return lambda f: yes if f.get(field) else no


PHRASES: dict[str, Phrase] = {
    # Every game
    "turn_started": lambda f: f"{f['player']}'s turn begins",
    "turn_ended": lambda f: f"{f['player']} ends the turn",
    "correction": lambda f: f"line {f['voids']} is void: {f['reason']}",
    "note": lambda f: f"note: {f['text']}",
    "score_claimed": lambda f: f"{f['player']} claims " + (f"{f['vp']} VP" if f.get("vp") is not None else f"a net worth of c{f['net_worth']}"),
    "winner_declared": lambda f: (f"{f['player']} is declared the winner" if f.get("player") else "no winner is declared")
                                 + (f" ({f['reason']})" if f.get("reason") else ""),
    # Merchant of Venus
    "landed": lambda f: f"{f['player']} lands at " + ("deep space" if f["venue"] == "other" else "an asteroid" if f["venue"] == "asteroid"
                        else f"the {f['venue'].replace('_', ' ')} of {f['culture']}" + (f" (owned by {f['owner']})" if f.get("owner") else "")),
    "movement_skipped": lambda f: f"{f['player']} skips movement",
    "first_contact": lambda f: f"{f['player']} makes First Contact with {f['culture']} (IOU c{f['iou']})",
    "goods_bought": lambda f: f"{f['player']} buys {f.get('quantity', 1)} {f['good']} from {f['culture']} at c{f['unit_price']}"
                              + _either("iou", " with the IOU")(f) + _either("factory", " (factory good)")(f),
    "equipment_bought": lambda f: f"{f['player']} buys {f['item']} for c{f['price']}",
    "goods_sold": lambda f: f"{f['player']} sells {f.get('quantity', 1)} {f['good']} to {f['culture']} at c{f['resale_value']}",
    "passenger_boarded": lambda f: f"{f['player']} takes {f['passenger']} aboard, bound for {f['destination']}",
    "passenger_delivered": lambda f: f"{f['player']} delivers {f['passenger']} (fare c{f['fare']})",
    "hazard_paid": lambda f: f"{f['player']} pays a c{f['cost']} hazard",
    "hazard_declined": lambda f: f"{f['player']} does not pay a c{f['cost']} hazard",
    "hazard_passed": lambda f: f"{f['player']} passes a {f['color']} hazard",
    "relic_taken": lambda f: f"{f['player']} takes the relic {f['relic']}",
    "deed_acquired": lambda f: f"{f['player']} acquires a {f['kind'].replace('_', ' ')} deed at {f['culture']} "
                               f"(value c{f['value']}, paid c{f['price_paid']})",
    "bonus_cup_draw": lambda f: f"draw from the Bonus Cup: {f['token']}, placed at {f['placed_at']}",
    "credits_paid": lambda f: f"{f['player']} pays c{f['amount']} to {f['to']}: {f['reason']}",
    "credits_received": lambda f: f"{f['player']} receives c{f['amount']} from {f['from']}: {f['reason']}",
    # Uchronia
    "construction_started": lambda f: f"{f['player']} starts {f['building']} ({f['color']})",
    "resource_moved": lambda f: f"{f['player']} moves a {f['color']} resource to {f['building']}",
    "forum_card_added": lambda f: f"a {f['color']} card goes onto the Forum" + (f" ({f['player']})" if f.get("player") else ""),
    "forum_card_removed": lambda f: f"a {f['color']} card leaves the Forum: {f['reason']}",
    "forum_card_taken": lambda f: f"{f['player']} takes a {f['color']} card from the Forum",
    "monopoly_changed": lambda f: (f"{f['player']} holds" if f.get("player") else "no one holds")
                                  + f" the {f['color']} monopoly ({f['operations']} Operations)",
    "vp_adjusted": lambda f: f"{f['player']} {f['delta']:+d} VP: {f['reason']}",
    # Twilight Imperium 4
    "round_started": lambda f: f"round {f['round']} begins",
    "phase_started": lambda f: f"the {f['phase']} phase begins",
    "strategy_card_picked": lambda f: f"{f['player']} picks {f['card']} (initiative {f['initiative']})",
    "trade_primary": lambda f: f"{f['player']} plays Trade" + (f", choosing {', '.join(f['chosen'])}" if f.get("chosen") else ""),
    "trade_secondary": lambda f: f"{f['player']} follows Trade" + (" (free)" if f.get("free") else ""),
    "trade_goods_gained": lambda f: f"{f['player']} gains {f['amount']} trade goods: {f['reason']}",
    "trade_goods_spent": lambda f: f"{f['player']} spends {f['amount']} trade goods: {f['reason']}",
    "commodities_given": lambda f: f"{f['player']} gives {f['amount']} commodities to {f['to']}",
    "command_token_spent": lambda f: f"{f['player']} spends a {f['pool']} command token: {f['reason']}",
    "command_tokens_gained": lambda f: f"{f['player']} gains {f['amount']} {f['pool']} command token(s): {f['reason']}",
    "objective_revealed": lambda f: f"{f['objective']} (stage {f['stage']}) is revealed",
    "objective_made_public": lambda f: f"{f['objective']} is made public: {f['reason']}",
    "vp_scored": lambda f: f"{f['player']} {'loses' if f.get('lost') else 'gains'} {f.get('points', 1)} VP: {f['origin']}"
                           + (f" ({f['reason']})" if f.get("reason") else ""),
    "strategy_cards_swapped": lambda f: f"the holders of {f['cards'][0]} and {f['cards'][1]} swap them",
    "player_unpassed": lambda f: f"{f['player']} is back in the action phase",
    "secret_objective_drawn": lambda f: f"{f['player']} draws a secret objective: {f['objective']}",
    "secret_objective_returned": lambda f: f"{f['player']} returns a secret objective: {f['objective']}",
    "combat_started": lambda f: f"a {f['kind']} combat begins",
    "combat_ended": lambda f: f"the {f['kind']} combat ends",
    "home_system_control": lambda f: f"{f['player']} " + ("controls" if f["controls_all"] else "does not control") + " every home planet",
    "objective_scored": lambda f: f"{f['player']} scores {f['objective']} ({f['kind']}, {f['points']} VP)",
    "vp_gained": lambda f: f"{f['player']} gains {f['points']} VP: {f['source']}",
    "vp_lost": lambda f: f"{f['player']} loses {f['points']} VP: {f['source']}",
    "player_passed": lambda f: f"{f['player']} passes",
    "speaker_changed": lambda f: f"{f['player']} becomes the speaker",
}


def phrase(event: Any) -> tuple[str, str | None, str]:
    """(type, player, words) for a recorded event."""
    tag, fields = _shape(type(event))
    values = {encoded: getattr(event, name) for name, encoded in fields}
    words = PHRASES.get(tag)
    if words is not None:
        try:
            return tag, values.get("player"), words(values)
        except (KeyError, TypeError):
            pass  # a field the phrase needs is absent: say it plainly below
    return tag, values.get("player"), _plain(tag, values)


def _plain(tag: str, values: dict[str, Any]) -> str:
    parts = [f"{key} {value if type(value) in (str, int) else json.dumps(value, ensure_ascii=False)}"
             for key, value in values.items()
             if key not in ("player", "at", "source") and value not in (None, [], False)]
    return tag.replace("_", " ") + (": " + ", ".join(parts) if parts else "")


@lru_cache(maxsize=None)
def _shape(cls: type) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A recorded event class's tag and its (attribute, name in the log) pairs."""
    return cls.__struct_config__.tag, tuple(zip(cls.__struct_fields__, cls.__struct_encode_fields__))
