"""What Uchronia counts: each player's VP (the score), and the Forum's cards by color.

The game ends once a player's VP reach the threshold (UCH-THRESHOLD: the
header's, or the default for its player count). The Forum is the board the
players share: reports list its cards after each turn and chart them.
``RESULTS``: a log declares a result with ``winner_declared`` (the table's
announcement); VP are one source, the score (``gamelog reconcile``).
"""

from __future__ import annotations

from typing import Any

from gamelog.domain.declarations import Declared, ResultSources
from gamelog.domain.measures import Board, Measures, Step, change
from gamelog.domain.uchronia.events import ForumChanged, VpChanged, WinnerDeclared
from gamelog.domain.uchronia.reference import COLORS

FORUM = Board(
    measure="forum",
    subjects=COLORS,
    # Five hues a colour-blind reader may still confuse (wood and brick), each with its own lightness and pattern.
    colours={"wood": "#7a4a1e", "clay": "#e69f00", "brick": "#b2182b", "stone": "#777777", "marble": "#a6cee3"},
    patterns={"wood": "stripes", "clay": "dots", "brick": "grid", "stone": "checks", "marble": "waves"},
    title="Forum cards by color",
    heading="The Forum over time",
)
"""The Forum: how many cards of each color are on it."""

MEASURES = Measures(
    steps={
        VpChanged: change("vp"),
        ForumChanged: lambda e: Step(e.color, "forum", e.count, e.rule, e.reason),
    },
    standings=("vp",),
    score=("vp",),
    score_name="vp",
    goal=lambda header: header.threshold(),
    board=FORUM,
    goal_label=lambda vp: f"threshold {vp}",
)


def declarations(event: Any) -> list[Declared]:
    """The winner a ``winner_declared`` line announces (None: an unbroken tie)."""
    recorded = getattr(event, "event", None)
    if isinstance(recorded, WinnerDeclared):
        return [Declared("winner", event.line, recorded.player, by=recorded.reason or "")]
    return []


RESULTS = ResultSources(declarations=declarations, types=("winner_declared",))
"""How ``gamelog reconcile`` reads a Uchronia game: its declared winner."""
