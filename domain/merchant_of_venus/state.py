"""Merchant of Venus state: each player's credits, IOUs, deeds, cargo and ship.

The state is only ever changed by folding events (``GameState.apply``); it
decides nothing. Net worth is computed here because MOV-NET-WORTH defines it
as a plain sum (credits plus the full value of deeds), with nothing to decide.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from gamelog.domain.engine import GameState, folds
from gamelog.domain.merchant_of_venus import replay_document
from gamelog.domain.merchant_of_venus.events import (
    CargoChanged,
    CreditsChanged,
    CupChanged,
    Deed,
    DeedChanged,
    EquipmentChanged,
    GoodsBought,
    GoodsSold,
    EquipmentBought,
    IouChanged,
    IouSpent,
    HazardCharged,
    Landed,
    LineRecorded,
    MovementSkipped,
    Token,
)
from gamelog.domain.events import TurnBegan


@dataclass
class Player:
    """One player's holdings and where their ship is."""

    credits: int
    holds: int
    ious: dict[str, int] = field(default_factory=dict)
    deeds: list[Deed] = field(default_factory=list)
    cargo: dict[Token, int] = field(default_factory=dict)
    shields: int = 0
    drives: dict[str, int] = field(default_factory=dict)
    relics: dict[str, int] = field(default_factory=dict)
    venue: Landed | None = None

    @property
    def net_worth(self) -> int:
        """MOV-NET-WORTH: credits plus the full value of every deed."""
        if not self.deeds:  # asked at the end of every turn: most players hold none
            return self.credits
        return self.credits + sum(d.value for d in self.deeds)

    def holds_used(self, dots: int = 1, more: int = 0) -> int:
        """MOV-CAPACITY: two-dot tokens, plus one-dot tokens two to a hold (with ``more`` tokens of ``dots``)."""
        two, one = (more, 0) if dots == 2 else (0, more)
        for t, n in self.cargo.items():
            if t.dots == 2:
                two += n
            elif t.dots == 1:
                one += n
        return two + (one + 1) // 2

    def carried(self, kind: str, name: str) -> list[tuple[Token, int]]:
        """Tokens of that kind and name in the holds, with their counts."""
        return [(t, n) for t, n in self.cargo.items() if t.kind == kind and t.name == name]


class MerchantState(GameState):
    """Every player's holdings, the turn's trading so far, and the Bonus Cup's debts."""

    LINE_RECORDED = LineRecorded
    CONSTANT = GameState.CONSTANT | {"goal"}

    by_player: dict[str, Player]
    contacted: dict[str, tuple[str, int]]
    skipped_movement: bool
    buys: int
    sells: int
    cup_owed: int
    cup_owed_since: int

    def __init__(self, header: Any, header_line: int):
        super().__init__(header, header_line)
        self.goal = header.setup.goal
        self.by_player = {
            # Starting credits arrive as the setup's CreditsChanged events, like every other credit.
            p: Player(credits=0, holds=header.per_player("holds", p))
            for p in header.players
        }
        self.contacted: dict[str, tuple[str, int]] = {}
        self.skipped_movement = False
        self.buys = 0
        self.sells = 0
        self.cup_owed = 0
        self.cup_owed_since = 0

    def score(self, player: str) -> int:
        return self.by_player[player].net_worth

    # -- facts stated by recorded lines ----------------------------------------------

    @folds(Landed)
    def _landed(self, line: int, event: Landed) -> None:
        self.by_player[event.player].venue = event
        self.buys = self.sells = 0
        self.skipped_movement = False

    @folds(MovementSkipped)
    def _movement_skipped(self, line: int, event: MovementSkipped) -> None:
        self.skipped_movement = True

    @folds(GoodsBought, EquipmentBought)
    def _bought(self, line: int, event: GoodsBought | EquipmentBought) -> None:
        self.buys += 1

    @folds(GoodsSold)
    def _sold(self, line: int, event: GoodsSold) -> None:
        self.sells += event.quantity

    @folds(TurnBegan)
    def _turn_began(self, event: TurnBegan) -> None:
        super()._turn_began(event)
        self.skipped_movement = False
        self.buys = self.sells = 0
        # MOV-BONUS-CUP is settled within each turn; an unsettled turn was reported at its end.
        self.cup_owed = 0

    # -- derived events ----------------------------------------------------------------

    @folds(CreditsChanged)
    def _credits(self, e: CreditsChanged) -> None:
        self.by_player[e.player].credits += e.delta

    @folds(CargoChanged)
    def _cargo(self, e: CargoChanged) -> None:
        cargo = self.by_player[e.player].cargo
        left = cargo.get(e.token, 0) + e.count
        if left > 0:
            cargo[e.token] = left
        else:
            cargo.pop(e.token, None)

    @folds(IouChanged)
    def _iou(self, e: IouChanged) -> None:
        ious = self.by_player[e.player].ious
        if e.gained:
            ious[e.culture] = e.value
            if e.contact:
                self.contacted.setdefault(e.culture, (e.player, e.line))
        else:
            ious.pop(e.culture, None)
            if e.contact and self.contacted.get(e.culture, ("",))[0] == e.player:
                del self.contacted[e.culture]  # a First Contact taken back (histories stored before 0.2)

    @folds(DeedChanged)
    def _deed(self, e: DeedChanged) -> None:
        deeds = self.by_player[e.player].deeds
        if e.gained:
            deeds.append(e.deed)
        elif e.deed in deeds:
            deeds.remove(e.deed)

    @folds(EquipmentChanged)
    def _equipment(self, e: EquipmentChanged) -> None:
        p = self.by_player[e.player]
        if e.shield:
            p.shields += e.count
        for color in e.drive_colors:
            p.drives[color] = p.drives.get(color, 0) + e.count
        if not e.shield and not e.drive_colors:
            p.relics[e.item] = p.relics.get(e.item, 0) + e.count

    @folds(CupChanged)
    def _cup(self, e: CupChanged) -> None:
        if self.cup_owed <= 0 < e.count:
            self.cup_owed_since = e.line
        # Never below zero: a draw without a token is reported when decided, and
        # voiding a sale from an earlier turn must not make this turn owe less.
        self.cup_owed = max(0, self.cup_owed + e.count)

    @folds(IouSpent, HazardCharged)
    def _told(self, e: Any) -> None:
        """How a payment was made: kept for the audit, nothing changes."""

    # -- output ------------------------------------------------------------------------

    DOCUMENT = replay_document.Replay

    def document_fields(self) -> dict[str, Any]:
        """Its players, and the rest of its part of ``replay --format json``."""
        players = {name: _player(p) for name, p in self.by_player.items()}
        return {"players": players, "goal": self.goal}


def _player(p: Player) -> replay_document.Player:
    return replay_document.Player(
        credits=p.credits,
        net_worth=p.net_worth,
        ious=dict(sorted(p.ious.items())),
        deeds=[replay_document.Deed(kind=d.kind, culture=d.culture, value=d.value) for d in p.deeds],
        cargo=[replay_document.Cargo(kind=t.kind, name=t.name, dots=t.dots, count=n, destination=t.destination or msgspec.UNSET)
               for t, n in p.cargo.items()],
        holds=p.holds,
        shields=p.shields,
        drives=sorted(c for c, n in p.drives.items() if n > 0),
        relics=sorted(r for r, n in p.relics.items() if n > 0),
        location=_location(p.venue),
    )


def _location(venue: Landed | None) -> replay_document.Location | None:
    if venue is None:
        return None
    return replay_document.Location(venue=venue.venue, culture=venue.culture or msgspec.UNSET, owner=venue.owner or msgspec.UNSET)
