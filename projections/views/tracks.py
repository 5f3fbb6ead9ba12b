"""Which derived events move which measure: the projections' map of the domain.

A *track* is a running total per subject: a player's credits, deeds, VP,
trade goods or commodities, or the Forum's cards of one color. The domain
decides every change (with its rule and reason); the projections only add the
deltas up, in the order they were stored.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from domain.merchant_of_venus import events as mov
from domain.twilight_imperium import events as ti4
from domain.uchronia import events as uch


class Step(NamedTuple):
    """One change of one measure: who or what, which measure, by how much, and why."""

    subject: str
    measure: str
    delta: int
    rule: str
    reason: str


def _change(measure: str) -> Callable[[Any], Step]:
    return lambda e: Step(e.player, measure, e.delta, e.rule, e.reason)


def _deed(e: mov.DeedChanged) -> Step:
    sign = 1 if e.gained else -1
    what = f"{e.deed.kind.replace('_', ' ')} deed at {e.deed.culture} (full value c{e.deed.value})"
    return Step(e.player, "deeds", sign * e.deed.value, "MOV-NET-WORTH", ("gained " if e.gained else "lost ") + what)


STEPS: dict[type, Callable[[Any], Step]] = {
    mov.CreditsChanged: _change("credits"),
    mov.DeedChanged: _deed,
    uch.VpChanged: _change("vp"),
    uch.ForumChanged: lambda e: Step(e.color, "forum", e.count, e.rule, e.reason),
    ti4.VpChanged: _change("vp"),
    ti4.TradeGoodsChanged: _change("trade_goods"),
    ti4.CommoditiesChanged: _change("commodities"),
}

SCORE: dict[str, tuple[str, ...]] = {
    "merchant-of-venus": ("credits", "deeds"),
    "uchronia": ("vp",),
    "twilight-imperium-4": ("vp",),
}
"""The measures whose sum is a player's score: net worth, or VP."""

SCORE_NAME = {"merchant-of-venus": "net_worth", "uchronia": "vp", "twilight-imperium-4": "vp"}
MEASURES = {"merchant-of-venus": ("credits", "deeds"), "uchronia": ("vp",),
            "twilight-imperium-4": ("vp", "trade_goods", "commodities")}
PERIOD = {"merchant-of-venus": "turn", "uchronia": "turn", "twilight-imperium-4": "round"}

GOAL: dict[str, Callable[[Any], int]] = {
    "merchant-of-venus": lambda header: header.setup.goal,
    "uchronia": lambda header: header.threshold(),
    "twilight-imperium-4": lambda header: header.setup.vp_goal,
}
"""The score that ends the game (MOV-WIN goal, UCH-THRESHOLD, TI4-VP-GOAL), as the header sets it."""
