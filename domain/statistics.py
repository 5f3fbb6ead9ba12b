"""What a game counts across many games, as generic code reads it: its *facts* and how its figures are made.

A game's ``statistics`` module declares a :class:`Statistics`: which stored
events are facts worth counting across games (an objective scored, a card
picked, a point from a named source: each a :class:`Fact` naming its player,
what it is and how much it counts), what a player's *side* is (a faction the
player plays, or the player's own name), and how the
game's document of figures is built from a :class:`Figures` reader. The views
(``projections.views.folder``) fold the facts as each game is imported; the
reader (``projections.reports.statistics``) adds them up in SQL. The domain
decides every fact: a fact is read off an event the domain stored, never
decided again here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple, Protocol

from gamelog.domain.replay_document import Document, StreamedRows


class PlayTime(Document, kw_only=True):
    """A player's time over the games whose lines have ``at`` (``domain.timing``): how many such games, the seconds of
    their turns in all, and a game's mean."""

    player: str
    games: int
    seconds: int
    mean_seconds: int


TIME_FIELDS = ("mean_game_seconds", "time_per_player")
"""The fields a game's statistics document may have (its last, defaulting to ``msgspec.UNSET``) that ``gamelog
stats`` fills from the lines' ``at``: the games' mean length (null: no game's lines have ``at``, "not recorded") and
each player's time (:class:`PlayTime`). A document without them has no time of play."""


class StatsDocument(Document, kw_only=True):
    """The base of each game's statistics document (a Struct tagged with the game's name in ``game``)."""

    @property
    def game(self) -> str:
        """The game's name: the tag, which the JSON gives first, as ``game``."""
        return self.__struct_config__.tag


def by_name(text: str) -> tuple[str, str]:
    """How statistics sort names (a faction, a player, an objective): by their letters in any case, then as written."""
    return (text.casefold(), text)


class Fact(NamedTuple):
    """One thing counted: ``player`` (``""`` for none) did or got ``fact`` of ``name`` (``detail``: its stage,
    position, source...), counting ``amount`` (negative: taken back)."""

    player: str
    fact: str
    name: str
    detail: str
    amount: int


class FactTotal(NamedTuple):
    """A fact added up over the games chosen, for one side (``""``: summed over every side).

    ``games`` is how many games it rests on (those where it counts at all),
    ``amount`` its total, ``periods`` the sum of amount × the round (or turn)
    it was counted in, and ``won`` its amount in the games its player won.
    """

    name: str
    detail: str
    side: str
    games: int
    amount: int
    periods: int
    won: int


class SideRow(NamedTuple):
    """One side over the games chosen: games played, won (the game's own end), total final score, its squares."""

    side: str
    games: int
    wins: int
    score: int
    squares: int


class PlayerRow(NamedTuple):
    """One player playing one side (a faction) over the games chosen: games, won, total final score, its squares:
    a player's figures whatever side they played, where a side is not the player (TI4's factions)."""

    player: str
    side: str
    games: int
    wins: int
    score: int
    squares: int


class PeriodRow(NamedTuple):
    """One side's score after one round (or turn) over the games that reached it: games, total, squares."""

    period: int
    side: str
    games: int
    score: int
    squares: int


class Explained(NamedTuple):
    """One line behind a figure: the game, the line, its words, and what it counts toward the figure."""

    game: str
    line: int
    text: str
    amount: int


class Figures(Protocol):
    """What a game's statistics read: the views of the chosen games, added up (``projections.reports.statistics``)."""

    def count(self) -> tuple[int, int]:
        """(games chosen, games finished: those with an end event)."""

    def sides(self) -> list[SideRow]:
        """Each side's games, wins and scores."""

    def players(self) -> list[PlayerRow]:
        """Each player's games, wins and scores, a row for each side they played."""

    def seats(self) -> list[tuple[int, int, int]]:
        """(seat, games played from it, games won from it), seats counted from 1 in the header's order."""

    def periods(self) -> Iterable[PeriodRow]:
        """Each side's score after each round (or turn), in the order of the periods (rows of one period in any
        order): each call reads them again. A long game has a row a player a turn, so they may be read as they
        are written rather than held (:class:`StreamedRows`)."""

    def tallies(self, fact: str, by_side: bool) -> list[FactTotal]:
        """Fact ``fact`` added up by (name, detail), and by side too when ``by_side``."""

    def games_with(self, fact: str) -> list[tuple[str, int]]:
        """(name, games in which fact ``fact`` of that name counts) for each name."""

    def period_counts(self) -> list[tuple[int, int]]:
        """(rounds or turns a game lasted, how many games lasted that long)."""

    def fact_lines(self, fact: str, name: str | None, detail: str | None, side: str | None) -> list[Explained]:
        """Every line that counted toward fact ``fact`` (of that name, detail and side when given)."""

    def win_lines(self, side: str) -> list[Explained]:
        """The end line of every chosen game that ``side`` won."""

    def score_lines(self, side: str, period: int | None) -> list[Explained]:
        """For each game ``side`` played: the line that set its final score (after ``period`` when given)."""


@dataclass(frozen=True)
class Statistics:
    """A game's statistics.

    ``facts`` maps an event class (a recorded line's class, or a derived
    event's) to the facts it makes: ``facts[cls](event, memo)``, where ``memo``
    is a dict kept per game across the fold (JSON values only) for what a
    fact needs from earlier events (the stage an objective was revealed at).
    ``side(header, player)`` is the side a player plays (a faction);
    ``side_name`` names it in documents (``faction``, ``player``);
    ``expansions(header)`` the expansions a game was played with.
    ``document(figures)`` builds the game's document (a msgspec Struct tagged
    with the game's name in ``game``, with ``version: 1``) from a :class:`Figures`; ``explain(figures, figure)``
    lists the lines behind one figure (raises KeyError for a figure it does not
    know, whose text says which it does); ``figures`` names what ``--explain``
    takes, as examples for its help. ``charts`` names each chart of the HTML
    page: (kind, table, label column, value column, count column), kind being
    ``bars``, ``lines`` or ``heat``. ``links`` names the figure behind a cell of
    the document's tables, for the HTML page to list the games and lines it
    rests on: (table, column, figure), the figure an ``explain`` figure whose
    ``{column}`` are the row's values (``summary``: the row of that name).

    The human formats (text, Markdown, HTML) write names in words: a table's,
    a column's and a summary figure's name with spaces for its underscores
    (``win_rate``: "win rate", ``vp``: "VP"), or its entry in ``words``
    (``vp_sources``: "VP by source"); a value of a column ``values`` names in
    its words (a VP source ``stage_1``: "stage I objectives"); the columns
    (and summary figures) of ``percentages``, rates from 0 to 1, as
    percentages. JSON and CSV keep the names and values as they are.
    """

    facts: Mapping[type, Callable[[Any, dict], Iterable[Fact]]]
    document: Callable[[Figures], Any]
    explain: Callable[[Figures, str], list[Explained]]
    side: Callable[[Any, str], str] = lambda header, player: player
    side_name: str = "player"
    expansions: Callable[[Any], tuple[str, ...]] = lambda header: ()
    figures: tuple[str, ...] = ()
    charts: tuple[tuple[str, str, str, str, str], ...] = field(default_factory=tuple)
    links: tuple[tuple[str, str, str], ...] = field(default_factory=tuple)
    words: Mapping[str, str] = field(default_factory=dict)
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    percentages: tuple[str, ...] = ("win_rate",)


def by_period(rows: Iterable[PeriodRow]) -> Iterator[PeriodRow]:
    """Rows in the order of their periods (as :meth:`Figures.periods` gives them), each period's by side
    (:func:`by_name`), one period held at a time. Raises ValueError for a period given after a later one."""
    run: list[PeriodRow] = []
    for row in rows:
        if run and row.period != run[0].period:
            if row.period < run[0].period:
                raise ValueError(f"period {row.period} read after period {run[0].period}: periods() must be in order")
            yield from sorted(run, key=lambda r: by_name(r.side))
            run = []
        run.append(row)
    yield from sorted(run, key=lambda r: by_name(r.side))


def rate(part: int, whole: int) -> float | None:
    """``part / whole`` to 3 places (None when ``whole`` is 0): computed here, so every backend gives the same."""
    return round(part / whole, 3) if whole else None


def mean(total: int, count: int) -> float | None:
    """``total / count`` to 2 places (None when ``count`` is 0)."""
    return round(total / count, 2) if count else None


def spread(total: int, squares: int, count: int) -> float | None:
    """The standard deviation of ``count`` values from their sum and sum of squares, to 2 places."""
    if not count:
        return None
    variance = max(squares / count - (total / count) ** 2, 0.0)
    return round(variance ** 0.5, 2)


SIDES = frozenset({"PLAYER", "FACTION"})
"""The names a figure's pattern gives a side by (:func:`explainer`): resolved among the sides of the games chosen."""

NUMBERS = frozenset({"TURN", "ROUND"})
"""The names a figure's pattern gives a period by: a whole number."""

Route = Callable[..., list[Explained]]
"""The lines behind one figure: called with the figures and each name the figure's pattern gives, in order."""


def side_routes(sides: str, side: str, score: str, periods: str, period: str) -> dict[str, Route]:
    """The routes every game has (``players/PLAYER/wins``...: ``sides``, ``side`` and ``score`` name them as the
    game's document does): a side's wins, its mean final score, its mean score after a period (``periods``,
    ``period``: ``turns/TURN`` or ``rounds/ROUND``)."""
    return {
        f"{sides}/{side}/wins": lambda figures, chosen: figures.win_lines(chosen),
        f"{sides}/{side}/{score}": lambda figures, chosen: figures.score_lines(chosen, None),
        f"{periods}/{period}/{side}/{score}": lambda figures, at, chosen: figures.score_lines(chosen, at),
    }


def explainer(routes: Mapping[str, Route]) -> Callable[[Figures, str], list[Explained]]:
    """A game's ``Statistics.explain`` made of its figures' routes, the one router of every game: each pattern (one
    of ``Statistics.figures``: ``players/PLAYER/wins``, lower case as written, upper case a name to give) with the
    function of the lines behind it.

    A figure takes the first pattern of as many parts whose written parts it repeats; what it gives for a
    :data:`SIDES` name is the side (the player, the faction) of the games chosen it names in any case
    (:func:`named`), for a :data:`NUMBERS` name its number (a figure whose part there is no number takes no
    pattern), for any other (an objective, a colour) the text as given, which the route names in its own list.
    Raises KeyError saying there is no such figure (naming the patterns), or no such side.
    """

    def explain(figures: Figures, figure: str) -> list[Explained]:
        parts = figure.split("/")
        for pattern, route in routes.items():
            slots = pattern.split("/")
            if len(slots) != len(parts) or any(not slot.isupper() and slot != part for slot, part in zip(slots, parts)):
                continue
            if any(slot in NUMBERS and not part.isdigit() for slot, part in zip(slots, parts)):
                continue
            sides = [s.side for s in figures.sides()] if SIDES & set(slots) else []
            given = [named(sides, part, slot.lower()) if slot in SIDES else int(part) if slot in NUMBERS else part
                     for slot, part in zip(slots, parts) if slot.isupper()]
            return route(figures, *given)
        raise KeyError(f"no figure {figure!r}: --explain takes {', '.join(routes)}")

    return explain


def named(names: Iterable[str], given: str, what: str) -> str:
    """The name in ``names`` that ``given`` is, in any case (``--explain`` takes names as typed); raises KeyError
    saying there is no such ``what`` in the games chosen."""
    for name in names:
        if name.casefold() == given.casefold():
            return name
    raise KeyError(f"no {what} {given!r} in the games chosen")
