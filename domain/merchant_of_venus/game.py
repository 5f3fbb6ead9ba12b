"""The Merchant of Venus engine: from each recorded line to what the rules make of it.

For every event it asks ``rules`` what is legal and what is owed, stores a
finding for each problem, and emits the consequences as events: credits that
change (with the rule that changed them), cargo, IOUs, deeds, equipment, the
Bonus Cup's debts, the end of the turn, and the winner.
"""

from __future__ import annotations

from typing import Any

from gamelog.domain.engine import Engine, decides
from gamelog.domain.events import GameWon
from gamelog.domain.games import GameRules
from gamelog.domain.merchant_of_venus import entries, measures, phrases, replay_document, secrets, statistics
from gamelog.domain.merchant_of_venus import rules
from gamelog.domain.merchant_of_venus.events import (
    EVENTS,
    BonusCupDraw,
    CargoChanged,
    CreditsChanged,
    CreditsPaid,
    CreditsReceived,
    CupChanged,
    Deed,
    DeedAcquired,
    DeedChanged,
    EquipmentBought,
    EquipmentChanged,
    FirstContact,
    GoodsBought,
    GoodsSold,
    HazardCharged,
    HazardDeclined,
    HazardPaid,
    HazardPassed,
    IouChanged,
    IouSpent,
    Landed,
    MovementSkipped,
    PassengerBoarded,
    PassengerDelivered,
    RelicTaken,
    Token,
)
from gamelog.domain.merchant_of_venus.state import MerchantState


_ANYONE_S_TURN = frozenset({CreditsPaid, CreditsReceived})
"""Recorded events that may happen on anyone's turn: paying a debt, receiving income."""


class MerchantEngine(Engine):
    """Applies the Merchant of Venus rules, line by line."""

    STATE = MerchantState
    TURN_RULE = "MOV-TURN-END"
    END_RULE = "MOV-WIN"
    CLAIM_FIELD = "net_worth"
    state: MerchantState

    def credits(self, line: int, player: str, delta: int, rule: str, reason: str) -> None:
        if delta:
            self.emit(CreditsChanged(line=line, player=player, delta=delta, rule=rule, reason=reason))

    def open_game(self, line: int) -> None:
        header = self.state.header
        for player in header.players:
            self.credits(line, player, header.per_player("starting_credits", player), "setup", "starting credits")

    def explain_claim(self, line: int, player: str, claimed: int) -> None:
        self.report(line, player, rules.net_worth_claim(self.state.by_player[player], claimed))

    def check_event(self, line: int, event: Any) -> None:
        # Paying a debt and receiving income may happen on anyone's turn.
        if type(event) not in _ANYONE_S_TURN and (player := getattr(event, "player", None)) is not None:
            self.check_actor(line, player)

    # -- movement --------------------------------------------------------------------

    @decides(Landed)
    def landed(self, line: int, e: Landed) -> None:
        self.report(line, e.player, rules.spaceport_owner(self.state, e))
        if rules.ends_turn_on_landing(e):
            self.finish_turn(line, "MOV-TURN-END", "the ship ended its move off any spaceport, city or asteroid")

    @decides(MovementSkipped)
    def movement_skipped(self, line: int, e: MovementSkipped) -> None:
        if rules.ends_turn_on_landing(self.state.by_player[e.player].venue):
            self.finish_turn(line, "MOV-TURN-END", "movement was skipped off any spaceport, city or asteroid")

    @decides(FirstContact)
    def first_contact(self, line: int, e: FirstContact) -> None:
        self.report(line, e.player, rules.first_contact(self.state, e.culture, e.iou))
        self.emit(IouChanged(line=line, player=e.player, culture=e.culture, value=e.iou, gained=True, contact=True))

    # -- buying and selling ------------------------------------------------------------

    @decides(GoodsBought)
    def goods_bought(self, line: int, e: GoodsBought) -> None:
        p = self.state.by_player[e.player]
        total = e.unit_price * e.quantity
        what = f"{e.quantity} {e.good}"
        self.report(line, e.player, rules.purchase(self.state, p, e, self.state.buys))
        applied, due = rules.iou_payment(p, e.culture, total) if e.iou else (0, total)
        if e.iou and e.culture in p.ious:
            self.emit(IouSpent(line=line, player=e.player, culture=e.culture, value=p.ious[e.culture], applied=applied, credits=due))
            self.emit(IouChanged(line=line, player=e.player, culture=e.culture, value=p.ious[e.culture], gained=False))
        self.credits(line, e.player, -due, "MOV-BUY", f"bought {what} at c{e.unit_price}" + (f" (c{applied} from the {e.culture} IOU)" if applied else ""))
        self.emit(CargoChanged(line=line, player=e.player, token=Token("good", e.good, e.dots), count=e.quantity))
        self.report(line, e.player, rules.capacity(p))
        if (owed := rules.commission(self.state, p, total)) is not None:
            self.pay_commission(line, owed, total, f"{e.player}'s purchase of {what}")

    @decides(EquipmentBought)
    def equipment_bought(self, line: int, e: EquipmentBought) -> None:
        p = self.state.by_player[e.player]
        self.report(line, e.player, rules.equipment_purchase(self.state, p, e.item, e.price, self.state.buys))
        self.credits(line, e.player, -e.price, "MOV-BUY", f"bought {e.item}")
        shield = e.item.casefold() == "shield"
        self.emit(EquipmentChanged(line=line, player=e.player, item=e.item, shield=shield, drive_colors=rules.drive_colors(e.item)))
        self.emit(CargoChanged(line=line, player=e.player, token=Token("equipment", e.item, e.dots), count=1))
        self.report(line, e.player, rules.capacity(p))
        if (owed := rules.commission(self.state, p, e.price)) is not None:
            self.pay_commission(line, owed, e.price, f"{e.player}'s purchase of {e.item}")

    @decides(GoodsSold)
    def goods_sold(self, line: int, e: GoodsSold) -> None:
        p = self.state.by_player[e.player]
        self.report(line, e.player, rules.sale(self.state, p, e, self.state.sells))
        self.credits(line, e.player, e.resale_value * e.quantity, "MOV-SELL", f"sold {e.quantity} {e.good} at c{e.resale_value}")
        self.unload(line, e.player, "good", e.good, e.quantity)
        self.emit(CupChanged(line=line, count=e.quantity))
        owed = rules.commission(self.state, p, e.resale_value)
        if owed is not None:
            for _ in range(e.quantity):  # each token sold is its own Sell action
                self.pay_commission(line, owed, e.resale_value, f"{e.player}'s sale of {e.good}")

    def unload(self, line: int, player: str, kind: str, name: str, count: int) -> None:
        for token, held in self.state.by_player[player].carried(kind, name):
            take = min(held, count)
            self.emit(CargoChanged(line=line, player=player, token=token, count=-take))
            count -= take
            if not count:
                return

    def pay_commission(self, line: int, owed: tuple[str, int], deal_value: int, deal: str) -> None:
        """Pay the commission ``rules.commission`` found owed on a deal."""
        owner, amount = owed
        self.credits(line, owner, amount, "MOV-COMMISSION", f"commission on {deal} (c{deal_value})")

    # -- passengers, hazards, relics ----------------------------------------------------

    @decides(PassengerBoarded)
    def passenger_boarded(self, line: int, e: PassengerBoarded) -> None:
        p = self.state.by_player[e.player]
        self.report(line, e.player, rules.at_any_market(p, f"boarding {e.passenger}", "MOV-PASSENGER"))
        self.emit(CargoChanged(line=line, player=e.player, token=Token("passenger", e.passenger, 1, e.destination), count=1))
        self.report(line, e.player, rules.capacity(p))

    @decides(PassengerDelivered)
    def passenger_delivered(self, line: int, e: PassengerDelivered) -> None:
        problems, token = rules.deliver(self.state.by_player[e.player], e.passenger)
        self.report(line, e.player, problems)
        self.credits(line, e.player, e.fare, "MOV-PASSENGER", f"fare for {e.passenger}")
        if token is not None:
            self.emit(CargoChanged(line=line, player=e.player, token=token, count=-1))
        self.emit(CupChanged(line=line, count=1))

    @decides(HazardPaid)
    def hazard_paid(self, line: int, e: HazardPaid) -> None:
        p = self.state.by_player[e.player]
        discount, due = rules.hazard_due(p, e.cost)
        self.emit(HazardCharged(line=line, player=e.player, cost=e.cost, shields=p.shields, discount=discount, due=due))
        self.report(line, e.player, rules.pay(p, due, "a hazard"))
        self.credits(line, e.player, -due, "MOV-HAZARD", f"hazard c{e.cost}" + (f" less c{discount} for shields" if discount else ""))

    @decides(HazardDeclined)
    def hazard_declined(self, line: int, e: HazardDeclined) -> None:
        self.finish_turn(line, "MOV-HAZARD", "the hazard was not paid")

    @decides(HazardPassed)
    def hazard_passed(self, line: int, e: HazardPassed) -> None:
        self.report(line, e.player, rules.pass_hazard(self.state.by_player[e.player], e.color))

    @decides(RelicTaken)
    def relic_taken(self, line: int, e: RelicTaken) -> None:
        self.emit(EquipmentChanged(line=line, player=e.player, item=e.relic))
        self.finish_turn(line, "MOV-RELIC", f"the relic {e.relic} was taken")

    # -- deeds, the Bonus Cup, payments -------------------------------------------------

    @decides(DeedAcquired)
    def deed_acquired(self, line: int, e: DeedAcquired) -> None:
        p = self.state.by_player[e.player]
        self.report(line, e.player, rules.pay(p, e.price_paid, f"a {e.kind} deed"))
        self.credits(line, e.player, -e.price_paid, "MOV-PAY", f"paid for a {e.kind.replace('_', ' ')} deed at {e.culture}")
        self.emit(DeedChanged(line=line, player=e.player, deed=Deed(e.kind, e.culture, e.value, e.price_paid), gained=True))

    @decides(BonusCupDraw)
    def bonus_cup_draw(self, line: int, e: BonusCupDraw) -> None:
        if self.state.cup_owed <= 0:
            self.find(line, "MOV-BONUS-CUP", "a draw from the Bonus Cup with no token put in before it", self.state.active)
        self.emit(CupChanged(line=line, count=-1))

    @decides(CreditsPaid)
    def credits_paid(self, line: int, e: CreditsPaid) -> None:
        self.report(line, e.player, rules.pay(self.state.by_player[e.player], e.amount, e.reason))
        self.credits(line, e.player, -e.amount, "MOV-PAY", f"paid to {e.to}: {e.reason}")
        if e.to != "bank":
            self.credits(line, e.to, e.amount, "MOV-PAY", f"paid by {e.player}: {e.reason}")

    @decides(CreditsReceived)
    def credits_received(self, line: int, e: CreditsReceived) -> None:
        self.report(line, e.player, rules.recorded_commission(e.reason))
        self.credits(line, e.player, e.amount, "MOV-PAY", f"received from {e.from_}: {e.reason}")
        if e.from_ != "bank":
            self.credits(line, e.from_, -e.amount, "MOV-PAY", f"paid to {e.player}: {e.reason}")

    # -- the end of a turn, and of the game ---------------------------------------------

    def on_turn_finished(self, line: int, player: str) -> None:
        self.report(line, player, rules.cup_settled(self.state))
        if self.state.ended is None and rules.wins(self.state, player):
            worth = self.state.by_player[player].net_worth
            self.emit(GameWon(line=line, winner=player, rule="MOV-WIN",
                              reason=f"net worth c{worth} at the end of {player}'s turn (goal c{self.state.goal})"))


RULES = GameRules(
    offers=entries.OFFERS,
    name="merchant-of-venus",
    events=EVENTS,
    engine=MerchantEngine,
    phrases=phrases.PHRASES,
    kinds=phrases.KINDS,
    screen=replay_document.screen,
    state_phrases=phrases.STATE,
    measures=measures.MEASURES,
    secrets=secrets.HIDDEN,
    statistics=statistics.STATISTICS,
)
