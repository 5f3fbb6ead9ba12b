"""What Uchronia counts across games (``gamelog stats``), and its document (docs/cli.md, "stats").

Every fact is read off an event the rules stored:

* ``built`` (colour, cost): a ``BuildingCompleted`` (UCH-COMPLETE; -1 for a completion a correction took back);
* ``monopoly`` (colour): a ``MonopolySet`` giving a player the colour's monopoly;
* ``forum`` (colour, ``in`` or ``out``): a ``ForumChanged``, the cards that came onto the Forum or left it;
* ``end`` (how): the game's ``GameWon`` (UCH-WINNER): ``tie-break`` when a tie on VP was broken by buildings
  built, ``unbroken tie`` when the rules named no winner, ``most VP`` otherwise.

A player's VP after each turn is the views' score after it; winners by seat come from the game's own end.
"""

from __future__ import annotations

from typing import Iterable

from msgspec import UNSET, UnsetType

from gamelog.domain.events import GameWon
from gamelog.domain.replay_document import Document, StreamedRows
from gamelog.domain.statistics import (PlayTime, Fact, Figures, Route, Statistics, StatsDocument, by_name, by_period,
                                      explainer, mean, named, rate, side_routes, spread)
from gamelog.domain.uchronia.events import BuildingCompleted, ForumChanged, MonopolySet
from gamelog.domain.uchronia.reference import COLORS


def _built(e: BuildingCompleted, memo: dict) -> Iterable[Fact]:
    return (Fact(e.player, "built", e.color, str(e.cost), -1 if e.undoes else 1),)


def _monopoly(e: MonopolySet, memo: dict) -> Iterable[Fact]:
    return (Fact(e.player, "monopoly", e.color, "", 1),) if e.player else ()


def _forum(e: ForumChanged, memo: dict) -> Iterable[Fact]:
    return (Fact("", "forum", e.color, "in" if e.count > 0 else "out", abs(e.count)),)


def _end(e: GameWon, memo: dict) -> Iterable[Fact]:
    # The rule that ended the game said how it decided (rules.winner): a tie broken, a tie unbroken, or most VP.
    how = "unbroken tie" if e.winner is None else ("tie-break" if e.reason.startswith("tie on") else "most VP")
    return (Fact(e.winner or "", "end", how, "", 1),)


FACTS = {BuildingCompleted: _built, MonopolySet: _monopoly, ForumChanged: _forum, GameWon: _end}


class Player(Document, kw_only=True):
    """A player over the ``games`` they played: ``wins`` (the game's own end), ``win_rate``, mean and spread of final
    VP, ``buildings`` completed and ``monopolies`` taken."""

    player: str
    games: int
    wins: int
    win_rate: float | None
    mean_vp: float | None
    vp_spread: float | None
    buildings: int
    monopolies: int


class Turn(Document, kw_only=True):
    """A player's VP after a turn of the game: mean and spread over ``games``."""

    turn: int
    player: str
    mean_vp: float | None
    games: int
    spread: float | None


class Building(Document, kw_only=True):
    """Buildings completed of a colour and cost, over the ``games`` they were built in."""

    color: str
    cost: int
    built: int
    games: int


class Monopoly(Document, kw_only=True):
    """How often a player took a colour's monopoly, over the ``games`` they played."""

    player: str
    color: str
    taken: int
    games: int


class Flow(Document, kw_only=True):
    """The Forum's cards of a colour: how many came onto it and left it, over ``games``."""

    color: str
    added: int
    removed: int
    games: int


class Seat(Document, kw_only=True):
    """Wins from a seat (1: the header's first player) over the ``games`` played from it."""

    seat: int
    games: int
    wins: int
    win_rate: float | None


class Ending(Document, kw_only=True):
    """How the game's end decided its winner, in how many ``games``."""

    how: str
    games: int


class Stats(StatsDocument, kw_only=True, tag_field="game", tag="uchronia"):
    """``stats --format json`` for Uchronia (docs/cli.md): each list a table of ``--table NAME``."""

    games: int
    finished: int
    players: list[Player]
    turns: list[Turn]
    buildings: list[Building]
    monopolies: list[Monopoly]
    forum: list[Flow]
    seats: list[Seat]
    endings: list[Ending]
    tie_breaks: int
    version: int = 1
    """The document's version: 1. Fields are added within a version; a change that is not an addition raises it."""
    mean_game_seconds: int | None | UnsetType = UNSET
    """The games' mean length in seconds, from their lines' ``at`` (null: no game's lines have it: not recorded)."""
    time_per_player: list[PlayTime] | UnsetType = UNSET
    """Each player's time (their turns') over the games whose lines have ``at``."""




def _colour(color: str) -> tuple[int, str]:
    return (COLORS.index(color) if color in COLORS else len(COLORS), color)


def document(figures: Figures) -> Stats:
    """The figures of the games ``figures`` reads, as :class:`Stats`."""
    games, finished = figures.count()
    sides = {s.side: s for s in figures.sides()}
    built = figures.tallies("built", True)
    monopolies = figures.tallies("monopoly", True)
    players = [Player(player=s.side, games=s.games, wins=s.wins, win_rate=rate(s.wins, s.games),
                      mean_vp=mean(s.score, s.games), vp_spread=spread(s.score, s.squares, s.games),
                      buildings=sum(t.amount for t in built if t.side == s.side),
                      monopolies=sum(t.amount for t in monopolies if t.side == s.side))
               for s in sorted(sides.values(), key=lambda s: by_name(s.side))]
    turns = StreamedRows(lambda: (Turn(turn=p.period, player=p.side, mean_vp=mean(p.score, p.games),
                                       games=p.games, spread=spread(p.score, p.squares, p.games))
                                  for p in by_period(figures.periods())))
    buildings = [Building(color=t.name, cost=int(t.detail), built=t.amount, games=t.games)
                 for t in sorted(figures.tallies("built", False), key=lambda t: (_colour(t.name), int(t.detail)))]
    taken = [Monopoly(player=t.side, color=t.name, taken=t.amount, games=sides[t.side].games)
             for t in sorted(monopolies, key=lambda t: (by_name(t.side), _colour(t.name))) if t.side in sides]
    flows: dict[str, list[int]] = {}
    for t in figures.tallies("forum", False):
        flow = flows.setdefault(t.name, [0, 0, 0])
        flow[0 if t.detail == "in" else 1] += t.amount
        flow[2] = max(flow[2], t.games)
    forum = [Flow(color=c, added=f[0], removed=f[1], games=f[2]) for c, f in sorted(flows.items(), key=lambda i: _colour(i[0]))]
    seats = [Seat(seat=seat, games=n, wins=w, win_rate=rate(w, n)) for seat, n, w in sorted(figures.seats())]
    endings = [Ending(how=t.name, games=t.games) for t in sorted(figures.tallies("end", False), key=lambda t: t.name)]
    return Stats(games=games, finished=finished, players=players, turns=turns, buildings=buildings,
                 monopolies=taken, forum=forum, seats=seats, endings=endings,
                 tie_breaks=sum(e.games for e in endings if e.how == "tie-break"))


ROUTES: dict[str, Route] = {
    **side_routes("players", "PLAYER", "mean_vp", "turns", "TURN"),
    "players/PLAYER/buildings": lambda figures, player: figures.fact_lines("built", None, None, player),
    "buildings/COLOR/built":
        lambda figures, color: figures.fact_lines("built", named(list(COLORS), color, "colour"), None, None),
    "forum/COLOR/added":
        lambda figures, color: figures.fact_lines("forum", named(list(COLORS), color, "colour"), "in", None),
    "forum/COLOR/removed":
        lambda figures, color: figures.fact_lines("forum", named(list(COLORS), color, "colour"), "out", None),
    "tie_breaks": lambda figures: figures.fact_lines("end", "tie-break", None, None),
}
"""The figures ``--explain`` opens (upper case: a name to give, in any case) and the lines behind each."""

FIGURES = tuple(ROUTES)


STATISTICS = Statistics(
    facts=FACTS,
    document=document,
    explain=explainer(ROUTES),
    figures=FIGURES,
    charts=(("bars", "players", "player", "win_rate", "games"),
            ("lines", "turns", "player", "mean_vp", "turn"),
            ("heat", "buildings", "color", "built", "cost")),
    links=(("players", "wins", "players/{player}/wins"), ("players", "mean_vp", "players/{player}/mean_vp"),
           ("players", "buildings", "players/{player}/buildings"), ("turns", "mean_vp", "turns/{turn}/{player}/mean_vp"),
           ("forum", "added", "forum/{color}/added"), ("forum", "removed", "forum/{color}/removed"),
           ("summary", "tie_breaks", "tie_breaks")),
)
