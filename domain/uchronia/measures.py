"""What Uchronia counts: each player's VP (the score), and the Forum's cards by color.

The game ends once a player's VP reach the threshold (UCH-THRESHOLD: the
header's, or the default for its player count). The Forum is the board the
players share: reports list its cards after each turn and chart them.
"""

from __future__ import annotations

from domain.measures import Board, Measures, Step, change
from domain.uchronia.events import ForumChanged, VpChanged
from domain.uchronia.reference import COLORS

FORUM = Board(
    measure="forum",
    subjects=COLORS,
    colours={"wood": "#8b5a2b", "clay": "#c96f3b", "brick": "#a52a2a", "stone": "#7f7f7f", "marble": "#b0c4de"},
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
)
