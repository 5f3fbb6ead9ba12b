"""Merchant of Venus events: the log's lines (docs/log-format.md) and what the rules decide.

Recorded events mirror the log format's table for ``merchant-of-venus``.
Derived events are the consequences the rules fix (RULES.md): every change of
credits is a :class:`CreditsChanged` naming its rule, so that net worth is the
sum of what the domain decided; cargo, IOUs, deeds and equipment change
through invertible events, so that a correction can undo them.
"""

from __future__ import annotations

import difflib
from typing import Literal

import msgspec

from gamelog.domain.events import (
    Change,
    Counted,
    Derived,
    GameHeader,
    Goal,
    Tally,
    Name,
    NonNegativeInt,
    PlayerRecorded,
    PositiveInt,
    Quantity,
    Recorded,
    game_events,
)
from gamelog.domain.merchant_of_venus import reference
from gamelog.domain.msgspec_wording import invalid_at

Venue = Literal["surface_city", "neutral_spaceport", "galactic_base", "merchant_spaceport", "open_spaceport", "asteroid", "other"]
Dots = Literal[1, 2]


class Setup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Game settings. Numbers apply to every player; an object gives them per player."""

    starting_credits: NonNegativeInt | dict[str, NonNegativeInt] = 0
    holds: PositiveInt | dict[str, PositiveInt] = 2
    goal: Goal = 2000


class Header(GameHeader, tag="game"):
    """The first line of a Merchant of Venus log."""

    game: Literal["merchant-of-venus"]
    setup: Setup = Setup()

    def check(self) -> None:
        super().check()
        for name in ("starting_credits", "holds"):
            value = getattr(self.setup, name)
            if isinstance(value, dict) and set(value) != set(self.players):
                raise invalid_at(f"`{name}` by player must name exactly the players", f"$.setup.{name}")

    def per_player(self, name: str, player: str) -> int:
        """A setup value for one player, whether given once or by player."""
        value = getattr(self.setup, name)
        return value[player] if isinstance(value, dict) else value


class Landed(Recorded, tag="landed"):
    PLAYER_FIELDS = {"player": frozenset(), "owner": frozenset()}
    player: Name
    venue: Venue
    culture: Name | None = None
    owner: Name | None = None

    def __post_init__(self) -> None:
        trades = self.venue not in ("other", "asteroid")
        if trades and self.culture is None:
            raise invalid_at(f"a {self.venue} needs the `culture` it trades with", f"$.culture")
        if not trades and self.culture is not None:
            raise invalid_at(f"a landing at `{self.venue}` has no `culture`", f"$.culture")
        if (self.venue == "merchant_spaceport") != (self.owner is not None):
            raise invalid_at("`owner` is given for a merchant spaceport, and only there", "$.owner")


class MovementSkipped(PlayerRecorded, tag="movement_skipped"):
    """The ship stays where it was: trading there is unlimited this turn (MOV-LIMIT)."""


class FirstContact(PlayerRecorded, tag="first_contact"):
    culture: Name
    iou: PositiveInt


class GoodsBought(PlayerRecorded, tag="goods_bought"):
    good: Name
    culture: Name
    unit_price: PositiveInt
    quantity: Quantity = 1
    iou: bool = False
    dots: Dots = 1
    factory: bool = False


class EquipmentBought(PlayerRecorded, tag="equipment_bought"):
    item: Name
    price: PositiveInt
    dots: Dots = 1

    def __post_init__(self) -> None:
        # The printed name and the short one are the same item, read as the engine counts it (a Shield that the
        # engine did not know as one would shield nothing); a name of no equipment is refused, never stored.
        item = reference.equipment_item(self.item)
        if item is None:
            names = sorted({reference.equipment_printed(n) for n in reference.equipment_by_name().values()})
            near = difflib.get_close_matches(self.item, names + sorted(set(reference.equipment_by_name().values())), 1, 0.4)
            hint = f"did you mean {near[0]!r}? " if near else ""
            raise invalid_at(f"{self.item!r} is no equipment a port sells; {hint}one of: {', '.join(names)}", "$.item")
        if item != self.item:
            msgspec.structs.force_setattr(self, "item", item)


class GoodsSold(PlayerRecorded, tag="goods_sold"):
    good: Name
    culture: Name
    resale_value: PositiveInt
    quantity: Quantity = 1


class PassengerBoarded(PlayerRecorded, tag="passenger_boarded"):
    passenger: Name
    destination: Name


class PassengerDelivered(PlayerRecorded, tag="passenger_delivered"):
    passenger: Name
    fare: PositiveInt


class HazardPaid(PlayerRecorded, tag="hazard_paid"):
    cost: PositiveInt


class HazardDeclined(PlayerRecorded, tag="hazard_declined"):
    cost: PositiveInt


class HazardPassed(PlayerRecorded, tag="hazard_passed"):
    color: Name


class RelicTaken(PlayerRecorded, tag="relic_taken"):
    relic: Name


class DeedAcquired(PlayerRecorded, tag="deed_acquired"):
    kind: Literal["merchant_spaceport", "factory"]
    culture: Name
    value: PositiveInt
    price_paid: NonNegativeInt


class BonusCupDraw(Recorded, tag="bonus_cup_draw"):
    token: Name
    placed_at: Name


class CreditsPaid(Recorded, tag="credits_paid"):
    PLAYER_FIELDS = {"player": frozenset(), "to": frozenset({"bank"})}
    player: Name
    amount: PositiveInt
    to: Name
    reason: str


class CreditsReceived(Recorded, tag="credits_received"):
    PLAYER_FIELDS = {"player": frozenset(), "from_": frozenset({"bank"})}
    player: Name
    amount: PositiveInt
    from_: Name = msgspec.field(name="from")
    reason: str




# --- What is stored ------------------------------------------------------------------


class Token(msgspec.Struct, frozen=True):
    """Something in a cargo hold: a good, a passenger or equipment, and its dots."""

    kind: Literal["good", "passenger", "equipment"]
    name: str
    dots: int
    destination: str | None = None


class Deed(msgspec.Struct, frozen=True):
    """A merchant spaceport or factory deed, counted at its full value (MOV-NET-WORTH)."""

    kind: str
    culture: str
    value: int
    price_paid: int = 0


class CreditsChanged(Change, frozen=True, kw_only=True):
    """A player's credits change by ``delta`` under ``rule``: the only way credits change."""


class CargoChanged(Counted, frozen=True, kw_only=True):
    """``token`` goes into (``count`` > 0) or out of (< 0) a player's holds."""

    player: str
    token: Token


class IouChanged(Derived, frozen=True, kw_only=True):
    """A culture's IOU is gained or given up; ``contact`` when First Contact gave it (or its voiding took it back)."""

    player: str
    culture: str
    value: int
    gained: bool
    contact: bool = False


class IouSpent(Derived, frozen=True, kw_only=True):
    """MOV-IOU: how a purchase was paid: ``applied`` from the IOU, ``credits`` in credits."""

    player: str
    culture: str
    value: int
    applied: int
    credits: int


class DeedChanged(Tally, frozen=True, kw_only=True):
    """A deed is gained, or lost (``gained`` false): a count of one per deed."""

    player: str
    deed: Deed
    gained: bool

    def key(self) -> tuple:
        return (DeedChanged, self.player, self.deed)

    def amount(self) -> int:
        return 1 if self.gained else -1

    def net(self, line: int, amount: int, reason: str) -> list[Tally]:
        return [DeedChanged(line=line, player=self.player, deed=self.deed, gained=amount > 0)] * abs(amount)


class EquipmentChanged(Counted, frozen=True, kw_only=True):
    """A shield, a drive (by colors) or a relic is gained (``count`` 1) or lost (-1)."""

    player: str
    item: str
    shield: bool = False
    drive_colors: tuple[str, ...] = ()


class CupChanged(Counted, frozen=True, kw_only=True):
    """MOV-BONUS-CUP: ``count`` tokens went into the cup and are owed a draw (negative: drawn)."""


class HazardCharged(Derived, frozen=True, kw_only=True):
    """MOV-HAZARD: the printed cost, the shields' discount and what was due."""

    player: str
    cost: int
    shields: int
    discount: int
    due: int


# --- The game's event lists ----------------------------------------------------------

EVENTS = game_events(
    __name__, Header,
    recorded=(
        Landed, MovementSkipped, FirstContact, GoodsBought, EquipmentBought, GoodsSold,
        PassengerBoarded, PassengerDelivered, HazardPaid, HazardDeclined, HazardPassed,
        RelicTaken, DeedAcquired, BonusCupDraw, CreditsPaid, CreditsReceived,
    ),
    derived=(
        CreditsChanged, CargoChanged, IouChanged, IouSpent, DeedChanged,
        EquipmentChanged, CupChanged, HazardCharged,
    ),
)
"""The game's line types, what the store may hold, and its ``LineRecorded`` (``domain.events.game_events``)."""

LineRecorded = EVENTS.line_recorded
"""A log line as recorded (the header, or one event): its stored topic is this module's ``LineRecorded``."""
