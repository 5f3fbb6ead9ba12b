"""What the recorder's forms offer in Merchant of Venus (``domain.entries``): from where the ship is and its holds.

Each restricted field is the rule asked early (``rules``, the functions the engine decides with): at a culture's
port the goods it sells (MOV-BUY), each at most what the holds take (MOV-CAPACITY, a half-full hold's free half
counted); the goods aboard that this culture buys (MOV-SELL); the passengers aboard bound here (MOV-PASSENGER);
the cultures not contacted yet (MOV-IOU). What the reference data fix is filled in: the culture where the ship
stands, a good's price and resale value, a culture's IOU, an equipment's price (offered by its printed name,
which the reader takes as the engine's: ``events.EquipmentBought``). The bank may be paid (MOV-PAY).
"""

from __future__ import annotations

from typing import Any

from gamelog.domain.entries import Offer, Offers, allowed, most
from gamelog.domain.merchant_of_venus import reference, rules
from gamelog.domain.merchant_of_venus.events import GoodsBought, GoodsSold
from gamelog.domain.merchant_of_venus.state import MerchantState, Player


def _here(player: Player | None) -> str | None:
    """The culture where the ship is (None: nowhere recorded, or at no culture's port)."""
    venue = player.venue if player is not None else None
    return venue.culture if venue is not None else None


def offers(state: MerchantState, player: str | None) -> Offers:
    """The ``OFFERS`` of Merchant of Venus for ``player``'s next line."""
    cultures = tuple(c.name for c in reference.cultures().values())
    ship = state.by_player.get(player) if player is not None else None
    here = _here(ship)
    at = (here,) if here is not None else ()
    others = at + tuple(c for c in cultures if c != here)
    items = reference.equipment_names()
    prices = reference.equipment_prices()
    out: dict[str, dict[str, Offer]] = {
        "landed": {"culture": Offer(cultures)},
        "first_contact": _first_contact(state, player, here, cultures),
        "equipment_bought": {"item": Offer(items), "price": Offer(follows="item", value_for={
            i: prices[reference.key(i)] for i in items if reference.key(i) in prices})},
        "relic_taken": {"relic": Offer(tuple(reference.relic_names()))},
        "deed_acquired": {"culture": Offer(others, value=here)},
        "goods_bought": {"culture": Offer(others, value=here)},
        "goods_sold": {"culture": Offer(others, value=here)},
    }
    if ship is not None and player is not None:
        out["equipment_bought"]["item"] = Offer(values=allowed(items, lambda i: _equipment(state, ship, i, prices)),
                                                by="MOV-BUY")
        out["goods_bought"] = _purchase(state, player, ship, here)
        out["goods_sold"] = _sale(state, player, ship, here)
        out["passenger_delivered"] = _delivery(ship)
    return out


def _first_contact(state: MerchantState, player: str | None, here: str | None,
                   cultures: tuple[str, ...]) -> dict[str, Offer]:
    """MOV-IOU: only a culture not contacted yet gives its IOU; its value is the culture's."""
    ious = {c.name: c.iou_value for c in reference.cultures().values()}
    ask = (lambda c: rules.first_contact(state, c, ious[c]))
    open_ = allowed(((here,) if here in ious else ()) + tuple(c for c in cultures if c != here), ask)
    return {"culture": Offer(values=open_, by="MOV-IOU", value=here if here in open_ else None),
            "iou": Offer(follows="culture", value_for={c: ious[c] for c in open_})}


def _equipment(state: MerchantState, ship: Player, item: str, prices: dict[str, int]) -> list[rules.RuleFinding]:
    """MOV-BUY, MOV-LIMIT, MOV-PAY, MOV-CAPACITY: what buying ``item`` (a printed name) at its price breaks now."""
    short = reference.equipment_item(item) or item  # the engine decides the name the reader gives it
    return rules.equipment_purchase(state, ship, short, prices.get(reference.key(item), 1), state.buys + 1) \
        + rules.capacity(ship, 1, 1)


def _purchase(state: MerchantState, player: str, ship: Player, here: str | None) -> dict[str, Offer]:
    """MOV-BUY and MOV-CAPACITY: the goods this culture sells that one token of fits the holds; how many fit."""
    goods = reference.goods().values()
    iou = here is not None and here in ship.ious

    def bought(good: Any, quantity: int) -> GoodsBought:
        return GoodsBought(player=player, good=good.name, culture=here or "", unit_price=good.buy_price,
                           quantity=quantity, iou=iou, dots=good.dots, factory=good.factory)

    def ask(good: Any, quantity: int) -> list[rules.RuleFinding]:
        return rules.purchase(state, ship, bought(good, quantity), state.buys + 1) + \
            rules.capacity(ship, good.dots, quantity)

    sold = allowed((g for g in goods if here is not None), lambda g: ask(g, 1))
    names = tuple(g.name for g in sold)
    fits = {g.name: most(rules.room(ship, g.dots), lambda n, g=g: ask(g, n)) for g in sold}
    return {
        "good": Offer(values=names, by="MOV-BUY", value=names[0] if len(names) == 1 else None),
        "culture": Offer(values=(here,) if here is not None else (), by="MOV-BUY", value=here),
        "unit_price": Offer(follows="good", value_for={g.name: g.buy_price for g in sold}),
        # Nothing to buy states no most (not 0): a line the table records anyway is still typed, and found against.
        "quantity": Offer(follows="good", maximum_for=fits, maximum=max(fits.values(), default=0) or None),
        "dots": Offer(follows="good", value_for={g.name: g.dots for g in sold}),
        "factory": Offer(follows="good", value_for={g.name: g.factory for g in sold}),
        "iou": Offer(value=iou),
    }


def _sale(state: MerchantState, player: str, ship: Player, here: str | None) -> dict[str, Offer]:
    """MOV-SELL: the goods aboard this culture buys, each up to the tokens carried (and MOV-LIMIT's one)."""
    aboard = sorted({t.name for t in ship.cargo if t.kind == "good"})
    known = reference.goods()

    def resale(name: str) -> int:
        good = known.get(reference.key(name))
        return good.resale_value if good is not None else 1

    def ask(name: str, quantity: int) -> list[rules.RuleFinding]:
        sold = GoodsSold(player=player, good=name, culture=here or "", resale_value=resale(name), quantity=quantity)
        return rules.sale(state, ship, sold, state.sells + quantity)

    names = allowed((n for n in aboard if here is not None), lambda n: ask(n, 1))
    held = {n: sum(c for _, c in ship.carried("good", n)) for n in names}
    return {
        "good": Offer(values=names, by="MOV-SELL", value=names[0] if len(names) == 1 else None),
        "culture": Offer(values=(here,) if here is not None else (), by="MOV-SELL", value=here),
        "resale_value": Offer(follows="good", value_for={n: resale(n) for n in names}),
        "quantity": Offer(follows="good", maximum_for={n: most(held[n], lambda q, n=n: ask(n, q)) for n in names}),
    }


def _delivery(ship: Player) -> dict[str, Offer]:
    """MOV-PASSENGER: the passengers aboard whose destination is where the ship is."""
    aboard = sorted({t.name for t in ship.cargo if t.kind == "passenger"})
    names = allowed(aboard, lambda n: rules.deliver(ship, n)[0])
    return {"passenger": Offer(values=names, by="MOV-PASSENGER", value=names[0] if len(names) == 1 else None)}


OFFERS = offers
