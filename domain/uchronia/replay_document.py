"""Uchronia in ``replay --format json``: players' buildings and VP, the Forum, monopolies, the threshold (docs/cli.md)."""

from __future__ import annotations

from msgspec import UNSET, UnsetType

from gamelog.domain import replay_document as common


class Building(common.Document, kw_only=True):
    """A completed building: its color, its VP and the line that completed it."""

    name: str
    color: str
    vp: int
    line: int


class Player(common.Document, kw_only=True):
    """One player's VP, buildings built and under construction (name -> resources placed), limit and monopolies."""

    vp: int
    built: list[str]
    under_construction: dict[str, int]
    operations_limit: int
    monopolies: dict[str, int]
    buildings: list[Building]


class Monopoly(common.Document, kw_only=True):
    """Who holds the monopoly of one color (null: nobody) and the operations it brings."""

    player: str | None
    operations: int


class Threshold(common.Document, kw_only=True):
    """The VP that end the game (UCH-THRESHOLD) and, once reached, by whom, where and with how many."""

    vp: int
    reached: bool
    by: str | UnsetType = UNSET
    line: int | UnsetType = UNSET
    turn: int | UnsetType = UNSET
    with_vp: int | UnsetType = UNSET


class End(common.Document, kw_only=True):
    """How the game ended, with the winner (null for an unbroken tie)."""

    line: int
    winner: str | None
    rule: str
    reason: str


class Replay(common.Replay, kw_only=True, tag="uchronia"):
    """The state of an Uchronia game; ``board`` is the Forum (color -> cards), and ``end`` is null until the game is over."""

    players: dict[str, Player]
    end: End | None
    monopolies: dict[str, Monopoly]
    threshold: Threshold
    last_turn_card: str
