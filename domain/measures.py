"""What a game counts, as generic code reads it: the running totals a report shows and charts.

A *measure* is a running total per subject: a player's credits or victory
points, or the count of one kind of card on a shared board. The domain
decides every change (a derived event naming its rule and reason); a game's
``measures`` module says which derived event classes move which measure
(:class:`Step`), which measures make a player's score, and what the goal is.
The views only add the deltas up, in the order they were stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NamedTuple


class Step(NamedTuple):
    """One change of one measure: who or what, which measure, by how much, and why."""

    subject: str
    measure: str
    delta: int
    rule: str
    reason: str


def change(measure: str) -> Callable[[Any], Step]:
    """The step of a ``domain.events.Change`` subclass: its player's ``measure`` moves by its delta."""
    return lambda e: Step(e.player, measure, e.delta, e.rule, e.reason)


PATTERNS = ("plain", "stripes", "dots", "grid", "checks", "waves")
"""The patterns a board's subject may be drawn with (the HTML report draws each one)."""


@dataclass(frozen=True)
class Board:
    """Counts of something the players share (not a player's), charted over time beside the score.

    ``measure`` is the measure its steps move, one subject per kind
    (``subjects``, in the order reports list them); ``colours`` gives each
    subject's colour in the HTML report and ``patterns`` the pattern drawn
    over it (one of :data:`PATTERNS`; ``plain`` when not given), so that two
    subjects are told apart by more than hue; ``title`` labels the chart and
    ``heading`` is the section's heading above it.
    """

    measure: str
    subjects: tuple[str, ...]
    colours: Mapping[str, str]
    title: str
    heading: str
    patterns: Mapping[str, str] = field(default_factory=dict)

    def counts(self, values: Mapping[tuple[str, str], int]) -> dict[str, int]:
        """Each subject's count in ``values`` ((subject, measure) -> total), in report order."""
        return {subject: values.get((subject, self.measure), 0) for subject in self.subjects}


def _no_goal(header: Any) -> int | None:
    return None


def _goal_words(goal: int) -> str:
    return f"goal {goal}"


def _all_recorded(header: Any) -> frozenset[str]:
    return frozenset()


@dataclass(frozen=True)
class Measures:
    """A game's measures: how its derived events move them, its score and its goal.

    ``steps`` maps each derived event class that moves a measure to its
    :class:`Step`; ``standings`` are the measures shown per player (in column
    order); the score, named ``score_name``, is the sum of the ``score``
    measures; ``goal(header)`` is the score that ends the game as the header
    sets it (None: no goal to draw), and ``goal_label(goal)`` names it on a
    chart as the game's rules do ("threshold 18"); ``board`` is the game's
    shared counts, if it has any; ``unrecorded(header)`` names the
    ``standings`` measures the log's source does not record (as the header
    says): their totals are not known, and reports say "not recorded".
    """

    steps: Mapping[type, Callable[[Any], Step]]
    standings: tuple[str, ...]
    score: tuple[str, ...]
    score_name: str
    goal: Callable[[Any], int | None] = _no_goal
    board: Board | None = None
    goal_label: Callable[[int], str] = _goal_words
    unrecorded: Callable[[Any], frozenset[str]] = _all_recorded

    def standing(self, player: str, values: Mapping[tuple[str, str], int]) -> dict[str, int]:
        """``player``'s row of the standings: each measure's total, then the score."""
        row = {m: values.get((player, m), 0) for m in self.standings}
        row[self.score_name] = sum(values.get((player, m), 0) for m in self.score)
        return row
