"""How each Merchant of Venus line reads in a report ("Qossuth buys 2 Melf Pelts from Shenna at c50").

``PHRASES`` maps each event ``type`` of this game to its words, filled from
the line's fields as the log names them (``domain.phrases`` says how they are
used, and tells the events every game has).
"""

from __future__ import annotations

from typing import Any

from gamelog.domain.phrases import DASH, Phrase, Rows, StatePhrases, claimed, humanise, listed, either

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


# -- the state in words ------------------------------------------------------------------


def _place(venue: str, culture: str | None = None, owner: str | None = None) -> str:
    """Where a ship is, as the landing's words say it."""
    if venue == "other":
        return "deep space"
    if venue == "asteroid":
        return "an asteroid"
    return f"the {humanise(venue)}" + (f" of {culture}" if culture else "") + (f" (owned by {owner})" if owner else "")


def _cargo(c: dict[str, Any]) -> str:
    if c["kind"] == "passenger":
        return f"{c['name']} (passenger" + (f", bound for {c['destination']})" if c.get("destination") else ")")
    dots = f", {c['dots']} dot{'s' if c['dots'] != 1 else ''}" if c["dots"] else ""
    return f"{c['count']} {c['name']} ({c['kind']}{dots})"


def _player(document: dict[str, Any], name: str) -> Rows:
    p = document["players"][name]
    where = p["location"]
    return {
        "credits": f"c{p['credits']}",
        "net worth": f"c{p['net_worth']}",
        "cargo": listed([_cargo(c) for c in p["cargo"]]),
        "holds": str(p["holds"]),
        "deeds": listed([f"{humanise(d['kind'])} of {d['culture']} (c{d['value']})" for d in p["deeds"]]),
        "IOUs": listed([f"{culture} (c{value})" for culture, value in p["ious"].items()]),
        "shields": str(p["shields"]),
        "drives": listed(p["drives"]),
        "relics": listed(p["relics"]),
        "where": DASH if where is None else _place(where["venue"], where.get("culture"), where.get("owner")),
    }


STATE = StatePhrases(
    player=_player,
    game=lambda document: {"net worth to win": f"c{document['goal']}"},
)
"""A Merchant of Venus state as its players say it: credits as c-amounts, cargo, deeds and IOUs in words."""

KINDS: dict[str, str] = {
    "landed": "Land",
    "movement_skipped": "Skip the move",
    "first_contact": "First contact",
    "goods_bought": "Buy goods",
    "equipment_bought": "Buy equipment",
    "goods_sold": "Sell goods",
    "passenger_boarded": "Board a passenger",
    "passenger_delivered": "Deliver a passenger",
    "hazard_paid": "Pay a hazard",
    "hazard_declined": "Decline a hazard",
    "hazard_passed": "Pass a hazard",
    "relic_taken": "Take a relic",
    "deed_acquired": "Buy a deed",
    "bonus_cup_draw": "Draw from the bonus cup",
    "credits_paid": "Pay credits",
    "credits_received": "Receive credits",
}
"""This game's kinds of line as players name them (the forms' ``label``, ``GameRules.kind``)."""
