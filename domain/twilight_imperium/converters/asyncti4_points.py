"""An AsyncTI4 save's victory points, each a log line to be placed: objectives, secrets, custom points, Support for the Throne.

The bot does not store a player's total; it computes it (its
``Player.getTotalVictoryPoints``, described in docs/log-format.md): every public-objective card in
``scoredPublicObjectives`` whose scorers list the player counts its points
once; every custom objective there (``Custodian/Imperial``, ``Political
Censure``, ``Shard of the Throne``, a leaked secret...) counts its
``customPublicVP`` value once per time the player is listed; every scored
secret counts 1, except those in ``so_to_po``; every ``<color>_sftt`` in the
player's play area counts 1. :func:`points` turns each of those into one
:class:`Point`, in the save's order, so that the log's VP equal the bot's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamelog.domain.twilight_imperium import reference
from gamelog.domain.twilight_imperium.converters.asyncti4_save import Save, Seat, pairs

SUPPORT = "Support for the Throne"


@dataclass
class Point:
    """One source of VP of one player: ``line`` is the log line (without ``at``), ``name`` what breadcrumbs call it."""

    player: str
    kind: str  # the summary's kind of entry
    line: dict[str, Any]
    name: str
    secret: bool = False

    @property
    def vp(self) -> int:
        return int(self.line["points"])


def public_card(obj: str) -> reference.Objective | None:
    """The public-objective card a bot id names, or None for a custom objective (or a card the data do not know)."""
    card = reference.objective(obj)
    return card if card is not None and card.kind == "public" else None


def points(save: Save, players: dict[str, str], seats: dict[str, Seat], notes: list[tuple[str, str]]) -> list[Point]:
    """Every VP source of every player, as the bot counts them; what cannot be counted goes to ``notes`` (kind, text).

    ``players``: user id -> player name; ``seats``: player name -> seat.
    """
    out: list[Point] = []
    custom_vp = {name: vp for name, vp in save.pairs("customPublicVP")}
    for obj, scorers in save.pairs("scoredPublicObjectives"):
        ids = [s for s in scorers.split("-") if s]
        card = public_card(obj)
        strangers = sorted({s for s in ids if s not in players})
        for s in strangers:
            notes.append(("objective score", f"{obj} is scored by user {s}, who holds no faction in this save"))
        if card is not None:
            for user in dict.fromkeys(s for s in ids if s in players):  # a card counts once, however often listed
                out.append(Point(players[user], "objective score", {
                    "type": "objective_scored", "player": players[user], "objective": card.name, "kind": "public",
                    "points": card.points, "source": f"scoredPublicObjectives {obj}"}, card.name))
            continue
        vp = custom_vp.get(obj, "").strip()
        if not vp.isdigit() or int(vp) <= 0:
            for user in (s for s in ids if s in players):
                notes.append(("custom point", f"{players[user]} is listed as scoring {obj}, which customPublicVP "
                                              f"gives no points ({vp or 'no entry'}): the bot counts 0"))
            continue
        for user in (s for s in ids if s in players):  # a custom objective counts once per listing
            out.append(Point(players[user], "custom point", {
                "type": "vp_scored", "player": players[user], "origin": obj, "points": int(vp),
                "reason": f"{obj} in scoredPublicObjectives, {vp} VP by customPublicVP",
                "source": f"scoredPublicObjectives {obj}"}, obj))
    leaked = {s.strip() for s in save.value("so_to_po").split(",") if s.strip()}
    colours = {seat.keys.get("color", "").strip(): name for name, seat in seats.items()}
    for name, seat in seats.items():
        for secret, _ in pairs(seat.keys.get("secret_objectives_scored", "")):
            if secret in leaked:
                notes.append(("secret scored", f"{name}'s secret {secret} was made public (so_to_po): it counts as a public"))
                continue
            card = reference.objective(secret)
            title = card.name if card is not None else secret
            out.append(Point(name, "secret scored", {
                "type": "objective_scored", "player": name, "objective": title, "kind": "secret", "points": 1,
                "source": f"{seat.user_id} secret_objectives_scored {secret}"}, title, secret=True))
        for note in (n.strip() for n in seat.keys.get("promissory_notes_play_area", "").split(",")):
            if note.endswith("_sftt"):
                giver = colours.get(note[: -len("_sftt")], f"the {note[: -len('_sftt')]} player")
                out.append(Point(name, SUPPORT, {
                    "type": "vp_scored", "player": name, "origin": SUPPORT, "points": 1,
                    "reason": f"{giver}'s {SUPPORT} ({note}) in {name}'s play area",
                    "source": f"{seat.user_id} promissory_notes_play_area {note}"}, SUPPORT))
    return out


def totals(players: list[str], sources: list[Point]) -> dict[str, int]:
    """Each player's VP by the bot's rule: the sum of their points."""
    out = {p: 0 for p in players}
    for point in sources:
        out[point.player] += point.vp
    return out
