"""How ``gamelog stats``'s human formats (text, Markdown, HTML) write a document's names and figures: in words.

A table's, a column's and a summary figure's name is the game's word for it
(``Statistics.words``) or the name with spaces for its underscores
(``terminal.label``: ``win_rate`` is "win rate"); a value of a column the
game words (``Statistics.values``: TI4's VP source ``stage_1`` is "stage I
objectives") is its words; a rate (``Statistics.percentages``) is a
percentage; a list (the factions a player played) its items joined. JSON and
CSV keep the document's own names and values: they are its contract.
"""

from __future__ import annotations

from typing import Any, Mapping

from gamelog.domain.games import GAMES
from gamelog.domain.timing import duration
from gamelog.projections.reports.terminal import label


def percent(rate: float) -> str:
    """A rate from 0 to 1 as a percentage, to the 0.1 the rate's 3 places give: 0.333 is "33.3%", 0.5 "50%"."""
    return f"{rate * 100:.1f}".removesuffix(".0") + "%"


def plain(value: Any) -> str:
    """A figure as every human format writes it (before any escaping): ``-`` for none, yes or no, a list's items
    joined by commas, a number as Python prints it."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "-"
    return str(value)


TIMES = frozenset({"mean_game_seconds", "seconds", "mean_seconds"})
"""The figures and columns that are a time of play in seconds (``domain.statistics.TIME_FIELDS``' tables)."""


class Words:
    """The words of one game's statistics documents (``game``: its name; a game that is not registered, or has no
    statistics, gets the names with spaces)."""

    def __init__(self, game: str):
        rules = GAMES.get(game)
        statistics = rules.statistics if rules is not None else None
        self._names: Mapping[str, str] = statistics.words if statistics is not None else {}
        self._values: Mapping[str, Mapping[str, str]] = statistics.values if statistics is not None else {}
        self._percentages = frozenset(statistics.percentages if statistics is not None else ())

    def name(self, key: str) -> str:
        """A table's, column's or figure's name in words."""
        return self._names.get(key) or label(key)

    def value(self, column: str, value: Any) -> str:
        """A cell of ``column`` in words (not yet cleaned or escaped for the format); a time of play in hours and
        minutes, "not recorded" where the lines have no ``at`` (never zero)."""
        if column in TIMES and (value is None or isinstance(value, int)):
            return duration(value)
        if isinstance(value, str):
            return self._values.get(column, {}).get(value, value)
        if column in self._percentages and isinstance(value, (int, float)) and not isinstance(value, bool):
            return percent(value)
        return plain(value)

    def row(self, table: str, columns: tuple[str, ...], row: tuple) -> list[str]:
        """A row of a table in words: the summary's (figure, value) by the figure's name, another's by column."""
        if table == "summary" and len(row) == 2:
            return [self.name(row[0]), self.value(row[0], row[1])]
        return [self.value(column, v) for column, v in zip(columns, row)]
