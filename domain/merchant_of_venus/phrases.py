"""How each Merchant of Venus line reads in a report ("Qossuth buys 2 Melf Pelts from Shenna at c50").

``PHRASES`` maps each event ``type`` of this game to its words, filled from
the line's fields as the log names them (``domain.phrases`` says how they are
used, and tells the events every game has).
"""

from __future__ import annotations

from gamelog.domain.phrases import Phrase, claimed, either

PHRASES: dict[str, Phrase] = {
    "score_claimed": lambda f: f"{f['player']} claims a net worth of c{claimed(f)}",
    "landed": lambda f: f"{f['player']} lands at " + ("deep space" if f["venue"] == "other" else "an asteroid" if f["venue"] == "asteroid"
                        else f"the {f['venue'].replace('_', ' ')} of {f['culture']}" + (f" (owned by {f['owner']})" if f.get("owner") else "")),
    "movement_skipped": lambda f: f"{f['player']} skips movement",
    "first_contact": lambda f: f"{f['player']} makes First Contact with {f['culture']} (IOU c{f['iou']})",
    "goods_bought": lambda f: f"{f['player']} buys {f.get('quantity', 1)} {f['good']} from {f['culture']} at c{f['unit_price']}"
                              + either("iou", " with the IOU")(f) + either("factory", " (factory good)")(f),
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
}
