"""Merchant of Venus rules (RULES.md, Merchant of Venus section), each in one place.

Every function here is pure: it reads the state and a recorded event and
returns what the rule says, either an amount it fixes (a commission, an IOU's
use, a hazard's cost) or the problems it finds, as :class:`RuleFinding` values
naming the rule ID. ``game.py`` turns them into stored events.
"""

from __future__ import annotations


from gamelog.domain.engine import VIOLATION, WARNING, RuleFinding
from gamelog.domain.merchant_of_venus import reference
from gamelog.domain.merchant_of_venus.events import GoodsBought, GoodsSold, Landed
from gamelog.domain.merchant_of_venus.state import MerchantState, Player

TRADING_VENUES = frozenset({"surface_city", "neutral_spaceport", "galactic_base", "merchant_spaceport", "open_spaceport"})
LIMITED_VENUES = frozenset({"surface_city", "neutral_spaceport", "galactic_base"})
TURN_KEEPING_VENUES = TRADING_VENUES | {"asteroid"}
SHIELD_DISCOUNT = 20
COMMISSION_PERCENT = 10


def _where(venue: Landed | None) -> str:
    if venue is None:
        return "no recorded place"
    return f"a {venue.venue.replace('_', ' ')}" + (f" of {venue.culture}" if venue.culture else "")


def at_any_market(player: Player, what: str, rule: str = "MOV-BUY") -> list[RuleFinding]:
    """MOV-BUY (equipment) / MOV-PASSENGER (boarding): the ship is at a surface city or a spaceport."""
    venue = player.venue
    if venue is None or venue.venue not in TRADING_VENUES:
        return [RuleFinding(rule, f"{what} needs a surface city or spaceport, but the ship is at {_where(venue)}")]
    return []


def at_market(rule: str, player: Player, culture: str, what: str) -> list[RuleFinding]:
    """MOV-BUY / MOV-SELL / MOV-PASSENGER: the ship is at a surface city or spaceport of ``culture``."""
    venue = player.venue
    if problems := at_any_market(player, what, rule):
        return problems
    if reference.key(venue.culture or "") != reference.key(culture):
        return [RuleFinding(rule, f"{what} needs a market of {culture}, but the ship is at {_where(venue)}")]
    return []


# -- MOV-BUY and MOV-IOU -----------------------------------------------------------------


def _seed_or_data(good: str, field: str) -> str:
    """How much a disagreement with the reference data weighs: a violation where the seeds name the fact (the
    rulebook says so), a warning where only the 1988 tables do (their message says which)."""
    return VIOLATION if ("good", reference.key(good), field) in reference.seed_facts() else WARNING


def buy_reference(event: GoodsBought) -> list[RuleFinding]:
    """MOV-BUY: the seller is the one the seeds name (a violation: the Shenna sell Melf Pelts); warn where the
    1988 data name another seller, or another price."""
    good = reference.goods().get(reference.key(event.good))
    if good is None:
        return [RuleFinding("MOV-BUY", f"{event.good} is not in the reference data; its seller and price are taken as logged", WARNING)]
    out = []
    if reference.key(good.seller) != reference.key(event.culture):
        out.append(RuleFinding("MOV-BUY", f"{reference.source_of('good', good.name, 'seller')} has {good.name} sold by {good.seller}, "
                                      f"not {event.culture}", _seed_or_data(good.name, "seller")))
    if good.buy_price != event.unit_price:
        out.append(RuleFinding("MOV-BUY", f"{reference.source_of('good', good.name, 'buy_price')} prices {good.name} at c{good.buy_price}, "
                                      f"the log says c{event.unit_price}", WARNING))
    return out


def iou_held(player: Player, event: GoodsBought) -> list[RuleFinding]:
    """MOV-IOU: a purchase paid with an IOU needs the selling culture's IOU in hand.

    That an IOU pays only toward its own culture's goods is our reading (not
    in the seeds): a player holding only other cultures' IOUs is told so.
    """
    if not event.iou or event.culture in player.ious:
        return []
    others = sorted(player.ious)
    if not others:
        return [RuleFinding("MOV-IOU", f"pays with the {event.culture} IOU, which {event.player} does not hold")]
    held = ", ".join(f"the {c} IOU" for c in others)
    return [RuleFinding("MOV-IOU", f"pays with the {event.culture} IOU, which {event.player} does not hold ({event.player} holds {held}; "
                               f"an IOU pays only toward a purchase from the culture that issued it: not in the seeds)")]


def iou_payment(player: Player, culture: str, total: int) -> tuple[int, int]:
    """MOV-IOU: (paid from the IOU, paid in credits) for a deal of ``total`` with ``culture``'s IOU.

    The IOU covers the deal up to its value and is used up by it; an IOU worth
    more than the deal gives no change (not in the seeds).
    """
    value = player.ious.get(culture, 0)
    applied = min(value, total)
    return applied, total - applied


def first_contact(state: MerchantState, culture: str, iou: int) -> list[RuleFinding]:
    """MOV-IOU: only the first contact with a culture gives its IOU; warn on an unusual value."""
    out = []
    if culture in state.contacted:
        by, line = state.contacted[culture]
        out.append(RuleFinding("MOV-IOU", f"{culture} was first contacted by {by} at line {line}; its IOU is gone"))
    ref = reference.cultures().get(reference.key(culture))
    if ref is not None and ref.iou_value != iou:
        out.append(RuleFinding("MOV-IOU", f"{reference.source_of('culture', ref.name, 'iou_value')} gives {ref.name}'s IOU as "
                                      f"c{ref.iou_value}, the log says c{iou}", WARNING))
    return out


# -- MOV-SELL ----------------------------------------------------------------------------


def sell(player: Player, event: GoodsSold) -> list[RuleFinding]:
    """MOV-SELL: the player carries the tokens sold, to a culture that buys the good (a violation where the seeds
    name the buyers: Bionic Perfume; a warning where only the 1988 data do); warn where the resale value differs."""
    held = sum(n for _, n in player.carried("good", event.good))
    out = []
    if held < event.quantity:
        out.append(RuleFinding("MOV-SELL", f"sells {event.quantity} {event.good} but carries {held}"))
    good = reference.goods().get(reference.key(event.good))
    if good is not None:
        if reference.key(event.culture) not in reference.buyer_keys(good.name):
            out.append(RuleFinding("MOV-SELL", f"{reference.source_of('good', good.name, 'buyers')} has {good.name} bought by "
                                           f"{', '.join(good.buyers)}, not {event.culture}", _seed_or_data(good.name, "buyers")))
        if good.resale_value != event.resale_value:
            out.append(RuleFinding("MOV-SELL", f"{reference.source_of('good', good.name, 'resale_value')} gives {good.name}'s resale value "
                                           f"as c{good.resale_value}, the log says c{event.resale_value}", WARNING))
    return out


def purchase(state: MerchantState, player: Player, e: GoodsBought, buys: int) -> list[RuleFinding]:
    """MOV-BUY, MOV-LIMIT, MOV-IOU, MOV-PAY: what a Buy action of goods breaks before its tokens are loaded
    (``buys``: the Buy actions at this venue this turn, this one included). MOV-CAPACITY is asked of the holds
    after loading (:func:`capacity`, :func:`room`)."""
    problems = at_market("MOV-BUY", player, e.culture, f"buying {e.good}")
    problems += buy_reference(e)
    problems += trade_limit(state, player, "Buy", buys)
    problems += iou_held(player, e)
    total = e.unit_price * e.quantity
    applied, due = iou_payment(player, e.culture, total) if e.iou else (0, total)
    return problems + pay(player, due, f"{e.quantity} {e.good}")


def equipment_purchase(state: MerchantState, player: Player, item: str, price: int, buys: int) -> list[RuleFinding]:
    """MOV-BUY, MOV-LIMIT, MOV-PAY: what buying equipment breaks before it is loaded (``buys``: the Buy actions
    at this venue this turn, this one included)."""
    return at_any_market(player, f"buying {item}") + equipment_reference(item, price) \
        + trade_limit(state, player, "Buy", buys) + pay(player, price, item)


def sale(state: MerchantState, player: Player, e: GoodsSold, sells: int) -> list[RuleFinding]:
    """MOV-SELL, MOV-LIMIT: what a sale breaks (``sells``: the tokens sold at this venue this turn, these
    included)."""
    return at_market("MOV-SELL", player, e.culture, f"selling {e.good}") + sell(player, e) \
        + trade_limit(state, player, "Sell", sells)


# -- MOV-LIMIT ---------------------------------------------------------------------------


def trade_limit(state: MerchantState, player: Player, action: str, count: int) -> list[RuleFinding]:
    """MOV-LIMIT: one Buy and one Sell action on landing at a city or neutral spaceport.

    ``count`` is the number of ``action`` (``Buy`` or ``Sell``) actions taken
    this turn at this venue, the one being checked included. A player who
    skipped movement there, or trades at a merchant or open spaceport, may
    take any number.
    """
    venue = player.venue
    if state.skipped_movement or venue is None or venue.venue not in LIMITED_VENUES or count <= 1:
        return []
    return [RuleFinding("MOV-LIMIT", f"{action} action {count} this turn at {_where(venue)} on the turn of landing (one allowed)")]


# -- MOV-COMMISSION ----------------------------------------------------------------------


def commission(state: MerchantState, player: Player, deal_value: int) -> tuple[str, int] | None:
    """MOV-COMMISSION: (owner, amount) when the deal is at a merchant spaceport.

    10% of the deal's full value, IOU included, rounded down (not in the seeds).
    """
    venue = player.venue
    if venue is None or venue.venue != "merchant_spaceport" or venue.owner is None:
        return None
    return venue.owner, deal_value * COMMISSION_PERCENT // 100


def spaceport_owner(state: MerchantState, event: Landed) -> list[RuleFinding]:
    """MOV-COMMISSION: the named owner of a merchant spaceport holds its deed."""
    if event.venue != "merchant_spaceport" or event.owner is None:
        return []
    deeds = state.by_player[event.owner].deeds
    if any(d.kind == "merchant_spaceport" and reference.key(d.culture) == reference.key(event.culture or "") for d in deeds):
        return []
    return [RuleFinding("MOV-COMMISSION", f"{event.owner} holds no merchant spaceport deed at {event.culture}; commissions there are paid to the deed's holder")]


def recorded_commission(reason: str) -> list[RuleFinding]:
    """MOV-COMMISSION: commissions are computed, so one written in by hand would count twice."""
    if "commission" in reason.casefold():
        return [RuleFinding("MOV-COMMISSION", "commissions are computed from the deals at merchant spaceports; this recorded one counts twice")]
    return []


# -- MOV-CAPACITY ------------------------------------------------------------------------


def capacity(player: Player, dots: int = 1, more: int = 0) -> list[RuleFinding]:
    """MOV-CAPACITY: two-dot tokens + ceil(one-dot tokens / 2) must fit the holds (with ``more`` tokens of
    ``dots`` loaded: the rule asked before a purchase)."""
    used = player.holds_used(dots, more)
    if used > player.holds:
        return [RuleFinding("MOV-CAPACITY", f"the cargo needs {used} holds but the ship has {player.holds}")]
    return []


def room(player: Player, dots: int) -> int:
    """MOV-CAPACITY: the most tokens of ``dots`` that the holds take now (a one-dot token fills the half of a hold
    another one-dot token left free)."""
    free = 2 * player.holds - 2 * player.holds_used()  # free dots, a half-full hold's free half not yet counted
    upto = max(0, free // dots + 1)
    return max((n for n in range(upto + 1) if not capacity(player, dots, n)), default=0)


# -- MOV-PASSENGER -----------------------------------------------------------------------


def deliver(player: Player, passenger: str) -> tuple[list[RuleFinding], object | None]:
    """MOV-PASSENGER: the passenger is aboard and the ship is at its destination.

    Returns the problems and the passenger's token (None when not aboard).
    """
    aboard = player.carried("passenger", passenger)
    if not aboard:
        return [RuleFinding("MOV-PASSENGER", f"{passenger} is not aboard")], None
    token = aboard[0][0]
    venue = player.venue
    destination = token.destination or ""
    at_base = destination.casefold() in ("base", "galactic base", "galactic_base") and venue is not None and venue.venue == "galactic_base"
    if venue is None or venue.venue not in TRADING_VENUES or not (
        at_base or reference.key(venue.culture or "") == reference.key(destination)
    ):
        return [RuleFinding("MOV-PASSENGER", f"{passenger} travels to {destination}, but the ship is at {_where(venue)}")], token
    return [], token


# -- MOV-HAZARD and MOV-PAY --------------------------------------------------------------


def hazard_due(player: Player, cost: int) -> tuple[int, int]:
    """MOV-HAZARD: (discount, amount due): c20 less per Shield, never below c0."""
    discount = min(cost, SHIELD_DISCOUNT * player.shields)
    return discount, cost - discount


def pass_hazard(player: Player, color: str) -> list[RuleFinding]:
    """MOV-HAZARD: only a drive of the hazard's color lets a ship pass without paying."""
    if player.drives.get(color.casefold(), 0) > 0:
        return []
    return [RuleFinding("MOV-HAZARD", f"passes a {color} hazard without a {color} drive")]


def pay(player: Player, amount: int, what: str) -> list[RuleFinding]:
    """MOV-PAY (not in the seeds): a player can't pay more credits than they hold."""
    if amount > player.credits:
        return [RuleFinding("MOV-PAY", f"pays c{amount} for {what} but holds c{player.credits} (not in the seeds)")]
    return []


def drive_colors(item: str) -> tuple[str, ...]:
    """The colors of a ``drive:<color>`` item (``drive:red+yellow`` for the combined drive)."""
    if not item.casefold().startswith("drive:"):
        return ()
    return tuple(sorted(c.strip().casefold() for c in item.split(":", 1)[1].split("+") if c.strip()))


def equipment_reference(item: str, price: int) -> list[RuleFinding]:
    """MOV-BUY: warn where an equipment price differs from the reference data."""
    colors = drive_colors(item)
    name = "shield-20" if item.casefold() == "shield" else (
        "combineddrive" if len(colors) > 1 else f"{colors[0]}drive" if colors else reference.key(item))
    ref = reference.equipment_prices().get(reference.key(name))
    if ref is not None and ref != price:
        return [RuleFinding("MOV-BUY", f"{reference.source_of('equipment', name, 'price')} prices {item} at c{ref}, the log says c{price}", WARNING)]
    return []


# -- MOV-NET-WORTH -----------------------------------------------------------------------


def net_worth_claim(player: Player, claimed: int) -> list[RuleFinding]:
    """MOV-NET-WORTH: deeds count at their full value, whatever was paid for them.

    Called for a net worth claim that differs from the computed one: when the
    claim is what counting deeds at their price would give, that is the rule
    the table misapplied.
    """
    at_price = player.credits + sum(d.price_paid for d in player.deeds)
    if claimed == at_price != player.net_worth:
        return [RuleFinding("MOV-NET-WORTH", f"the claim counts deeds at the c{at_price - player.credits} paid for them, "
                                         f"not their full value of c{player.net_worth - player.credits}")]
    return []


# -- MOV-TURN-END, MOV-BONUS-CUP, MOV-WIN ------------------------------------------------


def ends_turn_on_landing(venue: Landed | None) -> bool:
    """MOV-TURN-END: ending or skipping movement anywhere but a spaceport, city or asteroid ends the turn."""
    return venue is None or venue.venue not in TURN_KEEPING_VENUES


def cup_settled(state: MerchantState) -> list[RuleFinding]:
    """MOV-BONUS-CUP: every token put into the cup this turn was followed by a draw."""
    if state.cup_owed > 0:
        return [RuleFinding("MOV-BONUS-CUP", f"{state.cup_owed} token(s) went into the Bonus Cup (from line {state.cup_owed_since}) without a bonus_cup_draw")]
    return []


def wins(state: MerchantState, player: str) -> bool:
    """MOV-WIN: net worth at least the goal (c2000 unless the setup says otherwise) at the end of one's own turn."""
    return state.by_player[player].net_worth >= state.goal
