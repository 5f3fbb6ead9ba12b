"""Uchronia in ``replay --format json``: players' buildings and VP, the Forum, monopolies, the threshold (docs/cli.md)."""

from __future__ import annotations

from msgspec import UNSET, UnsetType

from gamelog.domain import replay_document as common
from gamelog.domain.screen import ScreenFact, Panel


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


def screen(document: dict) -> tuple[list[ScreenFact], list[Panel], dict[str, str]]:
    """Uchronia on the table's screen (``domain.screen``): the Forum's cards by colour, who holds each monopoly,
    each player's buildings; the threshold and who holds the Last Turn card."""
    players = document.get("players") or {}
    forum = document.get("forum") or {}
    panels = [Panel(title="Forum", columns=list(forum), rows=[[str(n) for n in forum.values()]])] if forum else []
    monopolies = document.get("monopolies") or {}
    panels.append(Panel(title="Monopolies", columns=["Colour", "Held by", "Operations"],
                        rows=[[colour, held.get("player") or "", str(held.get("operations", ""))]
                              for colour, held in monopolies.items()]))
    panels.append(Panel(title="Buildings", columns=["Player", "Built", "Under construction"],
                        rows=[[name, ", ".join(p.get("built") or []),
                               ", ".join(f"{b} ({n})" for b, n in (p.get("under_construction") or {}).items())]
                              for name, p in players.items()]))
    threshold = document.get("threshold") or {}
    facts = []
    if threshold.get("vp"):
        reached = f", reached by {threshold['by']}" if threshold.get("reached") and threshold.get("by") else ""
        facts.append(ScreenFact(label="Threshold", value=f"{threshold['vp']} VP{reached}"))
    if document.get("last_turn_card"):
        facts.append(ScreenFact(label="Last Turn card", value=str(document["last_turn_card"])))
    notes = {name: ", ".join(f"{colour} monopoly" for colour in p.get("monopolies") or {}) for name, p in players.items()}
    return facts, panels, notes
