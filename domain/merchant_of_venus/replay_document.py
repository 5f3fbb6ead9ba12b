"""Merchant of Venus in ``replay --format json``: a player's holdings, and the goal (docs/cli.md)."""

from __future__ import annotations

from typing import Literal

from msgspec import UNSET, UnsetType

from gamelog.domain import replay_document as common
from gamelog.domain.screen import ScreenFact, Panel


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


def screen(document: dict) -> tuple[list[ScreenFact], list[Panel], dict[str, str]]:
    """Merchant of Venus on the table's screen (``domain.screen``): each ship, where it stands, its credits, net
    worth, cargo and relics, and the deeds held; the note by player is where the ship stands."""
    players = document.get("players") or {}
    ships = [[name, _where(p.get("location")), f"c{p.get('credits', 0)}", f"c{p.get('net_worth', 0)}",
              ", ".join(_cargo(c) for c in p.get("cargo") or []), ", ".join(p.get("relics") or [])]
             for name, p in players.items()]
    deeds = [[name, f"{d.get('kind', '').replace('_', ' ')} ({d.get('culture', '')})", f"c{d.get('value', 0)}"]
             for name, p in players.items() for d in p.get("deeds") or []]
    panels = [Panel(title="Ships", columns=["Player", "At", "Credits", "Net worth", "Cargo", "Relics"], rows=ships)]
    if deeds:
        panels.append(Panel(title="Deeds", columns=["Player", "Deed", "Value"], rows=deeds))
    facts = [ScreenFact(label="Goal", value=f"net worth c{document['goal']}")] if document.get("goal") else []
    return facts, panels, {name: _where(p.get("location")) for name, p in players.items()}


def _where(location: dict | None) -> str:
    if not location:
        return ""
    venue = str(location.get("venue") or "").replace("_", " ")
    return f"{venue} of {location['culture']}" if location.get("culture") else venue


def _cargo(item: dict) -> str:
    count = item.get("count", 1)
    return f"{count} {item.get('name')}" if count != 1 else str(item.get("name"))
