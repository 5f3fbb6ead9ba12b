"""Merchant of Venus in ``replay --format json``: a player's holdings, and the goal (docs/cli.md)."""

from __future__ import annotations

from typing import Literal

from msgspec import UNSET, UnsetType

from gamelog.domain import replay_document as common


class Deed(common.Document, kw_only=True):
    """A merchant spaceport or factory deed, at its full value (MOV-NET-WORTH)."""

    kind: str
    culture: str
    value: int


class Cargo(common.Document, kw_only=True):
    """Tokens of one kind in the holds; ``destination`` only for a passenger or good bound somewhere."""

    kind: Literal["good", "passenger", "equipment"]
    name: str
    dots: int
    count: int
    destination: str | UnsetType = UNSET


class Location(common.Document, kw_only=True):
    """Where the ship is: the venue, and the culture and owner of a spaceport when it has them."""

    venue: str
    culture: str | UnsetType = UNSET
    owner: str | UnsetType = UNSET


class Player(common.Document, kw_only=True):
    """One player's credits, net worth (credits plus deeds), unused IOUs by culture, deeds, cargo and ship."""

    credits: int
    net_worth: int
    ious: dict[str, int]
    deeds: list[Deed]
    cargo: list[Cargo]
    holds: int
    shields: int
    drives: list[str]
    relics: list[str]
    location: Location | None


class Replay(common.Replay, kw_only=True, tag="merchant-of-venus"):
    """The state of a Merchant of Venus game; ``goal`` is the net worth that wins (MOV-WIN)."""

    players: dict[str, Player]
    goal: int
